// kernels/matmul.blk on the GPU: ragged sizes, every input type, and
// transposed operands, against float64.
#include "../common/MatmulCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Matmul, RaggedSizesEveryType) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
#ifdef BLK_GPU_TESTS_THROUGH_JIT
  bool specializes = true;
#else
  bool specializes = false;
#endif
  ref::expectChecks(ref::matmulSuite(gpuLaunch, /*large=*/true, rng, specializes));
}

} // namespace
