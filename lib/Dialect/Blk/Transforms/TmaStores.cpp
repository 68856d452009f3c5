// Stores through hidden tensor maps (blk-lower-tensor-descriptors) become
// TMA stores: the block goes to a swizzled shared-memory buffer, one thread
// copies it out, and a wait says when the buffer may be written again. A
// load through a hidden tensor map of the same block before the store (the
// old tile of C += A @ B) comes in by TMA through the same buffer, its copy
// issued during the tile's products in a persistent kernel.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "blk/Dialect/Blk/IR/Layout.h"

#include "LoopSlice.h"
#include "WarpSpecialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// `loop`'s current trip, counted from 0, as i32.
Value tripIndex(OpBuilder &b, Location loc, scf::ForOp loop) {
  return blk::tripIndex(b, loc, loop.getInductionVar(), loop.getLowerBound(), loop.getStep());
}

/// The parity of the mbarrier phase that `loop`'s current trip completes,
/// or 0 outside loops.
Value tripParity(OpBuilder &b, Location loc, scf::ForOp loop) {
  if (!loop)
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  return arith::AndIOp::create(b, loc, tripIndex(b, loc, loop),
                               arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1)));
}

/// The first loop of `load`'s block after `after` (the block's start when
/// null) and before `load`.
scf::ForOp loopBefore(DescriptorLoadOp load, Operation *after) {
  for (Operation *op = after ? after->getNextNode() : &load->getBlock()->front(); op != load.getOperation();
       op = op->getNextNode())
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return loop;
  return {};
}

/// Issues the copy into `buffer` by the thread that issues the TMA stores,
/// once they have read it: in the middle trip of `products` (a loop between
/// the offsets and the load, such as the tile's products), so that the
/// previous trip's store drains during the first half and the copy lands
/// during the second; after the loop when it runs no trip.
void copyDuring(scf::ForOp products, DescriptorLoadOp load, Value buffer, Value slot, Value bars) {
  Location loc = load.getLoc();
  OpBuilder b(products);
  Value trips = tripCount(b, loc, products.getLowerBound(), products.getUpperBound(), products.getStep());
  auto i32 = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantOp::create(at, loc, at.getI32IntegerAttr(int32_t(v)));
  };
  Value middle = arith::DivSIOp::create(b, loc, trips, i32(b, 2));
  OpBuilder in = OpBuilder::atBlockBegin(products.getBody());
  Value now = arith::CmpIOp::create(in, loc, arith::CmpIPredicate::eq, tripIndex(in, loc, products), middle);
  AsyncTMACopyOp::create(in, loc, load.getDesc(), load.getOffsets(), buffer, slot, bars, now).setAfterStores(true);
  b.setInsertionPointAfter(products);
  Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, trips, i32(b, 0));
  AsyncTMACopyOp::create(b, loc, load.getDesc(), load.getOffsets(), buffer, slot, bars, none).setAfterStores(true);
}

/// Moves the ops of `block` that compute `v` without memory effects up to
/// just after the last op their operands need: an offset computed where the
/// source reads it (after the tile's products) is known before them.
void hoistPure(Value v, Block *block) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getBlock() != block || def->getNumRegions() || !isMemoryEffectFree(def))
    return;
  Operation *last = nullptr;
  for (Value operand : def->getOperands()) {
    hoistPure(operand, block);
    if (Operation *in = operand.getDefiningOp())
      if (Operation *top = block->findAncestorOpInBlock(*in); top && (!last || last->isBeforeInBlock(top)))
        last = top;
  }
  last ? def->moveAfter(last) : def->moveBefore(&block->front());
}

/// Whether `op` or an op inside it may write memory (ops that declare no
/// effects and hold none of their regions' are taken to write).
bool mayWrite(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
        bool writes = effects ? effects.hasEffect<MemoryEffects::Write>()
                              : !inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
        return writes ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Brings `load`'s block into `buffer` by TMA: the copy issued as early as
/// its offsets allow, after any write to global memory in between and after
/// the previous trip's store has read the buffer; the wait and the read
/// where the load was.
void loadThrough(DescriptorLoadOp load, Value buffer, Value bars, Operation *loop) {
  Location loc = load.getLoc();
  Block *block = load->getBlock();
  Operation *after = nullptr; // the last op of the block that an offset needs
  for (Value offset : load.getOffsets()) {
    hoistPure(offset, block);
    if (Operation *def = offset.getDefiningOp())
      if (Operation *top = block->findAncestorOpInBlock(*def); top && (!after || after->isBeforeInBlock(top)))
        after = top;
  }
  // Nor ahead of a write in between (it may write the tile).
  for (Operation *op = after ? after->getNextNode() : &block->front(); op != load.getOperation();
       op = op->getNextNode())
    if (mayWrite(op))
      after = op;
  OpBuilder b(load->getContext());
  after ? b.setInsertionPointAfter(after) : b.setInsertionPointToStart(block);
  Value slot = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  scf::ForOp products = loop ? loopBefore(load, after) : scf::ForOp();
  if (products) {
    // Waiting here for the previous trip's store to read the buffer would
    // hold up the products (measured on an H200: 1.71 against 1.48 ms for
    // fused linear cross-entropy's weight gradient at a depth of 1024).
    copyDuring(products, load, buffer, slot, bars);
  } else {
    if (loop) {
      TMAStoreWaitOp::create(b, loc, ValueRange{buffer});
      BarrierOp::create(b, loc);
    }
    Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    AsyncTMACopyOp::create(b, loc, load.getDesc(), load.getOffsets(), buffer, slot, bars, always);
  }
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
