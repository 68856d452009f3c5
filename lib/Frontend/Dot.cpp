// dot(input, other, acc=None, input_precision=None, out_dtype=f32): blk.dot,
// with Triton's parameters. f32 operands multiply as tf32 on tensor cores by
// default, as in Triton; input_precision="ieee" keeps them exact. fp8
// operands (either format with either) multiply exactly into f32.
#include "Generator.h"

using namespace mlir;

namespace blk {

TV Generator::genDot(const ast::CallExpr &call, std::vector<TV> &args) {
  Location at = loc(call.loc);
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, "dot", i); };
  TV a = args[0], b = args[1];
  for (size_t i : {0u, 1u})
    if (!args[i].isVal() || shapeOf(args[i]).size() != 2)
      return error(argLoc(i), "'dot' needs 2-D blocks, got " + describe(args[i]));
  Type elem = elementType(a);
  if (elementType(b) != elem && !(isFloat8(elem) && isFloat8(elementType(b)))) // e4m3 with e5m2 is fine
    return error(call.loc, "'dot' needs operands of one element type, got " + describe(a) + " and " + describe(b));
  bool isInt = elem.isInteger(8);
  if (!isInt && !elem.isF32() && !elem.isF16() && !elem.isBF16() && !isFloat8(elem))
    return error(argLoc(0), "'dot' multiplies f32, f16, bf16, f8e4m3, f8e5m2 or i8 blocks, got " + describe(a));
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
  if (as[1] != bs[0])
    return error(call.loc, "'dot' needs the columns of its first operand to match the rows of its second, got " +
                               describe(a) + " and " + describe(b));
  if (as[0] < 16 || as[1] < 16 || bs[1] < 16)
    return error(call.loc, "'dot' needs every dimension to be at least 16, as Triton's does, got " + describe(a) +
                               " and " + describe(b));
  // input_precision (3): "tf32" (the default) or "ieee"; it only changes f32
  // operands (16-bit floats and i8 are exact either way).
  if (args[3].kind != TV::None && !(args[3].kind == TV::Str && (args[3].s == "ieee" || args[3].s == "tf32")))
    return error(argLoc(3), "input_precision must be \"tf32\" or \"ieee\", got " +
                                (args[3].kind == TV::Str ? "\"" + args[3].s + "\"" : describe(args[3])));
  std::string precision = !elem.isF32() ? "ieee" : args[3].kind == TV::Str ? args[3].s : "tf32";
  Type accType = isInt ? Type(builder.getI32Type()) : Type(builder.getF32Type());
  if (args[4].kind != TV::None && (args[4].kind != TV::DType || args[4].type != accType))
    return error(argLoc(4), std::string("out_dtype must be ") + (isInt ? "i32" : "f32") + " for these operands, got " +
                                describe(args[4]));
  SmallVector<int64_t> shape{as[0], bs[1]};
  TV acc = args[2].kind == TV::None ? cast(TV::makeInt(0), accType, false, shape, call.loc) : args[2];
  if (!acc)
    return acc;
  if (!acc.isVal() || shapeOf(acc) != ArrayRef<int64_t>(shape) || elementType(acc) != accType)
    return error(argLoc(2), "'dot' accumulates into a " + std::to_string(shape[0]) + "x" + std::to_string(shape[1]) +
                                (isInt ? " i32" : " f32") + " block, got " + describe(acc));
  auto type = RankedTensorType::get(shape, accType);
  return TV::makeVal(DotOp::create(builder, at, type, a.value, b.value, acc.value, MmaLayoutAttr(),
                                   builder.getStringAttr(precision)));
}

} // namespace blk
