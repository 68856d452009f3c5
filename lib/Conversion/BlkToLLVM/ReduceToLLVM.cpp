// Reductions: combine within each thread, then across the lanes that hold the
// reduced axis (butterfly shuffles), then across warps through shared memory.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace blk {

/// One application of the combiner region to two partial results.
SmallVector<Value> combine(OpBuilder &b, Region &combiner, ValueRange lhs, ValueRange rhs) {
  Block &body = combiner.front();
  IRMapping map;
  map.map(body.getArguments().take_front(lhs.size()), lhs);
  map.map(body.getArguments().drop_front(lhs.size()), rhs);
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
  SmallVector<Value> out;
  for (Value v : body.getTerminator()->getOperands())
    out.push_back(map.lookupOrDefault(v));
  return out;
}

/// `v` from another lane: shfl.sync of kind `kind` with lane operand `lane`
/// (a lane id, a distance or a lane mask), over the whole warp; values of
/// other widths than 32 bits move as 32-bit words.
Value shuffle(OpBuilder &b, Location loc, Value v, NVVM::ShflKind kind, Value lane) {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  auto shfl = [&](Value word) -> Value {
    Type wt = word.getType();
    // The clamp: the lowest lane for up, the highest otherwise.
    int clamp = kind == NVVM::ShflKind::up ? 0 : 0x1f;
    return NVVM::ShflOp::create(b, loc, wt, i32Const(b, loc, -1), word, lane, i32Const(b, loc, clamp), kind,
                                UnitAttr());
  };
  if (t.isF32() || t.isInteger(32))
    return shfl(v);
  unsigned bits = t.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt = isa<FloatType>(t) ? LLVM::BitcastOp::create(b, loc, intType, v).getResult() : v;
  Value result;
  if (bits == 64) {
    Value lo = LLVM::TruncOp::create(b, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(b, loc, i32, LLVM::LShrOp::create(b, loc, asInt,
        LLVM::ConstantOp::create(b, loc, intType, b.getIntegerAttr(intType, 32))));
    Value lo2 = LLVM::ZExtOp::create(b, loc, intType, shfl(lo));
    Value hi2 = LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, intType, shfl(hi)),
                                    LLVM::ConstantOp::create(b, loc, intType, b.getIntegerAttr(intType, 32)));
    result = LLVM::OrOp::create(b, loc, lo2, hi2);
  } else {
    result = LLVM::TruncOp::create(b, loc, intType, shfl(LLVM::ZExtOp::create(b, loc, i32, asInt)));
  }
  return isa<FloatType>(t) ? LLVM::BitcastOp::create(b, loc, t, result).getResult() : result;
}

/// `v` from the lane whose id differs from ours in the bits of `laneMask`.
Value shuffleXor(OpBuilder &b, Location loc, Value v, unsigned laneMask) {
  return shuffle(b, loc, v, NVVM::ShflKind::bfly, i32Const(b, loc, laneMask));
}

namespace {

struct ReduceToLLVM : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    if (!hasLayout(srcType))
      return failure();
    Location loc = op.getLoc();
    Region &combiner = op.getCombine();
    unsigned axis = op.getAxis();
    size_t n = op.getSrcs().size();
    LinearLayout in = LinearLayout::get(srcType), out = in.sliced(axis);
    SmallVector<ValueRange> srcs(adaptor.getSrcs().begin(), adaptor.getSrcs().end());

    // 1. Within the thread: registers that differ only along the axis, in
    //    register order.
    llvm::MapVector<int64_t, SmallVector<Value>> partial; // output position -> one value per operand
    for (int64_t r = 0; r < in.numRegisters(); ++r) {
      LinearLayout::Coord c = in.registerCoord(r);
      c.erase(c.begin() + axis);
      int64_t key = out.linearIndex(c);
      SmallVector<Value> vals;
      for (size_t k = 0; k < n; ++k)
        vals.push_back(srcs[k][r]);
      auto [it, fresh] = partial.try_emplace(key, vals);
      if (!fresh)
        it->second = combine(rewriter, combiner, it->second, vals);
    }
    SmallVector<SmallVector<Value>> acc;
    for (int64_t r = 0; r < out.numRegisters(); ++r) {
      auto it = partial.find(out.linearIndex(out.registerCoord(r)));
      if (it == partial.end())
        return op.emitOpError("register layout of the result does not match the source");
      acc.push_back(it->second);
    }

