// Programs per SM that ptxas should leave registers for (Passes.td).
#include "Occupancy.h"

#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKPROGRAMSPERSMPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
struct ProgramsPerSM : impl::BlkProgramsPerSMPassBase<ProgramsPerSM> {
  using Base::Base;

  void runOnOperation() override {
    int64_t warps = 4;
    if (auto attr = getOperation()->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      warps = attr.getInt();
    int64_t threads = warps * kWarpSize;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func->hasAttr(kProducerWarpsAttr))
        continue;
      int64_t accumulators = 0;
      func.walk([&](WarpGroupDotOp dot) { accumulators += accumulatorRegisters(dot.getType()); });
      if (!accumulators)
        continue;
      int64_t shared = 0;
      if (auto attr = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr))
        shared = attr.getInt();
      // Two programs, the case measured, where their register cap binds
      // (below 255 per thread: 8 warps or more).
      if (std::min(programsBySharedMemory(shared, sharedMemoryLimit), programsByRegisters(accumulators, threads)) >= 2 &&
          registersPerThread(2, threads) < kMaxRegistersPerThread)
        func->setAttr(kProgramsPerSMAttr, IntegerAttr::get(IntegerType::get(&getContext(), 32), 2));
    }
  }
};
} // namespace
} // namespace blk
