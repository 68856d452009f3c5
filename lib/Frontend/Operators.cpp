// Arithmetic, bitwise, comparison and unary operators, with Triton's
// promotion rules and compile-time folding of constants.
#include "Generator.h"

#include <cmath>

using namespace mlir;

namespace blk {

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

static TV foldBinary(Generator &g, const std::string &op, const TV &a, const TV &b, const ast::Loc &loc) {
  bool isFloat = a.kind == TV::Float || b.kind == TV::Float;
  if (!isFloat) {
    int64_t x = a.i, y = b.i;
    if ((op == "//" || op == "%" || op == "/") && y == 0)
      return g.error(loc, "division by zero in a constant expression");
    int64_t r;
    auto overflow = [&]() { return g.error(loc, "integer overflow in a constant expression"); };
    if (op == "+") return __builtin_add_overflow(x, y, &r) ? overflow() : TV::makeInt(r);
    if (op == "-") return __builtin_sub_overflow(x, y, &r) ? overflow() : TV::makeInt(r);
    if (op == "*") return __builtin_mul_overflow(x, y, &r) ? overflow() : TV::makeInt(r);
    if ((op == "//" || op == "%") && x == INT64_MIN && y == -1)
      return overflow();
    if (op == "//") return TV::makeInt(floorDiv(x, y));
    if (op == "%") return TV::makeInt(floorMod(x, y));
    if (op == "/") return TV::makeFloat(double(x) / double(y));
    if (op == "<<" || op == ">>") {
      if (y < 0 || y > 63)
        return g.error(loc, "shift count out of range in a constant expression");
      if (op == ">>")
        return TV::makeInt(x >> y);
      if (y > 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))
        return overflow();
      return TV::makeInt(int64_t(uint64_t(x) << y));
    }
    if (op == "**") {
      if (y < 0)
        return TV::makeFloat(std::pow(double(x), double(y)));
      int64_t p = 1, base = x; // by squaring: y may be huge
      for (int64_t e = y; e > 0; e >>= 1) {
        if ((e & 1) && __builtin_mul_overflow(p, base, &p))
          return overflow();
        if (e > 1 && __builtin_mul_overflow(base, base, &base))
          return overflow();
      }
      return TV::makeInt(p);
    }
    bool bothBool = a.kind == TV::Bool && b.kind == TV::Bool;
    auto wrap = [&](int64_t v) { return bothBool ? TV::makeBool(v) : TV::makeInt(v); };
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
    TV offset = b.isConst() ? cast(b, elementType(b), false, {}, l) : b;
    if (op == "-")
      offset = genUnary("-", offset, l);
    TV ptr = broadcastTo(a, shape, l);
    offset = broadcastTo(offset, shape, l);
    if (!ptr || !offset)
      return TV();
    return TV::makeVal(AddPtrOp::create(builder, at, ptr.value.getType(), ptr.value, offset.value));
  }

  bool isUnsigned;
  Type elem = promote(a, b, isUnsigned);
  if (!elem)
    return bad();
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
    return TV::makeBool(exact ? cmp(a.i, b.i) : cmp(x, y));
  }
  if (a.kind == TV::DType && b.kind == TV::DType && (op == "==" || op == "!="))
    return TV::makeBool((a.type == b.type && a.isUnsigned == b.isUnsigned) == (op == "=="));
  bool isUnsigned;
  Type elem = promote(a, b, isUnsigned);
  if (!elem)
    return error(l, "type mismatch: cannot compare " + describe(a) + " and " + describe(b));
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
      if (a.kind != TV::Float && a.i == INT64_MIN)
        return error(l, "integer overflow in a constant expression");
      return a.kind == TV::Float ? TV::makeFloat(-a.f) : TV::makeInt(-a.i);
    }
    if (op == "~" && a.kind != TV::Float)
      return TV::makeInt(~a.i);
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
