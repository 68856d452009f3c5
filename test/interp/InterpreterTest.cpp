// The CPU interpreter: every kernel of kernels/ against the float64
// references the GPU tests use, and the interpreter's own semantics.
#include "../common/ElementwiseCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"
#include "Program.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

struct Param {
  size_t caseIndex;
  ref::DType type;
  size_t n;
};

class Kernels : public testing::TestWithParam<Param> {};

TEST_P(Kernels, MatchFloat64Reference) {
  BLK_SEEDED_RNG(rng);
  const Param &p = GetParam();
  // Interpreted, a variant specialized on n runs as the plain one: n16 off.
  ref::expectChecks(ref::elementwiseCase(interpLaunch, ref::elementwiseCases()[p.caseIndex], p.type, p.n, false, rng));
}

std::vector<Param> params() {
  std::vector<Param> ps;
  for (size_t c = 0; c < ref::elementwiseCases().size(); ++c)
    for (ref::DType t : {ref::DType::F32, ref::DType::F16, ref::DType::BF16})
      for (size_t n : {size_t(1), size_t(1000), size_t(1008), size_t(4097)})
        ps.push_back({c, t, n});
  return ps;
}

INSTANTIATE_TEST_SUITE_P(All, Kernels, testing::ValuesIn(params()), [](const auto &info) {
  return std::string(ref::elementwiseCases()[info.param.caseIndex].file) + "_" + ref::name(info.param.type) + "_n" +
         std::to_string(info.param.n);
});

TEST(Interpreter, MaskedLanesTakeOther) {
  Program prog("@kernel\n"
               "def k(X: *f32, Out: *f32, n: i32):\n"
               "    offs = arange(0, 8)\n"
               "    store(Out + offs, load(X + offs, mask=offs < n, other=7.5))\n");
  ASSERT_TRUE(prog.module) << prog.diagnostics;
  float x[3] = {1, 2, 3}, out[8];
  interp::Interpreter in(*prog.module);
  in.addBuffer(x, sizeof x);
  in.addBuffer(out, sizeof out);
  ASSERT_TRUE(mlir::succeeded(in.run("k", {1, 1, 1}, {interp::Arg::pointer(x), interp::Arg::pointer(out),
                                                      interp::Arg::integer(3)})))
      << prog.diagnostics;
  EXPECT_EQ(out[2], 3.0f);
  for (int i = 3; i < 8; ++i)
    EXPECT_EQ(out[i], 7.5f) << i; // masked-off loads never touched memory beyond x
}

TEST(Interpreter, OutOfBoundsAccessIsReportedWithLocationAndIndex) {
  Program prog("@kernel\n"
               "def k(X: *f32, n: i32):\n"
               "    offs = arange(0, 8)\n"
               "    x = load(X + offs)\n");
  ASSERT_TRUE(prog.module);
  float x[5] = {};
  interp::Interpreter in(*prog.module);
  in.addBuffer(x, sizeof x);
  EXPECT_TRUE(mlir::failed(in.run("k", {1, 1, 1}, {interp::Arg::pointer(x), interp::Arg::integer(8)})));
  EXPECT_NE(prog.diagnostics.find("out-of-bounds load in program (0, 0, 0) at index (5)"), std::string::npos)
      << prog.diagnostics;
}

TEST(Interpreter, OutOfBoundsStoreIsReported) {
  Program prog("@kernel\n"
               "def k(X: *i32):\n"
               "    store(X + arange(0, 4) + program_id(0) * 4, 1)\n");
  ASSERT_TRUE(prog.module);
  int32_t x[6] = {};
  interp::Interpreter in(*prog.module);
  in.addBuffer(x, sizeof x);
  EXPECT_TRUE(mlir::failed(in.run("k", {2, 1, 1}, {interp::Arg::pointer(x)})));
  EXPECT_NE(prog.diagnostics.find("out-of-bounds store in program (1, 0, 0) at index (2)"), std::string::npos)
      << prog.diagnostics;
}

TEST(Interpreter, HalfPrecisionRoundsAfterEveryOperation) {
  // (x + y) - x with y below half an ulp of x: 0 in bf16/f16, y in f32.
  const char *src = "@kernel\n"
                    "def k(X: *T, Y: *T, Out: *T, T: dtype):\n"
                    "    x = load(X)\n"
                    "    store(Out, (x + load(Y)) - x)\n";
  for (auto [type, tiny, expect] : {std::tuple{ref::DType::BF16, 1.0 / 512, 0.0},
                                    std::tuple{ref::DType::F16, 1.0 / 4096, 0.0},
                                    std::tuple{ref::DType::F32, 1.0 / 512, 1.0 / 512}}) {
    Program prog(src, {{"T", ref::name(type)}});
    ASSERT_TRUE(prog.module) << prog.diagnostics;
    ref::Buffer x(type, 1), y(type, 1), out(type, 1);
    x.set(0, 1.0);
    y.set(0, tiny);
    interp::Interpreter in(*prog.module);
    for (ref::Buffer *b : {&x, &y, &out})
      in.addBuffer(b->data.data(), b->data.size());
    ASSERT_TRUE(mlir::succeeded(in.run("k", {1, 1, 1}, {interp::Arg::pointer(x.data.data()),
                                                        interp::Arg::pointer(y.data.data()),
                                                        interp::Arg::pointer(out.data.data())})));
    EXPECT_EQ(out.get(0), expect) << ref::name(type);
  }
}

