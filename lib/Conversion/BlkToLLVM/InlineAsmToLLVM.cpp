// blk.inline_asm_elementwise: the user's PTX once per `packed_element`
// elements of each thread's registers, as Triton lowers it: values narrower
// than 32 bits packed into 32-bit vectors, results first in the numbering.
#include "Patterns.h"

using namespace mlir;

namespace blk {
namespace {

struct InlineAsmElementwiseToLLVM : OpConversionPattern<InlineAsmElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(InlineAsmElementwiseOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned pack = unsigned(op.getPackedElement());
    size_t n = adaptor.getArgs()[0].size();
    // The register types of one value of element type `t`: vectors of the
    // elements one register holds, or the element itself.
    auto registerType = [&](Type t) -> Type {
      unsigned per = InlineAsmElementwiseOp::elementsPerRegister(t.getIntOrFloatBitWidth(), pack);
      return per == 1 ? t : Type(VectorType::get({int64_t(per)}, t));
    };
    SmallVector<Type> resultElems;
    for (Type t : op.getResultTypes()) {
      SmallVector<Type> converted;
      if (failed(getTypeConverter()->convertType(t, converted)) || converted.empty())
        return failure();
      resultElems.push_back(converted[0]);
    }
    SmallVector<Type> asmResults;
    for (Type t : resultElems)
      for (unsigned r = 0; r < InlineAsmElementwiseOp::registersPerValue(t.getIntOrFloatBitWidth(), pack); ++r)
        asmResults.push_back(registerType(t));
    Type asmType = asmResults.size() == 1 ? asmResults[0]
                                          : Type(LLVM::LLVMStructType::getLiteral(getContext(), asmResults));
    SmallVector<SmallVector<Value>> results(resultElems.size());
    for (size_t start = 0; start < n; start += pack) {
      // A thread's last group may be short (fewer elements than `pack`):
      // the missing lanes carry undefined values and their results are dropped.
      SmallVector<Value> operands;
      for (ValueRange arg : adaptor.getArgs()) {
        Type t = arg[0].getType();
        Type reg = registerType(t);
        unsigned per = isa<VectorType>(reg) ? unsigned(cast<VectorType>(reg).getNumElements()) : 1;
        for (unsigned j = 0; j < pack; j += per) {
          auto element = [&](unsigned k) -> Value {
            size_t idx = start + j + k;
            return idx < n ? arg[idx] : LLVM::UndefOp::create(rewriter, loc, t).getResult();
          };
          if (per == 1) {
            operands.push_back(element(0));
            continue;
          }
          Value v = LLVM::UndefOp::create(rewriter, loc, reg);
          for (unsigned k = 0; k < per; ++k)
            v = LLVM::InsertElementOp::create(rewriter, loc, v, element(k), i32Const(rewriter, loc, k));
          operands.push_back(v);
        }
      }
      Value out = inlineAsm(rewriter, loc, asmType, operands, op.getAsmString(), op.getConstraints(),
                            /*sideEffects=*/!op.getPure());
      unsigned slot = 0;
      for (size_t r = 0; r < resultElems.size(); ++r) {
        Type reg = registerType(resultElems[r]);
        unsigned per = isa<VectorType>(reg) ? unsigned(cast<VectorType>(reg).getNumElements()) : 1;
        for (unsigned j = 0; j < pack; j += per, ++slot) {
          Value regValue = asmResults.size() == 1 ? out : LLVM::ExtractValueOp::create(rewriter, loc, out, slot);
          for (unsigned k = 0; k < per; ++k) {
            if (start + j + k >= n)
              continue;
            results[r].push_back(per == 1 ? regValue
                                          : LLVM::ExtractElementOp::create(rewriter, loc, regValue,
                                                                           i32Const(rewriter, loc, k))
                                                .getResult());
          }
        }
      }
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void populateInlineAsmPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<InlineAsmElementwiseToLLVM>(tc, patterns.getContext(), /*benefit=*/2);
}

} // namespace blk
