// Triton's shape operations end to end (test/kernels/shape_ops.blk) against
// host results, on the interpreter and on the GPU: join, split, interleave,
// cat, flip, gather, permute, zeros_like, swizzle2d, histogram, and
// expand_dims, ravel and view. Every result is an
// input element moved, so outputs must equal their references byte for byte
// (outputs start poisoned: an element never written fails).
#ifndef BLK_TEST_COMMON_SHAPECASES_H
#define BLK_TEST_COMMON_SHAPECASES_H

#include "RowCases.h"

namespace blk::ref {

/// The element types shape_ops.blk is built for.
inline constexpr DType kShapeTypes[] = {DType::F32, DType::F16, DType::I8};

/// Elements each program of shape_ops.blk takes (BLOCK = R x C = 16 x 32).
inline constexpr int kShapeBlock = 512, kShapeRows = 16, kShapeCols = 32;

/// Element `i` of `from` into element `j` of `to` (one type), bits as they are.
inline void copyElement(Buffer &to, size_t j, const Buffer &from, size_t i) {
  size_t b = bytes(to.type);
  std::memcpy(&to.data[j * b], &from.data[i * b], b);
}

/// `x` over `size` elements, zero past its own (the kernels' masked loads).
inline Buffer zeroPadded(const Buffer &x, size_t size) {
  Buffer out(x.type, size);
  std::memcpy(out.data.data(), x.data.data(), std::min(x.data.size(), out.data.size()));
  return out;
}

inline Buffer randomBuffer(DType t, size_t n, std::mt19937_64 &rng) {
  Buffer b(t, n);
  if (isInteger(t))
    b.fillUniform(rng, -128, 127);
  else
    b.fillUniform(rng, -4, 4);
  return b;
}

inline Buffer poisoned(DType t, size_t n) {
  Buffer b(t, n);
  b.poison();
  return b;
}

inline Check sameBytes(const std::string &what, const Buffer &out, const Buffer &ref) {
  size_t b = bytes(out.type), first = 0;
  while (first < out.size() && std::memcmp(&out.data[first * b], &ref.data[first * b], b) == 0)
    ++first;
  if (first == out.size())
    return exact(what, true);
  return exact(what + " (first difference at element " + std::to_string(first) + ": " + show(out.get(first)) +
                   ", expected " + show(ref.get(first)) + ")",
               false);
}

inline unsigned shapePrograms(int n) { return unsigned((n + kShapeBlock - 1) / kShapeBlock); }

inline std::vector<Check> joinSplitCase(const Launch &L, DType t, int n, std::mt19937_64 &rng) {
  size_t un = size_t(n);
  Buffer x = randomBuffer(t, un, rng), y = randomBuffer(t, un, rng), x2 = randomBuffer(t, 2 * un, rng);
  Buffer joined = poisoned(t, 2 * un), first = poisoned(t, un), second = poisoned(t, un), mixed = poisoned(t, 2 * un);
  std::string e = L("shape_ops", {{"T", name(t)}}, "join_split", shapePrograms(n),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(x2), KArg::buf_(joined), KArg::buf_(first),
                     KArg::buf_(second), KArg::buf_(mixed), KArg::int_(n)});
  if (!e.empty())
    return {{"join_split: " + e, INFINITY, 0}};
  Buffer rj(t, 2 * un), rf(t, un), rs(t, un);
  for (size_t i = 0; i < un; ++i) {
    copyElement(rj, 2 * i, x, i);
    copyElement(rj, 2 * i + 1, y, i);
    copyElement(rf, i, x2, 2 * i);
    copyElement(rs, i, x2, 2 * i + 1);
  }
  std::string at = std::string(" ") + name(t) + " n=" + std::to_string(n);
  return {sameBytes("join" + at, joined, rj), sameBytes("split, first" + at, first, rf),
          sameBytes("x.split(), second" + at, second, rs), sameBytes("interleave" + at, mixed, rj)};
}

