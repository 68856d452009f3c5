// Atomics on the interpreter: the shared cases of test/common/AtomicCases.h.
#include "../common/AtomicCases.h"
#include "../common/RowTestSupport.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Atomics, TicketsAreAPermutation) { ref::expectChecks(ref::ticketsCase(interpLaunch, 1000)); }

TEST(Atomics, EveryKindPerBucket) {
  std::mt19937_64 rng(std::random_device{}());
  ref::expectChecks(ref::bucketsCase(interpLaunch, 1001, rng));
}

TEST(Atomics, HalfAndDoubleAddsAndExchange) {
  std::mt19937_64 rng(std::random_device{}());
  ref::expectChecks(ref::smallTypesCase(interpLaunch, 101, rng));
}

TEST(Atomics, CompareAndSwapLock) { ref::expectChecks(ref::lockedCountCase(interpLaunch, 50)); }

TEST(Atomics, Histogram) {
  std::mt19937_64 rng(std::random_device{}());
  for (ref::DType t : {ref::DType::F32, ref::DType::BF16}) {
    SCOPED_TRACE(ref::name(t));
    ref::expectChecks(ref::histogramCase(interpLaunch, t, 5001, 37, rng));
  }
}

} // namespace
