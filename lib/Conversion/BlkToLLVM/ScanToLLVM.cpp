// Scans (cumsum, cumprod, associative_scan): every element keeps the
// combination of its group so far (its prefix) and of the whole group (the
// total), one value per operand (a tuple scan moves every part together).
// Groups double along the axis one layout bit at a time, in order of the
// distance the bit moves:
// register bits within the thread, lane bits with xor shuffles, warp bits
// through shared memory. At each step the upper half of every pair takes the
// lower half's total in front of its prefix (a reverse scan: the lower half
// takes the upper half's total after its prefix), so the order of
// combination is the order along the axis.
//
// Three shortcuts where the bits allow them (blocked layouts): three or more
// consecutive lane bits, each moving twice as far as the one before, are
// scanned by shuffles up (Hillis-Steele: one running value, no prefix
// waiting beside it); register bits
// that move less than every lane and warp bit (a thread's run along the axis)
// are scanned one element after another, not by doubling; register bits that
// move farther than every lane and warp bit (a block taller than its threads:
// [128, 128] over 4 warps of 32 lanes along the rows repeats each thread's
// rows every 4) split the block into chunks along the axis whose prefixes are
// completed one after another by a carry per column, not by doubling.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

#include <map>

using namespace mlir;

namespace blk {
namespace {

struct ScanBit {
  enum Kind { Reg, Lane, Warp } kind;
  unsigned index;
  int64_t stride;
};

/// One element of every operand (a tuple scan has several).
using Vals = SmallVector<Value, 2>;

/// A key for maps of tuples (registers sharing a total share every part of it).
SmallVector<void *, 2> keyOf(ArrayRef<Value> vals) {
  SmallVector<void *, 2> key;
  for (Value v : vals)
    key.push_back(v.getAsOpaquePointer());
  return key;
}

/// The state of one scan's lowering: each register's prefix and total.
struct Scan {
  ConversionPatternRewriter &rw;
  Location loc;
  ScanOp op;
  SmallVector<Vals> prefix, total;
  Value lane, warp;
  int64_t folded = 0; // register bits that share scratch slots (scanFoldedRegisterBits)
  bool sharedUsed = false;
  SmallVector<int64_t> partOffsets; // each operand's part of the scratch buffer

  Vals apply(ArrayRef<Value> a, ArrayRef<Value> b) { return Vals(combine(rw, op.getCombine(), a, b)); }
  bool reverse() { return op.getReverse(); }
  /// The combining op when the combination is an integer sum or xor of one
  /// operand, which `uncombine` undoes exactly (wrapping); null otherwise.
  Operation *undoableCombiner() {
    Block &body = op.getCombine().front();
    if (body.getNumArguments() != 2 || !llvm::hasSingleElement(body.without_terminator()))
      return nullptr;
    Operation &only = body.front();
    bool undoable = isa<arith::AddIOp, arith::XOrIOp>(only) && only.getOperand(0) != only.getOperand(1) &&
                    llvm::all_of(only.getOperands(), [&](Value v) { return isa<BlockArgument>(v); }) &&
                    body.getTerminator()->getOperand(0) == only.getResult(0);
    return undoable ? &only : nullptr;
  }
  /// `whole` without `part` for undoableCombiner's `combiner`: whole - part
  /// for a sum, whole ^ part for a xor.
  Vals uncombine(Operation *combiner, ArrayRef<Value> whole, ArrayRef<Value> part) {
    bool sum = isa<arith::AddIOp>(combiner);
    Vals out;
    for (auto [w, p] : llvm::zip(whole, part))
      out.push_back(sum ? arith::SubIOp::create(rw, loc, w, p).getResult()
                        : arith::XOrIOp::create(rw, loc, w, p).getResult());
    return out;
  }
  Value laneId() { return lane ? lane : (lane = emitLaneId(rw, loc)); }
  Value warpId() { return warp ? warp : (warp = emitWarpId(rw, loc)); }
  /// `cond ? a : b`, part by part.
  Vals select(Value cond, ArrayRef<Value> a, ArrayRef<Value> b) {
    Vals out;
    for (auto [x, y] : llvm::zip(a, b))
      out.push_back(LLVM::SelectOp::create(rw, loc, cond, x, y));
    return out;
  }

