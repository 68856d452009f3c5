// Triton's bitonic sorts along the last dimension: sort(x, dim=None,
// descending=False) and x.sort(dim, descending), topk(x, k, dim=None,
// descending=True) and bitonic_merge(x, dim=None, descending=False). Each is
// one blk.sort: topk keeps the first k elements of each sorted row,
// bitonic_merge runs only the network's last stage (merge_only).
#include "Generator.h"

using namespace mlir;

namespace blk {

bool isSortBuiltin(const std::string &name) { return llvm::is_contained({"sort", "topk", "bitonic_merge"}, name); }

namespace {

/// The parameters after `x`, in order: topk's k, then dim and descending.
std::vector<const char *> paramsAfterX(const std::string &name) {
  if (name == "topk")
    return {"k", "dim", "descending"};
  return {"dim", "descending"};
}

} // namespace

TV Generator::genSort(const std::string &name, const ast::CallExpr &call, const std::vector<TV> &args,
                      const ast::Loc *selfLoc) {
  // args: x, then paramsAfterX(name) (None where not given).
  auto argLoc = [&](size_t i) -> const ast::Loc & {
    if (!selfLoc)
      return builtinArgLoc(call, name, i);
    if (i == 0)
      return *selfLoc;
    if (i - 1 < call.args.size())
      return call.args[i - 1]->loc;
    const char *param = paramsAfterX(name)[i - 1];
    for (auto &kw : call.kwargs)
      if (kw.name == param)
        return kw.value->loc;
    return call.loc;
  };
  bool isTopk = name == "topk";
  size_t dimIdx = isTopk ? 2 : 1, descIdx = dimIdx + 1;
  const TV &x = args[0], &dimArg = args[dimIdx], &descArg = args[descIdx];
  if (!x.isVal() || shapeOf(x).empty())
    return error(argLoc(0), "'" + name + "' needs a block, got " + describe(x));
  Type elem = elementType(x);
  bool sortable =
      (isa<IntegerType>(elem) && !elem.isInteger(1)) || isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(elem);
  if (!sortable)
    return error(argLoc(0), "'" + name + "' sorts integers and f16, bf16, f32 and f64 numbers, got " + describe(x) +
                                (isFloat8(elem) ? " (convert fp8 with .to(f32) first)" : ""));
  ArrayRef<int64_t> shape = shapeOf(x);
  int64_t rank = shape.size(), n = shape.back();
  if (dimArg.kind != TV::None) {
    if (dimArg.kind != TV::Int)
      return error(argLoc(dimIdx), "'" + name + "' needs dim None or a compile-time integer, got " + describe(dimArg));
    int64_t dim = dimArg.i < 0 ? dimArg.i + rank : dimArg.i;
    if (dim < 0 || dim >= rank)
      return error(argLoc(dimIdx), "'" + name + "' dim " + std::to_string(dimArg.i) + " is out of range for " +
                                       describe(x));
    if (dim != rank - 1)
      return error(argLoc(dimIdx), "'" + name + "' sorts along the last dimension only (dim None, -1 or " +
                                       std::to_string(rank - 1) + "), got dim " + std::to_string(dimArg.i));
  }
  bool descending = isTopk;
  if (descArg.kind == TV::Bool || (descArg.kind == TV::Int && (descArg.i == 0 || descArg.i == 1)))
    descending = descArg.i != 0;
  else if (descArg.kind != TV::None)
    return error(argLoc(descIdx), "'" + name + "' needs descending a compile-time True or False, got " +
                                      describe(descArg));
  if (!isPow2(n))
    return error(argLoc(0), "'" + name + "' sorts along a last dimension whose size is a power of two, got " +
                                describe(x));
  int64_t k = n;
  if (isTopk) {
    const TV &kArg = args[1];
    if (kArg.kind != TV::Int)
      return error(argLoc(1), "'topk' needs k a compile-time integer, got " + describe(kArg));
    if (!isPow2(kArg.i) || kArg.i > n)
      return error(argLoc(1), "'topk' needs k a power of two from 1 to the last dimension's " + std::to_string(n) +
                                  ", got " + std::to_string(kArg.i));
    k = kArg.i;
  }
  SmallVector<int64_t> resultShape(shape);
  resultShape.back() = k;
  auto type = RankedTensorType::get(resultShape, elem);
  auto op = SortOp::create(builder, loc(call.loc), type, x.value);
  if (descending)
    op.setDescending(true);
  if (isa<IntegerType>(elem) && x.isUnsigned)
    op.setIsUnsigned(true);
  if (name == "bitonic_merge")
    op.setMergeOnly(true);
  return TV::makeVal(op.getResult(), x.isUnsigned);
}

TV Generator::genSortMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr, const TV &base) {
  // x.sort(dim=None, descending=False): sort with `x` bound to the block.
  const std::string &name = attr.name;
  std::vector<const char *> names = paramsAfterX(name);
  if (call.args.size() > names.size())
    return error(call.loc, "'." + name + "' takes " + plural(names.size(), "argument") + ", got " +
                               std::to_string(call.args.size()));
  std::vector<TV> args(names.size() + 1, TV::makeNone());
  args[0] = base;
  for (size_t i = 0; i < call.args.size(); ++i)
    if (!(args[i + 1] = gen(*call.args[i])))
      return TV();
  for (auto &kw : call.kwargs) {
    auto pos = llvm::find_if(names, [&](const char *n) { return kw.name == n; });
    if (pos == names.end())
      return error(kw.loc, "'." + name + "' has no parameter named '" + kw.name + "'");
    size_t idx = size_t(pos - names.begin());
    if (idx < call.args.size())
      return error(kw.loc, "'." + name + "' got '" + kw.name + "' twice");
    if (!(args[idx + 1] = gen(*kw.value)))
      return TV();
  }
  return genSort(name, call, args, &attr.base->loc);
}

} // namespace blk
