// Triton's shape operations (test/kernels/shape_ops.blk) on the GPU: join,
// split, interleave, cat, flip and gather (through shared memory), permute,
// zeros_like, swizzle2d, and expand_dims, ravel and view, in every type at
// ragged sizes.
#include "../common/RowTestSupport.h"
#include "../common/ShapeCases.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

using CaseFn = std::vector<ref::Check> (*)(const ref::Launch &, ref::DType, int, std::mt19937_64 &);

/// `fn` in every type at one program, a ragged size and many programs.
void runEverywhere(CaseFn fn, std::mt19937_64 &rng) {
  for (ref::DType t : ref::kShapeTypes)
    for (int n : {1, 512, 1100, 100000}) {
      SCOPED_TRACE(std::string(ref::name(t)) + " n=" + std::to_string(n));
      ref::expectChecks(fn(gpuLaunch, t, n, rng));
    }
}

TEST(ShapeOps, JoinSplitInterleave) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runEverywhere(ref::joinSplitCase, rng);
}

TEST(ShapeOps, Cat) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runEverywhere(ref::catsCase, rng);
}

TEST(ShapeOps, Flip) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runEverywhere(ref::flipsCase, rng);
}

TEST(ShapeOps, Gather) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runEverywhere(ref::gathersCase, rng);
}

TEST(ShapeOps, PermuteZerosLike) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runEverywhere(ref::permutesCase, rng);
}

TEST(ShapeOps, ExpandDimsRavelView) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runEverywhere(ref::aliasesCase, rng);
}

TEST(ShapeOps, Swizzle2d) {
  BLK_REQUIRE_GPU();
  for (int sizeI : {16, 13, 3})
    ref::expectChecks(ref::swizzleCase(gpuLaunch, sizeI));
}

TEST(ShapeOps, Histogram) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {1100, 512, 37})
    ref::expectChecks(ref::histogramCase(gpuLaunch, n, rng));
}

} // namespace
