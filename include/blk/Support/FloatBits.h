// Bit-exact conversions between float and the 16-bit float formats (round to
// nearest even), shared by the interpreter, the tests and the benchmarks.
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

} // namespace blk

#endif
