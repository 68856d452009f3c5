// Block pointers, as Triton's make_block_ptr and advance: a base pointer,
// the tensor's sizes and strides, and a block's shape and offsets. They
// live only in the generator (TV::BlockPtr); a load or store through one
// becomes the block's pointers and, for the dimensions in `boundary_check`,
// a mask of the elements inside the tensor, which the passes treat as any
// other access (so it vectorizes and pipelines as the pointers allow).
#include "Generator.h"

using namespace mlir;

namespace blk {

namespace {
const std::vector<const char *> kMakeParams = {"base", "shape", "strides", "offsets", "block_shape", "order"};
const std::vector<const char *> kAdvanceParams = {"base", "offsets"};

/// A list of compile-time integers (`order`, `boundary_check`): a list or
/// tuple written in place, a tuple value, one integer, or None (none).
bool constantInts(Generator &g, const ast::Expr &expr, const char *what, std::vector<int64_t> &out) {
  TV v = g.genTupleOrValue(expr);
  if (!v)
    return false;
  if (v.kind == TV::None)
    return true;
  std::vector<TV> items = v.kind == TV::Tuple ? v.elements : std::vector<TV>{v};
  for (const TV &item : items) {
    if (item.kind != TV::Int)
      return g.error(expr.loc, std::string(what) + " must hold compile-time integers, got " + g.describe(item)),
             false;
    out.push_back(item.i);
  }
  return true;
}

/// Offsets are 32-bit, as Triton's: a 64-bit value is an error rather than
/// a silent truncation (its sizes and strides are 64-bit).
bool offsetsFit(Generator &g, const ast::Expr &list, llvm::ArrayRef<TV> raw) {
  auto *written = llvm::dyn_cast<ast::ListExpr>(&list);
  for (size_t i = 0; i < raw.size(); ++i) {
    const TV &v = raw[i];
    unsigned bits = v.isVal() ? g.elementType(v).getIntOrFloatBitWidth() : 0;
    bool wide = v.isVal() ? bits > 32 || (v.isUnsigned && bits == 32) : v.wide() < INT32_MIN || v.wide() > INT32_MAX;
    if (wide)
      return g.error(written ? written->elements[i]->loc : list.loc,
                     "block pointer offsets are 32-bit signed integers, got " + g.describe(v) +
                         "; convert it with .to(i32) or address the block through pointers"),
             false;
  }
  return true;
}

std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}
} // namespace

TV Generator::genMakeBlockPtr(const ast::CallExpr &call) {
  std::vector<const ast::Expr *> p;
  if (!bindParams(*this, call, "make_block_ptr", kMakeParams, 0, p))
    return TV();
  TV base = basePointer(*this, *p[0], "a block pointer");
  if (!base)
    return base;
  SmallVector<Value> sizes, strides, offsets;
  SmallVector<TV> rawOffsets;
  if (!genIntList(*this, *p[1], builder.getI64Type(), "a block pointer's shape", sizes) ||
      !genIntList(*this, *p[2], builder.getI64Type(), "a block pointer's strides", strides) ||
      !genIntList(*this, *p[3], builder.getI32Type(), "a block pointer's offsets", offsets, &rawOffsets) ||
      !offsetsFit(*this, *p[3], rawOffsets))
    return TV();
  SmallVector<int64_t> block;
  if (!blockShape(*this, *p[4], "(BLOCK_M, BLOCK_K)", block))
    return TV();
  std::vector<int64_t> order;
  if (!constantInts(*this, *p[5], "order", order))
    return TV();
  size_t rank = block.size();
  if (sizes.size() != rank || strides.size() != rank || offsets.size() != rank || order.size() != rank)
    return error(call.loc, "a block pointer needs as many sizes, strides, offsets and order entries as block "
                           "dimensions (" + std::to_string(rank) + "), got " + std::to_string(sizes.size()) + ", " +
                               std::to_string(strides.size()) + ", " + std::to_string(offsets.size()) + " and " +
                               std::to_string(order.size()));
  std::vector<int64_t> sorted = order;
  llvm::sort(sorted);
  for (size_t d = 0; d < rank; ++d)
    if (sorted[d] != int64_t(d))
      return error(p[5]->loc, "order must be a permutation of the block's dimensions 0 to " +
                                  std::to_string(rank - 1) + ", got " + shapeText(order));
  std::vector<TV> parts{base};
  for (auto *list : {&sizes, &strides, &offsets})
    for (Value v : *list)
      parts.push_back(TV::makeVal(v));
  return TV::makeBlockPtr(std::move(parts), std::vector<int64_t>(block.begin(), block.end()), std::move(order));
}

TV Generator::genAdvance(const ast::CallExpr &call, const TV *self, const ast::Loc *selfLoc) {
  std::vector<const ast::Expr *> p;
  if (!bindParams(*this, call, "advance", kAdvanceParams, self ? 1 : 0, p))
    return TV();
  TV base = self ? *self : gen(*p[0]);
  if (!base)
    return base;
  const ast::Loc &baseLoc = self ? *selfLoc : p[0]->loc;
  if (base.kind != TV::BlockPtr)
    return error(baseLoc, "'advance' needs a block pointer (make_block_ptr), got " + describe(base));
  SmallVector<Value> deltas;
  SmallVector<TV> rawDeltas;
  if (!genIntList(*this, *p[1], builder.getI32Type(), "advance's offsets", deltas, &rawDeltas) ||
      !offsetsFit(*this, *p[1], rawDeltas))
    return TV();
  if (deltas.size() != base.rank())
    return error(p[1]->loc, "the block pointer has " + plural(base.rank(), "dimension") + ", got " +
                                plural(deltas.size(), "offset"));
  TV moved = base;
  for (size_t d = 0; d < base.rank(); ++d) {
    TV sum = genBinary("+", base.blockOffset(d), TV::makeVal(deltas[d]), p[1]->loc);
    if (!sum)
      return sum;
    moved.elements[1 + 2 * base.rank() + d] = sum;
  }
  return moved;
}

