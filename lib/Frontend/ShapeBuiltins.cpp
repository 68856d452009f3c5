// Triton's shape operations: join, split, interleave, cat, permute (and trans
// with dims), flip, gather, zeros_like, swizzle2d's index arithmetic, and
// Triton's names expand_dims, ravel and view.
// Most are written with ops every target runs (select, reduce, reshape,
// trans); gather and flip are blk.gather, and a permutation of 3 dimensions
// is blk.permute.
#include "Generator.h"

using namespace mlir;

namespace blk {

bool isShapeBuiltin(const std::string &name) {
  return llvm::is_contained(
      {"join", "split", "interleave", "cat", "flip", "gather", "zeros_like", "swizzle2d", "broadcast"}, name);
}

bool isShapeMethod(const std::string &name) { return llvm::is_contained({"split", "flip", "gather"}, name); }

bool isShapeAlias(const std::string &name) { return llvm::is_contained({"expand_dims", "ravel", "view"}, name); }

namespace {

/// The i32 block of `shape` whose every element is its coordinate along
/// `dim` (arange along `dim`, broadcast over the others).
TV coordinateAlong(Generator &g, ArrayRef<int64_t> shape, unsigned dim, const ast::Loc &l) {
  Location at = g.loc(l);
  auto i32 = g.builder.getI32Type();
  Value r = ArangeOp::create(g.builder, at, RankedTensorType::get({shape[dim]}, i32), 0, int32_t(shape[dim]));
  SmallVector<int64_t> s{shape[dim]};
  for (size_t d = dim + 1; d < shape.size(); ++d) { // trailing ones; broadcastTo adds the leading ones
    s.push_back(1);
    r = ExpandDimsOp::create(g.builder, at, RankedTensorType::get(s, i32), r, int32_t(s.size() - 1));
  }
  return g.broadcastTo(TV::makeVal(r), shape, l);
}

/// Where parameter `i` of a shape builtin was written: for x.flip(...) the
/// first parameter is x; the others are positional or keywords.
const ast::Loc &paramLoc(Generator &g, const ast::CallExpr &call, const std::string &name, size_t i,
                        const ast::Loc *selfLoc) {
  if (!selfLoc)
    return g.builtinArgLoc(call, name, i);
  if (i == 0)
    return *selfLoc;
  if (i - 1 < call.args.size())
    return call.args[i - 1]->loc;
  for (auto &kw : call.kwargs)
    if (kw.name == std::string(name == "gather" ? (i == 1 ? "index" : "axis") : "dim"))
      return kw.value->loc;
  return call.loc;
}

} // namespace

TV Generator::genJoin(const std::string &name, TV a, TV b, const ast::CallExpr &call) {
  const ast::Loc &la = builtinArgLoc(call, name, 0), &lb = builtinArgLoc(call, name, 1);
  for (auto [v, l] : {std::pair<const TV &, const ast::Loc &>{a, la}, {b, lb}})
    if (!v.isConst() && !v.isVal())
      return error(l, "'" + name + "' needs numbers or blocks, got " + describe(v));
  bool isUnsigned;
  Type elem = promote(a, b, isUnsigned);
  if (!elem) {
    Type ta = elementType(a), tb = elementType(b);
    if (!(ta && ta == tb && isa<PointerType>(ta)))
      return error(call.loc, "type mismatch: '" + name + "' of " + describe(a) + " and " + describe(b));
    elem = ta;
  }
  if (!constantFits(a, elem, isUnsigned, la) || !constantFits(b, elem, isUnsigned, lb))
    return TV();
  SmallVector<int64_t> shape;
  if (!broadcastShape(a, b, shape, call.loc))
    return TV();
  if (shape.size() >= 3)
    return error(call.loc, "'" + name + "' of " + describe(a) + " and " + describe(b) +
                               " would have 4 dimensions; blocks have 1 to 3");
  // A new last dimension of size 2: element 0 from a, element 1 from b.
  SmallVector<int64_t> joined(shape);
  joined.push_back(2);
  Location at = loc(call.loc);
  auto asColumn = [&](const TV &v, const ast::Loc &l) -> TV {
    TV c = cast(v, elem, isUnsigned, shape, l);
    if (!c || shape.empty())
      return c;
    SmallVector<int64_t> s(shape);
    s.push_back(1);
    return TV::makeVal(ExpandDimsOp::create(builder, at, RankedTensorType::get(s, elem), c.value, int32_t(shape.size())),
                       isUnsigned);
  };
  TV ca = asColumn(a, la), cb = asColumn(b, lb);
  if (!ca || !cb || !(ca = broadcastTo(ca, joined, la)) || !(cb = broadcastTo(cb, joined, lb)))
    return TV();
  TV first = genCompare("==", coordinateAlong(*this, joined, joined.size() - 1, call.loc), TV::makeInt(0), call.loc);
  if (!first)
    return first;
  return TV::makeVal(arith::SelectOp::create(builder, at, first.value, ca.value, cb.value), isUnsigned);
}

TV Generator::genSplit(const TV &a, const ast::CallExpr &call, const ast::Loc &aLoc) {
  if (!a.isVal() || shapeOf(a).empty() || shapeOf(a).back() != 2)
    return error(aLoc, "'split' needs a block whose last dimension is 2, got " + describe(a));
  Type elem = elementType(a);
  if (isa<PointerType>(elem))
    return error(aLoc, "'split' needs a block of numbers, got " + describe(a));
  // Each half is a reduction along the last dimension that keeps the element
  // at position j, whatever order the lowering combines the two in. fp8
  // travels in f32 (exact both ways).
  TV x = widenFloat8(a, aLoc);
  if (!x)
    return x;
  Type wide = elementType(x);
  SmallVector<int64_t> shape(shapeOf(x));
  unsigned axis = shape.size() - 1;
  TV position = coordinateAlong(*this, shape, axis, call.loc);
  Location at = loc(call.loc);
  auto i32 = builder.getI32Type();
  SmallVector<int64_t> rest(shape.begin(), shape.end() - 1);
  std::vector<TV> halves;
  for (int32_t j = 0; j < 2; ++j) {
    SmallVector<Type> resultTypes;
    for (Type t : {wide, Type(i32)})
      resultTypes.push_back(rest.empty() ? t : Type(RankedTensorType::get(rest, t)));
    auto red = ReduceOp::create(builder, at, resultTypes, ValueRange{x.value, position.value}, uint32_t(axis));
    {
      OpBuilder::InsertionGuard guard(builder);
      SmallVector<Type> argTypes{wide, i32, wide, i32};
      Block *body = builder.createBlock(&red.getCombine(), {}, argTypes, SmallVector<Location>(4, at));
      Value want = arith::ConstantOp::create(builder, at, builder.getI32IntegerAttr(j));
      Value firstIsJ = arith::CmpIOp::create(builder, at, arith::CmpIPredicate::eq, body->getArgument(1), want);
      ReduceReturnOp::create(
          builder, at,
          ValueRange{arith::SelectOp::create(builder, at, firstIsJ, body->getArgument(0), body->getArgument(2)),
                     arith::SelectOp::create(builder, at, firstIsJ, body->getArgument(1), body->getArgument(3))});
    }
    TV half = TV::makeVal(red.getResult(0), a.isUnsigned);
    if (wide != elem && !(half = convertElement(half, elem, false, call.loc)))
      return half;
    halves.push_back(half);
  }
  return TV::makeTuple(std::move(halves));
}

TV Generator::genFlip(const TV &x, const TV &dimArg, const ast::CallExpr &call, const ast::Loc &xLoc,
                      const ast::Loc &dimLoc) {
  if (!x.isVal() || shapeOf(x).empty() || isa<PointerType>(elementType(x)))
    return error(xLoc, "'flip' needs a block of numbers, got " + describe(x));
  SmallVector<int64_t> shape(shapeOf(x));
  int64_t rank = shape.size(), dim = rank - 1;
  if (dimArg.kind != TV::None) {
    if (dimArg.kind != TV::Int)
      return error(dimLoc, "'flip' needs a compile-time integer dim, got " + describe(dimArg));
    dim = dimArg.i < 0 ? dimArg.i + rank : dimArg.i;
    if (dim < 0 || dim >= rank)
      return error(dimLoc, "'flip' dim " + std::to_string(dimArg.i) + " is out of range for " + describe(x));
  }
  if (shape[dim] == 1)
    return x;
  // Element i along dim comes from n - 1 - i.
  TV index = genBinary("-", TV::makeInt(shape[dim] - 1), coordinateAlong(*this, shape, dim, call.loc), call.loc);
  if (!index)
    return index;
  return TV::makeVal(GatherOp::create(builder, loc(call.loc), x.value.getType(), x.value, index.value, uint32_t(dim)),
                     x.isUnsigned);
}

TV Generator::genGather(const TV &src, TV index, const TV &axisArg, const ast::CallExpr &call,
                        const ast::Loc *selfLoc) {
  const std::string name = "gather";
  const ast::Loc &srcLoc = paramLoc(*this, call, name, 0, selfLoc), &indexLoc = paramLoc(*this, call, name, 1, selfLoc),
                 &axisLoc = paramLoc(*this, call, name, 2, selfLoc);
  if (!src.isVal() || shapeOf(src).empty() || isa<PointerType>(elementType(src)))
    return error(srcLoc, "'gather' needs a block of numbers to gather from, got " + describe(src));
  Type indexType = elementType(index);
  if (!index.isVal() || shapeOf(index).empty() || !isa<IntegerType>(indexType) || indexType.isInteger(1))
    return error(indexLoc, "'gather' needs a block of integer indices, got " + describe(index));
  ArrayRef<int64_t> from = shapeOf(src), picks = shapeOf(index);
  int64_t rank = from.size();
  if (int64_t(picks.size()) != rank)
    return error(indexLoc, "shape mismatch: 'gather' needs indices of the source's rank (" + std::to_string(rank) +
                               "), got " + describe(index));
  if (axisArg.kind != TV::Int)
    return error(axisLoc, "'gather' needs a compile-time integer axis, got " + describe(axisArg));
  int64_t axis = axisArg.i < 0 ? axisArg.i + rank : axisArg.i;
  if (axis < 0 || axis >= rank)
    return error(axisLoc, "axis " + std::to_string(axisArg.i) + " is out of range for a block of rank " +
                              std::to_string(rank));
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && picks[d] != from[d])
      return error(indexLoc, "shape mismatch: 'gather' indices " + describe(index) + " must match the source " +
                                 describe(src) + " in every dimension but axis " + std::to_string(axis));
  // Narrow indices widen with their signedness (a u8 index of 200 is 200).
  if (indexType.getIntOrFloatBitWidth() < 32 && !(index = convertElement(index, builder.getI32Type(), false, indexLoc)))
    return index;
  auto type = RankedTensorType::get(picks, elementType(src));
  return TV::makeVal(GatherOp::create(builder, loc(call.loc), type, src.value, index.value, uint32_t(axis)),
                     src.isUnsigned);
}