TEST(Interpreter, DeviceAssertAndPrint) {
  Program prog("@kernel\n"
               "def k(X: *i32, n: i32):\n"
               "    i = load(X + arange(0, 2))\n"
               "    device_print(\"i = \", i)\n"
               "    device_assert(i < n, \"i out of range\")\n");
  ASSERT_TRUE(prog.module);
  int32_t x[2] = {3, 9};
  std::string printed;
  llvm::raw_string_ostream os(printed);
  interp::RunOptions options;
  options.printStream = &os;
  interp::Interpreter in(*prog.module);
  in.addBuffer(x, sizeof x);
  EXPECT_TRUE(mlir::failed(in.run("k", {1, 1, 1}, {interp::Arg::pointer(x), interp::Arg::integer(5)}, options)));
  EXPECT_EQ(printed, "pid (0, 0, 0) idx (0) i = 3\npid (0, 0, 0) idx (1) i = 9\n");
  EXPECT_NE(prog.diagnostics.find("device_assert failed in program (0, 0, 0) at index (1): i out of range"),
            std::string::npos)
      << prog.diagnostics;
}

TEST(Interpreter, ControlFlowAndIntegerSemantics) {
  Program prog("def tri(k):\n"
               "    s = 0\n"
               "    for i in range(0, k):\n"
               "        s += i\n"
               "    return s\n"
               "@kernel\n"
               "def k(Out: *i32, n: i32, u: u32):\n"
               "    j = 1\n"
               "    while j < n:\n"
               "        j = j * 2\n"
               "    if n > 5:\n"
               "        store(Out, tri(n))\n"
               "    else:\n"
               "        store(Out, -1)\n"
               "    store(Out + 1, j)\n"
               "    store(Out + 2, -7 // 2)\n"
               "    store(Out + 3, n // -2)\n"
               "    store(Out + 4, (u >> 1).to(i32))\n");
  ASSERT_TRUE(prog.module) << prog.diagnostics;
  int32_t out[5] = {};
  interp::Interpreter in(*prog.module);
  in.addBuffer(out, sizeof out);
  ASSERT_TRUE(mlir::succeeded(in.run("k", {1, 1, 1}, {interp::Arg::pointer(out), interp::Arg::integer(7),
                                                      interp::Arg::integer(int64_t(0xfffffffe))})))
      << prog.diagnostics;
  EXPECT_EQ(out[0], 21);  // 0 + 1 + ... + 6
  EXPECT_EQ(out[1], 8);
  EXPECT_EQ(out[2], -4);  // constants fold with Python's floor division
  EXPECT_EQ(out[3], -3);  // runtime integer division truncates, as on the GPU
  EXPECT_EQ(out[4], 0x7fffffff); // unsigned shift
}

TEST(Interpreter, RefusesBadArguments) {
  Program prog("@kernel\ndef k(X: *f32, n: i32):\n    pass\n");
  ASSERT_TRUE(prog.module);
  interp::Interpreter in(*prog.module);
  EXPECT_TRUE(mlir::failed(in.run("k", {1, 1, 1}, {interp::Arg::integer(1)})));
  EXPECT_NE(prog.diagnostics.find("takes 2 arguments, got 1"), std::string::npos);
  EXPECT_TRUE(mlir::failed(in.run("k", {1, 1, 1}, {interp::Arg::integer(1), interp::Arg::integer(1)})));
  EXPECT_NE(prog.diagnostics.find("argument 0 of kernel 'k' must be a pointer"), std::string::npos);
}

} // namespace

