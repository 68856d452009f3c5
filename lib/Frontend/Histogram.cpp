// histogram(input, num_bins, mask=None), Triton's: the counts of the values
// 0 .. num_bins - 1 among a 1-D integer block's elements, as an i32 block
// [num_bins]; values outside [0, num_bins) and masked-off elements are not
// counted. Written as a comparison of every element with every bin, summed
// over the elements: ops every target runs.
#include "Generator.h"

using namespace mlir;

namespace blk {

TV Generator::genHistogram(const ast::CallExpr &call, std::vector<TV> &args) {
  const ast::Loc &inputLoc = builtinArgLoc(call, "histogram", 0), &binsLoc = builtinArgLoc(call, "histogram", 1);
  TV x = args[0], bins = args[1], mask = args[2];
  if (!x.isVal() || shapeOf(x).size() != 1 || !isa<IntegerType>(elementType(x)))
    return error(inputLoc, "'histogram' needs a 1-D block of integers, got " + describe(x));
  if (bins.kind != TV::Int || bins.i < 1 || !llvm::isPowerOf2_64(uint64_t(bins.i)) || bins.i > (1 << 20))
    return error(binsLoc, "'histogram' needs num_bins a compile-time power of two (at most 2^20), got " + describe(bins));
  int64_t n = shapeOf(x)[0], numBins = bins.i;
  Location at = loc(call.loc);
  auto i32 = builder.getI32Type();
  // [n, 1] == [1, num_bins], broadcast to [n, num_bins].
  auto expand = [&](const TV &v, int64_t len, int32_t axis, Type elem) {
    SmallVector<int64_t> shape = axis == 0 ? SmallVector<int64_t>{1, len} : SmallVector<int64_t>{len, 1};
    return TV::makeVal(ExpandDimsOp::create(builder, at, RankedTensorType::get(shape, elem), v.value, axis),
                       v.isUnsigned);
  };
  TV range = TV::makeVal(ArangeOp::create(builder, at, RankedTensorType::get({numBins}, i32), 0, int32_t(numBins)));
  TV hit = genCompare("==", expand(x, n, 1, elementType(x)), expand(range, numBins, 0, i32), call.loc);
  if (!hit)
    return TV();
  if (mask.kind != TV::None) {
    const ast::Loc &maskLoc = builtinArgLoc(call, "histogram", 2);
    if (mask.isVal() && (shapeOf(mask) != shapeOf(x)))
      return error(maskLoc, "'histogram' needs a mask of the input's shape " + describe(x) + ", got " + describe(mask));
    TV m = toBool(mask, maskLoc);
    if (!m)
      return TV();
    if (m.isVal())
      m = expand(m, n, 1, builder.getI1Type());
    hit = genBinary("&", hit, m, call.loc);
  }
  std::vector<TV> sumArgs{cast(hit, i32, false, {n, numBins}, call.loc), TV::makeInt(0), TV::makeNone(),
                          TV::makeNone()};
  return sumArgs[0] ? genReduction("sum", call, sumArgs) : TV();
}

} // namespace blk
