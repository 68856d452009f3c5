// Atomics end to end (test/kernels/atomics.blk and kernels/histogram.blk)
// against exact host results: tickets whose old values must form a
// permutation, per-bucket sums/extrema/bit operations, half-precision and
// f64 adds, exchanges whose old values reach copies in other warps, a
// spin lock built from compare-and-swap, a prefix sum chained across
// programs through acquire loads and release stores, masked relaxed
// atomic loads and stores of 16- and 64-bit elements, and float adds of 2-D
// tiles (vector atomics on sm_90). The same cases run on the
// interpreter and on the GPU.
#ifndef BLK_TEST_COMMON_ATOMICCASES_H
#define BLK_TEST_COMMON_ATOMICCASES_H

#include "RowCases.h"

#include <algorithm>
#include <climits>
#include <numeric>

namespace blk::ref {

inline std::vector<Check> ticketsCase(const Launch &L, int n) {
  const int block = 128, grid = (n + block - 1) / block;
  Buffer counter = rawBuffer(std::vector<int32_t>{0, 0});
  Buffer ticket(DType::F32, n), rowTicket(DType::F32, size_t(grid) * block);
  ticket.poison();
  rowTicket.poison();
  std::string e = L("atomics", {}, "tickets", grid,
                    {KArg::buf_(counter), KArg::buf_(ticket), KArg::buf_(rowTicket), KArg::int_(n)});
  if (!e.empty())
    return {{"tickets: " + e, INFINITY, 0}};
  std::vector<int32_t> t = rawValues<int32_t>(ticket, n), rows = rawValues<int32_t>(rowTicket, rowTicket.size());
  std::vector<int32_t> c = rawValues<int32_t>(counter, 2);
  std::sort(t.begin(), t.end());
  std::vector<int32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0);
  std::vector<int32_t> firsts;
  bool rowsConstant = true;
  for (int p = 0; p < grid; ++p) {
    firsts.push_back(rows[size_t(p) * block]);
    for (int i = 1; i < block; ++i)
      rowsConstant &= rows[size_t(p) * block + i] == firsts.back();
  }
  std::sort(firsts.begin(), firsts.end());
  std::vector<int32_t> programs(grid);
  std::iota(programs.begin(), programs.end(), 0);
  return {exact("block atomic_add old values are 0..n-1 once each", t == iota),
          exact("scalar atomic_add old value reaches every thread", rowsConstant),
          exact("scalar atomic_add old values are 0..grid-1 once each", firsts == programs),
          exact("counters end at n and grid", c[0] == n && c[1] == grid)};
}

