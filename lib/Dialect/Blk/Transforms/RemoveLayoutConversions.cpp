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
    bool sliceable = isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr, SliceLayoutAttr>(encoding);
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

  /// A loop-carried block that the loop only converts to one layout and
  /// advances (a pointer tile moved by a step each iteration, read by a load
  /// coalesced in a layout of its own) is carried in that layout instead:
  /// converting it every iteration would move the whole tile through shared
  /// memory. Its initial value, the advance's other operands and the loop's
  /// result get conversions, which the rematerialization below removes where
  /// they are recomputable. Returns whether anything changed.
  bool carryInConvertedLayout() {
    bool changed = false;
    getOperation().walk([&](scf::ForOp loop) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type || !hasLayout(type))
          continue;
        // Uses: conversions to one layout, and one advance the yield carries.
        Attribute target;
        Operation *advance = nullptr;
        bool ok = true;
        for (Operation *user : arg.getUsers()) {
          if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
            Attribute t = encodingOf(convert.getResult());
            ok &= !target || target == t;
            target = t;
          } else if (!advance && user->getNumResults() == 1 && isRematerializable(user) &&
                     user->getResult(0).hasOneUse() && yield.getOperand(i) == user->getResult(0)) {
            advance = user;
          } else {
            ok = false;
          }
        }
        if (!ok || !target || !advance || !hasLayout(withEncoding(type, target)))
          continue;
        Type carried = withEncoding(type, target);
        OpBuilder b(loop);
        OpOperand &init = loop.getInitsMutable()[i];
        init.set(ConvertLayoutOp::create(b, loop.getLoc(), carried, init.get()));
        arg.setType(carried);
        b.setInsertionPoint(advance);
        for (OpOperand &operand : advance->getOpOperands())
          if (operand.get() != arg)
            if (auto t = dyn_cast<RankedTensorType>(operand.get().getType()); t && t.getEncoding() != target)
              operand.set(ConvertLayoutOp::create(b, advance->getLoc(), withEncoding(t, target), operand.get()));
        advance->getResult(0).setType(withEncoding(advance->getResult(0).getType(), target));
        Value result = loop.getResult(i);
        result.setType(carried);
        b.setInsertionPointAfter(loop);
        auto back = ConvertLayoutOp::create(b, loop.getLoc(), type, result);
        result.replaceAllUsesExcept(back, back);
        for (Operation *user : llvm::make_early_inc_range(arg.getUsers()))
          if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
            convert.getResult().replaceAllUsesWith(arg);
            convert.erase();
          }
        changed = true;
      }
    });
    return changed;
  }

  void runOnOperation() override {
    rematerialized.clear();
    carryInConvertedLayout();
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
