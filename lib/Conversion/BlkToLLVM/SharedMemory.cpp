// Addressing the kernel's dynamic shared memory, and moving single elements
// through it (booleans as bytes), for the lowerings that exchange data
// between threads.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {

Type memoryElementType(Type t) { return t.isInteger(1) || isFloat8(t) ? IntegerType::get(t.getContext(), 8) : t; }

Value sharedElement(OpBuilder &b, Location loc, int64_t offset, Type type, Value index) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType, kSharedSymbol);
  if (offset != 0)
    base = LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base, ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  return LLVM::GEPOp::create(b, loc, ptrType, memoryElementType(type), base, ValueRange{index});
}

FailureOr<int64_t> scratchOffset(Operation *op) {
  if (auto offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr))
    return offset.getInt();
  return op->emitOpError("needs shared memory: run blk-allocate-shared-memory first");
}

FailureOr<Value> allocatedBuffer(OpBuilder &b, Operation *op) {
  FailureOr<int64_t> offset = scratchOffset(op);
  if (failed(offset))
    return failure();
  return sharedElement(b, op->getLoc(), *offset, b.getI8Type(), i32Const(b, op->getLoc(), 0));
}

Value emitPaddedIndex(OpBuilder &b, Location loc, Value index, int64_t period, int64_t pad) {
  if (!period)
    return index;
  Value rows = LLVM::LShrOp::create(b, loc, index, i32Const(b, loc, llvm::Log2_64(period)));
  if (pad != 1)
    rows = LLVM::MulOp::create(b, loc, rows, i32Const(b, loc, pad));
  return LLVM::AddOp::create(b, loc, index, rows);
}

void storeShared(OpBuilder &b, Location loc, Value value, Value ptr) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(b, loc, b.getI8Type(), value);
  LLVM::StoreOp::create(b, loc, value, ptr);
}

Value loadShared(OpBuilder &b, Location loc, Type type, Value ptr) {
  Value v = LLVM::LoadOp::create(b, loc, memoryElementType(type), ptr);
  return type.isInteger(1) ? LLVM::TruncOp::create(b, loc, type, v).getResult() : v;
}

/// The vector type `n` elements of `elem` travel as: 32-bit words when they
/// fill whole words (one ld/st.shared.v2/v4 of b32), else the elements.
static VectorType accessType(Type elem, int64_t n) {
  int64_t bits = n * elem.getIntOrFloatBitWidth();
  if (bits % 32 == 0)
    return VectorType::get({bits / 32}, IntegerType::get(elem.getContext(), 32));
  return VectorType::get({n}, elem);
}

void storeSharedVector(OpBuilder &b, Location loc, ValueRange values, Value ptr) {
  if (values.size() == 1)
    return storeShared(b, loc, values[0], ptr);
  Type elem = values[0].getType();
  Value vec = packVector(b, loc, values);
  VectorType access = accessType(elem, values.size());
  if (access != vec.getType())
    vec = LLVM::BitcastOp::create(b, loc, access, vec);
  LLVM::StoreOp::create(b, loc, vec, ptr, values.size() * sharedElementBytes(elem));
}

void storeSharedVectorIf(OpBuilder &b, Location loc, ValueRange values, Value ptr, Value pred) {
  if (!pred)
    return storeSharedVector(b, loc, values, ptr);
  // Pointers travel as 64-bit integers (the slot holds their bits).
  if (isa<LLVM::LLVMPointerType>(values[0].getType())) {
    SmallVector<Value> bits;
    for (Value v : values)
      bits.push_back(LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), v));
    return storeSharedVectorIf(b, loc, bits, ptr, pred);
  }
  // The words one access moves (as storeSharedVector moves them), each in
  // a register of its width; bytes travel in 16-bit registers.
  Type elem = values[0].getType();
  SmallVector<Value> words;
  int64_t bits = int64_t(values.size()) * std::max<int64_t>(8, elem.getIntOrFloatBitWidth());
  if (values.size() > 1 && bits % 32 == 0) {
    Value vec = packVector(b, loc, values);
    VectorType access = VectorType::get({bits / 32}, b.getI32Type());
    vec = LLVM::BitcastOp::create(b, loc, access, vec);
    for (int64_t i = 0; i < bits / 32; ++i)
      words.push_back(LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, i)));
  } else {
    for (Value v : values) {
      unsigned width = v.getType().getIntOrFloatBitWidth();
      Type asInt = b.getIntegerType(std::max(16u, width));
      if (isa<FloatType>(v.getType()))
        v = LLVM::BitcastOp::create(b, loc, b.getIntegerType(width), v);
      if (width < 16)
        v = LLVM::ZExtOp::create(b, loc, asInt, v);
      words.push_back(v);
    }
  }
  unsigned wordBits = words[0].getType().getIntOrFloatBitWidth();
  unsigned storeBits = values.size() == words.size() ? std::max<unsigned>(8, elem.getIntOrFloatBitWidth()) : 32;
  const char *reg = wordBits == 64 ? "l" : wordBits == 32 ? "r" : "h";
  int64_t stride = storeBits / 8;
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
  // One st.shared per group of up to 4 words (v2/v4 when aligned as one).
  int64_t group = words.size() == 4 || words.size() == 2 ? int64_t(words.size()) : 1;
  for (size_t first = 0; first < words.size(); first += group) {
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(group + 1) + ", 0;\n@p st.shared";
    if (group > 1)
      text += ".v" + std::to_string(group);
    text += ".b" + std::to_string(storeBits) + " [$0], ";
    text += group > 1 ? "{" : "";
    for (int64_t i = 0; i < group; ++i)
      text += (i ? ", $" : "$") + std::to_string(i + 1);
    text += group > 1 ? "};\n}" : ";\n}";
    std::string constraints = "r";
    for (int64_t i = 0; i < group; ++i)
      constraints += std::string(",") + reg;
    constraints += ",r";
    SmallVector<Value> operands{LLVM::AddOp::create(b, loc, address, i32Const(b, loc, int64_t(first) * stride))};
    llvm::append_range(operands, ArrayRef(words).slice(first, group));
    operands.push_back(LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred));
    inlineAsm(b, loc, Type(), operands, text, constraints);
  }
}

SmallVector<Value> loadSharedVector(OpBuilder &b, Location loc, Type type, int64_t n, Value ptr) {
  if (n == 1)
    return {loadShared(b, loc, type, ptr)};
  auto vecType = VectorType::get({n}, type);
  VectorType access = accessType(type, n);
  Value vec = LLVM::LoadOp::create(b, loc, access, ptr, n * sharedElementBytes(type));
  if (access != vecType)
    vec = LLVM::BitcastOp::create(b, loc, vecType, vec);
  SmallVector<Value> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, vec, i32Const(b, loc, i)));
  return out;
}

} // namespace blk
