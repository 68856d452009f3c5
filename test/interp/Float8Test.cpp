// fp8 conversions, arithmetic and reductions on the interpreter.
#include "../common/Float8Cases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Float8, Convert) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F8E4M3, ref::DType::F8E5M2})
    ref::expectChecks(ref::float8ConvertCase(interpLaunch, t, 1000, rng));
}

} // namespace
