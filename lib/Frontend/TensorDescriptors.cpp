// make_tensor_descriptor(base, shape, strides, block_shape) and a
// descriptor's .load(offsets) / .store(offsets, value), as in Triton: blocks
// of a strided tensor addressed by their offsets, zeros read outside it.
#include "Generator.h"

using namespace mlir;

namespace blk {

namespace {
const std::vector<const char *> kMakeParams = {"base", "shape", "strides", "block_shape"};
} // namespace

bool genIntList(Generator &g, const ast::Expr &expr, Type type, const char *what, SmallVectorImpl<Value> &out,
                SmallVectorImpl<TV> *raw) {
  // Written in place, or a tuple variable (its elements' errors point at it).
  TV list = g.genTupleOrValue(expr);
  if (!list)
    return false;
  if (list.kind != TV::Tuple)
    return g.error(expr.loc, std::string(what) + " must be a list or tuple such as [M, K], got " + g.describe(list)),
           false;
  auto *written = llvm::dyn_cast<ast::ListExpr>(&expr);
  for (size_t i = 0; i < list.elements.size(); ++i) {
    const TV &v = list.elements[i];
    const ast::Loc &l = written ? written->elements[i]->loc : expr.loc;
    bool isInt = v.kind == TV::Int || (v.isVal() && g.shapeOf(v).empty() && isa<IntegerType>(g.elementType(v)) &&
                                       g.elementType(v).getIntOrFloatBitWidth() > 1);
    if (!isInt)
      return g.error(l, std::string(what) + " must hold integers, got " + g.describe(v)), false;
    TV c = g.cast(v, type, false, {}, l);
    if (!c)
      return false;
    out.push_back(c.value);
    if (raw)
      raw->push_back(v);
  }
  return true;
}

bool bindParams(Generator &g, const ast::CallExpr &call, const char *fn, const std::vector<const char *> &params,
                size_t skip, std::vector<const ast::Expr *> &out) {
  out.assign(params.size(), nullptr);
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (skip + i >= params.size()) {
      std::string names;
      for (size_t p = skip; p < params.size(); ++p)
        names += std::string(p > skip ? ", " : "") + params[p];
      return g.error(call.args[i]->loc, "'" + std::string(fn) + "' takes " + plural(params.size() - skip, "argument") +
                                            " (" + names + ")"),
             false;
    }
    out[skip + i] = call.args[i].get();
  }
  for (auto &kw : call.kwargs) {
    auto pos = llvm::find_if(params, [&](const char *n) { return kw.name == n; });
    if (pos == params.end() || size_t(pos - params.begin()) < skip)
      return g.error(kw.loc, "'" + std::string(fn) + "' has no parameter named '" + kw.name + "'"), false;
    if (out[pos - params.begin()])
      return g.error(kw.loc, "'" + std::string(fn) + "' got '" + kw.name + "' twice"), false;
    out[pos - params.begin()] = kw.value.get();
  }
  for (size_t i = skip; i < params.size(); ++i)
    if (!out[i])
      return g.error(call.loc, "'" + std::string(fn) + "' needs '" + params[i] + "'"), false;
  return true;
}

TV basePointer(Generator &g, const ast::Expr &expr, const char *what) {
  TV base = g.gen(expr);
  if (base && (!base.isVal() || !g.shapeOf(base).empty() || !isa<PointerType>(g.elementType(base))))
    return g.error(expr.loc, std::string(what) + "'s base must be a pointer, got " + g.describe(base));
  return base;
}

bool blockShape(Generator &g, const ast::Expr &expr, const char *example, SmallVectorImpl<int64_t> &block) {
  if (!llvm::isa<ast::ListExpr>(expr))
    return g.error(expr.loc, std::string("block_shape must be a list of compile-time integers such as ") + example),
           false;
  return g.genShape(expr, TV::makeNone(), block);
}

