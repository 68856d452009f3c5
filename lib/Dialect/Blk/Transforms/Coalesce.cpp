// Coalescing. Layout assignment gives each accessed 2-D block the layout
// most of its accesses run along. An access contiguous along another dimension (a column
// of a row-major matrix, the load side of a transpose) gets a layout with that
// dimension fastest, so that a warp's lanes and each thread's vector cover
// consecutive addresses; conversions around it join the block's layout.
// An access along the last dimension of a block whose layout runs along
// another (layout assignment chose that one for a tile read through strides
// in a loop) gets one too, when its addresses are contiguous there.
// A store of a tensor-core accumulator goes through a blocked layout too, and
// so does a float atomic add of one (vector atomics need a thread's
// consecutive elements).
#include "blk/Analysis/AxisInfo.h"
#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "Rematerialize.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKCOALESCEPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
/// The blocked layout `op` should access its block in, or null when its
/// current one already runs along the access's dimension. A block in
/// another kind of layout (a tensor-core accumulator's or operand's, when a
/// load shares its mask with one) is accessed in a blocked layout of its own
/// when its registers do not hold the access's vectors.
BlockedLayoutAttr coalescedLayout(Operation *op, Value ptr, unsigned dim, unsigned vec, unsigned numWarps) {
  auto t = dyn_cast<RankedTensorType>(ptr.getType());
  if (!t || t.getRank() != 2 || !hasLayout(t))
    return {};
  BlockedLayoutAttr current = getBlockedLayout(t);
  if (current ? current.getOrder()[0] == dim : LinearLayout::get(t).contiguousRegisters(dim) >= vec)
    return {};
  SmallVector<unsigned> order{dim};
  for (unsigned d = t.getRank(); d-- > 0;)
    if (d != dim)
      order.push_back(d);
  return getBlockedLayout(op->getContext(), t.getShape(), numWarps, vec, order);
}

/// The blocked layout a store of a tensor-core result should write from, or
/// null. The accumulator's layout gives each thread two consecutive elements
/// per row (4 bytes for 16-bit types: half a sector); one conversion through
/// shared memory lets every thread store full vectors instead.
BlockedLayoutAttr accumulatorStoreLayout(RankedTensorType stored, unsigned dim, unsigned vec, unsigned numWarps) {
  if (LinearLayout::get(stored).contiguousRegisters(dim) >= vec)
    return {};
  SmallVector<unsigned> order{dim, 1 - dim};
  return getBlockedLayout(stored.getContext(), stored.getShape(), numWarps, vec, order);
}

struct Coalesce : impl::BlkCoalescePassBase<Coalesce> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto numWarps = module->getAttrOfType<IntegerAttr>(kNumWarpsAttr);
    std::optional<AxisInfoAnalysis> axis; // made when an access needs it
    // An access along its block's last dimension (no vec_dim) whose layout
    // runs along another, with addresses contiguous along the last.
    auto acrossLayout = [&](Value ptr, unsigned dim) {
      auto t = dyn_cast<RankedTensorType>(ptr.getType());
      BlockedLayoutAttr current = t ? getBlockedLayout(t) : BlockedLayoutAttr();
      if (!current || t.getRank() != 2 || current.getOrder()[0] == dim)
        return false;
      if (!axis)
        axis.emplace(module);
      return axis->get(ptr).contiguity[dim] > 1;
    };
    WalkResult result = module.walk([&](Operation *op) {
      auto load = dyn_cast<LoadOp>(op);
      auto store = dyn_cast<StoreOp>(op);
      auto rmw = dyn_cast<AtomicRMWOp>(op);
      if (!load && !store && !(rmw && rmw.hasVectorForm()))
        return WalkResult::advance();
      // Float atomic adds are written as stores are (split-K's partial tiles).
      Value ptr = load ? load.getPtr() : store ? store.getPtr() : rmw.getPtr();
      unsigned dim = load ? load.getAccessDim() : store ? store.getAccessDim() : rmw.getAccessDim();
      unsigned vec = load ? load.getVec() : store ? store.getVec() : rmw.getVec();
      Value written = store ? store.getValue() : rmw ? rmw.getValue() : Value();
      BlockedLayoutAttr layout;
      // A tensor-core accumulator (mma layouts are 2-D).
      auto stored = written ? dyn_cast<RankedTensorType>(written.getType()) : nullptr;
      bool accumulator = stored && isa_and_nonnull<MmaLayoutAttr>(stored.getEncoding());
      auto ptrType = dyn_cast<RankedTensorType>(ptr.getType());
      // A 2-D load in another kind of layout is coalesced when its pointer
      // and mask can be computed in the new layout for free (a 1-D load in
      // a slice of a tensor-core layout, a row statistic, stays where its
      // reader broadcasts it).
      bool unblocked = load && ptrType && ptrType.getRank() >= 2 && hasLayout(ptrType) && !getBlockedLayout(ptrType) &&
                       isRecomputable(load.getPtr()) && (!load.getMask() || isRecomputable(load.getMask()));
      if (op->hasAttr("vec_dim") || accumulator || unblocked || acrossLayout(ptr, dim)) {
        if (!numWarps) {
          op->emitError() << "blk-coalesce needs the layouts of blk-assign-layouts (no " << kNumWarpsAttr
                          << " on the module)";
          return WalkResult::interrupt();
        }
        layout = accumulator ? accumulatorStoreLayout(stored, dim, vec, numWarps.getInt())
                             : coalescedLayout(op, ptr, dim, vec, numWarps.getInt());
      }
      if (layout)
        relayout(op, layout);
      clampVector(op, op->getOperand(0), dim, vec); // the pointer, in its layout now
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// Converts every block operand of `op` to `layout` and its result back.
  static void relayout(Operation *op, BlockedLayoutAttr layout) {
    OpBuilder b(op);
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()))
        operand.set(ConvertLayoutOp::create(b, op->getLoc(), withEncoding(operand.get().getType(), layout),
                                            operand.get()));
    b.setInsertionPointAfter(op);
    for (OpResult r : op->getResults()) {
      Type old = r.getType();
      r.setType(withEncoding(old, layout));
      auto back = ConvertLayoutOp::create(b, op->getLoc(), old, r);
      r.replaceAllUsesExcept(back, back);
    }
  }

  /// A vector access never spans more than one thread's run of elements.
  static void clampVector(Operation *op, Value ptr, unsigned dim, unsigned vec) {
    auto t = dyn_cast<RankedTensorType>(ptr.getType());
    if (!t || !hasLayout(t))
      return;
    unsigned run = LinearLayout::get(t).contiguousRegisters(dim);
    op->setAttr("vec", IntegerAttr::get(IntegerType::get(op->getContext(), 32), std::min(vec, run)));
  }
};
} // namespace
} // namespace blk