    // 2. Across lanes: a butterfly over each lane bit that moves along the
    //    axis. The lower lane's value is always the left operand, so every
    //    lane computes the same result even for a non-commutative combiner.
    Value lane;
    for (unsigned bit = 0; bit < in.lanes.size(); ++bit) {
      if (in.lanes[bit][axis] == 0)
        continue;
      if (!lane)
        lane = emitLaneId(rewriter, loc);
      Value upper = emitBitIsSet(rewriter, loc, lane, bit);
      for (SmallVector<Value> &vals : acc) {
        SmallVector<Value> lhs, rhs;
        for (Value v : vals) {
          Value other = shuffleXor(rewriter, loc, v, 1u << bit);
          lhs.push_back(LLVM::SelectOp::create(rewriter, loc, upper, other, v));
          rhs.push_back(LLVM::SelectOp::create(rewriter, loc, upper, v, other));
        }
        vals = combine(rewriter, combiner, lhs, rhs);
      }
    }

    // 3. Across warps: each warp writes its partial results, then every
    //    thread combines the partials of all warps along the axis in order.
    ScratchPlan plan = scratchFor(op);
    if (plan.bytes > 0) {
      FailureOr<int64_t> offset = scratchOffset(op);
      if (failed(offset))
        return failure();
      // This warp's index among the warps along the axis: its bits that move
      // along the axis, packed.
      SmallVector<LinearLayout::Coord> along;
      unsigned k = 0;
      for (const LinearLayout::Coord &c : in.warps)
        along.push_back({c[axis] ? int64_t(1) << k++ : 0});
      Value warpAlong = emitBasisSum(rewriter, loc, emitWarpId(rewriter, loc), along, 0);
      int64_t partials = int64_t(1) << k, outElems = out.numElements();
      SmallVector<Value> positions = emitRegisterIndices(rewriter, loc, out);
      // Partial `part` of output element `pos` of operand `i`.
      auto slot = [&](size_t i, Value part, Value pos) {
        Value idx = LLVM::AddOp::create(
            rewriter, loc, LLVM::MulOp::create(rewriter, loc, part, i32Const(rewriter, loc, outElems)), pos);
        return sharedElement(rewriter, loc, *offset + plan.partOffsets[i], acc[0][i].getType(), idx);
      };
      for (int64_t r = 0; r < out.numRegisters(); ++r)
        for (size_t i = 0; i < n; ++i)
          storeShared(rewriter, loc, acc[r][i], slot(i, warpAlong, positions[r]));
      emitBarrier(rewriter, loc);
      for (int64_t r = 0; r < out.numRegisters(); ++r) {
        SmallVector<Value> total;
        for (int64_t p = 0; p < partials; ++p) {
          SmallVector<Value> vals;
          for (size_t i = 0; i < n; ++i)
            vals.push_back(loadShared(rewriter, loc, acc[r][i].getType(),
                                      slot(i, i32Const(rewriter, loc, p), positions[r])));
          total = p == 0 ? vals : combine(rewriter, combiner, total, vals);
        }
        acc[r] = total;
      }
    }

    SmallVector<SmallVector<Value>> results(n);
    for (size_t i = 0; i < n; ++i)
      for (auto &vals : acc)
        results[i].push_back(vals[i]);
    SmallVector<ValueRange> ranges(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, ranges);
    return success();
  }
};

} // namespace

void populateReduceOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ReduceToLLVM>(tc, patterns.getContext());
}

} // namespace blk