TV Generator::genCat(const TV &a, const TV &b, const TV &canReorder, const ast::CallExpr &call) {
  const ast::Loc &la = builtinArgLoc(call, "cat", 0), &lb = builtinArgLoc(call, "cat", 1);
  if (!a.isVal() || shapeOf(a).empty())
    return error(la, "'cat' needs blocks, got " + describe(a));
  if (!b.isVal() || shapeOf(b).empty())
    return error(lb, "'cat' needs blocks, got " + describe(b));
  if (canReorder.kind != TV::None && canReorder.kind != TV::Bool)
    return error(builtinArgLoc(call, "cat", 2), "can_reorder must be True or False, got " + describe(canReorder));
  SmallVector<int64_t> shape(shapeOf(a));
  if (shapeOf(b) != ArrayRef<int64_t>(shape))
    return error(call.loc, "shape mismatch: 'cat' needs two blocks of one shape, got " + describe(a) + " and " +
                               describe(b));
  bool isUnsigned;
  Type elem = promote(a, b, isUnsigned);
  if (!elem) {
    Type ta = elementType(a), tb = elementType(b);
    if (!(ta && ta == tb && isa<PointerType>(ta)))
      return error(call.loc, "type mismatch: 'cat' of " + describe(a) + " and " + describe(b));
    elem = ta;
  }
  // Rows 0 and 1 of a [2, numel] block hold a and b in row-major order; read
  // in row-major order, that is a then b along dimension 0 (the order kept
  // whatever can_reorder says).
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  SmallVector<int64_t> rows{2, numel};
  Location at = loc(call.loc);
  auto row = [&](const TV &v, const ast::Loc &l) -> TV {
    TV c = convertElement(v, elem, isUnsigned, l);
    if (c && shape.size() > 1)
      c = genReshape(c, {numel}, l, l, call.loc);
    if (!c)
      return c;
    c = TV::makeVal(ExpandDimsOp::create(builder, at, RankedTensorType::get({1, numel}, elem), c.value, 0), isUnsigned);
    return broadcastTo(c, rows, l);
  };
  TV ra = row(a, la), rb = row(b, lb);
  TV first = genCompare("==", coordinateAlong(*this, rows, 0, call.loc), TV::makeInt(0), call.loc);
  if (!ra || !rb || !first)
    return TV();
  TV stacked = TV::makeVal(arith::SelectOp::create(builder, at, first.value, ra.value, rb.value), isUnsigned);
  SmallVector<int64_t> result(shape);
  result[0] *= 2;
  return genReshape(stacked, result, call.loc, call.loc, call.loc);
}

