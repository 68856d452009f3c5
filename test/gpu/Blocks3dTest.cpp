// test/kernels/blocks_3d.blk on the GPU, every variant: reductions and scans
// along each axis of 3-D tiles, permutations, join, split and interleave
// through a third dimension, group-wise scales through a reshape, and a
// product summed over a broadcast 3-D block, at ragged sizes.
#include "../common/Blocks3dCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Blocks3d, EveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const ref::Blocks3dVariant &v : ref::blocks3dVariants()) {
    SCOPED_TRACE(v.name());
    ref::expectChecks(ref::blocks3dCases(gpuLaunch, v, rng));
  }
}

} // namespace
