// Global loads and stores: each run of `vec` registers becomes one predicated
// ld.global / st.global of up to 16 bytes, written as inline PTX so that the
// predicate and the vector width reach ptxas exactly as chosen. An eviction
// policy other than normal becomes an L2 cache policy (createpolicy) passed
// as the access's cache hint.
#include "Patterns.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace blk {
namespace {

/// How `vec` elements of one type travel as PTX words.
struct WordPlan {
  unsigned elemBits, wordBits, numWords;
  Type elemType, wordType;
  bool byteAccess; // a single 8-bit element, moved through a 16-bit register

  WordPlan(Type elem, unsigned vec) : elemType(elem) {
    elemBits = elem.getIntOrFloatBitWidth();
    unsigned total = elemBits * vec;
    byteAccess = total == 8;
    wordBits = byteAccess ? 16 : (elemBits >= 32 ? elemBits : std::min(32u, total));
    numWords = byteAccess ? 1 : total / wordBits;
    wordType = IntegerType::get(elem.getContext(), wordBits);
  }
  unsigned elemsPerWord() const { return byteAccess ? 1 : wordBits / elemBits; }
  const char *constraint() const { return wordBits == 16 ? "h" : wordBits == 32 ? "r" : "l"; }
  std::string ptxType() const { return byteAccess ? "u8" : "b" + std::to_string(wordBits); }
  std::string vectorSuffix() const { return numWords > 1 ? ".v" + std::to_string(numWords) : ""; }
};

Value toWord(OpBuilder &b, Location loc, const WordPlan &plan, ArrayRef<Value> elems) {
  if (plan.byteAccess)
    return LLVM::ZExtOp::create(b, loc, plan.wordType, elems[0]);
  if (elems.size() == 1)
    return elems[0].getType() == plan.wordType ? elems[0]
                                               : LLVM::BitcastOp::create(b, loc, plan.wordType, elems[0]);
  return LLVM::BitcastOp::create(b, loc, plan.wordType, packVector(b, loc, elems));
}

void fromWord(OpBuilder &b, Location loc, const WordPlan &plan, Value word, SmallVectorImpl<Value> &out) {
  if (plan.byteAccess) {
    out.push_back(LLVM::TruncOp::create(b, loc, plan.elemType, word));
    return;
  }
  unsigned k = plan.elemsPerWord();
  if (k == 1) {
    out.push_back(plan.elemType == plan.wordType ? word : LLVM::BitcastOp::create(b, loc, plan.elemType, word));
    return;
  }
  auto vecType = VectorType::get({int64_t(k)}, plan.elemType);
  Value v = LLVM::BitcastOp::create(b, loc, vecType, word);
  for (unsigned i = 0; i < k; ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, v, i32Const(b, loc, i)));
}

SmallVector<Value> toWords(OpBuilder &b, Location loc, const WordPlan &plan, ArrayRef<Value> elems) {
  SmallVector<Value> words;
  unsigned k = plan.elemsPerWord();
  for (unsigned w = 0; w < plan.numWords; ++w)
    words.push_back(toWord(b, loc, plan, elems.slice(w * k, k)));
  return words;
}


/// Loads `vec` elements at `ptr`; where `pred` is false they take `other`.
/// `createpolicy` for `evict` in a scoped register %policy, and the suffix and
/// operand that attach it to an access ("" when the policy is normal).
struct CacheHint {
  std::string setup, suffix, operand;
  explicit CacheHint(EvictionPolicy evict) {
    if (evict == EvictionPolicy::Normal)
      return;
    setup = llvm::formatv(".reg .b64 %policy;\n\tcreatepolicy.fractional.L2::{0}.b64 %policy, 1.0;\n\t",
                          stringifyEvictionPolicy(evict))
                .str();
    suffix = ".L2::cache_hint";
    operand = ", %policy";
  }
  std::string wrap(const std::string &text) const { return setup.empty() ? text : "{\n\t" + setup + text + "\n\t}"; }
};

void emitLoad(OpBuilder &b, Location loc, Type elemType, unsigned vec, Value ptr, Value pred,
              ArrayRef<Value> other, EvictionPolicy evict, SmallVectorImpl<Value> &out) {
  CacheHint hint(evict);
  WordPlan plan(elemType, vec);
  unsigned n = plan.numWords;
  std::string text, constraints;
  SmallVector<Value> operands{ptr};
  for (unsigned i = 0; i < n; ++i)
    constraints += std::string(i ? "," : "") + "=" + plan.constraint();
  constraints += ",l";
  unsigned next = n + 1;
  if (pred) {
    operands.push_back(pred);
    constraints += ",b";
    ++next;
    if (!other.empty()) {
      for (unsigned i = 0; i < n; ++i) {
        text += llvm::formatv("mov.b{0} ${1}, ${2};\n\t", plan.wordBits, i, next + i).str();
        constraints += std::string(",") + plan.constraint();
      }
      llvm::append_range(operands, toWords(b, loc, plan, other));
    }
    text += llvm::formatv("@${0} ", n + 1).str();
  }
  std::string dests;
  for (unsigned i = 0; i < n; ++i)
    dests += (i ? ", $" : "$") + std::to_string(i);
  if (n > 1)
    dests = "{ " + dests + " }";
  text += llvm::formatv("ld.global{0}{1}.{2} {3}, [ ${4} + 0 ]{5};", hint.suffix, plan.vectorSuffix(), plan.ptxType(),
                        dests, n, hint.operand)
              .str();
  text = hint.wrap(text);

  Type resultType = plan.wordType;
  if (n > 1)
    resultType = LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(n, plan.wordType));
  Value result = inlineAsm(b, loc, resultType, operands, text, constraints);
  for (unsigned i = 0; i < n; ++i) {
    Value word = n > 1 ? LLVM::ExtractValueOp::create(b, loc, result, ArrayRef<int64_t>{int64_t(i)}).getResult()
                       : result;
    fromWord(b, loc, plan, word, out);
  }
}

