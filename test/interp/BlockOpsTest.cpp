// trans, reshape, broadcast_to and static_range on the interpreter.
#include "../common/BlockOpCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(BlockOps, Transpose) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::transposeCase(interpLaunch, "transpose", 45, 100, rng));
  ref::expectChecks(ref::transposeCase(interpLaunch, "transpose_by_load", 45, 100, rng));
}

TEST(BlockOps, ReshapeBroadcastToStaticRange) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::reshapesCase(interpLaunch, rng));
}

TEST(BlockOps, CumsumCumprod) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::scansCase(interpLaunch, rng));
}

} // namespace
