// test/kernels/layout_stress.blk's scans, column sums, broadcasts and sums
// of column-major tiles (the kernels bench/run.py's layout rows time) against
// host results: i32 exactly, f32 against float64.
#ifndef BLK_TEST_COMMON_LAYOUTSTRESSCASES_H
#define BLK_TEST_COMMON_LAYOUTSTRESSCASES_H

#include "RowCases.h"

namespace blk::ref {

/// A variant of the file's `# variants:` line: element type and [R, C] tile
/// (at three stages: column sums' tiles go through cp.async rings).
struct LayoutStressVariant {
  DType type;
  int r, c;
  Bindings bindings() const {
    return {{"T", ref::name(type)}, {"R", std::to_string(r)}, {"C", std::to_string(c)}, {"num_stages", "3"}};
  }
  std::string name() const {
    return std::string(ref::name(type)) + " [" + std::to_string(r) + ", " + std::to_string(c) + "]";
  }
};

inline std::vector<LayoutStressVariant> layoutStressVariants() {
  std::vector<LayoutStressVariant> all;
  for (auto [r, c] : {std::pair{1024, 16}, std::pair{16, 1024}, std::pair{128, 128}})
    for (DType t : {DType::I32, DType::F32})
      all.push_back({t, r, c});
  return all;
}

/// `n` inputs: small integers for i32 (every sum exact), uniform in [-1, 1) for f32.
inline Buffer layoutStressInput(DType t, size_t n, std::mt19937_64 &rng) {
  if (t == DType::F32) {
    Buffer b(t, n);
    b.fillUniform(rng, -1, 1);
    return b;
  }
  Buffer b(DType::I32, n);
  std::uniform_int_distribution<int32_t> dist(-100, 100);
  for (size_t i = 0; i < n; ++i)
    b.set(i, dist(rng));
  return b;
}

/// The check of `out` against `ref`: exact for i32, relative for f32.
inline Check layoutStressCheck(const std::string &what, DType t, const Buffer &out, const std::vector<double> &ref) {
  if (t == DType::F32)
    return {what, relativeError(out, ref), 1e-5};
  std::vector<int32_t> got = rawValues<int32_t>(out, ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    if (double(got[i]) != ref[i])
      return {what + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", not " +
                  std::to_string(int64_t(ref[i])),
              INFINITY, 0.5};
  return exact(what, true);
}

/// Column sums of an [n_rows, programs * C] matrix, R rows per step: the last
/// step is cut short unless n_rows is a multiple of R.
inline std::vector<Check> columnSumsCase(const Launch &L, const LayoutStressVariant &v, int programs, int rows,
                                         std::mt19937_64 &rng) {
  size_t width = size_t(programs) * v.c;
  Buffer x = layoutStressInput(v.type, size_t(rows) * width, rng), y(v.type, width);
  y.poison();
  std::string what = "column_sums " + v.name() + " " + std::to_string(rows) + "x" + std::to_string(width);
  std::string e = L("layout_stress", v.bindings(), "column_sums", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(y), KArg::int_(rows)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(width, 0.0);
  for (int i = 0; i < rows; ++i)
    for (size_t j = 0; j < width; ++j)
      ref[j] += x.get(size_t(i) * width + j);
  return {layoutStressCheck(what, v.type, y, ref)};
}

/// Sums of `s` column-major [R, C] matrices per program (element (i, j) of
/// matrix m at m * R * C + j * R + i), each program's sum stored row-major.
inline std::vector<Check> transposedSumCase(const Launch &L, const LayoutStressVariant &v, int programs, int s,
                                            std::mt19937_64 &rng) {
  size_t tile = size_t(v.r) * v.c;
  Buffer x = layoutStressInput(v.type, tile * programs * s, rng), y(v.type, tile * programs);
  y.poison();
  std::string what = "transposed_sum " + v.name() + " " + std::to_string(s) + " a program";
  std::string e = L("layout_stress", v.bindings(), "transposed_sum", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(y), KArg::int_(s)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(tile * programs, 0.0);
  for (int p = 0; p < programs; ++p)
    for (int m = 0; m < s; ++m)
      for (int i = 0; i < v.r; ++i)
        for (int j = 0; j < v.c; ++j)
          ref[p * tile + size_t(i) * v.c + j] += x.get((size_t(p) * s + m) * tile + size_t(j) * v.r + i);
  return {layoutStressCheck(what, v.type, y, ref)};
}

/// Inclusive sums of each [R, C] tile down its columns (`axis` 0,
/// `scan_axis0`) or along its rows (1, `scan_axis1`).
inline std::vector<Check> scanCase(const Launch &L, const LayoutStressVariant &v, int axis, int programs,
                                   std::mt19937_64 &rng) {
  size_t tile = size_t(v.r) * v.c, n = tile * programs;
  Buffer x = layoutStressInput(v.type, n, rng), y(v.type, n);
  y.poison();
  std::string kernel = axis == 0 ? "scan_axis0" : "scan_axis1";
  std::string what = kernel + " " + v.name();
  std::string e = L("layout_stress", v.bindings(), kernel, unsigned(programs), {KArg::buf_(x), KArg::buf_(y)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(n);
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < v.r; ++i)
      for (int j = 0; j < v.c; ++j) {
        size_t at = p * tile + size_t(i) * v.c + j;
        size_t before = axis == 0 ? at - v.c : at - 1;
        bool first = axis == 0 ? i == 0 : j == 0;
        ref[at] = x.get(at) + (first ? 0.0 : ref[before]);
      }
  return {layoutStressCheck(what, v.type, y, ref)};
}

/// Y = X * U[:, None] + V[None, :] + (row sums of X)[:, None], tile by tile.
inline std::vector<Check> broadcastMixCase(const Launch &L, const LayoutStressVariant &v, int programs,
                                           std::mt19937_64 &rng) {
  size_t tile = size_t(v.r) * v.c, n = tile * programs;
  Buffer x = layoutStressInput(v.type, n, rng), u = layoutStressInput(v.type, size_t(programs) * v.r, rng),
         w = layoutStressInput(v.type, v.c, rng), y(v.type, n);
  y.poison();
  std::string what = "broadcast_mix " + v.name();
  std::string e = L("layout_stress", v.bindings(), "broadcast_mix", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(u), KArg::buf_(w), KArg::buf_(y)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(n);
  for (int p = 0; p < programs; ++p)
    for (int i = 0; i < v.r; ++i) {
      size_t row = p * tile + size_t(i) * v.c;
      double sum = 0;
      for (int j = 0; j < v.c; ++j)
        sum += x.get(row + j);
      for (int j = 0; j < v.c; ++j)
        ref[row + j] = x.get(row + j) * u.get(size_t(p) * v.r + i) + w.get(j) + sum;
    }
  return {layoutStressCheck(what, v.type, y, ref)};
}

} // namespace blk::ref

#endif
