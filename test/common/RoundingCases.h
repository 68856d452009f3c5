// Floats narrowed toward zero (fp_downcast_rounding="rtz", test/kernels/
// rounding.blk) against a reference that needs no rounding at all: the value
// of the narrow type with the largest magnitude not above the input's, found
// by bisecting the type's ordered bit patterns. The same case runs on the
// interpreter and on the GPU.
#ifndef BLK_TEST_COMMON_ROUNDINGCASES_H
#define BLK_TEST_COMMON_ROUNDINGCASES_H

#include "RowCases.h"

#include <functional>

namespace blk::ref {

/// The truncation of `v` in a type whose non-negative values, from +0 to
/// +infinity, are the bit patterns 0..`infBits` in increasing order (sign
/// and magnitude): the sign's bit or-ed onto the largest magnitude <= |v|.
inline uint64_t towardZeroBits(double v, uint64_t infBits, unsigned signBit,
                               const std::function<double(uint64_t)> &decode) {
  uint64_t lo = 0, hi = infBits; // decode(lo) <= |v| always; find the largest such
  double a = std::fabs(v);
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (decode(mid) <= a)
      lo = mid;
    else
      hi = mid - 1;
  }
  return std::signbit(v) ? lo | (uint64_t(1) << signBit) : lo;
}

/// Inputs for narrowing: values next to f16 and bf16 codes and between them
/// (ties included), beyond f16's range, subnormals of both, zeros,
/// infinities, a NaN, and random values of any scale; f64 inputs add bits
/// below f32's precision.
inline std::vector<double> narrowingInputs(size_t n, std::mt19937_64 &rng) {
  std::vector<double> v = {0.0, -0.0, 65504.0, 65519.0, 65520.0, -65536.0, 1e30, -1e30, INFINITY, -INFINITY,
                           NAN, 5.960464477539063e-08, 2.9e-08, -1e-45, 3.4e38};
  std::uniform_int_distribution<int> code(0, 0x7bff);
  std::uniform_real_distribution<double> frac(0, 1), mant(-2, 2);
  std::uniform_int_distribution<int> exp(-30, 40);
  while (v.size() < n / 2) {
    double x = fromF16(uint16_t(code(rng))), next = fromF16(uint16_t(code(rng) | 1));
    v.push_back(frac(rng) < 0.5 ? -x : x);
    v.push_back((x + fromF16(uint16_t(toF16(float(x)) + 1))) / 2); // an f16 tie
    v.push_back(x + (next - x) * frac(rng));
  }
  while (v.size() < n)
    v.push_back(std::ldexp(mant(rng), exp(rng)) * (1 + 1e-12 * frac(rng)));
  v.resize(n);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

inline std::vector<Check> narrowTowardZeroCase(const Launch &L, size_t n, std::mt19937_64 &rng) {
  const int block = 256;
  std::vector<double> in = narrowingInputs(n, rng);
  std::vector<float> in32(n);
  for (size_t i = 0; i < n; ++i)
    in32[i] = float(in[i]); // to nearest: the f32 inputs
  std::vector<uint16_t> poison16(n, 0x7e01);
  Buffer x = rawBuffer(in32), xd = rawBuffer(in), h = rawBuffer(poison16), hz = rawBuffer(poison16),
         bz = rawBuffer(poison16), fz = rawBuffer(std::vector<uint32_t>(n, 0x7fc00001u)), hdz = rawBuffer(poison16),
         bdz = rawBuffer(poison16);
  std::string e = L("rounding", {}, "narrow", unsigned((n + block - 1) / block),
                    {KArg::buf_(x), KArg::buf_(xd), KArg::buf_(h), KArg::buf_(hz), KArg::buf_(bz), KArg::buf_(fz),
                     KArg::buf_(hdz), KArg::buf_(bdz), KArg::int_(int(n))});
  std::string what = "narrow n=" + std::to_string(n);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  auto f16 = [](uint64_t b) { return double(fromF16(uint16_t(b))); };
  auto bf16 = [](uint64_t b) { return double(fromBF16(uint16_t(b))); };
  auto f32 = [](uint64_t b) { return double(bitsFloat(uint32_t(b))); };
  std::vector<uint16_t> gotH = rawValues<uint16_t>(h, n), gotHZ = rawValues<uint16_t>(hz, n),
                        gotBZ = rawValues<uint16_t>(bz, n), gotHDZ = rawValues<uint16_t>(hdz, n),
                        gotBDZ = rawValues<uint16_t>(bdz, n);
  std::vector<uint32_t> gotFZ = rawValues<uint32_t>(fz, n);
  // A NaN input only needs a NaN out; every other result is exact bits.
  auto same = [](double v, uint64_t got, uint64_t want, const std::function<double(uint64_t)> &decode) {
    return std::isnan(v) ? std::isnan(decode(got)) : got == want;
  };
  bool okH = true, okHZ = true, okBZ = true, okFZ = true, okHDZ = true, okBDZ = true;
  size_t firstBad = n;
  for (size_t i = 0; i < n; ++i) {
    double v32 = in32[i], v = in[i];
    bool good[] = {same(v32, gotH[i], toF16(in32[i]), f16),
                   same(v32, gotHZ[i], towardZeroBits(v32, 0x7c00, 15, f16), f16),
                   same(v32, gotBZ[i], towardZeroBits(v32, 0x7f80, 15, bf16), bf16),
                   same(v, gotFZ[i], towardZeroBits(v, 0x7f800000, 31, f32), f32),
                   same(v, gotHDZ[i], towardZeroBits(v, 0x7c00, 15, f16), f16),
                   same(v, gotBDZ[i], towardZeroBits(v, 0x7f80, 15, bf16), bf16)};
    okH &= good[0], okHZ &= good[1], okBZ &= good[2], okFZ &= good[3], okHDZ &= good[4], okBDZ &= good[5];
    if (firstBad == n && !(good[0] && good[1] && good[2] && good[3] && good[4] && good[5]))
      firstBad = i;
  }
  std::string at = firstBad < n ? " (first mismatch at x=" + std::to_string(in[firstBad]) + ")" : "";
  return {exact(what + ": f32 -> f16 to nearest even" + at, okH),
          exact(what + ": f32 -> f16 toward zero" + at, okHZ),
          exact(what + ": f32 -> bf16 toward zero" + at, okBZ),
          exact(what + ": f64 -> f32 toward zero" + at, okFZ),
          exact(what + ": f64 -> f16 toward zero" + at, okHDZ),
          exact(what + ": f64 -> bf16 toward zero" + at, okBDZ)};
}

} // namespace blk::ref

#endif
