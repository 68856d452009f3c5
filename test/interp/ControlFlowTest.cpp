// Loops left by `break`, `continue` and `return` (test/kernels/control_flow.blk),
// and a row loop given `num_stages` that writes its rows in place, on the
// interpreter, as the frontend writes them and after the blk passes
// for sm_90a and sm_80, against the host's references.
#include "../common/ControlFlowCases.h"
#include "../common/RowTestSupport.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(ControlFlow, MatchesHost) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : {"sm_90a", "sm_80"}) {
    ref::Launch L = bothWays(arch);
    ref::expectChecks(ref::earlyReturnCase(L, 9, 100, rng));
    ref::expectChecks(ref::breakContinueCase(L, 7, 1000, rng));
    ref::expectChecks(ref::whileReturnCase(L, 40, rng));
    ref::expectChecks(ref::unrolledAndNestedCase(L, 10, 3, 4, rng));
    ref::expectChecks(ref::tupleExtremesCase(L, 6, 37, rng));
    ref::expectChecks(ref::mappedElementsCase(L, 300, rng));
    for (int programs : {1, 3, 40})
      ref::expectChecks(ref::stagedRowsCase(L, 37, 100, programs, rng));
  }
}

} // namespace
