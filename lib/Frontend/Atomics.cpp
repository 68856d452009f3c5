// atomic_add/max/min/xchg/and/or/xor, atomic_cas, atomic_load and
// atomic_store: blk.atomic_rmw, blk.atomic_cas, blk.atomic_load and
// blk.atomic_store, with Triton's parameters (pointer, value, mask, sem,
// scope; atomic_load has no value).
#include "Generator.h"

using namespace mlir;

namespace blk {

bool isAtomic(const std::string &name) {
  return llvm::is_contained({"atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_and", "atomic_or",
                             "atomic_xor", "atomic_cas", "atomic_load", "atomic_store"},
                            name);
}

TV Generator::genAtomic(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  Location at = loc(call.loc);
  bool isCAS = name == "atomic_cas";
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, name, i); };
  auto quoted = [&](const TV &v) { return v.kind == TV::Str ? "\"" + v.s + "\"" : describe(v); };
  TV ptr = args[0];
  if (!ptr.isVal() || !isa<PointerType>(elementType(ptr)))
    return error(argLoc(0), "'" + name + "' needs a pointer or a block of pointers, got " + describe(ptr));
  Type pointee = llvm::cast<PointerType>(elementType(ptr)).getPointeeType();
  SmallVector<int64_t> shape(shapeOf(ptr));

  // sem and scope (the last two arguments): strings naming an enum case,
  // Triton's defaults when absent (a load acquires, a store releases).
  bool isLoad = name == "atomic_load", isStore = name == "atomic_store";
  size_t semArg = isLoad ? 2 : 3;
  MemSemantic sem = isLoad ? MemSemantic::Acquire : isStore ? MemSemantic::Release : MemSemantic::AcqRel;
  MemScope scope = MemScope::Gpu;
  auto enumArg = [&](size_t i, auto symbolize, auto &out, const char *expected) {
    if (args[i].kind == TV::None)
      return true;
    decltype(symbolize(llvm::StringRef())) e;
    if (args[i].kind == TV::Str)
      e = symbolize(args[i].s);
    if (!e)
      return error(argLoc(i), std::string(expected) + ", got " + quoted(args[i])), false;
    out = *e;
    return true;
  };
  const char *semsAllowed = isLoad    ? "sem of 'atomic_load' must be \"acquire\" or \"relaxed\""
                            : isStore ? "sem of 'atomic_store' must be \"release\" or \"relaxed\""
                                      : "sem must be \"relaxed\", \"acquire\", \"release\" or \"acq_rel\"";
  if (!enumArg(semArg, [](llvm::StringRef s) { return symbolizeMemSemantic(s); }, sem, semsAllowed) ||
      !enumArg(semArg + 1, [](llvm::StringRef s) { return symbolizeMemScope(s); }, scope,
               "scope must be \"cta\", \"gpu\" or \"sys\""))
    return TV();
  if ((isLoad && sem != MemSemantic::Acquire && sem != MemSemantic::Relaxed) ||
      (isStore && sem != MemSemantic::Release && sem != MemSemantic::Relaxed))
    return error(argLoc(semArg), std::string(semsAllowed) + ", got " + quoted(args[semArg]));

  // Values take the pointee type and the pointers' shape.
  auto operand = [&](size_t i) -> TV {
    if (!args[i].isConst() && !args[i].isVal())
      return error(argLoc(i), "'" + name + "' needs a value, got " + describe(args[i]));
    if (!shapeOf(args[i]).empty() && shape.empty())
      return error(argLoc(i), "shape mismatch: a block " + describe(args[i]) + " through a single pointer");
    return cast(args[i], pointee, false, shape, argLoc(i));
  };
  unsigned bits = pointee.getIntOrFloatBitWidth();
  if (isCAS) {
    if (bits != 32 && bits != 64)
      return error(call.loc, "'atomic_cas' needs 32- or 64-bit elements, got " + describe(pointee));
    TV cmp = operand(1), val = operand(2);
    if (!cmp || !val)
      return TV();
    return TV::makeVal(AtomicCASOp::create(builder, at, val.value.getType(), sem, scope, ptr.value, cmp.value,
                                           val.value),
                       val.isUnsigned);
  }

  // The mask (argument 1 of a load, 2 otherwise): none where it is true
  // everywhere; false everywhere is refused (the atomic would do nothing).
  Value maskValue;
  if (size_t maskArg = isLoad ? 1 : 2; args[maskArg].kind != TV::None) {
    TV m = toBool(args[maskArg], argLoc(maskArg));
    if (!m)
      return TV();
    if (m.isConst() && m.asDouble() == 0)
      return error(argLoc(maskArg), "the mask is false everywhere: the atomic would do nothing");
    if (!m.isConst()) {
      m = broadcastTo(m, shape, argLoc(maskArg));
      if (!m)
        return TV();
      maskValue = m.value;
    }
  }
  if (isLoad || isStore) {
    if (bits != 16 && bits != 32 && bits != 64)
      return error(call.loc, "'" + name + "' needs 16-, 32- or 64-bit elements, got " + describe(pointee));
    if (isLoad) {
      Type type = shape.empty() ? pointee : RankedTensorType::get(shape, pointee);
      return TV::makeVal(AtomicLoadOp::create(builder, at, type, sem, scope, ptr.value, maskValue), ptr.isUnsigned);
    }
    TV val = operand(1);
    if (!val)
      return TV();
    AtomicStoreOp::create(builder, at, sem, scope, ptr.value, val.value, maskValue);
    return TV::makeNone();
  }

  TV val = operand(1);
  if (!val)
    return TV();
  bool isUnsigned = args[1].isUnsigned;
  AtomicRMWKind kind = llvm::StringSwitch<AtomicRMWKind>(name)
                           .Case("atomic_add", AtomicRMWKind::Add)
                           .Case("atomic_max", isUnsigned ? AtomicRMWKind::UMax : AtomicRMWKind::Max)
                           .Case("atomic_min", isUnsigned ? AtomicRMWKind::UMin : AtomicRMWKind::Min)
                           .Case("atomic_xchg", AtomicRMWKind::Xchg)
                           .Case("atomic_and", AtomicRMWKind::And)
                           .Case("atomic_or", AtomicRMWKind::Or)
                           .Default(AtomicRMWKind::Xor);
  if (!atomicSupports(kind, pointee))
    return error(call.loc, "'" + name + "' does not apply to " + describe(pointee) +
                               " elements (add: i32/i64/f16/bf16/f32/f64; max, min: i32/i64/f32/f64; xchg: "
                               "32/64-bit; and, or, xor: i32/i64)");
  return TV::makeVal(AtomicRMWOp::create(builder, at, val.value.getType(), kind, sem, scope, ptr.value, val.value,
                                         maskValue, 1, IntegerAttr()),
                     isUnsigned);
}

} // namespace blk
