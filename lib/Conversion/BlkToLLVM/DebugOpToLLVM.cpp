// device_print and device_assert.
#include "Patterns.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk {
namespace {

/// A value printf can take (ints and floats, widened), and its format.
std::pair<Value, std::string> printable(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  Type t = v.getType();
  if (isa<LLVM::LLVMPointerType>(t))
    return {LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v), "%p"};
  if (auto f = dyn_cast<FloatType>(t)) {
    if (f.getWidth() < 32)
      v = LLVM::FPExtOp::create(b, loc, b.getF32Type(), v);
    return {v, "%f"};
  }
  unsigned bits = t.getIntOrFloatBitWidth();
  if (bits == 1) // a boolean prints as 0 or 1, as on the interpreter (sign extension would give -1)
    v = LLVM::ZExtOp::create(b, loc, b.getI32Type(), v);
  else if (bits < 32 && isUnsigned)
    v = LLVM::ZExtOp::create(b, loc, b.getI32Type(), v);
  else if (bits < 32)
    v = LLVM::SExtOp::create(b, loc, b.getI32Type(), v);
  if (isUnsigned)
    return {v, bits > 32 ? "%llu" : "%u"};
  return {v, bits > 32 ? "%lld" : "%d"};
}

struct PrintToLLVM : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pid[3] = {NVVM::BlockIdXOp::create(rewriter, loc, rewriter.getI32Type()),
                    NVVM::BlockIdYOp::create(rewriter, loc, rewriter.getI32Type()),
                    NVVM::BlockIdZOp::create(rewriter, loc, rewriter.getI32Type())};
    if (op.getArgs().empty())
      gpu::PrintfOp::create(rewriter, loc, rewriter.getStringAttr("pid (%d, %d, %d) " + op.getPrefix().str() + "\n"),
                            ValueRange{pid[0], pid[1], pid[2]});
    for (auto [index, arg, converted] : llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      std::optional<LinearLayout> layout;
      ThreadCoords thread;
      if (tensor) {
        layout = LinearLayout::get(tensor);
        thread = emitThreadCoords(rewriter, loc, *layout);
      }
      for (size_t r = 0; r < converted.size(); ++r) {
        std::string format = "pid (%d, %d, %d) ";
        SmallVector<Value> args{pid[0], pid[1], pid[2]};
        if (layout) {
          format += "idx (";
          SmallVector<Value> coords = thread.element(rewriter, loc, *layout, r);
          for (size_t d = 0; d < coords.size(); ++d) {
            format += d ? ", %d" : "%d";
            args.push_back(coords[d]);
          }
          format += ") ";
        }
        auto [value, spec] = printable(rewriter, loc, converted[r], op.isUnsignedArg(index));
        format += op.getPrefix().str() + spec + "\n";
        args.push_back(value);
        gpu::PrintfOp::create(rewriter, loc, rewriter.getStringAttr(format), args);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertToLLVM : OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AssertOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value ok;
    for (Value c : adaptor.getCondition())
      ok = ok ? LLVM::AndOp::create(rewriter, loc, ok, c).getResult() : c;
    Value broken = LLVM::XOrOp::create(rewriter, loc, ok,
                                       LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true)));
    auto module = op->getParentOfType<ModuleOp>();
    std::string file = "<unknown>";
    unsigned line = 0;
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
      file = fileLoc.getFilename().str();
      line = fileLoc.getLine();
    }
    auto func = op->getParentOfType<func::FuncOp>();
    auto ifOp = scf::IfOp::create(rewriter, loc, broken, /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    auto ptr = LLVM::LLVMPointerType::get(getContext());
    auto assertFail = LLVM::lookupOrCreateFn(rewriter, module, "__assertfail",
                                             {ptr, ptr, rewriter.getI32Type(), ptr, rewriter.getI64Type()},
                                             LLVM::LLVMVoidType::get(getContext()));
    if (failed(assertFail))
      return failure();
    auto str = [&](StringRef text) {
      std::string name;
      for (unsigned i = 0; name.empty() || SymbolTable::lookupSymbolIn(module, name); ++i)
        name = "__blk_assert_str_" + std::to_string(i);
      return LLVM::createGlobalString(loc, rewriter, name, (text + Twine('\0')).str(), LLVM::Linkage::Internal);
    };
    Value args[] = {str(op.getMessage()), str(file), i32Const(rewriter, loc, line),
                    str(func ? func.getName() : "kernel"),
                    LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(), rewriter.getI64IntegerAttr(1))};
    LLVM::CallOp::create(rewriter, loc, *assertFail, args);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateDebugOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<PrintToLLVM, AssertToLLVM>(tc, patterns.getContext());
}

} // namespace blk
