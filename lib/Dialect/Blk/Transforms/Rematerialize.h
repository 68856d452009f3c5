// Which blocks blk-remove-layout-conversions computes again in another
// layout instead of moving them through shared memory: pure index and
// pointer arithmetic from scalars and constants. Passes that give an access
// a layout of its own (blk-coalesce) ask first whether its pointer and mask
// can follow for free.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_REMATERIALIZE_H
#define BLK_DIALECT_BLK_TRANSFORMS_REMATERIALIZE_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace blk {

/// Ops recomputed in another layout: pure, and cheap next to a round trip
/// through shared memory.
inline bool isRematerializable(mlir::Operation *op) {
  if (mlir::isa<ArangeOp, SplatOp, ExpandDimsOp, BroadcastOp, AddPtrOp, ConvertLayoutOp, mlir::arith::ConstantOp,
                mlir::arith::SelectOp>(op))
    return true;
  return op->hasTrait<mlir::OpTrait::Elementwise>() && op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         mlir::isMemoryEffectFree(op);
}

/// Whether block `v` is computed by rematerializable ops from scalars alone
/// (no loop-carried block, no load), through at most `budget` ops.
inline bool isRecomputable(mlir::Value v, int budget = 64) {
  llvm::SmallPtrSet<mlir::Operation *, 16> seen;
  llvm::SmallVector<mlir::Value> work{v};
  while (!work.empty()) {
    mlir::Value w = work.pop_back_val();
    if (!mlir::isa<mlir::RankedTensorType>(w.getType()))
      continue;
    mlir::Operation *op = w.getDefiningOp();
    if (!op || !isRematerializable(op))
      return false;
    if (!seen.insert(op).second)
      continue;
    if (int(seen.size()) > budget)
      return false;
    llvm::append_range(work, op->getOperands());
  }
  return true;
}

} // namespace blk

#endif
