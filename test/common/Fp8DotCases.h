// test/kernels/fp8_dots.blk against float64, on the interpreter and on the
// GPU: fp8 products whose A or B is quantized in registers each iteration
// (wgmma with A from registers, or B written K-major into shared memory),
// one whose A rows are gathered through an index vector, loads whose
// `other` is not zero (fp8 and bf16), operands stored along M and N, and a
// bf16 product followed by an e4m3 product of its rounded result.
#ifndef BLK_TEST_COMMON_FP8DOTCASES_H
#define BLK_TEST_COMMON_FP8DOTCASES_H

#include "DotStressCases.h"
#include "blk/Support/FloatBits.h"

#include <array>

namespace blk::ref {

inline const std::vector<DotStressVariant> &fp8DotVariants() {
  static const std::vector<DotStressVariant> v = {matmulStressVariant(128, 128, 128, 8, 3),
                                                  matmulStressVariant(64, 64, 64, 4, 3),
                                                  matmulStressVariant(32, 64, 64, 0, 0)};
  return v;
}

inline LaunchGrid fp8Grid(const DotStressVariant &v, GemmShape s) {
  return LaunchGrid(unsigned((s.m + v.blockM - 1) / v.blockM), unsigned((s.n + v.blockN - 1) / v.blockN));
}

/// The float64 product of `s.m` x `s.k` and `s.k` x `s.n` operands read by
/// `a(i, k)` and `b(k, j)`, each element starting from `start`.
template <typename A, typename B>
std::vector<double> productReference(GemmShape s, A a, B b, double start = 0.0) {
  std::vector<double> ref(size_t(s.m) * s.n, start);
  for (int i = 0; i < s.m; ++i)
    for (int kk = 0; kk < s.k; ++kk) {
      double x = a(i, kk);
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += x * b(kk, j);
    }
  return ref;
}

/// What the kernels multiply: an f32 product rounded to the fp8 format.
inline double quantized(double x, double scale, F8 format) {
  return fromF8(toF8(float(x) * float(scale), format), format);
}

/// Launches `kernel` of fp8_dots.blk on its four buffers (the last C,
/// [m, n] row-major) with its operands' strides (first operand's rows and
/// columns, then the second's).
inline std::string launchFp8(const Launch &L, const DotStressVariant &v, const char *kernel, GemmShape s,
                             std::array<Buffer *, 4> bufs, std::array<int64_t, 4> strides) {
  return L("fp8_dots", v.withSpec(), kernel, fp8Grid(v, s),
           {KArg::buf_(*bufs[0]), KArg::buf_(*bufs[1]), KArg::buf_(*bufs[2]), KArg::buf_(*bufs[3]), KArg::int_(s.m),
            KArg::int_(s.n), KArg::int_(s.k), KArg::int_(strides[0]), KArg::int_(strides[1]), KArg::int_(strides[2]),
            KArg::int_(strides[3]), KArg::int_(s.n), KArg::int_(1)});
}

/// C = e4m3(X * SX[:, None]) @ W^T, X f32 [m, k], W e4m3 [n, k].
inline std::vector<Check> quantizedXCase(const Launch &L, const DotStressVariant &v, GemmShape s,
                                         std::mt19937_64 &rng) {
  Buffer x(DType::F32, size_t(s.m) * s.k), sx(DType::F32, size_t(s.m)), w(DType::F8E4M3, size_t(s.n) * s.k),
      c(DType::F32, size_t(s.m) * s.n);
  x.fillUniform(rng, -4, 4);
  sx.fillUniform(rng, 0.25, 2);
  w.fillUniform(rng, -1, 1);
  c.poison();
  std::string what = gemmWhat("quantized_x_matmul", v, s);
  std::string e = launchFp8(L, v, "quantized_x_matmul", s, {&x, &sx, &w, &c}, {s.k, 1, s.k, 1});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref = productReference(
      s, [&](int i, int kk) { return quantized(x.get(size_t(i) * s.k + kk), sx.get(size_t(i)), F8::E4M3); },
      [&](int kk, int j) { return w.get(size_t(j) * s.k + kk); });
  return {{what, relativeError(c, ref), 1e-3}};
}

/// C = A @ e5m2(Y * SY[None, :]), A e5m2 [m, k], Y f32 [k, n].
inline std::vector<Check> quantizedYCase(const Launch &L, const DotStressVariant &v, GemmShape s,
                                         std::mt19937_64 &rng) {
  Buffer a(DType::F8E5M2, size_t(s.m) * s.k), y(DType::F32, size_t(s.k) * s.n), sy(DType::F32, size_t(s.n)),
      c(DType::F32, size_t(s.m) * s.n);
  a.fillUniform(rng, -1, 1);
  y.fillUniform(rng, -4, 4);
  sy.fillUniform(rng, 0.25, 2);
  c.poison();
  std::string what = gemmWhat("quantized_y_matmul", v, s);
  std::string e = launchFp8(L, v, "quantized_y_matmul", s, {&a, &y, &sy, &c}, {s.k, 1, s.n, 1});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref = productReference(
      s, [&](int i, int kk) { return a.get(size_t(i) * s.k + kk); },
      [&](int kk, int j) { return quantized(y.get(size_t(kk) * s.n + j), sy.get(size_t(j)), F8::E5M2); });
  return {{what, relativeError(c, ref), 1e-3}};
}

/// C[i, :] = X[idx[i], :] @ W^T over `xRows` rows of X (indices repeat).
inline std::vector<Check> gatheredFp8Case(const Launch &L, const DotStressVariant &v, GemmShape s, int xRows,
                                          std::mt19937_64 &rng) {
  Buffer x(DType::F8E4M3, size_t(xRows) * s.k), idx(DType::I32, size_t(s.m)), w(DType::F8E4M3, size_t(s.n) * s.k),
      c(DType::F32, size_t(s.m) * s.n);
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -1, 1);
  std::uniform_int_distribution<int> pick(0, xRows - 1);
  for (int i = 0; i < s.m; ++i)
    idx.set(size_t(i), pick(rng));
  c.poison();
  std::string what = gemmWhat("gathered_fp8_matmul", v, s, " from " + std::to_string(xRows) + " rows");
  std::string e = launchFp8(L, v, "gathered_fp8_matmul", s, {&x, &idx, &w, &c}, {s.k, 1, s.k, 1});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref = productReference(
      s, [&](int i, int kk) { return x.get(size_t(idx.get(size_t(i))) * size_t(s.k) + size_t(kk)); },
      [&](int kk, int j) { return w.get(size_t(j) * s.k + kk); });
  return {{what, relativeError(c, ref), 1e-3}};
}

