// test/kernels/blocks_3d.blk on the interpreter, as the frontend makes it and
// after the blk passes for sm_90a and sm_80 (bothWays: the two runs must also
// write the same bytes), every variant.
#include "../common/Blocks3dCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Blocks3d, EveryVariantAfterThePasses) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : {"sm_90a", "sm_80"}) {
    ref::Launch L = bothWays(arch);
    for (const ref::Blocks3dVariant &v : ref::blocks3dVariants()) {
      SCOPED_TRACE(std::string(arch) + " " + v.name());
      ref::expectChecks(ref::blocks3dCases(L, v, rng));
    }
  }
}

} // namespace
