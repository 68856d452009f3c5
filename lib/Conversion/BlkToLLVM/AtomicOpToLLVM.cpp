// Atomics: each element becomes one predicated `atom.global` (or, for atomic
// loads and stores, `ld`/`st` with an ordering) in inline PTX, issued by the
// thread that owns the element (copies of it in other threads stay quiet; a
// scalar atomic is issued by thread 0). Float adds of a thread's consecutive
// elements under one mask are one vector `atom` on sm_90. When the old values
// are used and other threads hold copies, the owners pass them on through
// shared memory.
#include "blk/Support/InternalErrors.h"
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace blk {
namespace {

const char *constraintFor(unsigned bits) { return bits == 16 ? "h" : bits == 32 ? "r" : "l"; }

/// The `atom` prefix: ordering, scope and state space.
std::string atomPrefix(MemSemantic sem, MemScope scope) {
  return llvm::formatv("atom.{0}.{1}.global", stringifyMemSemantic(sem), stringifyMemScope(scope)).str();
}

/// PTX `.op.type` of an atomic read-modify-write on integers or floats.
std::string rmwSuffix(AtomicRMWKind kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string b = std::to_string(bits);
  bool isFloat = isa<FloatType>(elem);
  switch (kind) {
  case AtomicRMWKind::Add:
    if (elem.isF16())
      return "add.noftz.f16";
    if (elem.isBF16())
      return "add.noftz.bf16";
    return isFloat ? "add.f" + b : "add.u" + b;
  case AtomicRMWKind::Max:
    return "max.s" + b;
  case AtomicRMWKind::Min:
    return "min.s" + b;
  case AtomicRMWKind::UMax:
    return "max.u" + b;
  case AtomicRMWKind::UMin:
    return "min.u" + b;
  case AtomicRMWKind::Xchg:
    return "exch.b" + b;
  case AtomicRMWKind::And:
    return "and.b" + b;
  case AtomicRMWKind::Or:
    return "or.b" + b;
  case AtomicRMWKind::Xor:
    return "xor.b" + b;
  }
  llvm_unreachable("unknown atomic kind");
}

Value toBits(OpBuilder &b, Location loc, Value v) {
  Type bits = b.getIntegerType(v.getType().getIntOrFloatBitWidth());
  return v.getType() == bits ? v : LLVM::BitcastOp::create(b, loc, bits, v).getResult();
}

Value fromBits(OpBuilder &b, Location loc, Value v, Type type) {
  return v.getType() == type ? v : LLVM::BitcastOp::create(b, loc, type, v).getResult();
}

/// `text` over `operands` (ptr, values..., predicates...), returning the old
/// value as bits; 0 where no instruction runs.
Value emitAtom(OpBuilder &b, Location loc, unsigned bits, ArrayRef<std::string> instructions, Value ptr,
               ArrayRef<Value> values, ArrayRef<Value> preds) {
  const char *c = constraintFor(bits);
  std::string constraints = std::string("=") + c + ",l";
  SmallVector<Value> operands{ptr};
  for (Value v : values) {
    operands.push_back(v);
    constraints += std::string(",") + c;
  }
  std::string args = "$0, [$1]";
  for (size_t i = 0; i < values.size(); ++i)
    args += ", $" + std::to_string(2 + i);
  std::string text = llvm::formatv("mov.b{0} $0, 0;", bits).str();
  for (size_t i = 0; i < instructions.size(); ++i) {
    std::string guard;
    if (preds[i]) {
      operands.push_back(preds[i]);
      constraints += ",b";
      guard = "@$" + std::to_string(operands.size()) + " "; // $0 is the result
    }
    text += "\n\t" + guard + instructions[i] + " " + args + ";";
  }
  return inlineAsm(b, loc, b.getIntegerType(bits), operands, text, constraints);
}

/// One atomic read-modify-write of `value` at `ptr` under `pred`.
Value emitRMW(OpBuilder &b, Location loc, AtomicRMWOp op, Value ptr, Value value, Value pred) {
  Type elem = value.getType();
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string prefix = atomPrefix(op.getSem(), op.getScope());
  Value v = toBits(b, loc, value);
  AtomicRMWKind kind = op.getKind();
  if (isa<FloatType>(elem) && (kind == AtomicRMWKind::Max || kind == AtomicRMWKind::Min)) {
    // Floats order as signed integers when not negative and in reverse as
    // unsigned integers when negative: max(x) is a signed max for x >= 0 and
    // an unsigned min otherwise (min the other way round).
    Value zero = LLVM::ConstantOp::create(b, loc, v.getType(), b.getIntegerAttr(v.getType(), 0));
    Value nonNegative = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, v, zero);
    Value negative = LLVM::XOrOp::create(b, loc, nonNegative,
                                         LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)));
    bool isMax = kind == AtomicRMWKind::Max;
    Type bitsType = v.getType();
    std::string positive = prefix + "." + rmwSuffix(kind, bitsType);
    std::string negativeOp = prefix + "." + rmwSuffix(isMax ? AtomicRMWKind::UMin : AtomicRMWKind::UMax, bitsType);
    Value old = emitAtom(b, loc, bits, {positive, negativeOp}, ptr, {v},
                         {andValues(b, loc, pred, nonNegative), andValues(b, loc, pred, negative)});
    return fromBits(b, loc, old, elem);
  }
  Value old = emitAtom(b, loc, bits, {prefix + "." + rmwSuffix(kind, elem)}, ptr, {v}, {pred});
  return fromBits(b, loc, old, elem);
}