inline std::vector<Check> catsCase(const Launch &L, DType t, int n, std::mt19937_64 &rng) {
  unsigned programs = shapePrograms(n);
  size_t span = size_t(programs) * kShapeBlock;
  Buffer x = randomBuffer(t, size_t(n), rng), y = randomBuffer(t, size_t(n), rng);
  Buffer cat = poisoned(t, 2 * span), rows = poisoned(t, 2 * span);
  std::string e = L("shape_ops", {{"T", name(t)}}, "cats", programs,
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(cat), KArg::buf_(rows), KArg::int_(n)});
  if (!e.empty())
    return {{"cats: " + e, INFINITY, 0}};
  // Both: each program's block of X, then its block of Y (rows of the tile
  // along dimension 0 are the block in row-major order).
  Buffer xz = zeroPadded(x, span), yz = zeroPadded(y, span), ref(t, 2 * span);
  for (size_t p = 0; p < programs; ++p)
    for (size_t k = 0; k < size_t(kShapeBlock); ++k) {
      copyElement(ref, 2 * p * kShapeBlock + k, xz, p * kShapeBlock + k);
      copyElement(ref, (2 * p + 1) * kShapeBlock + k, yz, p * kShapeBlock + k);
    }
  std::string at = std::string(" ") + name(t) + " n=" + std::to_string(n);
  return {sameBytes("cat of 1-D blocks" + at, cat, ref), sameBytes("cat of [16, 32] tiles" + at, rows, ref)};
}

inline std::vector<Check> flipsCase(const Launch &L, DType t, int n, std::mt19937_64 &rng) {
  unsigned programs = shapePrograms(n);
  size_t span = size_t(programs) * kShapeBlock;
  Buffer x = randomBuffer(t, size_t(n), rng);
  Buffer rev = poisoned(t, span), flip0 = poisoned(t, span), flip1 = poisoned(t, span), flipm = poisoned(t, span);
  std::string e = L("shape_ops", {{"T", name(t)}}, "flips", programs,
                    {KArg::buf_(x), KArg::buf_(rev), KArg::buf_(flip0), KArg::buf_(flip1), KArg::buf_(flipm),
                     KArg::int_(n)});
  if (!e.empty())
    return {{"flips: " + e, INFINITY, 0}};
  Buffer xz = zeroPadded(x, span), rr(t, span), r0(t, span), r1(t, span);
  const size_t R = kShapeRows, C = kShapeCols;
  for (size_t p = 0; p < programs; ++p) {
    size_t base = p * kShapeBlock;
    for (size_t k = 0; k < size_t(kShapeBlock); ++k)
      copyElement(rr, base + k, xz, base + kShapeBlock - 1 - k);
    for (size_t r = 0; r < R; ++r)
      for (size_t c = 0; c < C; ++c) {
        copyElement(r0, base + r * C + c, xz, base + (R - 1 - r) * C + c);
        copyElement(r1, base + r * C + c, xz, base + r * C + C - 1 - c);
      }
  }
  std::string at = std::string(" ") + name(t) + " n=" + std::to_string(n);
  return {sameBytes("flip of a 1-D block" + at, rev, rr), sameBytes("flip along dimension 0" + at, flip0, r0),
          sameBytes("flip along the last dimension (dim=None)" + at, flip1, r1),
          sameBytes("x.flip(dim=-2)" + at, flipm, r0)};
}

