// Fused linear cross-entropy through the C API (blk_c.h + blk/Ops/blk_ops.h)
// on the CPU interpreter, and the driver's messages for bad arguments: each
// is refused with a readable error before any kernel runs.
#include "../common/FlceCases.h"
#include "../common/TestSeed.h"
#include "blk/Ops/JitKernelRunner.h"
#include "blk/Ops/blk_ops.h"
#include "blk/blk_c.h"

#include <gtest/gtest.h>

namespace {
using namespace blk;

const std::string kKernels = std::string(BLK_SOURCE_DIR) + "/kernels";

TEST(FlceApi, CApiOnTheInterpreterMatchesFloat64) {
  BLK_SEEDED_RNG(rng);
  char err[512] = "";
  blk_jit *jit = blk_jit_create(BLK_BACKEND_CPU);
  blk_ops_runner *runner = nullptr;
  ASSERT_EQ(blk_jit_ops_runner(jit, kKernels.c_str(), &runner, err, sizeof err), 0) << err;
  const int R = 21, H = 16, V = 40;
  ref::FlceCase c{R, H, V};
  c.reduction = ops::Reduction::Sum, c.labelSmoothing = 0.05;
  ref::Buffer x(ref::DType::BF16, R * H), w(ref::DType::BF16, V * H), dx(ref::DType::BF16, R * H),
      dw(ref::DType::BF16, V * H);
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -0.5, 0.5);
  std::vector<int64_t> target(R);
  for (int i = 0; i < R; ++i)
    target[i] = i % 4 == 2 ? -100 : (i * 7) % V;
  void *dX, *dW, *dT, *dGX, *dGW;
  for (auto [ptr, bytes] : {std::pair{&dX, x.data.size()}, {&dW, w.data.size()}, {&dT, target.size() * 8},
                            {&dGX, dx.data.size()}, {&dGW, dw.data.size()}})
    ASSERT_EQ(blk_jit_alloc(jit, bytes, ptr, err, sizeof err), 0) << err;
  blk_jit_upload(jit, dX, x.data.data(), x.data.size(), err, sizeof err);
  blk_jit_upload(jit, dW, w.data.data(), w.data.size(), err, sizeof err);
  blk_jit_upload(jit, dT, target.data(), target.size() * 8, err, sizeof err);
  blk_flce_args a;
  blk_flce_default_args(&a);
  a.x = dX, a.weight = dW, a.target = static_cast<const int64_t *>(dT), a.grad_input = dGX, a.grad_weight = dGW;
  a.rows = R, a.hidden = H, a.vocab = V, a.reduction = BLK_FLCE_SUM, a.label_smoothing = 0.05;
  a.chunk_rows = 16, a.tiling = BLK_FLCE_TILING_SMALL;
  double loss = NAN;
  ASSERT_EQ(blk_flce(runner, &a, &loss, err, sizeof err), 0) << err;
  blk_jit_download(jit, dx.data.data(), dGX, dx.data.size(), err, sizeof err);
  blk_jit_download(jit, dw.data.data(), dGW, dw.data.size(), err, sizeof err);
  ref::FlceReference r = ref::flceReference(c, x, w, nullptr, target);
  ref::Buffer total(ref::DType::F32, 1);
  total.set(0, loss);
  EXPECT_LT(ref::relativeError(total, {r.loss}).value, 1e-2);
  EXPECT_LT(ref::relativeError(dx, r.dx).value, 1e-2);
  EXPECT_LT(ref::relativeError(dw, r.dw).value, 1e-2);

  // An enum out of range is refused by the C layer.
  a.reduction = 7;
  EXPECT_EQ(blk_flce(runner, &a, &loss, err, sizeof err), -1);
  EXPECT_STREQ(err, "fused linear cross-entropy: reduction must be BLK_FLCE_MEAN, BLK_FLCE_SUM or BLK_FLCE_NONE, got 7");
  a.reduction = BLK_FLCE_SUM, a.dtype = 5;
  EXPECT_EQ(blk_flce(runner, &a, &loss, err, sizeof err), -1);
  EXPECT_STREQ(err, "fused linear cross-entropy: dtype must be BLK_FLCE_BF16 or BLK_FLCE_F16, got 5");
  EXPECT_EQ(blk_flce(nullptr, &a, &loss, err, sizeof err), -1);
  EXPECT_STREQ(err, "blk_flce: null argument");
  size_t bytes = 0;
  a.dtype = BLK_FLCE_BF16;
  ASSERT_EQ(blk_flce_workspace_bytes(&a, &bytes, err, sizeof err), 0) << err;
  EXPECT_EQ(bytes, size_t(16 * 48 * 2 + R * 4)); // 16 logits rows padded to 48, then the rows' losses
  for (void *p : {dX, dW, dT, dGX, dGW})
    blk_jit_free(jit, p, err, sizeof err);
  blk_ops_runner_destroy(runner);
  blk_jit_destroy(jit);
}

