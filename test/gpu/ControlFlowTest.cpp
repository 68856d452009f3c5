// Loops left by `break`, `continue` and `return` (test/kernels/control_flow.blk)
// on the GPU against the host's references: helpers returning scalars and
// blocks from loops, chunks skipped and rows ended early, a kernel returning
// from a `while`, `static_range` copies under flags, nested loops, and rows
// walked with the next rows loaded ahead (`num_stages`) while each row is
// written in place.
#include "../common/ControlFlowCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(ControlFlow, MatchesHost) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int cols : {1, 37, 100, 1000}) {
    ref::expectChecks(ref::earlyReturnCase(gpuLaunch, 300, cols, rng));
    ref::expectChecks(ref::breakContinueCase(gpuLaunch, 300, cols * 4, rng));
  }
  for (int n : {1, 1000, 10007})
    ref::expectChecks(ref::whileReturnCase(gpuLaunch, n, rng));
  for (int cols : {4, 7})
    ref::expectChecks(ref::unrolledAndNestedCase(gpuLaunch, 1000, 3, cols, rng));
  for (int n : {1, 37, 500})
    ref::expectChecks(ref::tupleExtremesCase(gpuLaunch, 301, n, rng));
  for (int n : {1, 300, 100000})
    ref::expectChecks(ref::mappedElementsCase(gpuLaunch, n, rng));
  for (int programs : {1, 7, 132, 2000})
    for (int cols : {1, 100, 128})
      ref::expectChecks(ref::stagedRowsCase(gpuLaunch, 1000, cols, programs, rng));
}

} // namespace
