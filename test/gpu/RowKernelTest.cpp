// The row kernels (softmax, RMSNorm, LayerNorm, cross-entropy, KL divergence,
// JSD; forward and backward) on the GPU against the float64 references the interpreter tests
// use: fresh random inputs, poisoned outputs, rows and columns that are not
// multiples of the block, the reduction/label-smoothing/z-loss/softcap/ignore
// variants.
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

#include <gtest/gtest.h>

using namespace blk;
using ref::Shape;

namespace {

TEST(RowKernels, Softmax) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {37, 100}, {129, 1000}, {64, 1024}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::softmaxCase(gpuLaunch, t, s.rows, s.cols, rng));
  });
}

TEST(RowKernels, RMSNorm) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 3}, {37, 100}, {129, 1000}, {64, 1024}}, [&](ref::DType t, Shape s) {
    SCOPED_TRACE("llama");
    ref::expectChecks(ref::rmsNormCase(gpuLaunch, t, s.rows, s.cols, rng, 0, 0.0));
    if (t == ref::DType::BF16) { // the Gemma variant is built for bf16
      SCOPED_TRACE("gemma, offset 1");
      ref::expectChecks(ref::rmsNormCase(gpuLaunch, t, s.rows, s.cols, rng, 1, 1.0));
    }
  });
}

TEST(RowKernels, LayerNorm) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {37, 100}, {129, 1000}, {64, 1024}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::layerNormCase(gpuLaunch, t, s.rows, s.cols, rng));
  });
}

TEST(RowKernels, CrossEntropy) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{5, 1000}, {33, 5000}, {8, 32000}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::crossEntropyCase(gpuLaunch, t, s.rows, s.cols, rng, {}));
    ref::expectChecks(ref::crossEntropyCase(gpuLaunch, t, s.rows, s.cols, rng, {0, 0.1, 1e-4, 0, -100}));
  });
  // The variants built for one type each: sum with softcap (f32), none with an ignore index (bf16).
  for (Shape s : {Shape{7, 3000}, Shape{16, 32000}}) {
    SCOPED_TRACE(std::to_string(s.rows) + "x" + std::to_string(s.cols));
    SCOPED_TRACE("f32, sum, softcap");
    ref::expectChecks(ref::crossEntropyCase(gpuLaunch, ref::DType::F32, s.rows, s.cols, rng, {1, 0, 0, 30.0, -100}));
    SCOPED_TRACE("bf16, none, ignore_index 3");
    ref::expectChecks(ref::crossEntropyCase(gpuLaunch, ref::DType::BF16, s.rows, s.cols, rng, {2, 0.05, 0, 0, 3}));
  }
}

TEST(RowKernels, KLDiv) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {37, 100}, {33, 5000}, {8, 32000}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::klDivCase(gpuLaunch, t, s.rows, s.cols, rng, {false, 3}));
  });
  // The variants built for one type each (kernels/kl_div_loss.blk).
  for (Shape s : {Shape{7, 3000}, Shape{16, 32000}}) {
    SCOPED_TRACE(std::to_string(s.rows) + "x" + std::to_string(s.cols));
    for (auto [t, o] : {std::pair{ref::DType::F32, ref::KLDivOptions{true, 0}},
                        std::pair{ref::DType::BF16, ref::KLDivOptions{true, 3}},
                        std::pair{ref::DType::F16, ref::KLDivOptions{false, 0}}}) {
      SCOPED_TRACE(std::string(ref::name(t)) + (o.logTarget ? " log_target" : "") + " reduction " +
                   std::to_string(o.reduction));
      ref::expectChecks(ref::klDivCase(gpuLaunch, t, s.rows, s.cols, rng, o));
    }
  }
}

TEST(RowKernels, JSD) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {37, 100}, {33, 5000}, {8, 32000}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::jsdCase(gpuLaunch, t, s.rows, s.cols, rng, {}));
  });
  for (Shape s : {Shape{7, 3000}, Shape{16, 32000}}) {
    SCOPED_TRACE(std::to_string(s.rows) + "x" + std::to_string(s.cols));
    for (auto [t, o] : {std::pair{ref::DType::F32, ref::JSDOptions{"0.0", true}},
                        std::pair{ref::DType::BF16, ref::JSDOptions{"1.0", false}},
                        std::pair{ref::DType::BF16, ref::JSDOptions{"0.25", true}}}) {
      SCOPED_TRACE(std::string(ref::name(t)) + " beta " + o.beta + (o.hasLabel ? " labels" : ""));
      ref::expectChecks(ref::jsdCase(gpuLaunch, t, s.rows, s.cols, rng, o));
    }
  }
}

