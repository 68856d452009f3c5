#include "blk/Analysis/AxisInfo.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

namespace blk {
#define GEN_PASS_DEF_BLKVECTORIZEMEMORYPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
struct VectorizeMemory : impl::BlkVectorizeMemoryPassBase<VectorizeMemory> {
  void runOnOperation() override {
    AxisInfoAnalysis axis(getOperation());
    auto i32 = [&](int64_t v) { return mlir::IntegerAttr::get(mlir::IntegerType::get(&getContext(), 32), v); };
    auto annotate = [&](mlir::Operation *op, mlir::Value ptr, mlir::Value mask) {
      unsigned dim = axis.contiguousDim(ptr);
      op->setAttr("vec", i32(axis.accessVectorWidth(ptr, mask, dim)));
      // Only a dimension other than the last is spelled out.
      auto t = mlir::dyn_cast<mlir::RankedTensorType>(ptr.getType());
      if (t && dim + 1 != t.getRank())
        op->setAttr("vec_dim", i32(dim));
      else
        op->removeAttr("vec_dim");
    };
    getOperation()->walk([&](mlir::Operation *op) {
      if (auto load = mlir::dyn_cast<LoadOp>(op))
        annotate(op, load.getPtr(), load.getMask());
      else if (auto store = mlir::dyn_cast<StoreOp>(op))
        annotate(op, store.getPtr(), store.getMask());
      else if (auto rmw = mlir::dyn_cast<AtomicRMWOp>(op); rmw && rmw.hasVectorForm())
        annotate(op, rmw.getPtr(), rmw.getMask());
    });
  }
};
} // namespace
} // namespace blk
