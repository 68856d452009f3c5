// kernels/matmul.blk against a float64 product of the rounded inputs, on the
// interpreter and on the GPU. Operands can be stored transposed (A^T B and
// A B^T, the matmuls of a linear layer's backward) through their strides.
#ifndef BLK_TEST_COMMON_MATMULCASES_H
#define BLK_TEST_COMMON_MATMULCASES_H

#include "RowCases.h"

#include <cmath>
#include <cstring>

namespace blk::ref {

struct MatmulShape {
  int m, n, k;
  bool transA = false, transB = false; // stored K x M / N x K
};

/// Random operands: floats in [-1, 1] (rounded to the operand type), i8
/// over its whole range.
inline void fillOperands(Buffer &a, Buffer &b, std::mt19937_64 &rng) {
  double range = isInteger(a.type) ? 128 : 1;
  a.fillUniform(rng, -range, range);
  b.fillUniform(rng, -range, range);
}

/// C = A @ B with `variant`'s bindings (in the order of the kernel's
/// `# variants:` line; T and TC first); BLOCK_M/BLOCK_N for the grid.
/// `tf32`: the kernel rounds f32 operands to tf32, and so does the reference
/// (the check then sees f32 accumulation only, and a kernel that truncates
/// or skips the rounding fails).
inline std::vector<Check> matmulCase(const Launch &L, const Bindings &variant, DType in, DType out, int blockM,
                                     int blockN, MatmulShape s, std::mt19937_64 &rng, double tol,
                                     bool tf32 = false) {
  Buffer a(in, size_t(s.m) * s.k), b(in, size_t(s.k) * s.n), c(out, size_t(s.m) * s.n);
  fillOperands(a, b, rng);
  c.poison();
  // Element (i, j) of A at i * sam + j * sak, and so on.
  int64_t sam = s.transA ? 1 : s.k, sak = s.transA ? s.m : 1;
  int64_t sbk = s.transB ? 1 : s.n, sbn = s.transB ? s.k : 1;
  unsigned grid = unsigned(((s.m + blockM - 1) / blockM) * ((s.n + blockN - 1) / blockN));
  std::string e = L("matmul", variant, "matmul", grid,
                    {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(sam), KArg::int_(sak), KArg::int_(sbk), KArg::int_(sbn), KArg::int_(s.n),
                     KArg::int_(1)});
  std::string what = std::string("matmul ") + name(in) + (tf32 ? " (tf32)" : "") + "->" + name(out) + " " +
                     std::to_string(s.m) + "x" +
                     std::to_string(s.n) + "x" + std::to_string(s.k) + (s.transA ? " A^T" : "") +
                     (s.transB ? " B^T" : "");
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  auto operand = [&](double v) { return tf32 ? double(roundToTf32(float(v))) : v; }; // what the kernel multiplies
  std::vector<double> ref(size_t(s.m) * s.n, 0.0);
  for (int i = 0; i < s.m; ++i)
    for (int kk = 0; kk < s.k; ++kk) {
      double x = operand(a.get(size_t(i * sam + kk * sak)));
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += x * operand(b.get(size_t(kk * sbk + j * sbn)));
    }
  return {{what, relativeError(c, ref), tol}};
}

/// C = A @ B through `matmul_tma` (tensor descriptors; TMA on sm_90a for
/// wgmma variants), A, B and C row-major. C is wider than N by a poisoned
/// margin of 16 columns (its row stride stays a multiple of 16, as the
/// `.spec` variants assume), which the descriptor's clipped stores must
/// leave alone.
/// `numSms` > 0: through `matmul_tma_persistent` instead, on min(numSms,
/// tiles) programs (the variant binds NUM_SMS to it), each walking several
/// tiles.
inline std::vector<Check> matmulTmaCase(const Launch &L, const Bindings &variant, DType in, DType out, int blockM,
                                        int blockN, MatmulShape s, std::mt19937_64 &rng, double tol,
                                        bool tf32 = false, int numSms = 0) {
  int64_t ldc = s.n + 16;
  Buffer a(in, size_t(s.m) * s.k), b(in, size_t(s.k) * s.n), c(out, size_t(s.m) * ldc);
  fillOperands(a, b, rng);
  c.poison();
  unsigned grid = unsigned(((s.m + blockM - 1) / blockM) * ((s.n + blockN - 1) / blockN));
  if (numSms > 0)
    grid = std::min(grid, unsigned(numSms));
  std::string e = L("matmul", variant, numSms > 0 ? "matmul_tma_persistent" : "matmul_tma", grid,
                    {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(s.k), KArg::int_(s.n), KArg::int_(ldc)});
  std::string what = std::string(numSms > 0 ? "matmul_tma_persistent " : "matmul_tma ") + name(in) + (tf32 ? " (tf32)" : "") + "->" + name(out) + " " +
                     std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  auto operand = [&](double v) { return tf32 ? double(roundToTf32(float(v))) : v; };
  Buffer got(out, size_t(s.m) * s.n);
  std::vector<double> ref(got.size(), 0.0);
  bool marginPoisoned = true;
  for (int i = 0; i < s.m; ++i) {
    for (int kk = 0; kk < s.k; ++kk) {
      double x = operand(a.get(size_t(i) * s.k + kk));
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += x * operand(b.get(size_t(kk) * s.n + j));
    }
    std::memcpy(&got.data[size_t(i) * s.n * bytes(out)], &c.data[size_t(i) * ldc * bytes(out)], s.n * bytes(out));
    for (size_t byte = size_t(s.n) * bytes(out); byte < size_t(ldc) * bytes(out); ++byte)
      marginPoisoned &= c.data[size_t(i) * ldc * bytes(out) + byte] == (isInteger(out) ? 0x7f : 0xff);
  }
  return {{what, relativeError(got, ref), tol}, exact(what + ": columns past N untouched", marginPoisoned)};
}

/// C[i] = A[i] @ B[i] for `batch` entries through `batched_matmul` (the
/// grid's y), B shared by every entry when `broadcastB` (batch stride 0).
/// Entries sit apart by their size plus a gap, so that a wrong batch stride
/// reads or writes the wrong entry; the gaps stay poisoned.
inline std::vector<Check> batchedMatmulCase(const Launch &L, const Bindings &variant, DType in, DType out, int blockM,
                                            int blockN, MatmulShape s, int batch, bool broadcastB,
                                            std::mt19937_64 &rng, double tol, bool tf32 = false) {
  int64_t sa = int64_t(s.m) * s.k + 16, sb = broadcastB ? 0 : int64_t(s.k) * s.n + 32, sc = int64_t(s.m) * s.n + 48;
  Buffer a(in, size_t(sa * batch)), b(in, size_t(broadcastB ? s.k * s.n : sb * batch)), c(out, size_t(sc * batch));
  fillOperands(a, b, rng);
  c.poison();
  unsigned tiles = unsigned(((s.m + blockM - 1) / blockM) * ((s.n + blockN - 1) / blockN));
  std::string e = L("matmul", variant, "batched_matmul", LaunchGrid(tiles, unsigned(batch)),
                    {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(sa), KArg::int_(s.k), KArg::int_(1), KArg::int_(sb), KArg::int_(s.n), KArg::int_(1),
                     KArg::int_(sc), KArg::int_(s.n), KArg::int_(1)});
  std::string what = std::string("batched matmul ") + name(in) + (tf32 ? " (tf32)" : "") + "->" + name(out) + " " +
                     std::to_string(batch) + "x" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                     std::to_string(s.k) + (broadcastB ? " B broadcast" : "");
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  auto operand = [&](double v) { return tf32 ? double(roundToTf32(float(v))) : v; }; // what the kernel multiplies
  // The entries, gathered, against float64; the gaps must keep their poison.
  Buffer got(out, size_t(batch) * s.m * s.n);
  std::vector<double> ref(got.size());
  std::vector<bool> entry(c.size(), false);
  for (int t = 0; t < batch; ++t)
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) {
        double sum = 0;
        for (int kk = 0; kk < s.k; ++kk)
          sum += operand(a.get(size_t(t * sa + i * s.k + kk))) * operand(b.get(size_t(t * sb + kk * s.n + j)));
        size_t at = size_t(t * sc + i * s.n + j), packed = (size_t(t) * s.m + i) * s.n + j;
        ref[packed] = sum;
        std::memcpy(&got.data[packed * bytes(out)], &c.data[at * bytes(out)], bytes(out));
        entry[at] = true;
      }
  bool gapsPoisoned = true;
  for (size_t i = 0; i < c.size(); ++i)
    for (size_t byte = 0; byte < bytes(out) && !entry[i]; ++byte)
      gapsPoisoned &= c.data[i * bytes(out) + byte] == (isInteger(out) ? 0x7f : 0xff);
  return {{what, relativeError(got, ref), tol}, exact(what + ": gaps between entries untouched", gapsPoisoned)};
}

