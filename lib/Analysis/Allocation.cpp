#include "blk/Analysis/Allocation.h"

#include "blk/Analysis/LayoutMove.h"

using namespace mlir;

namespace blk {

int64_t sharedElementBytes(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<PointerType>(elem))
    return 8;
  return std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
}

unsigned warpBitsAlong(const LinearLayout &layout, unsigned axis) {
  unsigned n = 0;
  for (const LinearLayout::Coord &c : layout.warps)
    n += c[axis] != 0;
  return n;
}

int64_t scanFoldedRegisterBits(const LinearLayout &layout, unsigned axis) {
  int64_t lowestWarp = INT64_MAX, folded = 0;
  for (const LinearLayout::Coord &c : layout.warps)
    if (c[axis] != 0)
      lowestWarp = std::min(lowestWarp, c[axis]);
  for (unsigned i = 0; i < layout.regs.size(); ++i)
    if (layout.regs[i][axis] != 0 && layout.regs[i][axis] < lowestWarp)
      folded |= int64_t(1) << i;
  return folded;
}

int64_t scanSlotOf(int64_t r, int64_t folded) {
  int64_t slot = 0;
  for (int64_t bit = 0, out = 0; (r >> bit) != 0; ++bit)
    if (!(folded >> bit & 1))
      slot |= (r >> bit & 1) << out++;
  return slot;
}

bool crossesThreads(const LinearLayout &from, const LinearLayout &to) {
  if (from.lanes != to.lanes || from.warps != to.warps)
    return true;
  // Same threads: every register of `to` must be one of `from`'s.
  llvm::SmallDenseSet<int64_t> held;
  for (int64_t r = 0; r < from.numRegisters(); ++r)
    held.insert(from.linearIndex(from.registerCoord(r)));
  for (int64_t r = 0; r < to.numRegisters(); ++r)
    if (!held.contains(to.linearIndex(to.registerCoord(r))))
      return true;
  return false;
}

int64_t sharedPadPeriod(RankedTensorType storage) {
  if (storage.getRank() < 2)
    return 0;
  // A row, or 32 elements when rows are short (32 banks of 4 bytes).
  return int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(storage.getShape().back(), 32)));
}

int64_t paddedSharedElements(RankedTensorType storage, int64_t pad) {
  int64_t n = storage.getNumElements(), period = sharedPadPeriod(storage);
  return period ? n + n / period * pad : n;
}

/// A thread's run of consecutive registers along the last dimension of `t`,
/// at most 16 bytes (1 for booleans and pointers).
static int64_t rowVector(RankedTensorType t) {
  if (!hasLayout(t) || !t.getElementType().isIntOrFloat() || t.getElementType().isInteger(1))
    return 1;
  int64_t run = LinearLayout::get(t).contiguousRegisters(t.getRank() - 1);
  return std::min<int64_t>(run, 16 / sharedElementBytes(t));
}

int64_t SharedMove::elements() const {
  return swizzle ? storage.getNumElements() : paddedSharedElements(storage, pad);
}

/// The index of coordinates `c` in a row-major buffer of `shape`, taken in
/// `order` (a transpose's writes) or as they are (`order` empty).
static int64_t storageIndex(const LinearLayout::Coord &c, ArrayRef<int64_t> shape, ArrayRef<int64_t> order) {
  int64_t index = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    index = index * shape[d] + (order.empty() ? c[d] : c[order[d]]);
  return index;
}

/// How far flipping each lane bit of `layout` moves an element in that
/// buffer.
static SharedAccess accessOf(const LinearLayout &layout, ArrayRef<int64_t> shape, ArrayRef<int64_t> order,
                             int64_t vector) {
  SharedAccess access;
  access.vector = vector;
  for (const LinearLayout::Coord &c : layout.lanes)
    access.laneSteps.push_back(storageIndex(c, shape, order));
  return access;
}

