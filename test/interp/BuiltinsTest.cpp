// Every elementwise math builtin (test/kernels/builtins.blk) on the
// interpreter in f32/f16/bf16, at a size that is not a multiple of BLOCK.
#include "../common/BuiltinCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Builtins, MatchFloat64) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes)
    ref::expectChecks(ref::builtinsCase(interpLaunch, t, 1000, false, rng));
}

} // namespace