void emitStore(OpBuilder &b, Location loc, Type elemType, unsigned vec, Value ptr, Value pred,
               ArrayRef<Value> values, EvictionPolicy evict) {
  CacheHint hint(evict);
  WordPlan plan(elemType, vec);
  unsigned n = plan.numWords;
  SmallVector<Value> operands{ptr};
  llvm::append_range(operands, toWords(b, loc, plan, values));
  std::string constraints = "l", srcs;
  for (unsigned i = 0; i < n; ++i) {
    constraints += std::string(",") + plan.constraint();
    srcs += (i ? ", $" : "$") + std::to_string(i + 1);
  }
  if (n > 1)
    srcs = "{ " + srcs + " }";
  std::string text;
  if (pred) {
    operands.push_back(pred);
    constraints += ",b";
    text = llvm::formatv("@${0} ", n + 1).str();
  }
  text += llvm::formatv("st.global{0}{1}.{2} [ $0 + 0 ], {3}{4};", hint.suffix, plan.vectorSuffix(), plan.ptxType(),
                        srcs, hint.operand)
              .str();
  text = hint.wrap(text);
  inlineAsm(b, loc, Type(), operands, text, constraints);
}

struct LoadToLLVM : OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getElementTypeOrSelf(op.getType());
    // Booleans live in memory as bytes.
    bool isBool = elemType.isInteger(1);
    Type memType = memoryElementType(elemType);
    unsigned vec = accessWidth(op);
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask();
    SmallVector<Value> others;
    for (Value o : adaptor.getOther())
      others.push_back(isBool ? LLVM::ZExtOp::create(rewriter, loc, memType, o).getResult() : o);
    SmallVector<Value> results;
    for (size_t i = 0; i < ptrs.size(); i += vec) {
      Value pred = masks.empty() ? Value() : masks[i];
      ArrayRef<Value> other;
      if (!others.empty())
        other = ArrayRef<Value>(others).slice(i, vec);
      emitLoad(rewriter, loc, memType, vec, ptrs[i], pred, other, op.getEvict(), results);
    }
    if (isBool) {
      Value zero = LLVM::ConstantOp::create(rewriter, loc, memType, rewriter.getI8IntegerAttr(0));
      for (Value &r : results)
        r = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, r, zero);
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

struct StoreToLLVM : OpConversionPattern<StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type valueType = getElementTypeOrSelf(op.getValue().getType());
    bool isBool = valueType.isInteger(1); // stored as bytes
    Type elemType = memoryElementType(valueType);
    Type ptrType = op.getPtr().getType();
    unsigned vec = accessWidth(op);
    // Only the first copy of each element writes; a scalar store is made by thread 0.
    Value owner = emitOwner(rewriter, loc, ptrType);
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask();
    SmallVector<Value> values;
    for (Value v : adaptor.getValue())
      values.push_back(isBool ? LLVM::ZExtOp::create(rewriter, loc, elemType, v).getResult() : v);
    if (values.size() != ptrs.size() || ptrs.size() % vec || (!masks.empty() && masks.size() != ptrs.size()))
      return rewriter.notifyMatchFailure(op, "pointers, values and mask hold different register counts");
    for (size_t i = 0; i < ptrs.size(); i += vec) {
      Value pred = andValues(rewriter, loc, masks.empty() ? Value() : masks[i], owner);
      emitStore(rewriter, loc, elemType, vec, ptrs[i], pred, ArrayRef<Value>(values).slice(i, vec), op.getEvict());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

Value andValues(OpBuilder &b, Location loc, Value a, Value c) {
  if (!a || !c)
    return a ? a : c;
  return LLVM::AndOp::create(b, loc, a, c);
}

Value emitOwner(OpBuilder &b, Location loc, Type ptrType) {
  if (auto t = dyn_cast<RankedTensorType>(ptrType))
    return emitThreadCoords(b, loc, LinearLayout::get(t)).owner;
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, i32Const(b, loc, 0));
}

void populateMemoryOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<LoadToLLVM, StoreToLLVM>(tc, patterns.getContext());
}

} // namespace blk