SharedMove sharedMoveOf(Operation *op) {
  auto from = cast<RankedTensorType>(op->getOperand(0).getType());
  auto to = cast<RankedTensorType>(op->getResult(0).getType());
  SharedMove move{isa<TransOp, PermuteOp>(op) ? to : from};
  int64_t write = rowVector(from), read = rowVector(to);
  if (isa<ConvertLayoutOp>(op) && write > 1 && read > 1)
    move.write = write, move.read = read, move.pad = std::max(write, read);
  // Row-major indices are linear over the bits of coordinates only in
  // shapes of powers of two.
  auto powersOf2 = [](RankedTensorType t) {
    return llvm::all_of(t.getShape(), [](int64_t n) { return llvm::isPowerOf2_64(uint64_t(n)); });
  };
  if (!hasLayout(from) || !hasLayout(to) || !powersOf2(from) || !powersOf2(to))
    return move;
  // Row-major where that is conflict free (no padding, no address
  // arithmetic); else padded where the padding is (its addresses cost no
  // XOR per register); else swizzled where a swizzle is.
  SmallVector<int64_t, 4> order = movePermutation(op);
  LinearLayout src = LinearLayout::get(from), dst = LinearLayout::get(to);
  SharedAccess writes = accessOf(src, move.storage.getShape(), order, move.write);
  SharedAccess reads = accessOf(dst, to.getShape(), {}, move.read);
  int64_t bytes = sharedElementBytes(from);
  if (conflictFree(writes, bytes, SharedSwizzle()) && conflictFree(reads, bytes, SharedSwizzle())) {
    move.swizzle = SharedSwizzle();
    return move;
  }
  int64_t period = sharedPadPeriod(move.storage);
  auto padded = [&](ArrayRef<int64_t> shape, ArrayRef<int64_t> coordOrder) {
    return [&, shape, coordOrder](const LinearLayout::Coord &c) {
      int64_t index = storageIndex(c, shape, coordOrder);
      return period ? index + move.pad * (index / period) : index;
    };
  };
  if (bankConflictWays(src, move.write, bytes, padded(move.storage.getShape(), order)) == 1 &&
      bankConflictWays(dst, move.read, bytes, padded(to.getShape(), {})) == 1)
    return move;
  move.swizzle = findSharedSwizzle(writes, reads, bytes, move.storage.getNumElements());
  return move;
}

bool isLdmatrixConversion(RankedTensorType from, RankedTensorType to) {
  auto op = dyn_cast_or_null<DotOperandLayoutAttr>(to.getEncoding());
  return op && op.getKWidth() == 2 && to.getElementTypeBitWidth() == 16 && hasLayout(from) &&
         from.getShape() == to.getShape() && crossesThreads(LinearLayout::get(from), LinearLayout::get(to));
}

bool sortGoesThroughShared(SortOp sort) {
  auto src = sort.getSrc().getType();
  unsigned axis = src.getRank() - 1;
  int64_t n = src.getDimSize(axis);
  if (sort.getType().getDimSize(axis) != n)
    return true;
  LinearLayout layout = LinearLayout::get(src);
  for (int64_t d = 1; d < n; d *= 2) {
    LinearLayout::Coord step(src.getRank(), 0);
    step[axis] = d;
    auto bit = layout.bitWithBasis(step);
    if (!bit || bit->kind == LinearLayout::BitKind::Warp)
      return true;
  }
  return false;
}

static int64_t alignTo16(int64_t v) { return (v + 15) / 16 * 16; }

/// A buffer of `bytes` (rounded up to 16) holding one part.
static ScratchPlan onePart(int64_t bytes) { return {alignTo16(bytes), {0}}; }

