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
  // 45 rows in chunks of 16 (16, 16, 13); vocab 70 and hidden 40: no 32-wide tile, no 64-wide row block.
  FlceCase base{45, 40, 70};
  base.ignoredEvery = 5;
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None})
    for (bool bias : {false, true}) {
      FlceCase c = base;
      c.reduction = r, c.bias = bias;
      c.labelSmoothing = bias ? 0.1 : 0.0;
      c.softcap = r == Reduction::Sum ? 3.0 : 0.0;
      c.lseSquareScale = r == Reduction::None ? 1e-2 : 0.0;
      run(*runner, c, rng);
    }
}

TEST(Flce, EverythingAtOnceF16AndCallerWorkspace) {
  BLK_SEEDED_RNG(rng);
  Jit jit(Backend::CPU);
  auto runner = cpuRunner(jit);
  FlceCase c{37, 24, 130};
  c.type = ref::DType::F16, c.bias = true, c.labelSmoothing = 0.2, c.softcap = 2.5, c.lseSquareScale = 1e-3;
  c.ignoredEvery = 3, c.chunkRows = 32, c.rowLosses = false, c.callerWorkspace = true, c.ignoreIndex = 7;
  run(*runner, c, rng);
  // One chunk holding every row; the driver's own workspace.
  c.type = ref::DType::BF16, c.chunkRows = 48, c.callerWorkspace = false, c.reduction = Reduction::Sum;
  run(*runner, c, rng);
}

} // namespace
