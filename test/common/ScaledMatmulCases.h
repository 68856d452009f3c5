// kernels/scaled_matmul.blk against float64, on the interpreter and on the
// GPU: C = (A @ W^T) * SA[i] * SW[j] with fp8 operands, one scale per tensor
// (stride 0) or per row, W stored [N, K] (K-major: the wgmma path on sm_90a)
// or [K, N] (through strides: mma.sync from registers).
#ifndef BLK_TEST_COMMON_SCALEDMATMULCASES_H
#define BLK_TEST_COMMON_SCALEDMATMULCASES_H

#include "MatmulCases.h"

namespace blk::ref {

/// A compiled variant of kernels/scaled_matmul.blk (its `# variants:` line).
struct ScaledMatmulVariant {
  DType in, out;
  int blockM, blockN, blockK, warps, stages;
  /// The `.spec` build: unit strides along K and C's rows, the other
  /// strides and the sizes multiples of 16.
  bool spec = false;
  Bindings bindings() const {
    Bindings b = {{"T", name(in)}, {"TC", name(out)}, {"BLOCK_M", std::to_string(blockM)},
                  {"BLOCK_N", std::to_string(blockN)}, {"BLOCK_K", std::to_string(blockK)},
                  {"num_warps", std::to_string(warps)}};
    if (stages)
      b.push_back({"num_stages", std::to_string(stages)});
    if (spec)
      b.push_back({"spec", "spec"});
    return b;
  }
  /// The output's rounding, and at least 1e-3: fp8 tensor cores may keep
  /// fewer bits of the f32 sum (a misplaced or wrongly rounded fp8 input is
  /// off by percents).
  double tolerance() const { return std::max(out == DType::F32 ? 1e-5 : ref::tolerance(out), 1e-3); }
};

inline const std::vector<ScaledMatmulVariant> &scaledMatmulVariants() {
  static const std::vector<ScaledMatmulVariant> v = {{DType::F8E4M3, DType::BF16, 32, 64, 64, 4, 0},
                                                     {DType::F8E4M3, DType::BF16, 128, 128, 128, 8, 4},
                                                     {DType::F8E4M3, DType::BF16, 128, 256, 128, 8, 3},
                                                     {DType::F8E5M2, DType::F32, 64, 128, 64, 4, 3}};
  return v;
}

struct ScaledMatmulShape {
  int m, n, k;
  bool rowwise;      // one scale per row of A and of W, else one per tensor
  bool wKN = false;  // W stored K x N (its transpose row-major)
};

inline std::vector<Check> scaledMatmulCase(const Launch &L, const ScaledMatmulVariant &v, ScaledMatmulShape s,
                                           std::mt19937_64 &rng) {
  Buffer a(v.in, size_t(s.m) * s.k), w(v.in, size_t(s.n) * s.k), c(v.out, size_t(s.m) * s.n);
  Buffer sa(DType::F32, s.rowwise ? size_t(s.m) : 1), sw(DType::F32, s.rowwise ? size_t(s.n) : 1);
  fillOperands(a, w, rng);
  sa.fillUniform(rng, 0.25, 4);
  sw.fillUniform(rng, 0.25, 4);
  c.poison();
  // W[j, k] at j * swn + k * swk.
  int64_t swn = s.wKN ? 1 : s.k, swk = s.wKN ? s.n : 1;
  unsigned grid = unsigned(((s.m + v.blockM - 1) / v.blockM) * ((s.n + v.blockN - 1) / v.blockN));
  int stride = s.rowwise ? 1 : 0;
  std::string e = L("scaled_matmul", v.bindings(), "scaled_matmul", grid,
                    {KArg::buf_(a), KArg::buf_(w), KArg::buf_(c), KArg::buf_(sa), KArg::buf_(sw), KArg::int_(s.m),
                     KArg::int_(s.n), KArg::int_(s.k), KArg::int_(s.k), KArg::int_(1), KArg::int_(swn),
                     KArg::int_(swk), KArg::int_(s.n), KArg::int_(1), KArg::int_(stride), KArg::int_(stride)});
  std::string what = std::string("scaled_matmul ") + name(v.in) + "->" + name(v.out) + " " +
                     std::to_string(v.blockM) + "x" + std::to_string(v.blockN) + "x" + std::to_string(v.blockK) +
                     " on " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                     (s.rowwise ? " row-wise" : " per-tensor") + (s.wKN ? " W as K x N" : "");
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(size_t(s.m) * s.n, 0.0);
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      double sum = 0;
      for (int kk = 0; kk < s.k; ++kk)
        sum += a.get(size_t(i) * s.k + kk) * w.get(size_t(j * swn + kk * swk));
      ref[size_t(i) * s.n + j] = sum * sa.get(s.rowwise ? size_t(i) : 0) * sw.get(s.rowwise ? size_t(j) : 0);
    }
  return {{what, relativeError(c, ref), v.tolerance()}};
}

/// Every variant on ragged shapes (unspecialized builds); with `large`, the
/// `.spec` builds on sizes that are multiples of 16 but not of the blocks
/// (K ragged against BLOCK_K, one tile, many). `specializes` (the JIT):
/// W stored K x N there too.
inline std::vector<Check> scaledMatmulSuite(const Launch &L, bool large, std::mt19937_64 &rng,
                                            bool specializes = false) {
  std::vector<Check> checks;
  auto run = [&](const ScaledMatmulVariant &v, ScaledMatmulShape s) {
    for (Check &c : scaledMatmulCase(L, v, s, rng))
      checks.push_back(std::move(c));
  };
  for (const ScaledMatmulVariant &v : scaledMatmulVariants())
    for (ScaledMatmulShape s : std::vector<ScaledMatmulShape>{
             {45, 70, 33, false}, {100, 77, 150, true}, {37, 50, 64, true, true}})
      run(v, s);
  if (!large)
    return checks;
  for (ScaledMatmulVariant v : scaledMatmulVariants()) {
    v.spec = true;
    std::vector<ScaledMatmulShape> shapes = {
        {272, 400, 208, true}, {128, 256, 128, false}, {512, 256, 1024, true}, {16, 16, 16, false}, {144, 528, 400, true}};
    if (specializes)
      shapes.insert(shapes.end(), {{272, 400, 208, true, true}, {64, 128, 96, false, true}});
    for (ScaledMatmulShape s : shapes)
      run(v, s);
  }
  return checks;
}

} // namespace blk::ref

#endif
