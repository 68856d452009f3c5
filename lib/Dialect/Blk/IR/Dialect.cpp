#include "blk/Dialect/Blk/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace blk;

#include "blk/Dialect/Blk/IR/BlkDialect.cpp.inc"
#include "blk/Dialect/Blk/IR/BlkEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/Dialect/Blk/IR/BlkTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/Dialect/Blk/IR/BlkAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "blk/Dialect/Blk/IR/BlkOps.cpp.inc"

namespace {
/// Prints layouts as `#blocked`, `#blocked1`, ... aliases.
struct BlkOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<SliceLayoutAttr>(attr)) {
      os << "slice";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void BlkDialect::initialize() {
  addInterfaces<BlkOpAsmInterface>();
  addTypes<
#define GET_TYPEDEF_LIST
#include "blk/Dialect/Blk/IR/BlkTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "blk/Dialect/Blk/IR/BlkAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "blk/Dialect/Blk/IR/BlkOps.cpp.inc"
      >();
}


static bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// A scalar matches any block; two blocks must have the same shape.
static LogicalResult verifySameShape(Operation *op, Type a, Type b, StringRef what) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (!ta && !tb)
    return success();
  if (!ta || !tb || ta.getShape() != tb.getShape())
    return op->emitOpError() << what << " must have the shape of the pointer, got " << b
                             << " for " << a;
  // Lowered register by register: one layout gives every thread the same elements of each.
  if (ta.getEncoding() && tb.getEncoding() && ta.getEncoding() != tb.getEncoding())
    return op->emitOpError() << what << " must have the layout of the pointer, got " << b << " for " << a;
  return success();
}

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                                        ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
  size_t rank = spt.size();
  if (tpw.size() != rank || wpc.size() != rank || order.size() != rank)
    return emitError() << "all layout arrays must have the same rank";
  unsigned lanes = 1;
  for (unsigned v : tpw)
    lanes *= v;
  if (lanes != 32)
    return emitError() << "threadsPerWarp must multiply to 32, got " << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of the dimensions";
    seen[d] = true;
  }
  for (size_t d = 0; d < rank; ++d)
    if (!isPowerOf2(spt[d]) || !isPowerOf2(tpw[d]) || !isPowerOf2(wpc[d]))
      return emitError() << "layout sizes must be powers of two";
  return success();
}

LogicalResult ArangeOp::verify() {
  int64_t n = int64_t(getEnd()) - int64_t(getStart());
  auto type = getResult().getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D");
  if (!isPowerOf2(n))
    return emitOpError("size (end - start) must be a power of two, got ") << n;
  if (type.getShape()[0] != n)
    return emitOpError("result size ") << type.getShape()[0] << " does not match end - start = " << n;
  return success();
}

LogicalResult SplatOp::verify() {
  if (getResult().getType().getElementType() != getSrc().getType())
    return emitOpError("element type of the result must be the source type");
  return success();
}

LogicalResult AddPtrOp::verify() {
  return verifySameShape(*this, getPtr().getType(), getOffset().getType(), "offset");
}

/// A conversion between pointers and their 64-bit addresses: the same shape,
/// the integer side 64 bits wide.
static LogicalResult verifyAddressCast(Operation *op, Type ptrType, Type intType) {
  if (!getElementTypeOrSelf(intType).isInteger(64))
    return op->emitOpError("addresses are 64-bit integers, got ") << getElementTypeOrSelf(intType);
  auto pt = dyn_cast<RankedTensorType>(ptrType), it = dyn_cast<RankedTensorType>(intType);
  if (bool(pt) != bool(it) || (pt && (pt.getShape() != it.getShape() || pt.getEncoding() != it.getEncoding())))
    return op->emitOpError("pointer and address must have the same shape and layout");
  return success();
}

LogicalResult PtrToIntOp::verify() { return verifyAddressCast(*this, getSrc().getType(), getType()); }
LogicalResult IntToPtrOp::verify() { return verifyAddressCast(*this, getType(), getSrc().getType()); }

unsigned blk::accessDim(Type ptrType, std::optional<uint32_t> vecDim) {
  if (vecDim)
    return *vecDim;
  auto t = dyn_cast<RankedTensorType>(ptrType);
  return t && t.getRank() > 0 ? unsigned(t.getRank() - 1) : 0;
}

