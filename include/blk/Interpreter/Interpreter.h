// Runs blk kernels on the CPU: the blk dialect as the frontend makes it (the
// IR the GPU pipeline compiles) or as the blk passes leave it (AfterPasses.h),
// with the language's semantics: masks and `other`, broadcasting, f16/bf16
// rounding after every operation, checked memory accesses, device_print and
// device_assert.
#ifndef BLK_INTERPRETER_INTERPRETER_H
#define BLK_INTERPRETER_INTERPRETER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"
#include <array>
#include <cstdint>

namespace blk::interp {

/// A kernel argument: a host pointer (into a buffer given to addBuffer), an
/// integer, or a float.
struct Arg {
  enum Kind { Pointer, Int, Float } kind;
  const void *ptr = nullptr;
  int64_t i = 0;
  double f = 0;
  static Arg pointer(const void *p) { return {Pointer, p}; }
  static Arg integer(int64_t v) { return {Int, nullptr, v}; }
  static Arg real(double v) { return {Float, nullptr, 0, v}; }
};

struct RunOptions {
  /// Run the programs of the grid in a shuffled order (exposes kernels that
  /// depend on program order).
  bool shuffle = false;
  uint64_t seed = 0;
  /// Where device_print writes.
  llvm::raw_ostream *printStream = &llvm::outs();
};

class Interpreter {
public:
  /// `module` holds kernels as the frontend makes them (blk dialect, no
  /// layouts) or after the blk passes (layouts, rings, asynchronous copies).
  explicit Interpreter(mlir::ModuleOp module) : module(module) {}

  /// Memory that pointer arguments may point into; every access outside all
  /// registered buffers is an error.
  void addBuffer(void *data, size_t bytes);

  /// Runs `kernel` on a grid of programs; `args` are its runtime parameters
  /// (after the passes, the TMA descriptors that follow them are built from
  /// these, as the host builds its tensor maps). Errors (out-of-bounds accesses,
  /// failed device_assert, bad arguments) are reported through the MLIR
  /// diagnostic engine at the op's source location.
  mlir::LogicalResult run(llvm::StringRef kernel, std::array<unsigned, 3> grid, llvm::ArrayRef<Arg> args,
                          const RunOptions &options = {});

private:
  mlir::ModuleOp module;
  struct Range {
    uintptr_t begin, end;
  };
  std::vector<Range> buffers;
  /// Kernels whose blocks were checked against the interpreter's limit
  /// (once per kernel, not per launch).
  llvm::DenseSet<mlir::Operation *> checkedKernels;
  friend class Executor;
};

} // namespace blk::interp

#endif
