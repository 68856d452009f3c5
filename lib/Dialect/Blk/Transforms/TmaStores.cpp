// Stores through hidden tensor maps (blk-lower-tensor-descriptors) become
// TMA stores: the block goes to a swizzled shared-memory buffer, one thread
// copies it out, and a wait says when the buffer may be written again. A
// load through a hidden tensor map of the same block before the store (the
// old tile of C += A @ B) comes in by TMA through the same buffer, its copy
// issued as early in the trip as its offsets allow: in a persistent kernel
// it lands during the tile's products.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "blk/Dialect/Blk/IR/Layout.h"

#include "LoopSlice.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKTMASTORESPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// The outermost loop around `op` in its function, or null.
Operation *outermostLoop(Operation *op) {
  Operation *outer = nullptr;
  for (Operation *p = op->getParentOp(); p && !isa<func::FuncOp>(p); p = p->getParentOp())
    if (isa<LoopLikeOpInterface>(p))
      outer = p;
  return outer;
}

/// Whether `v` is a hidden tensor map argument (blk-lower-tensor-descriptors).
bool isHiddenTensorMap(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : func::FuncOp();
  return func && func.getArgAttr(arg.getArgNumber(), kTmaBaseAttr);
}

/// The parity of the mbarrier phase that `loop`'s current trip completes
/// (trips count from 0), or 0 outside loops.
Value tripParity(OpBuilder &b, Location loc, scf::ForOp loop) {
  if (!loop)
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value trip = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, loop.getInductionVar(), loop.getLowerBound()), loop.getStep());
  if (trip.getType() != b.getI32Type())
    trip = isa<IndexType>(trip.getType()) ? arith::IndexCastOp::create(b, loc, b.getI32Type(), trip).getResult()
                                          : arith::TruncIOp::create(b, loc, b.getI32Type(), trip).getResult();
  return arith::AndIOp::create(b, loc, trip, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1)));
}

/// Brings `load`'s block into `buffer` by TMA: the copy issued where the
/// last of its offsets is known (after the previous trip's store has read
/// the buffer), the wait and the read where the load was.
void loadThrough(DescriptorLoadOp load, Value buffer, Value bars, Operation *loop) {
  Location loc = load.getLoc();
  Block *block = load->getBlock();
  Operation *after = nullptr; // the last op of the block that an offset needs
  for (Value offset : load.getOffsets())
    if (Operation *def = offset.getDefiningOp())
      if (Operation *top = block->findAncestorOpInBlock(*def); top && (!after || after->isBeforeInBlock(top)))
        after = top;
  // Nor ahead of a write to global memory in between (it may write the tile).
  for (Operation *op = after ? after->getNextNode() : &block->front(); op != load.getOperation();
       op = op->getNextNode())
    if (op->walk([](Operation *inner) {
            return isa<StoreOp, DescriptorStoreOp, AtomicRMWOp, AtomicCASOp, AsyncTMAStoreOp, InlineAsmElementwiseOp>(inner)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted())
      after = op;
  OpBuilder b(load->getContext());
  after ? b.setInsertionPointAfter(after) : b.setInsertionPointToStart(block);
  Value slot = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  if (loop) {
    TMAStoreWaitOp::create(b, loc, ValueRange{buffer});
    BarrierOp::create(b, loc);
  }
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  AsyncTMACopyOp::create(b, loc, load.getDesc(), load.getOffsets(), buffer, slot, bars, always);
  b.setInsertionPoint(load);
  MBarrierWaitOp::create(b, loc, bars, slot, tripParity(b, loc, dyn_cast_or_null<scf::ForOp>(loop)));
  Value tile = LocalLoadOp::create(b, loc, load.getType(), buffer, slot);
  // Every thread has read the old tile before the store writes the buffer.
  BarrierOp::create(b, loc);
  load.replaceAllUsesWith(tile);
  load.erase();
}

void rewrite(DescriptorStoreOp store) {
  Location loc = store.getLoc();
  TensorDescType desc = store.getDesc().getType();
  SharedBufferType type = tmaRing(desc, 1);
  Operation *loop = outermostLoop(store);
  OpBuilder b(loop ? loop : store.getOperation());
  Value buffer = LocalAllocOp::create(b, loc, type);
  Value bars;
  DescriptorLoadOp load = loadBeforeTmaStore(store, isHiddenTensorMap);
  if (load) {
    bars = MBarrierAllocOp::create(b, loc, BarriersType::get(b.getContext(), 1), IntegerAttr());
    loadThrough(load, buffer, bars, loop);
  }
  b.setInsertionPoint(store);
  Value slot = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  if (loop && !load) {
    // The previous trip's store has read the buffer, as every thread knows
    // after the barrier.
    TMAStoreWaitOp::create(b, loc, ValueRange{buffer});
    BarrierOp::create(b, loc);
  }
  LocalStoreOp::create(b, loc, store.getValue(), buffer, slot);
  FenceAsyncSharedOp::create(b, loc);
  BarrierOp::create(b, loc);
  AsyncTMAStoreOp::create(b, loc, buffer, slot, store.getDesc(), store.getOffsets());
  b.setInsertionPointAfter(loop ? loop : store.getOperation());
  TMAStoreWaitOp::create(b, loc, ValueRange{buffer});
  // Threads other than the issuing one may reuse the memory once it waited.
  BarrierOp::create(b, loc);
  if (bars)
    MBarrierInvalOp::create(b, loc, bars);
  store.erase();
}

struct TmaStores : impl::BlkTmaStoresPassBase<TmaStores> {
  void runOnOperation() override {
    SmallVector<DescriptorStoreOp> stores;
    getOperation().walk([&](DescriptorStoreOp store) {
      if (isHiddenTensorMap(store.getDesc()))
        stores.push_back(store);
    });
    for (DescriptorStoreOp store : stores) {
      if (!hasLayout(store.getValue().getType())) {
        store.emitOpError("needs a layout on the stored block (run blk-assign-layouts first)");
        return signalPassFailure();
      }
      rewrite(store);
    }
  }
};

} // namespace
} // namespace blk