static LogicalResult verifyVecDim(Operation *op, Type ptrType, std::optional<uint32_t> vecDim) {
  auto t = dyn_cast<RankedTensorType>(ptrType);
  if (vecDim && (!t || *vecDim >= uint64_t(t.getRank())))
    return op->emitOpError("vec_dim must be a dimension of the pointer block");
  return success();
}

LogicalResult LoadOp::verify() {
  Type ptrType = getPtr().getType();
  auto pointee = cast<PointerType>(getElementTypeOrSelf(ptrType)).getPointeeType();
  Type resultType = getResult().getType();
  if (getElementTypeOrSelf(resultType) != pointee)
    return emitOpError("result element type must be the pointee type ") << pointee;
  if (auto t = dyn_cast<RankedTensorType>(ptrType)) {
    auto rt = dyn_cast<RankedTensorType>(resultType);
    if (!rt || rt.getShape() != t.getShape())
      return emitOpError("result must have the shape of the pointer block");
  } else if (isa<RankedTensorType>(resultType)) {
    return emitOpError("a scalar pointer loads a scalar");
  }
  if (getMask() && failed(verifySameShape(*this, ptrType, getMask().getType(), "mask")))
    return failure();
  if (getOther()) {
    if (!getMask())
      return emitOpError("`other` needs a mask");
    if (getOther().getType() != resultType)
      return emitOpError("`other` must have the result type");
  }
  if (getVec() < 1 || !isPowerOf2(getVec()))
    return emitOpError("vec must be a power of two");
  return verifyVecDim(*this, getPtr().getType(), getVecDim());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult StoreOp::verify() {
  Type ptrType = getPtr().getType();
  auto pointee = cast<PointerType>(getElementTypeOrSelf(ptrType)).getPointeeType();
  if (getElementTypeOrSelf(getValue().getType()) != pointee)
    return emitOpError("stored element type must be the pointee type ") << pointee;
  if (failed(verifySameShape(*this, ptrType, getValue().getType(), "value")))
    return failure();
  if (getMask() && failed(verifySameShape(*this, ptrType, getMask().getType(), "mask")))
    return failure();
  if (getVec() < 1 || !isPowerOf2(getVec()))
    return emitOpError("vec must be a power of two");
  return verifyVecDim(*this, getPtr().getType(), getVecDim());
}

LogicalResult AssumeOp::verify() {
  if (!getDivisibility() && !getContiguity() && !getConstancy())
    return emitOpError("needs a divisibility, a contiguity or a constancy");
  if (getDivisibility() && !isPowerOf2(*getDivisibility()))
    return emitOpError("divisibility must be a power of two");
  if (getContiguity() && !isPowerOf2(*getContiguity()))
    return emitOpError("contiguity must be a power of two");
  if (getConstancy() && !isPowerOf2(*getConstancy()))
    return emitOpError("constancy must be a power of two");
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType();
  auto result = getResult().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ") << axis << " is out of range for a block of rank " << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (result.getShape() != ArrayRef<int64_t>(expected) || result.getElementType() != src.getElementType())
    return emitOpError("result must be the source with a dimension of size 1 inserted at ") << axis;
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType();
  auto result = getResult().getType();
  if (src.getRank() != result.getRank() || src.getElementType() != result.getElementType())
    return emitOpError("source and result must have the same rank and element type");
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (src.getShape()[d] != result.getShape()[d] && src.getShape()[d] != 1)
      return emitOpError("dimension ") << d << " of size " << src.getShape()[d] << " cannot broadcast to "
                                       << result.getShape()[d];
  return success();
}

LogicalResult SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned dim,
                                      Attribute parent) {
  // A slice of a slice (a 1-D block expanded twice into a 3-D one) has the
  // rank of its innermost parent less one per slice.
  unsigned parentRank, slices = 0;
  Attribute innermost = parent;
  while (auto slice = dyn_cast<SliceLayoutAttr>(innermost)) {
    innermost = slice.getParent();
    ++slices;
  }
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(innermost))
    parentRank = blocked.getOrder().size();
  else if (isa<MmaLayoutAttr, DotOperandLayoutAttr>(innermost))
    // A dot operand's slice: a row or column scale read in the operand's
    // layout (activations scaled where a ring is read back for wgmma).
    parentRank = 2;
  else
    return emitError() << "the parent of a slice layout must be a layout, got " << parent;
  if (slices >= parentRank)
    return emitError() << "a slice of a slice must keep a dimension of its blocked or mma parent";
  parentRank -= slices;
  if (dim >= parentRank)
    return emitError() << "slice dimension " << dim << " is out of range for a parent of rank " << parentRank;
  return success();
}

