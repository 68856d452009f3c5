// kernels/matmul.blk and kernels/scaled_matmul.blk on the interpreter: ragged sizes, every input type, and
// transposed operands, against float64.
#include "../common/MatmulCases.h"
#include "../common/ScaledMatmulCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Matmul, RaggedSizesEveryType) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::matmulSuite(interpLaunch, /*large=*/false, rng));
}

TEST(ScaledMatmul, Fp8RowwiseAndPerTensor) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::scaledMatmulSuite(interpLaunch, /*large=*/false, rng));
}

} // namespace
