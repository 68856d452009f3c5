// sum, xor_sum, reduce_or, max, min, argmax, argmin: blk.reduce with the
// combiner in its region; cumsum, cumprod: blk.scan likewise.
#include "Generator.h"

using namespace mlir;

namespace blk {
namespace {

enum class Combine { Sum, Prod, Xor, Or, Max, Min, ArgMax, ArgMin };

/// Builds the combiner of `kind` over element types `types` (value, and for
/// arg reductions the index) into `region` (of a reduce or a scan). An arg
/// reduction without `tieBreakLeft` keeps either index of equal values
/// (Triton's tie_break_left=False: no order promised, one compare less).
void buildCombiner(OpBuilder &builder, Location at, Region &region, Combine kind, ArrayRef<Type> types,
                   bool isUnsigned, bool tieBreakLeft = true) {
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Type> argTypes(types);
  argTypes.append(types.begin(), types.end());
  SmallVector<Location> locs(argTypes.size(), at);
  Block *body = builder.createBlock(&region, {}, argTypes, locs);
  Value a = body->getArgument(0), b = body->getArgument(types.size());
  Type t = types[0];
  bool isFloat = isa<FloatType>(t);
  SmallVector<Value> results;
  switch (kind) {
  case Combine::Sum:
    results.push_back(isFloat ? Value(arith::AddFOp::create(builder, at, a, b)) : Value(arith::AddIOp::create(builder, at, a, b)));
    break;
  case Combine::Prod:
    results.push_back(isFloat ? Value(arith::MulFOp::create(builder, at, a, b)) : Value(arith::MulIOp::create(builder, at, a, b)));
    break;
  case Combine::Xor:
    results.push_back(arith::XOrIOp::create(builder, at, a, b));
    break;
  case Combine::Or:
    results.push_back(arith::OrIOp::create(builder, at, a, b));
    break;
  case Combine::Max:
    results.push_back(isFloat ? Value(arith::MaxNumFOp::create(builder, at, a, b))
                              : isUnsigned ? Value(arith::MaxUIOp::create(builder, at, a, b))
                                           : Value(arith::MaxSIOp::create(builder, at, a, b)));
    break;
  case Combine::Min:
    results.push_back(isFloat ? Value(arith::MinNumFOp::create(builder, at, a, b))
                              : isUnsigned ? Value(arith::MinUIOp::create(builder, at, a, b))
                                           : Value(arith::MinSIOp::create(builder, at, a, b)));
    break;
  case Combine::ArgMax:
  case Combine::ArgMin: {
    // Take b when it is strictly better, or (tieBreakLeft) equal with a
    // smaller index (the first occurrence wins, as in numpy).
    bool isMax = kind == Combine::ArgMax;
    Value ia = body->getArgument(1), ib = body->getArgument(3);
    Value better;
    if (isFloat)
      better = arith::CmpFOp::create(builder, at, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT, b, a);
    else
      better = arith::CmpIOp::create(builder, at,
                                     isMax ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                                           : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt),
                                     b, a);
    Value takeB = better;
    if (tieBreakLeft) {
      Value equal = isFloat ? Value(arith::CmpFOp::create(builder, at, arith::CmpFPredicate::OEQ, b, a))
                            : Value(arith::CmpIOp::create(builder, at, arith::CmpIPredicate::eq, b, a));
      Value earlier = arith::CmpIOp::create(builder, at, arith::CmpIPredicate::slt, ib, ia);
      takeB = arith::OrIOp::create(builder, at, better, arith::AndIOp::create(builder, at, equal, earlier));
    }
    results.push_back(arith::SelectOp::create(builder, at, takeB, b, a));
    results.push_back(arith::SelectOp::create(builder, at, takeB, ib, ia));
    break;
  }
  }
  ReduceReturnOp::create(builder, at, results);
}

} // namespace

