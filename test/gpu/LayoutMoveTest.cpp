// test/kernels/layout_moves.blk on the GPU, every variant: conversions by
// warp shuffles (column sums carried across a loop) and reshapes that rename
// registers, against exact integer results.
#include "../common/LayoutMoveCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(LayoutMoves, ShufflesAndRenamesEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const ref::LayoutMoveVariant &v : ref::layoutMoveVariants()) {
    SCOPED_TRACE(v.name());
    ref::expectChecks(ref::layoutMoveColumnSumsCase(gpuLaunch, v, 3, 2 * v.r + v.r / 2 + 3, rng));
    ref::expectChecks(ref::layoutMoveColumnSumsCase(gpuLaunch, v, 64, 4 * v.r, rng));
    ref::expectChecks(ref::layoutMoveFlattenCase(gpuLaunch, v, 5, rng));
    ref::expectChecks(ref::layoutMoveRowPlusColumnCase(gpuLaunch, v, 7, rng));
  }
}

} // namespace
