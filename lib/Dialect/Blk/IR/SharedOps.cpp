// The shared-buffer type's syntax and verifier, and the verifiers of the
// ops that fill and read it (BlkSharedOps.td).
#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Dialect/Blk/IR/Layout.h"

using namespace mlir;

namespace blk {

int64_t SharedBufferType::tileByteOffset(ArrayRef<int64_t> coords) const {
  unsigned contig = getContig();
  ArrayRef<int64_t> tile = getTileShape();
  if (isThreadArranged()) {
    ArrayRef<int64_t> xors = getXors();
    int64_t index = coords[1 - contig] * tile[contig] + coords[contig], swizzled = index;
    for (size_t i = 0; i + 1 < xors.size(); i += 2)
      swizzled ^= ((index >> xors[i + 1]) & 1) << xors[i];
    return swizzled * getElementBytes();
  }
  int64_t elemBytes = getElementBytes(), width = swizzleBytes(tile[contig] * elemBytes), lineElems = width / elemBytes;
  int64_t line = coords[1 - contig], pos = coords[contig];
  int64_t within = (pos % lineElems) * elemBytes, lineStart = line * width;
  int64_t phase = (lineStart >> 7) & (width / 16 - 1), unit = (within >> 4) ^ phase;
  return pos / lineElems * (tile[1 - contig] * width) + lineStart + (unit << 4) + (within & 15);
}

int64_t SharedBufferType::threadRunElements() const {
  ArrayRef<int64_t> xors = getXors();
  int64_t lowest = 62;
  for (size_t i = 0; i < xors.size(); i += 2)
    lowest = std::min(lowest, xors[i]);
  return int64_t(1) << lowest;
}

// `<[slots, rows, cols], type, contig = c>`, then `, xor = [...]` for a
// ring arranged for threads: the list may be empty, which no optional
// parameter of a declarative format tells apart from an absent one.
Type SharedBufferType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, xors;
  Type elementType;
  unsigned contig = 0;
  auto number = [&](SmallVector<int64_t> &into) { return parser.parseInteger(into.emplace_back()); };
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] { return number(shape); }) ||
      parser.parseComma() || parser.parseType(elementType) || parser.parseComma() || parser.parseKeyword("contig") ||
      parser.parseEqual() || parser.parseInteger(contig))
    return {};
  bool threads = succeeded(parser.parseOptionalComma());
  if (threads && (parser.parseKeyword("xor") || parser.parseEqual() ||
                  parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] { return number(xors); })))
    return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); }, parser.getContext(), ArrayRef<int64_t>(shape),
                    elementType, contig, threads, ArrayRef<int64_t>(xors));
}

void SharedBufferType::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getShape(), printer);
  printer << "], " << getElementType() << ", contig = " << getContig();
  if (isThreadArranged()) {
    printer << ", xor = [";
    llvm::interleaveComma(getXors(), printer);
    printer << "]";
  }
  printer << ">";
}

LogicalResult SharedBufferType::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
                                       Type elementType, unsigned contig, bool threadArranged,
                                       ArrayRef<int64_t> xors) {
  if (shape.size() != 3 || llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "a shared buffer is [slots, rows, cols] with positive sizes";
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() % 8)
    return emitError() << "a shared buffer holds whole-byte numbers, got " << elementType;
  if (contig > 1)
    return emitError() << "contig must be 0 or 1, got " << contig;
  if (!threadArranged && !xors.empty())
    return emitError() << "an xor list belongs to a ring arranged for threads";
  if (threadArranged) {
    // The thread arrangement: an XOR swizzle of the bits of a slot's
    // element index (a power of two of them).
    if (!llvm::isPowerOf2_64(uint64_t(shape[1])) || !llvm::isPowerOf2_64(uint64_t(shape[2])))
      return emitError() << "a ring arranged for threads has tiles of powers of two, got " << shape[1] << "x"
                         << shape[2];
    if (xors.size() % 2)
      return emitError() << "xor holds pairs (flipped bit, source bit), got " << xors.size() << " numbers";
    unsigned bits = llvm::Log2_64(uint64_t(shape[1] * shape[2]));
    for (size_t i = 0; i < xors.size(); i += 2)
      if (xors[i] < 0 || xors[i] >= xors[i + 1] || xors[i + 1] >= int64_t(bits))
        return emitError() << "xor pair (" << xors[i] << ", " << xors[i + 1]
                           << ") must flip a bit below its source, the source below bit " << bits
                           << " of a slot's element index";
    return success();
  }
  int64_t line = shape[1 + contig] * (elementType.getIntOrFloatBitWidth() / 8);
  if (line < 32 || (line > 128 ? line % 128 : !llvm::isPowerOf2_64(line)))
    return emitError() << "a line along the contiguous dimension must be 32, 64 or a multiple of 128 bytes, got "
                       << line;
  int64_t width = swizzleBytes(line), lines = shape[2 - contig];
  if (lines * width % 1024)
    return emitError() << "a chunk of " << lines << " lines of " << width
                       << " bytes does not fill whole 1024-byte swizzle atoms";
  return success();
}