// `args` holds every parameter of the builtin's signature, None where not given.
TV Generator::genReduction(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  Location at = loc(call.loc);
  TV x = args[0];
  // Python's max and min of two compile-time numbers, as Triton evaluates
  // them on constexprs (BLOCK_K: constexpr = min(K, 64)): the first largest
  // (smallest) argument itself, int or float.
  if ((name == "max" || name == "min") && x.isConst() && args[1].isConst() && args[2].kind == TV::None &&
      args[3].kind == TV::None && args[4].kind == TV::None) {
    bool second = name == "max" ? args[1].asDouble() > x.asDouble() : args[1].asDouble() < x.asDouble();
    return second ? args[1] : x;
  }
  if (!x.isVal() || shapeOf(x).empty())
    return error(call.loc, "'" + name + "' reduces a block, got " + describe(x));
  Type elem = elementType(x);
  if (isa<PointerType>(elem))
    return error(call.loc, "'" + name + "' cannot reduce a block of pointers");
  bool isArg = name == "argmax" || name == "argmin";
  // Triton's orders: (input, axis, return_indices, return_indices_tie_break_left, keep_dims)
  // and (input, axis, tie_break_left, keep_dims).
  bool hasReturnIndices = name == "max" || name == "min";
  bool withIndices = isArg;
  TV axisArg = args[1];
  size_t keepIdx = hasReturnIndices ? 4 : isArg ? 3 : 2;
  if (hasReturnIndices && args[2].kind != TV::None) {
    if (!args[2].isConst())
      return error(call.loc, "return_indices must be a compile-time bool");
    withIndices = args[2].asDouble() != 0;
  }
  bool tieBreakLeft = true;
  if (size_t tieIdx = hasReturnIndices ? 3 : 2; (hasReturnIndices || isArg) && args[tieIdx].kind != TV::None) {
    if (!expectBool(args[tieIdx], hasReturnIndices ? "return_indices_tie_break_left" : "tie_break_left",
                    builtinArgLoc(call, name, tieIdx)))
      return TV();
    tieBreakLeft = args[tieIdx].i != 0;
  }
  bool keepDims = false;
  if (args[keepIdx].kind != TV::None) {
    if (!args[keepIdx].isConst())
      return error(call.loc, "keep_dims must be a compile-time bool");
    keepDims = args[keepIdx].asDouble() != 0;
  }
  SmallVector<int64_t> shape(shapeOf(x));
  int64_t rank = shape.size();
  SmallVector<int64_t> axes; // reduced in this order (largest first keeps indices valid)
  if (axisArg.kind == TV::None) {
    for (int64_t d = rank - 1; d >= 0; --d)
      axes.push_back(d);
  } else {
    std::optional<int64_t> a = resolveAxis(axisArg, rank, call.loc);
    if (!a)
      return TV();
    axes.push_back(*a);
  }
  bool isUnsigned = x.isUnsigned;
  bool bitwise = name == "xor_sum" || name == "reduce_or";
  if (bitwise && !isa<IntegerType>(elem))
    return error(call.loc, "'" + name + "' reduces a block of integers, got " + describe(x));
  // Booleans (Triton counts int1 among its integers) reduce as 0 and 1 in
  // i32, whose OR or XOR is 0 or 1 again: back to a boolean after.
  bool booleans = bitwise && elem.isInteger(1);
  if (booleans) {
    if (!(x = convertElement(x, builder.getI32Type(), /*isUnsigned=*/true, call.loc)))
      return x;
    elem = elementType(x);
  }
  Combine kind = name == "sum" ? Combine::Sum
                 : name == "xor_sum" ? Combine::Xor
                 : name == "reduce_or" ? Combine::Or
                 : name == "max" ? (withIndices ? Combine::ArgMax : Combine::Max)
                 : name == "min" ? (withIndices ? Combine::ArgMin : Combine::Min)
                 : name == "argmax" ? Combine::ArgMax : Combine::ArgMin;
  if (kind == Combine::Sum && !(x = sumInput(name, x, name == "sum" ? args[3] : TV::makeNone(), call.loc)))
    return x;
  Type roundBack = isFloat8(elem) && hasReturnIndices ? elem : Type(); // max, min
  if (!(x = widenFloat8(x, call.loc))) // fp8 compares in f32
    return x;
  elem = elementType(x);
  Value value = x.value, index;
  if (kind == Combine::ArgMax || kind == Combine::ArgMin) {
    // Indices along the reduced axis (or flat indices for a whole-block
    // reduction), broadcast to the block's shape.
    auto i32 = builder.getI32Type();
    TV flat;
    for (int64_t d = 0; d < rank; ++d) {
      if (axes.size() == 1 && d != axes[0])
        continue;
      Value r = ArangeOp::create(builder, at, RankedTensorType::get({shape[d]}, i32), 0, int32_t(shape[d]));
      SmallVector<int64_t> s{shape[d]};
      for (int64_t e = d + 1; e < rank; ++e) { // trailing dimensions of size 1; broadcastTo adds leading ones
        s.push_back(1);
        r = ExpandDimsOp::create(builder, at, RankedTensorType::get(s, i32), r, int32_t(s.size() - 1));
      }
      TV idx = broadcastTo(TV::makeVal(r), shape, call.loc);
      flat = flat ? genBinary("+", genBinary("*", flat, TV::makeInt(shape[d]), call.loc), idx, call.loc) : idx;
      if (!flat)
        return flat;
    }
    index = flat.value;
  }
  for (int64_t axis : axes) {
    SmallVector<Value> srcs{value};
    SmallVector<Type> elems{elem};
    if (index) {
      srcs.push_back(index);
      elems.push_back(builder.getI32Type());
    }
    SmallVector<Type> resultTypes;
    auto t = mlir::cast<RankedTensorType>(value.getType());
    for (Type e : elems) {
      if (t.getRank() == 1) {
        resultTypes.push_back(e);
      } else {
        SmallVector<int64_t> s(t.getShape());
        s.erase(s.begin() + axis);
        resultTypes.push_back(RankedTensorType::get(s, e));
      }
    }
    auto red = ReduceOp::create(builder, at, resultTypes, srcs, uint32_t(axis));
    buildCombiner(builder, at, red.getCombine(), kind, elems, isUnsigned, tieBreakLeft);
    value = red.getResult(0);
    if (index)
      index = red.getResult(1);
  }
  auto keep = [&](Value v) -> Value {
    if (!keepDims)
      return v;
    Type e = getElementTypeOrSelf(v.getType());
    if (axes.size() > 1 || rank == 1) // a scalar back to a block of ones
      return broadcastTo(TV::makeVal(v), SmallVector<int64_t>(rank, 1), call.loc).value;
    SmallVector<int64_t> s(mlir::cast<RankedTensorType>(v.getType()).getShape());
    s.insert(s.begin() + axes[0], 1);
    return ExpandDimsOp::create(builder, at, RankedTensorType::get(s, e), v, uint32_t(axes[0]));
  };
  if (name == "argmax" || name == "argmin")
    return TV::makeVal(keep(index));
  TV result = TV::makeVal(keep(value), isUnsigned);
  if (booleans)
    result = convertElement(result, builder.getI1Type(), false, call.loc);
  if (roundBack) // the largest or smallest of fp8 values is one of them: exact
    result = convertElement(result, roundBack, false, call.loc);
  if (withIndices)
    return TV::makeTuple({result, TV::makeVal(keep(index))});
  return result;
}

