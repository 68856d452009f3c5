// Fused linear cross-entropy's driver on the GPU against float64
// (test/common/FlceCases.h): the cases of the interpreter's test on the small
// tiling, then the large tiling (128x256x64 tiles, wgmma) at sizes of no tile
// and at multiples of 16 (the .spec build). blk-gpu-tests runs the PTX of
// scripts/build-ptx.sh; blk-jit-gpu-tests compiles the kernels in process.
// Skips (saying why) without a GPU.
#include "../common/FlceCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

#ifdef BLK_GPU_TESTS_THROUGH_JIT
#include "blk/Ops/JitKernelRunner.h"
#endif

namespace {
using namespace blk;
using ops::Reduction;
using ref::FlceCase;

std::unique_ptr<ops::KernelRunner> gpuRunner() {
#ifdef BLK_GPU_TESTS_THROUGH_JIT
  std::string path = kernelSourcePath("fused_linear_cross_entropy");
  return ops::makeJitRunner(testJit(), path.substr(0, path.rfind('/')));
#else
  std::unique_ptr<ops::KernelRunner> runner;
  Status s = ops::makePtxRunner(gpu::ptxDir(), runner);
  EXPECT_TRUE(s.ok()) << s.message;
  return runner;
#endif
}

void run(ops::KernelRunner &runner, const FlceCase &c, std::mt19937_64 &rng) {
  SCOPED_TRACE(ref::describe(c));
  ref::expectChecks(ref::flceCase(runner, c, rng));
}

TEST(Flce, SmallTilingRaggedEveryOption) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  auto runner = gpuRunner();
  ASSERT_TRUE(runner);
  for (const FlceCase &c : ref::flceOptionCases())
    run(*runner, c, rng);
  run(*runner, ref::flceEverythingCase(), rng);
}

TEST(Flce, LargeTilingRaggedAndMultiplesOf16) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  auto runner = gpuRunner();
  ASSERT_TRUE(runner);
  for (ref::DType t : {ref::DType::BF16, ref::DType::F16}) {
    // No size a multiple of a tile: the unspecialized build.
    FlceCase ragged{300, 200, 1000};
    ragged.type = t, ragged.tiling = ops::Tiling::Large, ragged.chunkRows = 128, ragged.ignoredEvery = 7;
    ragged.bias = true, ragged.labelSmoothing = 0.1, ragged.softcap = 15.0;
    run(*runner, ragged, rng);
    // Multiples of 16 (the .spec build): rows over 2 chunks, hidden and vocab of no 256-wide tile.
    FlceCase aligned{512, 336, 2064};
    aligned.type = t, aligned.tiling = ops::Tiling::Large, aligned.chunkRows = 256, aligned.ignoredEvery = 11;
    aligned.reduction = Reduction::Sum, aligned.lseSquareScale = 1e-4;
    run(*runner, aligned, rng);
  }
  // dW of 256 tiles over 2 chunks: each program of the persistent kernel
  // (one per SM) walks two tiles or one.
  FlceCase walk{64, 512, 16384};
  walk.tiling = ops::Tiling::Large, walk.chunkRows = 32, walk.ignoredEvery = 5;
  run(*runner, walk, rng);
  // f16, a mean over 2060 rows and 16384 classes: gradients of about 3e-8 before the products.
  FlceCase small = ref::flceSmallGradientsCase(2060, 128, 16384);
  small.tiling = ops::Tiling::Large, small.chunkRows = 1024;
  run(*runner, small, rng);
}

} // namespace
