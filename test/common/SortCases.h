// Triton's bitonic sorts end to end (test/kernels/sort.blk) against host
// results, on the interpreter and on the GPU: sort, topk and bitonic_merge of
// rows loaded from memory (ragged: the rest of each block loads as 0), of a
// block hashed in registers, and of [ROWS, N] tiles with ragged row counts.
// Outputs are compared element by element, by value, with std::sort of the
// row (reversed when descending; topk its first k), NaN never passing; rows
// holding NaNs, -0.0 and infinities are compared bit for bit with a host
// model of the network itself, exchange for exchange.
#ifndef BLK_TEST_COMMON_SORTCASES_H
#define BLK_TEST_COMMON_SORTCASES_H

#include "RowCases.h"

#include <climits>
#include <tuple>

namespace blk::ref {

/// The element types sort.blk is run in.
enum class SortType { I32, U32, I64, F16, BF16, F32, F64 };
inline constexpr SortType kSortTypes[] = {SortType::I32, SortType::U32, SortType::I64, SortType::F16,
                                          SortType::BF16, SortType::F32, SortType::F64};

inline const char *name(SortType t) {
  switch (t) {
  case SortType::I32: return "i32";
  case SortType::U32: return "u32";
  case SortType::I64: return "i64";
  case SortType::F16: return "f16";
  case SortType::BF16: return "bf16";
  case SortType::F32: return "f32";
  case SortType::F64: return "f64";
  }
  return "?";
}
inline bool isFloat(SortType t) { return t >= SortType::F16; }
inline size_t bytes(SortType t) {
  return t == SortType::F16 || t == SortType::BF16 ? 2 : t == SortType::I64 || t == SortType::F64 ? 8 : 4;
}

// Elements travel as their bits (the low bytes(t) bytes of a uint64_t).

inline Buffer sortBuffer(SortType t, size_t n) { return Buffer(DType::I8, n * bytes(t)); }
/// Every byte 0xff: NaN in every float type, -1 (u32: 2^32 - 1) in the integers.
inline Buffer poisonedSortBuffer(SortType t, size_t n) {
  Buffer b = sortBuffer(t, n);
  std::memset(b.data.data(), 0xff, b.data.size());
  return b;
}
inline uint64_t bitsAt(SortType t, const Buffer &b, size_t i) {
  uint64_t v = 0;
  std::memcpy(&v, &b.data[i * bytes(t)], bytes(t));
  return v;
}
inline Buffer sortBufferOf(SortType t, const std::vector<uint64_t> &elements) {
  Buffer b = sortBuffer(t, elements.size());
  for (size_t i = 0; i < elements.size(); ++i)
    std::memcpy(&b.data[i * bytes(t)], &elements[i], bytes(t));
  return b;
}

inline double floatOf(SortType t, uint64_t v) {
  if (t == SortType::F16)
    return fromF16(uint16_t(v));
  if (t == SortType::BF16)
    return fromBF16(uint16_t(v));
  if (t == SortType::F32) {
    float f;
    uint32_t u = uint32_t(v);
    std::memcpy(&f, &u, 4);
    return f;
  }
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
/// An integer element exactly (u32 as its non-negative value).
inline int64_t intOf(SortType t, uint64_t v) {
  return t == SortType::I32 ? int64_t(int32_t(uint32_t(v))) : t == SortType::U32 ? int64_t(uint32_t(v)) : int64_t(v);
}
/// The bits of `x` rounded to the float type `t` (nearest even).
inline uint64_t floatElement(SortType t, double x) {
  if (t == SortType::F16)
    return toF16(float(x));
  if (t == SortType::BF16)
    return toBF16(float(x));
  if (t == SortType::F32) {
    float f = float(x);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}
/// The bits of `x` wrapped to the integer type `t`.
inline uint64_t intElement(SortType t, int64_t x) {
  return t == SortType::I64 ? uint64_t(x) : uint64_t(uint32_t(x));
}
/// `a > b` as the sort compares: ordered for floats (false when either is
/// NaN), signed for i32/i64, unsigned for u32.
inline bool greater(SortType t, uint64_t a, uint64_t b) {
  return isFloat(t) ? floatOf(t, a) > floatOf(t, b) : intOf(t, a) > intOf(t, b);
}
inline std::string showElement(SortType t, uint64_t v) {
  char hex[24];
  std::snprintf(hex, sizeof hex, " (0x%llx)", static_cast<unsigned long long>(v));
  return (isFloat(t) ? show(floatOf(t, v)) : std::to_string(intOf(t, v))) + hex;
}

/// A random element: mostly spread over a wide range (integers over all of
/// their type, u32 on both sides of 2^31), one in eight from a few values
/// that repeat (zeros of both signs, infinities, the type's extremes).
inline uint64_t randomElement(SortType t, std::mt19937_64 &rng) {
  bool few = rng() % 8 == 0;
  if (isFloat(t)) {
    static const double kFew[] = {0.0, -0.0, 1.0, -1.0, 0.5, INFINITY, -INFINITY};
    return floatElement(t, few ? kFew[rng() % 7] : std::uniform_real_distribution<double>(-1000, 1000)(rng));
  }
  if (!few)
    return intElement(t, int64_t(rng()));
  static const int64_t kFewSigned[] = {0, 1, -1, 2, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX};
  static const int64_t kFewUnsigned[] = {0, 1, 2, INT32_MAX, int64_t(1) << 31, UINT32_MAX};
  if (t == SortType::U32)
    return intElement(t, kFewUnsigned[rng() % 6]);
  return intElement(t, kFewSigned[rng() % (t == SortType::I64 ? 8 : 6)]);
}

/// std::sort of a row by value, largest first when `descending`.
inline std::vector<uint64_t> sortedRow(SortType t, std::vector<uint64_t> row, bool descending) {
  std::sort(row.begin(), row.end(), [t](uint64_t a, uint64_t b) { return greater(t, b, a); });
  if (descending)
    std::reverse(row.begin(), row.end());
  return row;
}

/// The host model of blk.sort on one row of n (a power of two): stages
/// 1 .. log2(n) (only the last with `mergeOnly`), distances 2^(s-1) .. 1,
/// the pair (p, p | d) exchanged when `x[p] > x[p | d]` differs from the
/// run's flag (bit s of p before the last stage, `descending` in it).
inline void bitonicRow(SortType t, uint64_t *x, size_t n, bool descending, bool mergeOnly) {
  unsigned stages = 0;
  while ((size_t(1) << stages) < n)
    ++stages;
  for (unsigned s = mergeOnly ? stages : 1; s <= stages; ++s)
    for (unsigned j = s; j-- > 0;) {
      size_t d = size_t(1) << j;
      for (size_t p = 0; p < n; ++p) {
        if (p & d)
          continue;
        bool flip = s < stages ? ((p >> s) & 1) != 0 : descending;
        if (greater(t, x[p], x[p | d]) != flip)
          std::swap(x[p], x[p | d]);
      }
    }
}

/// `out` against `want` element by element: by value (NaN equals nothing,
/// -0.0 equals 0.0), or with `bitwise` bit for bit.
inline Check sameElements(const std::string &what, SortType t, const Buffer &out, const std::vector<uint64_t> &want,
                          bool bitwise) {
  for (size_t i = 0; i < want.size(); ++i) {
    uint64_t got = bitsAt(t, out, i);
    bool same = bitwise ? got == want[i]
                        : isFloat(t) ? floatOf(t, got) == floatOf(t, want[i]) : intOf(t, got) == intOf(t, want[i]);
    if (!same)
      return exact(what + " (first difference at element " + std::to_string(i) + " of " +
                       std::to_string(want.size()) + ": " + showElement(t, got) + ", expected " +
                       showElement(t, want[i]) + ")",
                   false);
  }
  return exact(what, true);
}

/// One build of sort.blk: T and DESCENDING (what its `# variants:` line
/// binds, in that order), and the sizes the kernels are compiled with: their
/// defaults, or, for the interpreter's sweep, others bound after them.
struct SortConfig {
  SortType type = SortType::F32;
  bool descending = false;
  int n = 256, k = 8, rows = 8; // N, K (topk), ROWS (sort_tile): the kernels' defaults
  bool bindSizes = false;

  static SortConfig sized(SortType t, bool descending, int n, int k, int rows) {
    return {t, descending, n, k, rows, true};
  }
  Bindings bindings() const {
    Bindings b{{"T", name(type)}, {"DESCENDING", descending ? "True" : "False"}};
    if (bindSizes)
      b.insert(b.end(), {{"N", std::to_string(n)}, {"K", std::to_string(k)}, {"ROWS", std::to_string(rows)}});
    return b;
  }
  std::string text() const {
    return std::string(name(type)) + (descending ? " descending" : " ascending") + " N=" + std::to_string(n) +
           " K=" + std::to_string(k);
  }
};

/// Rows of n_cols random elements (or `fill`'s), and each row padded with
/// zeros to N as the kernels load it.
struct SortRows {
  std::vector<uint64_t> x;              // [rows, n_cols]
  std::vector<std::vector<uint64_t>> padded; // rows of N
};
inline SortRows randomRows(SortType t, int rows, int nCols, int n, std::mt19937_64 &rng,
                           uint64_t (*element)(SortType, std::mt19937_64 &) = randomElement) {
  SortRows r;
  for (int row = 0; row < rows; ++row) {
    std::vector<uint64_t> line(size_t(n), 0);
    for (int c = 0; c < nCols; ++c)
      r.x.push_back(line[size_t(c)] = element(t, rng));
    r.padded.push_back(std::move(line));
  }
  return r;
}

/// The first `keep` elements of each of `rows`, one after another.
inline std::vector<uint64_t> concat(const std::vector<std::vector<uint64_t>> &rows, size_t keep) {
  std::vector<uint64_t> out;
  for (const auto &row : rows)
    out.insert(out.end(), row.begin(), row.begin() + std::ptrdiff_t(keep));
  return out;
}

/// sort_rows, topk_rows or merge_rows over `in`: the output buffer of `width` elements per row.
inline std::string runRows(const Launch &L, const SortConfig &c, const char *kernel, const SortRows &in, int rows,
                           int nCols, int width, Buffer &out) {
  Buffer x = sortBufferOf(c.type, in.x);
  out = poisonedSortBuffer(c.type, size_t(rows) * size_t(width));
  return L("sort", c.bindings(), kernel, unsigned(rows), {KArg::buf_(x), KArg::buf_(out), KArg::int_(nCols)});
}

/// sort_rows and topk_rows on `rows` random rows of n_cols (<= N) elements.
inline std::vector<Check> sortRowsCase(const Launch &L, const SortConfig &c, int rows, int nCols,
                                       std::mt19937_64 &rng) {
  SortRows in = randomRows(c.type, rows, nCols, c.n, rng);
  std::vector<std::vector<uint64_t>> sorted;
  for (const auto &row : in.padded)
    sorted.push_back(sortedRow(c.type, row, c.descending));
  std::string at = " " + c.text() + " rows=" + std::to_string(rows) + " n_cols=" + std::to_string(nCols);
  Buffer y(DType::I8, 0), top(DType::I8, 0);
  if (std::string e = runRows(L, c, "sort_rows", in, rows, nCols, c.n, y); !e.empty())
    return {{"sort_rows" + at + ": " + e, INFINITY, 0}};
  if (std::string e = runRows(L, c, "topk_rows", in, rows, nCols, c.k, top); !e.empty())
    return {{"topk_rows" + at + ": " + e, INFINITY, 0}};
  return {sameElements("sort" + at, c.type, y, concat(sorted, size_t(c.n)), false),
          sameElements("topk" + at, c.type, top, concat(sorted, size_t(c.k)), false)};
}

/// merge_rows on full rows that are bitonic: ascending then descending, rotated.
inline std::vector<Check> mergeRowsCase(const Launch &L, const SortConfig &c, int rows, std::mt19937_64 &rng) {
  SortRows in = randomRows(c.type, rows, c.n, c.n, rng);
  in.x.clear();
  std::vector<std::vector<uint64_t>> sorted;
  for (auto &row : in.padded) {
    sorted.push_back(sortedRow(c.type, row, c.descending));
    size_t up = size_t(rng() % (row.size() + 1));
    std::vector<uint64_t> rise = sortedRow(c.type, {row.begin(), row.begin() + std::ptrdiff_t(up)}, false);
    std::vector<uint64_t> fall = sortedRow(c.type, {row.begin() + std::ptrdiff_t(up), row.end()}, true);
    rise.insert(rise.end(), fall.begin(), fall.end());
    std::rotate(rise.begin(), rise.begin() + std::ptrdiff_t(rng() % rise.size()), rise.end());
    in.x.insert(in.x.end(), rise.begin(), rise.end());
  }
  std::string at = " " + c.text() + " rows=" + std::to_string(rows);
  Buffer y(DType::I8, 0);
  if (std::string e = runRows(L, c, "merge_rows", in, rows, c.n, c.n, y); !e.empty())
    return {{"merge_rows" + at + ": " + e, INFINITY, 0}};
  return {sameElements("bitonic_merge of bitonic rows" + at, c.type, y, concat(sorted, size_t(c.n)), false)};
}

/// sort_hashed: the kernel's hash of each index, as it computes it.
inline std::vector<Check> hashedCase(const Launch &L, const SortConfig &c, int programs, uint32_t seed) {
  size_t total = size_t(programs) * size_t(c.n);
  Buffer y = poisonedSortBuffer(c.type, total);
  std::string at = " " + c.text() + " programs=" + std::to_string(programs);
  if (std::string e = L("sort", c.bindings(), "sort_hashed", unsigned(programs), {KArg::buf_(y), KArg::int_(seed)});
      !e.empty())
    return {{"sort_hashed" + at + ": " + e, INFINITY, 0}};
  std::vector<std::vector<uint64_t>> sorted;
  for (int p = 0; p < programs; ++p) {
    std::vector<uint64_t> row;
    for (int j = 0; j < c.n; ++j) {
      uint32_t h = (uint32_t(p * c.n + j) + seed) * 0x9E3779B1u;
      h ^= h >> 15;
      int32_t v = int32_t((h >> 16) & 0x1FF) - 256;
      row.push_back(isFloat(c.type) ? floatElement(c.type, v) : intElement(c.type, v));
    }
    sorted.push_back(sortedRow(c.type, row, c.descending));
  }
  return {sameElements("sort of a hashed block" + at, c.type, y, concat(sorted, size_t(c.n)), false)};
}

/// sort_tile: [ROWS, N] tiles over n_rows rows (the last tile ragged) of
/// n_cols elements; each row sorted, and its K largest (topk's default).
inline std::vector<Check> tileCase(const Launch &L, const SortConfig &c, int nRows, int nCols, std::mt19937_64 &rng) {
  SortRows in = randomRows(c.type, nRows, nCols, c.n, rng);
  Buffer x = sortBufferOf(c.type, in.x), y = poisonedSortBuffer(c.type, size_t(nRows) * size_t(c.n)),
         top = poisonedSortBuffer(c.type, size_t(nRows) * size_t(c.k));
  unsigned programs = unsigned((nRows + c.rows - 1) / c.rows);
  std::string at = " " + c.text() + " ROWS=" + std::to_string(c.rows) + " n_rows=" + std::to_string(nRows) +
                   " n_cols=" + std::to_string(nCols);
  if (std::string e = L("sort", c.bindings(), "sort_tile", programs,
                        {KArg::buf_(x), KArg::buf_(y), KArg::buf_(top), KArg::int_(nRows), KArg::int_(nCols)});
      !e.empty())
    return {{"sort_tile" + at + ": " + e, INFINITY, 0}};
  std::vector<std::vector<uint64_t>> sorted, largest;
  for (const auto &row : in.padded) {
    sorted.push_back(sortedRow(c.type, row, c.descending));
    largest.push_back(sortedRow(c.type, row, true));
  }
  return {sameElements("x.sort(dim=1) of a tile" + at, c.type, y, concat(sorted, size_t(c.n)), false),
          sameElements("topk of a tile (largest first)" + at, c.type, top, concat(largest, size_t(c.k)), false)};
}

/// An element of the network's hard cases: NaNs of both signs, zeros of both
/// signs, infinities, and a few finite values that repeat.
inline uint64_t awkwardElement(SortType t, std::mt19937_64 &rng) {
  static const double kValues[] = {0.0, -0.0, 1.0, -1.0, 2.5, -3.0, INFINITY, -INFINITY};
  switch (rng() % 10) {
  case 0: return floatElement(t, NAN);
  case 1: return floatElement(t, -NAN);
  default: return floatElement(t, kValues[rng() % 8]);
  }
}

/// sort_rows, topk_rows and merge_rows (on rows that are not bitonic: the
/// network's last stage on any row) with awkwardElement()s, bit for bit
/// against bitonicRow().
inline std::vector<Check> networkCase(const Launch &L, const SortConfig &c, int rows, int nCols, std::mt19937_64 &rng) {
  SortRows in = randomRows(c.type, rows, nCols, c.n, rng, awkwardElement);
  std::vector<std::vector<uint64_t>> sorted = in.padded, merged = in.padded;
  for (auto &row : sorted)
    bitonicRow(c.type, row.data(), row.size(), c.descending, false);
  for (auto &row : merged)
    bitonicRow(c.type, row.data(), row.size(), c.descending, true);
  std::string at = " " + c.text() + " rows=" + std::to_string(rows) + " n_cols=" + std::to_string(nCols);
  Buffer y(DType::I8, 0), top(DType::I8, 0), merge(DType::I8, 0);
  const std::tuple<const char *, int, Buffer *> runs[] = {
      {"sort_rows", c.n, &y}, {"topk_rows", c.k, &top}, {"merge_rows", c.n, &merge}};
  for (auto [kernel, width, out] : runs)
    if (std::string e = runRows(L, c, kernel, in, rows, nCols, width, *out); !e.empty())
      return {{std::string(kernel) + at + ": " + e, INFINITY, 0}};
  return {sameElements("the network's sort, NaNs and -0.0 bit for bit" + at, c.type, y, concat(sorted, size_t(c.n)),
                       true),
          sameElements("the network's topk, bit for bit" + at, c.type, top, concat(sorted, size_t(c.k)), true),
          sameElements("the network's last stage (bitonic_merge), bit for bit" + at, c.type, merge,
                       concat(merged, size_t(c.n)), true)};
}

} // namespace blk::ref

#endif
