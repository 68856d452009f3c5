// Every elementwise math builtin (test/kernels/builtins.blk) on the GPU in
// f32/f16/bf16: the unspecialized variant at sizes that are not multiples of
// 16, the .n16 variant at multiples of 16 that are not multiples of BLOCK.
#include "../common/BuiltinCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Builtins, MatchFloat64) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes) {
    for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
      ref::expectChecks(ref::builtinsCase(gpuLaunch, t, n, false, rng));
    for (size_t n : {size_t(16), size_t(1008), size_t(100000)})
      ref::expectChecks(ref::builtinsCase(gpuLaunch, t, n, true, rng));
  }
}

} // namespace
