// reduce and associative_scan with combine functions over tuples of blocks
// (test/kernels/combine.blk) on the GPU.
#include "../common/CombineCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Reductions, CombineFnArgmaxWithTiesAlongEachAxisAndWholeTile) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::combineArgmaxCase(gpuLaunch, s, rng));
}

TEST(Reductions, CombineFnWelfordAlongEachAxis) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::welfordCase(gpuLaunch, s, rng));
}

TEST(Reductions, CombineFnOnlineSoftmaxStatisticsAlongEachAxis) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::softmaxStatsCase(gpuLaunch, s, rng));
}

TEST(Scans, AssociativeScanMatrixProductsForwardAndReversedAlongEachAxis) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::matrixScansCase(gpuLaunch, s, rng));
}

TEST(Scans, AssociativeScanRunningArgmaxOfValueIndexPairs) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::runningArgmaxCase(gpuLaunch, s, rng));
}

TEST(Reductions, CombineFnReductionsAndScansOf1DBlocks) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::combine1dCase(gpuLaunch, s, rng));
}

TEST(Reductions, CombineFnMethodsOnSingleBlocks) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::TileShape s : ref::kTileShapes)
    ref::expectChecks(ref::singleBlockCase(gpuLaunch, s, rng));
}

} // namespace
