// Kernels run twice on the interpreter: as the frontend makes them and after
// the blk passes (bothWays, InterpLaunch.h), on the ring paths of sm_90a
// (TMA, wgmma, a producer warpgroup) and sm_80 (cp.async, mma.sync from
// local_load); each run must match the float64 reference and the two must
// write the same bytes. A
// pipeline that waits for one copy group too few, or refills a slot still
// being read, reads poison and fails here.
#include "../common/AttentionCases.h"
#include "../common/BlockPointerCases.h"
#include "../common/DotStressCases.h"
#include "../common/ElementwiseCases.h"
#include "../common/GluCases.h"
#include "../common/LayoutMoveCases.h"
#include "../common/LayoutStressCases.h"
#include "../common/PointerCases.h"
#include "../common/MatmulCases.h"
#include "../common/RopeCases.h"
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
    // The persistent matmul, 4 programs over 9 tiles (3 K steps each through
    // 3 slots): with a producer warpgroup the slots wrap across tiles.
    for (bool ws : {true, false}) {
      ref::Bindings b = {{"T", "bf16"}, {"TC", "bf16"}, {"BLOCK_M", "128"}, {"BLOCK_N", "128"}, {"BLOCK_K", "64"},
                         {"NUM_SMS", "4"}, {"num_warps", "4"}, {"num_stages", "2"}};
      if (ws)
        b.push_back({"WARP_SPECIALIZE", "True"});
      b.push_back({"spec", "spec"});
      checks += ref::matmulTmaCase(L, b, ref::DType::BF16, ref::DType::BF16, 128, 128, {272, 368, 176}, rng,
                                   ref::tolerance(ref::DType::BF16), false, 4);
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
            DType::BF16, 64, 128, true),
          // A producer warpgroup for the first loop; the second (the diagonal
          // band) pipelined by the consumers themselves.
          v({{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "128"}, {"BLOCK_N", "64"}, {"CAUSAL", "True"}, {"num_warps", "8"},
             {"num_stages", "3"}, {"warp_specialize", "True"}},
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

// The forward in FlashAttention-3's order: waits that leave the other
// dot in flight across the softmax's reductions.
TEST(AfterPasses, AttentionOverlappedForward) {
  BLK_SEEDED_RNG(rng);
  using ref::DType;
  auto v = [](ref::Bindings b, DType t, int d, int blockM, bool causal) {
    b.push_back({"spec", "spec"});
    return ref::AttentionVariant{b, t, d, blockM, causal, "attention_overlapped"};
  };
  std::vector<ref::AttentionVariant> variants{
      v({{"T", "bf16"}, {"D", "128"}, {"BLOCK_M", "128"}, {"BLOCK_N", "64"}, {"num_warps", "8"}, {"num_stages", "3"}},
        DType::BF16, 128, 128, false),
      v({{"T", "bf16"}, {"D", "128"}, {"BLOCK_M", "128"}, {"BLOCK_N", "128"}, {"CAUSAL", "True"}, {"num_warps", "8"},
         {"num_stages", "2"}},
        DType::BF16, 128, 128, true)};
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    std::vector<ref::Check> checks;
    for (const ref::AttentionVariant &w : variants) {
      checks += ref::attentionForwardCase(bothWays(arch), w, {1, 2, 1, 150, 150, w.d, w.causal}, rng);
      checks += ref::attentionForwardCase(bothWays(arch), w, {1, 2, 2, 70, 300, w.d, w.causal, true}, rng);
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
      checks += ref::whileMatmulCase(L, v, {144, 80, 224}, 0, rng);
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

// The specialized builds of the row kernels (scripts/build-ptx.sh: .s16 for
// strides and widths divisible by 16, .n16 for sizes divisible by 16, rope's
// .spec), the ones the benchmark times, at sizes that are multiples of 16 but
// not of BLOCK: the specializations widen accesses to vectors and drop masks.
const ref::Bindings kS16{{"spec", "s16"}};

TEST(AfterPasses, RowKernelsS16) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    auto s16 = [&](const char *file) { return ref::withVariant(L, file, kS16); };
    ref::forEachTypeAndShape({{3, 112}, {2, 1008}}, [&](ref::DType t, ref::Shape s) {
      ref::expectChecks(ref::softmaxCase(s16("softmax"), t, s.rows, s.cols, rng));
      ref::expectChecks(ref::rmsNormCase(s16("rms_norm"), t, s.rows, s.cols, rng, 0, 0.0));
      ref::expectChecks(ref::layerNormCase(s16("layer_norm"), t, s.rows, s.cols, rng));
    });
    ref::expectChecks(ref::rmsNormCase(s16("rms_norm"), ref::DType::BF16, 2, 1008, rng, 1, 1.0));
    ref::forEachTypeAndShape({{2, 1008}, {2, 4112}}, [&](ref::DType t, ref::Shape s) {
      ref::expectChecks(ref::crossEntropyCase(s16("cross_entropy"), t, s.rows, s.cols, rng, {}));
      ref::expectChecks(ref::klDivCase(s16("kl_div_loss"), t, s.rows, s.cols, rng, {false, 3}));
      ref::expectChecks(ref::jsdCase(s16("jsd"), t, s.rows, s.cols, rng, {}));
    });
    // The variants built for one type each.
    ref::expectChecks(
        ref::crossEntropyCase(s16("cross_entropy"), ref::DType::F32, 2, 1008, rng, {1, 0, 0, 30.0, -100}));
    ref::expectChecks(
        ref::crossEntropyCase(s16("cross_entropy"), ref::DType::BF16, 2, 1008, rng, {2, 0.05, 0, 0, 3}));
    ref::expectChecks(ref::klDivCase(s16("kl_div_loss"), ref::DType::F32, 2, 1008, rng, {true, 0}));
    ref::expectChecks(ref::jsdCase(s16("jsd"), ref::DType::BF16, 2, 1008, rng, {"0.25", true}));
  }
}

// The larger-BLOCK variants as .s16 (the benchmark's builds).
TEST(AfterPasses, RowKernelsLargeBlockS16) {
  BLK_SEEDED_RNG(rng);
  using ref::DType;
  auto variant = [](const char *block, const char *warps, const char *stages = nullptr) {
    ref::Bindings b{{"BLOCK", block}, {"num_warps", warps}, {"spec", "s16"}};
    if (stages)
      b.push_back({"num_stages", stages});
    return b;
  };
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    ref::expectChecks(
        ref::softmaxCase(ref::withVariant(L, "softmax", variant("4096", "8")), DType::BF16, 2, 4000, rng));
    ref::expectChecks(
        ref::rmsNormCase(ref::withVariant(L, "rms_norm", variant("4096", "8")), DType::BF16, 2, 4000, rng, 0, 0.0));
    ref::expectChecks(
        ref::layerNormCase(ref::withVariant(L, "layer_norm", variant("4096", "4")), DType::BF16, 2, 1040, rng));
    for (const char *stages : {(const char *)nullptr, "2"})
      ref::expectChecks(ref::crossEntropyCase(ref::withVariant(L, "cross_entropy", variant("8192", "16", stages)),
                                              DType::BF16, 2, 10000, rng, {}));
    ref::expectChecks(ref::klDivCase(ref::withVariant(L, "kl_div_loss", variant("8192", "16")), DType::F32, 2, 10000,
                                     rng, {false, 3}));
  }
}

