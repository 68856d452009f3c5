// Triton's math and integer builtins beyond the basic set (clamp, umulhi,
// fdiv, sqrt_rn) and the functions of Triton's `libdevice` module blk has:
// math-dialect ops where one exists, blk.extern_elementwise (a libdevice
// call) where none does, arith for the predicates.
#include "Generator.h"

#include "blk/Dialect/Blk/IR/LibDevice.h"

#include <cmath>

using namespace mlir;

namespace blk {
namespace {

using FoldFn = double (*)(const double *);
using BuildFn = llvm::function_ref<Value(OpBuilder &, Location, ValueRange)>;

/// One-operand libdevice functions with a math-dialect op: name, fold, op.
struct UnaryMath {
  const char *name;
  FoldFn fold;
  Value (*build)(OpBuilder &, Location, Value);
};

template <typename Op> Value unaryOp(OpBuilder &b, Location l, Value x) { return Op::create(b, l, x); }

const std::vector<UnaryMath> &unaryMathTable() {
  static const std::vector<UnaryMath> t = {
      {"log1p", [](const double *a) { return std::log1p(a[0]); }, unaryOp<math::Log1pOp>},
      {"expm1", [](const double *a) { return std::expm1(a[0]); }, unaryOp<math::ExpM1Op>},
      {"tan", [](const double *a) { return std::tan(a[0]); }, unaryOp<math::TanOp>},
      {"cosh", [](const double *a) { return std::cosh(a[0]); }, unaryOp<math::CoshOp>},
      {"sinh", [](const double *a) { return std::sinh(a[0]); }, unaryOp<math::SinhOp>},
      {"asin", [](const double *a) { return std::asin(a[0]); }, unaryOp<math::AsinOp>},
      {"acos", [](const double *a) { return std::acos(a[0]); }, unaryOp<math::AcosOp>},
      {"atan", [](const double *a) { return std::atan(a[0]); }, unaryOp<math::AtanOp>},
      {"asinh", [](const double *a) { return std::asinh(a[0]); }, unaryOp<math::AsinhOp>},
      {"acosh", [](const double *a) { return std::acosh(a[0]); }, unaryOp<math::AcoshOp>},
      {"atanh", [](const double *a) { return std::atanh(a[0]); }, unaryOp<math::AtanhOp>},
      {"log10", [](const double *a) { return std::log10(a[0]); }, unaryOp<math::Log10Op>},
      {"cbrt", [](const double *a) { return std::cbrt(a[0]); }, unaryOp<math::CbrtOp>},
      {"erfc", [](const double *a) { return std::erfc(a[0]); }, unaryOp<math::ErfcOp>},
      {"round", [](const double *a) { return std::round(a[0]); }, unaryOp<math::RoundOp>},
      {"rint", [](const double *a) { return std::nearbyint(a[0]); }, unaryOp<math::RoundEvenOp>},
      {"nearbyint", [](const double *a) { return std::nearbyint(a[0]); }, unaryOp<math::RoundEvenOp>},
      {"trunc", [](const double *a) { return std::trunc(a[0]); }, unaryOp<math::TruncOp>},
  };
  return t;
}

const UnaryMath *findUnary(const std::string &name) {
  for (const UnaryMath &u : unaryMathTable())
    if (name == u.name)
      return &u;
  return nullptr;
}

bool isBinaryMath(const std::string &n) { return llvm::is_contained({"pow", "atan2", "copysign"}, n); }
bool isFloatPredicate(const std::string &n) { return llvm::is_contained({"isnan", "isinf", "signbit"}, n); }

Value floatConstantLike(OpBuilder &b, Location l, Value like, double v) {
  Type elem = getElementTypeOrSelf(like.getType());
  Value c = arith::ConstantOp::create(b, l, b.getFloatAttr(elem, v));
  if (auto t = dyn_cast<RankedTensorType>(like.getType()))
    c = SplatOp::create(b, l, t, c);
  return c;
}

} // namespace

bool isMathBuiltin(const std::string &name) {
  return findUnary(name) || isBinaryMath(name) || isFloatPredicate(name) || lookupLibDeviceByName(name) ||
         llvm::is_contained({"clamp", "umulhi", "fdiv", "sqrt_rn", "popc", "clz"}, name);
}

/// `build` on float operands: integers compute in f32, f16/bf16/fp8 in f32
/// rounding back, f32/f64 as they are (all operands promoted together and
/// broadcast); constants fold with `fold` in float64.
TV Generator::genFloatMath(const std::string &name, std::vector<TV> xs, const ast::CallExpr &call, FoldFn fold,
                           BuildFn build) {
  if (llvm::all_of(xs, [](const TV &x) { return x.isConst(); })) {
    std::vector<double> v;
    for (const TV &x : xs)
      v.push_back(x.asDouble());
    return TV::makeFloat(fold(v.data()));
  }
  Type elem;
  bool isUnsigned = false;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!xs[i].isConst() && (!xs[i].isVal() || isa<PointerType>(elementType(xs[i]))))
      return error(builtinArgLoc(call, name, i),
                   "type mismatch: '" + name + "' needs numbers or blocks of numbers, got " + describe(xs[i]));
  }
  if (xs.size() == 1)
    elem = elementType(xs[0]);
  else if (xs.size() == 2)
    elem = promote(xs[0], xs[1], isUnsigned);
  if (!elem)
    return error(call.loc, "type mismatch: '" + name + "' of " + describe(xs[0]) + " and " + describe(xs[1]));
  Type computeType = isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() >= 32 ? elem : builder.getF32Type();
  bool roundBack = isa<FloatType>(elem) && elem != computeType;
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < xs.size(); ++i) {
    SmallVector<int64_t> joined;
    if (!broadcastShapes(shape, shapeOf(xs[i]), joined))
      return error(call.loc, "shape mismatch: '" + name + "' of " + describe(xs[0]) + " and " + describe(xs[i]));
    shape = joined;
  }
  SmallVector<Value> operands;
  for (size_t i = 0; i < xs.size(); ++i) {
    const ast::Loc &l = builtinArgLoc(call, name, i);
    TV x = xs[i].isConst() ? xs[i] : widenFloat8(xs[i], l);
    TV c;
    if (!x || !(c = cast(x, computeType, false, shape, l)))
      return TV();
    operands.push_back(c.value);
  }
  TV out = TV::makeVal(build(builder, loc(call.loc), operands));
  return roundBack ? convertElement(out, elem, false, call.loc) : out;
}