ScratchPlan scratchFor(Operation *op) {
  ScratchPlan plan;
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    auto src = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    if (!hasLayout(src))
      return plan;
    LinearLayout layout = LinearLayout::get(src);
    unsigned bits = warpBitsAlong(layout, reduce.getAxis());
    if (bits == 0)
      return plan; // lanes and registers only: shuffles suffice
    int64_t partials = (int64_t(1) << bits) * layout.sliced(reduce.getAxis()).numElements();
    for (Value v : reduce.getSrcs()) {
      plan.partOffsets.push_back(plan.bytes);
      plan.bytes = alignTo16(plan.bytes + partials * sharedElementBytes(v.getType()));
    }
    return plan;
  }
  if (isa<ConvertLayoutOp, ReshapeOp, TransOp, PermuteOp>(op)) {
    // Elements move to the threads the result's layout gives them; a move
    // that renames registers or shuffles inside warps needs nothing.
    auto from = cast<RankedTensorType>(op->getOperand(0).getType());
    auto to = cast<RankedTensorType>(op->getResult(0).getType());
    if (!hasLayout(from) || !hasLayout(to))
      return plan;
    MovePath path = planLayoutMove(op).path;
    if (path == MovePath::Registers || path == MovePath::Shuffles)
      return plan;
    if (path == MovePath::Ldmatrix)
      return onePart(from.getNumElements() * 2);
    return onePart(sharedMoveOf(op).elements() * sharedElementBytes(from));
  }
  if (auto sort = dyn_cast<SortOp>(op)) {
    // The whole source, row-major: an exchange reads its partner's slot.
    auto src = sort.getSrc().getType();
    if (!hasLayout(src) || !sortGoesThroughShared(sort))
      return plan;
    return onePart(src.getNumElements() * sharedElementBytes(src));
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    // The whole source, row-major and padded as a layout move's buffer: each
    // result element may name any element along the axis.
    auto src = gather.getSrc().getType();
    if (!hasLayout(src))
      return plan;
    return onePart(paddedSharedElements(src) * sharedElementBytes(src));
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    // Both operands, row-major and padded: each thread reads the rows of A
    // and the columns of B its accumulator elements need.
    if (!hasLayout(dot.getA().getType()) || isa<MmaLayoutAttr>(dot.getType().getEncoding()))
      return plan; // tensor cores read registers
    for (Value v : {dot.getA(), dot.getB()}) {
      auto t = cast<RankedTensorType>(v.getType());
      plan.partOffsets.push_back(plan.bytes);
      plan.bytes = alignTo16(plan.bytes + paddedSharedElements(t) * sharedElementBytes(t));
    }
    return plan;
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    // Across warps: every thread's running totals, one slot per register
    // that can hold a total of its own, in one part per operand.
    auto first = cast<RankedTensorType>(scan.getSrcs()[0].getType());
    if (!hasLayout(first))
      return plan;
    LinearLayout layout = LinearLayout::get(first);
    if (warpBitsAlong(layout, scan.getAxis()) == 0)
      return plan;
    int64_t folded = scanFoldedRegisterBits(layout, scan.getAxis());
    int64_t slots = layout.numRegisters() >> llvm::popcount(uint64_t(folded));
    for (Value src : scan.getSrcs()) {
      int64_t bytes = (int64_t(32) << layout.warps.size()) * slots * sharedElementBytes(src.getType());
      plan.partOffsets.push_back(plan.bytes);
      plan.bytes = alignTo16(plan.bytes + bytes);
    }
    return plan;
  }
  if (isa<AtomicRMWOp, AtomicCASOp, AtomicLoadOp>(op)) {
    // Old values that other copies of an element (or, for a scalar, every
    // thread) need: one slot per element and a spare for the copies' writes.
    Value result = op->getResult(0);
    if (result.use_empty())
      return plan;
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (type) {
      if (!hasLayout(type))
        return plan;
      LinearLayout layout = LinearLayout::get(type);
      if (!layout.broadcastLaneMask() && !layout.broadcastWarpMask())
        return plan;
    }
    return onePart(((type ? type.getNumElements() : 1) + 1) * sharedElementBytes(result.getType()));
  }
  return plan;
}

} // namespace blk