  /// Shared-memory slots of register r of thread (w, lane), one per operand:
  /// ((w * 32) + lane) * slots + scanSlotOf(r) in that operand's part.
  Vals slots(int64_t offset, Value w, int64_t r) {
    int64_t perThread = int64_t(prefix.size()) >> llvm::popcount(uint64_t(folded));
    Value t = LLVM::AddOp::create(rw, loc, LLVM::MulOp::create(rw, loc, w, i32Const(rw, loc, 32)), laneId());
    Value idx = LLVM::AddOp::create(rw, loc, LLVM::MulOp::create(rw, loc, t, i32Const(rw, loc, perThread)),
                                    i32Const(rw, loc, scanSlotOf(r, folded)));
    Vals out;
    for (auto [i, part] : llvm::enumerate(partOffsets))
      out.push_back(sharedElement(rw, loc, offset + part, total[0][i].getType(), idx));
    return out;
  }

  /// The first register of `regs` holding each register's total (registers
  /// share totals in the same pattern in every thread: one value to move).
  llvm::DenseMap<int64_t, int64_t> firstWithTotal(ArrayRef<int64_t> regs) {
    llvm::DenseMap<int64_t, int64_t> first;
    std::map<SmallVector<void *, 2>, int64_t> firstOf;
    for (int64_t r : regs)
      first[r] = firstOf.try_emplace(keyOf(total[r]), r).first->second;
    return first;
  }

  /// One doubling step along a register bit, over registers `regs`.
  void registerStep(ArrayRef<int64_t> regs, unsigned index) {
    int64_t m = int64_t(1) << index;
    for (int64_t r : regs) {
      if (r & m)
        continue;
      int64_t u = r | m;
      if (reverse())
        prefix[r] = apply(prefix[r], total[u]);
      else
        prefix[u] = apply(total[r], prefix[u]);
      Vals both = apply(total[r], total[u]);
      total[r] = total[u] = both;
    }
  }

  /// The upper or lower half of each pair takes its partner's totals `other`.
  void takePartner(ArrayRef<int64_t> regs, Value id, unsigned index, llvm::DenseMap<int64_t, Vals> &other) {
    Value upper = emitBitIsSet(rw, loc, id, index);
    // Registers sharing a total share the new one (keeps the next step's
    // moves to one per distinct value).
    std::map<SmallVector<void *, 2>, Vals> newTotals;
    for (int64_t r : regs) {
      if (reverse()) { // the lower half adds the upper half's total
        Vals added = apply(prefix[r], other[r]);
        prefix[r] = select(upper, prefix[r], added);
      } else {
        Vals added = apply(other[r], prefix[r]);
        prefix[r] = select(upper, added, prefix[r]);
      }
      Vals &next = newTotals[keyOf(total[r])];
      if (next.empty()) {
        Vals lowerTotal = apply(total[r], other[r]), upperTotal = apply(other[r], total[r]);
        next = select(upper, upperTotal, lowerTotal);
      }
      total[r] = next;
    }
  }

  /// One doubling step along a lane bit: partners' totals by xor shuffles
  /// (one per distinct value: shfl.sync is convergent, so neither MLIR nor
  /// LLVM would merge the copies).
  void laneStep(ArrayRef<int64_t> regs, unsigned index) {
    llvm::DenseMap<int64_t, Vals> other;
    std::map<SmallVector<void *, 2>, Vals> shuffled;
    for (int64_t r : regs) {
      Vals &s = shuffled[keyOf(total[r])];
      if (s.empty())
        for (Value v : total[r])
          s.push_back(shuffleXor(rw, loc, v, 1u << index));
      other[r] = s;
    }
    takePartner(regs, laneId(), index, other);
  }

