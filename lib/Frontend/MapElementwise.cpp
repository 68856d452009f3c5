// map_elementwise(scalar_fn, *args, pack=1), as Triton's: a helper written
// for one element, mapped over blocks. Its arguments are broadcast to one
// shape and the helper is inlined on them; an `if` on an element runs both
// branches and selects each changed value (and the value returned) per
// element, so a piecewise function ports as written. A load under such a
// branch reads only the elements that take it; nothing there may write
// memory or print (both branches run), and a loop in the helper runs the
// same iterations for every element.
#include "Generator.h"

using namespace mlir;

namespace blk {

TV Generator::genMapElementwise(const ast::CallExpr &call) {
  if (call.args.empty())
    return error(call.loc, "'map_elementwise' takes a function and its arguments: map_elementwise(f, x, y)");
  for (auto &kw : call.kwargs) {
    if (kw.name != "pack")
      return error(kw.loc, "'map_elementwise' has no parameter named '" + kw.name + "'");
    TV pack = gen(*kw.value);
    if (!pack)
      return pack;
    if (pack.kind != TV::Int || pack.i != 1)
      return error(kw.value->loc, "map_elementwise's pack must be 1 (each call of the function takes one element), "
                                  "got " + describe(pack));
  }
  auto *name = llvm::dyn_cast<ast::NameExpr>(call.args[0].get());
  const ast::Function *fn = name ? file.find(name->name) : nullptr;
  if (!fn || fn->isKernel)
    return error(call.args[0]->loc, "map_elementwise's first argument must be a helper function (a def without "
                                    "@kernel)");
  std::vector<TV> args;
  SmallVector<int64_t> shape;
  for (size_t i = 1; i < call.args.size(); ++i) {
    TV v = gen(*call.args[i]);
    if (!v)
      return v;
    if (!v.isConst() && !(v.isVal() && (isa<RankedTensorType>(v.value.getType()) || v.value.getType().isIntOrFloat() ||
                                        isa<PointerType>(v.value.getType()))))
      return error(call.args[i]->loc, "map_elementwise maps numbers, pointers and blocks of them, got " + describe(v));
    SmallVector<int64_t> next;
    if (!broadcastShapes(shape, shapeOf(v), next))
      return error(call.args[i]->loc, "shape mismatch: " + describe(v) + " does not broadcast with the other "
                                      "arguments of map_elementwise");
    shape = next;
    args.push_back(v);
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].isVal() && !shape.empty() && !(args[i] = broadcastTo(args[i], shape, call.args[i + 1]->loc)))
      return TV();
  std::map<std::string, TV> kwargs;
  ++mapDepth;
  TV result = genHelperCall(*fn, call, args, kwargs);
  --mapDepth;
  if (!result || shape.empty())
    return result;
  // Each value returned is a block of the mapped shape (a constant returned
  // on every path, in its literal type).
  std::vector<TV> leaves;
  appendLeaves(result, leaves);
  for (TV &leaf : leaves) {
    if (!leaf.isConst() && !leaf.isVal())
      return error(call.loc, "map_elementwise's function must return numbers, got " + describe(leaf));
    bool isUnsigned = leaf.isUnsigned;
    Type elem = leaf.isConst() ? literalType(leaf, isUnsigned) : elementType(leaf);
    if (!(leaf = cast(leaf, elem, isUnsigned, shape, call.loc)))
      return TV();
  }
  size_t pos = 0;
  return withLeaves(result, leaves, pos);
}

} // namespace blk
