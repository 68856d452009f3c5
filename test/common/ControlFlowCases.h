// test/kernels/control_flow.blk against host references: loops left by
// `break`, `continue` and `return` (from helpers and from kernels), nested
// loops, and `static_range` copies dropped at compile time or run under a
// flag. The inputs are small integers (exact in f32), so every branch a
// kernel takes is the host's and every result must match exactly.
#ifndef BLK_TEST_COMMON_CONTROLFLOWCASES_H
#define BLK_TEST_COMMON_CONTROLFLOWCASES_H

#include "RowCases.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace blk::ref {

inline std::vector<int32_t> smallInts(size_t n, int lo, int hi, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = d(rng);
  return v;
}

inline std::vector<float> asFloats(const std::vector<int32_t> &v) { return std::vector<float>(v.begin(), v.end()); }

/// An integer output before the kernel runs: a value no kernel writes.
inline Buffer poisonedInts(size_t n) { return rawBuffer(std::vector<int32_t>(n, INT_MIN)); }

/// `what` passes when the kernel ran and wrote `expected`.
template <typename T>
Check sameValues(const std::string &what, const std::string &launchError, const Buffer &out, const std::vector<T> &expected) {
  if (!launchError.empty())
    return {what + ": " + launchError, INFINITY, 0};
  return exact(what, rawValues<T>(out, expected.size()) == expected);
}

/// first_above (a helper's `return` from a loop) and first_chunk (a block
/// returned from a loop) on rows x cols values in [-20, 20].
inline std::vector<Check> earlyReturnCase(const Launch &L, int rows, int cols, std::mt19937_64 &rng) {
  std::string shape = " " + std::to_string(rows) + "x" + std::to_string(cols);
  std::vector<int32_t> x = smallInts(size_t(rows) * cols, -20, 20, rng);
  Buffer xb = rawBuffer(asFloats(x)), first = poisonedInts(rows);
  const float threshold = 18.5f, level = 20.f;
  const int block = 32;
  std::vector<int32_t> firstRef(rows, -1);
  std::vector<float> chunkRef(size_t(rows) * block, 0.f);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols && firstRef[r] < 0; ++c)
      if (x[size_t(r) * cols + c] > threshold)
        firstRef[r] = c;
    for (int start = 0; start < cols; start += block) {
      int top = INT_MIN;
      for (int c = start; c < start + block; ++c)
        top = std::max(top, c < cols ? x[size_t(r) * cols + c] : 0);
      if (top < level)
        continue;
      for (int c = start; c < std::min(start + block, cols); ++c)
        chunkRef[size_t(r) * block + c - start] = float(x[size_t(r) * cols + c]);
      break;
    }
  }
  std::string e = L("control_flow", {}, "first_above", unsigned(rows),
                    {KArg::buf_(xb), KArg::buf_(first), KArg::int_(cols), KArg::real(threshold)});
  Buffer chunk(DType::F32, size_t(rows) * block);
  chunk.poison();
  std::string e2 = L("control_flow", {}, "first_chunk", unsigned(rows),
                     {KArg::buf_(xb), KArg::buf_(chunk), KArg::int_(cols), KArg::real(level)});
  return {sameValues("first_above" + shape, e, first, firstRef),
          sameValues("first_chunk" + shape, e2, chunk, chunkRef)};
}

/// staged_rows: `programs` programs walk rows x cols values in [-20, 20]
/// (cols at most 128) num_programs apart, loading the rows two iterations
/// on ahead while they write each row in place as 2x + its sum.
inline std::vector<Check> stagedRowsCase(const Launch &L, int rows, int cols, int programs, std::mt19937_64 &rng) {
  std::vector<int32_t> x = smallInts(size_t(rows) * cols, -20, 20, rng);
  std::vector<float> ref(x.size());
  for (int r = 0; r < rows; ++r) {
    float sum = 0;
    for (int c = 0; c < cols; ++c)
      sum += float(x[size_t(r) * cols + c]);
    for (int c = 0; c < cols; ++c)
      ref[size_t(r) * cols + c] = 2.f * float(x[size_t(r) * cols + c]) + sum;
  }
  Buffer xb = rawBuffer(asFloats(x));
  std::string e = L("control_flow", {}, "staged_rows", unsigned(programs),
                    {KArg::buf_(xb), KArg::int_(rows), KArg::int_(cols)});
  return {sameValues("staged_rows " + std::to_string(rows) + "x" + std::to_string(cols) + " by " +
                         std::to_string(programs),
                     e, xb, ref)};
}

