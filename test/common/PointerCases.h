// test/kernels/pointers.blk: pointers converted to 64-bit addresses and back
// (address arithmetic, a table of row addresses read back from memory, a
// grouped matmul whose operands' addresses come from a table) against host
// results. The same cases run on the interpreter and on the GPU.
#ifndef BLK_TEST_COMMON_POINTERCASES_H
#define BLK_TEST_COMMON_POINTERCASES_H

#include "MatmulCases.h"

#include <algorithm>

namespace blk::ref {

/// Whether the first `n` 64-bit words of `table` are 0 (a kernel cleared the
/// addresses it stored there).
inline bool clearedTable(const Buffer &table, size_t n) {
  std::vector<int64_t> left = rawValues<int64_t>(table, n);
  return std::all_of(left.begin(), left.end(), [](int64_t v) { return v == 0; });
}

/// D[i] = 4 i (bytes from X to X + i), Y[i] = X[i + 1] read through the
/// address 4 bytes past X + i (Y[n - 1] = -1), S = X's address modulo 16
/// (0: buffers are 16-byte aligned).
inline std::vector<Check> addressRoundTripCase(const Launch &L, int n, std::mt19937_64 &rng) {
  const int block = 128;
  Buffer x(DType::F32, size_t(n)), y(DType::F32, size_t(n));
  x.fillUniform(rng, -1, 1);
  y.poison();
  Buffer d = rawBuffer(std::vector<int64_t>(size_t(n), -7)), s = rawBuffer(std::vector<int64_t>{-7});
  std::string what = "address_round_trip n=" + std::to_string(n);
  std::string e = L("pointers", {{"T", "f32"}, {"num_stages", "3"}}, "address_round_trip",
                    unsigned((n + block - 1) / block),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(d), KArg::buf_(s), KArg::int_(n)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<int64_t> gotD = rawValues<int64_t>(d, size_t(n));
  std::vector<uint32_t> gotY = rawValues<uint32_t>(y, size_t(n)), xs = rawValues<uint32_t>(x, size_t(n));
  const uint32_t minusOne = 0xbf800000u;
  for (int i = 0; i < n; ++i) {
    if (gotD[i] != 4 * int64_t(i))
      return {exact(what + ": address difference " + std::to_string(i) + " is " + std::to_string(gotD[i]) +
                        ", not " + std::to_string(4 * i),
                    false)};
    uint32_t want = i + 1 < n ? xs[size_t(i) + 1] : minusOne;
    if (gotY[i] != want)
      return {exact(what + ": Y[" + std::to_string(i) + "] has bits " + std::to_string(gotY[i]) + ", not " +
                        std::to_string(want),
                    false)};
  }
  int64_t alignment = rawValues<int64_t>(s, 1)[0];
  return {exact(what, true), exact(what + ": X's address modulo 16 is " + std::to_string(alignment), alignment == 0)};
}

/// Y's rows are X's 16 rows of 64 in reverse order, each read through an
/// address the kernel stores into the table T and loads back (then clears).
inline std::vector<Check> rowsThroughTableCase(const Launch &L, std::mt19937_64 &rng) {
  const int rows = 16, width = 64;
  Buffer x(DType::F32, size_t(rows) * width), y(DType::F32, size_t(rows) * width);
  x.fillUniform(rng, -1, 1);
  y.poison();
  Buffer t = rawBuffer(std::vector<int64_t>(rows, -1));
  std::string what = "rows_through_table";
  std::string e = L("pointers", {{"T", "f32"}, {"num_stages", "3"}}, "rows_through_table", 1,
                    {KArg::buf_(x), KArg::buf_(t), KArg::buf_(y)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<uint32_t> got = rawValues<uint32_t>(y, size_t(rows) * width),
                        xs = rawValues<uint32_t>(x, size_t(rows) * width);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < width; ++j)
      if (got[size_t(i) * width + j] != xs[size_t(rows - 1 - i) * width + j])
        return {exact(what + ": element (" + std::to_string(i) + ", " + std::to_string(j) + ") is not X's row " +
                          std::to_string(rows - 1 - i) + "'s",
                      false)};
  return {exact(what, true), exact(what + ": the table is cleared", clearedTable(t, rows))};
}

/// C[g] = A[g] @ B[g] for `groups` groups of [m, k] x [k, n] (tiles of 64 x
/// 64 x 32; ragged sizes cut the last tiles short), operands of type `t`
/// (f32 through tf32, as the reference rounds them), results f32. Each
/// group's matrices must start at a multiple of 16 bytes (m k, k n and m n
/// multiples of 8), as the kernel promises.
inline std::vector<Check> groupedMatmulCase(const Launch &L, DType t, int groups, int m, int n, int k,
                                            std::mt19937_64 &rng) {
  const int blockM = 64, blockN = 64;
  Buffer a(t, size_t(groups) * m * k), b(t, size_t(groups) * k * n), c(DType::F32, size_t(groups) * m * n);
  fillOperands(a, b, rng);
  c.poison();
  unsigned tiles = unsigned(((m + blockM - 1) / blockM) * ((n + blockN - 1) / blockN));
  Buffer table = rawBuffer(std::vector<int64_t>(size_t(groups) * tiles * 3, -1));
  std::string what = std::string("grouped_matmul ") + name(t) + " " + std::to_string(groups) + " x " +
                     std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  std::string e = L("pointers", {{"T", name(t)}, {"num_stages", "3"}}, "grouped_matmul",
                    LaunchGrid(tiles, unsigned(groups)),
                    {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::buf_(table), KArg::int_(m), KArg::int_(n),
                     KArg::int_(k)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  bool tf32 = t == DType::F32;
  auto operand = [&](double v) { return tf32 ? double(roundToTf32(float(v))) : v; };
  std::vector<double> ref(size_t(groups) * m * n, 0.0);
  for (int g = 0; g < groups; ++g)
    for (int i = 0; i < m; ++i)
      for (int kk = 0; kk < k; ++kk) {
        double x = operand(a.get((size_t(g) * m + i) * k + kk));
        for (int j = 0; j < n; ++j)
          ref[(size_t(g) * m + i) * n + j] += x * operand(b.get((size_t(g) * k + kk) * n + j));
      }
  return {{what, relativeError(c, ref), 1e-5},
          exact(what + ": every program cleared its table entries", clearedTable(table, size_t(groups) * tiles * 3))};
}

} // namespace blk::ref

#endif
