// kernels/attention.blk on the GPU: every variant at ragged sequence
// lengths, causal and not, grouped-query heads, both memory orders, against
// float64, forward and backward.
#include "../common/AttentionCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

/// One `# variants:` entry of `file` (its `attention_forward`, and for
/// kernels/attention.blk its backward too).
ref::AttentionVariant variant(const char *file, const char *t, ref::DType type, int d, int bm, int bn, bool causal,
                              int warps, int stages, bool releaseSlots = false, bool pingPong = false,
                              bool warpSpecialize = false) {
  ref::Bindings b{{"T", t}, {"D", std::to_string(d)}, {"BLOCK_M", std::to_string(bm)}, {"BLOCK_N", std::to_string(bn)}};
  if (causal)
    b.push_back({"CAUSAL", "True"});
  b.push_back({"num_warps", std::to_string(warps)});
  if (stages)
    b.push_back({"num_stages", std::to_string(stages)});
  if (releaseSlots)
    b.push_back({"release_slots", "True"});
  if (pingPong)
    b.push_back({"ping_pong", "True"});
  if (warpSpecialize)
    b.push_back({"warp_specialize", "True"});
  return ref::AttentionVariant{b, type, d, bm, causal, file};
}

/// The `# variants:` entries of kernels/attention.blk, in its order.
std::vector<ref::AttentionVariant> attentionVariants() {
  using ref::DType;
  auto v = [](const char *t, DType type, int d, int bm, int bn, bool causal, int warps, int stages) {
    return variant("attention", t, type, d, bm, bn, causal, warps, stages);
  };
  return {v("bf16", DType::BF16, 64, 64, 32, false, 4, 0),   v("f16", DType::F16, 64, 64, 32, true, 4, 0),
          v("bf16", DType::BF16, 128, 128, 64, false, 8, 3), v("bf16", DType::BF16, 128, 128, 64, true, 8, 3),
          v("f16", DType::F16, 128, 128, 64, false, 8, 3),   v("bf16", DType::BF16, 64, 128, 64, true, 8, 3)};
}

/// Each variant as blkc builds it and with the `spec` build (the JIT
/// specializes on the arguments itself).
template <typename F> void eachBuild(const std::vector<ref::AttentionVariant> &variants, F &&run) {
  for (const ref::AttentionVariant &v : variants)
    for (bool spec : {false, true}) {
#ifdef BLK_GPU_TESTS_THROUGH_JIT
      if (spec)
        continue;
#endif
      ref::AttentionVariant w = v;
      if (spec)
        w.bindings.push_back({"spec", "spec"});
      run(w);
    }
}

TEST(Attention, ForwardEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  std::vector<ref::Check> checks;
  auto add = [&](const std::vector<ref::Check> &c) { checks.insert(checks.end(), c.begin(), c.end()); };
  std::vector<ref::AttentionVariant> variants = attentionVariants();
  // test/kernels/attention_forward_wide.blk: the forward at 128x128 tiles,
  // with and without --release-slots, and with a producer warpgroup.
  for (bool release : {false, true})
    for (bool causal : {false, true})
      variants.push_back(
          variant("attention_forward_wide", "bf16", ref::DType::BF16, 128, 128, 128, causal, 8, 3, release));
  for (bool causal : {false, true})
    variants.push_back(variant("attention_forward_wide", "bf16", ref::DType::BF16, 128, 128, 128, causal, 8, 3,
                               /*releaseSlots=*/false, /*pingPong=*/false, /*warpSpecialize=*/true));
  variants.push_back(variant("attention_forward_wide", "bf16", ref::DType::BF16, 64, 64, 128, true, 4, 0));
  eachBuild(variants, [&](const ref::AttentionVariant &w) {
    int d = w.d;
    if (w.causal) {
      add(ref::attentionForwardCase(gpuLaunch, w, {2, 4, 2, 300, 300, d, true}, rng));
      add(ref::attentionForwardCase(gpuLaunch, w, {1, 2, 2, 129, 129, d, true, /*seqMajor=*/true}, rng));
      // More queries than keys and fewer: the first query aligned with the first key.
      add(ref::attentionForwardCase(gpuLaunch, w, {1, 2, 1, 330, 200, d, true}, rng));
      add(ref::attentionForwardCase(gpuLaunch, w, {1, 2, 1, 200, 330, d, true}, rng));
    } else {
      add(ref::attentionForwardCase(gpuLaunch, w, {2, 4, 2, 300, 257, d, false}, rng));
      add(ref::attentionForwardCase(gpuLaunch, w, {1, 4, 1, 65, 400, d, false, /*seqMajor=*/true}, rng));
    }
  });
  ref::expectChecks(checks);
}

// test/kernels/attention_overlapped.blk: the forward in FlashAttention-3's
// order, every variant of its `# variants:` line.
TEST(Attention, OverlappedForwardEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  using ref::DType;
  const char *file = "attention_overlapped";
  std::vector<ref::Check> checks;
  auto add = [&](const std::vector<ref::Check> &c) { checks.insert(checks.end(), c.begin(), c.end()); };
  eachBuild({variant(file, "bf16", DType::BF16, 64, 64, 32, false, 4, 0), variant(file, "f16", DType::F16, 64, 64, 32, true, 4, 0),
             variant(file, "bf16", DType::BF16, 128, 128, 64, false, 8, 3),
             variant(file, "bf16", DType::BF16, 128, 128, 128, true, 8, 2),
             variant(file, "bf16", DType::BF16, 128, 128, 64, false, 8, 3, /*releaseSlots=*/true, /*pingPong=*/true)},
            [&](const ref::AttentionVariant &w) {
              add(ref::attentionForwardCase(gpuLaunch, w, {2, 4, 2, 300, w.causal ? 300 : 257, w.d, w.causal}, rng));
              add(ref::attentionForwardCase(gpuLaunch, w, {1, 4, 1, 65, w.causal ? 65 : 400, w.d, w.causal, /*seqMajor=*/true},
                                            rng));
              // One key block: the loop does not run.
              add(ref::attentionForwardCase(gpuLaunch, w, {1, 2, 1, w.causal ? 20 : 40, 20, w.d, w.causal}, rng));
            });
  ref::expectChecks(checks);
}

TEST(Attention, BackwardEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  std::vector<ref::Check> checks;
  auto add = [&](const std::vector<ref::Check> &c) { checks.insert(checks.end(), c.begin(), c.end()); };
  eachBuild(attentionVariants(), [&](const ref::AttentionVariant &w) {
    int d = w.d;
    if (w.causal) {
      add(ref::attentionBackwardCase(gpuLaunch, w, {2, 4, 2, 300, 300, d, true}, rng));
      add(ref::attentionBackwardCase(gpuLaunch, w, {1, 2, 2, 129, 129, d, true, /*seqMajor=*/true}, rng));
      add(ref::attentionBackwardCase(gpuLaunch, w, {1, 2, 1, 330, 200, d, true}, rng));
      add(ref::attentionBackwardCase(gpuLaunch, w, {1, 2, 1, 200, 330, d, true}, rng));
    } else {
      add(ref::attentionBackwardCase(gpuLaunch, w, {2, 4, 2, 300, 257, d, false}, rng));
      add(ref::attentionBackwardCase(gpuLaunch, w, {1, 4, 1, 65, 400, d, false, /*seqMajor=*/true}, rng));
    }
  });
  ref::expectChecks(checks);
}

} // namespace