/// capped_row_sum: chunks of 64 skipped by `continue`, rows ended by `break`,
/// a block, a float and an integer carried through the loop.
inline std::vector<Check> breakContinueCase(const Launch &L, int rows, int cols, std::mt19937_64 &rng) {
  std::string shape = " " + std::to_string(rows) + "x" + std::to_string(cols);
  const int block = 64;
  const float cap = 40.f;
  std::vector<int32_t> x = smallInts(size_t(rows) * cols, -8, 8, rng);
  std::vector<float> accRef(size_t(rows) * block, 0.f);
  std::vector<int32_t> countRef(rows, 0);
  for (int r = 0; r < rows; ++r) {
    float total = 0;
    for (int start = 0; start < cols; start += block) {
      float s = 0;
      for (int c = start; c < std::min(start + block, cols); ++c)
        s += float(x[size_t(r) * cols + c]);
      if (s < 0)
        continue;
      for (int c = start; c < std::min(start + block, cols); ++c)
        accRef[size_t(r) * block + c - start] += float(x[size_t(r) * cols + c]);
      total += s;
      ++countRef[r];
      if (total > cap)
        break;
    }
  }
  Buffer xb = rawBuffer(asFloats(x)), acc(DType::F32, size_t(rows) * block), count = poisonedInts(rows);
  acc.poison();
  std::string e = L("control_flow", {}, "capped_row_sum", unsigned(rows),
                    {KArg::buf_(xb), KArg::buf_(acc), KArg::buf_(count), KArg::int_(cols), KArg::real(cap)});
  return {sameValues("capped_row_sum acc" + shape, e, acc, accRef),
          sameValues("capped_row_sum count" + shape, e, count, countRef)};
}

/// collatz_steps: a `while` with `continue`, a kernel's `return` from inside
/// it (starts that take `limit` steps or more, and 0, which never reaches
/// 1), and programs past n that return before the loop.
inline std::vector<Check> whileReturnCase(const Launch &L, int n, std::mt19937_64 &rng) {
  const int limit = 100;
  std::vector<int32_t> x = smallInts(n, 0, 3000, rng);
  std::vector<int32_t> ref(n);
  for (int i = 0; i < n; ++i) {
    int64_t v = x[i];
    int steps = 0;
    while (v != 1 && steps < limit) {
      ++steps;
      v = v % 2 == 0 ? v / 2 : 3 * v + 1;
    }
    ref[i] = v == 1 ? steps : -1;
  }
  Buffer xb = rawBuffer(x), steps = poisonedInts(n);
  std::string e = L("control_flow", {}, "collatz_steps", unsigned(n + 3),
                    {KArg::buf_(xb), KArg::buf_(steps), KArg::int_(n), KArg::int_(limit)});
  return {sameValues("collatz_steps n=" + std::to_string(n), e, steps, ref)};
}

