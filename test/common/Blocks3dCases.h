// test/kernels/blocks_3d.blk against host results, on the interpreter and on
// the GPU: reductions and scans along each axis of [A, B, C] tiles,
// permutations, join, split and interleave through a third dimension,
// group-wise scales through a reshape, and a product summed over a
// broadcast [M, K, N] block. Integers and moved elements compare exactly,
// floats against float64 references; outputs start poisoned.
#ifndef BLK_TEST_COMMON_BLOCKS3DCASES_H
#define BLK_TEST_COMMON_BLOCKS3DCASES_H

#include "ShapeCases.h"

namespace blk::ref {

/// A variant of blocks_3d.blk's `# variants:` line: element type and tile.
struct Blocks3dVariant {
  DType type;
  int a = 4, b = 8, c = 32;
  bool shaped = false; // the tile is bound in the variant's name
  int tile() const { return a * b * c; }
  Bindings bindings() const {
    Bindings out{{"T", ref::name(type)}};
    if (shaped)
      out.insert(out.end(), {{"A", std::to_string(a)}, {"B", std::to_string(b)}, {"C", std::to_string(c)}});
    return out;
  }
  std::string name() const {
    return std::string(ref::name(type)) + " [" + std::to_string(a) + ", " + std::to_string(b) + ", " +
           std::to_string(c) + "]";
  }
};

inline std::vector<Blocks3dVariant> blocks3dVariants() {
  return {{DType::F32}, {DType::BF16}, {DType::I32}, {DType::F32, 16, 16, 4, true}, {DType::I32, 2, 8, 64, true}};
}

/// Inputs: small integers for i32 (every sum exact), uniform in [-4, 4) otherwise.
inline Buffer blocks3dInput(DType t, size_t n, std::mt19937_64 &rng) {
  if (t != DType::I32)
    return randomBuffer(t, n, rng);
  Buffer b(t, n);
  std::uniform_int_distribution<int32_t> dist(-100, 100);
  for (size_t i = 0; i < n; ++i)
    b.set(i, dist(rng));
  return b;
}

/// `out` against `ref`: integers element by element, floats by relativeError.
inline Check blocks3dCheck(const std::string &what, const Buffer &out, const std::vector<double> &ref) {
  if (!isInteger(out.type))
    return {what, relativeError(out, ref), tolerance(out.type)};
  for (size_t i = 0; i < ref.size(); ++i)
    if (out.get(i) != ref[i])
      return {what + ": element " + std::to_string(i) + " is " + show(out.get(i)) + ", not " + show(ref[i]),
              INFINITY, 0.5};
  return exact(what, true);
}

/// The programs' tiles of `x`, zero past its n elements, as [p][a][b][c].
struct Tiles {
  const Blocks3dVariant &v;
  Buffer x;
  double at(int p, int i, int j, int k) const { return x.get(((size_t(p) * v.a + i) * v.b + j) * v.c + k); }
};

inline std::vector<Check> reduce3Case(const Launch &L, const Blocks3dVariant &v, int n, std::mt19937_64 &rng) {
  int programs = (n + v.tile() - 1) / v.tile();
  Buffer x = blocks3dInput(v.type, size_t(n), rng);
  size_t P = size_t(programs);
  Buffer s0 = poisoned(v.type, P * v.b * v.c), m1 = poisoned(v.type, P * v.a * v.c),
         s2 = poisoned(v.type, P * v.a * v.b), s12 = poisoned(v.type, P * v.a);
  std::string what = "reduce3 " + v.name() + " n=" + std::to_string(n);
  std::string e = L("blocks_3d", v.bindings(), "reduce3", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(s0), KArg::buf_(m1), KArg::buf_(s2), KArg::buf_(s12), KArg::int_(n)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  Tiles t{v, zeroPadded(x, P * v.tile())};
  std::vector<double> r0(s0.size(), 0.0), r1(m1.size(), -INFINITY), r2(s2.size(), 0.0), r12(s12.size(), 0.0);
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < v.a; ++i)
      for (int j = 0; j < v.b; ++j)
        for (int k = 0; k < v.c; ++k) {
          double e = t.at(p, i, j, k);
          r0[(size_t(p) * v.b + j) * v.c + k] += e;
          double &m = r1[(size_t(p) * v.a + i) * v.c + k];
          m = std::max(m, e);
          r2[(size_t(p) * v.a + i) * v.b + j] += e;
          r12[size_t(p) * v.a + i] += e;
        }
  return {blocks3dCheck(what + ": sum along axis 0", s0, r0), blocks3dCheck(what + ": max along axis 1", m1, r1),
          blocks3dCheck(what + ": sum along axis 2", s2, r2),
          blocks3dCheck(what + ": sum along axes 2 and 1", s12, r12)};
}

inline std::vector<Check> scan3Case(const Launch &L, const Blocks3dVariant &v, int n, std::mt19937_64 &rng) {
  int programs = (n + v.tile() - 1) / v.tile();
  size_t span = size_t(programs) * v.tile();
  Buffer x = blocks3dInput(v.type, size_t(n), rng);
  Buffer y0 = poisoned(v.type, span), y1 = poisoned(v.type, span), y2 = poisoned(v.type, span);
  std::string what = "scan3 " + v.name() + " n=" + std::to_string(n);
  std::string e = L("blocks_3d", v.bindings(), "scan3", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(y0), KArg::buf_(y1), KArg::buf_(y2), KArg::int_(n)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  Tiles t{v, zeroPadded(x, span)};
  std::vector<double> r0(span), r1(span), r2(span);
  auto index = [&](int p, int i, int j, int k) { return ((size_t(p) * v.a + i) * v.b + j) * v.c + k; };
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < v.a; ++i)
      for (int j = 0; j < v.b; ++j)
        for (int k = 0; k < v.c; ++k) {
          double e = t.at(p, i, j, k);
          r0[index(p, i, j, k)] = e + (i ? r0[index(p, i - 1, j, k)] : 0.0);
          r1[index(p, i, j, k)] = e + (j ? r1[index(p, i, j - 1, k)] : 0.0);
        }
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < v.a; ++i)
      for (int j = 0; j < v.b; ++j)
        for (int k = v.c - 1; k >= 0; --k)
          r2[index(p, i, j, k)] = t.at(p, i, j, k) + (k + 1 < v.c ? r2[index(p, i, j, k + 1)] : 0.0);
  return {blocks3dCheck(what + ": cumsum along axis 0", y0, r0), blocks3dCheck(what + ": cumsum along axis 1", y1, r1),
          blocks3dCheck(what + ": reverse cumsum along axis 2", y2, r2)};
}

