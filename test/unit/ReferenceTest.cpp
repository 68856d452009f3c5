#include "../common/Guards.h"
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

// The norm alone lets one wrong element among 2^20 pass (it moves the norm by
// about 1e-3, under bf16's 1e-2); the per-element term must not.
TEST(Reference, OneWrongElementAmongAMillionFails) {
  const size_t n = size_t(1) << 20;
  Buffer out(DType::BF16, n);
  std::vector<double> ref(n);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (size_t i = 0; i < n; ++i) {
    ref[i] = dist(rng);
    out.set(i, ref[i]);
  }
  EXPECT_LT(relativeError(out, ref), tolerance(DType::BF16));
  out.set(12345, -ref[12345]); // one sign flipped
  Error e = relativeError(out, ref);
  EXPECT_GE(e, tolerance(DType::BF16)) << e;
  EXPECT_NE(e.detail.find("worst element 12345"), std::string::npos) << e;
}

TEST(Reference, InfinityFailsTheCheck) {
  Buffer b(DType::F32, 3);
  for (size_t i = 0; i < 3; ++i)
    b.set(i, 1.0);
  b.set(1, INFINITY);
  EXPECT_EQ(relativeError(b, {1, 1, 1}), INFINITY);
  b.set(1, 1.0);
  EXPECT_EQ(relativeError(b, {1, NAN, 1}), INFINITY); // nor does a NaN reference pass
}

TEST(Guards, AStoreOnePastTheEndIsReported) {
  Buffer b(DType::F32, 10);
  std::vector<uint8_t> image = guardedImage(b, 2);
  EXPECT_EQ(takeGuardedImage(image, b, 2, "k"), "");
  image[kGuardBytes + 40] ^= 1; // element 10: one past the end
  std::string e = takeGuardedImage(image, b, 2, "k");
  EXPECT_NE(e.find("kernel 'k' wrote outside argument 2"), std::string::npos) << e;
  EXPECT_NE(e.find("byte offsets 40 to 40"), std::string::npos) << e;
  image = guardedImage(b, 0);
  image[kGuardBytes - 4] = uint8_t(~image[kGuardBytes - 4]); // element -1
  e = takeGuardedImage(image, b, 0, "k");
  EXPECT_NE(e.find("byte offsets -4 to -4"), std::string::npos) << e;
}

} // namespace
