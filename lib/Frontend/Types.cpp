// Types of generated values: names, promotion and conversion.
#include "Generator.h"

#include <cmath>
#include <cstring>

using namespace mlir;

namespace blk {

TV Generator::error(const ast::Loc &l, const llvm::Twine &msg) {
  emitError(loc(l)) << msg.str();
  return TV();
}

std::string Generator::describe(Type t, bool isUnsigned) {
  if (auto ptr = dyn_cast<PointerType>(t))
    return "*" + describe(ptr.getPointeeType());
  if (auto tensor = dyn_cast<RankedTensorType>(t)) {
    std::string s = describe(tensor.getElementType(), isUnsigned) + "[";
    for (size_t d = 0; d < tensor.getShape().size(); ++d)
      s += (d ? ", " : "") + std::to_string(tensor.getShape()[d]);
    return s + "]";
  }
  if (auto desc = dyn_cast<TensorDescType>(t)) {
    std::string s = "a tensor descriptor of " + describe(desc.getElementType(), isUnsigned) + "[";
    for (size_t d = 0; d < desc.getRank(); ++d)
      s += (d ? ", " : "") + std::to_string(desc.getBlockShape()[d]);
    return s + "] blocks";
  }
  if (t.isBF16())
    return "bf16";
  if (isa<Float8E4M3FNType>(t))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(t))
    return "f8e5m2";
  if (auto f = dyn_cast<FloatType>(t))
    return "f" + std::to_string(f.getWidth());
  if (auto i = dyn_cast<IntegerType>(t))
    return (isUnsigned ? "u" : "i") + std::to_string(i.getWidth());
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string Generator::describe(const TV &v) {
  switch (v.kind) {
  case TV::Int: return "int constant " + (v.isU64 ? std::to_string(uint64_t(v.i)) : std::to_string(v.i));
  case TV::Float: return "float constant";
  case TV::Bool: return "bool constant";
  case TV::None: return "None";
  case TV::Str: return "string";
  case TV::DType: return "dtype " + describe(v.type, v.isUnsigned);
  case TV::Val: return describe(v.value.getType(), v.isUnsigned);
  case TV::Tuple: return "tuple of " + plural(v.elements.size(), "value");
  case TV::BlockPtr: {
    std::string shape;
    for (int64_t d : v.blockShape)
      shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    Type pointee = llvm::cast<PointerType>(elementType(v.blockBase())).getPointeeType();
    return "block pointer to [" + shape + "] blocks of " + describe(pointee, v.blockBase().isUnsigned);
  }
  default: return "<invalid>";
  }
}

Type Generator::elementType(const TV &v) {
  switch (v.kind) {
  case TV::Val: return getElementTypeOrSelf(v.value.getType());
  case TV::Int:
  case TV::Float: {
    bool isUnsigned;
    return literalType(v, isUnsigned);
  }
  case TV::Bool: return builder.getI1Type();
  default: return {};
  }
}

Type Generator::literalType(const TV &v, bool &isUnsigned) {
  isUnsigned = false;
  if (v.kind == TV::Float) {
    double a = std::fabs(v.f);
    bool f32 = a == 0 || std::isinf(a) || std::isnan(a) || (a >= 0x1p-126 && a <= 0x1.fffffep127);
    return f32 ? Type(builder.getF32Type()) : Type(builder.getF64Type());
  }
  if (v.kind != TV::Int)
    return elementType(v);
  __int128 x = v.wide();
  if (x >= INT32_MIN && x <= INT32_MAX)
    return builder.getI32Type();
  if (x >= 0 && x <= UINT32_MAX)
    return isUnsigned = true, builder.getI32Type();
  isUnsigned = x > INT64_MAX;
  return builder.getI64Type();
}

bool Generator::constantFits(const TV &c, Type elem, bool isUnsigned, const ast::Loc &l) {
  if (c.kind != TV::Int || !isa<IntegerType>(elem))
    return true;
  unsigned w = elem.getIntOrFloatBitWidth();
  __int128 lo = isUnsigned ? 0 : -(__int128(1) << (w - 1));
  __int128 hi = isUnsigned ? (__int128(1) << w) - 1 : (__int128(1) << (w - 1)) - 1;
  if (c.wide() >= lo && c.wide() <= hi)
    return true;
  error(l, "integer constant " + describe(c).substr(strlen("int constant ")) + " is out of range for " +
               describe(elem, isUnsigned) + ", the type this operation computes in (convert an operand with .to())");
  return false;
}

ArrayRef<int64_t> Generator::shapeOf(const TV &v) {
  if (v.isVal())
    if (auto t = dyn_cast<RankedTensorType>(v.value.getType()))
      return t.getShape();
  return {};
}

Type Generator::typeFromName(StringRef name, bool &isUnsigned) {
  isUnsigned = false;
  Builder b(&ctx);
  if (name == "i1" || name == "bool")
    return b.getI1Type();
  if (name == "i8")
    return b.getI8Type();
  if (name == "i16")
    return b.getI16Type();
  if (name == "i32")
    return b.getI32Type();
  if (name == "i64")
    return b.getI64Type();
  if (name == "u8" || name == "u16" || name == "u32" || name == "u64") {
    isUnsigned = true;
    return b.getIntegerType(std::stoi(name.drop_front().str()));
  }
  if (name == "f16")
    return b.getF16Type();
  if (name == "bf16")
    return b.getBF16Type();
  if (name == "f32")
    return b.getF32Type();
  if (name == "f64")
    return b.getF64Type();
  if (name == "f8e4m3" || name == "float8e4nv") // Triton's name for e4m3
    return b.getType<Float8E4M3FNType>();
  if (name == "f8e5m2" || name == "float8e5")
    return b.getType<Float8E5M2Type>();
  return {};
}

/// Triton's promotion of two operand types (neither a constant).
static Type promoteTypes(Builder &b, Type ta, bool ua, Type tb, bool ub, bool &isUnsigned) {
  isUnsigned = false;
  auto isF = [](Type t) { return isa<FloatType>(t); };
  if (isF(ta) || isF(tb)) {
    if (!isF(ta))
      return tb;
    if (!isF(tb))
      return ta;
    if (ta == tb)
      return ta;
    unsigned wa = ta.getIntOrFloatBitWidth(), wb = tb.getIntOrFloatBitWidth();
    if (wa == wb) // f16 with bf16
      return b.getF32Type();
    return wa > wb ? ta : tb;
  }
  // C's usual arithmetic conversions: the wider; at equal widths, unsigned.
  unsigned wa = ta.getIntOrFloatBitWidth(), wb = tb.getIntOrFloatBitWidth();
  if (wa == 1 && wb == 1)
    return ta;
  if (wa == wb) {
    isUnsigned = ua || ub;
    return ta;
  }
  isUnsigned = wa > wb ? ua : ub;
  return wa > wb ? ta : tb;
}

Type Generator::promote(const TV &a, const TV &b, bool &isUnsigned) {
  isUnsigned = false;
  if (a.isConst() && b.isVal())
    return promote(b, a, isUnsigned);
  Type ta = elementType(a), tb = elementType(b);
  // Pointers, descriptors and other handles have no arithmetic type.
  if (!ta || !tb || !isa<IntegerType, FloatType>(ta) || !isa<IntegerType, FloatType>(tb))
    return {};
  bool ua = a.isUnsigned, ub = b.isUnsigned;
  if (b.isConst() && a.isVal()) {
    // As Triton: a constant of a kind (bool < integer < float) no higher than
    // the other operand's takes that operand's type (u32 * 2654435761 stays
    // u32); otherwise its own type (literalType) promotes with it.
    auto kind = [](Type t) { return t.isInteger(1) ? 0 : isa<IntegerType>(t) ? 1 : 2; };
    tb = literalType(b, ub);
    if (kind(tb) <= kind(ta)) {
      isUnsigned = ua;
      return ta;
    }
  } else if (a.isConst()) {
    ta = literalType(a, ua);
    tb = literalType(b, ub);
  }
  return promoteTypes(builder, ta, ua, tb, ub, isUnsigned);
}

TV Generator::widenFloat8(const TV &v, const ast::Loc &l) {
  return v.isVal() && isFloat8(elementType(v)) ? convertElement(v, builder.getF32Type(), false, l) : v;
}

TV Generator::convertElement(const TV &v, Type elem, bool isUnsigned, const ast::Loc &l) {
  Location at = loc(l);
  if (v.isConst()) {
    TypedAttr attr;
    if (isFloat8(elem)) // saturated as conversions of values are
      attr = builder.getFloatAttr(elem, fromF8(toF8(float(v.asDouble()), float8Format(elem)), float8Format(elem)));
    else if (isa<FloatType>(elem))
      attr = builder.getFloatAttr(elem, v.asDouble());
    else if (elem.isInteger(1))
      attr = builder.getBoolAttr(v.asDouble() != 0);
    else if (isa<IntegerType>(elem))
      attr = builder.getIntegerAttr(elem, v.kind == TV::Float ? int64_t(v.f) : v.i);
    else
      return error(l, "type mismatch: cannot use " + describe(v) + " as " + describe(elem));
    return TV::makeVal(arith::ConstantOp::create(builder, at, attr), isUnsigned);
  }
  if (!v.isVal())
    return error(l, "type mismatch: expected a value, got " + describe(v));
  Value x = v.value;
  Type src = getElementTypeOrSelf(x.getType());
  Type dstType = elem;
  if (auto t = dyn_cast<RankedTensorType>(x.getType()))
    dstType = RankedTensorType::get(t.getShape(), elem);
  if (src == elem)
    return TV::makeVal(x, isUnsigned);
  // Only numbers convert (not pointers, nor tensor descriptors).
  if (!isa<IntegerType, FloatType>(src) || !isa<IntegerType, FloatType>(elem))
    return error(l, "type mismatch: cannot convert " + describe(v) + " to " + describe(elem));
  bool srcF = isa<FloatType>(src), dstF = isa<FloatType>(elem);
  unsigned ws = src.getIntOrFloatBitWidth(), wd = elem.getIntOrFloatBitWidth();
  bool srcUnsigned = v.isUnsigned || ws == 1;
  Value r;
  // fp8 converts to and from f32 only (cvt on the GPU); every other type
  // goes through f32 first, which is exact or rounds once as a direct
  // conversion would.
  Type f32 = builder.getF32Type();
  if (auto t = dyn_cast<RankedTensorType>(x.getType()))
    f32 = RankedTensorType::get(t.getShape(), f32);
  if (isFloat8(src) && !elem.isF32()) {
    return convertElement(TV::makeVal(arith::ExtFOp::create(builder, at, f32, x)), elem, isUnsigned, l);
  }
  if (isFloat8(elem) && !src.isF32()) {
    TV wide = convertElement(v, builder.getF32Type(), false, l);
    return wide ? convertElement(wide, elem, isUnsigned, l) : wide;
  }
  if (srcF && dstF) {
    if (ws == wd) { // f16 <-> bf16 goes through f32
      x = arith::ExtFOp::create(builder, at, f32, x);
      ws = 32;
    }
    r = wd > ws ? Value(arith::ExtFOp::create(builder, at, dstType, x))
                : Value(arith::TruncFOp::create(builder, at, dstType, x));
  } else if (!srcF && dstF) {
    r = srcUnsigned ? Value(arith::UIToFPOp::create(builder, at, dstType, x))
                    : Value(arith::SIToFPOp::create(builder, at, dstType, x));
  } else if (srcF && !dstF) {
    if (wd == 1) {
      Value zero = arith::ConstantOp::create(builder, at, builder.getZeroAttr(x.getType()));
      r = arith::CmpFOp::create(builder, at, arith::CmpFPredicate::UNE, x, zero);
    } else {
      r = isUnsigned ? Value(arith::FPToUIOp::create(builder, at, dstType, x))
                     : Value(arith::FPToSIOp::create(builder, at, dstType, x));
    }
  } else {
    if (wd == 1) {
      Value zero = arith::ConstantOp::create(builder, at, builder.getZeroAttr(x.getType()));
      r = arith::CmpIOp::create(builder, at, arith::CmpIPredicate::ne, x, zero);
    } else if (wd > ws) {
      r = srcUnsigned ? Value(arith::ExtUIOp::create(builder, at, dstType, x))
                      : Value(arith::ExtSIOp::create(builder, at, dstType, x));
    } else if (wd < ws) {
      r = arith::TruncIOp::create(builder, at, dstType, x);
    } else {
      r = x;
    }
  }
  return TV::makeVal(r, isUnsigned);
}

TV Generator::broadcastTo(const TV &v, ArrayRef<int64_t> shape, const ast::Loc &l) {
  if (!v.isVal() || shape.empty())
    return v;
  ArrayRef<int64_t> have = shapeOf(v);
  if (have == shape)
    return v;
  auto fail = [&]() {
    return error(l, "shape mismatch: cannot broadcast " + describe(v) + " to [" +
                        llvm::join(llvm::map_range(shape, [](int64_t d) { return std::to_string(d); }), ", ") +
                        "]");
  };
  Location at = loc(l);
  Type elem = elementType(v);
  if (have.empty())
    return TV::makeVal(SplatOp::create(builder, at, RankedTensorType::get(shape, elem), v.value), v.isUnsigned);
  if (have.size() > shape.size())
    return fail();
  // numpy: missing leading dimensions are size 1, then size-1 dimensions repeat.
  Value x = v.value;
  SmallVector<int64_t> cur(have);
  while (cur.size() < shape.size()) {
    cur.insert(cur.begin(), 1);
    x = ExpandDimsOp::create(builder, at, RankedTensorType::get(cur, elem), x, 0);
  }
  for (size_t d = 0; d < shape.size(); ++d)
    if (cur[d] != shape[d] && cur[d] != 1)
      return fail();
  if (ArrayRef<int64_t>(cur) != shape)
    x = BroadcastOp::create(builder, at, RankedTensorType::get(shape, elem), x);
  return TV::makeVal(x, v.isUnsigned);
}

bool broadcastShapes(ArrayRef<int64_t> sa, ArrayRef<int64_t> sb, SmallVectorImpl<int64_t> &shape) {
  size_t rank = std::max(sa.size(), sb.size());
  SmallVector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) { // right-aligned, as numpy does
    int64_t da = i < sa.size() ? sa[sa.size() - 1 - i] : 1;
    int64_t db = i < sb.size() ? sb[sb.size() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1)
      return false;
    out[rank - 1 - i] = std::max(da, db);
  }
  shape.assign(out.begin(), out.end());
  return true;
}

bool Generator::broadcastShape(const TV &a, const TV &b, SmallVectorImpl<int64_t> &shape, const ast::Loc &l) {
  if (broadcastShapes(shapeOf(a), shapeOf(b), shape))
    return true;
  error(l, "shape mismatch: " + describe(a) + " and " + describe(b));
  return false;
}

TV Generator::cast(const TV &v, Type elem, bool isUnsigned, ArrayRef<int64_t> shape, const ast::Loc &l) {
  TV converted = convertElement(v, elem, isUnsigned, l);
  if (!converted)
    return converted;
  return broadcastTo(converted, shape, l);
}

TV Generator::toBool(const TV &v, const ast::Loc &l) {
  if (v.isConst())
    return TV::makeBool(v.asDouble() != 0);
  if (!v.isVal())
    return error(l, "type mismatch: expected a condition, got " + describe(v));
  if (getElementTypeOrSelf(v.value.getType()).isInteger(1))
    return v;
  return convertElement(v, builder.getI1Type(), false, l);
}

} // namespace blk
