#include "Patterns.h"

using namespace mlir;

namespace blk {

ThreadTypeConverter::ThreadTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  addConversion([ctx](PointerType) -> Type { return LLVM::LLVMPointerType::get(ctx, 1); });
  addConversion([this](RankedTensorType t, SmallVectorImpl<Type> &out) -> std::optional<LogicalResult> {
    if (!getBlockedLayout(t))
      return std::nullopt; // no layout: not convertible
    Type elem = convertType(t.getElementType());
    out.append(ThreadTiling::get(t).elemsPerThread(), elem);
    return success();
  });
}

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(int32_t(v)));
}

ThreadBase emitThreadBase(OpBuilder &b, Location loc, const ThreadTiling &t) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value lane = LLVM::AndOp::create(b, loc, tid, i32Const(b, loc, kWarpSize - 1));
  Value warp = LLVM::LShrOp::create(b, loc, tid, i32Const(b, loc, 5));
  unsigned rank = t.shape.size();
  SmallVector<Value> laneCoord(rank), warpCoord(rank);
  // Lanes and warps are numbered fastest dimension first (the layout's order).
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = t.order[i];
    laneCoord[d] = LLVM::URemOp::create(b, loc, lane, i32Const(b, loc, t.threadsPerWarp[d]));
    lane = LLVM::UDivOp::create(b, loc, lane, i32Const(b, loc, t.threadsPerWarp[d]));
    warpCoord[d] = LLVM::URemOp::create(b, loc, warp, i32Const(b, loc, t.warpsPerCTA[d]));
    warp = LLVM::UDivOp::create(b, loc, warp, i32Const(b, loc, t.warpsPerCTA[d]));
  }
  ThreadBase base;
  for (unsigned d = 0; d < rank; ++d) {
    Value idx = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, warpCoord[d], i32Const(b, loc, t.threadsPerWarp[d])),
        laneCoord[d]);
    if (t.tile[d] > t.shape[d]) {
      // More threads than chunks along d: threads wrap around and hold copies.
      int64_t chunks = t.shape[d] / t.sizePerThread[d];
      Value own = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, idx, i32Const(b, loc, chunks));
      base.owner = base.owner ? LLVM::AndOp::create(b, loc, base.owner, own).getResult() : own;
      idx = LLVM::URemOp::create(b, loc, idx, i32Const(b, loc, chunks));
    }
    base.coords.push_back(LLVM::MulOp::create(b, loc, idx, i32Const(b, loc, t.sizePerThread[d])));
  }
  return base;
}

} // namespace blk
