// Arithmetic, bitwise, comparison and unary operators, with Triton's
// promotion rules and compile-time folding of constants.
#include "Generator.h"

#include <cmath>

using namespace mlir;

namespace blk {

using Wide = __int128;

static Wide floorDiv(Wide a, Wide b) {
  Wide q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static Wide floorMod(Wide a, Wide b) {
  Wide r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/// Folds constants with Python's semantics; integers are exact in 128 bits
/// and must end in [-2^63, 2^64), what i64 and u64 hold.
static TV foldBinary(Generator &g, const std::string &op, const TV &a, const TV &b, const ast::Loc &loc) {
  bool isFloat = a.kind == TV::Float || b.kind == TV::Float;
  if (!isFloat) {
    Wide x = a.wide(), y = b.wide();
    if ((op == "//" || op == "%" || op == "/") && y == 0)
      return g.error(loc, "division by zero in a constant expression");
    auto overflow = [&]() { return g.error(loc, "integer overflow in a constant expression"); };
    auto make = [&](Wide r) { return TV::fitsConstant(r) ? TV::makeWideInt(r) : overflow(); };
    if (op == "+") return make(x + y);
    if (op == "-") return make(x - y);
    if (op == "*") {
      Wide r;
      return __builtin_mul_overflow(x, y, &r) ? overflow() : make(r);
    }
    if (op == "//") return make(floorDiv(x, y));
    if (op == "%") return make(floorMod(x, y));
    if (op == "/") return TV::makeFloat(a.asDouble() / b.asDouble());
    if (op == "<<" || op == ">>") {
      if (y < 0)
        return g.error(loc, "negative shift count in a constant expression");
      if (op == ">>")
        return make(y > 127 ? (x < 0 ? -1 : 0) : x >> int(y));
      if (x == 0)
        return TV::makeInt(0);
      if (y > 64) // x is below 2^64 in magnitude: anything further overflows
        return overflow();
      Wide r;
      return __builtin_mul_overflow(x, Wide(1) << int(y), &r) ? overflow() : make(r);
    }
    if (op == "**") {
      if (y < 0)
        return TV::makeFloat(std::pow(a.asDouble(), b.asDouble()));
      Wide p = 1, base = x; // by squaring: y may be huge
      for (Wide e = y; e > 0; e >>= 1) {
        if ((e & 1) && (__builtin_mul_overflow(p, base, &p) || !TV::fitsConstant(p)))
          return overflow();
        if (e > 1 && __builtin_mul_overflow(base, base, &base))
          base = Wide(1) << 100; // beyond every constant: a later use overflows
      }
      return make(p);
    }
    bool bothBool = a.kind == TV::Bool && b.kind == TV::Bool;
    auto wrap = [&](Wide v) { return bothBool ? TV::makeBool(v != 0) : make(v); };
    if (op == "&") return wrap(x & y);
    if (op == "|") return wrap(x | y);
    if (op == "^") return wrap(x ^ y);
  } else {
    double x = a.asDouble(), y = b.asDouble();
    if (op == "+") return TV::makeFloat(x + y);
    if (op == "-") return TV::makeFloat(x - y);
    if (op == "*") return TV::makeFloat(x * y);
    if (op == "/") return TV::makeFloat(x / y);
    if (op == "//") return TV::makeFloat(std::floor(x / y));
    if (op == "%") return TV::makeFloat(x - std::floor(x / y) * y);
    if (op == "**") return TV::makeFloat(std::pow(x, y));
    return g.error(loc, "type mismatch: '" + op + "' needs integer operands, got a float constant");
  }
  return g.error(loc, "unsupported operator '" + op + "'");
}

TV Generator::genBinary(const std::string &op, TV a, TV b, const ast::Loc &l) {
  Location at = loc(l);
  auto bad = [&]() {
    return error(l, "type mismatch: cannot apply '" + op + "' to " + describe(a) + " and " + describe(b));
  };
  if (a.isConst() && b.isConst())
    return foldBinary(*this, op, a, b, l);
  if (a.kind == TV::BlockPtr || b.kind == TV::BlockPtr)
    return error(l, "cannot apply '" + op + "' to a " + describe(a.kind == TV::BlockPtr ? a : b) +
                        "; move it with advance(p, offsets)");
  if (!(a.isConst() || a.isVal()) || !(b.isConst() || b.isVal()))
    return bad();

  // Pointer arithmetic counts in elements.
  bool ptrA = isa<PointerType>(elementType(a)), ptrB = isa<PointerType>(elementType(b));
  if (ptrA || ptrB) {
    if (ptrB && !ptrA && op == "+")
      std::swap(a, b);
    if ((op != "+" && op != "-") || !isa<IntegerType>(elementType(b)) || isa<PointerType>(elementType(b)))
      return bad();
    SmallVector<int64_t> shape;
    if (!broadcastShape(a, b, shape, l))
      return TV();
    // Offsets are signed; a constant beyond i32 and an unsigned offset
    // narrower than 64 bits go through i64 (zero-extended, as in Triton).
    TV offset = b;
    if (b.isConst())
      offset = cast(b, b.wide() >= INT32_MIN && b.wide() <= INT32_MAX ? builder.getI32Type() : builder.getI64Type(),
                    false, {}, l);
    else if (b.isUnsigned && elementType(b).getIntOrFloatBitWidth() < 64)
      offset = convertElement(b, builder.getI64Type(), false, l);
    if (!offset)
      return offset;
    if (op == "-")
      offset = genUnary("-", offset, l);
    TV ptr = broadcastTo(a, shape, l);
    offset = broadcastTo(offset, shape, l);
    if (!ptr || !offset)
      return TV();
    return TV::makeVal(AddPtrOp::create(builder, at, ptr.value.getType(), ptr.value, offset.value), ptr.isUnsigned);
  }

  bool isUnsigned;
  Type elem = promote(a, b, isUnsigned);
  if (!elem)
    return bad();
  if (!constantFits(a, elem, isUnsigned, l) || !constantFits(b, elem, isUnsigned, l))
    return TV();
  if ((op == "//" || op == "%") && a.isVal() && b.isVal() && isa<IntegerType>(elem) &&
      !elementType(a).isInteger(1) && !elementType(b).isInteger(1) && a.isUnsigned != b.isUnsigned)
    return error(l, "'" + op + "' of " + describe(a) + " and " + describe(b) +
                        " mixes signedness; convert one of them with .to() (as Triton requires)");
  bool isFloat = isa<FloatType>(elem);
  if (op == "/" && !isFloat) { // true division of integers gives f32
    elem = builder.getF32Type();
    isFloat = true;
    isUnsigned = false;
  }
  bool bitwise = op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
  if (bitwise && isFloat)
    return error(l, "type mismatch: '" + op + "' needs integer or boolean operands, got " + describe(a) +
                        " and " + describe(b));
  if (op == "**")
    return error(l, "'**' works on compile-time constants only; use exp/log or multiply");
  if (isFloat8(elem)) { // in f32, rounded back
    TV r = genBinary(op, widenFloat8(a, l), widenFloat8(b, l), l);
    return r ? convertElement(r, elem, false, l) : r;
  }
  SmallVector<int64_t> shape;
  if (!broadcastShape(a, b, shape, l))
    return TV();
  TV ca = cast(a, elem, isUnsigned, shape, l);
  TV cb = cast(b, elem, isUnsigned, shape, l);
  if (!ca || !cb)
    return TV();
  Value x = ca.value, y = cb.value;
  Value r;
  if (isFloat) {
    if (op == "+") r = arith::AddFOp::create(builder, at, x, y);
    else if (op == "-") r = arith::SubFOp::create(builder, at, x, y);
    else if (op == "*") r = arith::MulFOp::create(builder, at, x, y);
    else if (op == "/") r = arith::DivFOp::create(builder, at, x, y);
    else if (op == "%") r = arith::RemFOp::create(builder, at, x, y);
    else if (op == "//") r = math::FloorOp::create(builder, at, arith::DivFOp::create(builder, at, x, y));
  } else {
    if (op == "+") r = arith::AddIOp::create(builder, at, x, y);
    else if (op == "-") r = arith::SubIOp::create(builder, at, x, y);
    else if (op == "*") r = arith::MulIOp::create(builder, at, x, y);
    else if (op == "//") r = isUnsigned ? Value(arith::DivUIOp::create(builder, at, x, y)) : Value(arith::DivSIOp::create(builder, at, x, y));
    else if (op == "%") r = isUnsigned ? Value(arith::RemUIOp::create(builder, at, x, y)) : Value(arith::RemSIOp::create(builder, at, x, y));
    else if (op == "&") r = arith::AndIOp::create(builder, at, x, y);
    else if (op == "|") r = arith::OrIOp::create(builder, at, x, y);
    else if (op == "^") r = arith::XOrIOp::create(builder, at, x, y);
    else if (op == "<<") r = arith::ShLIOp::create(builder, at, x, y);
    else if (op == ">>") r = isUnsigned ? Value(arith::ShRUIOp::create(builder, at, x, y)) : Value(arith::ShRSIOp::create(builder, at, x, y));
  }
  if (!r)
    return bad();
  return TV::makeVal(r, isUnsigned);
}

TV Generator::genCompare(const std::string &op, TV a, TV b, const ast::Loc &l) {
  if (a.isConst() && b.isConst()) {
    double x = a.asDouble(), y = b.asDouble();
    bool exact = a.kind != TV::Float && b.kind != TV::Float;
    auto cmp = [&](auto p, auto q) -> bool {
      if (op == "<") return p < q;
      if (op == "<=") return p <= q;
      if (op == ">") return p > q;
      if (op == ">=") return p >= q;
      if (op == "==") return p == q;
      return p != q;
    };
    return TV::makeBool(exact ? cmp(a.wide(), b.wide()) : cmp(x, y));
  }
  // Strings (constexpr modes such as "tanh") only test equality, as a
  // compile-time bool; Python's lexicographic order has no use in a kernel.
  if (a.kind == TV::Str && b.kind == TV::Str) {
    if (op != "==" && op != "!=")
      return error(l, "strings compare only with '==' and '!=', not '" + op + "'");
    return TV::makeBool((a.s == b.s) == (op == "=="));
  }
  if (a.kind == TV::DType && b.kind == TV::DType && (op == "==" || op == "!="))
    return TV::makeBool((a.type == b.type && a.isUnsigned == b.isUnsigned) == (op == "=="));
  bool isUnsigned;
  Type elem = promote(a, b, isUnsigned);
  if (!elem)
    return error(l, "type mismatch: cannot compare " + describe(a) + " and " + describe(b));
  if (!constantFits(a, elem, isUnsigned, l) || !constantFits(b, elem, isUnsigned, l))
    return TV();
  if (isFloat8(elem))
    return genCompare(op, widenFloat8(a, l), widenFloat8(b, l), l);
  SmallVector<int64_t> shape;
  if (!broadcastShape(a, b, shape, l))
    return TV();
  TV ca = cast(a, elem, isUnsigned, shape, l), cb = cast(b, elem, isUnsigned, shape, l);
  if (!ca || !cb)
    return TV();
  Location at = loc(l);
  if (isa<FloatType>(elem)) {
    using P = arith::CmpFPredicate;
    P p = op == "<" ? P::OLT : op == "<=" ? P::OLE : op == ">" ? P::OGT : op == ">=" ? P::OGE : op == "==" ? P::OEQ : P::UNE;
    return TV::makeVal(arith::CmpFOp::create(builder, at, p, ca.value, cb.value));
  }
  using P = arith::CmpIPredicate;
  P p;
  if (op == "==") p = P::eq;
  else if (op == "!=") p = P::ne;
  else if (op == "<") p = isUnsigned ? P::ult : P::slt;
  else if (op == "<=") p = isUnsigned ? P::ule : P::sle;
  else if (op == ">") p = isUnsigned ? P::ugt : P::sgt;
  else p = isUnsigned ? P::uge : P::sge;
  return TV::makeVal(arith::CmpIOp::create(builder, at, p, ca.value, cb.value));
}

TV Generator::genUnary(const std::string &op, TV a, const ast::Loc &l) {
  if (a.isConst()) {
    if (op == "not")
      return TV::makeBool(a.asDouble() == 0);
    if (op == "+")
      return a;
    if (op == "-") {
      if (a.kind == TV::Float)
        return TV::makeFloat(-a.f);
      if (!TV::fitsConstant(-a.wide()))
        return error(l, "integer overflow in a constant expression");
      return TV::makeWideInt(-a.wide());
    }
    if (op == "~" && a.kind != TV::Float) {
      if (!TV::fitsConstant(~a.wide()))
        return error(l, "integer overflow in a constant expression");
      return TV::makeWideInt(~a.wide());
    }
    return error(l, "type mismatch: cannot apply '" + op + "' to " + describe(a));
  }
  if (!a.isVal() || isa<PointerType>(elementType(a)))
    return error(l, "type mismatch: cannot apply '" + op + "' to " + describe(a));
  Location at = loc(l);
  Type elem = elementType(a);
  if (op == "+")
    return a;
  if (op == "-" && isFloat8(elem)) {
    TV r = genUnary("-", widenFloat8(a, l), l);
    return r ? convertElement(r, elem, false, l) : r;
  }
  if (op == "-") {
    if (isa<FloatType>(elem))
      return TV::makeVal(arith::NegFOp::create(builder, at, a.value), a.isUnsigned);
    return genBinary("-", cast(TV::makeInt(0), elem, a.isUnsigned, shapeOf(a), l), a, l);
  }
  if (op == "not") {
    TV c = toBool(a, l);
    if (!c)
      return c;
    return genBinary("^", c, TV::makeBool(true), l);
  }
  if (op == "~") {
    if (isa<FloatType>(elem))
      return error(l, "type mismatch: '~' needs an integer operand, got " + describe(a));
    return genBinary("^", a, cast(TV::makeInt(-1), elem, a.isUnsigned, shapeOf(a), l), l);
  }
  return error(l, "unsupported operator '" + op + "'");
}

} // namespace blk
