// Program identity, block construction and pointer arithmetic.
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace blk {
namespace {

template <typename X, typename Y, typename Z>
Value readAxis(OpBuilder &b, Location loc, int axis) {
  Type i32 = b.getI32Type();
  if (axis == 0)
    return X::create(b, loc, i32);
  if (axis == 1)
    return Y::create(b, loc, i32);
  return Z::create(b, loc, i32);
}

struct ProgramIdToLLVM : OpConversionPattern<ProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ProgramIdOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, readAxis<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
                               rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct NumProgramsToLLVM : OpConversionPattern<NumProgramsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(NumProgramsOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, readAxis<NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp>(
                               rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct ArangeToLLVM : OpConversionPattern<ArangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ArangeOp op, OneToNOpAdaptor, ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    if (!hasLayout(type))
      return failure();
    Location loc = op.getLoc();
    LinearLayout layout = LinearLayout::get(type);
    ThreadCoords thread = emitThreadCoords(rewriter, loc, layout);
    Value start = i32Const(rewriter, loc, op.getStart());
    SmallVector<Value> values;
    for (int64_t r = 0, e = layout.numRegisters(); r < e; ++r) {
      Value idx = thread.element(rewriter, loc, layout, r)[0];
      values.push_back(op.getStart() ? LLVM::AddOp::create(rewriter, loc, idx, start).getResult() : idx);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct SplatToLLVM : OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return failure();
    Value src = adaptor.getSrc().front();
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(types.size(), src)});
    return success();
  }
};

struct AddPtrToLLVM : OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type pointee = memoryElementType(cast<PointerType>(getElementTypeOrSelf(op.getType())).getPointeeType());
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
    SmallVector<Value> results;
    ValueRange ptrs = adaptor.getPtr(), offs = adaptor.getOffset();
    for (size_t i = 0; i < ptrs.size(); ++i)
      results.push_back(LLVM::GEPOp::create(rewriter, op.getLoc(), ptrType, pointee, ptrs[i],
                                            ValueRange{offs[i]}, LLVM::GEPNoWrapFlags::inbounds));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// Pointers to addresses and back, one per element.
template <typename Op, typename LLVMOp>
struct AddressCastToLLVM : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<Op>::OneToNOpAdaptor;
  LogicalResult matchAndRewrite(Op op, OneToNOpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(this->getTypeConverter()->convertType(op.getType(), types)))
      return failure();
    SmallVector<Value> results;
    for (auto [src, type] : llvm::zip_equal(adaptor.getSrc(), types))
      results.push_back(LLVMOp::create(rewriter, op.getLoc(), type, src));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// A scalar pointer chosen at run time (a branch assigning one of two
/// pointers, folded into arith.select): llvm.select of the addresses.
struct SelectPointerToLLVM : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<PointerType>(op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, adaptor.getCondition(), adaptor.getTrueValue(),
                                                adaptor.getFalseValue());
    return success();
  }
};

struct AssumeToLLVM : OpConversionPattern<AssumeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AssumeOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {adaptor.getSrc()});
    return success();
  }
};

} // namespace

void populateProgramOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ProgramIdToLLVM, NumProgramsToLLVM, ArangeToLLVM, SplatToLLVM, AddPtrToLLVM, AssumeToLLVM,
               SelectPointerToLLVM,
               AddressCastToLLVM<PtrToIntOp, LLVM::PtrToIntOp>, AddressCastToLLVM<IntToPtrOp, LLVM::IntToPtrOp>>(
      tc, patterns.getContext());
}

} // namespace blk
