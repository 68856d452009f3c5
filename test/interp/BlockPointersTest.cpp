// test/kernels/block_pointers.blk on the interpreter: loads and stores
// through block pointers against host results (test/common/BlockPointerCases.h).
#include "../common/BlockPointerCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(BlockPointers, TilesWithRaggedEdges) {
  BLK_SEEDED_RNG(rng);
  for (auto [m, n] : {std::pair{1, 1}, {37, 75}, {64, 64}}) {
    ref::expectChecks(ref::tileCopyCase(interpLaunch, m, n, rng));
    ref::expectChecks(ref::transposeCopyCase(interpLaunch, m, n, rng));
    ref::expectChecks(ref::nanPaddingCase(interpLaunch, m, n, rng));
    ref::expectChecks(ref::chosenSourceCase(interpLaunch, m, n, rng));
  }
  ref::expectChecks(ref::copy3dCase(interpLaunch, 3, 13, 40, rng));
}

TEST(BlockPointers, CarriedThroughLoops) {
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 64, 200})
    ref::expectChecks(ref::rowSumsCase(interpLaunch, 5, n, rng));
}

TEST(BlockPointers, Matmul) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F16, ref::DType::BF16, ref::DType::F32})
    for (bool nk : {false, true})
      ref::expectChecks(ref::blockPointerMatmulCase(interpLaunch, t, 70, 50, 40, nk, rng));
}

} // namespace
