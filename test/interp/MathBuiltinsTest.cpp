// Triton's math, integer and hint builtins (test/kernels/math.blk) on the
// interpreter: libdevice functions against float64 in f32/f16/bf16, exact
// rows, float predicates, umulhi/popc/clz, hints; inline asm is refused.
#include "../common/MathCases.h"
#include "../common/RoundingCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Builtins, LibdeviceMatchFloat64) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes)
    ref::expectChecks(ref::libdeviceCase(interpLaunch, t, 1000, false, rng));
}

TEST(Builtins, ExactRows) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes)
    ref::expectChecks(ref::exactRowsCase(interpLaunch, t, 1000, rng));
}

TEST(Builtins, FloatClasses) {
  for (ref::DType t : ref::kAllTypes)
    ref::expectChecks(ref::floatClassesCase(interpLaunch, t));
}

TEST(Builtins, IntegerRows) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::integerCase(interpLaunch, 32, 1000, rng));
  ref::expectChecks(ref::integerCase(interpLaunch, 64, 1000, rng));
}

TEST(Builtins, Hints) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::hintsCase(interpLaunch, 1000, rng));
}

// The same kernels after the blk passes (sm_90a and sm_80) give the same bytes.
TEST(Builtins, MathAfterPasses) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : {"sm_90a", "sm_80"}) {
    ref::Launch L = bothWays(arch);
    for (ref::DType t : ref::kAllTypes) {
      ref::expectChecks(ref::libdeviceCase(L, t, 300, false, rng));
      ref::expectChecks(ref::exactRowsCase(L, t, 300, rng));
      ref::expectChecks(ref::floatClassesCase(L, t));
    }
    ref::expectChecks(ref::integerCase(L, 32, 300, rng));
    ref::expectChecks(ref::integerCase(L, 64, 300, rng));
    ref::expectChecks(ref::hintsCase(L, 300, rng));
  }
}

TEST(Builtins, InlineAsmIsRefused) {
  BLK_SEEDED_RNG(rng);
  std::vector<ref::Check> checks = ref::inlineAsmCase(interpLaunch, 100, rng);
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_NE(checks[0].what.find("inline_asm_elementwise runs PTX, which the interpreter cannot execute"),
            std::string::npos)
      << checks[0].what;
}

TEST(Builtins, NarrowTowardZero) {
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1), size_t(3001)})
    ref::expectChecks(ref::narrowTowardZeroCase(interpLaunch, n, rng));
}

} // namespace