static bool isPowerOfTwo(unsigned v) { return v && !(v & (v - 1)); }

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned version,
                                    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "mma layout version must be 2 (mma.sync) or 3 (wgmma), got " << version;
  if (warpsPerCTA.size() != 2 || !isPowerOfTwo(warpsPerCTA[0]) || !isPowerOfTwo(warpsPerCTA[1]))
    return emitError() << "warpsPerCTA must be two powers of two";
  if (version == 3) {
    // Warpgroups stack along M; each 16-row warp tile spans the instruction's N.
    if (warpsPerCTA[0] < 4 || warpsPerCTA[1] != 1)
      return emitError() << "wgmma needs warpsPerCTA [4 * warpgroups, 1]";
    if (instrShape.size() != 3 || instrShape[0] != 64 || instrShape[1] % 8 || instrShape[1] < 8 ||
        instrShape[1] > 256 || (instrShape[2] != 16 && instrShape[2] != 32))
      return emitError() << "wgmma's instrShape must be [64, N, K] with N a multiple of 8 up to 256 and K 16 (16-bit "
                            "operands) or 32 (8-bit)";
    return success();
  }
  if (instrShape.size() != 3 || instrShape[0] != 16 || instrShape[1] != 8 ||
      (instrShape[2] != 8 && instrShape[2] != 16 && instrShape[2] != 32))
    return emitError() << "instrShape must be [16, 8, K] with K 8, 16 or 32";
  return success();
}

LogicalResult DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned opIdx,
                                           Attribute parent, unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "opIdx must be 0 (A) or 1 (B), got " << opIdx;
  auto mma = dyn_cast<MmaLayoutAttr>(parent);
  if (!mma)
    return emitError() << "the parent of a dot operand layout must be an mma layout, got " << parent;
  if (kWidth * 8 != mma.getInstrShape()[2])
    return emitError() << "kWidth " << kWidth << " does not match the instruction's K of "
                       << mma.getInstrShape()[2] << " (K = 8 * kWidth)";
  return success();
}

/// The layout of a reduction's result: the source's, sliced along `axis`.
static Attribute slicedEncoding(Attribute encoding, unsigned axis) {
  if (!encoding)
    return {};
  return SliceLayoutAttr::get(encoding.getContext(), axis, encoding);
}

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), result = getResult().getType();
  if (src.getShape() != result.getShape() || src.getElementType() != result.getElementType())
    return emitOpError("source and result must have the same shape and element type");
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType(), result = getResult().getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("source and result must have the same element type");
  if (src.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ") << src.getNumElements() << " elements into " << result.getNumElements();
  return success();
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), acc = getAcc().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("needs 2-D blocks");
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("inner dimensions differ: ") << a.getDimSize(1) << " and " << b.getDimSize(0);
  if (acc.getDimSize(0) != a.getDimSize(0) || acc.getDimSize(1) != b.getDimSize(1))
    return emitOpError("accumulator must be ") << a.getDimSize(0) << "x" << b.getDimSize(1);
  if (getResult().getType().getShape() != acc.getShape() || getResult().getType().getElementType() != acc.getElementType())
    return emitOpError("result must have the accumulator's type");
  Type ea = a.getElementType(), eb = b.getElementType(), ec = acc.getElementType();
  if (ea != eb && !(isFloat8(ea) && isFloat8(eb))) // e4m3 with e5m2 is allowed
    return emitOpError("a and b must have one element type, got ") << ea << " and " << eb;
  bool floats = (ea.isF32() || ea.isF16() || ea.isBF16() || isFloat8(ea)) && ec.isF32();
  bool ints = ea.isInteger(8) && ec.isInteger(32);
  if (!floats && !ints)
    return emitOpError("multiplies f32/f16/bf16/f8 into f32 or i8 into i32, got ") << ea << " into " << ec;
  if (getInputPrecision() != "ieee" && getInputPrecision() != "tf32")
    return emitOpError("input_precision must be \"ieee\" or \"tf32\", got \"") << getInputPrecision() << "\"";
  if (getInputPrecision() == "tf32" && !ea.isF32())
    return emitOpError("input_precision \"tf32\" needs f32 operands, got ") << ea;
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), result = getResult().getType();
  if (src.getRank() != 2 || result.getRank() != 2 || src.getElementType() != result.getElementType() ||
      src.getDimSize(0) != result.getDimSize(1) || src.getDimSize(1) != result.getDimSize(0))
    return emitOpError("result must be the 2-D source with its dimensions swapped");
  return success();
}

