// inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
// Triton's inline PTX per element (or per `pack` elements). It reads its list
// arguments (`args`, a tuple `dtype`) itself, as make_tensor_descriptor does.
#include "Generator.h"

using namespace mlir;

namespace blk {
namespace {
const char *const kParams[] = {"asm", "constraints", "args", "dtype", "is_pure", "pack"};
constexpr size_t kNumParams = 6;
} // namespace

TV Generator::genInlineAsm(const ast::CallExpr &call) {
  const std::string name = "inline_asm_elementwise";
  // Bind positional and keyword arguments to the six parameters.
  const ast::Expr *bound[kNumParams] = {};
  if (call.args.size() > kNumParams)
    return error(call.loc, "'" + name + "' takes 6 arguments, got " + std::to_string(call.args.size()));
  for (size_t i = 0; i < call.args.size(); ++i)
    bound[i] = call.args[i].get();
  for (auto &kw : call.kwargs) {
    auto pos = llvm::find_if(kParams, [&](const char *p) { return kw.name == p; });
    if (pos == std::end(kParams))
      return error(kw.loc, "'" + name + "' has no parameter named '" + kw.name + "'");
    if (bound[pos - std::begin(kParams)])
      return error(kw.loc, "'" + name + "' got '" + kw.name + "' twice");
    bound[pos - std::begin(kParams)] = kw.value.get();
  }
  size_t given = llvm::count_if(bound, [](const ast::Expr *e) { return e != nullptr; });
  if (given != kNumParams)
    return error(call.loc, "'" + name + "' takes 6 arguments, got " + std::to_string(given));
  auto where = [&](size_t i) -> const ast::Loc & { return bound[i]->loc; };

  TV text = gen(*bound[0]);
  if (!text)
    return text;
  if (text.kind != TV::Str)
    return error(where(0), "the asm must be a string, got " + describe(text));
  TV constraints = gen(*bound[1]);
  if (!constraints)
    return constraints;
  if (constraints.kind != TV::Str)
    return error(where(1), "the constraints must be a string, got " + describe(constraints));

  // args: a list or tuple of values (or one value), broadcast together.
  std::vector<const ast::Expr *> argExprs;
  if (auto *list = llvm::dyn_cast<ast::ListExpr>(bound[2]))
    for (auto &e : list->elements)
      argExprs.push_back(e.get());
  else
    argExprs.push_back(bound[2]);
  if (argExprs.empty())
    return error(where(2), "inline_asm_elementwise needs at least one argument in args");
  std::vector<TV> args;
  SmallVector<int64_t> shape;
  for (const ast::Expr *e : argExprs) {
    TV v = gen(*e);
    if (!v)
      return v;
    if (v.isConst()) { // a constant takes its own type, as Triton's
      bool u;
      Type t = literalType(v, u);
      if (!(v = convertElement(v, t, u, e->loc)))
        return v;
    }
    if (!v.isVal() || isa<PointerType>(elementType(v)) || elementType(v).isInteger(1))
      return error(e->loc, "inline_asm_elementwise's arguments must be numbers or blocks of numbers (not booleans "
                           "or pointers), got " + describe(v));
    SmallVector<int64_t> joined;
    if (!broadcastShapes(shape, shapeOf(v), joined))
      return error(e->loc, "shape mismatch: " + describe(v) + " does not broadcast with the other arguments");
    shape = joined;
    args.push_back(v);
  }
  SmallVector<Value> operands;
  for (size_t i = 0; i < args.size(); ++i) {
    TV b = broadcastTo(args[i], shape, argExprs[i]->loc);
    if (!b)
      return b;
    operands.push_back(b.value);
  }

  // dtype: one type, or a list/tuple of types (one result each).
  std::vector<TV> dtypes;
  if (auto *list = llvm::dyn_cast<ast::ListExpr>(bound[3])) {
    for (auto &e : list->elements) {
      TV d = gen(*e);
      if (!d)
        return d;
      dtypes.push_back(d);
    }
  } else {
    TV d = gen(*bound[3]);
    if (!d)
      return d;
    dtypes.push_back(d);
  }
  if (dtypes.empty())
    return error(where(3), "inline_asm_elementwise needs at least one result dtype");
  for (const TV &d : dtypes)
    if (d.kind != TV::DType || isa<PointerType>(d.type) || d.type.isInteger(1))
      return error(where(3), "dtype must be a number type or a tuple of them, got " + describe(d));

  TV pure = gen(*bound[4]);
  if (!pure)
    return pure;
  if (pure.kind != TV::Bool)
    return error(where(4), "is_pure must be True or False, got " + describe(pure));
  TV pack = gen(*bound[5]);
  if (!pack)
    return pack;
  if (pack.kind != TV::Int || !isPow2(pack.i) || pack.i > 16)
    return error(where(5), "pack must be a compile-time power of two up to 16, got " + describe(pack));

  // One constraint per register: results first, then arguments.
  unsigned p = unsigned(pack.i), resultRegs = 0, argRegs = 0;
  for (const TV &d : dtypes)
    resultRegs += InlineAsmElementwiseOp::registersPerValue(d.type.getIntOrFloatBitWidth(), p);
  for (const TV &a : args)
    argRegs += InlineAsmElementwiseOp::registersPerValue(elementType(a).getIntOrFloatBitWidth(), p);
  SmallVector<StringRef> regs = InlineAsmElementwiseOp::registerConstraints(constraints.s);
  if (regs.size() != resultRegs + argRegs)
    return error(where(1), "the constraints \"" + constraints.s + "\" name " + plural(regs.size(), "register") +
                               "; " + plural(dtypes.size(), "result") + " and " + plural(args.size(), "argument") +
                               " with pack=" + std::to_string(p) + " take " + std::to_string(resultRegs) + " + " +
                               std::to_string(argRegs));
  for (size_t i = 0; i < regs.size(); ++i)
    if (regs[i].starts_with("=") != (i < resultRegs))
      return error(where(1), "constraint " + std::to_string(i) + " (\"" + regs[i].str() + "\") must " +
                                 (i < resultRegs ? "be an output (\"=r\"): results come first"
                                                 : "be an input: the arguments follow the results"));

  SmallVector<Type> resultTypes;
  for (const TV &d : dtypes)
    resultTypes.push_back(shape.empty() ? d.type : Type(RankedTensorType::get(shape, d.type)));
  auto op = InlineAsmElementwiseOp::create(builder, loc(call.loc), resultTypes, text.s, constraints.s, pure.i != 0,
                                           int32_t(p), operands);
  std::vector<TV> results;
  for (size_t i = 0; i < dtypes.size(); ++i)
    results.push_back(TV::makeVal(op.getResult(i), dtypes[i].isUnsigned));
  return results.size() == 1 ? results[0] : TV::makeTuple(std::move(results));
}

} // namespace blk
