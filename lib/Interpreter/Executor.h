// Internal to the interpreter: values and the executor of one program.
#ifndef BLK_LIB_INTERPRETER_EXECUTOR_H
#define BLK_LIB_INTERPRETER_EXECUTOR_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Interpreter/Interpreter.h"
#include "llvm/ADT/DenseMap.h"

namespace blk::interp {

/// A scalar (empty shape) or a block. Floats are held as doubles already
/// rounded to their type; integers sign-extended from their width; pointers
/// as addresses in `i`.
struct Tensor {
  mlir::Type elem;
  llvm::SmallVector<int64_t, 2> shape;
  std::vector<double> f;
  std::vector<int64_t> i;

  bool isFloat() const { return mlir::isa<mlir::FloatType>(elem); }
  size_t size() const { return isFloat() ? f.size() : i.size(); }
  static Tensor like(mlir::Type type, size_t n);
  /// Element `flat` as a one-element tensor (a scalar of the element type).
  Tensor element(size_t flat) const;
  /// Element `flat` takes element `j` of `from` (of the same element type).
  void copyElement(size_t flat, const Tensor &from, size_t j = 0);
};

/// The lines of a block along `axis`: element j of line (o, in) is at
/// (o * len + j) * inner + in.
struct AxisLines {
  int64_t outer = 1, len, inner = 1;
  AxisLines(llvm::ArrayRef<int64_t> shape, int64_t axis) : len(shape[axis]) {
    for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
      inner *= shape[d];
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
  }
  size_t at(int64_t o, int64_t j, int64_t in) const { return size_t((o * len + j) * inner + in); }
};

/// Rounds `v` to the float type `t` (f16/bf16/f32 round to nearest even).
double roundTo(mlir::Type t, double v);
/// Sign-extends the low `width` bits of `v`.
int64_t wrapInt(unsigned width, int64_t v);
/// Applies an elementwise arith/math op; failure if unsupported.
mlir::LogicalResult evalElementwise(mlir::Operation *op, llvm::ArrayRef<const Tensor *> operands, Tensor &result);

class Executor {
public:
  Executor(Interpreter &interp, const RunOptions &options, std::array<unsigned, 3> pid, std::array<unsigned, 3> grid)
      : interp(interp), options(options), pid(pid), grid(grid) {}
  mlir::LogicalResult runKernel(mlir::func::FuncOp func, llvm::ArrayRef<Arg> args);

private:
  mlir::LogicalResult execBlock(mlir::Block &block, llvm::ArrayRef<Tensor> args,
                                llvm::SmallVectorImpl<Tensor> &terminatorOperands);
  mlir::LogicalResult execOp(mlir::Operation *op);
  mlir::LogicalResult execFor(mlir::scf::ForOp op);
  mlir::LogicalResult execIf(mlir::scf::IfOp op);
  mlir::LogicalResult execWhile(mlir::scf::WhileOp op);
  mlir::LogicalResult execLoad(LoadOp op);
  mlir::LogicalResult execReduce(ReduceOp op);
  mlir::LogicalResult execScan(ScanOp op);
  mlir::LogicalResult execStore(StoreOp op);
  mlir::LogicalResult execMakeTensorDescriptor(MakeTensorDescriptorOp op);
  mlir::LogicalResult execDescriptorLoad(DescriptorLoadOp op);
  mlir::LogicalResult execDescriptorStore(DescriptorStoreOp op);
  /// Calls `fn` with the index and address of each element of `desc`'s
  /// block at `offsets` inside the tensor, after checking the access.
  mlir::LogicalResult forEachDescriptorElement(mlir::Operation *op, mlir::Value desc, mlir::ValueRange offsets,
                                               const char *what, llvm::function_ref<void(size_t, void *)> fn);
  mlir::LogicalResult execAtomicRMW(AtomicRMWOp op);
  mlir::LogicalResult execAtomicCAS(AtomicCASOp op);
  /// An error at `op` unless element `j` of `ptr` addresses `bytes` inside a buffer.
  mlir::LogicalResult checkAccess(mlir::Operation *op, const char *what, const Tensor &ptr, size_t j, size_t bytes);
  std::string programText() const;
  mlir::LogicalResult execPrint(PrintOp op);
  mlir::LogicalResult execAssert(AssertOp op);
  /// Checks that [addr, addr + bytes) lies in a registered buffer.
  bool inBounds(int64_t addr, size_t bytes) const;
  /// "(i, j)": the coordinates of element `flat` of a block.
  static std::string coordText(const Tensor &t, size_t flat);
  /// " at index (i, j)" for a block, "" for a scalar.
  static std::string indexText(const Tensor &t, size_t flat);

  const Tensor &get(mlir::Value v) { return env.find(v)->second; }
  void set(mlir::Value v, Tensor t) { env[v] = std::move(t); }

  Interpreter &interp;
  const RunOptions &options;
  std::array<unsigned, 3> pid, grid;
  llvm::DenseMap<mlir::Value, Tensor> env;
};

} // namespace blk::interp

#endif
