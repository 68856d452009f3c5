// Reductions (with indices), scans and transposes of non-square tiles, and
// reductions inside both branches of an `if` (test/kernels/reductions.blk)
// on the interpreter.
#include "../common/ReductionCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Reductions, AlongEachAxisOfNonSquareTiles) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    for (int axis : {0, 1})
      ref::expectChecks(ref::reduceCase(interpLaunch, s, axis, rng));
}

TEST(Scans, CumsumAlongEachAxisF32AndI32) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::scans2dCase(interpLaunch, s, rng));
}

TEST(Reductions, XorSumAlongEachAxisAndWholeTile) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::xorSumsCase(interpLaunch, s, rng));
}

TEST(Reductions, ReduceOrAlongEachAxisAndWholeTile) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::orReductionsCase(interpLaunch, s, rng));
}

TEST(Reductions, BooleanParityAlongEachAxisAndWholeTile) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::booleanXorSumsCase(interpLaunch, s, rng));
}

TEST(Reductions, BooleanAnyAlongEachAxisAndWholeTile) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::booleanOrReductionsCase(interpLaunch, s, rng));
}

TEST(Reductions, SoftmaxBuiltinAlongEachAxis) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::softmaxBuiltinCase(interpLaunch, s, rng));
}

TEST(Reductions, TransposeNonSquareTiles) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::trans2dCase(interpLaunch, s, rng));
}

TEST(Branches, TwoReductionsInsideEachBranchOfAnIf) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::branchReductionsCase(interpLaunch, s, rng));
}

} // namespace
