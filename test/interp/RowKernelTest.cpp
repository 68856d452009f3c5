// The row kernels (softmax, RMSNorm, LayerNorm, cross-entropy, KL divergence,
// JSD; forward and backward) on the CPU interpreter against the float64 references shared
// with the GPU tests, at ragged sizes.
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;
using ref::Shape;

namespace {

TEST(RowKernels, Softmax) {
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {5, 100}, {4, 1000}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::softmaxCase(interpLaunch, t, s.rows, s.cols, rng));
  });
}

TEST(RowKernels, RMSNormLlamaAndGemma) {
  BLK_SEEDED_RNG(rng);
  // (One column is left out: there dX is a cancellation to about eps.)
  ref::forEachTypeAndShape({{3, 3}, {5, 100}, {4, 1000}}, [&](ref::DType t, Shape s) {
    for (int mode : {0, 1}) {
      SCOPED_TRACE("mode " + std::to_string(mode));
      ref::expectChecks(ref::rmsNormCase(interpLaunch, t, s.rows, s.cols, rng, mode, mode ? 1.0 : 0.0));
    }
  });
}

TEST(RowKernels, LayerNorm) {
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {5, 100}, {4, 1000}}, [&](ref::DType t, Shape s) {
    ref::expectChecks(ref::layerNormCase(interpLaunch, t, s.rows, s.cols, rng));
  });
}

TEST(RowKernels, CrossEntropyVariants) {
  BLK_SEEDED_RNG(rng);
  std::vector<ref::CrossEntropyOptions> variants = {
      {}, {0, 0.1, 0, 0, -100}, {1, 0, 1e-4, 0, -100}, {2, 0.05, 0, 0, 3}, {1, 0, 0, 30.0, -100},
      // A cap of 1 makes every logit within e^2 of the max: lanes past a ragged
      // row counted as -softcap would move the sum by whole percents.
      {1, 0, 0, 1.0, -100}};
  ref::forEachTypeAndShape({{5, 1000}, {4, 5000}}, [&](ref::DType t, Shape s) {
    for (size_t v = 0; v < variants.size(); ++v) {
      SCOPED_TRACE("variant " + std::to_string(v));
      ref::expectChecks(ref::crossEntropyCase(interpLaunch, t, s.rows, s.cols, rng, variants[v]));
    }
  });
}

TEST(RowKernels, KLDivReductionsAndLogTarget) {
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {5, 100}, {4, 5000}}, [&](ref::DType t, Shape s) {
    for (ref::KLDivOptions o : {ref::KLDivOptions{false, 3}, {false, 0}, {true, 1}, {true, 2}}) {
      SCOPED_TRACE(std::string(o.logTarget ? "log_target" : "probabilities") + ", reduction " +
                   std::to_string(o.reduction));
      ref::expectChecks(ref::klDivCase(interpLaunch, t, s.rows, s.cols, rng, o));
    }
  });
}

TEST(RowKernels, JSDBetasAndIgnoreIndex) {
  BLK_SEEDED_RNG(rng);
  ref::forEachTypeAndShape({{3, 1}, {5, 100}, {4, 5000}}, [&](ref::DType t, Shape s) {
    for (ref::JSDOptions o : {ref::JSDOptions{"0.5", false}, {"0.0", true}, {"1.0", false}, {"0.25", true}}) {
      SCOPED_TRACE(std::string("beta ") + o.beta + (o.hasLabel ? ", labels" : ""));
      ref::expectChecks(ref::jsdCase(interpLaunch, t, s.rows, s.cols, rng, o));
    }
  });
}

} // namespace
