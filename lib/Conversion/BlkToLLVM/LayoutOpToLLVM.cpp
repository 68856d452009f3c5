// Ops that change which thread or register holds an element: expand_dims and
// broadcast (register renames); convert_layout, reshape, trans and permute (a
// rename, warp shuffles, or a round trip through shared memory: the path
// planLayoutMove chooses); and the barrier that orders shared-memory accesses.
#include <functional>
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"
#include "blk/Analysis/LayoutMove.h"

using namespace mlir;

namespace blk {
namespace {

using CoordMap = llvm::function_ref<LinearLayout::Coord(const LinearLayout::Coord &)>;

/// The registers of `to` taken from the registers of `from` holding the same
/// element (`toSource` maps a coordinate of `to` to one of `from`). Fails
/// when the two layouts do not place elements on the same threads.
FailureOr<SmallVector<Value>> renameRegisters(const LinearLayout &from, const LinearLayout &to, ValueRange values,
                                              CoordMap toSource) {
  for (unsigned i = 0; i < to.lanes.size(); ++i)
    if (i >= from.lanes.size() || toSource(to.lanes[i]) != from.lanes[i])
      return failure();
  for (unsigned i = 0; i < to.warps.size(); ++i)
    if (i >= from.warps.size() || toSource(to.warps[i]) != from.warps[i])
      return failure();
  llvm::DenseMap<int64_t, int64_t> regOf;
  for (int64_t r = 0; r < from.numRegisters(); ++r)
    regOf[from.linearIndex(from.registerCoord(r))] = r;
  SmallVector<Value> out;
  for (int64_t r = 0; r < to.numRegisters(); ++r) {
    auto it = regOf.find(from.linearIndex(toSource(to.registerCoord(r))));
    if (it == regOf.end())
      return failure();
    out.push_back(values[it->second]);
  }
  return out;
}

/// expand_dims and broadcast move no data: each result register is the
/// source register holding the element the op reads (`sourceCoord`).
template <typename OpTy> struct RenameToLLVM : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpTy op, typename OpConversionPattern<OpTy>::OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), resultType = op.getType();
    if (!hasLayout(srcType) || !hasLayout(resultType))
      return failure();
    auto regs = renameRegisters(LinearLayout::get(srcType), LinearLayout::get(resultType), adaptor.getSrc(),
                                [&](const LinearLayout::Coord &c) { return sourceCoord(op, c); });
    if (failed(regs))
      return op.emitOpError(mismatch(op));
    rewriter.replaceOpWithMultiple(op, {*regs});
    return success();
  }

  static LinearLayout::Coord sourceCoord(ExpandDimsOp op, LinearLayout::Coord c) {
    c.erase(c.begin() + op.getAxis());
    return c;
  }
  static LinearLayout::Coord sourceCoord(BroadcastOp op, LinearLayout::Coord c) {
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    for (unsigned d = 0; d < c.size(); ++d)
      if (srcShape[d] == 1)
        c[d] = 0;
    return c;
  }
  static const char *mismatch(ExpandDimsOp) {
    return "source layout must be the result's layout sliced along the new axis";
  }
  static const char *mismatch(BroadcastOp) { return "source and result layouts must have the same parent"; }
};

