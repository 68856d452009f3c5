// test/kernels/pointers.blk on the interpreter: pointers converted to 64-bit
// addresses and back, against host results (test/common/PointerCases.h).
#include "../common/PointerCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Pointers, AddressesAndBack) {
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 129, 1000})
    ref::expectChecks(ref::addressRoundTripCase(interpLaunch, n, rng));
  ref::expectChecks(ref::rowsThroughTableCase(interpLaunch, rng));
}

TEST(Pointers, GroupedMatmulThroughAddressTable) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F16, ref::DType::BF16, ref::DType::F32})
    ref::expectChecks(ref::groupedMatmulCase(interpLaunch, t, 3, 70, 50, 40, rng));
}

} // namespace
