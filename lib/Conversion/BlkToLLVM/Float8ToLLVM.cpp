// Conversions between fp8 (f8E4M3FN, f8E5M2; bytes after type conversion)
// and f32/f16 (other floats and integers through f32), two elements per instruction as the hardware converts them:
// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 packs two f32 into two bytes (rounded
// to nearest even, saturated to the largest finite value) and
// cvt.rn.f16x2.{e4m3,e5m2}x2 unpacks two bytes into two exact f16. Both
// need sm_89 (Ada) or newer. fp8 constants become their bytes.
#include "blk/Support/InternalErrors.h"
#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace blk {
namespace {

const char *formatName(Type f8) { return isa<Float8E5M2Type>(f8) ? "e5m2" : "e4m3"; }

/// A float or integer conversion with an fp8 side (the canonicalizer folds
/// the frontend's int -> f32 -> fp8 into one sitofp/uitofp to fp8).
bool convertsFloat8(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp>(
             op) &&
         (isFloat8(getElementTypeOrSelf(op->getOperand(0).getType())) ||
          isFloat8(getElementTypeOrSelf(op->getResult(0).getType())));
}

/// Bytes `lo` and `hi` (i8) as one 16-bit register, `lo` in the low byte.
Value packBytes(OpBuilder &b, Location loc, Value lo, Value hi) {
  Type i16 = b.getI16Type();
  Value l = LLVM::ZExtOp::create(b, loc, i16, lo), h = LLVM::ZExtOp::create(b, loc, i16, hi);
  h = LLVM::ShlOp::create(b, loc, h, LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8)));
  return LLVM::OrOp::create(b, loc, l, h);
}

/// f32 values to fp8 bytes (`to`).
SmallVector<Value> narrow(OpBuilder &b, Location loc, ValueRange values, Type to) {
  // The first f32 operand goes to the high byte, the second to the low one.
  std::string text = std::string("cvt.rn.satfinite.") + formatName(to) + "x2.f32 $0, $1, $2;";
  Type i8 = b.getI8Type(), i16 = b.getI16Type();
  Value zero = LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(0));
  SmallVector<Value> out;
  for (size_t i = 0; i < values.size(); i += 2) {
    Value hi = i + 1 < values.size() ? values[i + 1] : zero;
    Value pair = inlineAsm(b, loc, i16, {hi, values[i]}, text, "=h,f,f", /*sideEffects=*/false);
    out.push_back(LLVM::TruncOp::create(b, loc, i8, pair));
    if (i + 1 < values.size())
      out.push_back(LLVM::TruncOp::create(
          b, loc, i8, LLVM::LShrOp::create(b, loc, pair, LLVM::ConstantOp::create(b, loc, i16, b.getI16IntegerAttr(8)))));
  }
  return out;
}

/// arith.extf / arith.truncf, and integer conversions, with an fp8 side, on
/// blocks and scalars alike.
template <typename OpT> struct Float8Conversion : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpConversionPattern<OpT>::OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!convertsFloat8(op))
      return failure();
    Type from = getElementTypeOrSelf(op.getIn().getType()), to = getElementTypeOrSelf(op.getType());
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    // Other float types go through f32 (the canonicalizer folds the frontend's
    // f16/bf16 -> f32 -> fp8 chain into one truncf): exact for f16 and bf16.
    auto toType = [&](ValueRange values, Type type) {
      SmallVector<Value> out;
      for (Value v : values) {
        unsigned have = v.getType().getIntOrFloatBitWidth(), want = type.getIntOrFloatBitWidth();
        out.push_back(v.getType() == type ? v
                      : have < want       ? Value(LLVM::FPExtOp::create(rewriter, loc, type, v))
                                          : Value(LLVM::FPTruncOp::create(rewriter, loc, type, v)));
      }
      return out;
    };
    // Integers (i1 included) go through f32 as the frontend's conversion does,
    // so an i64 rounds twice, to f32 and then to fp8; fp8 to f32 is exact.
    bool isSigned = isa<arith::SIToFPOp, arith::FPToSIOp>(op);
    if (isa<IntegerType>(from) && isFloat8(to)) {
      SmallVector<Value> floats;
      for (Value v : adaptor.getIn())
        floats.push_back(isSigned ? Value(LLVM::SIToFPOp::create(rewriter, loc, f32, v))
                                  : Value(LLVM::UIToFPOp::create(rewriter, loc, f32, v)));
      rewriter.replaceOpWithMultiple(op, {narrow(rewriter, loc, floats, to)});
      return success();
    }
    if (isFloat8(from) && isa<IntegerType>(to)) {
      SmallVector<Value> ints;
      for (Value v : widenFloat8(rewriter, loc, adaptor.getIn(), from, f32))
        ints.push_back(isSigned ? Value(LLVM::FPToSIOp::create(rewriter, loc, to, v))
                                : Value(LLVM::FPToUIOp::create(rewriter, loc, to, v)));
      rewriter.replaceOpWithMultiple(op, {ints});
      return success();
    }
    SmallVector<Value> out;
    if (isFloat8(from) && isa<FloatType>(to) && !isFloat8(to))
      out = to.isF16() ? widenFloat8(rewriter, loc, adaptor.getIn(), from, to)
                       : toType(widenFloat8(rewriter, loc, adaptor.getIn(), from, f32), to);
    else if (isFloat8(to) && isa<FloatType>(from) && !isFloat8(from))
      out = narrow(rewriter, loc, toType(adaptor.getIn(), f32), to);
    else
      return op.emitOpError("converts fp8 only to and from f32 (and fp8 to f16), got ") << from << " to " << to;
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

