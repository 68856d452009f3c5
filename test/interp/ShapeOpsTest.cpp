// Triton's shape operations (test/kernels/shape_ops.blk) on the interpreter,
// as the frontend makes them and after the blk passes: join, split,
// interleave, cat, flip, gather, permute, zeros_like, swizzle2d, and
// expand_dims, ravel and view (3-D: test/Interpreter/shape-ops-3d.blk).
#include "../common/RowTestSupport.h"
#include "../common/ShapeCases.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

using CaseFn = std::vector<ref::Check> (*)(const ref::Launch &, ref::DType, int, std::mt19937_64 &);

/// `fn` in every type at a ragged size over 3 programs, and at one program.
void runEverywhere(const ref::Launch &L, CaseFn fn, std::mt19937_64 &rng) {
  for (ref::DType t : ref::kShapeTypes)
    for (int n : {1100, 512}) {
      SCOPED_TRACE(std::string(ref::name(t)) + " n=" + std::to_string(n));
      ref::expectChecks(fn(L, t, n, rng));
    }
}

TEST(ShapeOps, JoinSplitInterleave) {
  BLK_SEEDED_RNG(rng);
  runEverywhere(interpLaunch, ref::joinSplitCase, rng);
}

TEST(ShapeOps, Cat) {
  BLK_SEEDED_RNG(rng);
  runEverywhere(interpLaunch, ref::catsCase, rng);
}

TEST(ShapeOps, Flip) {
  BLK_SEEDED_RNG(rng);
  runEverywhere(interpLaunch, ref::flipsCase, rng);
}

TEST(ShapeOps, Gather) {
  BLK_SEEDED_RNG(rng);
  runEverywhere(interpLaunch, ref::gathersCase, rng);
}

TEST(ShapeOps, PermuteZerosLike) {
  BLK_SEEDED_RNG(rng);
  runEverywhere(interpLaunch, ref::permutesCase, rng);
}

TEST(ShapeOps, ExpandDimsRavelView) {
  BLK_SEEDED_RNG(rng);
  runEverywhere(interpLaunch, ref::aliasesCase, rng);
}

TEST(ShapeOps, Swizzle2d) {
  for (int sizeI : {16, 13, 3})
    ref::expectChecks(ref::swizzleCase(interpLaunch, sizeI));
}

TEST(ShapeOps, Histogram) {
  BLK_SEEDED_RNG(rng);
  for (int n : {1100, 512, 37})
    ref::expectChecks(ref::histogramCase(interpLaunch, n, rng));
}

// The same kernels after the blk passes (sm_90a and sm_80) give the same bytes.
TEST(ShapeOps, AfterPasses) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : {"sm_90a", "sm_80"}) {
    ref::Launch L = bothWays(arch);
    for (CaseFn fn : {ref::joinSplitCase, ref::catsCase, ref::flipsCase, ref::gathersCase, ref::permutesCase,
                      ref::aliasesCase})
      for (ref::DType t : ref::kShapeTypes)
        ref::expectChecks(fn(L, t, 1100, rng));
    ref::expectChecks(ref::swizzleCase(L, 13));
    ref::expectChecks(ref::histogramCase(L, 1100, rng));
  }
}

} // namespace