  /// The lane bits `lo`, ..., `lo + n - 1` (consecutive, strides doubling
  /// along the axis) in one scan of the totals by shfl.up (shfl.down in a
  /// reverse scan), each step combining the last step's result with the
  /// lane `2^k` positions before; then each register's prefix takes the
  /// lane before's result, and, when `needTotal`, its total the group's
  /// from the group's last lane. The butterfly of `laneStep` keeps a prefix
  /// besides the total at every step, which are combined only at the end
  /// (LLVM reassociates integer sums past the moves that follow): n values
  /// more per register live across them. An integer sum or xor needs no
  /// shuffle for the lanes before: they hold the lane's result without its
  /// own total (nothing in the group's first lane).
  void laneScan(ArrayRef<int64_t> regs, unsigned lo, unsigned n, bool needTotal) {
    auto c = [&](int64_t v) { return i32Const(rw, loc, v); };
    int64_t size = int64_t(1) << n;
    Value pos = LLVM::AndOp::create(rw, loc, LLVM::LShrOp::create(rw, loc, laneId(), c(lo)), c(size - 1));
    auto cmp = [&](LLVM::ICmpPredicate p, Value a, int64_t b) {
      return LLVM::ICmpOp::create(rw, loc, p, a, c(b)).getResult();
    };
    NVVM::ShflKind toward = reverse() ? NVVM::ShflKind::down : NVVM::ShflKind::up;
    auto move = [&](ArrayRef<Value> vals, NVVM::ShflKind kind, Value lane) {
      Vals out;
      for (Value v : vals)
        out.push_back(shuffle(rw, loc, v, kind, lane));
      return out;
    };
    // The group's first lane along the scan has no lane before it.
    Operation *combiner = undoableCombiner();
    bool subtractOwn = combiner != nullptr;
    Value first;
    if (!subtractOwn)
      first = reverse() ? cmp(LLVM::ICmpPredicate::eq, pos, size - 1) : cmp(LLVM::ICmpPredicate::eq, pos, 0);
    // The lane holding the group's total: the last along the scan.
    Value lastLane;
    if (needTotal)
      lastLane = reverse() ? LLVM::AndOp::create(rw, loc, laneId(), c(~((size - 1) << lo))).getResult()
                           : LLVM::OrOp::create(rw, loc, laneId(), c((size - 1) << lo)).getResult();
    struct Result {
      Vals before, total;
    };
    std::map<SmallVector<void *, 2>, Result> done;
    for (int64_t r : regs) {
      Result &res = done[keyOf(total[r])];
      if (res.before.empty()) {
        Vals inclusive = total[r];
        for (unsigned k = 0; k < n; ++k) {
          Vals moved = move(inclusive, toward, c(int64_t(1) << (lo + k)));
          Value inGroup = reverse() ? cmp(LLVM::ICmpPredicate::slt, pos, size - (int64_t(1) << k))
                                    : cmp(LLVM::ICmpPredicate::sge, pos, int64_t(1) << k);
          Vals added = reverse() ? apply(inclusive, moved) : apply(moved, inclusive);
          inclusive = select(inGroup, added, inclusive);
        }
        res.before = subtractOwn ? uncombine(combiner, inclusive, total[r]) : move(inclusive, toward, c(int64_t(1) << lo));
        if (needTotal)
          res.total = move(inclusive, NVVM::ShflKind::idx, lastLane);
      }
      Vals added = reverse() ? apply(prefix[r], res.before) : apply(res.before, prefix[r]);
      prefix[r] = subtractOwn ? added : select(first, prefix[r], added);
      if (needTotal)
        total[r] = res.total;
    }
  }

