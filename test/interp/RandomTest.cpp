// rand, randn, randint and randint4x (test/kernels/random.blk) on the
// interpreter: bit for bit against the Philox reference of RandomCases.h
// (itself checked against Random123's known answers), their moments, and the
// u32 hash with bitcasts that dropout kernels write by hand.
#include "../common/RandomCases.h"
#include "../common/RowTestSupport.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Random, ReferenceMatchesRandom123) {
  using A4 = std::array<uint32_t, 4>;
  EXPECT_EQ(ref::philox<uint32_t>({0, 0, 0, 0}, {0, 0}), (A4{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(ref::philox<uint32_t>({~0u, ~0u, ~0u, ~0u}, {~0u, ~0u}),
            (A4{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(ref::philox<uint32_t>({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (A4{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
  using B4 = std::array<uint64_t, 4>;
  EXPECT_EQ(ref::philox<uint64_t>({0, 0, 0, 0}, {0, 0}),
            (B4{0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b}));
}

TEST(Random, PhiloxBitsMatchReference) {
  for (int64_t seed : {int64_t(0), int64_t(42), int64_t(-3), int64_t(0x123456789ABCDEF0)})
    ref::expectChecks(ref::philoxCase(interpLaunch, seed, 0, 1000));
  ref::expectChecks(ref::philoxCase(interpLaunch, 7, -600, 777)); // negative offsets: counters near 2^32
  ref::expectChecks(ref::i32SeedCase(interpLaunch, -5, 300));
  ref::expectChecks(ref::philox4xCase(interpLaunch, 99, 700));
}

TEST(Random, PhiloxPartsMatchReference) {
  for (int64_t seed : {int64_t(0), int64_t(-3), int64_t(0x123456789ABCDEF0)})
    ref::expectChecks(ref::philoxPartsCase(interpLaunch, seed, 700));
}

TEST(Random, Moments) { ref::expectChecks(ref::momentsCase(interpLaunch, 1234, size_t(1) << 16)); }

TEST(Random, HashBits) {
  for (uint32_t seed : {0u, 17u, 0xDEADBEEFu})
    ref::expectChecks(ref::hashCase(interpLaunch, seed, 1000));
}

} // namespace
