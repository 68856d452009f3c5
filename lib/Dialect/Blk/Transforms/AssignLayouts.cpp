#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKASSIGNLAYOUTSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
constexpr int64_t kMaxElemsPerThread = 1024;

struct AssignLayouts : impl::BlkAssignLayoutsPassBase<AssignLayouts> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1))) {
      module.emitError() << "num-warps must be a power of two from 1 to 32, got " << numWarps;
      return signalPassFailure();
    }
    // Blocks of more than one dimension need slice layouts and layout
    // conversions, which the GPU path does not have yet (the interpreter runs them).
    WalkResult multiDim = module.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t); tensor && tensor.getRank() > 1) {
          op->emitError() << "blocks of " << tensor.getRank()
                          << " dimensions are not supported on the GPU yet (blk-run runs them on the CPU)";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (multiDim.wasInterrupted())
      return signalPassFailure();
    // The widest access on blocks of each shape decides that shape's chunk.
    llvm::DenseMap<ArrayRef<int64_t>, unsigned> widest;
    auto note = [&](Value ptr, unsigned vec) {
      if (auto t = dyn_cast<RankedTensorType>(ptr.getType()))
        widest[t.getShape()] = std::max(widest.lookup(t.getShape()), vec);
    };
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        note(load.getPtr(), load.getVec());
      else if (auto store = dyn_cast<StoreOp>(op))
        note(store.getPtr(), store.getVec());
    });

    auto withLayout = [&](Type type) -> Type {
      auto t = dyn_cast<RankedTensorType>(type);
      if (!t || t.getEncoding())
        return type;
      unsigned vec = widest.lookup(t.getShape());
      if (vec == 0)
        vec = 4; // no memory access decides: a few elements per thread for ILP
      auto layout = getBlockedLayout(&getContext(), t.getShape(), numWarps, vec);
      return RankedTensorType::get(t.getShape(), t.getElementType(), layout);
    };

    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(withLayout(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(withLayout(result.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(dense.reshape(cast<ShapedType>(constant.getType())));
      }
      // A vector access never spans more than one thread's chunk.
      auto clamp = [&](Operation *mem, Value ptr, unsigned vec) {
        if (auto t = dyn_cast<RankedTensorType>(ptr.getType())) {
          unsigned chunk = ThreadTiling::get(t).contiguousRegisters();
          mem->setAttr("vec", IntegerAttr::get(IntegerType::get(&getContext(), 32), std::min(vec, chunk)));
        }
      };
      if (auto load = dyn_cast<LoadOp>(op))
        clamp(op, load.getPtr(), load.getVec());
      else if (auto store = dyn_cast<StoreOp>(op))
        clamp(op, store.getPtr(), store.getVec());
    });
    // A block far larger than the program's threads would unroll into
    // thousands of registers per thread: refuse it where it is made.
    WalkResult tooLarge = module.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t); tensor && getBlockedLayout(tensor)) {
          int64_t perThread = ThreadTiling::get(tensor).elemsPerThread();
          if (perThread > kMaxElemsPerThread) {
            op->emitError() << "a block of " << tensor.getNumElements() << " elements needs " << perThread
                            << " values per thread with " << unsigned(numWarps)
                            << " warps (at most " << kMaxElemsPerThread
                            << "); use a smaller block or more warps";
            return WalkResult::interrupt();
          }
        }
      return WalkResult::advance();
    });
    if (tooLarge.wasInterrupted())
      return signalPassFailure();
    module->setAttr(kNumWarpsAttr, IntegerAttr::get(IntegerType::get(&getContext(), 32), numWarps));
  }
};
} // namespace
} // namespace blk
