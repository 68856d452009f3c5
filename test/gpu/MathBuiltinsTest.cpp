// Triton's math, integer and hint builtins (test/kernels/math.blk) on the
// GPU: libdevice functions against float64 in f32/f16/bf16 (unspecialized at
// sizes that are not multiples of 16, .n16 at multiples of 16 that are not
// multiples of BLOCK), exact rows, float predicates, umulhi/popc/clz, hints,
// and inline PTX.
#include "../common/MathCases.h"
#include "../common/RoundingCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Builtins, LibdeviceMatchFloat64) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes) {
    for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
      ref::expectChecks(ref::libdeviceCase(gpuLaunch, t, n, false, rng));
    for (size_t n : {size_t(16), size_t(1008)})
      ref::expectChecks(ref::libdeviceCase(gpuLaunch, t, n, true, rng));
  }
}

TEST(Builtins, ExactRows) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes)
    for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
      ref::expectChecks(ref::exactRowsCase(gpuLaunch, t, n, rng));
}

TEST(Builtins, FloatClasses) {
  BLK_REQUIRE_GPU();
  for (ref::DType t : ref::kAllTypes)
    ref::expectChecks(ref::floatClassesCase(gpuLaunch, t));
}

TEST(Builtins, IntegerRows) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1), size_t(1000), size_t(100003)}) {
    ref::expectChecks(ref::integerCase(gpuLaunch, 32, n, rng));
    ref::expectChecks(ref::integerCase(gpuLaunch, 64, n, rng));
  }
}

TEST(Builtins, Hints) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
    ref::expectChecks(ref::hintsCase(gpuLaunch, n, rng));
}

TEST(Builtins, InlineAsm) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1), size_t(3), size_t(1000), size_t(100003)})
    ref::expectChecks(ref::inlineAsmCase(gpuLaunch, n, rng));
}

TEST(Builtins, NarrowTowardZero) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1), size_t(3001), size_t(200003)})
    ref::expectChecks(ref::narrowTowardZeroCase(gpuLaunch, n, rng));
}

} // namespace
