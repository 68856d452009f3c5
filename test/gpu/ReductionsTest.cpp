// Reductions (with indices), scans and transposes of non-square tiles, and
// reductions inside both branches of an `if` (test/kernels/reductions.blk)
// on the GPU.
#include "../common/ReductionCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Reductions, AlongEachAxisOfNonSquareTiles) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    for (int axis : {0, 1})
      ref::expectChecks(ref::reduceCase(gpuLaunch, s, axis, rng));
}

TEST(Scans, CumsumAlongEachAxisF32AndI32) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::scans2dCase(gpuLaunch, s, rng));
}

TEST(Reductions, XorSumAlongEachAxisAndWholeTile) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::xorSumsCase(gpuLaunch, s, rng));
}

TEST(Reductions, ReduceOrAlongEachAxisAndWholeTile) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::orReductionsCase(gpuLaunch, s, rng));
}

TEST(Reductions, BooleanParityAlongEachAxisAndWholeTile) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::booleanXorSumsCase(gpuLaunch, s, rng));
}

TEST(Reductions, BooleanAnyAlongEachAxisAndWholeTile) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::booleanOrReductionsCase(gpuLaunch, s, rng));
}

TEST(Reductions, SoftmaxBuiltinAlongEachAxis) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::softmaxBuiltinCase(gpuLaunch, s, rng));
}

TEST(Reductions, TransposeNonSquareTiles) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::trans2dCase(gpuLaunch, s, rng));
}

TEST(Branches, TwoReductionsInsideEachBranchOfAnIf) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::branchReductionsCase(gpuLaunch, s, rng));
}

} // namespace
