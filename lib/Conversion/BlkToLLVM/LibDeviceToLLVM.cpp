// blk.extern_elementwise: a call of its libdevice function per element a
// thread holds (the PTX target links the functions called).
#include "Patterns.h"

using namespace mlir;

namespace blk {
namespace {

struct ExternElementwiseToLLVM : OpConversionPattern<ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ExternElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getElementTypeOrSelf(op.getType());
    auto module = op->getParentOfType<ModuleOp>();
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(op.getSymbol());
    if (!fn) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      SmallVector<Type> params(op.getSrcs().size(), elem);
      fn = LLVM::LLVMFuncOp::create(rewriter, loc, op.getSymbol(), LLVM::LLVMFunctionType::get(elem, params));
    }
    size_t n = adaptor.getSrcs()[0].size();
    SmallVector<Value> results;
    for (size_t i = 0; i < n; ++i) {
      SmallVector<Value> args;
      for (ValueRange src : adaptor.getSrcs())
        args.push_back(src[i]);
      results.push_back(LLVM::CallOp::create(rewriter, loc, fn, args).getResult());
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void populateLibDevicePatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ExternElementwiseToLLVM>(tc, patterns.getContext(), /*benefit=*/2);
}

} // namespace blk