/// unrolled_prefix (`static_range` with `break` and `continue`) and
/// grid_search (a `return` from a loop nested in a loop; a `break` of the
/// inner loop only), one grid per program.
inline std::vector<Check> unrolledAndNestedCase(const Launch &L, int programs, int rows, int cols,
                                                std::mt19937_64 &rng) {
  const int limit = 12;
  std::vector<int32_t> x = smallInts(size_t(programs) * 8, -3, 9, rng);
  std::vector<int32_t> prefixRef(size_t(programs) * 2);
  for (int p = 0; p < programs; ++p) {
    int total = 0, taken = 0;
    for (int k = 0; k < 6; ++k) {
      int v = x[size_t(p) * 8 + k];
      if (v < 0)
        continue;
      if (total + v > limit)
        break;
      total += v;
      ++taken;
    }
    prefixRef[size_t(p) * 2] = total;
    prefixRef[size_t(p) * 2 + 1] = taken;
  }
  Buffer xb = rawBuffer(x), prefix = poisonedInts(size_t(programs) * 2);
  std::string e = L("control_flow", {}, "unrolled_prefix", unsigned(programs),
                    {KArg::buf_(xb), KArg::buf_(prefix), KArg::int_(limit)});

  std::vector<int32_t> grid = smallInts(size_t(programs) * rows * cols, 0, 9, rng);
  std::vector<int32_t> searchRef(size_t(programs) * 2);
  for (int g = 0; g < programs; ++g) {
    const int32_t *cells = grid.data() + size_t(g) * rows * cols;
    int first = -1, count = 0;
    for (int i = 0; i < rows * cols && first < 0; ++i)
      if (cells[i] == g % 5)
        first = i;
    for (int r = 0; r < rows; ++r)
      count += std::count(cells + r * cols, cells + (r + 1) * cols, g % 5) > 0;
    searchRef[size_t(g) * 2] = first;
    searchRef[size_t(g) * 2 + 1] = count;
  }
  Buffer gb = rawBuffer(grid), search = poisonedInts(size_t(programs) * 2);
  std::string e2 = L("control_flow", {}, "grid_search", unsigned(programs),
                     {KArg::buf_(gb), KArg::buf_(search), KArg::int_(rows), KArg::int_(cols)});
  std::string shape = " programs=" + std::to_string(programs);
  return {sameValues("unrolled_prefix" + shape, e, prefix, prefixRef),
          sameValues("grid_search" + shape + " " + std::to_string(rows) + "x" + std::to_string(cols), e2, search,
                     searchRef)};
}

/// tuple_extremes: per program, (min, max) of its n elements (swapped for
/// odd programs) and the first index of the max: tuples carried by a loop,
/// returned from inside an `if` and chosen by a branch.
inline std::vector<Check> tupleExtremesCase(const Launch &L, int programs, int n, std::mt19937_64 &rng) {
  std::vector<int32_t> x = smallInts(size_t(programs) * n, -50, 50, rng);
  std::vector<int32_t> ref(size_t(programs) * 3);
  for (int p = 0; p < programs; ++p) {
    const int32_t *row = x.data() + size_t(p) * n;
    int lo = row[0], hi = row[0], at = 0;
    for (int i = 1; i < n; ++i) {
      lo = std::min(lo, row[i]);
      if (row[i] > hi)
        hi = row[i], at = i;
    }
    ref[size_t(p) * 3] = p % 2 ? hi : lo;
    ref[size_t(p) * 3 + 1] = p % 2 ? lo : hi;
    ref[size_t(p) * 3 + 2] = at;
  }
  Buffer xb = rawBuffer(x), out = poisonedInts(size_t(programs) * 3);
  std::string e = L("control_flow", {}, "tuple_extremes", unsigned(programs),
                    {KArg::buf_(xb), KArg::buf_(out), KArg::int_(n)});
  return {sameValues("tuple_extremes n=" + std::to_string(n), e, out, ref)};
}

/// mapped_elements: Y = selu(X) (alpha 1.5) and Z = soft_clamp(X) + 2 X,
/// each a helper for one element with branches on it, mapped over blocks.
inline std::vector<Check> mappedElementsCase(const Launch &L, int n, std::mt19937_64 &rng) {
  Buffer x(DType::F32, size_t(n)), y(DType::F32, size_t(n)), z(DType::F32, size_t(n));
  x.fillUniform(rng, -2, 2);
  y.poison();
  z.poison();
  std::vector<double> ry(static_cast<size_t>(n)), rz(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    double v = x.get(size_t(i));
    ry[size_t(i)] = v > 0 ? v : 1.5 * (std::exp(v) - 1.0);
    double c = v < -0.5 ? -0.5 + (v + 0.5) * 0.5 : v > 0.5 ? 0.5 : v;
    rz[size_t(i)] = c + 2 * v;
  }
  std::string e = L("control_flow", {}, "mapped_elements", unsigned((n + 255) / 256),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(z), KArg::int_(n)});
  if (!e.empty())
    return {{"mapped_elements: " + e, INFINITY, 0}};
  std::string what = "mapped_elements n=" + std::to_string(n);
  return {{what + " selu", relativeError(y, ry), 1e-6}, {what + " soft_clamp", relativeError(z, rz), 1e-6}};
}

} // namespace blk::ref

#endif