bool Generator::genBlockPointerAccess(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  bool isLoad = name == "load";
  const TV bp = args[0];
  size_t checkArg = 3, paddingArg = 4;
  if (args[isLoad ? 1 : 2].kind != TV::None || (isLoad && args[2].kind != TV::None))
    return error(builtinArgLoc(call, name, isLoad ? (args[1].kind != TV::None ? 1 : 2) : 2),
                 std::string(isLoad ? "a load through a block pointer takes no mask or other: "
                                    : "a store through a block pointer takes no mask: ") +
                     "boundary_check=(0, 1) names the dimensions checked against the tensor's shape"),
           false;
  Type pointee = llvm::cast<PointerType>(elementType(bp.blockBase())).getPointeeType();
  std::vector<int64_t> checked;
  if (const ast::Expr *e = builtinArgExpr(call, name, checkArg))
    if (!constantInts(*this, *e, "boundary_check", checked))
      return false;
  for (int64_t d : checked)
    if (d < 0 || d >= int64_t(bp.rank()))
      return error(builtinArgLoc(call, name, checkArg),
                   "boundary_check names dimension " + std::to_string(d) + " of a block pointer with " +
                       plural(bp.rank(), "dimension")),
             false;
  TV other = TV::makeNone();
  if (isLoad && args[paddingArg].kind != TV::None) {
    const ast::Loc &at = builtinArgLoc(call, name, paddingArg);
    const TV &padding = args[paddingArg];
    if (padding.kind != TV::Str || (padding.s != "" && padding.s != "zero" && padding.s != "nan"))
      return error(at, "padding_option must be \"zero\", \"nan\" or \"\", got " +
                           (padding.kind == TV::Str ? "\"" + padding.s + "\"" : describe(padding))),
             false;
    if (padding.s == "nan" && !isa<FloatType>(pointee))
      return error(at, "padding_option=\"nan\" needs floats, and this block pointer reads " + describe(pointee)), false;
    if (padding.s == "zero")
      other = TV::makeInt(0);
    else if (padding.s == "nan")
      other = TV::makeFloat(std::numeric_limits<double>::quiet_NaN());
  }
  if (!isLoad) {
    // As Triton: a scalar fills the block; a block has the block's shape and
    // the pointee's type (a constant adopts it).
    const TV &value = args[1];
    const ast::Loc &at = builtinArgLoc(call, name, 1);
    if (value.isVal() && !shapeOf(value).empty() && ArrayRef<int64_t>(bp.blockShape) != shapeOf(value))
      return error(at, "shape mismatch: a block pointer to " + shapeText(bp.blockShape) + " blocks cannot store " +
                           describe(value)),
             false;
    if (value.isVal() && (elementType(value) != pointee || value.isUnsigned != bp.blockBase().isUnsigned))
      return error(at, "type mismatch: a block pointer to " + describe(pointee, bp.blockBase().isUnsigned) +
                           " stores " + describe(pointee, bp.blockBase().isUnsigned) + " blocks, got " +
                           describe(value) + "; convert it with .to()"),
             false;
  }
  // Element (i_0, ..., i_n) of the block is at base + sum_d (offset_d + i_d) * stride_d,
  // and inside the tensor where 0 <= offset_d + i_d < size_d.
  const ast::Loc &l = call.loc;
  Location at = loc(l);
  size_t rank = bp.rank();
  SmallVector<int64_t> shape(bp.blockShape.begin(), bp.blockShape.end());
  TV address = bp.blockBase(), mask = TV::makeNone();
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = bp.blockShape[d];
    TV index = TV::makeVal(ArangeOp::create(builder, at, RankedTensorType::get({n}, builder.getI32Type()), 0, n));
    TV offset = convertElement(bp.blockOffset(d), builder.getI64Type(), false, l);
    index = offset ? genBinary("+", convertElement(index, builder.getI64Type(), false, l), offset, l) : TV();
    if (!index)
      return false;
    // index as a block of `rank` dimensions, size 1 but along d.
    Value x = index.value;
    for (size_t e = 0; e < rank; ++e) {
      if (e == d)
        continue;
      auto t = llvm::cast<RankedTensorType>(x.getType());
      SmallVector<int64_t> s(t.getShape());
      s.insert(s.begin() + e, 1);
      x = ExpandDimsOp::create(builder, at, RankedTensorType::get(s, t.getElementType()), x, int32_t(e));
    }
    index = TV::makeVal(x);
    TV step = genBinary("*", index, bp.blockStride(d), l);
    address = step ? genBinary("+", address, step, l) : TV();
    if (!address)
      return false;
    if (!llvm::is_contained(checked, int64_t(d)))
      continue;
    TV low = genCompare(">=", index, TV::makeInt(0), l);
    TV high = low ? genCompare("<", index, bp.blockSize(d), l) : TV();
    TV inside = high ? genBinary("&", low, high, l) : TV();
    mask = !inside ? TV() : mask.kind == TV::None ? inside : genBinary("&", mask, inside, l);
    if (!mask)
      return false;
  }
  address = broadcastTo(address, shape, l);
  if (!address)
    return false;
  args[0] = address;
  args[isLoad ? 1 : 2] = mask;
  if (isLoad)
    args[2] = mask.kind == TV::None ? TV::makeNone() : other;
  return true;
}

} // namespace blk