inline std::vector<Check> bucketsCase(const Launch &L, int n, std::mt19937_64 &rng) {
  Buffer x(DType::F32, n);
  x.fillUniform(rng, -5, 5);
  Buffer sum = rawBuffer(std::vector<float>(8, 0.f)), mx = rawBuffer(std::vector<float>(8, -INFINITY)),
         mn = rawBuffer(std::vector<float>(8, INFINITY)), imax = rawBuffer(std::vector<int32_t>(8, INT_MIN)),
         imin = rawBuffer(std::vector<int32_t>(8, INT_MAX)), band = rawBuffer(std::vector<int32_t>(8, -1)),
         bor = rawBuffer(std::vector<int32_t>(8, 0)), bxor = rawBuffer(std::vector<int32_t>(8, 0)),
         sum64 = rawBuffer(std::vector<int64_t>(8, 0));
  std::string e = L("atomics", {}, "buckets", unsigned((n + 127) / 128),
                    {KArg::buf_(x), KArg::buf_(sum), KArg::buf_(mx), KArg::buf_(mn), KArg::buf_(imax),
                     KArg::buf_(imin), KArg::buf_(band), KArg::buf_(bor), KArg::buf_(bxor), KArg::buf_(sum64),
                     KArg::int_(n)});
  if (!e.empty())
    return {{"buckets: " + e, INFINITY, 0}};
  std::vector<double> rsum(8, 0), rmax(8, -INFINITY), rmin(8, INFINITY);
  std::vector<int32_t> rimax(8, INT_MIN), rimin(8, INT_MAX), rand_(8, -1), ror(8, 0), rxor(8, 0);
  std::vector<int64_t> rsum64(8, 0);
  for (int i = 0; i < n; ++i) {
    int b = i % 8;
    double v = x.get(i);
    int32_t w = int32_t(int64_t(i) * 7919 - 50000);
    rsum[b] += v;
    rmax[b] = std::max(rmax[b], v);
    rmin[b] = std::min(rmin[b], v);
    rimax[b] = std::max(rimax[b], w);
    rimin[b] = std::min(rimin[b], w);
    rand_[b] &= w;
    ror[b] |= w;
    rxor[b] ^= w;
    rsum64[b] += int64_t(w) * 100000;
  }
  std::vector<float> gmax = rawValues<float>(mx, 8), gmin = rawValues<float>(mn, 8);
  bool maxOk = true, minOk = true;
  for (int b = 0; b < 8; ++b) {
    maxOk &= gmax[b] == float(rmax[b]);
    minOk &= gmin[b] == float(rmin[b]);
  }
  return {{"f32 atomic_add per bucket", relativeError(sum, rsum), 1e-5},
          exact("f32 atomic_max over both signs", maxOk),
          exact("f32 atomic_min over both signs", minOk),
          exact("i32 atomic_max", rawValues<int32_t>(imax, 8) == rimax),
          exact("i32 atomic_min", rawValues<int32_t>(imin, 8) == rimin),
          exact("i32 atomic_and", rawValues<int32_t>(band, 8) == rand_),
          exact("i32 atomic_or", rawValues<int32_t>(bor, 8) == ror),
          exact("i32 atomic_xor", rawValues<int32_t>(bxor, 8) == rxor),
          exact("i64 atomic_add", rawValues<int64_t>(sum64, 8) == rsum64)};
}

inline std::vector<Check> smallTypesCase(const Launch &L, int n, std::mt19937_64 &rng) {
  // Multiples of 1/4 in [-1, 1]: every partial sum is exact in f16 and bf16,
  // so the result does not depend on the order of the adds.
  Buffer x(DType::F32, n), acc(DType::F32, n), old(DType::F32, n);
  std::uniform_int_distribution<int> q(-4, 4);
  for (int i = 0; i < n; ++i)
    x.set(i, q(rng) / 4.0);
  acc.fillUniform(rng, -3, 3);
  std::vector<double> acc0 = values(acc);
  old.poison();
  Buffer h(DType::F16, 4), bh(DType::BF16, 4), d = rawBuffer(std::vector<double>(4, 0.0));
  for (int b = 0; b < 4; ++b) {
    h.set(b, 0);
    bh.set(b, 0);
  }
  std::string e = L("atomics", {}, "small_types", unsigned((n + 31) / 32),
                    {KArg::buf_(h), KArg::buf_(bh), KArg::buf_(d), KArg::buf_(x), KArg::buf_(old), KArg::buf_(acc),
                     KArg::int_(n)});
  if (!e.empty())
    return {{"small_types: " + e, INFINITY, 0}};
  std::vector<double> rs(4, 0);
  for (int i = 0; i < n; ++i)
    rs[i % 4] += x.get(i);
  std::vector<double> gd = rawValues<double>(d, 4);
  bool hOk = true, bOk = true, dOk = true;
  for (int b = 0; b < 4; ++b) {
    hOk &= h.get(b) == rs[b];
    bOk &= bh.get(b) == rs[b];
    dOk &= gd[b] == rs[b];
  }
  return {exact("f16 atomic_add", hOk), exact("bf16 atomic_add", bOk), exact("f64 atomic_add", dOk),
          {"atomic_xchg old values (copies in other warps)", relativeError(old, acc0), 1e-7},
          {"atomic_xchg new values", relativeError(acc, values(x)), 1e-7}};
}