inline std::vector<Check> gathersCase(const Launch &L, DType t, int n, std::mt19937_64 &rng) {
  unsigned programs = shapePrograms(n);
  size_t span = size_t(programs) * kShapeBlock, quarter = span / 4;
  const size_t R = kShapeRows, C = kShapeCols;
  Buffer s = randomBuffer(t, size_t(n), rng);
  std::vector<int32_t> iv(span);
  std::vector<uint8_t> jv(quarter);
  std::vector<int64_t> kv(quarter);
  std::uniform_int_distribution<int> block(0, kShapeBlock - 1), col(0, int(C) - 1), row(0, int(R) - 1);
  for (int32_t &v : iv)
    v = block(rng);
  for (uint8_t &v : jv)
    v = uint8_t(col(rng));
  for (int64_t &v : kv)
    v = row(rng);
  Buffer i = rawBuffer(iv), j = rawBuffer(jv), k = rawBuffer(kv);
  Buffer g = poisoned(t, span), along1 = poisoned(t, quarter), along0 = poisoned(t, quarter);
  std::string e = L("shape_ops", {{"T", name(t)}}, "gathers", programs,
                    {KArg::buf_(s), KArg::buf_(i), KArg::buf_(j), KArg::buf_(k), KArg::buf_(g), KArg::buf_(along1),
                     KArg::buf_(along0), KArg::int_(n)});
  if (!e.empty())
    return {{"gathers: " + e, INFINITY, 0}};
  Buffer sz = zeroPadded(s, span), rg(t, span), r1(t, quarter), r0(t, quarter);
  for (size_t p = 0; p < programs; ++p) {
    size_t base = p * kShapeBlock, qbase = base / 4;
    for (size_t q = 0; q < size_t(kShapeBlock); ++q)
      copyElement(rg, base + q, sz, base + size_t(iv[base + q]));
    for (size_t r = 0; r < R; ++r)
      for (size_t c = 0; c < C / 4; ++c) {
        size_t at = qbase + r * (C / 4) + c;
        copyElement(r1, at, sz, base + r * C + jv[at]);
      }
    for (size_t r = 0; r < R / 4; ++r)
      for (size_t c = 0; c < C; ++c) {
        size_t at = qbase + r * C + c;
        copyElement(r0, at, sz, base + size_t(kv[at]) * C + c);
      }
  }
  std::string at = std::string(" ") + name(t) + " n=" + std::to_string(n);
  return {sameBytes("gather of a 1-D block (i32 indices)" + at, g, rg),
          sameBytes("gather along axis 1 (u8 indices)" + at, along1, r1),
          sameBytes("x.gather along axis 0 (i64 indices)" + at, along0, r0)};
}

inline std::vector<Check> permutesCase(const Launch &L, DType t, int n, std::mt19937_64 &rng) {
  unsigned programs = shapePrograms(n);
  size_t span = size_t(programs) * kShapeBlock;
  const size_t R = kShapeRows, C = kShapeCols;
  Buffer x = randomBuffer(t, size_t(n), rng);
  Buffer perm = poisoned(t, span), permm = poisoned(t, span), trans = poisoned(t, span), same = poisoned(t, span);
  std::string e = L("shape_ops", {{"T", name(t)}}, "permutes", programs,
                    {KArg::buf_(x), KArg::buf_(perm), KArg::buf_(permm), KArg::buf_(trans), KArg::buf_(same),
                     KArg::int_(n)});
  if (!e.empty())
    return {{"permutes: " + e, INFINITY, 0}};
  Buffer xz = zeroPadded(x, span), rt(t, span);
  for (size_t p = 0; p < programs; ++p)
    for (size_t r = 0; r < R; ++r)
      for (size_t c = 0; c < C; ++c)
        copyElement(rt, p * kShapeBlock + c * R + r, xz, p * kShapeBlock + r * C + c);
  std::string at = std::string(" ") + name(t) + " n=" + std::to_string(n);
  return {sameBytes("permute(t, (1, 0))" + at, perm, rt), sameBytes("t.permute(1, 0)" + at, permm, rt),
          sameBytes("trans(t, 1, 0)" + at, trans, rt),
          sameBytes("permute(t, [0, 1]) + zeros_like(t)" + at, same, xz)};
}