TV Generator::genSoftmax(const ast::CallExpr &call, std::vector<TV> &args) {
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, "softmax", i); };
  TV x = args[0];
  if (!x.isVal() || shapeOf(x).empty() || !isa<FloatType>(elementType(x)))
    return error(argLoc(0), "'softmax' needs a block of floats, got " + describe(x));
  std::optional<int64_t> dim =
      resolveAxis(args[1].kind == TV::None ? TV::makeInt(0) : args[1], int64_t(shapeOf(x).size()), argLoc(1));
  if (!dim || (args[2].kind != TV::None && !expectBool(args[2], "keep_dims", argLoc(2))) ||
      (args[3].kind != TV::None && !expectBool(args[3], "ieee_rounding", argLoc(3))))
    return TV();
  // Triton's composition: x - max(x, dim, keep_dims), exp, its sum, fdiv.
  std::vector<TV> maxArgs{x, TV::makeInt(*dim), TV::makeNone(), TV::makeNone(), args[2]};
  TV top = genReduction("max", call, maxArgs);
  TV num = top ? genMath("exp", genBinary("-", x, top, call.loc), call.loc) : TV();
  if (!num)
    return TV();
  std::vector<TV> sumArgs{num, TV::makeInt(*dim), args[2], TV::makeNone()};
  TV den = genReduction("sum", call, sumArgs);
  if (!den)
    return TV();
  std::vector<TV> divArgs{num, den, args[3]};
  return genMathBuiltin("fdiv", call, divArgs);
}

