// test/kernels/pointers.blk on the GPU: pointers converted to 64-bit
// addresses and back, against host results (test/common/PointerCases.h).
#include "../common/PointerCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Pointers, AddressesAndBack) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 129, 100000})
    ref::expectChecks(ref::addressRoundTripCase(gpuLaunch, n, rng));
  ref::expectChecks(ref::rowsThroughTableCase(gpuLaunch, rng));
}

TEST(Pointers, GroupedMatmulThroughAddressTable) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F16, ref::DType::BF16, ref::DType::F32}) {
    ref::expectChecks(ref::groupedMatmulCase(gpuLaunch, t, 3, 70, 50, 40, rng));
    ref::expectChecks(ref::groupedMatmulCase(gpuLaunch, t, 4, 256, 192, 512, rng));
  }
}

} // namespace
