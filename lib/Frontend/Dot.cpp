// dot(input, other, acc=None, input_precision=None, allow_tf32=None,
// max_num_imprecise_acc=None, out_dtype=f32): blk.dot, with Triton's
// parameters in its order. f32 operands multiply as tf32 on tensor cores by
// default, as in Triton; input_precision="ieee" (or the older
// allow_tf32=False) keeps them exact. fp8 operands (either format with
// either) multiply exactly into f32 and accumulate as the tensor cores do,
// Triton's default on Hopper (max_num_imprecise_acc of K or more).
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
  // allow_tf32 (4), Triton's older spelling: True is "tf32", False "ieee".
  std::string given = args[3].kind == TV::Str ? args[3].s : "tf32";
  if (args[4].kind != TV::None) {
    if (!expectBool(args[4], "allow_tf32", argLoc(4)))
      return TV();
    if (args[3].kind != TV::None)
      return error(argLoc(4), "'dot' takes input_precision or allow_tf32, not both");
    given = args[4].i ? "tf32" : "ieee";
  }
  std::string precision = !elem.isF32() ? "ieee" : given;
  // max_num_imprecise_acc (5): along how much of K Triton lets fp8 products
  // accumulate in the tensor cores before adding them into a full f32 sum
  // (other operands ignore it). blk does not split the accumulation: K or
  // more (or None) asks for what it does.
  if (args[5].kind != TV::None && !(args[5].kind == TV::Int && args[5].i >= 0))
    return error(argLoc(5), "max_num_imprecise_acc must be a compile-time integer of 0 or more, got " +
                                describe(args[5]));
  if (args[5].kind == TV::Int && isFloat8(elem) && args[5].i < as[1])
    return error(argLoc(5), "max_num_imprecise_acc below K (" + std::to_string(as[1]) +
                                ") is not supported: fp8 products accumulate in the tensor cores along all of K, got " +
                                std::to_string(args[5].i));
  Type accType = isInt ? Type(builder.getI32Type()) : Type(builder.getF32Type());
  if (args[6].kind != TV::None && (args[6].kind != TV::DType || args[6].type != accType))
    return error(argLoc(6), std::string("out_dtype must be ") + (isInt ? "i32" : "f32") + " for these operands, got " +
                                describe(args[6]));
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