/// Whether `tile` (a block) has the shape and element type of one slot.
static LogicalResult checkSlotType(Operation *op, SharedBufferType buffer, RankedTensorType tile, Type elem,
                                   StringRef what) {
  if (tile.getShape() != buffer.getTileShape() || elem != buffer.getElementType())
    return op->emitOpError() << what << " must match a slot of " << buffer;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptrType = getPtr().getType();
  if (failed(checkSlotType(*this, getBuffer().getType(), ptrType,
                           cast<PointerType>(ptrType.getElementType()).getPointeeType(), "the pointers")))
    return failure();
  if (getMask() && getMask().getType().getShape() != ptrType.getShape())
    return emitOpError("the mask must have the pointers' shape");
  int64_t bytes = int64_t(getVec()) * getBuffer().getType().getElementBytes();
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return emitOpError("copies 4, 8 or 16 bytes per access, got ") << bytes;
  SharedBufferType ring = getBuffer().getType();
  if (ring.isThreadArranged() && int64_t(getVec()) > ring.threadRunElements())
    return emitOpError("copies ") << getVec() << " elements per access, more than " << ring
                                  << " keeps next to each other";
  return success();
}

LogicalResult LocalLoadOp::verify() {
  auto type = getResult().getType();
  if (failed(checkSlotType(*this, getBuffer().getType(), type, type.getElementType(), "the result")))
    return failure();
  auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(type.getEncoding());
  auto mma = operand ? dyn_cast<MmaLayoutAttr>(operand.getParent()) : MmaLayoutAttr();
  if (mma && mma.getVersion() < 3 && getBuffer().getType().isThreadArranged())
    return emitOpError("reads mma.sync operands (ldmatrix) only from the tensor-core arrangement, not from ")
           << getBuffer().getType();
  return success();
}

/// `type` with each slot's tile transposed (the same bytes).
static SharedBufferType transposedBuffer(SharedBufferType type) {
  ArrayRef<int64_t> shape = type.getShape();
  // A thread arrangement's index runs along the lines either way.
  return SharedBufferType::get(type.getContext(), {shape[0], shape[2], shape[1]}, type.getElementType(),
                               1 - type.getContig(), type.isThreadArranged(), type.getXors());
}

void LocalTransOp::build(OpBuilder &builder, OperationState &state, Value buffer) {
  build(builder, state, transposedBuffer(cast<SharedBufferType>(buffer.getType())), buffer);
}

LogicalResult LocalTransOp::verify() {
  auto from = cast<SharedBufferType>(getBuffer().getType());
  if (getResult().getType() != transposedBuffer(from))
    return emitOpError("result must be ") << transposedBuffer(from)
                                          << " (the tile's dimensions swapped, the other one contiguous), got "
                                          << getResult().getType();
  return success();
}

LogicalResult LocalStoreOp::verify() {
  auto type = getValue().getType();
  if (failed(checkSlotType(*this, getBuffer().getType(), type, type.getElementType(), "the value")))
    return failure();
  if (!hasLayout(type))
    return emitOpError("the value needs a layout");
  return success();
}

