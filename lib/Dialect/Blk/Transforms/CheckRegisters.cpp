// A warning where a block cannot stay in registers (Passes.td).
#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"
#include "blk/Support/InternalErrors.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKCHECKREGISTERSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
struct CheckRegisters : impl::BlkCheckRegistersPassBase<CheckRegisters> {
  using Base::Base;

  void runOnOperation() override {
    unsigned warps = 4;
    if (auto attr = getOperation()->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      warps = unsigned(attr.getInt());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      int64_t most = 0;
      Operation *at = nullptr;
      RankedTensorType type;
      func.walk([&](Operation *op) {
        for (Type t : op->getResultTypes())
          if (auto tensor = dyn_cast<RankedTensorType>(t);
              tensor && hasLayout(tensor) && !isa<PointerType>(tensor.getElementType()))
            // The most values per thread; of equals, the largest block.
            if (int64_t values = LinearLayout::get(tensor).numRegisters();
                values > most || (values == most && tensor.getNumElements() > type.getNumElements()))
              most = values, at = op, type = tensor;
      });
      if (most > registers)
        mlir::emitWarning(userLocation(at))
            << "a block of " << type.getNumElements() << " elements holds " << most << " values per thread with "
            << warps << " warps, more than the " << registers - 1
            << " registers a thread has: expect register spills (slow loads and stores of local memory); use a "
               "smaller block or more warps";
    }
  }
};
} // namespace
} // namespace blk
