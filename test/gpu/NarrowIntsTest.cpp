// Blocks of i16, u8 and u16 (test/kernels/narrow_ints.blk) on the GPU:
// wrapping arithmetic, shifts, comparisons, maximum/minimum, division,
// conversions and reductions against host results in the same C++ types, at
// one element, one program, a ragged size and many programs.
#include "../common/NarrowIntCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

template <typename E> void runSizes(std::mt19937_64 &rng) {
  for (int n : {1, 512, 1100, 100000}) {
    SCOPED_TRACE(std::string(ref::narrowName<E>()) + " n=" + std::to_string(n));
    ref::expectChecks(ref::narrowIntCases<E>(gpuLaunch, n, rng));
  }
}

TEST(NarrowInts, I16) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runSizes<int16_t>(rng);
}

TEST(NarrowInts, U8) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runSizes<uint8_t>(rng);
}

TEST(NarrowInts, U16) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  runSizes<uint16_t>(rng);
}

} // namespace
