// test/kernels/imports.blk against float64: helpers, a constant and a kernel
// imported from test/kernels/activations.blk, each helper seeing the names
// of the file that defines it (activations' _sigmoid and BIAS, not the
// importing file's, which would give zeros and a shifted threshold).
#ifndef BLK_TEST_COMMON_IMPORTCASES_H
#define BLK_TEST_COMMON_IMPORTCASES_H

#include "RowCases.h"

namespace blk::ref {

inline std::vector<Check> importsCase(const Launch &L, size_t n, std::mt19937_64 &rng) {
  Buffer x(DType::F32, n), silu(DType::F32, n), leaky(DType::F32, n), scaled(DType::F32, n),
      relu(DType::F32, n);
  x.fillUniform(rng, -6, 6);
  for (Buffer *out : {&silu, &leaky, &scaled, &relu})
    out->poison();
  unsigned grid = unsigned((n + 255) / 256);
  std::string what = " n=" + std::to_string(n);
  std::string e = L("imports", {}, "activate", grid,
                    {KArg::buf_(x), KArg::buf_(silu), KArg::buf_(leaky), KArg::buf_(scaled), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{"activate" + what + ": " + e, INFINITY, 0}};
  e = L("imports", {}, "leaky_relu", grid, {KArg::buf_(x), KArg::buf_(relu), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{"leaky_relu" + what + ": " + e, INFINITY, 0}};
  std::vector<double> siluRef(n), leakyRef(n), scaledRef(n);
  for (size_t i = 0; i < n; ++i) {
    double v = x.get(i);
    siluRef[i] = v / (1 + std::exp(-v));
    leakyRef[i] = v > 0 ? v : v * 0.125;
    scaledRef[i] = v * 0.125 + 100;
  }
  double tol = tolerance(DType::F32);
  return {{"imported silu" + what, relativeError(silu, siluRef), tol},
          {"imported leaky" + what, relativeError(leaky, leakyRef), tol},
          {"imported constant" + what, relativeError(scaled, scaledRef), tol},
          {"imported kernel leaky_relu" + what, relativeError(relu, leakyRef), tol}};
}

} // namespace blk::ref

#endif
