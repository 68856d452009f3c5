// Verifiers of the tensor-descriptor type and ops (make_tensor_descriptor,
// descriptor_load/store, async_tma_copy, async_tma_store), and the TMA box rule they share
// with the lowering and the runtime.
#include "blk/Dialect/Blk/IR/Dialect.h"

using namespace mlir;

namespace blk {

LogicalResult TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> blockShape,
                                     Type elementType) {
  if (blockShape.empty() || blockShape.size() > 5) // TMA's tensor maps have at most 5
    return emitError() << "a tensor descriptor's blocks have 1 to 5 dimensions, got " << blockShape.size();
  if (llvm::any_of(blockShape, [](int64_t d) { return d <= 0 || !llvm::isPowerOf2_64(d); }))
    return emitError() << "a tensor descriptor's block dimensions must be powers of two";
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() % 8)
    return emitError() << "a tensor descriptor holds whole-byte numbers, got " << elementType;
  return success();
}

TmaBox tmaBox(TensorDescType desc) {
  ArrayRef<int64_t> block = desc.getBlockShape();
  int64_t elemBytes = desc.getElementType().getIntOrFloatBitWidth() / 8;
  int64_t line = block.back() * elemBytes;
  TmaBox box;
  box.swizzleBytes = SharedBufferType::swizzleBytes(line);
  box.shape.assign(block.begin(), block.end());
  box.shape.back() = box.swizzleBytes / elemBytes;
  box.copies = line / box.swizzleBytes;
  return box;
}

ArrayRef<int64_t> innerBlock(TensorDescType desc) {
  ArrayRef<int64_t> block = desc.getBlockShape();
  while (block.size() > 1 && block.front() == 1)
    block = block.drop_front();
  return block;
}

SharedBufferType tmaRing(TensorDescType desc, int64_t slots) {
  ArrayRef<int64_t> block = innerBlock(desc);
  if (block.size() != 2)
    return {};
  return SharedBufferType::getChecked([] { return InFlightDiagnostic(); }, desc.getContext(),
                                      {slots, block[0], block[1]}, desc.getElementType(), 1);
}

LogicalResult MakeTensorDescriptorOp::verify() {
  TensorDescType desc = getType();
  if (getShape().size() != desc.getRank())
    return emitOpError("takes ") << desc.getRank() << " sizes and strides for blocks of rank " << desc.getRank()
                                 << ", got " << getShape().size();
  if (cast<PointerType>(getBase().getType()).getPointeeType() != desc.getElementType())
    return emitOpError("the base must point to the descriptor's element type");
  return success();
}

/// The offsets and the block of a descriptor access against its type.
static LogicalResult checkBlockAccess(Operation *op, TensorDescType desc, size_t offsets, RankedTensorType block) {
  if (offsets != desc.getRank())
    return op->emitOpError("takes ") << desc.getRank() << " offsets, got " << offsets;
  // The block as the descriptor has it, or without some of its leading
  // dimensions of size 1 (a box of a batched tensor read as a 2-D block).
  ArrayRef<int64_t> want = desc.getBlockShape(), got = block.getShape();
  bool dropsUnitDims = !got.empty() && got.size() <= want.size() &&
                       want.take_back(got.size()) == got &&
                       llvm::all_of(want.drop_back(got.size()), [](int64_t d) { return d == 1; });
  if (!dropsUnitDims || block.getElementType() != desc.getElementType())
    return op->emitOpError("the block must be ") << desc.getBlockType()
                                                 << " (without a layout, leading 1s optional), got " << block;
  return success();
}

LogicalResult DescriptorLoadOp::verify() {
  return checkBlockAccess(*this, getDesc().getType(), getOffsets().size(), getType());
}

LogicalResult DescriptorStoreOp::verify() {
  return checkBlockAccess(*this, getDesc().getType(), getOffsets().size(), getValue().getType());
}

/// A TMA copy's offsets and slots against its descriptor: one offset a
/// dimension, slots of the descriptor's 2-D blocks with rows contiguous.
static LogicalResult checkTmaSlots(Operation *op, TensorDescType desc, SharedBufferType ring, size_t offsets,
                                   StringRef buffer) {
  if (offsets != desc.getRank())
    return op->emitOpError("takes ") << desc.getRank() << " offsets, got " << offsets;
  if (innerBlock(desc).size() != 2 || ring.getTileShape() != innerBlock(desc) ||
      ring.getElementType() != desc.getElementType() || ring.getContig() != 1)
    return op->emitOpError("the ") << buffer
                                    << "'s slots must be the descriptor's 2-D blocks (after leading 1s), rows contiguous";
  if (ring.isThreadArranged())
    return op->emitOpError("TMA copies only the tensor-core arrangement, not ") << ring;
  return success();
}

LogicalResult AsyncTMACopyOp::verify() {
  SharedBufferType ring = getBuffer().getType();
  if (failed(checkTmaSlots(*this, getDesc().getType(), ring, getOffsets().size(), "ring")))
    return failure();
  if (getBarriers().getType().getCount() != ring.getSlots())
    return emitOpError("needs one mbarrier per slot of the ring");
  return success();
}

LogicalResult AsyncTMAStoreOp::verify() {
  return checkTmaSlots(*this, getDesc().getType(), getBuffer().getType(), getOffsets().size(), "buffer");
}

} // namespace blk
