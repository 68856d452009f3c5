// trans, reshape, broadcast_to and static_range on the interpreter.
#include "../common/BlockOpCases.h"
#include "../common/RowTestSupport.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(BlockOps, Transpose) {
  std::mt19937_64 rng(std::random_device{}());
  ref::expectChecks(ref::transposeCase(interpLaunch, "transpose", 45, 100, rng));
  ref::expectChecks(ref::transposeCase(interpLaunch, "transpose_by_load", 45, 100, rng));
}

TEST(BlockOps, ReshapeBroadcastToStaticRange) {
  std::mt19937_64 rng(std::random_device{}());
  ref::expectChecks(ref::reshapesCase(interpLaunch, rng));
}

TEST(BlockOps, CumsumCumprod) {
  std::mt19937_64 rng(std::random_device{}());
  ref::expectChecks(ref::scansCase(interpLaunch, rng));
}

} // namespace
