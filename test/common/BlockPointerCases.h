// test/kernels/block_pointers.blk: loads and stores through block pointers
// (make_block_ptr, advance, boundary_check, padding_option) against host
// results, with the elements outside each tensor left as they were. The same
// cases run on the interpreter and on the GPU.
#ifndef BLK_TEST_COMMON_BLOCKPOINTERCASES_H
#define BLK_TEST_COMMON_BLOCKPOINTERCASES_H

#include "MatmulCases.h"

namespace blk::ref {

inline unsigned cdiv(int a, int b) { return unsigned((a + b - 1) / b); }

/// Bits of the f32 elements of `b` (compared exactly: a copy moves bits).
inline std::vector<uint32_t> bits(const Buffer &b) { return rawValues<uint32_t>(b, b.size()); }

/// The first element where `got` differs from `want`, as a check.
inline Check sameBits(const std::string &what, const std::vector<uint32_t> &got, const std::vector<uint32_t> &want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return exact(what + ": element " + std::to_string(i) + " has bits " + std::to_string(got[i]) + ", not " +
                       std::to_string(want[i]),
                   false);
  return exact(what, true);
}

/// tile_copy: [m, n] from rows n + 3 apart into rows n + 5 apart; the 5
/// columns past n keep their poison.
inline std::vector<Check> tileCopyCase(const Launch &L, int m, int n, std::mt19937_64 &rng) {
  int xs = n + 3, ys = n + 5;
  Buffer x(DType::F32, size_t(m) * xs), y(DType::F32, size_t(m) * ys);
  x.fillUniform(rng, -1, 1);
  y.poison();
  std::vector<uint32_t> want = bits(y), xb = bits(x);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want[size_t(i) * ys + j] = xb[size_t(i) * xs + j];
  std::string what = "tile_copy " + std::to_string(m) + "x" + std::to_string(n);
  std::string e = L("block_pointers", {{"T", "f32"}, {"num_stages", "3"}}, "tile_copy", LaunchGrid(cdiv(m, 16), cdiv(n, 32)),
                    {KArg::buf_(x), KArg::buf_(y), KArg::int_(m), KArg::int_(n), KArg::int_(xs), KArg::int_(ys)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {sameBits(what, bits(y), want)};
}

/// transpose_copy: Y [n, m] = X^T, X [m, n] with rows n + 1 apart.
inline std::vector<Check> transposeCopyCase(const Launch &L, int m, int n, std::mt19937_64 &rng) {
  int xs = n + 1;
  Buffer x(DType::F32, size_t(m) * xs), y(DType::F32, size_t(n) * m);
  x.fillUniform(rng, -1, 1);
  y.poison();
  std::vector<uint32_t> want(size_t(n) * m), xb = bits(x);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want[size_t(j) * m + i] = xb[size_t(i) * xs + j];
  std::string what = "transpose_copy " + std::to_string(m) + "x" + std::to_string(n);
  std::string e = L("block_pointers", {{"T", "f32"}, {"num_stages", "3"}}, "transpose_copy",
                    LaunchGrid(cdiv(n, 32), cdiv(m, 16)),
                    {KArg::buf_(x), KArg::buf_(y), KArg::int_(m), KArg::int_(n), KArg::int_(xs)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {sameBits(what, bits(y), want)};
}

/// nan_padding: per 16 x 32 tile of X [m, n], the count of elements outside
/// X (read as NaN) and the sum of those inside.
inline std::vector<Check> nanPaddingCase(const Launch &L, int m, int n, std::mt19937_64 &rng) {
  Buffer x(DType::F32, size_t(m) * n);
  x.fillUniform(rng, -1, 1);
  unsigned tm = cdiv(m, 16), tn = cdiv(n, 32);
  Buffer nans = rawBuffer(std::vector<int32_t>(size_t(tm) * tn, -1)), sums(DType::F32, size_t(tm) * tn);
  sums.poison();
  std::vector<int32_t> wantNans(size_t(tm) * tn, 0);
  std::vector<double> wantSums(size_t(tm) * tn, 0.0);
  for (unsigned a = 0; a < tm; ++a)
    for (unsigned b = 0; b < tn; ++b)
      for (unsigned i = a * 16; i < a * 16 + 16; ++i)
        for (unsigned j = b * 32; j < b * 32 + 32; ++j) {
          if (int(i) < m && int(j) < n)
            wantSums[a * tn + b] += x.get(size_t(i) * n + j);
          else
            ++wantNans[a * tn + b];
        }
  std::string what = "nan_padding " + std::to_string(m) + "x" + std::to_string(n);
  std::string e = L("block_pointers", {{"T", "f32"}, {"num_stages", "3"}}, "nan_padding", LaunchGrid(tm, tn),
                    {KArg::buf_(x), KArg::buf_(nans), KArg::buf_(sums), KArg::int_(m), KArg::int_(n)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {exact(what + ": padded elements counted", rawValues<int32_t>(nans, wantNans.size()) == wantNans),
          {what + ": sums inside", relativeError(sums, wantSums), 1e-5}};
}

/// row_sums: S[r] = the sum of the n elements of row r of X (rows n + 7
/// apart; the 7 past n hold 1000, which a missing check would add).
inline std::vector<Check> rowSumsCase(const Launch &L, int rows, int n, std::mt19937_64 &rng) {
  int xs = n + 7;
  Buffer x(DType::F32, size_t(rows) * xs), s(DType::F32, size_t(rows));
  x.fillUniform(rng, -1, 1);
  std::vector<double> want(size_t(rows), 0.0);
  for (int r = 0; r < rows; ++r) {
    for (int j = n; j < xs; ++j)
      x.set(size_t(r) * xs + j, 1000.0);
    for (int j = 0; j < n; ++j)
      want[size_t(r)] += x.get(size_t(r) * xs + j);
  }
  s.poison();
  std::string what = "row_sums " + std::to_string(rows) + "x" + std::to_string(n);
  std::string e = L("block_pointers", {{"T", "f32"}, {"num_stages", "3"}}, "row_sums", unsigned(rows),
                    {KArg::buf_(x), KArg::buf_(s), KArg::int_(n), KArg::int_(xs)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {{what, relativeError(s, want), 1e-5}};
}

/// chosen_source: Z's rows of tile pm (16 rows) from X for even pm, from Y
/// for odd pm; [m, n] with contiguous rows.
inline std::vector<Check> chosenSourceCase(const Launch &L, int m, int n, std::mt19937_64 &rng) {
  Buffer x(DType::F32, size_t(m) * n), y(DType::F32, size_t(m) * n), z(DType::F32, size_t(m) * n);
  x.fillUniform(rng, -1, 1);
  y.fillUniform(rng, 2, 3);
  z.poison();
  std::vector<uint32_t> want(size_t(m) * n), xb = bits(x), yb = bits(y);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      want[size_t(i) * n + j] = (i / 16) % 2 == 0 ? xb[size_t(i) * n + j] : yb[size_t(i) * n + j];
  std::string what = "chosen_source " + std::to_string(m) + "x" + std::to_string(n);
  std::string e = L("block_pointers", {{"T", "f32"}, {"num_stages", "3"}}, "chosen_source", cdiv(m, 16),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(z), KArg::int_(m), KArg::int_(n)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {sameBits(what, bits(z), want)};
}

/// copy_3d: Y [b, m, n] (contiguous) from X stored as [n, m, b] (X[i, j, k]
/// at k m b + j b + i), blocks of [2, 8, 32].
inline std::vector<Check> copy3dCase(const Launch &L, int b, int m, int n, std::mt19937_64 &rng) {
  Buffer x(DType::F32, size_t(b) * m * n), y(DType::F32, size_t(b) * m * n);
  x.fillUniform(rng, -1, 1);
  y.poison();
  std::vector<uint32_t> want(size_t(b) * m * n), xb = bits(x);
  for (int i = 0; i < b; ++i)
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < n; ++k)
        want[(size_t(i) * m + j) * n + k] = xb[(size_t(k) * m + j) * b + i];
  std::string what = "copy_3d " + std::to_string(b) + "x" + std::to_string(m) + "x" + std::to_string(n);
  std::string e = L("block_pointers", {{"T", "f32"}, {"num_stages", "3"}}, "copy_3d",
                    LaunchGrid(cdiv(b, 2), cdiv(m, 8), cdiv(n, 32)),
                    {KArg::buf_(x), KArg::buf_(y), KArg::int_(b), KArg::int_(m), KArg::int_(n), KArg::int_(1),
                     KArg::int_(b), KArg::int_(int64_t(m) * b)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {sameBits(what, bits(y), want)};
}

/// matmul: C [m, n] = A [m, k] @ B [k, n] through block pointers, operands
/// of type `t` (f32 through tf32, as the reference rounds them), B stored
/// [k, n] or, with `bStoredNK`, [n, k] and read through strides. `spec`
/// runs the kernel specialized as its `# specialize:` line says (unit
/// strides along K for A and N for B and C, sizes multiples of 16);
/// `wide` at the variant of 128x128x64 tiles and 8 warps (bf16 only).
inline std::vector<Check> blockPointerMatmulCase(const Launch &L, DType t, int m, int n, int k, bool bStoredNK,
                                                 std::mt19937_64 &rng, bool spec = false, bool wide = false) {
  Buffer a(t, size_t(m) * k), b(t, size_t(k) * n), c(DType::F32, size_t(m) * n);
  fillOperands(a, b, rng);
  c.poison();
  int64_t sbk = bStoredNK ? 1 : n, sbn = bStoredNK ? k : 1;
  std::string what = std::string("block-pointer matmul ") + name(t) + " " + std::to_string(m) + "x" +
                     std::to_string(n) + "x" + std::to_string(k) + (bStoredNK ? " (B stored [N, K])" : "");
  Bindings bindings{{"T", name(t)}};
  int tile = wide ? 128 : 64;
  if (wide)
    bindings.insert(bindings.end(), {{"BLOCK_M", "128"}, {"BLOCK_N", "128"}, {"BLOCK_K", "64"}, {"num_warps", "8"}}),
        what += " (128x128x64 tiles)";
  bindings.push_back({"num_stages", "3"});
  if (spec)
    bindings.push_back({"spec", "spec"}), what += " (specialized)";
  std::string e = L("block_pointers", bindings, "matmul", LaunchGrid(cdiv(m, tile), cdiv(n, tile)),
                    {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::int_(m), KArg::int_(n), KArg::int_(k),
                     KArg::int_(k), KArg::int_(1), KArg::int_(sbk), KArg::int_(sbn), KArg::int_(n), KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  bool tf32 = t == DType::F32;
  auto operand = [&](double v) { return tf32 ? double(roundToTf32(float(v))) : v; };
  std::vector<double> ref(size_t(m) * n, 0.0);
  for (int i = 0; i < m; ++i)
    for (int kk = 0; kk < k; ++kk) {
      double x = operand(a.get(size_t(i) * k + kk));
      for (int j = 0; j < n; ++j)
        ref[size_t(i) * n + j] += x * operand(b.get(size_t(bStoredNK ? j * int64_t(k) + kk : kk * int64_t(n) + j)));
    }
  return {{what, relativeError(c, ref), 1e-5}};
}

} // namespace blk::ref

#endif