const ref::Bindings kS16{{"spec", "s16"}};

// The builds specialized on strides and widths divisible by 16 (.s16: vector
// accesses, what the benchmarks time) at widths that are multiples of 16 but
// not of BLOCK, in every type.
TEST(RowKernels, S16VariantsAtWidthsNotMultiplesOfBlock) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{37, 112}, {5, 1008}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::softmaxCase(ref::withVariant(gpuLaunch, "softmax", kS16), t, s.rows, s.cols, rng));
    ref::expectChecks(
        ref::rmsNormCase(ref::withVariant(gpuLaunch, "rms_norm", kS16), t, s.rows, s.cols, rng, 0, 0.0));
    ref::expectChecks(ref::layerNormCase(ref::withVariant(gpuLaunch, "layer_norm", kS16), t, s.rows, s.cols, rng));
  });
  ref::forEachTypeAndShape({{5, 1008}, {9, 4000}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(
        ref::crossEntropyCase(ref::withVariant(gpuLaunch, "cross_entropy", kS16), t, s.rows, s.cols, rng, {}));
    ref::expectChecks(
        ref::klDivCase(ref::withVariant(gpuLaunch, "kl_div_loss", kS16), t, s.rows, s.cols, rng, {false, 3}));
    ref::expectChecks(ref::jsdCase(ref::withVariant(gpuLaunch, "jsd", kS16), t, s.rows, s.cols, rng, {}));
  });
  SCOPED_TRACE("gemma");
  ref::expectChecks(ref::rmsNormCase(ref::withVariant(gpuLaunch, "rms_norm", kS16), ref::DType::BF16, 5, 1008, rng,
                                     1, 1.0));
}

// The larger-block variants of scripts/kernel-variants.sh (the benchmarks'
// builds), plain at ragged widths and .s16 at multiples of 16 that are not
// multiples of BLOCK.
TEST(RowKernels, LargeBlockVariantsAtRaggedWidths) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  using ref::DType;
  auto variant = [](const char *block, const char *warps, bool s16, const char *stages = nullptr) {
    ref::Bindings b{{"BLOCK", block}, {"num_warps", warps}};
    if (stages)
      b.push_back({"num_stages", stages});
    if (s16)
      b.push_back({"spec", "s16"});
    return b;
  };
  for (bool s16 : {false, true}) {
    SCOPED_TRACE(s16 ? "s16" : "plain");
    for (Shape s : {s16 ? Shape{7, 4000} : Shape{7, 3000}, s16 ? Shape{3, 1040} : Shape{3, 1025}}) {
      SCOPED_TRACE(std::to_string(s.rows) + "x" + std::to_string(s.cols));
      ref::expectChecks(ref::softmaxCase(ref::withVariant(gpuLaunch, "softmax", variant("4096", "8", s16)),
                                         DType::BF16, s.rows, s.cols, rng));
      ref::expectChecks(ref::rmsNormCase(ref::withVariant(gpuLaunch, "rms_norm", variant("4096", "8", s16)),
                                         DType::BF16, s.rows, s.cols, rng, 0, 0.0));
      ref::expectChecks(ref::layerNormCase(ref::withVariant(gpuLaunch, "layer_norm", variant("4096", "4", s16)),
                                           DType::BF16, s.rows, s.cols, rng));
    }
    for (Shape s : {s16 ? Shape{5, 10000} : Shape{5, 10001}, s16 ? Shape{4, 32000} : Shape{4, 32003}}) {
      SCOPED_TRACE(std::to_string(s.rows) + "x" + std::to_string(s.cols));
      for (const char *stages : {(const char *)nullptr, "2"})
        ref::expectChecks(ref::crossEntropyCase(
            ref::withVariant(gpuLaunch, "cross_entropy", variant("8192", "16", s16, stages)), DType::BF16, s.rows,
            s.cols, rng, {}));
      ref::expectChecks(ref::klDivCase(ref::withVariant(gpuLaunch, "kl_div_loss", variant("8192", "16", s16)),
                                       DType::F32, s.rows, s.cols, rng, {false, 3}));
    }
  }
}

} // namespace
