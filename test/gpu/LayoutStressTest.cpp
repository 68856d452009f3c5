// test/kernels/layout_stress.blk's scans, column sums, broadcasts and sums of
// column-major tiles (the layout rows of bench/run.py) on the GPU, every
// variant: column sums over row counts that cut the last step short, against
// host results.
#include "../common/LayoutStressCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(LayoutStress, ScansColumnSumsBroadcastsAndTransposedSumsEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const ref::LayoutStressVariant &v : ref::layoutStressVariants()) {
    SCOPED_TRACE(v.name());
    ref::expectChecks(ref::columnSumsCase(gpuLaunch, v, 3, 2 * v.r + v.r / 2 + 3, rng));
    ref::expectChecks(ref::columnSumsCase(gpuLaunch, v, 64, 4 * v.r, rng));
    ref::expectChecks(ref::broadcastMixCase(gpuLaunch, v, 37, rng));
    ref::expectChecks(ref::scanCase(gpuLaunch, v, 0, 37, rng));
    ref::expectChecks(ref::scanCase(gpuLaunch, v, 1, 37, rng));
    ref::expectChecks(ref::transposedSumCase(gpuLaunch, v, 5, 3, rng));
  }
}

} // namespace
