// Kernels run twice on the interpreter: as the frontend makes them and after
// the blk passes (bothWays, InterpLaunch.h), on the ring paths of sm_90a
// (TMA, wgmma) and sm_80 (cp.async, mma.sync from local_load); each run must
// match the float64 reference and the two must write the same bytes. A
// pipeline that waits for one copy group too few, or refills a slot still
// being read, reads poison and fails here.
#include "../common/AttentionCases.h"
#include "../common/DotStressCases.h"
#include "../common/MatmulCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

const char *const kArchs[] = {"sm_90a", "sm_80"};

std::vector<ref::Check> &operator+=(std::vector<ref::Check> &all, const std::vector<ref::Check> &more) {
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

// Sizes multiples of 16 (the `spec` build pipelines) but of no tile, with
// K long enough to wrap every ring, and K of one step.
TEST(AfterPasses, MatmulRings) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    std::vector<ref::Check> checks;
    for (const ref::MatmulVariant &v : ref::tensorCoreVariants()) {
      checks += ref::matmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {144, 80, 352}, rng,
                                v.tolerance(), v.tf32());
      checks += ref::matmulTmaCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {80, 144, 224}, rng,
                                   v.tolerance(), v.tf32());
      // One K step: the prologue's copies, some predicated off, and no steady state.
      checks += ref::matmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {48, 80, 16}, rng, v.tolerance(),
                                v.tf32());
    }
    ref::expectChecks(checks);
  }
}

TEST(AfterPasses, MatmulRaggedEveryType) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    std::vector<ref::Check> checks;
    for (const ref::MatmulVariant &v : ref::matmulVariants())
      checks += ref::matmulCase(L, v.bindings(), v.in, v.out, v.blockM, v.blockN, {100, 77, 45, true}, rng,
                                v.tolerance(), v.tf32());
    ref::expectChecks(checks);
  }
}

// The `# variants:` of kernels/attention.blk, with the `spec` build.
std::vector<ref::AttentionVariant> attentionVariants() {
  auto v = [](ref::Bindings b, ref::DType t, int d, int blockM, bool causal) {
    b.push_back({"spec", "spec"});
    return ref::AttentionVariant{b, t, d, blockM, causal};
  };
  using ref::DType;
  return {v({{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}, {"num_warps", "4"}}, DType::BF16, 64, 64,
            false),
          v({{"T", "f16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"}, {"CAUSAL", "True"}, {"num_warps", "4"}},
            DType::F16, 64, 64, true),
          v({{"T", "bf16"}, {"D", "128"}, {"BLOCK_M", "128"}, {"BLOCK_N", "64"}, {"num_warps", "8"}, {"num_stages", "3"}},
            DType::BF16, 128, 128, false),
          v({{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "128"}, {"BLOCK_N", "64"}, {"CAUSAL", "True"}, {"num_warps", "8"},
             {"num_stages", "3"}},
            DType::BF16, 64, 128, true)};
}

TEST(AfterPasses, AttentionForward) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    std::vector<ref::Check> checks;
    for (const ref::AttentionVariant &v : attentionVariants()) {
      // Ragged sequences: last blocks of queries and keys cut short.
      checks += ref::attentionForwardCase(bothWays(arch), v, {1, 2, 1, 150, 150, v.d, v.causal}, rng);
      checks += ref::attentionForwardCase(bothWays(arch), v, {1, 2, 2, 70, 200, v.d, v.causal, true}, rng);
    }
    ref::expectChecks(checks);
  }
}

TEST(AfterPasses, AttentionBackward) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    std::vector<ref::Check> checks;
    for (const ref::AttentionVariant &v : attentionVariants())
      checks += ref::attentionBackwardCase(bothWays(arch), v, {1, 2, 1, 150, 150, v.d, v.causal}, rng);
    ref::expectChecks(checks);
  }
}

TEST(AfterPasses, DotStress) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    std::vector<ref::Check> checks;
    for (auto [bm, bn, bk, warps, stages] : {std::array{128, 128, 64, 8, 3}, std::array{128, 64, 64, 4, 3},
                                             std::array{64, 64, 32, 4, 3}, std::array{32, 32, 32, 0, 0}}) {
      ref::DotStressVariant v = ref::matmulStressVariant(bm, bn, bk, warps, stages);
      v.spec = true;
      checks += ref::gatheredMatmulCase(L, v, {144, 80, 224}, 13, 3, rng);
      checks += ref::dequantMatmulCase(L, v, {80, 144, 224}, rng);
      checks += ref::transposedAMatmulCase(L, v, {144, 80, 224}, 0, rng);
    }
    for (auto [page, d, warps, stages] : {std::array{64, 128, 4, 3}, std::array{16, 64, 4, 0}}) {
      ref::DotStressVariant v = ref::decodeStressVariant(page, d, warps, stages);
      v.spec = true;
      checks += ref::pagedDecodeCase(L, v, page, d, {2, 2, 4, 4, {3 * page - 5, 1}}, rng);
    }
    ref::expectChecks(checks);
  }
}

// Row kernels: no dot, so no ring; their vectorized and re-laid-out
// accesses must still give the same bytes. Default and wide variants.
TEST(AfterPasses, SoftmaxAndRMSNorm) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    ref::Launch wideSoftmax = ref::withVariant(L, "softmax", {{"BLOCK", "4096"}, {"num_warps", "8"}});
    ref::Launch wideNorm = ref::withVariant(L, "rms_norm", {{"BLOCK", "4096"}, {"num_warps", "8"}});
    ref::forEachTypeAndShape({{3, 1}, {5, 100}, {4, 1000}}, [&](ref::DType t, ref::Shape s) {
      ref::expectChecks(ref::softmaxCase(L, t, s.rows, s.cols, rng));
    });
    // (Not one column: there RMSNorm's dX is a cancellation to about eps.)
    ref::forEachTypeAndShape({{3, 3}, {5, 100}, {4, 1000}}, [&](ref::DType t, ref::Shape s) {
      ref::expectChecks(ref::rmsNormCase(L, t, s.rows, s.cols, rng, 0, 0.0));
      ref::expectChecks(ref::rmsNormCase(L, t, s.rows, s.cols, rng, 1, 1.0));
    });
    ref::expectChecks(ref::softmaxCase(wideSoftmax, ref::DType::BF16, 3, 3000, rng));
    ref::expectChecks(ref::rmsNormCase(wideNorm, ref::DType::BF16, 3, 3000, rng, 0, 0.0));
  }
}

} // namespace