/// C = A @ B, A e4m3 stored [k, m] (its transpose), B e5m2 stored [k, n].
inline std::vector<Check> transposedFp8Case(const Launch &L, const DotStressVariant &v, GemmShape s,
                                            std::mt19937_64 &rng) {
  Buffer at(DType::F8E4M3, size_t(s.k) * s.m), b(DType::F8E5M2, size_t(s.k) * s.n),
      c(DType::F32, size_t(s.m) * s.n);
  at.fillUniform(rng, -1, 1);
  b.fillUniform(rng, -1, 1);
  c.poison();
  std::string what = gemmWhat("transposed_fp8_matmul", v, s);
  std::string e = L("fp8_dots", v.withSpec(), "transposed_fp8_matmul", fp8Grid(v, s),
                    {KArg::buf_(at), KArg::buf_(b), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(1), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(1), KArg::int_(s.n), KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref = productReference(
      s, [&](int i, int kk) { return at.get(size_t(kk) * s.m + i); },
      [&](int kk, int j) { return b.get(size_t(kk) * s.n + j); });
  return {{what, relativeError(c, ref), 1e-3}};
}

/// C = X @ W^T + (K rounded up to BLOCK_K) - K: X [m, k] and W [n, k] read
/// as ones past K (loads whose `other` is not zero), in e4m3 or bf16.
inline std::vector<Check> paddedOnesCase(const Launch &L, const DotStressVariant &v, GemmShape s, DType type,
                                         std::mt19937_64 &rng) {
  Buffer x(type, size_t(s.m) * s.k), w(type, size_t(s.n) * s.k), c(DType::F32, size_t(s.m) * s.n);
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -1, 1);
  c.poison();
  const char *kernel = type == DType::BF16 ? "padded_ones_matmul_bf16" : "padded_ones_matmul";
  std::string what = gemmWhat(kernel, v, s);
  std::string e = L("fp8_dots", v.withSpec(), kernel, fp8Grid(v, s),
                    {KArg::buf_(x), KArg::buf_(w), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(s.k), KArg::int_(1), KArg::int_(s.k), KArg::int_(1), KArg::int_(s.n), KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  int blockK = 0;
  for (auto &[k, val] : v.bindings)
    if (k == "BLOCK_K")
      blockK = std::stoi(val);
  double padding = double((s.k + blockK - 1) / blockK * blockK - s.k);
  std::vector<double> ref = productReference(
      s, [&](int i, int kk) { return x.get(size_t(i) * s.k + kk); },
      [&](int kk, int j) { return w.get(size_t(j) * s.k + kk); }, padding);
  return {{what, relativeError(c, ref), 1e-3}};
}

/// A chained kernel of fp8_dots.blk: C = P + round(P) @ B with P = X @ W^T,
/// X bf16 [m, k], W bf16 [n, k], and B [BLOCK_N, BLOCK_N] (`bOf(l, j)`, from
/// V of `vType`) applied to each program's columns: two products whose
/// results an add ties. X and W hold small integers, so that P is exact and
/// rounds as the kernel rounds it (`roundP`).
template <class RoundP, class BOf>
std::vector<Check> chainedCase(const Launch &L, const DotStressVariant &v, GemmShape s, std::mt19937_64 &rng,
                               const char *kernel, DType vType, double tol, RoundP roundP, BOf bOf) {
  int blockN = v.blockN;
  Buffer x(DType::BF16, size_t(s.m) * s.k), w(DType::BF16, size_t(s.n) * s.k),
      vt(vType, size_t(blockN) * blockN), c(DType::F32, size_t(s.m) * s.n);
  std::uniform_int_distribution<int> small(-1, 1), bit(0, 1);
  for (size_t i = 0; i < x.size(); ++i)
    x.set(i, small(rng));
  for (size_t i = 0; i < w.size(); ++i)
    w.set(i, bit(rng));
  vt.fillUniform(rng, -1, 1);
  c.poison();
  std::string what = gemmWhat(kernel, v, s);
  std::string e = launchFp8(L, v, kernel, s, {&x, &w, &vt, &c}, {s.k, 1, s.k, 1});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> p = productReference(
      s, [&](int i, int kk) { return x.get(size_t(i) * s.k + kk); },
      [&](int kk, int j) { return w.get(size_t(j) * s.k + kk); });
  std::vector<double> ref = p;
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      int first = j / blockN * blockN; // the program's first column
      for (int l = 0; l < blockN && first + l < s.n; ++l)
        ref[size_t(i) * s.n + j] += roundP(p[size_t(i) * s.n + first + l]) * bOf(vt, l, j - first);
    }
  return {{what, relativeError(c, ref), tol}};
}

/// chained_mixed_matmul: C = P + e4m3(P) @ V, V e4m3 row-major; two products
/// of different tensor-core shapes.
inline std::vector<Check> chainedMixedCase(const Launch &L, const DotStressVariant &v, GemmShape s,
                                           std::mt19937_64 &rng) {
  int n = v.blockN;
  return chainedCase(
      L, v, s, rng, "chained_mixed_matmul", DType::F8E4M3, 1e-3, [](double p) { return quantized(p, 1.0, F8::E4M3); },
      [n](const Buffer &vt, int l, int j) { return vt.get(size_t(l) * n + j); });
}

/// chained_bf16_matmul: C = P + bf16(P) @ bf16(0.5 V^T), V f32 read
/// transposed: its B is computed in registers after the loop.
inline std::vector<Check> chainedBf16Case(const Launch &L, const DotStressVariant &v, GemmShape s,
                                          std::mt19937_64 &rng) {
  int n = v.blockN;
  return chainedCase(
      L, v, s, rng, "chained_bf16_matmul", DType::F32, 1e-5, [](double p) { return Buffer::rounded(DType::BF16, p); },
      [n](const Buffer &vt, int l, int j) { return Buffer::rounded(DType::BF16, 0.5 * vt.get(size_t(j) * n + l)); });
}

/// fp8 tensor cores may keep fewer bits of the f32 sum than f32 does: 1e-3
/// (a misplaced or wrongly rounded fp8 value is off by percents).
/// Every kernel and variant on ragged shapes; with `large`, the `.spec`
/// builds (unit strides along K and the rows of C and Y, sizes multiples of
/// 16) on shapes that are not multiples of the tiles.
inline std::vector<Check> fp8DotSuite(const Launch &L, bool large, std::mt19937_64 &rng) {
  std::vector<Check> checks;
  auto add = [&](std::vector<Check> more) {
    for (Check &c : more)
      checks.push_back(std::move(c));
  };
  for (DotStressVariant v : fp8DotVariants()) {
    std::vector<GemmShape> shapes = {{45, 70, 150}, {100, 33, 64}};
    for (bool spec : {false, true}) {
      if (spec) {
        if (!large)
          break;
        v.spec = true;
        shapes = {{272, 400, 208}, {128, 128, 384}, {16, 48, 32}};
      }
      for (GemmShape s : shapes) {
        add(quantizedXCase(L, v, s, rng));
        add(quantizedYCase(L, v, s, rng));
        add(gatheredFp8Case(L, v, s, s.m / 2 + 3, rng));
        add(transposedFp8Case(L, v, s, rng));
        add(paddedOnesCase(L, v, s, DType::F8E4M3, rng));
        add(paddedOnesCase(L, v, s, DType::BF16, rng));
        add(chainedMixedCase(L, v, s, rng));
        add(chainedBf16Case(L, v, s, rng));
      }
    }
  }
  return checks;
}

} // namespace blk::ref

#endif
