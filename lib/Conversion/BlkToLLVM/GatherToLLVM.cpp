// blk.gather through shared memory: every thread writes the source elements
// it owns at their row-major positions (padded per row, as a layout move's
// buffer), and after a barrier reads, for each element of the result, the
// source element that its index names along the axis.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

/// An index register as an i32 (narrower indices were widened by the
/// frontend with their signedness; a wider one keeps its low bits, which
/// are all an index inside the axis has).
Value indexAsI32(OpBuilder &b, Location loc, Value v) {
  unsigned bits = v.getType().getIntOrFloatBitWidth();
  if (bits == 32)
    return v;
  if (bits > 32)
    return LLVM::TruncOp::create(b, loc, b.getI32Type(), v);
  return LLVM::SExtOp::create(b, loc, b.getI32Type(), v);
}

struct GatherToLLVM : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(GatherOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), dstType = op.getType();
    if (!hasLayout(srcType) || !hasLayout(dstType))
      return failure();
    FailureOr<int64_t> offset = scratchOffset(op);
    if (failed(offset))
      return failure();
    Location loc = op.getLoc();
    LinearLayout from = LinearLayout::get(srcType), to = LinearLayout::get(dstType);
    ValueRange values = adaptor.getSrc(), indices = adaptor.getIndex();
    Type elem = values[0].getType();
    ArrayRef<int64_t> shape = srcType.getShape();
    int64_t period = sharedPadPeriod(srcType);
    auto slot = [&](ArrayRef<Value> coords) {
      Value index = emitPaddedIndex(rewriter, loc, emitLinearIndex(rewriter, loc, coords, shape), period);
      return sharedElement(rewriter, loc, *offset, elem, index);
    };
    // Copies of an element (a source smaller than its threads) leave its
    // write to the owner.
    ThreadCoords src = emitThreadCoords(rewriter, loc, from);
    for (int64_t r = 0; r < from.numRegisters(); ++r) {
      storeSharedVectorIf(rewriter, loc, values.slice(r, 1), slot(src.element(rewriter, loc, from, r)), src.owner);
    }
    emitBarrier(rewriter, loc);
    // An index outside the axis (undefined) reads inside the buffer: the
    // axis is a power of two, so the index is taken modulo it.
    unsigned axis = op.getAxis();
    Value wrap = i32Const(rewriter, loc, shape[axis] - 1);
    ThreadCoords dst = emitThreadCoords(rewriter, loc, to);
    SmallVector<Value> out;
    for (int64_t r = 0; r < to.numRegisters(); ++r) {
      SmallVector<Value> coords = dst.element(rewriter, loc, to, r);
      coords[axis] = LLVM::AndOp::create(rewriter, loc, indexAsI32(rewriter, loc, indices[r]), wrap);
      out.push_back(loadShared(rewriter, loc, elem, slot(coords)));
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

} // namespace

void populateGatherPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<GatherToLLVM>(tc, patterns.getContext());
}

} // namespace blk
