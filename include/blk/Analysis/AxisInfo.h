// AxisInfo: what is known about the integer and pointer values of a kernel,
// per dimension, so that memory accesses can be widened to vectors.
//   contiguity:   runs of this many consecutive values (each +1 from the last)
//   divisibility: the first value of every such run is a multiple of this
//                 (bytes for pointers)
//   constancy:    runs of this many equal values
#ifndef BLK_ANALYSIS_AXISINFO_H
#define BLK_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::scf {
class ForOp;
}

namespace blk {

struct AxisInfo {
  llvm::SmallVector<int64_t, 2> contiguity, divisibility, constancy;
  /// Set when the value is a known integer constant (splat or scalar).
  std::optional<int64_t> constant;

  /// Nothing is known: runs of length one, divisible by one.
  static AxisInfo unknown(unsigned rank);
  /// What holds for a value that is either `a` or `b` (a loop-carried value).
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b);
  bool operator==(const AxisInfo &o) const {
    return contiguity == o.contiguity && divisibility == o.divisibility && constancy == o.constancy &&
           constant == o.constant;
  }
  unsigned rank() const { return contiguity.size(); }
  void print(llvm::raw_ostream &os) const;
};

/// Largest divisibility tracked; beyond it a value counts as "divisible by anything".
inline constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

class AxisInfoAnalysis {
public:
  /// Analyses every value in `root` (a function or a module) in program order.
  explicit AxisInfoAnalysis(mlir::Operation *root);
  /// A copy: a later lookup may grow the map and move what it holds.
  AxisInfo get(mlir::Value v);

  /// Widest vector (in elements) a load or store through `ptr` may use along
  /// dimension `dim`: contiguous, aligned to the vector's size, at most 16
  /// bytes, and under a single value of `mask` when there is one.
  unsigned accessVectorWidth(mlir::Value ptr, mlir::Value mask, unsigned dim);
  /// The dimension along which `ptr`'s addresses are contiguous the longest
  /// (the last one on ties and for scalars).
  unsigned contiguousDim(mlir::Value ptr);

private:
  void visit(mlir::Operation *op);
  void visitBlock(mlir::Block &block);
  /// Loop-carried values: start from the initial values, analyse the body,
  /// join with what the body yields, until nothing changes.
  void visitLoop(mlir::scf::ForOp loop);
  AxisInfo compute(mlir::Operation *op, mlir::Value result);
  llvm::DenseMap<mlir::Value, AxisInfo> infos;
};

} // namespace blk

#endif