/// Elements per atomic instruction: float adds of a thread's consecutive
/// elements under one mask are vector atomics on sm_90 (PTX ISA 8.1).
unsigned atomicVectorWidth(AtomicRMWOp op, unsigned computeCapability) {
  return computeCapability >= 90 && op.hasVectorForm() ? accessWidth(op) : 1;
}

/// One vector atomic add of `values`, consecutive elements from `ptr`, under
/// `pred` (`atom.acq_rel.gpu.global.add.v4.f32`); the old values, 0 where
/// no instruction runs.
SmallVector<Value> emitVectorAdd(OpBuilder &b, Location loc, AtomicRMWOp op, Value ptr, ArrayRef<Value> values,
                                 Value pred) {
  Type elem = values.front().getType();
  unsigned bits = elem.getIntOrFloatBitWidth(), n = values.size();
  const char *c = constraintFor(bits);
  std::string constraints, dests, srcs, text;
  for (unsigned i = 0; i < n; ++i) {
    constraints += std::string(i ? ",=" : "=") + c;
    dests += (i ? ", $" : "$") + std::to_string(i);
    srcs += (i ? ", $" : "$") + std::to_string(n + 1 + i);
    text += llvm::formatv("mov.b{0} ${1}, 0;\n\t", bits, i).str();
  }
  constraints += ",l";
  SmallVector<Value> operands{ptr};
  for (Value v : values) {
    operands.push_back(toBits(b, loc, v));
    constraints += std::string(",") + c;
  }
  if (pred) {
    operands.push_back(pred);
    constraints += ",b";
    text += "@$" + std::to_string(2 * n + 1) + " ";
  }
  std::string type = elem.isF32() ? "f32" : elem.isF16() ? "f16" : "bf16";
  text += llvm::formatv("{0}.add{1}.v{2}.{3} {{{4}}, [${5}], {{{6}};", atomPrefix(op.getSem(), op.getScope()),
                        bits == 16 ? ".noftz" : "", n, type, dests, n, srcs)
              .str();
  Type word = b.getIntegerType(bits);
  Type resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(n, word));
  Value result = inlineAsm(b, loc, resultType, operands, text, constraints);
  SmallVector<Value> old;
  for (unsigned i = 0; i < n; ++i)
    old.push_back(fromBits(b, loc, LLVM::ExtractValueOp::create(b, loc, result, ArrayRef<int64_t>{int64_t(i)}), elem));
  return old;
}