  /// One doubling step along a warp bit: partners' totals through shared memory.
  void warpStep(ArrayRef<int64_t> regs, unsigned index, int64_t offset) {
    if (sharedUsed) // the previous step's reads finish before these writes
      emitBarrier(rw, loc);
    sharedUsed = true;
    llvm::DenseMap<int64_t, int64_t> first = firstWithTotal(regs);
    for (int64_t r : regs)
      if (first[r] == r)
        for (auto [v, ptr] : llvm::zip(total[r], slots(offset, warpId(), r)))
          storeShared(rw, loc, v, ptr);
    emitBarrier(rw, loc);
    Value partner = LLVM::XOrOp::create(rw, loc, warpId(), i32Const(rw, loc, 1u << index));
    llvm::DenseMap<int64_t, Vals> other;
    for (int64_t r : regs) {
      if (first[r] != r) {
        Vals same = other[first[r]]; // a copy: other[r] may grow the map
        other[r] = std::move(same);
        continue;
      }
      Vals &loaded = other[r];
      for (auto [v, ptr] : llvm::zip(total[r], slots(offset, partner, r)))
        loaded.push_back(loadShared(rw, loc, v.getType(), ptr));
    }
    takePartner(regs, warpId(), index, other);
  }

  /// A run of registers along the axis (in axis order) scanned one after
  /// another: one combination per element, and one total for the run.
  void sequentialRun(ArrayRef<int64_t> run) {
    if (reverse()) {
      for (size_t i = run.size() - 1; i-- > 0;)
        prefix[run[i]] = apply(prefix[run[i]], prefix[run[i + 1]]);
    } else {
      for (size_t i = 1; i < run.size(); ++i)
        prefix[run[i]] = apply(prefix[run[i - 1]], prefix[run[i]]);
    }
    Vals whole = prefix[reverse() ? run.front() : run.back()];
    for (int64_t r : run)
      total[r] = whole;
  }
};

struct ScanToLLVM : OpConversionPattern<ScanOp> {
  /// Lane bits in a row from which a scan over them runs by shfl.up
  /// (`Scan::laneScan`) rather than by xor butterflies: up to two shuffles
  /// more (the lane before's result, which an integer sum or xor does
  /// without, and the group's total), n combinations and selects fewer, and
  /// one running value; 0: never.
  unsigned laneScanBits;
  ScanToLLVM(ThreadTypeConverter &tc, MLIRContext *ctx, unsigned laneScanBits)
      : OpConversionPattern(tc, ctx), laneScanBits(laneScanBits) {}
  LogicalResult matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getSrcs()[0].getType());
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

    Scan scan{rewriter, loc, op, {}, {}, {}, {}, scanFoldedRegisterBits(layout, axis)};
    int64_t numRegs = layout.numRegisters();
    scan.prefix.resize(numRegs);
    for (ValueRange regs : adaptor.getSrcs())
      for (int64_t r = 0; r < numRegs; ++r)
        scan.prefix[r].push_back(regs[r]);
    scan.total = scan.prefix;

    // Chunks: register bits farther than every thread bit, in stride order.
    int64_t threadReach = 0;
    for (const ScanBit &bit : bits)
      if (bit.kind != ScanBit::Reg)
        threadReach = std::max(threadReach, bit.stride);
    SmallVector<ScanBit> inner, outer, warpBits;
    int64_t axisRegs = 0; // register bits along the axis
    for (const ScanBit &bit : bits) {
      if (bit.kind == ScanBit::Reg)
        axisRegs |= int64_t(1) << bit.index;
      if (bit.kind == ScanBit::Reg && bit.stride > threadReach)
        outer.push_back(bit);
      else if (bit.kind == ScanBit::Warp)
        warpBits.push_back(bit);
      else
        inner.push_back(bit);
    }
    // Warps (through shared memory, every chunk at once) come after the
    // chunks' other bits.
    bool warpsLast = llvm::all_of(warpBits, [&](const ScanBit &w) {
      return llvm::all_of(inner, [&](const ScanBit &b) { return b.stride < w.stride; });
    });
    FailureOr<int64_t> offset = 0;
    if (!warpBits.empty() && failed(offset = scratchOffset(op)))
      return failure();
    if (!warpBits.empty())
      scan.partOffsets = scratchFor(op).partOffsets;
    if (!warpsLast) { // the general butterfly over every bit, one chunk
      outer.clear();
      inner = bits;
      warpBits.clear();
    }
    // The thread's runs: the register bits below every other bit.
    size_t runBits = 0;
    while (runBits < inner.size() && inner[runBits].kind == ScanBit::Reg)
      ++runBits;