inline std::vector<Check> moves3Case(const Launch &L, const Blocks3dVariant &v, int n, std::mt19937_64 &rng) {
  int programs = (n + v.tile() - 1) / v.tile();
  size_t span = size_t(programs) * v.tile();
  Buffer x = blocks3dInput(v.type, size_t(n), rng);
  Buffer p = poisoned(v.type, span), q = poisoned(v.type, span), j = poisoned(v.type, 2 * span),
         even = poisoned(v.type, span / 2), odd = poisoned(v.type, span / 2), mixed = poisoned(v.type, 2 * span);
  std::string what = "moves3 " + v.name() + " n=" + std::to_string(n);
  std::string e = L("blocks_3d", v.bindings(), "moves3", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(p), KArg::buf_(q), KArg::buf_(j), KArg::buf_(even), KArg::buf_(odd),
                     KArg::buf_(mixed), KArg::int_(n)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  Buffer xz = zeroPadded(x, span), rp(v.type, span), rq(v.type, span), rj(v.type, 2 * span),
         re(v.type, span / 2), ro(v.type, span / 2);
  const size_t A = v.a, B = v.b, C = v.c;
  for (size_t pr = 0; pr < size_t(programs); ++pr) {
    size_t base = pr * A * B * C;
    for (size_t a = 0; a < A; ++a)
      for (size_t b = 0; b < B; ++b)
        for (size_t c = 0; c < C; ++c) {
          size_t from = base + (a * B + b) * C + c;
          copyElement(rp, base + (c * A + a) * B + b, xz, from);
          copyElement(rq, base + (b * A + a) * C + c, xz, from);
        }
  }
  // The tile as rows of C: join with its negation, its even and odd columns.
  for (size_t i = 0; i < span; ++i) {
    copyElement(rj, 2 * i, xz, i);
    rj.set(2 * i + 1, -xz.get(i));
    copyElement(i % 2 ? ro : re, i / 2, xz, i);
  }
  return {sameBytes(what + ": permute (2, 0, 1)", p, rp), sameBytes(what + ": permute (1, 0, 2)", q, rq),
          sameBytes(what + ": join with the negation", j, rj), sameBytes(what + ": split, even columns", even, re),
          sameBytes(what + ": split, odd columns", odd, ro), sameBytes(what + ": interleave", mixed, rj)};
}

/// group_scale at its default tiling (32 rows of 128 columns, groups of 32).
inline std::vector<Check> groupScaleCase(const Launch &L, const Blocks3dVariant &v, int rows, std::mt19937_64 &rng) {
  constexpr int R = 32, W = 128, G = 32;
  size_t n = size_t(rows) * W;
  Buffer x = blocks3dInput(v.type, n, rng);
  Buffer q = poisoned(DType::F32, n), sc = poisoned(DType::F32, size_t(rows) * (W / G));
  std::string what = "group_scale " + v.name() + " rows=" + std::to_string(rows);
  std::string e = L("blocks_3d", v.bindings(), "group_scale", unsigned((rows + R - 1) / R),
                    {KArg::buf_(x), KArg::buf_(q), KArg::buf_(sc), KArg::int_(rows)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rq(n), rs(sc.size());
  for (size_t r = 0; r < size_t(rows); ++r)
    for (size_t g = 0; g < W / G; ++g) {
      double m = 0;
      for (size_t k = 0; k < G; ++k)
        m = std::max(m, std::fabs(x.get(r * W + g * G + k)));
      double s = m / 127.0 + 1e-6;
      rs[r * (W / G) + g] = s;
      for (size_t k = 0; k < G; ++k)
        rq[r * W + g * G + k] = x.get(r * W + g * G + k) / s;
    }
  return {blocks3dCheck(what + ": scales", sc, rs), blocks3dCheck(what + ": scaled values", q, rq)};
}

/// broadcast_product at its default tiling (16 x 16 tiles, 8 columns a step).
inline std::vector<Check> broadcastProductCase(const Launch &L, const Blocks3dVariant &v, int M, int N, int K,
                                               std::mt19937_64 &rng) {
  Buffer x = blocks3dInput(v.type, size_t(M) * K, rng), y = blocks3dInput(v.type, size_t(K) * N, rng);
  Buffer z = poisoned(DType::F32, size_t(M) * N);
  std::string what = "broadcast_product " + v.name() + " " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                     std::to_string(K);
  std::string e = L("blocks_3d", v.bindings(), "broadcast_product", LaunchGrid(unsigned((M + 15) / 16), unsigned((N + 15) / 16)),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(z), KArg::int_(M), KArg::int_(N), KArg::int_(K)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rz(z.size(), 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        rz[size_t(i) * N + j] += x.get(size_t(i) * K + k) * y.get(size_t(k) * N + j);
  return {blocks3dCheck(what, z, rz)};
}

/// Every case of one variant, at sizes that leave the last tile ragged.
inline std::vector<Check> blocks3dCases(const Launch &L, const Blocks3dVariant &v, std::mt19937_64 &rng) {
  std::vector<Check> all;
  auto add = [&](std::vector<Check> more) { all.insert(all.end(), more.begin(), more.end()); };
  for (int n : {v.tile(), 2 * v.tile() + v.tile() / 3 + 1}) {
    add(reduce3Case(L, v, n, rng));
    add(scan3Case(L, v, n, rng));
    add(moves3Case(L, v, n, rng));
  }
  add(groupScaleCase(L, v, 70, rng));
  add(broadcastProductCase(L, v, 37, 21, 29, rng));
  return all;
}

} // namespace blk::ref

#endif
