// blk.sort: the bitonic network run on the source's layout. Each compare-
// exchange pairs elements whose positions along the last axis differ in one
// bit; the layout says which bit of a thread's register index, lane id or
// warp id that is. Partners in one thread's registers are exchanged by
// selects, in one warp by butterfly shuffles, across warps through shared
// memory (each element at its row-major slot, the partner's slot read back).
// A topk's first k elements of each row go back through shared memory in the
// result's layout.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

/// A bit known here (`value` null) or read at run time (an i1).
struct Bit {
  Value value;
  bool known = false;

  /// `ifSet` where the bit is set, `ifClear` where it is clear.
  Value pick(OpBuilder &b, Location loc, Value ifSet, Value ifClear) const {
    if (!value)
      return known ? ifSet : ifClear;
    return LLVM::SelectOp::create(b, loc, value, ifSet, ifClear);
  }
  /// `other` XOR this bit, as an i1.
  Value xorWith(OpBuilder &b, Location loc, Value other) const {
    if (!value && !known)
      return other;
    Value mask = value ? value : LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)).getResult();
    return LLVM::XOrOp::create(b, loc, other, mask);
  }
};

/// Bits of an element's position along the axis: the part the register
/// index gives is known here, the lane and warp parts are read from the
/// thread's ids.
struct PositionBits {
  const LinearLayout &layout;
  unsigned axis;
  Value lane, warp;

  Bit bit(OpBuilder &b, Location loc, int64_t reg, unsigned j) const {
    auto has = [&](const LinearLayout::Coord &basis) { return (basis[axis] >> j) & 1; };
    Bit out;
    for (unsigned i = 0; i < layout.regs.size(); ++i)
      if (((reg >> i) & 1) && has(layout.regs[i]))
        out.known = !out.known;
    auto addThreadBits = [&](ArrayRef<LinearLayout::Coord> bases, Value id) {
      for (unsigned i = 0; i < bases.size(); ++i)
        if (has(bases[i])) {
          Value set = emitBitIsSet(b, loc, id, i);
          out.value = out.value ? LLVM::XOrOp::create(b, loc, out.value, set).getResult() : set;
        }
    };
    addThreadBits(layout.lanes, lane);
    addThreadBits(layout.warps, warp);
    if (out.value && out.known) // a register part that is set inverts the thread part
      out = Bit{Bit{Value(), true}.xorWith(b, loc, out.value), false};
    return out;
  }
};

Value greaterThan(OpBuilder &b, Location loc, Value lhs, Value rhs, bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, lhs, rhs);
  return LLVM::ICmpOp::create(b, loc, isUnsigned ? LLVM::ICmpPredicate::ugt : LLVM::ICmpPredicate::sgt, lhs, rhs);
}

struct SortToLLVM : OpConversionPattern<SortOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SortOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), dstType = op.getType();
    if (!hasLayout(srcType) || !hasLayout(dstType))
      return failure();
    bool shared = sortGoesThroughShared(op);
    int64_t offset = 0;
    if (shared) {
      FailureOr<int64_t> at = scratchOffset(op);
      if (failed(at))
        return failure();
      offset = *at;
    }
    Location loc = op.getLoc();
    LinearLayout layout = LinearLayout::get(srcType);
    unsigned axis = srcType.getRank() - 1;
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned logN = llvm::Log2_64(uint64_t(shape[axis]));
    SmallVector<Value> values(adaptor.getSrc().begin(), adaptor.getSrc().end());
    Type elem = values.empty() ? Type() : values[0].getType();
    PositionBits position{layout, axis, emitLaneId(rewriter, loc), emitWarpId(rewriter, loc)};

    // Shared-memory exchanges: every register's slot, and whether this
    // thread writes it (threads holding copies leave it to the first).
    ThreadCoords coords;
    SmallVector<Value> slots;
    if (shared) {
      coords = emitThreadCoords(rewriter, loc, layout);
      for (int64_t r = 0; r < layout.numRegisters(); ++r)
        slots.push_back(emitLinearIndex(rewriter, loc, coords.element(rewriter, loc, layout, r), shape));
    }
    bool sharedUsed = false; // a barrier must separate the last reads from new writes
    auto writeAll = [&](ArrayRef<Value> vals) {
      if (sharedUsed)
        emitBarrier(rewriter, loc);
      for (int64_t r = 0; r < layout.numRegisters(); ++r)
        storeSharedVectorIf(rewriter, loc, vals.slice(r, 1), sharedElement(rewriter, loc, offset, elem, slots[r]),
                            coords.owner);
      emitBarrier(rewriter, loc);
      sharedUsed = true;
    };

    bool descending = op.getDescending(), isUnsigned = op.getIsUnsigned();
    for (unsigned stage = op.getMergeOnly() ? logN : 1; stage <= logN; ++stage) {
      for (int j = int(stage) - 1; j >= 0; --j) {
        LinearLayout::Coord step(srcType.getRank(), 0);
        step[axis] = int64_t(1) << j;
        auto bit = layout.bitWithBasis(step);
        // Each element's partner, from where the layout keeps it.
        SmallVector<Value> partners;
        if (bit && bit->kind == LinearLayout::BitKind::Register) {
          for (int64_t r = 0; r < layout.numRegisters(); ++r)
            partners.push_back(values[r ^ (int64_t(1) << bit->bit)]);
        } else if (bit && bit->kind == LinearLayout::BitKind::Lane) {
          for (Value v : values)
            partners.push_back(shuffleXor(rewriter, loc, v, 1u << bit->bit));
        } else {
          writeAll(values);
          Value flipBit = i32Const(rewriter, loc, int64_t(1) << j);
          for (int64_t r = 0; r < layout.numRegisters(); ++r) {
            Value other = LLVM::XOrOp::create(rewriter, loc, slots[r], flipBit);
            partners.push_back(loadShared(rewriter, loc, elem, sharedElement(rewriter, loc, offset, elem, other)));
          }
        }
        // The pair's lower element is the one whose bit j is clear; it swaps
        // when lower > upper differs from the run's order (bit `stage` of the
        // position, or the result's order in the last stage).
        SmallVector<Value> next;
        for (int64_t r = 0; r < layout.numRegisters(); ++r) {
          Value mine = values[r], other = partners[r];
          Bit isUpper = position.bit(rewriter, loc, r, unsigned(j));
          Value lower = isUpper.pick(rewriter, loc, other, mine);
          Value upper = isUpper.pick(rewriter, loc, mine, other);
          Bit flip = stage < logN ? position.bit(rewriter, loc, r, stage) : Bit{Value(), descending};
          Value swap = flip.xorWith(rewriter, loc, greaterThan(rewriter, loc, lower, upper, isUnsigned));
          next.push_back(LLVM::SelectOp::create(rewriter, loc, swap, other, mine));
        }
        values = std::move(next);
      }
    }

    if (dstType.getShape() != srcType.getShape()) {
      // topk: the sorted rows to shared memory, their first k elements read
      // back in the result's layout.
      writeAll(values);
      LinearLayout to = LinearLayout::get(dstType);
      ThreadCoords dst = emitThreadCoords(rewriter, loc, to);
      SmallVector<Value> out;
      for (int64_t r = 0; r < to.numRegisters(); ++r) {
        Value index = emitLinearIndex(rewriter, loc, dst.element(rewriter, loc, to, r), shape);
        out.push_back(loadShared(rewriter, loc, elem, sharedElement(rewriter, loc, offset, elem, index)));
      }
      values = std::move(out);
    }
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

} // namespace

void populateSortPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<SortToLLVM>(tc, patterns.getContext());
}

} // namespace blk
