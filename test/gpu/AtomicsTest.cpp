// Atomics on the GPU: the shared cases of test/common/AtomicCases.h at sizes
// where many programs contend for the same addresses.
#include "../common/AtomicCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Atomics, TicketsAreAPermutation) {
  BLK_REQUIRE_GPU();
  for (int n : {1, 1000, 100003}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::ticketsCase(gpuLaunch, n));
  }
}

TEST(Atomics, EveryKindPerBucket) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {5, 1001, 100003}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::bucketsCase(gpuLaunch, n, rng));
  }
}

TEST(Atomics, HalfAndDoubleAddsAndExchange) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {7, 101, 3001}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::smallTypesCase(gpuLaunch, n, rng));
  }
}

TEST(Atomics, TileAdds) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  // Widths and strides multiples of 16 take vector atomics in the .s16 PTX;
  // ragged ones scalar atomics.
  for (auto [variant, rows, cols, stride] : {std::tuple<const char *, int, int, int>{"s16", 45, 64, 80},
                                             {"s16", 1000, 48, 64},
                                             {"", 45, 50, 50},
                                             {"", 1000, 64, 80}}) {
    SCOPED_TRACE(std::string(variant) + " " + std::to_string(rows) + "x" + std::to_string(cols));
    ref::expectChecks(ref::tileAddsCase(gpuLaunch, variant, rows, cols, stride, 3, rng));
  }
}

TEST(Atomics, CompareAndSwapLock) {
  BLK_REQUIRE_GPU();
  ref::expectChecks(ref::lockedCountCase(gpuLaunch, 2000));
}

TEST(Atomics, Histogram) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : {ref::DType::F32, ref::DType::BF16})
    for (int n : {1, 5001, 1000003}) {
      SCOPED_TRACE(std::string(ref::name(t)) + " n=" + std::to_string(n));
      ref::expectChecks(ref::histogramCase(gpuLaunch, t, n, 37, rng));
    }
}

TEST(Atomics, PrefixChainedThroughAcquireAndRelease) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 5000, 1000003}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::chainedPrefixCase(gpuLaunch, n, rng));
  }
}

TEST(Atomics, MaskedAtomicLoadsAndStores) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (int n : {1, 700, 100003}) {
    SCOPED_TRACE(n);
    ref::expectChecks(ref::maskedAtomicCopiesCase(gpuLaunch, n, rng));
  }
}

} // namespace
