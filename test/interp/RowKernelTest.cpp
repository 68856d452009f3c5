// The row kernels (softmax, RMSNorm, LayerNorm, cross-entropy; forward and
// backward) on the CPU interpreter against the float64 references shared
// with the GPU tests, at ragged sizes.
#include "../common/RowCases.h"
#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Frontend/MLIRGen.h"
#include "blk/Frontend/Parser.h"
#include "blk/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include <gtest/gtest.h>

using namespace blk;

namespace {

std::string interpLaunch(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                         unsigned grid, std::vector<ref::KArg> args) {
  auto buf = llvm::MemoryBuffer::getFile(std::string(BLK_SOURCE_DIR) + "/kernels/" + file + ".blk");
  if (!buf)
    return "cannot read kernels/" + file + ".blk";
  mlir::MLIRContext ctx;
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return mlir::success();
  });
  auto ast = parseFile(ctx, (*buf)->getBuffer(), file + ".blk");
  if (!ast)
    return diagnostics;
  GenOptions options;
  for (auto &[k, v] : bindings)
    options.defines[k] = v;
  auto module = generateModule(ctx, *ast, options);
  if (!module)
    return diagnostics;
  interp::Interpreter in(*module);
  std::vector<interp::Arg> iargs;
  for (ref::KArg &a : args) {
    if (a.kind == ref::KArg::Buf) {
      in.addBuffer(a.buf->data.data(), a.buf->data.size());
      iargs.push_back(interp::Arg::pointer(a.buf->data.data()));
    } else if (a.kind == ref::KArg::Int) {
      iargs.push_back(interp::Arg::integer(a.i));
    } else {
      iargs.push_back(interp::Arg::real(a.f));
    }
  }
  interp::RunOptions run;
  run.shuffle = true;
  if (mlir::failed(in.run(kernel, {grid, 1, 1}, iargs, run)))
    return diagnostics.empty() ? "the run failed" : diagnostics;
  return "";
}

void expectChecks(const std::vector<ref::Check> &checks) {
  ASSERT_FALSE(checks.empty());
  for (const ref::Check &c : checks)
    EXPECT_LT(c.error, c.tolerance) << c.what;
}

struct Shape {
  int rows, cols;
};
const Shape kShapes[] = {{3, 1}, {5, 100}, {4, 1000}};
const ref::DType kTypes[] = {ref::DType::F32, ref::DType::F16, ref::DType::BF16};

TEST(RowKernels, Softmax) {
  std::mt19937_64 rng(std::random_device{}());
  for (ref::DType t : kTypes)
    for (Shape s : kShapes) {
      SCOPED_TRACE(std::string(ref::name(t)) + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols));
      expectChecks(ref::softmaxCase(interpLaunch, t, s.rows, s.cols, rng));
    }
}

TEST(RowKernels, RMSNormLlamaAndGemma) {
  std::mt19937_64 rng(std::random_device{}());
  // (One column is left out: there dX is a cancellation to about eps.)
  for (ref::DType t : kTypes)
    for (Shape s : {Shape{3, 3}, Shape{5, 100}, Shape{4, 1000}})
      for (int mode : {0, 1}) {
        SCOPED_TRACE(std::string(ref::name(t)) + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols) +
                     " mode " + std::to_string(mode));
        expectChecks(ref::rmsNormCase(interpLaunch, t, s.rows, s.cols, rng, mode, mode ? 1.0 : 0.0));
      }
}

TEST(RowKernels, LayerNorm) {
  std::mt19937_64 rng(std::random_device{}());
  for (ref::DType t : kTypes)
    for (Shape s : kShapes) {
      SCOPED_TRACE(std::string(ref::name(t)) + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols));
      expectChecks(ref::layerNormCase(interpLaunch, t, s.rows, s.cols, rng));
    }
}

TEST(RowKernels, CrossEntropyVariants) {
  std::mt19937_64 rng(std::random_device{}());
  std::vector<ref::CrossEntropyOptions> variants = {
      {}, {0, 0.1, 0, 0, -100}, {1, 0, 1e-4, 0, -100}, {2, 0.05, 0, 0, 3}, {1, 0, 0, 30.0, -100}};
  for (ref::DType t : kTypes)
    for (Shape s : {Shape{5, 1000}, Shape{4, 5000}})
      for (size_t v = 0; v < variants.size(); ++v) {
        SCOPED_TRACE(std::string(ref::name(t)) + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols) +
                     " variant " + std::to_string(v));
        expectChecks(ref::crossEntropyCase(interpLaunch, t, s.rows, s.cols, rng, variants[v]));
      }
}

} // namespace