/// A compiled variant of kernels/matmul.blk (its `# variants:` line).
struct MatmulVariant {
  DType in, out;
  int blockM, blockN, blockK;
  int warps = 0, stages = 0; // 0: the default
  /// Precompiled PTX: the `.spec` build (unit strides of A's K and B's N,
  /// the others and the sizes multiples of 16), for shapes that fit it.
  bool spec = false;
  bool ieee = false; // f32 operands: PRECISION=ieee instead of tf32
  bool warpSpecialize = false; // a producer warpgroup issues the TMA copies
  Bindings bindings() const {
    Bindings b = {{"T", name(in)}, {"TC", name(out)}, {"BLOCK_M", std::to_string(blockM)},
                  {"BLOCK_N", std::to_string(blockN)}, {"BLOCK_K", std::to_string(blockK)}};
    if (ieee)
      b.push_back({"PRECISION", "ieee"});
    if (isInteger(in))
      b.push_back({"ACC", "i32"});
    if (warps)
      b.push_back({"num_warps", std::to_string(warps)});
    if (stages)
      b.push_back({"num_stages", std::to_string(stages)});
    if (warpSpecialize)
      b.push_back({"warp_specialize", "True"});
    if (spec)
      b.push_back({"spec", "spec"});
    return b;
  }
  /// Relative error allowed: the output's rounding (inputs are exact in f32,
  /// or rounded to tf32 in the reference too). fp8 tensor cores may keep
  /// fewer bits of the f32 sum than f32 does: 1e-3 (a wrongly rounded or
  /// misplaced fp8 input is off by percents).
  double tolerance() const {
    double t = out == DType::F32 ? 1e-5 : ref::tolerance(out);
    return isFloat8(in) ? std::max(t, 1e-3) : t;
  }
  // i8 accumulates exactly in i32 (tolerance: exact).
  bool tf32() const { return in == DType::F32 && !ieee; }
};