/// Every thread writes what it holds to shared memory at the element's
/// row-major position in the result, then reads what the result's layout
/// gives it: layout conversions, reshapes (the same row-major order),
/// transposes and permutations (source coordinates in the result's order).
/// A conversion may write and read runs of consecutive elements as vectors
/// (sharedMoveOf).
template <typename OpT>
LogicalResult moveThroughShared(OpT op, ValueRange values, ConversionPatternRewriter &rewriter) {
  auto srcType = op.getSrc().getType(), dstType = op.getType();
  LinearLayout from = LinearLayout::get(srcType), to = LinearLayout::get(dstType);
  FailureOr<int64_t> offset = scratchOffset(op);
  if (failed(offset))
    return failure();
  SharedMove move = sharedMoveOf(op);
  Location loc = op.getLoc();
  Type elem = values[0].getType();
  int64_t period = move.swizzle ? 0 : sharedPadPeriod(move.storage);
  // A row-major index's place in the buffer: swizzled, or padded.
  auto place = [&](Value index) {
    if (!move.swizzle)
      return emitPaddedIndex(rewriter, loc, index, period, move.pad);
    if (move.swizzle->xors.empty())
      return index;
    for (auto [target, source] : move.swizzle->xors) {
      Value bit = LLVM::LShrOp::create(rewriter, loc, index, i32Const(rewriter, loc, source - target));
      bit = LLVM::AndOp::create(rewriter, loc, bit, i32Const(rewriter, loc, int64_t(1) << target));
      index = LLVM::XOrOp::create(rewriter, loc, index, bit);
    }
    // An opaque copy: LLVM's alias analysis would otherwise work out the
    // known bits of the XOR chain again for every pair of accesses (GVN
    // took four times as long on the f8e4m3 matmul's conversions).
    return inlineAsm(rewriter, loc, rewriter.getI32Type(), ValueRange{index}, "mov.b32 $0, $1;", "=r,r",
                     /*sideEffects=*/false);
  };
  auto slot = [&](ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
    return sharedElement(rewriter, loc, *offset, elem, place(emitLinearIndex(rewriter, loc, coords, shape)));
  };
  // The slot of each register of `thread` in `layout`, at the permuted
  // coordinates for a transpose's writes. Where the thread's and the
  // registers' terms have no bits in common (ThreadCoords::additive, shapes
  // of powers of two), they occupy disjoint bits of the row-major index, and
  // the padding adds per part: one address per thread and a constant offset
  // per register, instead of an index per register (fewer instructions, and
  // LLVM's straight-line strength reduction no longer rebuilds them).
  auto slotsOf = [&](const ThreadCoords &thread, const LinearLayout &layout, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> order) -> std::function<Value(int64_t)> {
    auto ordered = [order](auto coords) {
      if (order.empty())
        return coords;
      auto permuted = coords;
      for (auto [d, from] : llvm::enumerate(order))
        permuted[d] = coords[from];
      return permuted;
    };
    if (!thread.additive || !llvm::all_of(shape, [](int64_t n) { return llvm::isPowerOf2_64(uint64_t(n)); }))
      return [&, shape, ordered](int64_t r) {
        return slot(ordered(thread.element(rewriter, loc, layout, r)), shape);
      };
    // Swizzled, the thread's and the register's parts still add outside
    // the bits the swizzle flips, and flip those by XOR: one XOR per
    // distinct flip of the registers (CSE shares them).
    Value threadIndex = place(emitLinearIndex(rewriter, loc, ordered(SmallVector<Value>(thread.coords)), shape));
    if (move.swizzle && !move.swizzle->xors.empty()) {
      // Behind the opaque move LLVM no longer knows the index's low bits:
      // those no lane or warp sets (below the swizzle's targets, within a
      // 4-byte word) are cleared again, so that it still merges a thread's
      // narrow accesses to one word.
      int64_t low = std::max<int64_t>(1, 4 / int64_t(sharedElementBytes(elem)));
      for (const auto &bases : {layout.lanes, layout.warps})
        for (const LinearLayout::Coord &b : bases) {
          LinearLayout::Coord c = ordered(b);
          int64_t index = 0;
          for (size_t d = 0; d < c.size(); ++d)
            index = index * shape[d] + c[d];
          if (index)
            low = std::min<int64_t>(low, index & -index);
        }
      if (low > 1)
        threadIndex = LLVM::AndOp::create(rewriter, loc, threadIndex, i32Const(rewriter, loc, ~(low - 1)));
    }
    Value base = sharedElement(rewriter, loc, *offset, elem, threadIndex);
    return [&, base, threadIndex, shape, ordered](int64_t r) {
      LinearLayout::Coord c = ordered(layout.registerCoord(r));
      int64_t index = 0;
      for (size_t d = 0; d < c.size(); ++d)
        index = index * shape[d] + c[d];
      Value at = base;
      if (move.swizzle) {
        int64_t flips = move.swizzle->apply(index) & move.swizzle->targetMask();
        index &= ~move.swizzle->targetMask();
        if (flips)
          at = sharedElement(rewriter, loc, *offset, elem,
                             LLVM::XOrOp::create(rewriter, loc, threadIndex, i32Const(rewriter, loc, flips)));
      } else if (period) {
        index += move.pad * (index / period);
      }
      if (index == 0)
        return at;
      return Value(LLVM::GEPOp::create(rewriter, loc, at.getType(), memoryElementType(elem), at,
                                       ArrayRef<LLVM::GEPArg>{int32_t(index)}));
    };
  };
  // A conversion keeps coordinates and a reshape the row-major order: the
  // source's own index; a transpose or permutation writes at the source
  // coordinates in the result's order.
  SmallVector<int64_t, 4> order = movePermutation(op);
  ThreadCoords src = emitThreadCoords(rewriter, loc, from);
  auto srcSlot = slotsOf(src, from, order.empty() ? srcType.getShape() : dstType.getShape(), order);
  for (int64_t r = 0; r < from.numRegisters(); r += move.write) {
    // Copies of an element (a broadcast source) leave its write to the owner.
    if (src.owner)
      storeSharedVectorIf(rewriter, loc, values.slice(r, move.write), srcSlot(r), src.owner);
    else
      storeSharedVector(rewriter, loc, values.slice(r, move.write), srcSlot(r));
  }
  emitBarrier(rewriter, loc);
  ThreadCoords dst = emitThreadCoords(rewriter, loc, to);
  auto dstSlot = slotsOf(dst, to, dstType.getShape(), {});
  SmallVector<Value> out;
  for (int64_t r = 0; r < to.numRegisters(); r += move.read)
    llvm::append_range(out, loadSharedVector(rewriter, loc, elem, move.read, dstSlot(r)));
  rewriter.replaceOpWithMultiple(op, {out});
  return success();
}

