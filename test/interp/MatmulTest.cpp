// kernels/matmul.blk on the interpreter: ragged sizes, every input type, and
// transposed operands, against float64.
#include "../common/MatmulCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Matmul, RaggedSizesEveryType) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::matmulSuite(interpLaunch, /*large=*/false, rng));
}

} // namespace
