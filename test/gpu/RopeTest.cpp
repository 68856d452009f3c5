// kernels/rope.blk on the GPU: every variant, forward and backward, Q and K
// in place, at ragged and realistic shapes (Llama-3 8B's 32/8 heads of 128,
// Qwen2's 28/4, SmolLM's 9/3 of 64, Gemma's 16/8 and 8/1 of 256), head dims
// below their padded block, cos/sin per position and per batch, gaps between
// rows, and the .spec builds (strides and hd multiples of 16), against
// float64.
#include "../common/RopeCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

/// `v` as its .spec build (the JIT specializes on the arguments itself).
ref::RopeVariant spec(ref::RopeVariant v) {
  v.bindings.push_back({"spec", "spec"});
  return v;
}

TEST(Rope, DefaultPaddingEveryType) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (ref::DType t : ref::kAllTypes) {
    ref::RopeVariant v{{{"T", ref::name(t)}, {"num_warps", "8"}}, t};
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {3, 37, 5, 3, 128, false, 3}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {2, 101, 28, 4, 96, true}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {2, 1000, 28, 4, 128, true}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {2, 1024, 32, 8, 128}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, spec(v), {2, 1024, 32, 8, 128}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, spec(v), {2, 300, 20, 2, 112, true, 16}, rng));
  }
}

TEST(Rope, HeadDims64And256) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::RopeVariant d64{{{"T", "bf16"}, {"PAD_HD", "64"}, {"PAD_QH", "16"}, {"PAD_KH", "16"}}, ref::DType::BF16};
  ref::RopeVariant d256{{{"T", "bf16"}, {"PAD_HD", "256"}, {"PAD_QH", "16"}, {"PAD_KH", "8"}, {"num_warps", "8"}},
                        ref::DType::BF16};
  for (ref::RopeVariant v : {d64, spec(d64)}) {
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {2, 1024, 9, 3, 64}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {3, 257, 16, 16, 64, true}, rng));
  }
  ref::expectChecks(ref::ropeCase(gpuLaunch, d64, {2, 77, 12, 5, 50, false, 7}, rng));
  for (ref::RopeVariant v : {d256, spec(d256)}) {
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {2, 1024, 16, 8, 256}, rng));
    ref::expectChecks(ref::ropeCase(gpuLaunch, v, {3, 129, 8, 1, 256, true}, rng));
  }
  ref::expectChecks(ref::ropeCase(gpuLaunch, d256, {1, 65, 10, 5, 200, true, 9}, rng));
}

} // namespace