/// aliases: Triton's expand_dims, ravel and view, each output the program's
/// block in row-major order (zero past n), and FIRST each program's first
/// element.
inline std::vector<Check> aliasesCase(const Launch &L, DType t, int n, std::mt19937_64 &rng) {
  unsigned programs = shapePrograms(n);
  size_t span = size_t(programs) * kShapeBlock;
  Buffer x = randomBuffer(t, size_t(n), rng);
  const char *names[] = {"expand_dims(x, 0)", "x.expand_dims(axis=-1)",     "expand_dims(x, [0])",
                         "ravel(t)",          "t.ravel(can_reorder=False)", "view(t, [C, R])",
                         "t.view(C, R)",      "view(x, R, C)"};
  std::vector<Buffer> outs;
  for (size_t k = 0; k < std::size(names); ++k)
    outs.push_back(poisoned(t, span));
  Buffer first = poisoned(t, programs);
  std::vector<KArg> args{KArg::buf_(x)};
  for (Buffer &o : outs)
    args.push_back(KArg::buf_(o));
  args.push_back(KArg::buf_(first));
  args.push_back(KArg::int_(n));
  std::string e = L("shape_ops", {{"T", name(t)}}, "aliases", programs, args);
  if (!e.empty())
    return {{"aliases: " + e, INFINITY, 0}};
  Buffer xz = zeroPadded(x, span), rf(t, programs);
  for (size_t p = 0; p < programs; ++p)
    copyElement(rf, p, xz, p * kShapeBlock);
  std::string at = std::string(" ") + name(t) + " n=" + std::to_string(n);
  std::vector<Check> checks;
  for (size_t k = 0; k < std::size(names); ++k)
    checks.push_back(sameBytes(names[k] + at, outs[k], xz));
  checks.push_back(sameBytes("expand_dims(s, (0, 1)) of a number" + at, first, rf));
  return checks;
}

/// Triton's swizzle2d on the host.
inline std::pair<int32_t, int32_t> swizzle2d(int32_t i, int32_t j, int32_t sizeI, int32_t sizeJ, int32_t sizeG) {
  int32_t ij = i * sizeJ + j, sizeGJ = sizeG * sizeJ, offI = ij / sizeGJ * sizeG;
  int32_t rows = std::min(sizeI - offI, sizeG), inGroup = ij % sizeGJ;
  return {offI + inGroup % rows, inGroup / rows};
}

inline std::vector<Check> swizzleCase(const Launch &L, int sizeI) {
  Buffer ni = poisoned(DType::I32, 256), nj = poisoned(DType::I32, 256);
  std::string e = L("shape_ops", {{"T", "f32"}}, "swizzle", 1, {KArg::buf_(ni), KArg::buf_(nj), KArg::int_(sizeI)});
  if (!e.empty())
    return {{"swizzle: " + e, INFINITY, 0}};
  Buffer ri = poisoned(DType::I32, 256), rj = poisoned(DType::I32, 256);
  for (int32_t i = 0; i < sizeI; ++i)
    for (int32_t j = 0; j < 16; ++j) {
      auto [a, b] = swizzle2d(i, j, sizeI, 16, 4);
      ri.set(size_t(i * 16 + j), a);
      rj.set(size_t(i * 16 + j), b);
    }
  std::string at = " size_i=" + std::to_string(sizeI);
  return {sameBytes("swizzle2d rows" + at, ni, ri), sameBytes("swizzle2d columns" + at, nj, rj)};
}

/// histogram(x, 32) and its masked form over each program's 512 values,
/// values from -4 to 40 (some outside the bins).
inline std::vector<Check> histogramCase(const Launch &L, int n, std::mt19937_64 &rng) {
  const int bins = 32;
  unsigned programs = shapePrograms(n);
  Buffer x(DType::I32, size_t(n));
  for (int i = 0; i < n; ++i)
    x.set(size_t(i), double(int32_t(rng() % 45) - 4));
  Buffer h = poisoned(DType::I32, programs * bins), hm = poisoned(DType::I32, programs * bins);
  std::string e = L("shape_ops", {{"T", "f32"}}, "histograms", programs,
                    {KArg::buf_(x), KArg::buf_(h), KArg::buf_(hm), KArg::int_(n)});
  if (!e.empty())
    return {{"histograms: " + e, INFINITY, 0}};
  Buffer rh(DType::I32, programs * bins), rhm(DType::I32, programs * bins);
  for (int i = 0; i < n; ++i) {
    int32_t v = int32_t(x.get(size_t(i)));
    if (v < 0 || v >= bins)
      continue;
    size_t at = size_t(i / kShapeBlock) * bins + size_t(v);
    rh.set(at, rh.get(at) + 1);
    if (i % 3 != 0)
      rhm.set(at, rhm.get(at) + 1);
  }
  std::string at = " n=" + std::to_string(n);
  return {sameBytes("histogram" + at, h, rh), sameBytes("histogram with a mask" + at, hm, rhm)};
}

} // namespace blk::ref

#endif
