#include "blk/Analysis/AxisInfo.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

namespace blk {
#define GEN_PASS_DEF_BLKTESTPRINTAXISINFOPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
struct TestPrintAxisInfo : impl::BlkTestPrintAxisInfoPassBase<TestPrintAxisInfo> {
  void runOnOperation() override {
    AxisInfoAnalysis axis(getOperation());
    getOperation()->walk([&](mlir::Operation *op) {
      if (op->getNumResults() != 1)
        return;
      mlir::Type elem = getElementTypeOrSelf(op->getResult(0).getType());
      if (!elem.isSignlessInteger() && !mlir::isa<PointerType>(elem))
        return;
      std::string text;
      llvm::raw_string_ostream os(text);
      axis.get(op->getResult(0)).print(os);
      op->emitRemark() << text;
    });
  }
};
} // namespace
} // namespace blk