TEST(AfterPasses, ElementwiseAndGluN16) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    for (ref::DType t : ref::kAllTypes) {
      for (const ref::ElementwiseCase &c : ref::elementwiseCases())
        ref::expectChecks(ref::elementwiseCase(L, c, t, 2064, true, rng));
      for (const ref::GluKind &k : ref::gluKinds()) {
        SCOPED_TRACE(std::string(k.name) + " " + ref::name(t));
        ref::expectChecks(ref::gluCase(L, k, t, 1008, true, rng));
      }
    }
  }
}

TEST(AfterPasses, RopeSpec) {
  BLK_SEEDED_RNG(rng);
  auto spec = [](ref::Bindings b, ref::DType t) {
    b.push_back({"spec", "spec"});
    return ref::RopeVariant{b, t};
  };
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    for (ref::DType t : ref::kAllTypes) {
      ref::RopeVariant v = spec({{"T", ref::name(t)}, {"num_warps", "8"}}, t);
      ref::expectChecks(ref::ropeCase(L, v, {2, 3, 4, 2, 128}, rng));
      ref::expectChecks(ref::ropeCase(L, v, {1, 3, 5, 1, 112, true, 16}, rng));
    }
    ref::RopeVariant d64 =
        spec({{"T", "bf16"}, {"PAD_HD", "64"}, {"PAD_QH", "16"}, {"PAD_KH", "16"}}, ref::DType::BF16);
    ref::RopeVariant d256 = spec(
        {{"T", "bf16"}, {"PAD_HD", "256"}, {"PAD_QH", "16"}, {"PAD_KH", "8"}, {"num_warps", "8"}}, ref::DType::BF16);
    ref::expectChecks(ref::ropeCase(L, d64, {2, 3, 9, 3, 64}, rng));
    ref::expectChecks(ref::ropeCase(L, d64, {1, 2, 16, 16, 48, true, 16}, rng));
    ref::expectChecks(ref::ropeCase(L, d256, {1, 2, 16, 8, 256}, rng));
    ref::expectChecks(ref::ropeCase(L, d256, {1, 3, 5, 1, 160, true, 16}, rng));
  }
}

