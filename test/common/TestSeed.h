// The seed of every randomized test: fixed, so a failure reproduces; printed
// in each failure's trace; BLK_TEST_SEED=N runs the suites on other inputs.
#ifndef BLK_TEST_COMMON_TESTSEED_H
#define BLK_TEST_COMMON_TESTSEED_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace blk::ref {

constexpr uint64_t kDefaultTestSeed = 20261122;

inline uint64_t testSeed() {
  static const uint64_t seed = [] {
    const char *s = std::getenv("BLK_TEST_SEED");
    return s && *s ? std::strtoull(s, nullptr, 0) : kDefaultTestSeed;
  }();
  return seed;
}

} // namespace blk::ref

/// Declares `std::mt19937_64 NAME` seeded with testSeed(), and traces the seed
/// so that every failure in the enclosing scope names it.
#define BLK_SEEDED_RNG(NAME)                                                                                 \
  std::mt19937_64 NAME(::blk::ref::testSeed());                                                              \
  SCOPED_TRACE("BLK_TEST_SEED=" + std::to_string(::blk::ref::testSeed()))

#endif