inline const std::vector<MatmulVariant> &matmulVariants() {
  static const std::vector<MatmulVariant> v = {{DType::F32, DType::F32, 32, 32, 16},
                                               {DType::F32, DType::F32, 32, 32, 16, 0, 0, false, true},
                                               {DType::F16, DType::F16, 32, 32, 16},
                                               {DType::BF16, DType::BF16, 32, 32, 16},
                                               {DType::BF16, DType::F32, 32, 64, 32},
                                               {DType::I8, DType::I32, 32, 64, 32},
                                               {DType::F8E4M3, DType::F32, 32, 64, 32},
                                               {DType::F8E5M2, DType::F16, 32, 64, 32}};
  return v;
}

/// Tensor-core variants with shared-memory pipelines: wgmma on sm_90a (the
/// benchmarks' tiles and smaller), and mma.sync with ldmatrix from the rings
/// (32-row blocks are too short for a warpgroup of 4 warps).
inline const std::vector<MatmulVariant> &tensorCoreVariants() {
  static const std::vector<MatmulVariant> v = {{DType::BF16, DType::BF16, 128, 256, 64, 8, 3, true},
                                               {DType::F16, DType::F16, 128, 256, 64, 8, 3, true},
                                               {DType::BF16, DType::BF16, 128, 128, 64, 4, 4, true},
                                               {DType::BF16, DType::BF16, 64, 64, 32, 4, 3, true},
                                               {DType::BF16, DType::BF16, 32, 64, 32, 4, 3, true},
                                               {DType::F16, DType::F32, 32, 64, 32, 4, 2, true},
                                               {DType::F32, DType::F32, 64, 64, 32, 4, 3, true},
                                               {DType::F8E4M3, DType::BF16, 128, 128, 64, 8, 3, true},
                                               {DType::BF16, DType::BF16, 128, 256, 64, 8, 3, true, false, true},
                                               {DType::F16, DType::F16, 128, 256, 64, 8, 3, true, false, true},
                                               {DType::BF16, DType::BF16, 128, 128, 64, 4, 4, true, false, true}};
  return v;
}