// test/kernels/layout_stress.blk's scans, column sums (the last step of rows
// cut short), broadcasts and sums of column-major tiles, every variant,
// re-laid out by the passes.
TEST(AfterPasses, LayoutStress) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    for (const ref::LayoutStressVariant &v : ref::layoutStressVariants()) {
      ref::expectChecks(ref::columnSumsCase(L, v, 2, 2 * v.r + v.r / 2 + 3, rng));
      ref::expectChecks(ref::broadcastMixCase(L, v, 2, rng));
      ref::expectChecks(ref::scanCase(L, v, 0, 2, rng));
      ref::expectChecks(ref::scanCase(L, v, 1, 2, rng));
      ref::expectChecks(ref::transposedSumCase(L, v, 2, 2, rng));
    }
  }
}

// test/kernels/pointers.blk: addresses and back, a table of row addresses,
// a grouped matmul through a table of operand addresses, re-laid out by the
// passes (its dot pipelined for sm_90a and sm_80).
TEST(AfterPasses, Pointers) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    ref::expectChecks(ref::addressRoundTripCase(L, 129, rng));
    ref::expectChecks(ref::rowsThroughTableCase(L, rng));
    for (ref::DType t : {ref::DType::F16, ref::DType::F32})
      ref::expectChecks(ref::groupedMatmulCase(L, t, 2, 70, 50, 40, rng));
  }
}

// test/kernels/block_pointers.blk: masks of ragged edges, counters the
// loop advances, and the matmul specialized so that its operands go through
// cp.async rings (sm_80) or rings read by wgmma (sm_90a).
TEST(AfterPasses, BlockPointers) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    ref::expectChecks(ref::tileCopyCase(L, 37, 75, rng));
    ref::expectChecks(ref::transposeCopyCase(L, 37, 75, rng));
    ref::expectChecks(ref::nanPaddingCase(L, 37, 75, rng));
    ref::expectChecks(ref::chosenSourceCase(L, 37, 75, rng));
    ref::expectChecks(ref::copy3dCase(L, 3, 13, 40, rng));
    ref::expectChecks(ref::rowSumsCase(L, 5, 200, rng));
    for (ref::DType t : {ref::DType::F16, ref::DType::F32}) {
      ref::expectChecks(ref::blockPointerMatmulCase(L, t, 70, 50, 40, true, rng));
      ref::expectChecks(ref::blockPointerMatmulCase(L, t, 64, 80, 160, false, rng, /*spec=*/true));
    }
    ref::expectChecks(ref::blockPointerMatmulCase(L, ref::DType::BF16, 128, 256, 192, false, rng, true, true));
  }
}

// test/kernels/layout_moves.blk (conversions by warp shuffles, reshapes that
// rename registers), every variant, re-laid out by the passes.
TEST(AfterPasses, LayoutMoves) {
  BLK_SEEDED_RNG(rng);
  for (const char *arch : kArchs) {
    SCOPED_TRACE(arch);
    ref::Launch L = bothWays(arch);
    for (const ref::LayoutMoveVariant &v : ref::layoutMoveVariants()) {
      ref::expectChecks(ref::layoutMoveColumnSumsCase(L, v, 2, 2 * v.r + v.r / 2 + 3, rng));
      ref::expectChecks(ref::layoutMoveFlattenCase(L, v, 2, rng));
      ref::expectChecks(ref::layoutMoveRowPlusColumnCase(L, v, 2, rng));
    }
  }
}

} // namespace