TV Generator::genMakeTensorDescriptor(const ast::CallExpr &call) {
  std::vector<const ast::Expr *> params;
  if (!bindParams(*this, call, "make_tensor_descriptor", kMakeParams, 0, params))
    return TV();
  TV base = basePointer(*this, *params[0], "a tensor descriptor");
  if (!base)
    return base;
  Type elem = llvm::cast<PointerType>(elementType(base)).getPointeeType();
  if (elem.getIntOrFloatBitWidth() % 8)
    return error(params[0]->loc, "tensor descriptors hold numbers of whole bytes, got " + describe(elem));
  SmallVector<Value> shape, strides;
  SmallVector<TV> rawStrides;
  if (!genIntList(*this, *params[1], builder.getI32Type(), "a tensor descriptor's shape", shape) ||
      !genIntList(*this, *params[2], builder.getI64Type(), "a tensor descriptor's strides", strides, &rawStrides))
    return TV();
  SmallVector<int64_t> block;
  if (!blockShape(*this, *params[3], "[BLOCK_M, BLOCK_K]", block))
    return TV();
  if (shape.size() != block.size() || strides.size() != block.size())
    return error(call.loc, "a tensor descriptor needs as many sizes and strides as block dimensions (" +
                               std::to_string(block.size()) + "), got " + std::to_string(shape.size()) + " and " +
                               std::to_string(strides.size()));
  const TV &last = rawStrides.back();
  if (last.kind != TV::Int || last.i != 1)
    return error(static_cast<const ast::ListExpr &>(*params[2]).elements.back()->loc,
                 "the last stride of a tensor descriptor must be the constant 1 (its rows are contiguous), got " +
                     describe(last));
  auto type = TensorDescType::get(&ctx, block, elem);
  return TV::makeVal(MakeTensorDescriptorOp::create(builder, loc(call.loc), type, base.value, shape, strides),
                     base.isUnsigned);
}

TensorDescType Generator::genDescriptorParamType(const ast::CallExpr &call) {
  if (call.args.size() != 2 || !call.kwargs.empty())
    return error(call.loc, "a tensor descriptor parameter is annotated tensor_descriptor(T, [BLOCK_0, ...]): its "
                           "element type and block shape"),
           TensorDescType();
  TV elem = gen(*call.args[0]);
  if (!elem)
    return {};
  if (elem.kind != TV::DType || !elem.type.isIntOrFloat() || elem.type.getIntOrFloatBitWidth() % 8)
    return error(call.args[0]->loc, "a tensor descriptor's elements must be numbers of whole bytes, got " +
                                        describe(elem)),
           TensorDescType();
  SmallVector<int64_t> block;
  if (!blockShape(*this, *call.args[1], "[BLOCK_M, BLOCK_K]", block))
    return {};
  return TensorDescType::get(&ctx, block, elem.type);
}

TV Generator::bindDescriptorParam(const ast::Loc &at, TensorDescType type, ValueRange args) {
  size_t rank = type.getBlockShape().size();
  SmallVector<Value> shape(args.slice(1, rank)), strides(args.slice(1 + rank, rank - 1));
  strides.push_back(arith::ConstantIntOp::create(builder, loc(at), 1, 64));
  return TV::makeVal(MakeTensorDescriptorOp::create(builder, loc(at), type, args[0], shape, strides));
}

TV Generator::genDescriptorMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr, const TV &desc) {
  auto type = llvm::cast<TensorDescType>(desc.value.getType());
  bool isLoad = attr.name == "load";
  if (!isLoad && attr.name != "store")
    return error(attr.loc, "unknown method '" + attr.name + "' of a tensor descriptor (it has load and store)");
  size_t want = isLoad ? 1 : 2;
  if (call.args.size() != want || !call.kwargs.empty())
    return error(call.loc, isLoad ? "'.load' takes the block's offsets: desc.load([m, k])"
                                  : "'.store' takes the block's offsets and a value: desc.store([m, n], value)");
  SmallVector<Value> offsets;
  if (!genIntList(*this, *call.args[0], builder.getI32Type(), "a descriptor's offsets", offsets))
    return TV();
  if (offsets.size() != type.getRank())
    return error(call.args[0]->loc, "the descriptor's blocks have " + std::to_string(type.getRank()) +
                                        " dimensions, got " + std::to_string(offsets.size()) + " offsets");
  Location at = loc(call.loc);
  if (isLoad)
    return TV::makeVal(DescriptorLoadOp::create(builder, at, type.getBlockType(), desc.value, offsets),
                       desc.isUnsigned);
  TV value = gen(*call.args[1]);
  if (!value)
    return value;
  if (!value.isConst() && !value.isVal())
    return error(call.args[1]->loc, "'.store' needs a value, got " + describe(value));
  SmallVector<int64_t> valueShape(shapeOf(value));
  if (!valueShape.empty() && ArrayRef<int64_t>(valueShape) != type.getBlockShape())
    return error(call.args[1]->loc, "'.store' needs a block of the descriptor's shape, got " + describe(value));
  value = cast(value, type.getElementType(), desc.isUnsigned, type.getBlockShape(), call.args[1]->loc);
  if (!value)
    return value;
  DescriptorStoreOp::create(builder, at, desc.value, offsets, value.value);
  return TV::makeNone();
}

} // namespace blk