TV Generator::genPermute(const std::string &name, const ast::CallExpr &call, const TV *self,
                         const ast::Loc *selfLoc) {
  // permute(input, *dims) and trans(input, *dims): the dims as one list or
  // tuple, or one integer per argument; trans without dims swaps two.
  const ast::Expr *input = nullptr;
  std::vector<const ast::Expr *> dims;
  bool dimsGiven = false;
  size_t first = 0;
  if (!self && !call.args.empty())
    input = call.args[first++].get();
  if (call.args.size() == first + 1 && llvm::isa<ast::ListExpr>(*call.args[first])) {
    for (auto &e : static_cast<const ast::ListExpr &>(*call.args[first]).elements)
      dims.push_back(e.get());
    dimsGiven = true;
  } else {
    for (size_t i = first; i < call.args.size(); ++i)
      dims.push_back(call.args[i].get());
    dimsGiven = call.args.size() > first;
  }
  for (auto &kw : call.kwargs) {
    if (kw.name == "input" && !self && !input) {
      input = kw.value.get();
    } else if (kw.name == "dims" && !dimsGiven) {
      dimsGiven = true;
      if (auto *list = llvm::dyn_cast<ast::ListExpr>(kw.value.get()))
        for (auto &e : list->elements)
          dims.push_back(e.get());
      else
        dims.push_back(kw.value.get());
    } else if (kw.name == "input" || kw.name == "dims") {
      return error(kw.loc, "'" + name + "' got '" + kw.name + "' twice");
    } else {
      return error(kw.loc, "'" + name + "' has no parameter named '" + kw.name + "'");
    }
  }
  if (!self && !input)
    return error(call.loc, "'" + name + "' needs a block to permute");
  TV x = self ? *self : gen(*input);
  if (!x)
    return x;
  const ast::Loc &xLoc = self ? *selfLoc : input->loc;
  if (!dimsGiven) {
    if (name == "permute")
      return error(call.loc, "'permute' needs the new order of the dimensions: permute(x, (1, 0))");
    return genTrans(x, xLoc, call.loc);
  }
  if (!x.isVal() || shapeOf(x).empty())
    return error(xLoc, "'" + name + "' needs a block, got " + describe(x));
  int64_t rank = shapeOf(x).size();
  SmallVector<int64_t> order;
  SmallVector<bool> seen(rank, false);
  bool valid = int64_t(dims.size()) == rank;
  for (const ast::Expr *e : dims) {
    TV d = gen(*e);
    if (!d)
      return d;
    if (d.kind != TV::Int)
      return error(e->loc, "'" + name + "' needs compile-time integer dims, got " + describe(d));
    valid = valid && d.i >= 0 && d.i < rank && !seen[d.i];
    if (d.i >= 0 && d.i < rank)
      seen[d.i] = true;
    order.push_back(d.i);
  }
  if (!valid) {
    std::string got = llvm::join(llvm::map_range(order, [](int64_t d) { return std::to_string(d); }), ", ");
    return error(call.loc, "'" + name + "' dims must be a permutation of the " + std::to_string(rank) +
                               " dimensions of " + describe(x) + " (each of 0 to " + std::to_string(rank - 1) +
                               " once), got (" + got + ")");
  }
  if (llvm::equal(order, llvm::seq<int64_t>(0, rank)))
    return x;
  if (rank == 2)
    return genTrans(x, xLoc, call.loc);
  auto type = mlir::cast<RankedTensorType>(x.value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : order)
    shape.push_back(type.getDimSize(d));
  auto result = RankedTensorType::get(shape, type.getElementType());
  return TV::makeVal(PermuteOp::create(builder, loc(call.loc), result, x.value, order), x.isUnsigned);
}

