// Fused linear cross-entropy's driver on the CPU interpreter (through the
// JIT's CPU backend) at ragged sizes: rows not a multiple of the chunk, vocab
// and hidden of no tile, ignored rows, label smoothing, z-loss, softcap, each
// reduction, with and without a bias, bf16 and f16.
#include "../common/FlceCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "blk/Ops/JitKernelRunner.h"

namespace {
using namespace blk;
using ref::FlceCase;
using ops::Reduction;

std::unique_ptr<ops::KernelRunner> cpuRunner(Jit &jit) {
  jit.setCacheDirectory("");
  return ops::makeJitRunner(jit, std::string(BLK_SOURCE_DIR) + "/kernels");
}

void run(ops::KernelRunner &runner, const FlceCase &c, std::mt19937_64 &rng) {
  SCOPED_TRACE(ref::describe(c));
  ref::expectChecks(ref::flceCase(runner, c, rng));
}

TEST(Flce, ReductionsBiasSmoothingSoftcap) {
  BLK_SEEDED_RNG(rng);
  Jit jit(Backend::CPU);
  auto runner = cpuRunner(jit);
  for (const FlceCase &c : ref::flceOptionCases())
    run(*runner, c, rng);
}

TEST(Flce, F16MeanOfManyRows) {
  BLK_SEEDED_RNG(rng);
  Jit jit(Backend::CPU);
  auto runner = cpuRunner(jit);
  run(*runner, ref::flceSmallGradientsCase(600, 16, 4096), rng);
}

TEST(Flce, EverythingAtOnceF16AndCallerWorkspace) {
  BLK_SEEDED_RNG(rng);
  Jit jit(Backend::CPU);
  auto runner = cpuRunner(jit);
  FlceCase c = ref::flceEverythingCase();
  run(*runner, c, rng);
  // One chunk holding every row; the driver's own workspace.
  c.type = ref::DType::BF16, c.chunkRows = 48, c.callerWorkspace = false, c.reduction = Reduction::Sum;
  run(*runner, c, rng);
}

} // namespace