TV Generator::genMathBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  Location at = loc(call.loc);
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, name, i); };

  if (const UnaryMath *u = findUnary(name)) {
    auto build = u->build;
    return genFloatMath(name, {args[0]}, call, u->fold,
                        [&](OpBuilder &b, Location l, ValueRange v) { return build(b, l, v[0]); });
  }
  if (const LibDeviceFunction *f = lookupLibDeviceByName(name)) {
    std::vector<TV> xs(args.begin(), args.begin() + f->arity);
    return genFloatMath(name, xs, call, f->eval, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
      bool f64 = getElementTypeOrSelf(v[0].getType()).isF64();
      return ExternElementwiseOp::create(b, l, v[0].getType(), f64 ? f->f64Symbol : f->f32Symbol, v);
    });
  }
  if (isBinaryMath(name)) {
    FoldFn fold = name == "pow"     ? FoldFn([](const double *a) { return std::pow(a[0], a[1]); })
                  : name == "atan2" ? FoldFn([](const double *a) { return std::atan2(a[0], a[1]); })
                                    : FoldFn([](const double *a) { return std::copysign(a[0], a[1]); });
    return genFloatMath(name, {args[0], args[1]}, call, fold, [&](OpBuilder &b, Location l, ValueRange v) -> Value {
      if (name == "pow")
        return math::PowFOp::create(b, l, v[0], v[1]);
      if (name == "atan2")
        return math::Atan2Op::create(b, l, v[0], v[1]);
      return math::CopySignOp::create(b, l, v[0], v[1]);
    });
  }
  if (name == "sqrt_rn") { // IEEE-rounded (sqrt is sqrt.approx on f32, as in Triton)
    if (!args[0].isConst() && !(args[0].isVal() && isa<FloatType>(elementType(args[0]))))
      return error(argLoc(0), "'sqrt_rn' needs a float or a block of floats, got " + describe(args[0]));
    return genFloatMath(name, {args[0]}, call, [](const double *a) { return std::sqrt(a[0]); },
                        [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                          auto op = math::SqrtOp::create(b, l, v[0]);
                          op->setAttr(kPreciseAttr, b.getUnitAttr());
                          return op;
                        });
  }
  if (isFloatPredicate(name)) {
    TV x = args[0];
    if (x.isConst()) {
      double v = x.asDouble();
      return TV::makeBool(name == "isnan" ? std::isnan(v) : name == "isinf" ? std::isinf(v) : std::signbit(v));
    }
    if (!x.isVal() || !isa<FloatType>(elementType(x)))
      return error(argLoc(0), "'" + name + "' needs a float or a block of floats, got " + describe(x));
    if (!(x = widenFloat8(x, argLoc(0))))
      return x;
    Value v = x.value;
    if (name == "isnan")
      return TV::makeVal(arith::CmpFOp::create(builder, at, arith::CmpFPredicate::UNO, v, v));
    if (name == "isinf")
      return TV::makeVal(arith::CmpFOp::create(builder, at, arith::CmpFPredicate::OEQ,
                                               math::AbsFOp::create(builder, at, v),
                                               floatConstantLike(builder, at, v, INFINITY)));
    // signbit: the sign bit of the bits, also of -0.0 and NaN.
    Type elem = elementType(x);
    Type bits = builder.getIntegerType(elem.getIntOrFloatBitWidth());
    TV asInt = genBitcast(x, TV::makeDType(bits), argLoc(0), call.loc);
    if (!asInt)
      return asInt;
    return genCompare("<", asInt, TV::makeInt(0), call.loc);
  }
  if (name == "popc" || name == "clz" || name == "umulhi") {
    size_t n = name == "umulhi" ? 2 : 1;
    std::vector<TV> xs(args.begin(), args.begin() + n);
    bool otherIsValue = n == 2 && (xs[0].isVal() || xs[1].isVal());
    for (size_t i = 0; i < n; ++i) {
      if (xs[i].kind == TV::Int) { // a constant takes the other operand's type, or its own
        bool u;
        Type t = otherIsValue ? promote(xs[0], xs[1], u) : literalType(xs[i], u);
        if (!t || !isa<IntegerType>(t))
          return error(argLoc(1 - i), "'" + name + "' needs 32- or 64-bit integers, got " + describe(args[1 - i]));
        if (!constantFits(xs[i], t, u, argLoc(i)) || !(xs[i] = convertElement(xs[i], t, u, argLoc(i))))
          return TV();
      }
      Type t = xs[i].isVal() ? elementType(xs[i]) : Type();
      if (!t || !isa<IntegerType>(t) || (t.getIntOrFloatBitWidth() != 32 && t.getIntOrFloatBitWidth() != 64))
        return error(argLoc(i), "'" + name + "' needs 32- or 64-bit integers, got " + describe(args[i]));
    }
    if (name == "umulhi")
      return genUmulhi(xs[0], xs[1], call);
    Value r = name == "popc" ? Value(math::CtPopOp::create(builder, at, xs[0].value))
                             : Value(math::CountLeadingZerosOp::create(builder, at, xs[0].value));
    return convertElement(TV::makeVal(r), builder.getI32Type(), false, call.loc); // i32, as libdevice's
  }
  if (name == "fdiv") {
    for (size_t i = 0; i < 2; ++i)
      if (!(args[i].kind == TV::Float || (args[i].isVal() && isa<FloatType>(elementType(args[i])))))
        return error(argLoc(i), "'fdiv' needs floating-point operands, got " + describe(args[i]));
    bool ieee = false;
    if (args[2].kind != TV::None) {
      if (args[2].kind != TV::Bool)
        return error(argLoc(2), "ieee_rounding must be True or False, got " + describe(args[2]));
      ieee = args[2].i != 0;
    }
    TV q = genBinary("/", args[0], args[1], call.loc);
    if (ieee && q && q.isVal()) {
      Value v = q.value;
      if (auto round = v.getDefiningOp<arith::TruncFOp>()) // f16/bf16 divide in f32 and round back
        v = round.getIn();
      if (auto div = v.getDefiningOp<arith::DivFOp>())
        div->setAttr(kPreciseAttr, builder.getUnitAttr());
    }
    return q;
  }
  if (name == "clamp")
    return genClamp(call, args);
  return error(call.loc, "unknown function '" + name + "'");
}

