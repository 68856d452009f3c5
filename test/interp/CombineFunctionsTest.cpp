// reduce and associative_scan with combine functions over tuples of blocks
// (test/kernels/combine.blk) on the interpreter, as the frontend makes them
// and after the blk passes for sm_90a (bothWays).
#include "../common/CombineCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Reductions, CombineFnArgmaxWithTiesAlongEachAxisAndWholeTile) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::combineArgmaxCase(bothWays("sm_90a"), s, rng));
}

TEST(Reductions, CombineFnWelfordAlongEachAxis) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::welfordCase(bothWays("sm_90a"), s, rng));
}

TEST(Reductions, CombineFnOnlineSoftmaxStatisticsAlongEachAxis) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::softmaxStatsCase(bothWays("sm_90a"), s, rng));
}

TEST(Scans, AssociativeScanMatrixProductsForwardAndReversedAlongEachAxis) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::matrixScansCase(bothWays("sm_90a"), s, rng));
}

TEST(Scans, AssociativeScanRunningArgmaxOfValueIndexPairs) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::runningArgmaxCase(bothWays("sm_90a"), s, rng));
}

TEST(Reductions, CombineFnReductionsAndScansOf1DBlocks) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::combine1dCase(bothWays("sm_90a"), s, rng));
}

TEST(Reductions, CombineFnMethodsOnSingleBlocks) {
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::singleBlockCase(bothWays("sm_90a"), s, rng));
}

} // namespace
