// reduce(input, axis, combine_fn, keep_dims=False) and
// associative_scan(input, axis, combine_fn, reverse=False), Triton's: a
// blk.reduce or blk.scan whose region is the helper `combine_fn` inlined on
// scalars, one element of each input from each side, over one block or a
// tuple of blocks of one shape.
#include "Generator.h"

using namespace mlir;

namespace blk {

bool isForbiddenInCombine(const std::string &name) {
  // Builtins that make or need blocks, touch memory or print: a combine
  // function sees one element of each input at a time.
  return isAtomic(name) || isSortBuiltin(name) || isReduction(name) ||
         llvm::is_contained({"load", "store", "make_tensor_descriptor", "arange", "zeros", "full", "reshape", "trans",
                             "broadcast_to", "dot", "cumsum", "cumprod", "reduce", "associative_scan", "device_print", "device_assert",
                             "debug_barrier", "inline_asm_elementwise", "permute", "join", "split", "interleave",
                             "cat", "flip", "gather"},
                            name);
}

namespace {

/// The parameters of reduce and associative_scan, in order.
const char *const kReduceParams[] = {"input", "axis", "combine_fn", "keep_dims"};
const char *const kScanParams[] = {"input", "axis", "combine_fn", "reverse"};

} // namespace

TV Generator::genCombineBuiltin(const std::string &name, const ast::CallExpr &call, const TV *self,
                                const ast::Loc *selfLoc) {
  bool isReduce = name == "reduce";
  const char *const *params = isReduce ? kReduceParams : kScanParams;
  // Each parameter's expression, from positions (after x in x.reduce(...))
  // and keywords.
  const ast::Expr *exprs[4] = {};
  size_t first = self ? 1 : 0;
  if (first + call.args.size() > 4)
    return error(call.loc, "'" + name + "' takes 3 to 4 arguments, got " +
                               std::to_string(first + call.args.size() + call.kwargs.size()));
  for (size_t i = 0; i < call.args.size(); ++i)
    exprs[first + i] = call.args[i].get();
  for (const ast::KeywordArg &kw : call.kwargs) {
    auto *pos = std::find_if(params + first, params + 4, [&](const char *p) { return kw.name == p; });
    if (pos == params + 4)
      return error(kw.loc, "'" + name + "' has no parameter named '" + kw.name + "'");
    if (exprs[pos - params])
      return error(kw.loc, "'" + name + "' got '" + kw.name + "' twice");
    exprs[pos - params] = kw.value.get();
  }
  for (size_t i = first; i < 3; ++i)
    if (!exprs[i])
      return error(call.loc, "'" + name + "' is missing argument '" + params[i] + "'");

  // input: a block or a tuple of blocks of one shape.
  const ast::Loc &inputLoc = self ? *selfLoc : exprs[0]->loc;
  TV input = self ? *self : genTupleOrValue(*exprs[0]);
  if (!input)
    return input;
  std::vector<TV> inputs = input.kind == TV::Tuple ? input.elements : std::vector<TV>{input};
  for (const TV &x : inputs) {
    if (!x.isVal() || shapeOf(x).empty() || isa<PointerType>(elementType(x)))
      return error(inputLoc, "'" + name + "' combines blocks of numbers (or a tuple of them), got " + describe(x));
    if (isFloat8(elementType(x))) // its registers are bytes the region's copies cannot take
      return error(inputLoc, "'" + name + "' cannot combine fp8 blocks (" + describe(x) +
                                 "): convert them with .to(f32) first");
    if (shapeOf(x) != shapeOf(inputs[0]))
      return error(inputLoc, "the blocks '" + name + "' combines must have one shape, got " + describe(inputs[0]) +
                                 " and " + describe(x));
  }
  int64_t rank = shapeOf(inputs[0]).size();

  TV axisArg = gen(*exprs[1]);
  if (!axisArg)
    return axisArg;
  SmallVector<int64_t> axes; // reduced in this order: the last first keeps the combination in row-major order
  if (axisArg.kind == TV::None && isReduce) {
    for (int64_t d = rank - 1; d >= 0; --d)
      axes.push_back(d);
  } else {
    std::optional<int64_t> a = resolveAxis(axisArg, rank, exprs[1]->loc);
    if (!a)
      return TV();
    axes.push_back(*a);
  }

  // combine_fn: a helper of this file (or imported), 2N parameters.
  const ast::Expr &fnExpr = *exprs[2];
  auto *fnName = llvm::dyn_cast<ast::NameExpr>(&fnExpr);
  const ast::Function *fn = fnName && !env.count(fnName->name) ? file.find(fnName->name) : nullptr;
  if (!fn || fn->isKernel)
    return error(fnExpr.loc, "combine_fn must name a helper function (a def without @kernel) of this file or one "
                             "it imports, got " +
                                 (fnName ? "'" + fnName->name + "'" : std::string("an expression")));
  size_t n = inputs.size(), required = 0;
  for (const ast::Param &p : fn->params)
    required += !p.defaultValue;
  if (required > 2 * n || fn->params.size() < 2 * n)
    return error(fnExpr.loc, "combine function '" + fn->name + "' takes " + plural(fn->params.size(), "parameter") +
                                 "; combining " + (n == 1 ? std::string("one block") : plural(n, "block")) +
                                 " needs " + std::to_string(2 * n) + ": one value of each block from each side");

  bool flag = false; // keep_dims, reverse
  if (exprs[3]) {
    TV f = gen(*exprs[3]);
    if (!f)
      return f;
    if (f.kind != TV::Bool && f.kind != TV::Int)
      return error(exprs[3]->loc, std::string(params[3]) + " must be a compile-time bool, got " + describe(f));
    flag = f.i != 0;
  }

  Location at = loc(call.loc);
  std::vector<TV> values = inputs;
  if (!isReduce) {
    SmallVector<Value> srcs;
    SmallVector<Type> types;
    for (const TV &v : values) {
      srcs.push_back(v.value);
      types.push_back(v.value.getType());
    }
    auto scan = ScanOp::create(builder, at, types, srcs, uint32_t(axes[0]), flag);
    // Triton's reverse scan runs from the end: the partial of higher indices
    // is the helper's first side (blk.scan's is the lower one).
    if (!genCombineRegion(scan.getCombine(), *fn, inputs, /*swapSides=*/flag, call, fnExpr.loc))
      return TV();
    for (size_t i = 0; i < n; ++i)
      values[i] = TV::makeVal(scan.getResult(i), inputs[i].isUnsigned);
  } else {
    for (int64_t axis : axes) {
      SmallVector<Value> srcs;
      SmallVector<Type> types;
      for (const TV &v : values) {
        auto t = mlir::cast<RankedTensorType>(v.value.getType());
        srcs.push_back(v.value);
        SmallVector<int64_t> s(t.getShape());
        s.erase(s.begin() + axis);
        types.push_back(s.empty() ? t.getElementType() : Type(RankedTensorType::get(s, t.getElementType())));
      }
      auto red = ReduceOp::create(builder, at, types, srcs, uint32_t(axis));
      if (!genCombineRegion(red.getCombine(), *fn, inputs, /*swapSides=*/false, call, fnExpr.loc))
        return TV();
      for (size_t i = 0; i < n; ++i)
        values[i] = TV::makeVal(red.getResult(i), inputs[i].isUnsigned);
    }
    if (flag) { // keep_dims: size-1 dimensions where the reduced ones were
      for (TV &v : values) {
        if (axes.size() > 1 || rank == 1) { // a scalar back to a block of ones
          v = broadcastTo(v, SmallVector<int64_t>(rank, 1), call.loc);
          continue;
        }
        auto t = mlir::cast<RankedTensorType>(v.value.getType());
        SmallVector<int64_t> s(t.getShape());
        s.insert(s.begin() + axes[0], 1);
        v = TV::makeVal(
            ExpandDimsOp::create(builder, at, RankedTensorType::get(s, t.getElementType()), v.value, uint32_t(axes[0])),
            v.isUnsigned);
      }
    }
  }
  return input.kind == TV::Tuple ? TV::makeTuple(values) : values[0];
}

bool Generator::genCombineRegion(Region &region, const ast::Function &fn, ArrayRef<TV> inputs, bool swapSides,
                                 const ast::CallExpr &call, const ast::Loc &fnLoc) {
  OpBuilder::InsertionGuard guard(builder);
  size_t n = inputs.size();
  SmallVector<Type> types;
  for (const TV &x : inputs)
    types.push_back(elementType(x));
  SmallVector<Type> argTypes(types);
  argTypes.append(types.begin(), types.end());
  SmallVector<Location> locs(2 * n, loc(call.loc));
  Block *body = builder.createBlock(&region, {}, argTypes, locs);
  std::vector<TV> args;
  for (size_t k = 0; k < 2 * n; ++k)
    args.push_back(TV::makeVal(body->getArgument(swapSides ? (k + n) % (2 * n) : k), inputs[k % n].isUnsigned));
  std::map<std::string, TV> noKeywords;
  const ast::Function *outer = combineFn;
  combineFn = &fn;
  TV result = genHelperCall(fn, call, args, noKeywords);
  combineFn = outer;
  if (!result)
    return false;
  std::vector<TV> results = result.kind == TV::Tuple  ? result.elements
                            : result.kind == TV::None ? std::vector<TV>{}
                                                      : std::vector<TV>{result};
  if (results.size() != n)
    return error(fnLoc, "combine function '" + fn.name + "' returns " + plural(results.size(), "value") +
                            "; it must return " + std::to_string(n) + ", one per block combined"),
           false;
  SmallVector<Value> values;
  for (size_t i = 0; i < n; ++i) {
    TV r = results[i];
    bool isFloat = isa<FloatType>(types[i]);
    bool constantOfKind = r.kind == TV::Float ? isFloat : r.kind == TV::Int || r.kind == TV::Bool;
    if (r.isConst() && constantOfKind) {
      if (!constantFits(r, types[i], inputs[i].isUnsigned, fnLoc) ||
          !(r = convertElement(r, types[i], inputs[i].isUnsigned, fnLoc)))
        return false;
    } else if (!r.isVal() || !shapeOf(r).empty() || elementType(r) != types[i]) {
      return error(fnLoc, "combine function '" + fn.name + "' returns " + describe(r) + " as value " +
                              std::to_string(i) + ", but the block it combines there holds " +
                              describe(types[i], inputs[i].isUnsigned)),
             false;
    }
    values.push_back(r.value);
  }
  // The lowering copies the region's ops into every step of the reduction
  // or scan: they must be straight-line code on scalars.
  // An op that does not declare its effects counts as one that has some.
  WalkResult walk = body->walk([&](Operation *op) {
    if (isa<ReduceReturnOp>(op))
      return WalkResult::advance();
    bool blocks = llvm::any_of(op->getOperandTypes(), llvm::IsaPred<ShapedType>) ||
                  llvm::any_of(op->getResultTypes(), llvm::IsaPred<ShapedType>);
    return op->getNumRegions() || blocks || !isMemoryEffectFree(op) ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return error(fnLoc, "combine function '" + fn.name + "' must be straight-line code on scalars: no if, for or "
                        "while on run-time values (choose with where), no blocks, no memory access"),
           false;
  ReduceReturnOp::create(builder, loc(call.loc), values);
  return true;
}

} // namespace blk
