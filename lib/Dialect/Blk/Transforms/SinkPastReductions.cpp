// Work a reduction's or scan's result does not need, moved below it where
// fewer values then wait across it (Passes.td).
#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKSINKPASTREDUCTIONSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// Registers a thread holds for `v`: a broadcast, an expanded dimension or
/// a splat repeats its source's registers; scalars (live in one register
/// wherever they are read) and pointers (addresses fold into their
/// accesses) count nothing.
int64_t registersOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || isa<PointerType>(type.getElementType()))
    return 0;
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<BroadcastOp, ExpandDimsOp>(def))
    return registersOf(def->getOperand(0));
  if (isa_and_nonnull<SplatOp>(def))
    return 0;
  return hasLayout(type) ? LinearLayout::get(type).numRegisters() : type.getNumElements();
}

/// Whether `op` may move below a reduction: pure arithmetic on values in
/// registers (no memory, no shared-memory moves, no regions, no pointers).
bool movable(Operation *op) {
  if (!isPure(op) || op->getNumRegions() || op->getNumResults() != 1 || isa<ConvertLayoutOp>(op))
    return false;
  auto isPointer = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return isa<PointerType>(tensor ? tensor.getElementType() : t);
  };
  return !isPointer(op->getResult(0).getType()) &&
         llvm::none_of(op->getOperandTypes(), [&](Type t) { return isPointer(t); });
}

/// The ops before `red` in its block whose results only ops after it (or
/// other such ops) read, moved below it when the registers waiting across
/// it drop by `minSaved` or more: their results read after it against the
/// values they read from before it that nothing else keeps live across it.
/// (A few registers are not worth reordering code that ptxas schedules
/// around the reduction's shuffles and barriers: attention's rescaling
/// factors, a handful of registers, run beside its row sums.)
void sinkPast(Operation *red, int64_t minSaved) {
  Block *block = red->getBlock();
  llvm::SetVector<Operation *> cone; // collected bottom-up
  auto readAfter = [&](Operation *user) {
    Operation *at = block->findAncestorOpInBlock(*user);
    return at && at != red && red->isBeforeInBlock(at);
  };
  for (Operation *op = red->getPrevNode(); op; op = op->getPrevNode()) {
    if (!movable(op) || op->use_empty())
      continue;
    if (llvm::all_of(op->getUsers(), [&](Operation *u) { return cone.contains(u) || readAfter(u); }))
      cone.insert(op);
  }
  if (cone.empty())
    return;
  int64_t waitingNow = 0, waitingAfter = 0;
  llvm::SmallPtrSet<Value, 8> inputs;
  for (Operation *op : cone) {
    if (llvm::any_of(op->getUsers(), [&](Operation *u) { return !cone.contains(u); }))
      waitingNow += registersOf(op->getResult(0));
    for (Value in : op->getOperands()) {
      Operation *def = in.getDefiningOp();
      if ((def && cone.contains(def)) || !inputs.insert(in).second)
        continue;
      // Live across the reduction anyway: read by it, after it, or defined
      // outside this block.
      bool live = !def || def->getBlock() != block || llvm::any_of(in.getUsers(), [&](Operation *u) {
                    return !cone.contains(u) && (block->findAncestorOpInBlock(*u) == red || readAfter(u));
                  });
      if (!live)
        waitingAfter += registersOf(in);
    }
  }
  if (waitingNow - waitingAfter < minSaved)
    return;
  Operation *after = red;
  for (Operation *op : llvm::reverse(cone)) {
    op->moveAfter(after);
    after = op;
  }
}

struct SinkPastReductions : impl::BlkSinkPastReductionsPassBase<SinkPastReductions> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> reductions;
    getOperation()->walk([&](Operation *op) {
      if (isa<ReduceOp, ScanOp>(op))
        reductions.push_back(op);
    });
    for (Operation *red : reductions)
      sinkPast(red, minRegistersSaved);
  }
};

} // namespace
} // namespace blk
