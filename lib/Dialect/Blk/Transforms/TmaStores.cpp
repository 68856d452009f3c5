// Stores through hidden tensor maps (blk-lower-tensor-descriptors) become
// TMA stores: the block goes to a swizzled shared-memory buffer, one thread
// copies it out, and a wait says when the buffer may be written again.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "blk/Dialect/Blk/IR/Layout.h"

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

void rewrite(DescriptorStoreOp store) {
  Location loc = store.getLoc();
  TensorDescType desc = store.getDesc().getType();
  SharedBufferType type = tmaRing(desc, 1);
  Operation *loop = outermostLoop(store);
  OpBuilder b(loop ? loop : store.getOperation());
  Value buffer = LocalAllocOp::create(b, loc, type);
  b.setInsertionPoint(store);
  Value slot = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  if (loop) {
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
  store.erase();
}

struct TmaStores : impl::BlkTmaStoresPassBase<TmaStores> {
  void runOnOperation() override {
    SmallVector<DescriptorStoreOp> stores;
    getOperation().walk([&](DescriptorStoreOp store) {
      auto arg = dyn_cast<BlockArgument>(store.getDesc());
      auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()) : func::FuncOp();
      if (func && func.getArgAttr(arg.getArgNumber(), kTmaBaseAttr))
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
