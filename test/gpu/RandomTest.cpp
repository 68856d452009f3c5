// rand, randn, randint and randint4x (test/kernels/random.blk) on the GPU:
// the same bits as the Philox reference (and so as the interpreter), randn
// to within the f32 math functions, the moments, and the u32 hash with
// bitcasts that dropout kernels write by hand.
#include "../common/RandomCases.h"
#include "../common/RowTestSupport.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

TEST(Random, PhiloxBitsMatchReference) {
  BLK_REQUIRE_GPU();
  for (int64_t seed : {int64_t(0), int64_t(42), int64_t(-3), int64_t(0x123456789ABCDEF0)})
    for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
      ref::expectChecks(ref::philoxCase(gpuLaunch, seed, 0, n));
  ref::expectChecks(ref::philoxCase(gpuLaunch, 7, -600, 777));
  ref::expectChecks(ref::i32SeedCase(gpuLaunch, -5, 300));
  ref::expectChecks(ref::philox4xCase(gpuLaunch, 99, 700));
}

TEST(Random, PhiloxPartsMatchReference) {
  BLK_REQUIRE_GPU();
  for (int64_t seed : {int64_t(0), int64_t(-3), int64_t(0x123456789ABCDEF0)})
    for (size_t n : {size_t(1), size_t(700), size_t(100003)})
      ref::expectChecks(ref::philoxPartsCase(gpuLaunch, seed, n));
}

TEST(Random, Moments) {
  BLK_REQUIRE_GPU();
  ref::expectChecks(ref::momentsCase(gpuLaunch, 1234, size_t(1) << 20));
}

TEST(Random, HashBits) {
  BLK_REQUIRE_GPU();
  for (uint32_t seed : {0u, 17u, 0xDEADBEEFu})
    ref::expectChecks(ref::hashCase(gpuLaunch, seed, 100003));
}

} // namespace