namespace {
TEST(Interpreter, TwoDimensionalBlocksBroadcast) {
  Program prog("@kernel\n"
               "def add2d(X: *f32, Y: *f32, Out: *f32, M: i32, N: i32, stride: i32, BM: constexpr = 4, BN: constexpr = 8):\n"
               "    rows = program_id(0) * BM + arange(0, BM)\n"
               "    cols = program_id(1) * BN + arange(0, BN)\n"
               "    offs = rows[:, None] * stride + cols[None, :]\n"
               "    mask = (rows[:, None] < M) & (cols[None, :] < N)\n"
               "    x = load(X + offs, mask=mask, other=0.0)\n"
               "    y = load(Y + cols, mask=cols < N)\n"
               "    store(Out + offs, x + y[None, :] * 10.0 + rows[:, None], mask=mask)\n");
  ASSERT_TRUE(prog.module) << prog.diagnostics;
  const int M = 7, N = 11;
  std::vector<float> x(M * N), y(N), out(M * N, NAN);
  for (int i = 0; i < M * N; ++i)
    x[i] = float(i) * 0.5f;
  for (int j = 0; j < N; ++j)
    y[j] = float(j);
  interp::Interpreter in(*prog.module);
  in.addBuffer(x.data(), x.size() * 4);
  in.addBuffer(y.data(), y.size() * 4);
  in.addBuffer(out.data(), out.size() * 4);
  ASSERT_TRUE(mlir::succeeded(in.run("add2d", {2, 2, 1},
                                     {interp::Arg::pointer(x.data()), interp::Arg::pointer(y.data()),
                                      interp::Arg::pointer(out.data()), interp::Arg::integer(M),
                                      interp::Arg::integer(N), interp::Arg::integer(N)})))
      << prog.diagnostics;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      EXPECT_EQ(out[r * N + c], x[r * N + c] + 10.0f * c + r) << r << "," << c;
}

TEST(Interpreter, TwoDimensionalOutOfBoundsNamesBothCoordinates) {
  Program prog("@kernel\n"
               "def k(X: *f32):\n"
               "    offs = arange(0, 4)[:, None] * 4 + arange(0, 4)[None, :]\n"
               "    store(X + offs, 1.0)\n");
  ASSERT_TRUE(prog.module) << prog.diagnostics;
  float x[10];
  interp::Interpreter in(*prog.module);
  in.addBuffer(x, sizeof x);
  EXPECT_TRUE(mlir::failed(in.run("k", {1, 1, 1}, {interp::Arg::pointer(x)})));
  EXPECT_NE(prog.diagnostics.find("out-of-bounds store in program (0, 0, 0) at index (2, 2)"), std::string::npos)
      << prog.diagnostics;
}

// argmax/argmin (first occurrence wins), max with indices, keep_dims, method
// forms and whole-block reductions of a 2-D block (flat indices).
TEST(Interpreter, ReductionsWithIndices) {
  Program prog("@kernel\n"
               "def k(X: *f32, Out: *f32, Idx: *i32):\n"
               "    r = arange(0, 4)\n"
               "    c = arange(0, 8)\n"
               "    x = load(X + r[:, None] * 8 + c[None, :])\n"
               "    store(Idx + r, argmax(x, axis=1))\n"
               "    m, i = min(x, axis=0, return_indices=True)\n"
               "    store(Out + c, m)\n"
               "    store(Idx + 4 + c, i)\n"
               "    store(Idx + 12, argmax(x, axis=None))\n"
               "    store(Out + 8, x.sum())\n"
               "    k = sum(x, axis=1, keep_dims=True)\n"
               "    store(Out + 9 + r[:, None], k)\n"
               "    store(Out + 13, max(x, axis=None, keep_dims=True).sum())\n");
  ASSERT_TRUE(prog.module) << prog.diagnostics;
  std::vector<float> x(32), out(14, -1);
  std::vector<int32_t> idx(13, -1);
  for (int i = 0; i < 32; ++i)
    x[i] = float((i * 7) % 5); // ties: the first index must win
  x[19] = 9;
  interp::Interpreter in(*prog.module);
  in.addBuffer(x.data(), x.size() * 4);
  in.addBuffer(out.data(), out.size() * 4);
  in.addBuffer(idx.data(), idx.size() * 4);
  ASSERT_TRUE(mlir::succeeded(in.run("k", {1, 1, 1},
                                     {interp::Arg::pointer(x.data()), interp::Arg::pointer(out.data()),
                                      interp::Arg::pointer(idx.data())})))
      << prog.diagnostics;
  double total = 0;
  for (int r = 0; r < 4; ++r) {
    int best = 0;
    double rowSum = 0;
    for (int c = 0; c < 8; ++c) {
      if (x[r * 8 + c] > x[r * 8 + best])
        best = c;
      rowSum += x[r * 8 + c];
    }
    EXPECT_EQ(idx[r], best) << "row " << r;
    EXPECT_EQ(out[9 + r], rowSum) << "row " << r;
    total += rowSum;
  }
  for (int c = 0; c < 8; ++c) {
    int best = 0;
    for (int r = 0; r < 4; ++r)
      if (x[r * 8 + c] < x[best * 8 + c])
        best = r;
    EXPECT_EQ(out[c], x[best * 8 + c]) << "column " << c;
    EXPECT_EQ(idx[4 + c], best) << "column " << c;
  }
  EXPECT_EQ(idx[12], 19);
  EXPECT_EQ(out[8], total);
  EXPECT_EQ(out[13], 9.0f);
}
} // namespace