/// A scalar fp8 constant: its byte.
struct Float8Constant : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<FloatAttr>(op.getValue());
    if (!value || !isFloat8(op.getType()))
      return failure();
    rewriter.replaceOp(op, float8Bits(rewriter, op.getLoc(), value));
    return success();
  }
};

} // namespace

SmallVector<Value> widenFloat8(OpBuilder &b, Location loc, ValueRange bytes, Type from, Type to) {
  std::string text = std::string("cvt.rn.f16x2.") + formatName(from) + "x2 $0, $1;";
  Type i16 = b.getI16Type(), i32 = b.getI32Type(), f16 = b.getF16Type();
  Value zero = LLVM::ConstantOp::create(b, loc, b.getI8Type(), b.getI8IntegerAttr(0));
  SmallVector<Value> out;
  for (size_t i = 0; i < bytes.size(); i += 2) {
    Value pair = packBytes(b, loc, bytes[i], i + 1 < bytes.size() ? bytes[i + 1] : zero);
    Value halves = inlineAsm(b, loc, i32, {pair}, text, "=r,h", /*sideEffects=*/false);
    for (size_t j = i; j < std::min(i + 2, bytes.size()); ++j) {
      Value bits = j == i ? halves : LLVM::LShrOp::create(b, loc, halves, i32Const(b, loc, 16)).getResult();
      Value h = LLVM::BitcastOp::create(b, loc, f16, LLVM::TruncOp::create(b, loc, i16, bits));
      out.push_back(to.isF16() ? h : LLVM::FPExtOp::create(b, loc, to, h).getResult());
    }
  }
  return out;
}

Value float8Bits(OpBuilder &b, Location loc, FloatAttr value) {
  Type i8 = b.getI8Type();
  return LLVM::ConstantOp::create(b, loc, i8, b.getIntegerAttr(i8, value.getValue().bitcastToAPInt()));
}

bool lowersAsFloat8(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  return convertsFloat8(op) || (constant && isFloat8(constant.getType()));
}

LogicalResult prepareFloat8(ModuleOp module, unsigned computeCapability) {
  bool mmaSync = false, conversions = false;
  WalkResult r = module.walk([&](Operation *op) {
    auto dot = dyn_cast<DotOp>(op);
    bool fp8Dot = dot && isFloat8(dot.getA().getType().getElementType());
    if (computeCapability < 89 && (convertsFloat8(op) || fp8Dot)) {
      userFacing(op->emitError("fp8 needs sm_89 or newer (its conversions and products), the target is sm_"))
          << computeCapability;
      return WalkResult::interrupt();
    }
    mmaSync |= fp8Dot && isa_and_nonnull<MmaLayoutAttr>(dot.getType().getEncoding());
    conversions |= convertsFloat8(op);
    return WalkResult::advance();
  });
  if (r.wasInterrupted())
    return failure();
  // mma.sync on fp8 came with PTX ISA 8.4, the packed fp8 conversions on
  // sm_89 with 8.1 (sm_90 has them from 7.8).
  int version = mmaSync ? 84 : conversions && computeCapability < 90 ? 81 : 0;
  if (version)
    requirePtxVersion(module, version);
  return success();
}

void populateFloat8Patterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  // Above the generic elementwise pattern, which would copy the op onto bytes.
  patterns.add<Float8Conversion<arith::ExtFOp>, Float8Conversion<arith::TruncFOp>, Float8Conversion<arith::SIToFPOp>,
               Float8Conversion<arith::UIToFPOp>, Float8Conversion<arith::FPToSIOp>, Float8Conversion<arith::FPToUIOp>,
               Float8Constant>(tc, patterns.getContext(), /*benefit=*/2);
}

} // namespace blk
