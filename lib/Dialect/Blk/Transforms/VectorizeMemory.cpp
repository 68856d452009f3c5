#include "blk/Analysis/AxisInfo.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

namespace blk {
#define GEN_PASS_DEF_BLKVECTORIZEMEMORYPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
struct VectorizeMemory : impl::BlkVectorizeMemoryPassBase<VectorizeMemory> {
  void runOnOperation() override {
    AxisInfoAnalysis axis(getOperation());
    auto setVec = [](mlir::Operation *op, unsigned vec) {
      op->setAttr("vec", mlir::IntegerAttr::get(mlir::IntegerType::get(op->getContext(), 32), vec));
    };
    getOperation()->walk([&](mlir::Operation *op) {
      if (auto load = mlir::dyn_cast<LoadOp>(op))
        setVec(op, axis.accessVectorWidth(load.getPtr(), load.getMask()));
      else if (auto store = mlir::dyn_cast<StoreOp>(op))
        setVec(op, axis.accessVectorWidth(store.getPtr(), store.getMask()));
    });
  }
};
} // namespace
} // namespace blk