LogicalResult PermuteOp::verify() {
  auto src = getSrc().getType(), result = getResult().getType();
  ArrayRef<int64_t> order = getOrder();
  if (src.getRank() < 3)
    return emitOpError("permutes blocks of 3 or more dimensions (a 2-D transpose is blk.trans)");
  SmallVector<bool> seen(src.getRank(), false);
  if (int64_t(order.size()) != src.getRank())
    return emitOpError("order must name each of the source's ") << src.getRank() << " dimensions once";
  for (int64_t d : order) {
    if (d < 0 || d >= src.getRank() || seen[d])
      return emitOpError("order must name each of the source's ") << src.getRank() << " dimensions once";
    seen[d] = true;
  }
  if (result.getRank() != src.getRank() || result.getElementType() != src.getElementType())
    return emitOpError("result must be the source with its dimensions permuted");
  for (auto [d, from] : llvm::enumerate(order))
    if (result.getDimSize(d) != src.getDimSize(from))
      return emitOpError("result must be the source with its dimensions permuted");
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = getSrc().getType(), index = getIndex().getType(), result = getResult().getType();
  int64_t axis = getAxis();
  if (!src.getElementType().isIntOrFloat())
    return emitOpError("gathers numbers, got ") << src.getElementType();
  if (!isa<IntegerType>(index.getElementType()) || index.getElementType().isInteger(1))
    return emitOpError("index must hold integers, got ") << index.getElementType();
  if (index.getRank() != src.getRank())
    return emitOpError("index must have the source's rank (") << src.getRank() << "), got " << index.getRank();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ") << axis << " is out of range for a block of rank " << src.getRank();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && index.getDimSize(d) != src.getDimSize(d))
      return emitOpError("index must match the source in every dimension but the axis");
  if (result.getShape() != index.getShape() || result.getElementType() != src.getElementType())
    return emitOpError("result must have the index's shape and the source's element type");
  if (result.getEncoding() != index.getEncoding())
    return emitOpError("index and result must have one layout");
  return success();
}

LogicalResult PrintOp::verify() {
  auto flags = getUnsignedArgs();
  if (!flags)
    return success();
  if (flags->size() != getArgs().size())
    return emitOpError("unsigned_args needs one flag per argument (") << getArgs().size() << "), got "
                                                                      << flags->size();
  for (auto [i, arg] : llvm::enumerate(getArgs()))
    if ((*flags)[i] && !isa<IntegerType>(getElementTypeOrSelf(arg.getType())))
      return emitOpError("unsigned_args marks argument ") << i << " of " << arg.getType() << ", not integers";
  return success();
}

