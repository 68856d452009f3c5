// Scans (cumsum, cumprod): every element keeps the combination of its group
// so far (its prefix) and of the whole group (the total). Groups double along
// the axis one layout bit at a time, in order of the distance the bit moves:
// register bits within the thread, lane bits with xor shuffles, warp bits
// through shared memory. At each step the upper half of every pair takes the
// lower half's total in front of its prefix (a reverse scan: the lower half
// takes the upper half's total after its prefix), so the order of
// combination is the order along the axis.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

struct ScanBit {
  enum Kind { Reg, Lane, Warp } kind;
  unsigned index;
  int64_t stride;
};

struct ScanToLLVM : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = op.getSrc().getType();
    if (!hasLayout(type))
      return failure();
    Location loc = op.getLoc();
    LinearLayout layout = LinearLayout::get(type);
    unsigned axis = op.getAxis();
    SmallVector<ScanBit> bits;
    auto collect = [&](ArrayRef<LinearLayout::Coord> bases, ScanBit::Kind kind) -> LogicalResult {
      for (unsigned i = 0; i < bases.size(); ++i) {
        if (bases[i][axis] == 0)
          continue; // moves along another dimension, or a copy
        for (unsigned d = 0; d < bases[i].size(); ++d)
          if (d != axis && bases[i][d] != 0)
            return op.emitOpError("layout bit moves along two dimensions; scans need bases along one");
        bits.push_back({kind, i, bases[i][axis]});
      }
      return success();
    };
    if (failed(collect(layout.regs, ScanBit::Reg)) || failed(collect(layout.lanes, ScanBit::Lane)) ||
        failed(collect(layout.warps, ScanBit::Warp)))
      return failure();
    llvm::sort(bits, [](const ScanBit &a, const ScanBit &b) { return a.stride < b.stride; });

    Region &combiner = op.getCombine();
    auto apply = [&](Value a, Value b) { return combine(rewriter, combiner, ValueRange{a}, ValueRange{b})[0]; };
    SmallVector<Value> prefix(adaptor.getSrc().begin(), adaptor.getSrc().end()), total = prefix;
    int64_t numRegs = layout.numRegisters();
    Value lane, warp;
    bool sharedUsed = false;
    for (const ScanBit &bit : bits) {
      if (bit.kind == ScanBit::Reg) {
        int64_t m = int64_t(1) << bit.index;
        for (int64_t r = 0; r < numRegs; ++r) {
          if (r & m)
            continue;
          int64_t u = r | m;
          if (op.getReverse())
            prefix[r] = apply(prefix[r], total[u]);
          else
            prefix[u] = apply(total[r], prefix[u]);
          Value both = apply(total[r], total[u]);
          total[r] = total[u] = both;
        }
        continue;
      }
      // Across threads: the partner's totals, then upper or lower half.
      SmallVector<Value> other(numRegs);
      Value id;
      if (bit.kind == ScanBit::Lane) {
        if (!lane)
          lane = emitLaneId(rewriter, loc);
        id = lane;
        // Registers often share a total (after the in-thread steps): one
        // shuffle per distinct value (shfl.sync is convergent, so neither
        // MLIR nor LLVM would merge the copies).
        llvm::SmallDenseMap<Value, Value> shuffled;
        for (int64_t r = 0; r < numRegs; ++r) {
          Value &s = shuffled[total[r]];
          if (!s)
            s = shuffleXor(rewriter, loc, total[r], 1u << bit.index);
          other[r] = s;
        }
      } else {
        FailureOr<int64_t> offset = scratchOffset(op);
        if (failed(offset))
          return failure();
        if (!warp) {
          lane = lane ? lane : emitLaneId(rewriter, loc);
          warp = emitWarpId(rewriter, loc);
        }
        id = warp;
        Type elem = total[0].getType();
        // Slot of register r of thread (w, lane): ((w * 32) + lane) * numRegs + r.
        auto slot = [&](Value w, int64_t r) {
          Value t = LLVM::AddOp::create(rewriter, loc, LLVM::MulOp::create(rewriter, loc, w, i32Const(rewriter, loc, 32)),
                                        lane);
          Value idx = LLVM::AddOp::create(rewriter, loc,
                                          LLVM::MulOp::create(rewriter, loc, t, i32Const(rewriter, loc, numRegs)),
                                          i32Const(rewriter, loc, r));
          return sharedElement(rewriter, loc, *offset, elem, idx);
        };
        if (sharedUsed) // the previous step's reads finish before these writes
          NVVM::Barrier0Op::create(rewriter, loc);
        sharedUsed = true;
        for (int64_t r = 0; r < numRegs; ++r)
          storeShared(rewriter, loc, total[r], slot(warp, r));
        NVVM::Barrier0Op::create(rewriter, loc);
        Value partner = LLVM::XOrOp::create(rewriter, loc, warp, i32Const(rewriter, loc, 1u << bit.index));
        for (int64_t r = 0; r < numRegs; ++r)
          other[r] = loadShared(rewriter, loc, elem, slot(partner, r));
      }
      Value upper = emitBitIsSet(rewriter, loc, id, bit.index);
      // Registers sharing a total share the new one (keeps the shuffles of
      // the next step to one per distinct value).
      llvm::SmallDenseMap<Value, Value> newTotals;
      for (int64_t r = 0; r < numRegs; ++r) {
        if (op.getReverse()) // the lower half adds the upper half's total
          prefix[r] = LLVM::SelectOp::create(rewriter, loc, upper, prefix[r], apply(prefix[r], other[r]));
        else
          prefix[r] = LLVM::SelectOp::create(rewriter, loc, upper, apply(other[r], prefix[r]), prefix[r]);
        Value &next = newTotals[total[r]];
        if (!next) {
          Value upperTotal = apply(other[r], total[r]), lowerTotal = apply(total[r], other[r]);
          next = LLVM::SelectOp::create(rewriter, loc, upper, upperTotal, lowerTotal);
        }
        total[r] = next;
      }
    }
    rewriter.replaceOpWithMultiple(op, {prefix});
    return success();
  }
};

} // namespace

void populateScanOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ScanToLLVM>(tc, patterns.getContext());
}

} // namespace blk
