// Blocks of i16, u8 and u16 end to end (test/kernels/narrow_ints.blk) against
// host results computed in C++ with the same types, on the interpreter and on
// the GPU: wrapping add, multiply and left shift, right shift (arithmetic for
// i16, logical for u8/u16), comparisons and maximum/minimum in the type's
// order, `//` and `%` (truncating), `/` (true division in f32), conversions to
// and from i32 and f32, and the sum (in i32), max and min reductions. Inputs
// cover each type's whole range. Integer outputs must equal their references
// element for element; every output starts as the complement of its
// reference, so an element never written fails.
#ifndef BLK_TEST_COMMON_NARROWINTCASES_H
#define BLK_TEST_COMMON_NARROWINTCASES_H

#include "RowCases.h"

#include <limits>
#include <type_traits>

namespace blk::ref {

/// Elements each program of narrow_ints.blk takes.
inline constexpr int kNarrowBlock = 512;

inline unsigned narrowPrograms(int n) { return unsigned((n + kNarrowBlock - 1) / kNarrowBlock); }

/// The kernel file's name of `E` (its variant's binding T).
template <typename E> const char *narrowName() {
  if constexpr (std::is_same_v<E, int16_t>)
    return "i16";
  else if constexpr (std::is_same_v<E, uint8_t>)
    return "u8";
  else
    return "u16";
}

/// `v` modulo 2^bits of `E`, as `E` (what a wrapping operation keeps).
template <typename E> E wrapTo(int64_t v) { return E(std::make_unsigned_t<E>(uint64_t(v))); }

/// A buffer of exactly `v`'s bytes (typed i8 for the launchers: the guard
/// bands then sit right after the last element).
template <typename E> Buffer narrowBuffer(const std::vector<E> &v) {
  Buffer b(DType::I8, v.size() * sizeof(E));
  std::memcpy(b.data.data(), v.data(), b.data.size());
  return b;
}

/// An output for `ref`: every byte the complement of the reference's, so
/// that no element the kernel fails to write can match.
template <typename E> Buffer unlike(const std::vector<E> &ref) {
  Buffer b = narrowBuffer(ref);
  for (uint8_t &c : b.data)
    c = uint8_t(~c);
  return b;
}

template <typename E> std::string showValue(E v) {
  if constexpr (std::is_floating_point_v<E>)
    return show(double(v));
  else
    return std::to_string(int64_t(v));
}

/// `out` holds `ref` element for element (bits, for f32 too).
template <typename E> Check sameValues(const std::string &what, const Buffer &out, const std::vector<E> &ref) {
  std::vector<E> got = rawValues<E>(out, ref.size());
  for (size_t i = 0; i < ref.size(); ++i)
    if (std::memcmp(&got[i], &ref[i], sizeof(E)) != 0)
      return exact(what + " (first difference at element " + std::to_string(i) + ": " + showValue(got[i]) +
                       ", expected " + showValue(ref[i]) + ")",
                   false);
  return exact(what, true);
}

/// `n` values of `E` over its whole range, with its extremes, 0, 1 and -1
/// (i16) among the first.
template <typename E> std::vector<E> narrowValues(size_t n, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int64_t> any(std::numeric_limits<E>::min(), std::numeric_limits<E>::max());
  std::vector<E> v(n);
  for (E &e : v)
    e = E(any(rng));
  const E special[] = {std::numeric_limits<E>::min(), std::numeric_limits<E>::max(), E(0), E(1), wrapTo<E>(-1),
                       E(std::numeric_limits<E>::max() / 2 + 1)};
  for (size_t i = 0; i < std::size(special) && i < n; ++i)
    v[(i * 7) % n] = special[i];
  return v;
}

/// Divisors: half of them small (|d| up to 20), none 0 and, for i16, none -1
/// (MIN // -1 overflows).
template <typename E> std::vector<E> narrowDivisors(size_t n, std::mt19937_64 &rng) {
  std::vector<E> v = narrowValues<E>(n, rng);
  std::uniform_int_distribution<int> small(std::is_signed_v<E> ? -20 : 1, 20);
  for (size_t i = 0; i < n; ++i) {
    if (i % 2)
      v[i] = E(small(rng));
    if (v[i] == E(0) || int64_t(v[i]) == -1)
      v[i] = E(7);
  }
  return v;
}

inline Check launchFailed(const std::string &kernel, const std::string &e) { return {kernel + ": " + e, INFINITY, 0}; }

/// narrow_ints.blk's `arith` over `n` elements.
template <typename E> std::vector<Check> narrowArithCase(const Launch &L, int n, std::mt19937_64 &rng) {
  size_t un = size_t(n);
  std::vector<E> x = narrowValues<E>(un, rng), y = narrowValues<E>(un, rng), d = narrowDivisors<E>(un, rng);
  std::vector<E> add(un), mul(un), shr(un), shl(un), mx(un), mn(un), div(un), rem(un);
  std::vector<int32_t> cmp(un);
  std::vector<float> quo(un);
  for (size_t i = 0; i < un; ++i) {
    int64_t a = x[i], b = y[i], c = d[i]; // exact: every E fits
    add[i] = wrapTo<E>(a + b);
    mul[i] = wrapTo<E>(a * b);
    shr[i] = E(a >> 3); // arithmetic on a negative i16, and u8/u16 values are never negative
    shl[i] = wrapTo<E>(int64_t(uint64_t(a) << 5));
    mx[i] = std::max(x[i], y[i]);
    mn[i] = std::min(x[i], y[i]);
    cmp[i] = int32_t(x[i] > y[i]) * 2 + int32_t(x[i] > E(1));
    div[i] = E(a / c); // C++ truncates, as Triton's // does
    rem[i] = E(a % c);
    quo[i] = float(a) / float(c);
  }
  Buffer X = narrowBuffer(x), Y = narrowBuffer(y), D = narrowBuffer(d);
  Buffer ADD = unlike(add), MUL = unlike(mul), SHR = unlike(shr), SHL = unlike(shl), MAX = unlike(mx),
         MIN = unlike(mn), CMP = unlike(cmp), DIV = unlike(div), REM = unlike(rem), QUO = unlike(quo);
  std::string e = L("narrow_ints", {{"T", narrowName<E>()}}, "arith", narrowPrograms(n),
                    {KArg::buf_(X), KArg::buf_(Y), KArg::buf_(D), KArg::buf_(ADD), KArg::buf_(MUL), KArg::buf_(SHR),
                     KArg::buf_(SHL), KArg::buf_(MAX), KArg::buf_(MIN), KArg::buf_(CMP), KArg::buf_(DIV),
                     KArg::buf_(REM), KArg::buf_(QUO), KArg::int_(n)});
  if (!e.empty())
    return {launchFailed("arith", e)};
  // x / d: f32 division, div.full.f32 on the GPU (within 2 ulp).
  Buffer q(DType::F32, un);
  q.data = QUO.data;
  std::vector<double> rq(quo.begin(), quo.end());
  std::string at = std::string(" ") + narrowName<E>() + " n=" + std::to_string(n);
  return {sameValues("x + y (wrapping)" + at, ADD, add),
          sameValues("x * y (wrapping)" + at, MUL, mul),
          sameValues(std::string(std::is_signed_v<E> ? "x >> 3 (arithmetic)" : "x >> 3 (logical)") + at, SHR, shr),
          sameValues("x << 5 (wrapping)" + at, SHL, shl),
          sameValues("maximum(x, y)" + at, MAX, mx),
          sameValues("minimum(x, y)" + at, MIN, mn),
          sameValues("2 (x > y) + (x > 1)" + at, CMP, cmp),
          sameValues("x // d" + at, DIV, div),
          sameValues("x % d" + at, REM, rem),
          {"x / d (f32)" + at, relativeError(q, rq), 1e-6}};
}

/// narrow_ints.blk's `convert` over `n` elements.
template <typename E> std::vector<Check> narrowConvertCase(const Launch &L, int n, std::mt19937_64 &rng) {
  size_t un = size_t(n);
  std::vector<E> x = narrowValues<E>(un, rng);
  // f32 values inside E's range, with fractions (toward zero: -2.5 -> -2).
  std::uniform_real_distribution<double> real(double(std::numeric_limits<E>::min()),
                                              double(std::numeric_limits<E>::max()) + 0.99);
  std::vector<float> f(un);
  for (float &v : f)
    v = float(real(rng));
  f[0] = -0.75f * float(std::is_signed_v<E>);
  std::vector<int32_t> wide(un);
  std::vector<float> realOut(un);
  std::vector<E> fromF(un), fromI(un);
  for (size_t i = 0; i < un; ++i) {
    wide[i] = int32_t(x[i]);
    realOut[i] = float(x[i]);
    fromF[i] = E(std::trunc(double(f[i])));
    fromI[i] = wrapTo<E>(int64_t(int32_t(x[i]) * 37 + 1000));
  }
  Buffer X = narrowBuffer(x), F = narrowBuffer(f);
  Buffer WIDE = unlike(wide), REAL = unlike(realOut), FROM_F = unlike(fromF), FROM_I = unlike(fromI);
  std::string e = L("narrow_ints", {{"T", narrowName<E>()}}, "convert", narrowPrograms(n),
                    {KArg::buf_(X), KArg::buf_(F), KArg::buf_(WIDE), KArg::buf_(REAL), KArg::buf_(FROM_F),
                     KArg::buf_(FROM_I), KArg::int_(n)});
  if (!e.empty())
    return {launchFailed("convert", e)};
  std::string at = std::string(" ") + narrowName<E>() + " n=" + std::to_string(n);
  return {sameValues(std::string(std::is_signed_v<E> ? "x.to(i32) (sign-extended)" : "x.to(i32) (zero-extended)") +
                         at,
                     WIDE, wide),
          sameValues("x.to(f32)" + at, REAL, realOut), sameValues("f.to(T) (toward zero)" + at, FROM_F, fromF),
          sameValues("(37 x.to(i32) + 1000).to(T) (low bits)" + at, FROM_I, fromI)};
}

/// narrow_ints.blk's `reduce` over `n` elements.
template <typename E> std::vector<Check> narrowReduceCase(const Launch &L, int n, std::mt19937_64 &rng) {
  unsigned programs = narrowPrograms(n);
  std::vector<E> x = narrowValues<E>(size_t(n), rng);
  std::vector<int32_t> sum(programs);
  std::vector<E> mx(programs), mn(programs);
  for (unsigned p = 0; p < programs; ++p) {
    int32_t s = 0;
    E hi = std::numeric_limits<E>::min(), lo = std::numeric_limits<E>::max();
    for (int k = 0; k < kNarrowBlock; ++k) {
      size_t i = size_t(p) * kNarrowBlock + size_t(k);
      E v = i < size_t(n) ? x[i] : E(0); // masked-off elements load as 0
      s += int32_t(v);
      hi = std::max(hi, v);
      lo = std::min(lo, v);
    }
    sum[p] = s;
    mx[p] = hi;
    mn[p] = lo;
  }
  Buffer X = narrowBuffer(x), SUM = unlike(sum), MAX = unlike(mx), MIN = unlike(mn);
  std::string e = L("narrow_ints", {{"T", narrowName<E>()}}, "reduce", programs,
                    {KArg::buf_(X), KArg::buf_(SUM), KArg::buf_(MAX), KArg::buf_(MIN), KArg::int_(n)});
  if (!e.empty())
    return {launchFailed("reduce", e)};
  std::string at = std::string(" ") + narrowName<E>() + " n=" + std::to_string(n);
  return {sameValues("sum(x) (in i32)" + at, SUM, sum), sameValues("max(x)" + at, MAX, mx),
          sameValues("x.min(0)" + at, MIN, mn)};
}

/// Every case in `E` at size `n`.
template <typename E> std::vector<Check> narrowIntCases(const Launch &L, int n, std::mt19937_64 &rng) {
  std::vector<Check> all = narrowArithCase<E>(L, n, rng);
  for (auto *fn : {narrowConvertCase<E>, narrowReduceCase<E>})
    for (Check &c : fn(L, n, rng))
      all.push_back(std::move(c));
  return all;
}

} // namespace blk::ref

#endif
