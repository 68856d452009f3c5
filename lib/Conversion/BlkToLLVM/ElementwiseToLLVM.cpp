// Elementwise arith/math ops and constants on blocks become the same ops on
// each scalar a thread holds.
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace blk {
namespace {

bool hasBlockType(Operation *op) {
  auto isBlock = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isBlock) || llvm::any_of(op->getResultTypes(), isBlock);
}

struct ElementwiseOnBlocks : ConversionPattern {
  ElementwiseOnBlocks(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::Elementwise>() || op->getNumResults() != 1 || !hasBlockType(op) ||
        op->getNumRegions() != 0)
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertType(op->getResult(0).getType(), resultTypes)))
      return failure();
    size_t n = resultTypes.size();
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i) {
      OperationState state(op->getLoc(), op->getName());
      for (ValueRange operand : operands)
        state.addOperands(operand.size() == 1 ? operand[0] : operand[i]); // scalar select condition
      state.addTypes(resultTypes[i]);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

struct SplatConstantOnBlocks : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !isa<RankedTensorType>(op.getType()))
      return failure();
    if (!dense.isSplat())
      return rewriter.notifyMatchFailure(op, "only splat block constants are supported");
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return failure();
    auto splat = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    Value scalar = isFloat8(splat.getType()) ? float8Bits(rewriter, op.getLoc(), cast<FloatAttr>(splat))
                                             : arith::ConstantOp::create(rewriter, op.getLoc(), splat).getResult();
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(types.size(), scalar)});
    return success();
  }
};

} // namespace

void populateElementwisePatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<SplatConstantOnBlocks>(tc, patterns.getContext(), /*benefit=*/2);
  patterns.add<ElementwiseOnBlocks>(tc, patterns.getContext());
}

} // namespace blk