    int64_t outerMask = 0, runMask = 0;
    for (const ScanBit &bit : outer)
      outerMask |= int64_t(1) << bit.index;
    for (const ScanBit &bit : ArrayRef(inner).take_front(runBits))
      runMask |= int64_t(1) << bit.index;
    // Registers whose bits `bits` (in stride order) take the values 0, 1, ...
    // with the others as in `base`.
    auto along = [](ArrayRef<ScanBit> bits, int64_t base) {
      SmallVector<int64_t> regs;
      for (int64_t c = 0; c < (int64_t(1) << bits.size()); ++c) {
        int64_t r = base;
        for (auto [i, bit] : llvm::enumerate(bits))
          if (c >> i & 1)
            r |= int64_t(1) << bit.index;
        regs.push_back(r);
      }
      return regs;
    };
    SmallVector<SmallVector<int64_t>> chunks; // registers of each chunk, chunks in axis order
    for (int64_t first : along(outer, 0)) {
      SmallVector<int64_t> &regs = chunks.emplace_back();
      for (int64_t r = 0; r < numRegs; ++r)
        if ((r & outerMask) == first)
          regs.push_back(r);
    }
    for (ArrayRef<int64_t> regs : chunks) {
      for (int64_t r : regs)
        if (runBits && (r & runMask) == 0)
          scan.sequentialRun(along(ArrayRef(inner).take_front(runBits), r));
      ArrayRef<ScanBit> steps = ArrayRef(inner).drop_front(runBits);
      for (size_t i = 0; i < steps.size(); ++i) {
        const ScanBit &bit = steps[i];
        // Consecutive lane bits, each moving twice as far as the one before.
        size_t n = 1;
        while (bit.kind == ScanBit::Lane && i + n < steps.size() && steps[i + n].kind == ScanBit::Lane &&
               steps[i + n].index == bit.index + n && steps[i + n].stride == bit.stride << n)
          ++n;
        if (bit.kind == ScanBit::Lane && laneScanBits && n >= laneScanBits) {
          bool needTotal = i + n < steps.size() || !warpBits.empty() || !outer.empty();
          scan.laneScan(regs, bit.index, n, needTotal);
          i += n - 1;
        } else if (bit.kind == ScanBit::Reg) {
          scan.registerStep(regs, bit.index);
        } else if (bit.kind == ScanBit::Lane) {
          scan.laneStep(regs, bit.index);
        } else {
          scan.warpStep(regs, bit.index, *offset);
        }
      }
    }
    SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, numRegs));
    for (const ScanBit &bit : warpBits)
      scan.warpStep(all, bit.index, *offset);
    // Chunk by chunk in scan order, the carry of the chunks before (after,
    // reverse) per column.
    llvm::DenseMap<int64_t, Vals> carry; // by register with its axis bits cleared
    if (scan.reverse())
      std::reverse(chunks.begin(), chunks.end());
    for (ArrayRef<int64_t> regs : chunks) {
      if (outer.empty())
        break;
      llvm::DenseMap<int64_t, Vals> chunkTotal;
      for (int64_t r : regs) {
        int64_t column = r & ~axisRegs;
        chunkTotal.try_emplace(column, scan.total[r]);
        Vals c = carry.lookup(column);
        if (!c.empty())
          scan.prefix[r] = scan.reverse() ? scan.apply(scan.prefix[r], c) : scan.apply(c, scan.prefix[r]);
      }
      for (auto &[column, t] : chunkTotal) {
        Vals &c = carry[column];
        c = c.empty() ? t : scan.reverse() ? scan.apply(t, c) : scan.apply(c, t);
      }
    }
    SmallVector<SmallVector<Value>> results(op.getSrcs().size());
    for (const Vals &vals : scan.prefix)
      for (auto [i, v] : llvm::enumerate(vals))
        results[i].push_back(v);
    SmallVector<ValueRange> ranges(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, ranges);
    return success();
  }
};

} // namespace

void populateScanOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns, unsigned laneScanBits) {
  patterns.add<ScanToLLVM>(tc, patterns.getContext(), laneScanBits);
}

} // namespace blk