/// The high half of the unsigned product of two 32- or 64-bit integers of
/// one type (Triton's umulhi: the bits read as unsigned, the type kept).
TV Generator::genUmulhi(TV a, TV b, const ast::CallExpr &call) {
  Type ta = elementType(a), tb = elementType(b);
  if (ta != tb)
    return error(call.loc, "type mismatch: 'umulhi' of " + describe(a) + " and " + describe(b));
  bool resultUnsigned = a.isUnsigned || b.isUnsigned;
  unsigned width = ta.getIntOrFloatBitWidth();
  a.isUnsigned = b.isUnsigned = true;
  SmallVector<int64_t> shape;
  if (!broadcastShape(a, b, shape, call.loc))
    return TV();
  if (!(a = broadcastTo(a, shape, call.loc)) || !(b = broadcastTo(b, shape, call.loc)))
    return TV();
  auto op = [&](const char *o, const TV &x, const TV &y) { return genBinary(o, x, y, call.loc); };
  auto lit = [](uint64_t v) { return TV::makeWideInt(v); };
  TV hi;
  if (width == 32) {
    TV wa = convertElement(a, builder.getI64Type(), true, call.loc);
    TV wb = convertElement(b, builder.getI64Type(), true, call.loc);
    hi = convertElement(op(">>", op("*", wa, wb), lit(32)), builder.getI32Type(), true, call.loc);
  } else { // 64 x 64 bits from 32-bit halves (no 128-bit integers on the targets)
    const uint64_t m = 0xFFFFFFFF;
    TV al = op("&", a, lit(m)), ah = op(">>", a, lit(32));
    TV bl = op("&", b, lit(m)), bh = op(">>", b, lit(32));
    TV ll = op("*", al, bl), lh = op("*", al, bh), hl = op("*", ah, bl), hh = op("*", ah, bh);
    TV t = op("+", hl, op(">>", ll, lit(32)));
    TV w = op("+", op("&", t, lit(m)), lh);
    hi = op("+", op("+", hh, op(">>", t, lit(32))), op(">>", w, lit(32)));
  }
  if (!hi)
    return hi;
  hi.isUnsigned = resultUnsigned;
  return hi;
}