/// The old values, given to every thread that holds a copy: the owners write
/// them to shared memory (the other copies write to one spare slot), then
/// every thread reads its elements.
LogicalResult shareOldValues(ConversionPatternRewriter &rewriter, Operation *op, Type type, Value owner,
                             SmallVectorImpl<Value> &old) {
  if (scratchFor(op).bytes == 0)
    return success();
  FailureOr<int64_t> offset = scratchOffset(op);
  if (failed(offset))
    return failure();
  Location loc = op->getLoc();
  Type elem = getElementTypeOrSelf(type);
  auto tensor = dyn_cast<RankedTensorType>(type);
  SmallVector<Value> slots = tensor ? emitRegisterIndices(rewriter, loc, LinearLayout::get(tensor))
                                    : SmallVector<Value>{i32Const(rewriter, loc, 0)};
  Value spare = i32Const(rewriter, loc, tensor ? tensor.getNumElements() : 1);
  for (size_t r = 0; r < old.size(); ++r) {
    Value slot = LLVM::SelectOp::create(rewriter, loc, owner, slots[r], spare);
    storeShared(rewriter, loc, old[r], sharedElement(rewriter, loc, *offset, elem, slot));
  }
  emitBarrier(rewriter, loc);
  for (size_t r = 0; r < old.size(); ++r)
    old[r] = loadShared(rewriter, loc, elem, sharedElement(rewriter, loc, *offset, elem, slots[r]));
  return success();
}

struct AtomicRMWToLLVM : OpConversionPattern<AtomicRMWOp> {
  AtomicRMWToLLVM(ThreadTypeConverter &tc, MLIRContext *ctx, unsigned computeCapability)
      : OpConversionPattern(tc, ctx), computeCapability(computeCapability) {}
  unsigned computeCapability;

  LogicalResult matchAndRewrite(AtomicRMWOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value owner = emitOwner(rewriter, loc, op.getPtr().getType());
    ValueRange ptrs = adaptor.getPtr(), values = adaptor.getValue(), masks = adaptor.getMask();
    unsigned vec = atomicVectorWidth(op, computeCapability);
    if (values.size() != ptrs.size() || ptrs.size() % vec || (!masks.empty() && masks.size() != ptrs.size()))
      return rewriter.notifyMatchFailure(op, "pointers, values and mask hold different register counts");
    SmallVector<Value> old;
    for (size_t i = 0; i < ptrs.size(); i += vec) {
      Value pred = andValues(rewriter, loc, masks.empty() ? Value() : masks[i], owner);
      if (vec == 1)
        old.push_back(emitRMW(rewriter, loc, op, ptrs[i], values[i], pred));
      else
        llvm::append_range(old, emitVectorAdd(rewriter, loc, op, ptrs[i], SmallVector<Value>(values.slice(i, vec)),
                                              pred));
    }
    if (failed(shareOldValues(rewriter, op, op.getType(), owner, old)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {old});
    return success();
  }
};

struct AtomicCASToLLVM : OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicCASOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value owner = emitOwner(rewriter, loc, op.getPtr().getType());
    ValueRange ptrs = adaptor.getPtr(), cmps = adaptor.getCmp(), values = adaptor.getValue();
    Type elem = getElementTypeOrSelf(op.getType());
    unsigned bits = elem.getIntOrFloatBitWidth();
    std::string cas = atomPrefix(op.getSem(), op.getScope()) + ".cas.b" + std::to_string(bits);
    SmallVector<Value> old;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      Value bitsOld = emitAtom(rewriter, loc, bits, {cas}, ptrs[i],
                               {toBits(rewriter, loc, cmps[i]), toBits(rewriter, loc, values[i])}, {owner});
      old.push_back(fromBits(rewriter, loc, bitsOld, elem));
    }
    if (failed(shareOldValues(rewriter, op, op.getType(), owner, old)))
      return failure();
    rewriter.replaceOpWithMultiple(op, {old});
    return success();
  }
};

