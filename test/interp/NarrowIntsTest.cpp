// Blocks of i16, u8 and u16 (test/kernels/narrow_ints.blk) on the
// interpreter, as the frontend makes them and after the blk passes: wrapping
// arithmetic, shifts, comparisons, maximum/minimum, division, conversions and
// reductions against host results in the same C++ types.
#include "../common/NarrowIntCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

/// Every case of `E` at a ragged size over 3 programs, at one program, and
/// at a few elements.
template <typename E> void runSizes(const ref::Launch &L, std::mt19937_64 &rng) {
  for (int n : {1100, 512, 13}) {
    SCOPED_TRACE(std::string(ref::narrowName<E>()) + " n=" + std::to_string(n));
    ref::expectChecks(ref::narrowIntCases<E>(L, n, rng));
  }
}

TEST(NarrowInts, I16) {
  BLK_SEEDED_RNG(rng);
  runSizes<int16_t>(interpLaunch, rng);
}

TEST(NarrowInts, U8) {
  BLK_SEEDED_RNG(rng);
  runSizes<uint8_t>(interpLaunch, rng);
}

TEST(NarrowInts, U16) {
  BLK_SEEDED_RNG(rng);
  runSizes<uint16_t>(interpLaunch, rng);
}

// The same kernels after the blk passes (sm_90a and sm_80) give the same bytes.
TEST(NarrowInts, AfterPasses) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : {"sm_90a", "sm_80"}) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    ref::expectChecks(ref::narrowIntCases<int16_t>(L, 1100, rng));
    ref::expectChecks(ref::narrowIntCases<uint8_t>(L, 1100, rng));
    ref::expectChecks(ref::narrowIntCases<uint16_t>(L, 1100, rng));
  }
}

} // namespace