inline std::vector<Check> lockedCountCase(const Launch &L, int programs) {
  Buffer lock = rawBuffer(std::vector<int32_t>{0}), total = rawBuffer(std::vector<float>{0.f});
  std::string e = L("atomics", {}, "locked_count", programs, {KArg::buf_(lock), KArg::buf_(total)});
  if (!e.empty())
    return {{"locked_count: " + e, INFINITY, 0}};
  return {exact("the compare-and-swap lock excludes (total = programs)", total.get(0) == programs),
          exact("the lock is released", rawValues<int32_t>(lock, 1)[0] == 0)};
}

inline std::vector<Check> chainedPrefixCase(const Launch &L, int n, std::mt19937_64 &rng) {
  const int block = 1024, grid = (n + block - 1) / block;
  std::uniform_int_distribution<int32_t> digit(-1000, 1000);
  std::vector<int32_t> xs(n);
  for (int32_t &v : xs)
    v = digit(rng);
  Buffer x = rawBuffer(xs), y(DType::F32, n);
  y.poison();
  Buffer total = rawBuffer(std::vector<int32_t>(grid, 0)), flag = rawBuffer(std::vector<int32_t>(grid, 0)),
         counter = rawBuffer(std::vector<int32_t>{0});
  std::string e = L("atomics", {}, "chained_prefix", unsigned(grid),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(total), KArg::buf_(flag), KArg::buf_(counter),
                     KArg::int_(n)});
  if (!e.empty())
    return {{"chained_prefix: " + e, INFINITY, 0}};
  std::vector<int32_t> ref(n);
  int64_t running = 0;
  for (int i = 0; i < n; ++i)
    ref[i] = int32_t(running += xs[i]);
  std::vector<int32_t> flags = rawValues<int32_t>(flag, grid);
  return {exact("the prefix chained through acquire and release flags", rawValues<int32_t>(y, n) == ref),
          exact("every program published its flag", std::all_of(flags.begin(), flags.end(), [](int32_t f) { return f == 1; })),
          exact("every program took a ticket", rawValues<int32_t>(counter, 1)[0] == grid)};
}

inline std::vector<Check> maskedAtomicCopiesCase(const Launch &L, int n, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int64_t> any(INT64_MIN, INT64_MAX);
  std::vector<uint16_t> in16(n), out16(n);
  std::vector<int64_t> in64(n), out64(n);
  for (int i = 0; i < n; ++i) {
    in16[i] = uint16_t(0x3c00 + i % 1000); // f16 from 1.0 up: no NaN
    out16[i] = 0x7e00;                     // a NaN where nothing is stored
    in64[i] = any(rng);
    out64[i] = -1;
  }
  Buffer bIn16 = rawBuffer(in16), bOut16 = rawBuffer(out16), bIn64 = rawBuffer(in64), bOut64 = rawBuffer(out64),
         loaded = rawBuffer(std::vector<int64_t>(n, 7));
  std::string e = L("atomics", {}, "masked_atomic_copies", unsigned((n + 255) / 256),
                    {KArg::buf_(bIn16), KArg::buf_(bOut16), KArg::buf_(bIn64), KArg::buf_(bOut64),
                     KArg::buf_(loaded), KArg::int_(n)});
  if (!e.empty())
    return {{"masked_atomic_copies: " + e, INFINITY, 0}};
  std::vector<uint16_t> want16(out16);
  std::vector<int64_t> want64(out64), wantLoaded(n, 0);
  for (int i = 0; i < n; ++i)
    if (i % 3 != 1)
      want16[i] = in16[i], want64[i] = in64[i], wantLoaded[i] = in64[i];
  return {exact("16-bit atomic copies under the mask", rawValues<uint16_t>(bOut16, n) == want16),
          exact("64-bit atomic copies under the mask", rawValues<int64_t>(bOut64, n) == want64),
          exact("masked-off atomic loads read 0", rawValues<int64_t>(loaded, n) == wantLoaded)};
}

