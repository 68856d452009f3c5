// Conversion removal. A layout conversion moves a block between threads
// through shared memory; when the block is computed from scalars, constants
// and index arithmetic (pointers and masks), computing it again in the target
// layout is a few integer instructions per element and no memory traffic.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "Rematerialize.h"

#include "blk/Dialect/Blk/IR/Layout.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Iterators.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKREMOVELAYOUTCONVERSIONSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
using Key = std::pair<Value, Attribute>;

Attribute encodingOf(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t ? t.getEncoding() : Attribute();
}

/// The layout operand `operand` of `op` needs for `op`'s result to have
/// `encoding`, or null when there is none.
Attribute operandEncoding(Operation *op, Attribute encoding) {
  if (isa<ExpandDimsOp>(op)) {
    bool sliceable = isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr>(encoding);
    return sliceable ? SliceLayoutAttr::get(op->getContext(), cast<ExpandDimsOp>(op).getAxis(), encoding) : Attribute();
  }
  return encoding;
}

struct RemoveLayoutConversions : impl::BlkRemoveLayoutConversionsPassBase<RemoveLayoutConversions> {
  using Base::Base;

  /// Values already computed again in a layout, by (original, layout).
  llvm::DenseMap<Key, Value> rematerialized;

  Value lookup(Value v, Attribute encoding) {
    Attribute current = encodingOf(v);
    return !current || current == encoding ? v : rematerialized.lookup({v, encoding});
  }

  /// Appends to `steps`, operands first, the ops that compute `v` in
  /// `encoding`; false when some value on the way cannot be recomputed.
  bool plan(Value v, Attribute encoding, SmallVectorImpl<Key> &steps, llvm::DenseSet<Key> &planned) {
    if (lookup(v, encoding) || planned.contains({v, encoding}))
      return true;
    Operation *op = v.getDefiningOp();
    if (!op || !isRematerializable(op) || steps.size() >= maxOps)
      return false;
    Attribute want = operandEncoding(op, encoding);
    if (!want)
      return false;
    for (Value operand : op->getOperands())
      if (!plan(operand, want, steps, planned))
        return false;
    planned.insert({v, encoding});
    steps.push_back({v, encoding});
    return true;
  }

  void execute(ArrayRef<Key> steps) {
    for (auto [v, encoding] : steps) {
      Operation *op = v.getDefiningOp();
      Attribute want = operandEncoding(op, encoding);
      if (auto convert = dyn_cast<ConvertLayoutOp>(op)) { // the conversion is not needed
        rematerialized[{v, encoding}] = lookup(convert.getSrc(), encoding);
        continue;
      }
      IRMapping mapping;
      for (Value operand : op->getOperands())
        mapping.map(operand, lookup(operand, want));
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      Operation *clone = b.clone(*op, mapping);
      auto t = cast<RankedTensorType>(v.getType());
      auto type = RankedTensorType::get(t.getShape(), t.getElementType(), encoding);
      clone->getResult(0).setType(type);
      if (auto constant = dyn_cast<arith::ConstantOp>(clone))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(dense.reshape(type));
      rematerialized[{v, encoding}] = clone->getResult(0);
    }
  }

  /// A conversion of a block defined in front of a loop moves there: once,
  /// not every iteration. Only where the result holds no more values per
  /// thread than the source, so that no more registers stay live across the
  /// loop (a tile loaded before the loop read as a dot operand).
  void hoistInvariantConversions() {
    SmallVector<ConvertLayoutOp> converts;
    getOperation().walk([&](ConvertLayoutOp op) { converts.push_back(op); });
    for (ConvertLayoutOp convert : converts) {
      auto from = convert.getSrc().getType(), to = convert.getType();
      if (!hasLayout(from) || !hasLayout(to) ||
          LinearLayout::get(to).numRegisters() > LinearLayout::get(from).numRegisters())
        continue;
      while (auto loop = dyn_cast<scf::ForOp>(convert->getParentOp())) {
        if (!loop.isDefinedOutsideOfLoop(convert.getSrc()))
          break;
        convert->moveBefore(loop);
      }
    }
  }

  void runOnOperation() override {
    rematerialized.clear();
    // A conversion of a conversion that nothing else reads moves the
    // elements once, from the first layout (a load coalesced in a layout of
    // its own, then read as a tensor-core operand); the loop below drops it
    // when the two match.
    getOperation().walk([&](ConvertLayoutOp op) {
      auto inner = op.getSrc().getDefiningOp<ConvertLayoutOp>();
      if (!inner || !inner->hasOneUse())
        return;
      op.getSrcMutable().assign(inner.getSrc());
      inner.erase();
    });
    SmallVector<ConvertLayoutOp> converts;
    getOperation().walk([&](ConvertLayoutOp op) { converts.push_back(op); });
    for (ConvertLayoutOp convert : converts) {
      Attribute target = encodingOf(convert.getResult());
      SmallVector<Key> steps;
      llvm::DenseSet<Key> planned;
      if (!plan(convert.getSrc(), target, steps, planned))
        continue;
      execute(steps);
      convert.getResult().replaceAllUsesWith(lookup(convert.getSrc(), target));
      convert.erase();
    }
    hoistInvariantConversions();
    // The originals of recomputed values may have no users left.
    getOperation().walk<WalkOrder::PostOrder, mlir::ReverseIterator>([](Operation *op) {
      if (op->getNumRegions() == 0 && isOpTriviallyDead(op))
        op->erase();
    });
  }
};
} // namespace
} // namespace blk