LogicalResult SortOp::verify() {
  auto src = getSrc().getType(), result = getResult().getType();
  Type elem = src.getElementType();
  if (!(isa<IntegerType>(elem) && !elem.isInteger(1)) && !isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(elem))
    return emitOpError("sorts integers or f16, bf16, f32 and f64 numbers, got ") << elem;
  if (src.getRank() < 1)
    return emitOpError("needs a block of at least one dimension");
  if (result.getElementType() != elem || result.getRank() != src.getRank())
    return emitOpError("result must have the source's element type and rank");
  int64_t rank = src.getRank(), n = src.getDimSize(rank - 1), k = result.getDimSize(rank - 1);
  if (!llvm::isPowerOf2_64(uint64_t(n)))
    return emitOpError("sorts along a last dimension whose size is a power of two, got ") << n;
  for (int64_t d = 0; d + 1 < rank; ++d)
    if (result.getDimSize(d) != src.getDimSize(d))
      return emitOpError("result must match the source in every dimension but the last");
  if (!llvm::isPowerOf2_64(uint64_t(k)) || k > n)
    return emitOpError("keeps a power of two of elements, at most the source's ") << n << ", got " << k;
  if (getMergeOnly() && k != n)
    return emitOpError("merge_only keeps every element");
  if (k == n && result.getEncoding() != src.getEncoding())
    return emitOpError("source and result of one shape must have one layout");
  if (getIsUnsigned() && !isa<IntegerType>(elem))
    return emitOpError("is_unsigned needs integers, got ") << elem;
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= first.getRank())
    return emitOpError("axis ") << axis << " is out of range for a block of rank " << first.getRank();
  if (getResults().size() != getSrcs().size())
    return emitOpError("needs one result per operand");
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    auto t = cast<RankedTensorType>(src.getType());
    if (t.getShape() != first.getShape() || t.getEncoding() != first.getEncoding())
      return emitOpError("operands must have the same shape and layout");
    if (t.getRank() == 1) {
      if (result.getType() != t.getElementType())
        return emitOpError("a 1-D block reduces to a scalar of its element type, got ") << result.getType();
      continue;
    }
    SmallVector<int64_t> shape(t.getShape());
    shape.erase(shape.begin() + axis);
    auto expected = RankedTensorType::get(shape, t.getElementType(), slicedEncoding(t.getEncoding(), axis));
    if (result.getType() != expected)
      return emitOpError("result must be ") << expected << ", got " << result.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  Block &body = getCombine().front();
  size_t n = getSrcs().size();
  if (body.getNumArguments() != 2 * n)
    return emitOpError("the combiner takes ") << 2 * n << " arguments, got " << body.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i)
    if (body.getArgument(i).getType() != getElementTypeOrSelf(getSrcs()[i % n].getType()))
      return emitOpError("combiner argument ") << i << " must have the element type of operand " << i % n;
  auto ret = dyn_cast<ReduceReturnOp>(body.getTerminator());
  if (!ret || ret.getResults().size() != n)
    return emitOpError("the combiner must return ") << n << " values";
  for (size_t i = 0; i < n; ++i)
    if (ret.getResults()[i].getType() != body.getArgument(i).getType())
      return emitOpError("combiner result ") << i << " must have the element type of operand " << i;
  return success();
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  if (getResults().size() != getSrcs().size())
    return emitOpError("needs one result per operand");
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  for (auto [src, result] : llvm::zip(getSrcs(), getResults())) {
    auto t = cast<RankedTensorType>(src.getType());
    if (t.getShape() != first.getShape() || t.getEncoding() != first.getEncoding())
      return emitOpError("operands must have the same shape and layout");
    auto r = cast<RankedTensorType>(result.getType());
    if (r.getShape() != t.getShape() || r.getElementType() != t.getElementType())
      return emitOpError("result must have the source's shape and element type");
  }
  if (getAxis() >= first.getRank())
    return emitOpError("axis ") << getAxis() << " is out of range for a block of rank " << first.getRank();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  Block &body = getCombine().front();
  size_t n = getSrcs().size();
  auto elem = [&](size_t i) { return getElementTypeOrSelf(getSrcs()[i % n].getType()); };
  bool argsMatch = body.getNumArguments() == 2 * n;
  for (size_t i = 0; argsMatch && i < 2 * n; ++i)
    argsMatch = body.getArgument(i).getType() == elem(i);
  if (!argsMatch)
    return emitOpError(n == 1 ? "the combiner takes two arguments of the element type"
                              : "the combiner takes two arguments of each operand's element type");
  auto ret = dyn_cast<ReduceReturnOp>(body.getTerminator());
  bool resultsMatch = ret && ret.getResults().size() == n;
  for (size_t i = 0; resultsMatch && i < n; ++i)
    resultsMatch = ret.getResults()[i].getType() == elem(i);
  if (!resultsMatch)
    return emitOpError(n == 1 ? "the combiner must return one value of the element type"
                              : "the combiner must return one value of each operand's element type");
  return success();
}

