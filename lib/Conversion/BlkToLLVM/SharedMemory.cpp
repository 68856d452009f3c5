// Addressing the kernel's dynamic shared memory, and moving single elements
// through it (booleans as bytes), for the lowerings that exchange data
// between threads.
#include "Patterns.h"

using namespace mlir;

namespace blk {

static Type sharedType(Type t) { return t.isInteger(1) ? IntegerType::get(t.getContext(), 8) : t; }

Value sharedElement(OpBuilder &b, Location loc, int64_t offset, Type type, Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kSharedSymbol);
  if (offset != 0)
    base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base, ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  return LLVM::GEPOp::create(b, loc, ptrType, sharedType(type), base, ValueRange{index});
}

FailureOr<int64_t> scratchOffset(Operation *op) {
  if (auto offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr))
    return offset.getInt();
  return op->emitOpError("needs shared memory: run blk-allocate-shared-memory first");
}

Value emitPaddedIndex(OpBuilder &b, Location loc, Value index, int64_t period) {
  if (!period)
    return index;
  Value shift = i32Const(b, loc, llvm::Log2_64(period));
  return LLVM::AddOp::create(b, loc, index, LLVM::LShrOp::create(b, loc, index, shift));
}

void storeShared(OpBuilder &b, Location loc, Value value, Value ptr) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  LLVM::StoreOp::create(b, loc, value, ptr);
}

Value loadShared(OpBuilder &b, Location loc, Type type, Value ptr) {
  Value v = LLVM::LoadOp::create(b, loc, sharedType(type), ptr);
  return type.isInteger(1) ? LLVM::TruncOp::create(b, loc, type, v).getResult() : v;
}

} // namespace blk
