// kernels/matmul.blk and kernels/scaled_matmul.blk on the GPU: ragged sizes, every input type, and
// transposed operands, against float64.
#include "../common/MatmulCases.h"
#include "../common/ScaledMatmulCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

// The JIT specializes on the arguments itself (unit strides of either
// operand); precompiled runs have only the `.spec` PTX's.
#ifdef BLK_GPU_TESTS_THROUGH_JIT
constexpr bool kSpecializes = true;
#else
constexpr bool kSpecializes = false;
#endif

TEST(Matmul, RaggedSizesEveryType) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::matmulSuite(gpuLaunch, /*large=*/true, rng, kSpecializes));
}

TEST(Matmul, WarpSpecialized) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::warpSpecializedSuite(gpuLaunch, rng));
}

TEST(ScaledMatmul, Fp8RowwiseAndPerTensor) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::scaledMatmulSuite(gpuLaunch, /*large=*/true, rng, kSpecializes));
}

} // namespace