/// Whether `kind` applies to elements of `type` (PTX's atom has these).
bool blk::atomicSupports(AtomicRMWKind kind, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  bool wideInt = type.isInteger(32) || type.isInteger(64);
  switch (kind) {
  case AtomicRMWKind::Add:
    return wideInt || type.isF16() || type.isBF16() || type.isF32() || type.isF64();
  case AtomicRMWKind::Max:
  case AtomicRMWKind::Min:
    return wideInt || type.isF32() || type.isF64();
  case AtomicRMWKind::Xchg:
    return bits == 32 || bits == 64;
  default:
    return wideInt;
  }
}

/// The checks both atomics share: values of the pointee type, one per pointer.
static LogicalResult verifyAtomic(Operation *op, Type ptrType, ValueRange values, Type resultType) {
  auto pointee = cast<PointerType>(getElementTypeOrSelf(ptrType)).getPointeeType();
  for (Value v : values) {
    if (getElementTypeOrSelf(v.getType()) != pointee)
      return op->emitOpError("operands must have the pointee type ") << pointee;
    if (failed(verifySameShape(op, ptrType, v.getType(), "value")))
      return failure();
  }
  if (resultType != values.back().getType())
    return op->emitOpError("result must have the type of the value");
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  if (failed(verifyAtomic(*this, getPtr().getType(), getValue(), getResult().getType())))
    return failure();
  if (getMask() && failed(verifySameShape(*this, getPtr().getType(), getMask().getType(), "mask")))
    return failure();
  Type elem = getElementTypeOrSelf(getValue().getType());
  if (!atomicSupports(getKind(), elem))
    return emitOpError("atomic ") << stringifyAtomicRMWKind(getKind()) << " does not apply to " << elem;
  if (getVec() < 1 || !isPowerOf2(getVec()))
    return emitOpError("vec must be a power of two");
  return verifyVecDim(*this, getPtr().getType(), getVecDim());
}

/// Whether an atomic load or store moves elements of `type` (16, 32 or 64 bits).
static LogicalResult verifyAtomicWidth(Operation *op, Type type) {
  unsigned bits = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return op->emitOpError("needs 16-, 32- or 64-bit elements");
  return success();
}

LogicalResult AtomicLoadOp::verify() {
  auto pointee = cast<PointerType>(getElementTypeOrSelf(getPtr().getType())).getPointeeType();
  if (getElementTypeOrSelf(getType()) != pointee)
    return emitOpError("result must have the pointee type ") << pointee;
  if (failed(verifySameShape(*this, getPtr().getType(), getType(), "result")) ||
      (getMask() && failed(verifySameShape(*this, getPtr().getType(), getMask().getType(), "mask"))))
    return failure();
  if (getSem() != MemSemantic::Acquire && getSem() != MemSemantic::Relaxed)
    return emitOpError("orders as acquire or relaxed, got ") << stringifyMemSemantic(getSem());
  return verifyAtomicWidth(*this, getType());
}

LogicalResult AtomicStoreOp::verify() {
  auto pointee = cast<PointerType>(getElementTypeOrSelf(getPtr().getType())).getPointeeType();
  if (getElementTypeOrSelf(getValue().getType()) != pointee)
    return emitOpError("operands must have the pointee type ") << pointee;
  if (failed(verifySameShape(*this, getPtr().getType(), getValue().getType(), "value")) ||
      (getMask() && failed(verifySameShape(*this, getPtr().getType(), getMask().getType(), "mask"))))
    return failure();
  if (getSem() != MemSemantic::Release && getSem() != MemSemantic::Relaxed)
    return emitOpError("orders as release or relaxed, got ") << stringifyMemSemantic(getSem());
  return verifyAtomicWidth(*this, getValue().getType());
}

LogicalResult AtomicCASOp::verify() {
  if (failed(verifyAtomic(*this, getPtr().getType(), {getCmp(), getValue()}, getResult().getType())))
    return failure();
  unsigned bits = getElementTypeOrSelf(getValue().getType()).getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64)
    return emitOpError("compare-and-swap needs 32- or 64-bit elements");
  return success();
}