bool Generator::propagateNan(const TV &arg, const ast::Loc &at, bool &propagate) {
  propagate = false;
  if (arg.kind == TV::Str) {
    std::string mode = llvm::StringRef(arg.s).lower();
    if (mode != "all" && mode != "none")
      return error(at, "propagate_nan must be PropagateNan.NONE or PropagateNan.ALL, got \"" + arg.s + "\""), false;
    propagate = mode == "all";
  } else if (arg.kind != TV::None) {
    return error(at, "propagate_nan must be PropagateNan.NONE or PropagateNan.ALL, got " + describe(arg)), false;
  }
  return true;
}

/// clamp(x, min, max, propagate_nan): Triton's, on floats; min and max take
/// x's type (constants) or must have it.
TV Generator::genClamp(const ast::CallExpr &call, std::vector<TV> &args) {
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, "clamp", i); };
  bool propagate;
  if (!propagateNan(args[3], argLoc(3), propagate))
    return TV();
  if (args[0].isConst() && args[1].isConst() && args[2].isConst()) {
    double x = args[0].asDouble(), lo = args[1].asDouble(), hi = args[2].asDouble();
    if (std::isnan(x))
      return TV::makeFloat(propagate ? x : std::fmin(lo, hi));
    return TV::makeFloat(std::fmin(std::fmax(x, lo), hi));
  }
  // The type: x's, or (x a constant) that of min/max.
  size_t from = args[0].isVal() ? 0 : args[1].isVal() ? 1 : 2;
  if (!args[from].isVal() || !isa<FloatType>(elementType(args[from])))
    return error(argLoc(from), "'clamp' needs floating-point operands, got " + describe(args[from]));
  Type elem = elementType(args[from]);
  SmallVector<int64_t> shape;
  for (size_t i = 0; i < 3; ++i) {
    if (args[i].isVal() && elementType(args[i]) != elem)
      return error(argLoc(i), "type mismatch: clamp's x, min and max must have one type; " + describe(args[i]) +
                                  " is not " + describe(elem));
    if (!args[i].isVal() && args[i].kind != TV::Float && args[i].kind != TV::Int)
      return error(argLoc(i), "'clamp' needs floating-point operands, got " + describe(args[i]));
    SmallVector<int64_t> joined;
    if (!broadcastShapes(shape, shapeOf(args[i]), joined))
      return error(call.loc, "shape mismatch: clamp of " + describe(args[0]) + ", " + describe(args[1]) + " and " +
                                 describe(args[2]));
    shape = joined;
  }
  Type computeType = isFloat8(elem) ? builder.getF32Type() : elem; // fp8: in f32 (exact)
  std::vector<Value> v;
  for (size_t i = 0; i < 3; ++i) {
    TV x = args[i].isVal() ? widenFloat8(args[i], argLoc(i)) : args[i];
    TV c;
    if (!x || !(c = cast(x, computeType, false, shape, argLoc(i))))
      return TV();
    v.push_back(c.value);
  }
  Location at = loc(call.loc);
  Value r = propagate ? Value(arith::MinimumFOp::create(builder, at, arith::MaximumFOp::create(builder, at, v[0], v[1]),
                                                        v[2]))
                      : Value(arith::MinNumFOp::create(builder, at, arith::MaxNumFOp::create(builder, at, v[0], v[1]),
                                                       v[2]));
  TV out = TV::makeVal(r);
  return computeType != elem ? convertElement(out, elem, false, call.loc) : out;
}

} // namespace blk
