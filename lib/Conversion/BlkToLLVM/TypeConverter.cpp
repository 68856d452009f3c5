#include "Patterns.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk {

ThreadTypeConverter::ThreadTypeConverter(MLIRContext *ctx) {
  addConversion([](Type t) { return t; });
  addConversion([ctx](FloatType t) -> Type { // fp8 travels as bytes
    return isFloat8(t) ? Type(IntegerType::get(ctx, 8)) : Type(t);
  });
  addConversion([ctx](PointerType) -> Type { return LLVM::LLVMPointerType::get(ctx, 1); });
  addConversion([ctx](SharedBufferType) -> Type { return LLVM::LLVMPointerType::get(ctx, 3); }); // the ring's start
  addConversion([ctx](BarriersType) -> Type { return LLVM::LLVMPointerType::get(ctx, 3); });
  // A TMA tensor map: the generic address of the kernel parameter holding it.
  addConversion([ctx](TensorDescType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
  addConversion([this](RankedTensorType t, SmallVectorImpl<Type> &out) -> std::optional<LogicalResult> {
    if (!hasLayout(t))
      return std::nullopt; // no layout: not convertible
    Type elem = convertType(t.getElementType());
    out.append(LinearLayout::get(t).numRegisters(), elem);
    return success();
  });
}

Value i32Const(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(int32_t(v)));
}

/// The 16-bit value whose low and high bytes `lo` and `hi` are (an fp8
/// conversion's pair: trunc x, trunc (x >> 8)); null otherwise.
static Value halfOfBytes(Value lo, Value hi) {
  auto truncLo = lo.getDefiningOp<LLVM::TruncOp>(), truncHi = hi.getDefiningOp<LLVM::TruncOp>();
  if (!truncLo || !truncHi || !lo.getType().isInteger(8) || !truncLo.getArg().getType().isInteger(16))
    return {};
  auto shift = truncHi.getArg().getDefiningOp<LLVM::LShrOp>();
  APInt amount;
  if (!shift || shift.getLhs() != truncLo.getArg() || !matchPattern(shift.getRhs(), m_ConstantInt(&amount)) ||
      amount != 8)
    return {};
  return truncLo.getArg();
}

Value packVector(OpBuilder &b, Location loc, ValueRange elems) {
  // Bytes that fp8 conversions made in pairs go back together as their
  // 16-bit registers, rather than byte by byte (a bit-field insert each).
  SmallVector<Value> halves;
  for (size_t i = 0; elems.size() % 2 == 0 && i < elems.size(); i += 2)
    if (Value half = halfOfBytes(elems[i], elems[i + 1]))
      halves.push_back(half);
  ValueRange parts = halves.size() * 2 == elems.size() ? ValueRange(halves) : elems;
  auto vecType = VectorType::get({int64_t(parts.size())}, parts.front().getType());
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [e, v] : llvm::enumerate(parts))
    vec = LLVM::InsertElementOp::create(b, loc, vec, v, i32Const(b, loc, int64_t(e)));
  return vec;
}

Value packWord(OpBuilder &b, Location loc, ValueRange elems) {
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), packVector(b, loc, elems));
}

Value emitLaneId(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  return LLVM::AndOp::create(b, loc, tid, i32Const(b, loc, kWarpSize - 1));
}

Value emitWarpId(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  return LLVM::LShrOp::create(b, loc, tid, i32Const(b, loc, 5));
}

Value emitBasisSum(OpBuilder &b, Location loc, Value id, ArrayRef<LinearLayout::Coord> bases, unsigned dim) {
  Value sum;
  auto add = [&](Value term) { sum = sum ? LLVM::XOrOp::create(b, loc, sum, term).getResult() : term; };
  for (unsigned i = 0; i < bases.size();) {
    int64_t v = bases[i][dim];
    if (v == 0) {
      ++i;
      continue;
    }
    // A run of bits whose bases double each time: one shift and mask.
    unsigned j = i + 1;
    while (j < bases.size() && llvm::isPowerOf2_64(v) && bases[j][dim] == v << (j - i))
      ++j;
    Value bits = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, i)),
                                     i32Const(b, loc, (1 << (j - i)) - 1));
    if (llvm::isPowerOf2_64(v))
      add(v == 1 ? bits : LLVM::ShlOp::create(b, loc, bits, i32Const(b, loc, llvm::Log2_64(v))).getResult());
    else
      add(LLVM::MulOp::create(b, loc, bits, i32Const(b, loc, v)));
    i = j;
  }
  return sum ? sum : i32Const(b, loc, 0);
}