LogicalResult WarpGroupDotOp::verify() {
  auto b = cast<SharedBufferType>(getB().getType());
  auto acc = getAcc().getType();
  if (getResult().getType() != acc)
    return emitOpError("result must have the accumulator's type");
  if (b.isThreadArranged())
    return emitOpError("reads operand B only from the tensor-core arrangement, not from ") << b;
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(acc.getEncoding());
  if (!mma || mma.getVersion() != 3)
    return emitOpError("the accumulator needs a version 3 (wgmma) mma layout");
  SmallVector<int64_t, 2> as;
  Type elem;
  if (hasRegisterA()) {
    auto a = cast<RankedTensorType>(getA().getType());
    auto op = dyn_cast_or_null<DotOperandLayoutAttr>(a.getEncoding());
    // kWidth: the elements of one 32-bit register (2 of 16 bits, 4 of 8).
    unsigned kWidth = 32 / std::max(8u, a.getElementTypeBitWidth());
    if (!op || op.getOpIdx() != 0 || op.getKWidth() != kWidth)
      return emitOpError("a register operand A needs a #blk.dot_op layout with opIdx 0 and kWidth ") << kWidth;
    auto parent = cast<MmaLayoutAttr>(op.getParent());
    if (parent.getVersion() != 3 || parent.getWarpsPerCTA() != mma.getWarpsPerCTA())
      return emitOpError("a register operand A must be laid out for the accumulator's warps (a version 3 parent)");
    if (getASlot())
      return emitOpError("a register operand A takes no slot");
    as.assign(a.getShape().begin(), a.getShape().end());
    elem = a.getElementType();
  } else {
    auto a = cast<SharedBufferType>(getA().getType());
    if (!getASlot())
      return emitOpError("operand A in shared memory needs a slot");
    if (a.isThreadArranged())
      return emitOpError("reads operand A only from the tensor-core arrangement, not from ") << a;
    as.assign(a.getTileShape().begin(), a.getTileShape().end());
    elem = a.getElementType();
  }
  ArrayRef<int64_t> bs = b.getTileShape();
  if (as[1] != bs[0] || acc.getDimSize(0) != as[0] || acc.getDimSize(1) != bs[1])
    return emitOpError("tiles ") << as[0] << "x" << as[1] << " and " << bs[0] << "x" << bs[1]
                                 << " do not multiply into " << acc.getDimSize(0) << "x" << acc.getDimSize(1);
  bool sixteen = elem.isF16() || elem.isBF16();
  if (!acc.getElementType().isF32() || !(sixteen ? elem == b.getElementType()
                                                 : isFloat8(elem) && isFloat8(b.getElementType())))
    return emitOpError("multiplies f16 or bf16 tiles, or 8-bit float tiles, into f32");
  int64_t kStep = sixteen ? 16 : 32;
  if (as[0] % 64 || as[1] % kStep)
    return emitOpError("needs rows in slabs of 64 and K in steps of ") << kStep;
  // Transposes exist only for 16-bit operands: 8-bit ones are read K-major.
  if (!sixteen && (b.getContig() != 0 || (!hasRegisterA() && cast<SharedBufferType>(getA().getType()).getContig() != 1)))
    return emitOpError("reads 8-bit operands only K-major (A's lines along K, B's along K)");
  return success();
}

LogicalResult WarpGroupDotWaitOp::inferReturnTypes(MLIRContext *, std::optional<Location>, ValueRange operands,
                                                   DictionaryAttr, OpaqueProperties, RegionRange,
                                                   SmallVectorImpl<Type> &types) {
  llvm::append_range(types, operands.getTypes());
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  if (getAccs().empty())
    return emitOpError("waits for at least one accumulator");
  if (getAccs().getTypes() != getResults().getTypes())
    return emitOpError("results must have the accumulators' types, in order");
  return success();
}

LogicalResult WarpGroupTurnOp::verify() {
  StringRef step = getStep();
  if (step != "open" && step != "take" && step != "pass" && step != "close")
    return emitOpError("step must be open, take, pass or close, got '") << step << "'";
  if (!warpGroups(*this))
    return emitOpError("needs two or more warpgroups (blk.num_warps a multiple of 4, at least 8)");
  return success();
}

LogicalResult ProducerWarpOp::verify() {
  auto func = (*this)->getParentOfType<func::FuncOp>();
  if (!func || !func->getAttrOfType<IntegerAttr>(kProducerWarpsAttr))
    return emitOpError("needs a kernel with producer warps (") << kProducerWarpsAttr << ")";
  return success();
}

LogicalResult SetMaxRegistersOp::verify() {
  if (getRegisters() % 8)
    return emitOpError("registers must be a multiple of 8, got ") << getRegisters();
  return success();
}

} // namespace blk
