// Atomics on the interpreter: the shared cases of test/common/AtomicCases.h.
#include "../common/AtomicCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Atomics, TicketsAreAPermutation) { ref::expectChecks(ref::ticketsCase(interpLaunch, 1000)); }

TEST(Atomics, EveryKindPerBucket) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::bucketsCase(interpLaunch, 1001, rng));
}

TEST(Atomics, HalfAndDoubleAddsAndExchange) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::smallTypesCase(interpLaunch, 101, rng));
}

TEST(Atomics, TileAdds) {
  BLK_SEEDED_RNG(rng);
  // Also after the passes for sm_90a, where the adds take the layouts of
  // vector atomics: the same bytes.
  ref::expectChecks(ref::tileAddsCase(bothWays("sm_90a"), "", 45, 50, 64, 3, rng));
}

TEST(Atomics, CompareAndSwapLock) { ref::expectChecks(ref::lockedCountCase(interpLaunch, 50)); }

TEST(Atomics, Histogram) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F32, ref::DType::BF16}) {
    SCOPED_TRACE(ref::name(t));
    ref::expectChecks(ref::histogramCase(interpLaunch, t, 5001, 37, rng));
  }
}

TEST(Atomics, PrefixChainedThroughAcquireAndRelease) {
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 3000}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::chainedPrefixCase(interpLaunch, n, rng));
  }
}

TEST(Atomics, MaskedAtomicLoadsAndStores) {
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 700}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::maskedAtomicCopiesCase(interpLaunch, n, rng));
  }
}

} // namespace
