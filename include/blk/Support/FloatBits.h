// Bit-exact conversions between float and the 16-bit and 8-bit float formats
// (round to nearest even) and tf32 rounding, shared by the interpreter, the tests and the
// benchmarks.
#ifndef BLK_SUPPORT_FLOATBITS_H
#define BLK_SUPPORT_FLOATBITS_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace blk {

inline uint32_t floatBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bitsFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

/// Round to nearest even, NaN preserved.
inline uint16_t toBF16(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7fffffff) > 0x7f800000)
    return uint16_t((u >> 16) | 0x40);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}
inline float fromBF16(uint16_t h) { return bitsFloat(uint32_t(h) << 16); }

inline uint16_t toF16(float f) {
  uint32_t u = floatBits(f);
  uint32_t sign = (u >> 16) & 0x8000;
  int32_t exp = int32_t((u >> 23) & 0xff) - 127 + 15;
  uint32_t mant = u & 0x7fffff;
  if (((u >> 23) & 0xff) == 0xff)
    return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31)
    return uint16_t(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10)
      return uint16_t(sign);
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | (uint32_t(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(half);
}
inline float fromF16(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) {
    if (mant == 0)
      return bitsFloat(sign);
    float f = std::ldexp(float(mant), -24);
    return sign ? -f : f;
  }
  if (exp == 31)
    return bitsFloat(sign | 0x7f800000 | (mant << 13));
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// An f32 value rounded to tf32 (10 mantissa bits; to nearest, ties away
/// from zero, as cvt.rna.tf32.f32); NaN and infinities pass unchanged.
inline float roundToTf32(float f) {
  if (!std::isfinite(f))
    return f;
  // A carry into the exponent rounds up to the next binade.
  return bitsFloat((floatBits(f) + 0x1000u) & ~0x1fffu);
}

/// The 8-bit float formats of fp8 tensor cores: e4m3 (Triton's float8e4nv:
/// bias 7, no infinities, S.1111.111 is NaN, largest 448) and e5m2 (bias 15,
/// IEEE-like infinities and NaNs, largest finite 57344).
enum class F8 { E4M3, E5M2 };

inline double fromF8(uint8_t bits, F8 format) {
  bool e5 = format == F8::E5M2;
  int mantBits = e5 ? 2 : 3, bias = e5 ? 15 : 7;
  int exp = (bits & 0x7f) >> mantBits, mant = bits & ((1 << mantBits) - 1), maxExp = e5 ? 31 : 15;
  double sign = bits & 0x80 ? -1.0 : 1.0;
  if (e5 && exp == maxExp)
    return mant ? NAN : sign * INFINITY;
  if (!e5 && exp == maxExp && mant == (1 << mantBits) - 1)
    return NAN;
  if (exp == 0)
    return sign * std::ldexp(double(mant), 1 - bias - mantBits);
  return sign * std::ldexp(1.0 + std::ldexp(double(mant), -mantBits), exp - bias);
}

/// Round to nearest even, saturated to the largest finite value (as PTX's
/// `cvt.rn.satfinite`): out-of-range values and infinities become +-max, a
/// NaN becomes 0x7f.
inline uint8_t toF8(float f, F8 format) {
  bool e5 = format == F8::E5M2;
  int mantBits = e5 ? 2 : 3, bias = e5 ? 15 : 7;
  uint8_t sign = std::signbit(f) ? 0x80 : 0, maxBits = e5 ? 0x7b : 0x7e;
  if (std::isnan(f))
    return 0x7f;
  double a = std::fabs(double(f)), max = fromF8(maxBits, format);
  if (a == 0)
    return sign;
  // The spacing of representable values around `a` (denormals below 2^(1-bias)).
  int exp;
  std::frexp(a, &exp); // a = m * 2^exp, m in [0.5, 1)
  int e = std::max(exp - 1, 1 - bias);
  double quantum = std::ldexp(1.0, e - mantBits);
  double q = std::nearbyint(a / quantum) * quantum; // ties to even (default rounding mode)
  if (!(q <= max))
    return uint8_t(sign | maxBits);
  if (q < std::ldexp(1.0, 1 - bias))
    return uint8_t(sign | int(q / std::ldexp(1.0, 1 - bias - mantBits)));
  std::frexp(q, &exp);
  int mant = int(std::ldexp(q, -(exp - 1)) * (1 << mantBits)) - (1 << mantBits);
  return uint8_t(sign | ((exp - 1 + bias) << mantBits) | mant);
}

} // namespace blk

#endif