std::optional<int64_t> Generator::resolveAxis(const TV &axis, int64_t rank, const ast::Loc &l) {
  if (axis.kind != TV::Int)
    return error(l, "the axis must be a compile-time integer, got " + describe(axis)), std::nullopt;
  int64_t a = axis.i < 0 ? axis.i + rank : axis.i;
  if (a < 0 || a >= rank)
    return error(l, "axis " + std::to_string(axis.i) + " is out of range for a block of rank " +
                        std::to_string(rank)),
           std::nullopt;
  return a;
}

TV Generator::widenForSum(const TV &x, const ast::Loc &l) {
  // Sums (and scans) of narrow types accumulate in f32 / i32, as Triton's do.
  Type elem = elementType(x), wide = elem;
  if (isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() < 32)
    wide = builder.getF32Type();
  else if (isa<IntegerType>(elem) && elem.getIntOrFloatBitWidth() < 32)
    wide = builder.getI32Type();
  return wide == elem ? x : convertElement(x, wide, x.isUnsigned && !elem.isInteger(1), l);
}

TV Generator::sumInput(const std::string &name, const TV &x, const TV &dtype, const ast::Loc &l) {
  if (dtype.kind == TV::None)
    return widenForSum(x, l);
  if (dtype.kind != TV::DType)
    return error(l, "'" + name + "': dtype must be a type such as f32, got " + describe(dtype));
  // The accumulations the code generator is tested with (and widenForSum's).
  Type t = dtype.type;
  if (!(t.isF32() || t.isInteger(32)))
    return error(l, "'" + name + "' accumulates in f32, i32 or u32, not " + describe(t));
  return convertElement(x, t, dtype.isUnsigned, l);
}

// cumsum(input, axis=0, reverse=False, dtype=None), cumprod(input, axis=0,
// reverse=False): inclusive scans (from the end with reverse).
TV Generator::genScan(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  TV x = args[0];
  if (!x.isVal() || shapeOf(x).empty())
    return error(call.loc, "'" + name + "' scans a block, got " + describe(x));
  if (isa<PointerType>(elementType(x)))
    return error(call.loc, "'" + name + "' cannot scan a block of pointers");
  int64_t axis = 0;
  if (args[1].kind != TV::None) {
    std::optional<int64_t> a = resolveAxis(args[1], shapeOf(x).size(), call.loc);
    if (!a)
      return TV();
    axis = *a;
  }
  bool reverse = false;
  if (args[2].kind != TV::None) {
    if (!args[2].isConst())
      return error(call.loc, "reverse must be a compile-time bool");
    reverse = args[2].asDouble() != 0;
  }
  if (!(x = sumInput(name, x, name == "cumsum" ? args[3] : TV::makeNone(), call.loc)))
    return x;
  Location at = loc(call.loc);
  auto scan = ScanOp::create(builder, at, TypeRange{x.value.getType()}, ValueRange{x.value}, uint32_t(axis), reverse);
  buildCombiner(builder, at, scan.getCombine(), name == "cumsum" ? Combine::Sum : Combine::Prod, {elementType(x)},
                x.isUnsigned);
  return TV::makeVal(scan.getResult(0), x.isUnsigned);
}

} // namespace blk
