// Triton's bitonic sorts (test/kernels/sort.blk) on the interpreter, as the
// frontend makes them and after the blk passes: sort, topk and bitonic_merge
// in every sortable type, along 1 to 1024 elements, both orders.
#include "../common/RowTestSupport.h"
#include "../common/SortCases.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

#include <array>

using namespace blk;
using ref::SortConfig;
using ref::SortType;

namespace {

/// Row lengths along the sorted axis: 1, 2, 4, ..., 1024.
std::vector<int> everyLength() {
  std::vector<int> n;
  for (int len = 1; len <= 1024; len *= 2)
    n.push_back(len);
  return n;
}

/// A ragged row of a block of n: about three quarters of it (all of it for n = 1).
int raggedCols(int n) { return std::max(1, n - n / 4 - 1); }

TEST(Sort, RowsEveryTypeAndLength) {
  BLK_SEEDED_RNG(rng);
  for (SortType t : ref::kSortTypes)
    for (int n : everyLength())
      for (bool descending : {false, true}) {
        // topk keeps 1, a quarter, or all of the row, in turn.
        int k = std::array<int, 3>{1, std::max(1, n / 4), n}[size_t(n + descending) % 3];
        SortConfig c = SortConfig::sized(t, descending, n, k, 8);
        SCOPED_TRACE(c.text());
        ref::expectChecks(ref::sortRowsCase(interpLaunch, c, 3, n, rng));
        ref::expectChecks(ref::sortRowsCase(interpLaunch, c, 2, raggedCols(n), rng));
      }
}

TEST(Sort, TopkSeveralK) {
  BLK_SEEDED_RNG(rng);
  for (SortType t : {SortType::I32, SortType::U32, SortType::BF16, SortType::F32})
    for (int n : {64, 1024})
      for (int k : {1, 2, 8, n / 2, n})
        for (bool descending : {false, true}) {
          SortConfig c = SortConfig::sized(t, descending, n, k, 8);
          SCOPED_TRACE(c.text());
          ref::expectChecks(ref::sortRowsCase(interpLaunch, c, 2, raggedCols(n), rng));
        }
}

TEST(Sort, BitonicMergeOfBitonicRows) {
  BLK_SEEDED_RNG(rng);
  for (SortType t : ref::kSortTypes)
    for (int n : everyLength())
      for (bool descending : {false, true}) {
        SortConfig c = SortConfig::sized(t, descending, n, 1, 8);
        SCOPED_TRACE(c.text());
        ref::expectChecks(ref::mergeRowsCase(interpLaunch, c, 3, rng));
      }
}

TEST(Sort, HashedInRegisters) {
  for (SortType t : ref::kSortTypes)
    for (int n : {1, 16, 256, 1024})
      for (bool descending : {false, true}) {
        SortConfig c = SortConfig::sized(t, descending, n, 1, 8);
        SCOPED_TRACE(c.text());
        ref::expectChecks(ref::hashedCase(interpLaunch, c, 3, 0x5eed + unsigned(n)));
      }
}

// [ROWS, N] tiles over a row count that leaves the last tile ragged.
TEST(Sort, TilesRowByRow) {
  BLK_SEEDED_RNG(rng);
  struct Tile {
    int rows, n;
  };
  for (SortType t : ref::kSortTypes)
    for (Tile tile : {Tile{1, 32}, Tile{4, 1}, Tile{4, 256}, Tile{16, 64}, Tile{2, 1024}})
      for (bool descending : {false, true}) {
        SortConfig c = SortConfig::sized(t, descending, tile.n, std::min(tile.n, 8), tile.rows);
        SCOPED_TRACE(c.text() + " ROWS=" + std::to_string(tile.rows));
        int nRows = 2 * tile.rows + tile.rows / 2 + 1;
        ref::expectChecks(ref::tileCase(interpLaunch, c, nRows, descending ? tile.n : raggedCols(tile.n), rng));
      }
}

// NaNs of both signs, -0.0 and infinities end where the network leaves them.
TEST(Sort, NetworkBitForBit) {
  BLK_SEEDED_RNG(rng);
  for (SortType t : {SortType::F16, SortType::BF16, SortType::F32, SortType::F64})
    for (int n : {2, 8, 64, 512})
      for (bool descending : {false, true}) {
        SortConfig c = SortConfig::sized(t, descending, n, std::max(1, n / 4), 8);
        SCOPED_TRACE(c.text());
        ref::expectChecks(ref::networkCase(interpLaunch, c, 3, n, rng));
        ref::expectChecks(ref::networkCase(interpLaunch, c, 2, raggedCols(n), rng));
      }
}

// The kernels after the blk passes (sm_90a and sm_80) write the same bytes:
// the variants' builds, and a few other lengths.
TEST(Sort, AfterPasses) {
  BLK_SEEDED_RNG(rng);
  const SortConfig variants[] = {{SortType::F32, false}, {SortType::BF16, true}, {SortType::U32, true},
                                 {SortType::I64, false}};
  for (const char *arch : {"sm_90a", "sm_80"}) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    for (const SortConfig &c : variants) {
      ref::expectChecks(ref::sortRowsCase(L, c, 3, raggedCols(c.n), rng));
      ref::expectChecks(ref::mergeRowsCase(L, c, 2, rng));
      ref::expectChecks(ref::hashedCase(L, c, 2, 7));
      ref::expectChecks(ref::tileCase(L, c, 2 * c.rows + 3, c.n, rng));
    }
    for (int n : {1, 2, 32, 1024}) {
      SortConfig c = SortConfig::sized(SortType::F32, n % 2 == 0, n, std::max(1, n / 8), 4);
      SCOPED_TRACE(c.text());
      ref::expectChecks(ref::networkCase(L, c, 2, raggedCols(n), rng));
      ref::expectChecks(ref::tileCase(L, c, 7, n, rng));
    }
  }
}

} // namespace
