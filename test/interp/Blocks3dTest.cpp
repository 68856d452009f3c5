// test/kernels/blocks_3d.blk on the interpreter, as the frontend makes it and
// after the blk passes for sm_90a (bothWays: the two runs must also write the
// same bytes), every variant.
#include "../common/Blocks3dCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Blocks3d, EveryVariantAfterThePasses) {
  BLK_SEEDED_RNG(rng);
  ref::Launch L = bothWays("sm_90a");
  for (const ref::Blocks3dVariant &v : ref::blocks3dVariants()) {
    SCOPED_TRACE(v.name());
    ref::expectChecks(ref::blocks3dCases(L, v, rng));
  }
}

} // namespace
