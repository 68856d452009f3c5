// Helpers, constants and a kernel imported from another .blk file
// (test/kernels/imports.blk) on the GPU, against float64.
#include "../common/ImportCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Imports, MatchFloat64) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
    ref::expectChecks(ref::importsCase(gpuLaunch, n, rng));
}

} // namespace