ThreadCoords emitThreadCoords(OpBuilder &b, Location loc, const LinearLayout &layout) {
  Value lane = emitLaneId(b, loc), warp = emitWarpId(b, loc);
  ThreadCoords t;
  for (unsigned d = 0; d < layout.rank(); ++d)
    t.coords.push_back(LLVM::XOrOp::create(b, loc, emitBasisSum(b, loc, lane, layout.lanes, d),
                                           emitBasisSum(b, loc, warp, layout.warps, d)));
  // Threads whose copy bits are all zero own the elements.
  auto noneOf = [&](Value id, unsigned mask) -> Value {
    if (!mask)
      return {};
    Value bits = LLVM::AndOp::create(b, loc, id, i32Const(b, loc, mask));
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits, i32Const(b, loc, 0));
  };
  Value laneOwner = noneOf(lane, layout.broadcastLaneMask()), warpOwner = noneOf(warp, layout.broadcastWarpMask());
  t.owner = laneOwner && warpOwner ? LLVM::AndOp::create(b, loc, laneOwner, warpOwner).getResult()
                                   : (laneOwner ? laneOwner : warpOwner);
  t.additive = layout.registersDisjointFromThreads();
  return t;
}

SmallVector<Value> ThreadCoords::element(OpBuilder &b, Location loc, const LinearLayout &layout,
                                         int64_t reg) const {
  LinearLayout::Coord c = layout.registerCoord(reg);
  SmallVector<Value> out;
  for (unsigned d = 0; d < coords.size(); ++d) {
    if (c[d] == 0)
      out.push_back(coords[d]);
    else if (additive) // lets the constant fold into addresses
      out.push_back(LLVM::AddOp::create(b, loc, coords[d], i32Const(b, loc, c[d])));
    else
      out.push_back(LLVM::XOrOp::create(b, loc, coords[d], i32Const(b, loc, c[d])));
  }
  return out;
}

llvm::DenseMap<int64_t, int64_t> registersByPosition(const LinearLayout &layout) {
  llvm::DenseMap<int64_t, int64_t> m;
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    m.try_emplace(layout.linearIndex(layout.registerCoord(r)), r);
  return m;
}

Value inlineAsm(OpBuilder &b, Location loc, Type resultType, ValueRange operands, StringRef text,
                StringRef constraints, bool sideEffects) {
  auto op = LLVM::InlineAsmOp::create(b, loc, resultType ? TypeRange(resultType) : TypeRange(), operands, text,
                                      constraints, sideEffects, /*is_align_stack=*/false, LLVM::TailCallKind::None,
                                      LLVM::AsmDialectAttr(), ArrayAttr());
  return op.getNumResults() ? op.getResult(0) : Value();
}

Value emitLinearIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
  if (coords.empty())
    return i32Const(b, loc, 0);
  Value idx = coords[0];
  for (unsigned d = 1; d < coords.size(); ++d)
    idx = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, idx, i32Const(b, loc, shape[d])), coords[d]);
  return idx;
}

SmallVector<Value> emitRegisterIndices(OpBuilder &b, Location loc, const LinearLayout &layout) {
  ThreadCoords thread = emitThreadCoords(b, loc, layout);
  SmallVector<Value> indices;
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    indices.push_back(emitLinearIndex(b, loc, thread.element(b, loc, layout, r), layout.shape));
  return indices;
}

Value emitBitIsSet(OpBuilder &b, Location loc, Value id, unsigned bit) {
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                              LLVM::AndOp::create(b, loc, id, i32Const(b, loc, 1u << bit)), i32Const(b, loc, 0));
}

} // namespace blk
