// test/kernels/block_pointers.blk on the GPU: loads and stores through block
// pointers against host results (test/common/BlockPointerCases.h).
#include "../common/BlockPointerCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(BlockPointers, TilesWithRaggedEdges) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (auto [m, n] : {std::pair{1, 1}, {37, 75}, {64, 64}, {1000, 999}}) {
    ref::expectChecks(ref::tileCopyCase(gpuLaunch, m, n, rng));
    ref::expectChecks(ref::transposeCopyCase(gpuLaunch, m, n, rng));
    ref::expectChecks(ref::nanPaddingCase(gpuLaunch, m, n, rng));
    ref::expectChecks(ref::chosenSourceCase(gpuLaunch, m, n, rng));
  }
  ref::expectChecks(ref::copy3dCase(gpuLaunch, 3, 13, 40, rng));
  ref::expectChecks(ref::copy3dCase(gpuLaunch, 17, 100, 70, rng));
}

TEST(BlockPointers, CarriedThroughLoops) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 64, 200, 5000})
    ref::expectChecks(ref::rowSumsCase(gpuLaunch, 9, n, rng));
}

TEST(BlockPointers, Matmul) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F16, ref::DType::BF16, ref::DType::F32})
    for (bool nk : {false, true}) {
      ref::expectChecks(ref::blockPointerMatmulCase(gpuLaunch, t, 70, 50, 40, nk, rng));
      ref::expectChecks(ref::blockPointerMatmulCase(gpuLaunch, t, 256, 192, 520, nk, rng));
    }
  // Specialized as the `# specialize:` line says: the operands through rings.
  for (ref::DType t : {ref::DType::F16, ref::DType::BF16, ref::DType::F32})
    ref::expectChecks(ref::blockPointerMatmulCase(gpuLaunch, t, 256, 192, 512, false, rng, /*spec=*/true));
  // The benchmark's variant: 128x128x64 tiles, 8 warps.
  for (bool spec : {false, true})
    ref::expectChecks(ref::blockPointerMatmulCase(gpuLaunch, ref::DType::BF16, 384, 256, 576, false, rng, spec,
                                                  /*wide=*/true));
  ref::expectChecks(ref::blockPointerMatmulCase(gpuLaunch, ref::DType::BF16, 300, 200, 100, true, rng, false,
                                                /*wide=*/true));
}

} // namespace