/// `ld`/`st` with an ordering and a scope: `ld.acquire.gpu.global.b32`.
std::string orderedAccess(const char *access, MemSemantic sem, MemScope scope, Type elem) {
  return llvm::formatv("{0}.{1}.{2}.global.b{3}", access, stringifyMemSemantic(sem), stringifyMemScope(scope),
                       elem.getIntOrFloatBitWidth())
      .str();
}

struct AtomicLoadToLLVM : OpConversionPattern<AtomicLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value owner = emitOwner(rewriter, loc, op.getPtr().getType());
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask();
    Type elem = getElementTypeOrSelf(op.getType());
    std::string ld = orderedAccess("ld", op.getSem(), op.getScope(), elem);
    SmallVector<Value> loaded;
    for (size_t i = 0; i < ptrs.size(); ++i) {
      Value pred = andValues(rewriter, loc, masks.empty() ? Value() : masks[i], owner);
      loaded.push_back(
          fromBits(rewriter, loc, emitAtom(rewriter, loc, elem.getIntOrFloatBitWidth(), {ld}, ptrs[i], {}, {pred}),
                   elem));
    }
    // Every copy of an element takes the owner's value: two loads of a flag
    // that changes could differ.
    if (failed(shareOldValues(rewriter, op, op.getType(), owner, loaded)))
      return failure();
    // The program's later accesses follow the acquire in every thread, not
    // only in the owners'.
    if (op.getSem() == MemSemantic::Acquire && scratchFor(op).bytes == 0)
      emitBarrier(rewriter, loc);
    rewriter.replaceOpWithMultiple(op, {loaded});
    return success();
  }
};

struct AtomicStoreToLLVM : OpConversionPattern<AtomicStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // What every thread of the program wrote before comes before the
    // release, not only what the owners wrote.
    if (op.getSem() == MemSemantic::Release)
      emitBarrier(rewriter, loc);
    Value owner = emitOwner(rewriter, loc, op.getPtr().getType());
    ValueRange ptrs = adaptor.getPtr(), values = adaptor.getValue(), masks = adaptor.getMask();
    Type elem = getElementTypeOrSelf(op.getValue().getType());
    unsigned bits = elem.getIntOrFloatBitWidth();
    std::string st = orderedAccess("st", op.getSem(), op.getScope(), elem) + " [$0], $1;";
    std::string constraints = std::string("l,") + constraintFor(bits);
    for (size_t i = 0; i < ptrs.size(); ++i) {
      SmallVector<Value> operands{ptrs[i], toBits(rewriter, loc, values[i])};
      if (Value pred = andValues(rewriter, loc, masks.empty() ? Value() : masks[i], owner)) {
        operands.push_back(pred);
        inlineAsm(rewriter, loc, Type(), operands, "@$2 " + st, constraints + ",b");
      } else {
        inlineAsm(rewriter, loc, Type(), operands, st, constraints);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LogicalResult prepareAtomics(ModuleOp module, unsigned computeCapability) {
  bool vectors = false;
  WalkResult r = module.walk([&](AtomicRMWOp op) {
    if (op.getKind() == AtomicRMWKind::Add && getElementTypeOrSelf(op.getType()).isBF16() &&
        computeCapability < 90) {
      userFacing(op.emitError()) << "atomic_add on bf16 needs sm_90 or newer (compiling for sm_" << computeCapability << ")";
      return WalkResult::interrupt();
    }
    vectors |= atomicVectorWidth(op, computeCapability) > 1;
    return WalkResult::advance();
  });
  if (vectors)
    requirePtxVersion(module, 81);
  return failure(r.wasInterrupted());
}

void populateAtomicOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns, unsigned computeCapability) {
  patterns.add<AtomicCASToLLVM, AtomicLoadToLLVM, AtomicStoreToLLVM>(tc, patterns.getContext());
  patterns.add<AtomicRMWToLLVM>(tc, patterns.getContext(), computeCapability);
}

} // namespace blk
