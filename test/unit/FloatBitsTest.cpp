// The 8-bit float conversions of FloatBits.h against LLVM's APFloat (an
// independent implementation): every code decodes alike, and rounding with
// saturation matches APFloat's round-to-nearest-even clamped to the largest
// finite value (what cvt.rn.satfinite does).
#include "blk/Support/FloatBits.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>
#include <random>

using namespace blk;

namespace {

const llvm::fltSemantics &semantics(F8 f) {
  return f == F8::E4M3 ? llvm::APFloat::Float8E4M3FN() : llvm::APFloat::Float8E5M2();
}

double apDecode(uint8_t bits, F8 f) { return llvm::APFloat(semantics(f), llvm::APInt(8, bits)).convertToDouble(); }

/// APFloat's rounding, then saturation: an overflow (NaN for e4m3, which has
/// no infinity; infinity for e5m2) or an infinite input becomes +-max.
double apRound(float v, F8 f) {
  if (std::isnan(v))
    return NAN;
  llvm::APFloat x(v);
  bool lost;
  llvm::APFloat::opStatus status = x.convert(semantics(f), llvm::APFloat::rmNearestTiesToEven, &lost);
  double max = apDecode(f == F8::E4M3 ? 0x7e : 0x7b, f);
  if ((status & llvm::APFloat::opOverflow) || std::isinf(v) || x.isNaN() || x.isInfinity())
    return std::signbit(v) ? -max : max;
  return x.convertToDouble();
}

TEST(FloatBits, F8DecodesEveryCodeAsAPFloat) {
  for (F8 f : {F8::E4M3, F8::E5M2})
    for (int bits = 0; bits < 256; ++bits) {
      double mine = fromF8(uint8_t(bits), f), theirs = apDecode(uint8_t(bits), f);
      if (std::isnan(theirs))
        EXPECT_TRUE(std::isnan(mine)) << bits;
      else
        EXPECT_EQ(mine, theirs) << bits;
    }
}

TEST(FloatBits, F8RoundsAndSaturatesAsAPFloat) {
  std::mt19937 rng(7);
  std::vector<float> values = {0.0f, -0.0f, 1.0f, 448.0f, 464.0f, 465.0f, 480.0f, 57344.0f, 61440.0f, 1e9f,
                               INFINITY, -INFINITY, 1e-9f, 0.0009765625f, 0.001953125f, 0.0029296875f};
  std::uniform_real_distribution<float> mant(-1, 1);
  std::uniform_int_distribution<int> exp(-24, 18);
  for (int i = 0; i < 20000; ++i)
    values.push_back(std::ldexp(mant(rng), exp(rng)));
  for (int bits = 0; bits < 256; ++bits) { // every code and the midpoints next to it
    double v = fromF8(uint8_t(bits), F8::E4M3);
    values.insert(values.end(), {float(v), std::nextafter(float(v), 0.0f), std::nextafter(float(v), 1e30f)});
  }
  for (F8 f : {F8::E4M3, F8::E5M2})
    for (float v : values) {
      if (std::isnan(v)) // NaN codes' neighbours: checked below
        continue;
      double mine = fromF8(toF8(v, f), f), theirs = apRound(v, f);
      EXPECT_EQ(std::signbit(mine), std::signbit(theirs)) << v;
      EXPECT_EQ(mine, theirs) << v << (f == F8::E4M3 ? " e4m3" : " e5m2");
    }
  EXPECT_TRUE(std::isnan(fromF8(toF8(NAN, F8::E4M3), F8::E4M3)));
  EXPECT_TRUE(std::isnan(fromF8(toF8(NAN, F8::E5M2), F8::E5M2)));
}

} // namespace
