// kernels/rope.blk on the CPU interpreter: forward and backward, Q and K in
// place, grouped-query heads, head dims below their padded block, cos/sin per
// position and per batch, gaps between rows, every variant's padding,
// against float64.
#include "../common/RopeCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Rope, DefaultPaddingEveryType) {
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes) {
    ref::RopeVariant v{{{"T", ref::name(t)}, {"num_warps", "8"}}, t};
    ref::expectChecks(ref::ropeCase(interpLaunch, v, {2, 3, 4, 2, 128}, rng));
    ref::expectChecks(ref::ropeCase(interpLaunch, v, {2, 5, 3, 1, 48, true, 8}, rng));
    ref::expectChecks(ref::ropeCase(interpLaunch, v, {1, 2, 32, 8, 128, false, 16}, rng));
    ref::expectChecks(ref::ropeCase(interpLaunch, v, {3, 1, 1, 1, 2, true}, rng)); // one pair per head
  }
}

TEST(Rope, HeadDims64And256) {
  BLK_SEEDED_RNG(rng);
  ref::RopeVariant d64{{{"T", "bf16"}, {"PAD_HD", "64"}, {"PAD_QH", "16"}, {"PAD_KH", "16"}}, ref::DType::BF16};
  ref::RopeVariant d256{{{"T", "bf16"}, {"PAD_HD", "256"}, {"PAD_QH", "16"}, {"PAD_KH", "8"}, {"num_warps", "8"}},
                        ref::DType::BF16};
  ref::expectChecks(ref::ropeCase(interpLaunch, d64, {2, 3, 16, 16, 64, true}, rng));
  ref::expectChecks(ref::ropeCase(interpLaunch, d64, {1, 4, 9, 3, 64, false, 5}, rng));
  ref::expectChecks(ref::ropeCase(interpLaunch, d256, {2, 2, 16, 8, 256}, rng));
  ref::expectChecks(ref::ropeCase(interpLaunch, d256, {1, 3, 5, 1, 160, true, 3}, rng));
}

} // namespace
