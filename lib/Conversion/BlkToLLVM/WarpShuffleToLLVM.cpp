// Layout moves inside warps (WarpShufflePlan, blk/Analysis/LayoutMove.h):
// per round, each lane offers one register (a select tree where the register
// depends on the lane or warp) and reads one lane's offer with
// shfl.sync.idx; a result register whose round depends on the lane is a
// select tree over the rounds' values.
#include "Patterns.h"

#include "blk/Analysis/LayoutMove.h"

using namespace mlir;

namespace blk {

namespace {

/// The map's value for the calling thread (i32): runs of columns that are
/// consecutive bits become one shift and mask.
Value emitThreadBitMap(OpBuilder &b, Location loc, const ThreadBitMap &map, Value lane, Value warp) {
  Value out;
  auto add = [&](Value term) { out = out ? LLVM::XOrOp::create(b, loc, out, term).getResult() : term; };
  auto addColumns = [&](Value id, ArrayRef<int64_t> columns, unsigned idBits) {
    for (unsigned i = 0; i < columns.size();) {
      int64_t c = columns[i];
      if (c == 0) {
        ++i;
        continue;
      }
      unsigned j = i + 1;
      while (llvm::isPowerOf2_64(c) && j < columns.size() && columns[j] == c << (j - i))
        ++j;
      if (i == 0 && j == idBits && c == 1) { // the id itself
        add(id);
        i = j;
        continue;
      }
      Value bits = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, id, i32Const(b, loc, i)),
                                       i32Const(b, loc, (int64_t(1) << (j - i)) - 1));
      if (!llvm::isPowerOf2_64(c))
        add(LLVM::MulOp::create(b, loc, bits, i32Const(b, loc, c)));
      else if (c == 1)
        add(bits);
      else
        add(LLVM::ShlOp::create(b, loc, bits, i32Const(b, loc, llvm::Log2_64(c))));
      i = j;
    }
  };
  addColumns(lane, map.lane, 5);
  if (!llvm::all_of(map.warp, [](int64_t c) { return c == 0; }))
    addColumns(warp, map.warp, ~0u);
  return out ? out : i32Const(b, loc, 0);
}

/// A runtime index of a map's image, as the bits a select tree tests.
struct SelectBits {
  SmallVector<int64_t> basis; // imageBasis(): vector j is chosen by its highest bit
  SmallVector<Value> chosen;  // i1 per basis vector
  SelectBits(OpBuilder &b, Location loc, const ThreadBitMap &map, Value lane, Value warp) : basis(map.imageBasis()) {
    if (basis.empty())
      return;
    Value index = emitThreadBitMap(b, loc, map, lane, warp);
    for (int64_t v : basis)
      chosen.push_back(LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, index, i32Const(b, loc, int64_t(llvm::bit_floor(uint64_t(v))))),
          i32Const(b, loc, 0)));
  }
  /// `candidate(base ^ index)`: a tree of selects over the image.
  Value select(OpBuilder &b, Location loc, int64_t base, llvm::function_ref<Value(int64_t)> candidate) const {
    SmallVector<Value> values;
    for (int64_t m = 0; m < (int64_t(1) << basis.size()); ++m) {
      int64_t index = base;
      for (unsigned j = 0; j < basis.size(); ++j)
        if (m >> j & 1)
          index ^= basis[j];
      values.push_back(candidate(index));
    }
    for (unsigned j = basis.size(); j-- > 0;)
      for (int64_t m = 0; m < (int64_t(1) << j); ++m)
        values[m] = LLVM::SelectOp::create(b, loc, chosen[j], values[m | (int64_t(1) << j)], values[m]);
    return values[0];
  }
};

/// `v` as read from lane `lane` (i32) by shfl.sync.idx, 32 bits at a time.
Value shuffleIdx(OpBuilder &b, Location loc, Value v, Value lane) {
  Type t = v.getType(), i32 = b.getI32Type(), i64 = b.getI64Type();
  auto shfl = [&](Value word) -> Value {
    return NVVM::ShflOp::create(b, loc, i32, i32Const(b, loc, -1), word, lane, i32Const(b, loc, 0x1f),
                                NVVM::ShflKind::idx, UnitAttr());
  };
  if (t == i32)
    return shfl(v);
  if (isa<LLVM::LLVMPointerType>(t))
    return LLVM::IntToPtrOp::create(b, loc, t, shuffleIdx(b, loc, LLVM::PtrToIntOp::create(b, loc, i64, v), lane));
  unsigned bits = t.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(t) ? LLVM::BitcastOp::create(b, loc, intType, v).getResult() : v;
  Value result;
  if (bits == 64) {
    Value c32 = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(32));
    Value lo = shfl(LLVM::TruncOp::create(b, loc, i32, asInt));
    Value hi = shfl(LLVM::TruncOp::create(b, loc, i32, LLVM::LShrOp::create(b, loc, asInt, c32)));
    Value low = LLVM::ZExtOp::create(b, loc, i64, lo);
    Value high = LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, hi), c32);
    result = LLVM::OrOp::create(b, loc, low, high);
  } else if (bits == 32) {
    result = shfl(asInt);
  } else {
    result = LLVM::TruncOp::create(b, loc, intType, shfl(LLVM::ZExtOp::create(b, loc, i32, asInt)));
  }
  return isa<FloatType>(t) ? LLVM::BitcastOp::create(b, loc, t, result).getResult() : result;
}

} // namespace

SmallVector<Value> emitWarpShuffles(OpBuilder &b, Location loc, const WarpShufflePlan &plan, ValueRange values) {
  bool byWarp = !plan.sourceLane.isZero() && llvm::any_of(plan.sourceLane.warp, [](int64_t c) { return c != 0; });
  byWarp |= llvm::any_of(plan.offeredRegister.warp, [](int64_t c) { return c != 0; });
  Value lane = emitLaneId(b, loc), warp = byWarp ? emitWarpId(b, loc) : Value();
  SelectBits offerBits(b, loc, plan.offeredRegister, lane, warp);
  SelectBits resultBits(b, loc, plan.resultRound, lane, warp);
  Value sourceLane = plan.shuffles() ? emitThreadBitMap(b, loc, plan.sourceLane, lane, warp) : Value();
  llvm::DenseMap<int64_t, Value> offers; // by roundRegister: rounds offering the same registers share a tree
  SmallVector<Value> received;
  for (int64_t k = 0; k < plan.numRounds(); ++k) {
    Value &offer = offers[plan.roundRegister[k]];
    if (!offer)
      offer = offerBits.select(b, loc, plan.roundRegister[k], [&](int64_t r) { return values[r]; });
    if (plan.readsOwnValue(k)) {
      received.push_back(offer);
      continue;
    }
    Value from = plan.roundLane[k] ? LLVM::XOrOp::create(b, loc, sourceLane, i32Const(b, loc, plan.roundLane[k]))
                                   : sourceLane;
    received.push_back(shuffleIdx(b, loc, offer, from));
  }
  SmallVector<Value> out;
  for (int64_t r = 0; r < plan.numResults; ++r)
    out.push_back(resultBits.select(b, loc, r, [&](int64_t k) { return received[k]; }));
  return out;
}

} // namespace blk
