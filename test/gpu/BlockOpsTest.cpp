// trans, reshape, broadcast_to and static_range on the GPU; the transpose
// also uses one 1-D block as rows and as columns (a layout conversion through
// shared memory).
#include "../common/BlockOpCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(BlockOps, Transpose) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const char *kernel : {"transpose", "transpose_by_load"})
    for (auto [r, c] : {std::pair{1, 1}, {45, 100}, {1000, 333}, {64, 4096}, {4096, 64}}) {
      SCOPED_TRACE(std::string(kernel) + " " + std::to_string(r) + "x" + std::to_string(c));
      ref::expectChecks(ref::transposeCase(gpuLaunch, kernel, r, c, rng));
    }
}

// The .s16 build (sizes specialized as multiples of 16, what the benchmarks
// time) at sizes that are multiples of 16 but not of the tiles.
TEST(BlockOps, TransposeS16AtSizesNotMultiplesOfTheTile) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::Launch s16 = ref::withVariant(gpuLaunch, "block_ops", {{"spec", "s16"}});
  for (const char *kernel : {"transpose", "transpose_by_load"})
    for (auto [r, c] : {std::pair{16, 16}, {48, 112}, {1008, 336}}) {
      SCOPED_TRACE(std::string(kernel) + " " + std::to_string(r) + "x" + std::to_string(c));
      ref::expectChecks(ref::transposeCase(s16, kernel, r, c, rng));
    }
}

TEST(BlockOps, ReshapeBroadcastToStaticRange) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::reshapesCase(gpuLaunch, rng));
}

TEST(BlockOps, CumsumCumprod) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::scansCase(gpuLaunch, rng));
}

} // namespace