TV Generator::genShapeAlias(const std::string &name, const ast::CallExpr &call, const TV *self,
                            const ast::Loc *selfLoc) {
  // expand_dims(input, axis), ravel(x, can_reorder=False), view(input, *shape):
  // blk.expand_dims once per new axis, and reshape (row-major, one of the
  // orders Triton's view and ravel may give).
  bool isView = name == "view";
  const char *first = name == "ravel" ? "x" : "input";
  const char *second = name == "expand_dims" ? "axis" : name == "ravel" ? "can_reorder" : "shape";
  const ast::Expr *input = nullptr, *param = nullptr;
  std::vector<const ast::Expr *> shapeArgs; // view's shape, as written
  size_t at = 0;
  if (!self && !call.args.empty())
    input = call.args[at++].get();
  if (isView) {
    for (; at < call.args.size(); ++at)
      shapeArgs.push_back(call.args[at].get());
  } else if (at < call.args.size()) {
    param = call.args[at++].get();
  }
  if (at < call.args.size())
    return error(call.args[at]->loc, "'" + name + "' takes " + (self ? "1 argument" : "2 arguments") + ", got " +
                                         std::to_string(call.args.size()));
  for (auto &kw : call.kwargs) {
    if (kw.name == first && !self && !input) {
      input = kw.value.get();
    } else if (kw.name == second && !param && shapeArgs.empty()) {
      if (isView)
        shapeArgs.push_back(kw.value.get());
      else
        param = kw.value.get();
    } else if (kw.name == first || kw.name == second) {
      return error(kw.loc, "'" + name + "' got '" + kw.name + "' twice");
    } else {
      return error(kw.loc, "'" + name + "' has no parameter named '" + kw.name + "'");
    }
  }
  if (!self && !input)
    return error(call.loc, "'" + name + "' needs a block");
  TV x = self ? *self : gen(*input);
  if (!x)
    return x;
  const ast::Loc &xLoc = self ? *selfLoc : input->loc;

  if (name == "expand_dims") {
    if (!param)
      return error(call.loc, "'expand_dims' needs an axis: expand_dims(x, 0) or expand_dims(x, (0, 2))");
    if (!x.isVal() || (shapeOf(x).empty() && isa<PointerType>(elementType(x))))
      return error(xLoc, "'expand_dims' needs a block or a runtime number, got " + describe(x));
    TV axisArg = genTupleOrValue(*param);
    if (!axisArg)
      return axisArg;
    std::vector<TV> axes = axisArg.kind == TV::Tuple ? axisArg.elements : std::vector<TV>{axisArg};
    SmallVector<int64_t> shape(shapeOf(x));
    int64_t rank = int64_t(shape.size() + axes.size());
    if (axes.empty())
      return error(param->loc, "'expand_dims' needs at least one axis");
    if (rank > 3)
      return error(param->loc, "'expand_dims' of " + describe(x) + " along " + std::to_string(axes.size()) + (axes.size() == 1 ? " axis" : " axes") +
                                   " gives " + std::to_string(rank) + " dimensions; blocks have 1 to 3");
    auto *list = llvm::dyn_cast<ast::ListExpr>(param);
    SmallVector<int64_t> wrapped;
    for (size_t k = 0; k < axes.size(); ++k) {
      const TV &a = axes[k];
      const ast::Loc &aLoc = list ? list->elements[k]->loc : param->loc;
      if (a.kind != TV::Int)
        return error(aLoc, "'expand_dims' needs compile-time integer axes, got " + describe(a));
      if (a.i < -rank || a.i >= rank)
        return error(aLoc, "'expand_dims' axis " + std::to_string(a.i) + " is out of range for a result of " +
                                     std::to_string(rank) + " dimensions (" + std::to_string(-rank) + " to " +
                                     std::to_string(rank - 1) + ")");
      int64_t d = a.i < 0 ? a.i + rank : a.i;
      if (llvm::is_contained(wrapped, d))
        return error(aLoc, "'expand_dims' got axis " + std::to_string(d) + " twice");
      wrapped.push_back(d);
    }
    llvm::sort(wrapped);
    if (shape.empty()) { // a number: the block of one element (Triton splats it)
      for (size_t k = 0; k < wrapped.size(); ++k)
        shape.push_back(1);
      return cast(x, elementType(x), x.isUnsigned, shape, call.loc);
    }
    Value v = x.value;
    Type elem = elementType(x);
    for (int64_t d : wrapped) {
      shape.insert(shape.begin() + d, 1);
      v = ExpandDimsOp::create(builder, loc(call.loc), RankedTensorType::get(shape, elem), v, int32_t(d));
    }
    return TV::makeVal(v, x.isUnsigned);
  }

  if (!x.isVal() || shapeOf(x).empty())
    return error(xLoc, "'" + name + "' needs a block, got " + describe(x));
  int64_t numel = 1;
  for (int64_t d : shapeOf(x))
    numel *= d;
  if (name == "ravel") {
    if (param) {
      TV canReorder = gen(*param);
      if (!canReorder)
        return canReorder;
      if (canReorder.kind != TV::Bool)
        return error(param->loc, "can_reorder must be True or False, got " + describe(canReorder));
    }
    if (shapeOf(x).size() == 1)
      return x;
    return genReshape(x, {numel}, xLoc, xLoc, call.loc);
  }

  // view: the shape as one list or tuple, or one integer per argument.
  if (shapeArgs.empty())
    return error(call.loc, "'view' needs a shape: view(x, [A, B]) or x.view(A, B)");
  SmallVector<int64_t> shape;
  const ast::Loc &shapeLoc = shapeArgs[0]->loc;
  if (shapeArgs.size() == 1 && llvm::isa<ast::ListExpr>(*shapeArgs[0])) {
    if (!genShape(*shapeArgs[0], TV::makeNone(), shape))
      return TV();
  } else {
    for (const ast::Expr *e : shapeArgs) {
      TV d = llvm::isa<ast::ListExpr>(*e) ? TV::makeNone() : gen(*e);
      if (!llvm::isa<ast::ListExpr>(*e) && !d)
        return d;
      if (d.kind != TV::Int)
        return error(e->loc, "'view' needs compile-time integer dimensions, got " + describe(d));
      if (!isPow2(d.i))
        return error(e->loc, "block dimensions must be powers of two, got " + std::to_string(d.i));
      shape.push_back(d.i);
    }
    if (shape.size() > 3)
      return error(call.loc, "blocks have 1 to 3 dimensions, got " + std::to_string(shape.size()));
  }
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (count != numel)
    return error(shapeLoc, "cannot view " + describe(x) + " (" + std::to_string(numel) + " elements) as " +
                               std::to_string(count) + " elements");
  return genReshape(x, shape, xLoc, shapeLoc, call.loc);
}

