#include "blk/Conversion/Passes.h"
#include "Patterns.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKLOWERTONVVMPASS
#include "blk/Conversion/Passes.h.inc"

namespace {

/// One f32 PTX instruction written inline ("ex2.approx.f32 $0, $1;").
Value inlineF32(OpBuilder &b, Location loc, StringRef text, ValueRange operands) {
  std::string constraints = "=f";
  for (size_t i = 0; i < operands.size(); ++i)
    constraints += ",f";
  return inlineAsm(b, loc, b.getF32Type(), operands, text, constraints, /*sideEffects=*/false);
}

/// exp, exp2, log and log2 on f32 use the hardware's approximations, as
/// Triton does: ex2.approx (about 2 ulp) and lg2.approx (absolute error about
/// 2^-22), with exp scaled by log2(e) before and log by ln(2) after, so that a
/// kernel does not inline libdevice's expf/logf at every element. ex2 flushes
/// subnormals (.ftz): without it ptxas wraps each ex2 in a range test and two
/// multiplies, and a result under 2^-126 is below every tolerance of a
/// softmax. lg2 keeps subnormal inputs, whose logarithms are finite.
template <typename MathOp>
struct ApproxF32 : ConvertOpToLLVMPattern<MathOp> {
  using ConvertOpToLLVMPattern<MathOp>::ConvertOpToLLVMPattern;
  static constexpr bool isExp = std::is_same_v<MathOp, math::ExpOp> || std::is_same_v<MathOp, math::Exp2Op>;

  LogicalResult matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Location loc = op.getLoc();
    auto scale = [&](Value v, float factor) {
      Value f = LLVM::ConstantOp::create(rewriter, loc, rewriter.getF32Type(), rewriter.getF32FloatAttr(factor));
      return LLVM::FMulOp::create(rewriter, loc, v, f).getResult();
    };
    Value x = adaptor.getOperand();
    if (std::is_same_v<MathOp, math::ExpOp>)
      x = scale(x, 1.4426950408889634f);
    Value r = inlineF32(rewriter, loc, isExp ? "ex2.approx.ftz.f32 $0, $1;" : "lg2.approx.f32 $0, $1;", x);
    if (std::is_same_v<MathOp, math::LogOp>)
      r = scale(r, 0.6931471805599453f);
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// Division of f32 uses div.full.f32 (within 2 ulp), as Triton's `/` does;
/// divisions marked precise (div_rn) keep IEEE rounding.
struct FastDivF32 : ConvertOpToLLVMPattern<arith::DivFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32() || op->hasAttr(kPreciseAttr))
      return failure();
    rewriter.replaceOp(op, inlineF32(rewriter, op.getLoc(), "div.full.f32 $0, $1, $2;",
                                     ValueRange{adaptor.getLhs(), adaptor.getRhs()}));
    return success();
  }
};

/// sqrt_rn: square root rounded as IEEE requires (sqrt on f32 is
/// sqrt.approx, as Triton's).
struct PreciseSqrtF32 : ConvertOpToLLVMPattern<math::SqrtOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(math::SqrtOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32() || !op->hasAttr(kPreciseAttr))
      return failure();
    rewriter.replaceOp(op, inlineF32(rewriter, op.getLoc(), "sqrt.rn.f32 $0, $1;", adaptor.getOperand()));
    return success();
  }
};

/// A float narrowed toward zero (fp_downcast_rounding="rtz"): `cvt.rz`,
/// which LLVM's fptrunc cannot ask for. f64 to f16 or bf16 goes through f32:
/// truncating twice is truncating once.
struct TruncFTowardZero : ConvertOpToLLVMPattern<arith::TruncFOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getRoundingmode() != arith::RoundingMode::toward_zero)
      return failure();
    Type to = op.getType(), from = op.getIn().getType();
    if (isa<ShapedType>(to) || !(to.isF32() || to.isF16() || to.isBF16()) || !(from.isF64() || from.isF32()))
      return rewriter.notifyMatchFailure(op, "rounds toward zero only from f64 or f32 to f32, f16 or bf16");
    Location loc = op.getLoc();
    Value x = adaptor.getIn();
    if (from.isF64()) {
      x = inlineAsm(rewriter, loc, rewriter.getF32Type(), x, "cvt.rz.f32.f64 $0, $1;", "=f,d", false);
      if (to.isF32()) {
        rewriter.replaceOp(op, x);
        return success();
      }
    }
    std::string text = std::string("cvt.rz.") + (to.isF16() ? "f16" : "bf16") + ".f32 $0, $1;";
    Value bits = inlineAsm(rewriter, loc, rewriter.getI16Type(), x, text, "=h,f", false);
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, to, bits);
    return success();
  }
};

struct LowerToNVVM : impl::BlkLowerToNVVMPassBase<LowerToNVVM> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // Structured control flow first: the LLVM lowering works on a CFG.
    {
      RewritePatternSet patterns(ctx);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*ctx);
      target.addIllegalDialect<scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
    SmallVector<StringRef> kernels;
    module.walk([&](func::FuncOp f) {
      if (f->hasAttr(kKernelAttr))
        kernels.push_back(f.getName());
      // Specialization facts were used by the analyses; LLVM has no use for them.
      for (unsigned i = 0; i < f.getNumArguments(); ++i) {
        f.removeArgAttr(i, kDivisibilityAttr);
        // A TMA tensor map (128 bytes, 64-aligned) passed by value; its
        // address is taken, so it must stay a grid constant in param space.
        if (f.getArgAttr(i, kTmaBaseAttr)) {
          Builder b(ctx);
          f.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                       TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
          f.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), b.getI64IntegerAttr(64));
          f.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(), b.getUnitAttr());
          for (StringRef name : {kTmaBaseAttr, kTmaShapeAttr, kTmaStridesAttr})
            f.removeArgAttr(i, name);
        }
      }
    });
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    patterns.add<ApproxF32<math::ExpOp>, ApproxF32<math::Exp2Op>, ApproxF32<math::LogOp>, ApproxF32<math::Log2Op>,
                 FastDivF32, PreciseSqrtF32, TruncFTowardZero>(converter, /*benefit=*/10);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/5);
    populateMathToLLVMConversionPatterns(converter, patterns);
    populateGpuToNVVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<gpu::GPUDialect>();
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    unsigned numWarps = 4;
    if (auto attr = module->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      numWarps = attr.getInt();
    Builder b(ctx);
    module.walk([&](LLVM::LLVMFuncOp f) {
      if (!llvm::is_contained(kernels, f.getName()))
        return;
      f->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
      // A warp-specialized kernel's producer warpgroup runs after its
      // consumers; one program per SM caps the registers at entry, which
      // setmaxnreg needs.
      int64_t producers = 0;
      if (auto attr = f->getAttrOfType<IntegerAttr>(kProducerWarpsAttr))
        producers = attr.getInt();
      f->setAttr("nvvm.maxntid", b.getDenseI32ArrayAttr({int32_t((numWarps + producers) * 32), 1, 1}));
      if (producers)
        f->setAttr("nvvm.minctasm", b.getI32IntegerAttr(1));
      else if (auto programs = f->getAttrOfType<IntegerAttr>(kProgramsPerSMAttr))
        f->setAttr("nvvm.minctasm", b.getI32IntegerAttr(int32_t(programs.getInt())));
      f->removeAttr(kProgramsPerSMAttr);
      f->removeAttr(kKernelAttr);
    });
  }
};
} // namespace
} // namespace blk