/// tile_adds over an n_rows x n_cols block in rows of `stride` elements with
/// `repeats` programs per tile; `variant` names the PTX variant ("" or "s16":
/// width and stride multiples of 16, where float adds become vector atomics).
inline std::vector<Check> tileAddsCase(const Launch &L, const std::string &variant, int nRows, int nCols, int stride,
                                       int repeats, std::mt19937_64 &rng) {
  const size_t size = size_t(nRows) * stride;
  // Multiples of 1/4 in [-1, 1]: every partial sum is exact in all three
  // types, so the results do not depend on the order of the adds.
  std::uniform_int_distribution<int> q(-4, 4);
  Buffer x(DType::F32, size), acc(DType::F32, size), half(DType::F16, size), bhalf(DType::BF16, size),
      first(DType::F32, size), old(DType::F32, size);
  for (size_t i = 0; i < size; ++i) {
    x.set(i, q(rng) / 4.0);
    acc.set(i, q(rng));
    half.set(i, q(rng) / 2.0);
    bhalf.set(i, q(rng) / 2.0);
  }
  first.fillUniform(rng, -3, 3);
  old.poison();
  std::vector<double> acc0 = values(acc), half0 = values(half), bhalf0 = values(bhalf), first0 = values(first);
  Bindings b;
  if (!variant.empty())
    b.push_back({"spec", variant});
  std::string e = L("atomics", b, "tile_adds", LaunchGrid(unsigned((nRows + 31) / 32), unsigned(repeats)),
                    {KArg::buf_(x), KArg::buf_(acc), KArg::buf_(half), KArg::buf_(bhalf), KArg::buf_(first),
                     KArg::buf_(old), KArg::int_(nRows), KArg::int_(nCols), KArg::int_(stride)});
  if (!e.empty())
    return {{"tile_adds: " + e, INFINITY, 0}};
  const double factor = repeats * (repeats + 1) / 2.0;
  bool accOk = true, halfOk = true, bhalfOk = true, firstOk = true, oldOk = true;
  for (size_t i = 0; i < size; ++i) {
    bool in = int(i % stride) < nCols; // padding between rows is left alone
    double add = in ? factor * x.get(i) : 0.0;
    accOk &= acc.get(i) == acc0[i] + add;
    halfOk &= half.get(i) == half0[i] + add;
    bhalfOk &= bhalf.get(i) == bhalf0[i] + add;
    firstOk &= first.get(i) == double(float(first0[i]) + float(in ? x.get(i) : 0.0));
    oldOk &= in ? old.get(i) == first0[i] : std::isnan(old.get(i)); // poisoned where not stored
  }
  return {exact("f32 tile atomic_add", accOk), exact("f16 tile atomic_add", halfOk),
          exact("bf16 tile atomic_add", bhalfOk), exact("f32 tile atomic_add under a narrower mask", firstOk),
          exact("old values of tile atomic_add", oldOk)};
}

inline std::vector<Check> histogramCase(const Launch &L, DType t, int n, int bins, std::mt19937_64 &rng) {
  Buffer x(t, n);
  x.fillUniform(rng, -2.5, 2.5);
  const float lo = -2, hi = 2;
  Buffer counts = rawBuffer(std::vector<int32_t>(bins, 0));
  std::string e = L("histogram", {{"T", name(t)}}, "histogram", unsigned((n + 1023) / 1024),
                    {KArg::buf_(x), KArg::buf_(counts), KArg::int_(n), KArg::int_(bins), KArg::real(lo),
                     KArg::real(hi)});
  if (!e.empty())
    return {{"histogram: " + e, INFINITY, 0}};
  std::vector<int32_t> ref(bins, 0);
  for (int i = 0; i < n; ++i) {
    float v = float(x.get(i)); // the kernel's f32 arithmetic
    if (v >= lo && v <= hi)
      ref[std::min(int((v - lo) * (float(bins) / (hi - lo))), bins - 1)]++;
  }
  return {exact("histogram counts", rawValues<int32_t>(counts, bins) == ref)};
}

} // namespace blk::ref

#endif
