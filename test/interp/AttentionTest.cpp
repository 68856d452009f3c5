// kernels/attention.blk on the interpreter: small ragged shapes, causal and
// not, grouped-query heads, both memory orders, forward and backward,
// against float64.
#include "../common/AttentionCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

TEST(Attention, ForwardRaggedCausalGrouped) {
  BLK_SEEDED_RNG(rng);
  ref::AttentionVariant plain{{{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}},
                              ref::DType::BF16, 64, 64, false};
  ref::AttentionVariant causal{
      {{"T", "f16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}, {"CAUSAL", "True"}},
      ref::DType::F16, 64, 64, true};
  std::vector<ref::Check> checks;
  auto add = [&](const std::vector<ref::Check> &c) { checks.insert(checks.end(), c.begin(), c.end()); };
  add(ref::attentionForwardCase(interpLaunch, plain, {1, 2, 1, 70, 45, 64, false}, rng));
  add(ref::attentionForwardCase(interpLaunch, plain, {1, 2, 2, 33, 80, 64, false, /*seqMajor=*/true}, rng));
  // The first query row sees one key.
  add(ref::attentionForwardCase(interpLaunch, causal, {1, 2, 1, 75, 75, 64, true}, rng));
  // Causal with more queries than keys and fewer: the first query aligned with the first key.
  add(ref::attentionForwardCase(interpLaunch, causal, {1, 2, 1, 130, 70, 64, true}, rng));
  add(ref::attentionForwardCase(interpLaunch, causal, {1, 2, 1, 70, 130, 64, true}, rng));
  // Key blocks wider than the query block: the unmasked loop ends at a
  // multiple of BLOCK_N below the diagonal.
  ref::AttentionVariant wide{{{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "32"}, {"BLOCK_N", "64"}, {"CAUSAL", "True"}},
                             ref::DType::BF16, 64, 32, true, "attention_forward_wide"};
  add(ref::attentionForwardCase(interpLaunch, wide, {1, 2, 1, 150, 150, 64, true}, rng));
  add(ref::attentionForwardCase(interpLaunch, wide, {1, 2, 1, 150, 100, 64, true}, rng));
  ref::expectChecks(checks);
}

TEST(Attention, BackwardRaggedCausalGrouped) {
  BLK_SEEDED_RNG(rng);
  ref::AttentionVariant plain{{{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}},
                              ref::DType::BF16, 64, 64, false};
  ref::AttentionVariant causal{
      {{"T", "f16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}, {"CAUSAL", "True"}},
      ref::DType::F16, 64, 64, true};
  std::vector<ref::Check> checks;
  auto add = [&](const std::vector<ref::Check> &c) { checks.insert(checks.end(), c.begin(), c.end()); };
  // Two query heads share each K/V head; 70 and 45 leave ragged last blocks.
  add(ref::attentionBackwardCase(interpLaunch, plain, {1, 4, 2, 70, 45, 64, false}, rng));
  add(ref::attentionBackwardCase(interpLaunch, plain, {1, 2, 2, 33, 80, 64, false, /*seqMajor=*/true}, rng));
  // The first query row sees one key; key blocks past the diagonal.
  add(ref::attentionBackwardCase(interpLaunch, causal, {1, 2, 1, 75, 75, 64, true}, rng));
  add(ref::attentionBackwardCase(interpLaunch, causal, {1, 2, 1, 40, 40, 64, true, /*seqMajor=*/true}, rng));
  add(ref::attentionBackwardCase(interpLaunch, causal, {1, 2, 1, 130, 70, 64, true}, rng));
  add(ref::attentionBackwardCase(interpLaunch, causal, {1, 2, 1, 70, 130, 64, true}, rng));
  ref::expectChecks(checks);
}

// test/kernels/attention_overlapped.blk: the forward in FlashAttention-3's
// order (block n's scores issued before block n - 1's P V).
TEST(Attention, OverlappedForwardRaggedCausalGrouped) {
  BLK_SEEDED_RNG(rng);
  ref::AttentionVariant plain{{{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}},
                              ref::DType::BF16, 64, 64, false, "attention_overlapped"};
  ref::AttentionVariant causal{
      {{"T", "f16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}, {"CAUSAL", "True"}},
      ref::DType::F16, 64, 64, true, "attention_overlapped"};
  std::vector<ref::Check> checks;
  auto add = [&](const std::vector<ref::Check> &c) { checks.insert(checks.end(), c.begin(), c.end()); };
  add(ref::attentionForwardCase(interpLaunch, plain, {1, 2, 1, 70, 45, 64, false}, rng));
  // One key block only: no iteration of the loop.
  add(ref::attentionForwardCase(interpLaunch, plain, {1, 2, 2, 33, 20, 64, false, /*seqMajor=*/true}, rng));
  add(ref::attentionForwardCase(interpLaunch, causal, {1, 2, 1, 75, 75, 64, true}, rng));
  ref::expectChecks(checks);
}

} // namespace