/// convert_layout, reshape, trans and permute by the path planLayoutMove
/// chooses (conversions to tensor-core operands by ldmatrix:
/// DotOperandToLLVM.cpp).
template <typename OpT> struct LayoutMoveToLLVM : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult matchAndRewrite(OpT op, typename OpConversionPattern<OpT>::OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), dstType = op.getType();
    if (!hasLayout(srcType) || !hasLayout(dstType))
      return failure();
    ValueRange values = adaptor.getSrc();
    LayoutMovePlan plan = planLayoutMove(op);
    if (plan.path == MovePath::Ldmatrix)
      return failure();
    if (plan.path == MovePath::Shared)
      return moveThroughShared(op, values, rewriter);
    SmallVector<Value> out;
    if (plan.path == MovePath::Shuffles) {
      out = emitWarpShuffles(rewriter, op.getLoc(), *plan.rounds, values);
    } else if (plan.rounds) {
      for (int64_t r : plan.rounds->roundRegister)
        out.push_back(values[r]);
    } else {
      auto regs = renameRegisters(LinearLayout::get(srcType), LinearLayout::get(dstType), values,
                                  [](const LinearLayout::Coord &c) { return c; });
      if (failed(regs))
        return failure();
      out = std::move(*regs);
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

struct BarrierToLLVM : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    emitBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateLayoutOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<RenameToLLVM<ExpandDimsOp>, RenameToLLVM<BroadcastOp>, LayoutMoveToLLVM<ConvertLayoutOp>,
               LayoutMoveToLLVM<ReshapeOp>, LayoutMoveToLLVM<TransOp>, LayoutMoveToLLVM<PermuteOp>, BarrierToLLVM>(
      tc, patterns.getContext());
}

} // namespace blk