TV Generator::genShapeMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr, const TV &base) {
  // x.split(), x.flip(dim), x.gather(index, axis): the function with its
  // first parameter bound to x.
  const std::string &name = attr.name;
  static const std::map<std::string, std::vector<const char *>> params = {
      {"split", {}}, {"flip", {"dim"}}, {"gather", {"index", "axis"}}};
  const std::vector<const char *> &names = params.at(name);
  if (call.args.size() > names.size())
    return error(call.loc, "'." + name + "' takes " + plural(names.size(), "argument") + ", got " +
                               std::to_string(call.args.size()));
  std::vector<TV> args(names.size(), TV::makeNone());
  for (size_t i = 0; i < call.args.size(); ++i)
    if (!(args[i] = gen(*call.args[i])))
      return TV();
  for (auto &kw : call.kwargs) {
    auto pos = llvm::find_if(names, [&](const char *n) { return kw.name == n; });
    if (pos == names.end())
      return error(kw.loc, "'." + name + "' has no parameter named '" + kw.name + "'");
    if (size_t(pos - names.begin()) < call.args.size())
      return error(kw.loc, "'." + name + "' got '" + kw.name + "' twice");
    if (!(args[pos - names.begin()] = gen(*kw.value)))
      return TV();
  }
  if (name == "split")
    return genSplit(base, call, attr.base->loc);
  if (name == "flip")
    return genFlip(base, args[0], call, attr.base->loc, paramLoc(*this, call, name, 1, &attr.base->loc));
  if (args[0].kind == TV::None || args[1].kind == TV::None)
    return error(call.loc, "'.gather' takes an index block and an axis: x.gather(index, axis)");
  return genGather(base, args[0], args[1], call, &attr.base->loc);
}

