// trans, reshape, broadcast_to, static_range and layout conversions end to
// end (test/kernels/block_ops.blk) against host results, on the interpreter
// and on the GPU.
#ifndef BLK_TEST_COMMON_BLOCKOPCASES_H
#define BLK_TEST_COMMON_BLOCKOPCASES_H

#include "RowCases.h"

namespace blk::ref {

/// OUT = X^T through `kernel`: "transpose" (bands of 32 rows of X, `trans`)
/// or "transpose_by_load" (bands of 64 columns of X, loaded column-major).
inline std::vector<Check> transposeCase(const Launch &L, const std::string &kernel, int rows, int cols,
                                        std::mt19937_64 &rng) {
  Buffer x(DType::F32, size_t(rows) * cols), out(DType::F32, size_t(rows) * cols);
  x.fillUniform(rng, -1, 1);
  out.poison();
  unsigned programs = kernel == "transpose" ? unsigned((rows + 31) / 32) : unsigned((cols + 63) / 64);
  std::string e = L("block_ops", {}, kernel, programs,
                    {KArg::buf_(x), KArg::buf_(out), KArg::int_(rows), KArg::int_(cols)});
  if (!e.empty())
    return {{kernel + ": " + e, INFINITY, 0}};
  std::vector<double> ref(size_t(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      ref[size_t(c) * rows + r] = x.get(size_t(r) * cols + c);
  bool same = true; // moved, not computed: exact (poison, a NaN, never equals)
  for (size_t i = 0; i < ref.size(); ++i)
    same = same && out.get(i) == ref[i];
  return {exact(kernel, same)};
}

inline std::vector<Check> reshapesCase(const Launch &L, std::mt19937_64 &rng) {
  Buffer x(DType::F32, 1024), flat(DType::F32, 1024), sums(DType::F32, 64), wide(DType::F32, 1024),
      scaled(DType::F32, 64);
  x.fillUniform(rng, -1, 1);
  for (Buffer *b : {&flat, &sums, &wide, &scaled})
    b->poison();
  std::string e = L("block_ops", {}, "reshapes", 1,
                    {KArg::buf_(x), KArg::buf_(flat), KArg::buf_(sums), KArg::buf_(wide), KArg::buf_(scaled)});
  if (!e.empty())
    return {{"reshapes: " + e, INFINITY, 0}};
  std::vector<double> rf(1024), rs(64, 0), rw(1024), rsc(64);
  for (int k = 0; k < 1024; ++k) {
    rf[k] = 2 * x.get(k);
    rs[k / 16] += x.get(k);
  }
  for (int k = 0; k < 1024; ++k)
    rw[k] = rs[k / 16];
  for (int r = 0; r < 64; ++r)
    rsc[r] = 6 * rs[r];
  return {{"reshape [16, 64] -> [1024]", relativeError(flat, rf), 1e-7},
          {"reshape [1024] -> [64, 16] then sum", relativeError(sums, rs), 1e-6},
          {"broadcast_to", relativeError(wide, rw), 1e-6},
          {"static_range", relativeError(scaled, rsc), 1e-6}};
}

inline std::vector<Check> scansCase(const Launch &L, std::mt19937_64 &rng) {
  Buffer x(DType::F32, 2048), rows(DType::F32, 2048), cols(DType::F32, 2048), flat(DType::F32, 2048),
      p(DType::F32, 64), prod(DType::F32, 64), isum(DType::F32, 512), revCols(DType::F32, 2048),
      revFlat(DType::F32, 2048);
  x.fillUniform(rng, -1, 1);
  p.fillUniform(rng, 0.9, 1.1);
  std::vector<int8_t> iv(512);
  std::uniform_int_distribution<int> small(-128, 127);
  for (int8_t &v : iv)
    v = int8_t(small(rng));
  Buffer i = rawBuffer(iv);
  for (Buffer *b : {&rows, &cols, &flat, &prod, &isum, &revCols, &revFlat})
    b->poison();
  std::string e = L("block_ops", {}, "scans", 1,
                    {KArg::buf_(x), KArg::buf_(rows), KArg::buf_(cols), KArg::buf_(flat), KArg::buf_(p),
                     KArg::buf_(prod), KArg::buf_(i), KArg::buf_(isum), KArg::buf_(revCols), KArg::buf_(revFlat)});
  if (!e.empty())
    return {{"scans: " + e, INFINITY, 0}};
  std::vector<double> rr(2048), rc(2048), rf(2048), rp(64), rrc(2048), rrf(2048);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 128; ++c) {
      int k = r * 128 + c;
      rr[k] = x.get(k) + (c ? rr[k - 1] : 0);
      rc[k] = x.get(k) + (r ? rc[k - 128] : 0);
    }
  for (int k = 0; k < 2048; ++k)
    rf[k] = x.get(k) + (k ? rf[k - 1] : 0);
  for (int k = 2047; k >= 0; --k) {
    rrf[k] = x.get(k) + (k < 2047 ? rrf[k + 1] : 0);
    rrc[k] = x.get(k) + (k < 2048 - 128 ? rrc[k + 128] : 0);
  }
  for (int k = 0; k < 64; ++k)
    rp[k] = p.get(k) * (k ? rp[k - 1] : 1);
  std::vector<int32_t> ri(512);
  for (int k = 0; k < 512; ++k)
    ri[k] = iv[k] + (k ? ri[k - 1] : 0);
  // f32 results: a sequential f32 sum of 2048 terms (the interpreter) drifts
  // by about 1e-6 of the norm.
  return {{"cumsum along rows", relativeError(rows, rr), 1e-5},
          {"cumsum along columns (across warps)", relativeError(cols, rc), 1e-5},
          {"cumsum of 2048 (across warps)", relativeError(flat, rf), 1e-5},
          {"cumprod (copies in other warps)", relativeError(prod, rp), 1e-5},
          exact("cumsum of i8 in i32", rawValues<int32_t>(isum, 512) == ri),
          {"reverse cumsum along columns", relativeError(revCols, rrc), 1e-5},
          {"reverse cumsum of 2048 (method form)", relativeError(revFlat, rrf), 1e-5}};
}

} // namespace blk::ref

#endif
