// test/kernels/layout_moves.blk: layout moves inside warps (warp shuffles,
// register renames) against exact integer references. Every variant of the
// file's `# variants:` line, in its order.
#ifndef BLK_TEST_COMMON_LAYOUTMOVECASES_H
#define BLK_TEST_COMMON_LAYOUTMOVECASES_H

#include "RowCases.h"

namespace blk::ref {

struct LayoutMoveVariant {
  int r, c, warps;
  Bindings bindings() const {
    return {{"R", std::to_string(r)}, {"C", std::to_string(c)}, {"num_warps", std::to_string(warps)}};
  }
  std::string name() const {
    return "[" + std::to_string(r) + ", " + std::to_string(c) + "] w" + std::to_string(warps);
  }
};

inline std::vector<LayoutMoveVariant> layoutMoveVariants() { return {{64, 64, 1}, {16, 16, 4}, {64, 64, 4}, {64, 16, 4}}; }

/// `n` i32 values in [-1000, 1000] (every sum below exact in i32).
inline std::vector<int32_t> layoutMoveInput(size_t n, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int32_t> dist(-1000, 1000);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = dist(rng);
  return v;
}

/// The first element of `got` that differs from `want`, as a failed check.
inline Check layoutMoveCheck(const std::string &what, const std::vector<int32_t> &got,
                             const std::vector<int64_t> &want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (int64_t(got[i]) != want[i])
      return {what + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", not " +
                  std::to_string(want[i]),
              INFINITY, 0.5};
  return exact(what, true);
}

/// Column sums of an [rows, programs * C] matrix, R rows per step (the last
/// step cut short unless rows is a multiple of R).
inline std::vector<Check> layoutMoveColumnSumsCase(const Launch &L, const LayoutMoveVariant &v, int programs,
                                                   int rows, std::mt19937_64 &rng) {
  size_t width = size_t(programs) * v.c;
  std::vector<int32_t> x = layoutMoveInput(size_t(rows) * width, rng);
  Buffer xb = rawBuffer(x), yb = rawBuffer(std::vector<int32_t>(width, 0x7f7f7f7f));
  std::string what = "column_sums " + v.name() + " " + std::to_string(rows) + "x" + std::to_string(width);
  std::string e = L("layout_moves", v.bindings(), "column_sums", unsigned(programs),
                    {KArg::buf_(xb), KArg::buf_(yb), KArg::int_(rows)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<int64_t> want(width, 0);
  for (int i = 0; i < rows; ++i)
    for (size_t j = 0; j < width; ++j)
      want[j] += x[size_t(i) * width + j];
  return {layoutMoveCheck(what, rawValues<int32_t>(yb, width), want)};
}

/// Each program's [C, C] tile: Y[i] = the sum of row i plus the sum of column i.
inline std::vector<Check> layoutMoveRowPlusColumnCase(const Launch &L, const LayoutMoveVariant &v, int programs,
                                                      std::mt19937_64 &rng) {
  size_t c = size_t(v.c), n = size_t(programs) * c * c;
  std::vector<int32_t> x = layoutMoveInput(n, rng);
  Buffer xb = rawBuffer(x), yb = rawBuffer(std::vector<int32_t>(size_t(programs) * c, 0x7f7f7f7f));
  std::string what = "row_plus_column_sums " + v.name();
  std::string e = L("layout_moves", v.bindings(), "row_plus_column_sums", unsigned(programs),
                    {KArg::buf_(xb), KArg::buf_(yb)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<int64_t> want(size_t(programs) * c, 0);
  for (size_t p = 0; p < size_t(programs); ++p)
    for (size_t i = 0; i < c; ++i)
      for (size_t j = 0; j < c; ++j) {
        want[p * c + i] += x[p * c * c + i * c + j]; // row i
        want[p * c + j] += x[p * c * c + i * c + j]; // column j
      }
  return {layoutMoveCheck(what, rawValues<int32_t>(yb, size_t(programs) * c), want)};
}

/// Each program's tile flattened: Y = 3 X + 1, element for element.
inline std::vector<Check> layoutMoveFlattenCase(const Launch &L, const LayoutMoveVariant &v, int programs,
                                                std::mt19937_64 &rng) {
  size_t n = size_t(programs) * v.r * v.c;
  std::vector<int32_t> x = layoutMoveInput(n, rng);
  Buffer xb = rawBuffer(x), yb = rawBuffer(std::vector<int32_t>(n, 0x7f7f7f7f));
  std::string what = "flatten_tile " + v.name();
  std::string e = L("layout_moves", v.bindings(), "flatten_tile", unsigned(programs), {KArg::buf_(xb), KArg::buf_(yb)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<int64_t> want(n);
  for (size_t i = 0; i < n; ++i)
    want[i] = 3 * int64_t(x[i]) + 1;
  return {layoutMoveCheck(what, rawValues<int32_t>(yb, n), want)};
}

} // namespace blk::ref

#endif
