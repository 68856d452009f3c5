// Triton's bitonic sorts (test/kernels/sort.blk) on the GPU: sort, topk and
// bitonic_merge of rows loaded from memory, of blocks computed in registers
// and of 2-D tiles, in each variant's type and order, against the float64
// or int64 reference (test/common/SortCases.h). The variants reach every
// path of the lowering: exchanges inside a thread, across lanes and across
// warps, copies of small rows, and topk's cut through shared memory.
#include "../common/RowTestSupport.h"
#include "../common/SortCases.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;
using ref::SortConfig;
using ref::SortType;

namespace {

/// The variants test/kernels/sort.blk is built in.
std::vector<SortConfig> variants() {
  return {{SortType::F32, false},
          {SortType::BF16, true},
          {SortType::U32, true},
          {SortType::I64, false},
          SortConfig::sized(SortType::F32, true, 1024, 64, 2),
          SortConfig::sized(SortType::I32, false, 32, 4, 16),
          SortConfig::sized(SortType::F16, false, 2, 1, 4),
          SortConfig::sized(SortType::F64, true, 64, 16, 16)};
}

/// About three quarters of a row of n (all of it for n = 1).
int raggedCols(int n) { return std::max(1, n - n / 4 - 1); }

TEST(Sort, RowsAndTopk) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const SortConfig &c : variants()) {
    SCOPED_TRACE(c.text());
    ref::expectChecks(ref::sortRowsCase(gpuLaunch, c, 3, c.n, rng));
    ref::expectChecks(ref::sortRowsCase(gpuLaunch, c, 300, raggedCols(c.n), rng));
  }
}

TEST(Sort, BitonicMerge) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const SortConfig &c : variants()) {
    SCOPED_TRACE(c.text());
    ref::expectChecks(ref::mergeRowsCase(gpuLaunch, c, 70, rng));
  }
}

TEST(Sort, HashedInRegisters) {
  BLK_REQUIRE_GPU();
  for (const SortConfig &c : variants()) {
    SCOPED_TRACE(c.text());
    ref::expectChecks(ref::hashedCase(gpuLaunch, c, 100, 0x5eed));
  }
}

TEST(Sort, TilesRowByRow) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const SortConfig &c : variants()) {
    SCOPED_TRACE(c.text());
    ref::expectChecks(ref::tileCase(gpuLaunch, c, 40 * c.rows + c.rows / 2 + 1, raggedCols(c.n), rng));
    ref::expectChecks(ref::tileCase(gpuLaunch, c, 3 * c.rows, c.n, rng));
  }
}

// NaNs of both signs, -0.0 and infinities end where the interpreter's
// network leaves them: the GPU runs the same compare-exchanges.
TEST(Sort, NetworkBitForBit) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const SortConfig &c : variants()) {
    if (!ref::isFloat(c.type))
      continue;
    SCOPED_TRACE(c.text());
    ref::expectChecks(ref::networkCase(gpuLaunch, c, 50, raggedCols(c.n), rng));
    ref::expectChecks(ref::networkCase(gpuLaunch, c, 5, c.n, rng));
  }
}

} // namespace
