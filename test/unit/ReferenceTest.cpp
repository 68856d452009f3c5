#include "../common/Reference.h"

#include <gtest/gtest.h>

using namespace blk::ref;

namespace {

TEST(Reference, BF16RoundsToNearestEven) {
  EXPECT_EQ(toBF16(1.0f), 0x3f80);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1.0).
  EXPECT_EQ(toBF16(1.00390625f), 0x3f80);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: ties to even.
  EXPECT_EQ(toBF16(1.01171875f), 0x3f82);
  EXPECT_TRUE(std::isnan(fromBF16(toBF16(NAN))));
}

TEST(Reference, F16RoundTrips) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f})
    EXPECT_EQ(fromF16(toF16(f)), f) << f;
  EXPECT_TRUE(std::isinf(fromF16(toF16(1e6f))));
  EXPECT_EQ(toF16(1.0f + 1.0f / 2048), 0x3c00); // tie to even
}

TEST(Reference, PoisonIsNaNAndFailsTheCheck) {
  for (DType t : {DType::F32, DType::F16, DType::BF16}) {
    Buffer b(t, 4);
    b.poison();
    EXPECT_TRUE(std::isnan(b.get(2)));
    EXPECT_EQ(relativeError(b, {1, 2, 3, 4}), INFINITY);
  }
}

} // namespace
