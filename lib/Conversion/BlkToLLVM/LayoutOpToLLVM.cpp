// Ops that change which thread or register holds an element: expand_dims and
// broadcast (register renames), convert_layout (a rename, or a round trip
// through shared memory), and the barrier that orders shared-memory accesses.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

using CoordMap = llvm::function_ref<LinearLayout::Coord(const LinearLayout::Coord &)>;

/// The registers of `to` taken from the registers of `from` holding the same
/// element (`toSource` maps a coordinate of `to` to one of `from`). Fails
/// when the two layouts do not place elements on the same threads.
FailureOr<SmallVector<Value>> renameRegisters(const LinearLayout &from, const LinearLayout &to, ValueRange values,
                                              CoordMap toSource) {
  for (unsigned i = 0; i < to.lanes.size(); ++i)
    if (i >= from.lanes.size() || toSource(to.lanes[i]) != from.lanes[i])
      return failure();
  for (unsigned i = 0; i < to.warps.size(); ++i)
    if (i >= from.warps.size() || toSource(to.warps[i]) != from.warps[i])
      return failure();
  llvm::DenseMap<int64_t, int64_t> regOf;
  for (int64_t r = 0; r < from.numRegisters(); ++r)
    regOf[from.linearIndex(from.registerCoord(r))] = r;
  SmallVector<Value> out;
  for (int64_t r = 0; r < to.numRegisters(); ++r) {
    auto it = regOf.find(from.linearIndex(toSource(to.registerCoord(r))));
    if (it == regOf.end())
      return failure();
    out.push_back(values[it->second]);
  }
  return out;
}

struct ExpandDimsToLLVM : OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!hasLayout(op.getSrc().getType()) || !hasLayout(op.getType()))
      return failure();
    unsigned axis = op.getAxis();
    auto dropAxis = [&](const LinearLayout::Coord &c) {
      LinearLayout::Coord out(c);
      out.erase(out.begin() + axis);
      return out;
    };
    auto regs = renameRegisters(LinearLayout::get(op.getSrc().getType()), LinearLayout::get(op.getType()),
                                adaptor.getSrc(), dropAxis);
    if (failed(regs))
      return op.emitOpError("source layout must be the result's layout sliced along the new axis");
    rewriter.replaceOpWithMultiple(op, {*regs});
    return success();
  }
};

struct BroadcastToLLVM : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BroadcastOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!hasLayout(op.getSrc().getType()) || !hasLayout(op.getType()))
      return failure();
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    auto toSource = [&](const LinearLayout::Coord &c) {
      LinearLayout::Coord out(c);
      for (unsigned d = 0; d < out.size(); ++d)
        if (srcShape[d] == 1)
          out[d] = 0;
      return out;
    };
    auto regs = renameRegisters(LinearLayout::get(op.getSrc().getType()), LinearLayout::get(op.getType()),
                                adaptor.getSrc(), toSource);
    if (failed(regs))
      return op.emitOpError("source and result layouts must have the same parent");
    rewriter.replaceOpWithMultiple(op, {*regs});
    return success();
  }
};

/// Row-major index of `coords` in a block of `shape` (i32).
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
  Value idx = coords[0];
  for (unsigned d = 1; d < coords.size(); ++d)
    idx = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, idx, i32Const(b, loc, shape[d])), coords[d]);
  return idx;
}

struct ConvertLayoutToLLVM : OpConversionPattern<ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), dstType = op.getType();
    if (!hasLayout(srcType) || !hasLayout(dstType))
      return failure();
    LinearLayout from = LinearLayout::get(srcType), to = LinearLayout::get(dstType);
    ValueRange values = adaptor.getSrc();
    if (!crossesThreads(from, to)) {
      auto regs = renameRegisters(from, to, values, [](const LinearLayout::Coord &c) { return c; });
      if (failed(regs))
        return failure();
      rewriter.replaceOpWithMultiple(op, {*regs});
      return success();
    }
    auto offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offset)
      return op.emitOpError("needs shared memory: run blk-allocate-shared-memory first");
    // Every thread writes what it holds at the element's row-major position,
    // then reads what the new layout gives it.
    Location loc = op.getLoc();
    Type elem = values[0].getType();
    bool isBool = elem.isInteger(1);
    Type memType = isBool ? rewriter.getI8Type() : elem;
    auto sharedPtr = LLVM::LLVMPointerType::get(getContext(), 3);
    Value base = sharedAddress(rewriter, loc, offset.getInt());
    auto slot = [&](ArrayRef<Value> coords) {
      Value idx = linearIndex(rewriter, loc, coords, srcType.getShape());
      return LLVM::GEPOp::create(rewriter, loc, sharedPtr, memType, base, ValueRange{idx});
    };
    ThreadCoords src = emitThreadCoords(rewriter, loc, from);
    for (int64_t r = 0; r < from.numRegisters(); ++r) {
      Value v = isBool ? LLVM::ZExtOp::create(rewriter, loc, memType, values[r]).getResult() : values[r];
      LLVM::StoreOp::create(rewriter, loc, v, slot(src.element(rewriter, loc, from, r)));
    }
    NVVM::Barrier0Op::create(rewriter, loc);
    ThreadCoords dst = emitThreadCoords(rewriter, loc, to);
    SmallVector<Value> out;
    for (int64_t r = 0; r < to.numRegisters(); ++r) {
      Value v = LLVM::LoadOp::create(rewriter, loc, memType, slot(dst.element(rewriter, loc, to, r)));
      out.push_back(isBool ? LLVM::TruncOp::create(rewriter, loc, elem, v).getResult() : v);
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

struct BarrierToLLVM : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    NVVM::Barrier0Op::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateLayoutOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ExpandDimsToLLVM, BroadcastToLLVM, ConvertLayoutToLLVM, BarrierToLLVM>(tc, patterns.getContext());
}

} // namespace blk
