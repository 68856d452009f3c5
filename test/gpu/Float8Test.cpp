// fp8 conversions (cvt.rn.satfinite and cvt.rn.f16x2 pairs), arithmetic and
// reductions on the GPU, bit for bit against the host's conversions.
#include "../common/Float8Cases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Float8, Convert) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F8E4M3, ref::DType::F8E5M2})
    for (size_t n : {size_t(1), size_t(1000), size_t(100000)})
      ref::expectChecks(ref::float8ConvertCase(gpuLaunch, t, n, rng));
}

} // namespace