/// Every variant on ragged shapes (no dimension a multiple of the block),
/// with A or B stored transposed; `large` adds sizes worth a GPU and the
/// tensor-core variants on sizes that are multiples of 16 (but not of the
/// blocks). `specializes` when the launch specializes on the arguments
/// itself (the JIT): the `.spec` PTX covers only unit strides of A's K and
/// B's N, so precompiled runs skip the transposed cases there.
inline std::vector<Check> matmulSuite(const Launch &L, bool large, std::mt19937_64 &rng, bool specializes = false) {
  std::vector<MatmulShape> shapes = {{64, 64, 32}, {100, 77, 45}, {33, 130, 70, true}, {50, 40, 90, false, true}};
  if (large)
    shapes.insert(shapes.end(), {{1, 1, 1}, {513, 257, 300}, {300, 513, 257, true}, {257, 300, 513, false, true}});
  std::vector<Check> checks;
  auto run = [&](const MatmulVariant &v, MatmulShape s) {
    for (Check &c : matmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, s, rng, v.tolerance(), v.tf32()))
      checks.push_back(std::move(c));
  };
  // matmul_tma: row-major operands only; row strides of 16-byte multiples
  // (TMA's rule, for the variants that use it; the others take any).
  auto runTma = [&](const MatmulVariant &v, MatmulShape s) {
    for (Check &c : matmulTmaCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, s, rng, v.tolerance(), v.tf32()))
      checks.push_back(std::move(c));
  };
  for (const MatmulVariant &v : matmulVariants()) {
    for (MatmulShape s : shapes)
      run(v, s);
    for (MatmulShape s : std::vector<MatmulShape>{{100, 77, 45}, {64, 48, 96}})
      runTma(v, s);
    for (bool broadcastB : {false, true})
      for (Check &c : batchedMatmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {45, 70, 33}, 3,
                                        broadcastB, rng, v.tolerance(), v.tf32()))
        checks.push_back(std::move(c));
  }
  if (large) {
    std::vector<MatmulShape> aligned = {{272, 400, 208}, {128, 256, 64}, {512, 256, 1024}, {16, 16, 16}};
    if (specializes)
      aligned.insert(aligned.end(), {{272, 400, 208, true}, {400, 272, 208, false, true}, {144, 160, 96, true, true}});
    for (const MatmulVariant &v : tensorCoreVariants()) {
      for (MatmulShape s : aligned)
        run(v, s);
      for (MatmulShape s : std::vector<MatmulShape>{{272, 400, 208}, {528, 272, 1008}, {16, 16, 16}})
        runTma(v, s);
      for (Check &c : batchedMatmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {272, 400, 208}, 4,
                                        false, rng, v.tolerance(), v.tf32()))
        checks.push_back(std::move(c));
    }
  }
  return checks;
}

/// The persistent matmul's variants (kernels/matmul.blk's NUM_SMS entries,
/// 128x256x64, 8 warps, 3 stages): with a producer warpgroup whose tiles
/// count on across the tiles a program walks, and without.
inline std::vector<Bindings> persistentVariants() {
  auto v = [](int sms, bool ws) {
    Bindings b = {{"T", "bf16"}, {"TC", "bf16"}, {"BLOCK_M", "128"}, {"BLOCK_N", "256"}, {"BLOCK_K", "64"},
                  {"NUM_SMS", std::to_string(sms)}, {"num_warps", "8"}, {"num_stages", "3"}};
    if (ws)
      b.push_back({"WARP_SPECIALIZE", "True"});
    b.push_back({"spec", "spec"});
    return b;
  };
  return {v(16, true), v(132, true), v(132, false)};
}

/// The warp-specialized tensor-core variants alone (a producer warpgroup
/// issues the TMA copies), on sizes that wrap every ring several times: a
/// short run for compute-sanitizer's racecheck and synccheck. The
/// persistent ones walk several tiles per program (16 programs).
inline std::vector<Check> warpSpecializedSuite(const Launch &L, std::mt19937_64 &rng) {
  std::vector<Check> checks;
  for (const Bindings &b : persistentVariants()) {
    int sms = std::stoi(b[5].second);
    for (Check &c : matmulTmaCase(L, b, DType::BF16, DType::BF16, 128, 256, {1040, 784, 400}, rng,
                                  ref::tolerance(DType::BF16), false, sms))
      checks.push_back(std::move(c));
  }
  for (const MatmulVariant &v : tensorCoreVariants()) {
    if (!v.warpSpecialize)
      continue;
    for (Check &c : matmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {272, 400, 1008}, rng,
                               v.tolerance(), v.tf32()))
      checks.push_back(std::move(c));
    for (Check &c : matmulTmaCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {528, 272, 208}, rng,
                                  v.tolerance(), v.tf32()))
      checks.push_back(std::move(c));
  }
  return checks;
}

} // namespace blk::ref

#endif
