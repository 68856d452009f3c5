#include "Patterns.h"
#include "blk/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_CONVERTBLKTOLLVMPASS
#include "blk/Conversion/Passes.h.inc"

void requirePtxVersion(ModuleOp module, int version) {
  if (auto v = module->getAttrOfType<IntegerAttr>(kMinPtxVersionAttr); v && v.getInt() >= version)
    return;
  module->setAttr(kMinPtxVersionAttr, IntegerAttr::get(IntegerType::get(module.getContext(), 32), version));
}

namespace {
struct ConvertBlkToLLVM : impl::ConvertBlkToLLVMPassBase<ConvertBlkToLLVM> {
  using ConvertBlkToLLVMPassBase::ConvertBlkToLLVMPassBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ThreadTypeConverter converter(ctx);
    auto noBlocks = [](Operation *op) {
      auto isBlock = [](Type t) { return isa<RankedTensorType>(t); };
      return llvm::none_of(op->getOperandTypes(), isBlock) && llvm::none_of(op->getResultTypes(), isBlock);
    };
    ConversionTarget target(*ctx);
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect, gpu::GPUDialect>();
    target.addIllegalDialect<BlkDialect>();
    // fp8 conversions are lowered here even on scalars (cvt needs no layout),
    // and so are scalar selects of pointers (whose type changes here).
    auto noPointers = [](Operation *op) {
      return llvm::none_of(op->getResultTypes(), [](Type t) { return isa<PointerType>(t); });
    };
    target.addDynamicallyLegalDialect<arith::ArithDialect, math::MathDialect>(
        [&](Operation *op) { return noBlocks(op) && noPointers(op) && !lowersAsFloat8(op); });
    target.addDynamicallyLegalOp<func::FuncOp>(
        [&](func::FuncOp f) { return converter.isSignatureLegal(f.getFunctionType()); });
    target.addLegalOp<func::ReturnOp, ModuleOp>();

    if (failed(prepareAtomics(getOperation(), computeCapability)) ||
        failed(prepareFloat8(getOperation(), computeCapability)))
      return signalPassFailure();
    declareSharedMemory();
    RewritePatternSet patterns(ctx);
    populateElementwisePatterns(converter, patterns);
    populateProgramOpPatterns(converter, patterns);
    populateMemoryOpPatterns(converter, patterns);
    populateDebugOpPatterns(converter, patterns);
    populateLayoutOpPatterns(converter, patterns);
    populateGatherPatterns(converter, patterns);
    populateSortPatterns(converter, patterns);
    populateReduceOpPatterns(converter, patterns);
    populateAtomicOpPatterns(converter, patterns, computeCapability);
    populateFloat8Patterns(converter, patterns);
    populateLibDevicePatterns(converter, patterns);
    populateInlineAsmPatterns(converter, patterns);
    populateWarpRolePatterns(converter, patterns);
    populateScanOpPatterns(converter, patterns, scanLaneBits);
    populateDotOpPatterns(converter, patterns);
    populateDotOperandPatterns(converter, patterns);
    populateSharedRingPatterns(converter, patterns);
    populateTMAPatterns(converter, patterns);
    populateWarpGroupDotPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }

  /// Kernels that use shared memory address it through one external array in
  /// address space 3, sized at launch (dynamic shared memory).
  void declareSharedMemory() {
    ModuleOp module = getOperation();
    bool used = false;
    module.walk([&](func::FuncOp f) {
      if (auto bytes = f->getAttrOfType<IntegerAttr>(kSharedBytesAttr))
        used |= bytes.getInt() > 0;
    });
    if (!used || module.lookupSymbol(kSharedSymbol))
      return;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
    LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false, LLVM::Linkage::External, kSharedSymbol,
                           Attribute(), /*alignment=*/1024, /*addrSpace=*/3); // swizzled rings need 1024
  }
};
} // namespace
} // namespace blk
