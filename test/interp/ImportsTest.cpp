// Helpers, constants and a kernel imported from another .blk file
// (test/kernels/imports.blk) on the interpreter, against float64.
#include "../common/ImportCases.h"
#include "../common/RowTestSupport.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Imports, MatchFloat64) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::importsCase(interpLaunch, 1000, rng));
  ref::expectChecks(ref::importsCase(bothWays("sm_90a"), 300, rng));
}

} // namespace