/// Valid arguments over interpreter memory, which each error test then breaks.
struct FlceErrors : ::testing::Test {
  Jit jit{Backend::CPU};
  std::unique_ptr<ops::KernelRunner> runner = ops::makeJitRunner(jit, kKernels);
  std::vector<void *> allocations;
  ops::FlceTensors t;
  ops::FlceOptions o;
  void *alloc(size_t bytes) {
    void *p = nullptr;
    EXPECT_TRUE(jit.alloc(bytes, &p).ok());
    allocations.push_back(p);
    return p;
  }
  void SetUp() override {
    t = {}, o = {};
    t.rows = 4, t.hidden = 16, t.vocab = 20;
    t.x = alloc(4 * 16 * 2), t.weight = alloc(20 * 16 * 2), t.gradInput = alloc(4 * 16 * 2);
    t.gradWeight = alloc(20 * 16 * 2);
    auto *target = static_cast<int64_t *>(alloc(4 * 8));
    int64_t ys[] = {1, -100, 19, 0};
    jit.upload(target, ys, sizeof ys);
    t.target = target;
    o.tiling = ops::Tiling::Small;
  }
  void TearDown() override {
    for (void *p : allocations)
      jit.free(p);
  }
  std::string error() {
    ops::FlceResult r;
    Status s = ops::fusedLinearCrossEntropy(*runner, t, o, r);
    return s.message;
  }
};

TEST_F(FlceErrors, ValidArgumentsRun) { EXPECT_EQ(error(), ""); }

TEST_F(FlceErrors, BadArgumentsAreReadableErrors) {
  const std::string p = "fused linear cross-entropy: ";
  t.weight = nullptr;
  EXPECT_EQ(error(), p + "weight is null");
  SetUp();
  t.x = static_cast<const char *>(t.x) + 2;
  EXPECT_EQ(error(), p + "x must be 16-byte aligned");
  SetUp();
  t.gradWeight = static_cast<char *>(t.gradWeight) + 8;
  EXPECT_EQ(error(), p + "grad_weight must be 16-byte aligned");
  SetUp();
  t.vocab = 0;
  EXPECT_EQ(error(), p + "rows, hidden and vocab must be positive (got 4, 16, 0)");
  SetUp();
  t.hidden = int64_t(1) << 32;
  EXPECT_EQ(error(), p + "rows, hidden and vocab must fit in i32");
  SetUp();
  t.bias = t.weight;
  EXPECT_EQ(error(), p + "a bias needs grad_bias");
  SetUp();
  t.gradBias = t.gradInput;
  EXPECT_EQ(error(), p + "grad_bias is given without a bias");
  SetUp();
  o.reduction = ops::Reduction::None;
  EXPECT_EQ(error(), p + "reduction \"none\" needs loss_rows for the rows' losses");
  o = {};
  o.tiling = ops::Tiling::Small, o.labelSmoothing = 1.5;
  EXPECT_EQ(error(), p + "label_smoothing must be in [0, 1], got 1.500000");
  o.labelSmoothing = 0, o.softcap = -1;
  EXPECT_EQ(error(), p + "softcap must be finite and non-negative (0: none), got -1.000000");
  o.softcap = 0, o.lseSquareScale = INFINITY;
  EXPECT_EQ(error(), p + "lse_square_scale must be finite");
  o.lseSquareScale = 0, o.chunkRows = 24;
  EXPECT_EQ(error(), p + "chunk_rows must be a positive multiple of 16 (or 0: from chunk_bytes), got 24");
  o.chunkRows = 0;
  t.workspace = alloc(64), t.workspaceBytes = 64;
  EXPECT_EQ(error(), p + "the workspace has 64 bytes, the call needs 272"); // 4 rows of 32 (20 padded) x 2 bytes, then 4 losses
  t.workspace = nullptr, t.workspaceBytes = 0;
  int64_t bad[] = {1, 20, 3, -1};
  jit.upload(const_cast<int64_t *>(t.target), bad, sizeof bad);
  EXPECT_EQ(error(), p + "target[1] = 20 is neither a class in [0, 20) nor ignore_index (-100)");
}

TEST(FlceApi, MissingPtxIsAReadableError) {
  std::unique_ptr<ops::KernelRunner> runner;
  Status s = ops::makePtxRunner("/nonexistent", runner);
  if (!s.ok()) { // no GPU here: the driver's reason
    EXPECT_FALSE(s.message.empty());
    return;
  }
  ops::Variant v{"fused_linear_cross_entropy", {{"T", "bf16"}}};
  Status l = runner->launch(v, "flce_logits", Grid{1, 1, 1}, {}, nullptr);
  EXPECT_EQ(l.message, "no compiled kernel /nonexistent/fused_linear_cross_entropy.bf16.ptx (scripts/build-ptx.sh makes it)");
}

} // namespace