TV Generator::genShapeBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, name, i); };
  if (name == "join")
    return genJoin(name, args[0], args[1], call);
  if (name == "interleave") {
    // join, then the new dimension folded into the last one.
    TV c = genJoin(name, args[0], args[1], call);
    if (!c || shapeOf(c).size() == 1)
      return c;
    SmallVector<int64_t> shape(shapeOf(c).drop_back());
    shape.back() *= 2;
    return genReshape(c, shape, call.loc, call.loc, call.loc);
  }
  if (name == "split")
    return genSplit(args[0], call, argLoc(0));
  if (name == "cat")
    return genCat(args[0], args[1], args[2], call);
  if (name == "flip")
    return genFlip(args[0], args[1], call, argLoc(0), argLoc(1));
  if (name == "gather")
    return genGather(args[0], args[1], args[2], call, nullptr);
  if (name == "broadcast") {
    // Both operands at the shape they broadcast to, as a pair.
    SmallVector<int64_t> shape;
    if (!broadcastShape(args[0], args[1], shape, call.loc))
      return TV();
    TV a = broadcastTo(args[0], shape, call.loc), b = broadcastTo(args[1], shape, call.loc);
    if (!a || !b)
      return TV();
    return TV::makeTuple({a, b});
  }
  if (name == "zeros_like") {
    TV x = args[0];
    if (!x.isVal() || isa<PointerType>(elementType(x)))
      return error(argLoc(0), "'zeros_like' needs a block or a runtime number, got " + describe(x));
    return cast(TV::makeInt(0), elementType(x), x.isUnsigned, shapeOf(x), call.loc);
  }
  // swizzle2d(i, j, size_i, size_j, size_g), as Triton's standard library
  // computes it: the row-major index of (i, j) regrouped into column-major
  // runs of size_g rows (the last group may have fewer).
  TV i = args[0], j = args[1], sizeI = args[2], sizeJ = args[3], sizeG = args[4];
  for (size_t k = 0; k < 5; ++k)
    if (!args[k].isConst() && !args[k].isVal())
      return error(argLoc(k), "'swizzle2d' needs integers, got " + describe(args[k]));
  auto bin = [&](const char *op, const TV &a, const TV &b) { return a && b ? genBinary(op, a, b, call.loc) : TV(); };
  TV ij = bin("+", bin("*", i, sizeJ), j);
  TV sizeGJ = bin("*", sizeG, sizeJ);
  TV groupId = bin("//", ij, sizeGJ);
  TV offI = bin("*", groupId, sizeG);
  std::vector<TV> minArgs{bin("-", sizeI, offI), sizeG, TV::makeNone()};
  std::map<std::string, TV> none;
  TV rows = minArgs[0] ? genBuiltin("minimum", call, minArgs, none) : TV();
  TV inGroup = bin("%", ij, sizeGJ);
  TV newI = bin("+", offI, bin("%", inGroup, rows));
  TV newJ = bin("//", inGroup, rows);
  if (!newI || !newJ)
    return TV();
  return TV::makeTuple({newI, newJ});
}

} // namespace blk
