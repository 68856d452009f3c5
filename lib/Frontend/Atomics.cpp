// atomic_add/max/min/xchg/and/or/xor and atomic_cas: blk.atomic_rmw and
// blk.atomic_cas, with Triton's parameters (pointer, value, mask, sem, scope).
#include "Generator.h"

using namespace mlir;

namespace blk {

bool isAtomic(const std::string &name) {
  return llvm::is_contained({"atomic_add", "atomic_max", "atomic_min", "atomic_xchg", "atomic_and", "atomic_or",
                             "atomic_xor", "atomic_cas"},
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

  // sem and scope (arguments 3 and 4): strings naming an enum case, Triton's
  // defaults when absent.
  MemSemantic sem = MemSemantic::AcqRel;
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
  if (!enumArg(3, [](llvm::StringRef s) { return symbolizeMemSemantic(s); }, sem,
               "sem must be \"relaxed\", \"acquire\", \"release\" or \"acq_rel\"") ||
      !enumArg(4, [](llvm::StringRef s) { return symbolizeMemScope(s); }, scope,
               "scope must be \"cta\", \"gpu\" or \"sys\""))
    return TV();

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
  Value maskValue;
  if (args[2].kind != TV::None) {
    TV m = toBool(args[2], argLoc(2));
    if (!m)
      return TV();
    if (m.isConst() && m.asDouble() == 0)
      return error(argLoc(2), "the mask is false everywhere: the atomic would do nothing");
    if (!m.isConst()) {
      m = broadcastTo(m, shape, argLoc(2));
      if (!m)
        return TV();
      maskValue = m.value;
    }
  }
  return TV::makeVal(AtomicRMWOp::create(builder, at, val.value.getType(), kind, sem, scope, ptr.value, val.value,
                                         maskValue),
                     isUnsigned);
}

} // namespace blk
