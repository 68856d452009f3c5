#include "blk/Dialect/Blk/IR/Layout.h"

using namespace mlir;

namespace blk {

BlockedLayoutAttr getBlockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape, unsigned numWarps, unsigned vec,
                                   ArrayRef<unsigned> fastestFirst, int64_t minPerThread) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order(fastestFirst);
  if (order.empty())
    for (unsigned d = 0; d < rank; ++d)
      order.push_back(rank - 1 - d); // row-major: last dim fastest
  // Fill the fastest dimension first: vector width, then lanes, then warps;
  // what the fastest dimension cannot absorb goes to the slower ones.
  int64_t fast = shape[order[0]];
  int64_t total = 1;
  for (int64_t s : shape)
    total *= s;
  int64_t threads = int64_t(kWarpSize) * numWarps;
  int64_t perThread = std::max<int64_t>({1, minPerThread, total / threads});
  spt[order[0]] = unsigned(std::min<int64_t>({int64_t(vec), fast, perThread}));
  int64_t remaining = kWarpSize;
  for (unsigned i = 0; i < rank && remaining > 1; ++i) {
    unsigned d = order[i];
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    int64_t take = std::min(room, remaining);
    if (i == rank - 1)
      take = remaining; // the slowest dimension takes the rest (replicated)
    tpw[d] = unsigned(take);
    remaining /= take;
  }
  int64_t warps = numWarps;
  for (unsigned i = rank; i-- > 0 && warps > 1;) {
    unsigned d = order[i]; // warps go to the slowest dimension first
    int64_t room = std::max<int64_t>(1, shape[d] / (int64_t(spt[d]) * tpw[d]));
    int64_t take = std::min(room, warps);
    if (i == 0)
      take = warps;
    wpc[d] = unsigned(take);
    warps /= take;
  }
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

BlockedLayoutAttr getBlockedLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<BlockedLayoutAttr>(tensor.getEncoding());
}

bool hasLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor &&
         isa_and_nonnull<BlockedLayoutAttr, SliceLayoutAttr, MmaLayoutAttr, DotOperandLayoutAttr>(tensor.getEncoding());
}

LinearLayout LinearLayout::blocked(BlockedLayoutAttr layout, ArrayRef<int64_t> shape) {
  LinearLayout l;
  l.shape.assign(shape.begin(), shape.end());
  unsigned rank = shape.size();
  ArrayRef<unsigned> spt = layout.getSizePerThread(), tpw = layout.getThreadsPerWarp(),
                     wpc = layout.getWarpsPerCTA(), order = layout.getOrder();
  // Bits of `count` along dimension d, the first moving by `step`; a basis
  // that lands outside the block is zero (the tiling wraps: copies).
  auto addBits = [&](SmallVector<Coord> &bases, unsigned d, int64_t count, int64_t step, bool dropZero) {
    for (int64_t v = step; v < step * count; v *= 2) {
      Coord c(rank, 0);
      if (v < shape[d])
        c[d] = v;
      else if (dropZero)
        continue;
      bases.push_back(c);
    }
  };
  for (unsigned d : order)
    addBits(l.regs, d, spt[d], 1, true);
  for (unsigned d : order)
    addBits(l.lanes, d, tpw[d], spt[d], false);
  for (unsigned d : order)
    addBits(l.warps, d, wpc[d], int64_t(spt[d]) * tpw[d], false);
  for (unsigned d : order) { // repetitions when the block is larger than a tile
    int64_t tile = int64_t(spt[d]) * tpw[d] * wpc[d];
    addBits(l.regs, d, std::max<int64_t>(1, shape[d] / tile), tile, true);
  }
  return l;
}

namespace {
/// Builds a 2-D layout bit by bit; a basis that lands outside the block is
/// dropped for registers and zero (copies) for lanes and warps.
struct Builder2D {
  LinearLayout l;
  explicit Builder2D(ArrayRef<int64_t> shape) { l.shape.assign(shape.begin(), shape.end()); }
  LinearLayout::Coord at(unsigned d, int64_t v) const {
    LinearLayout::Coord c(2, 0);
    if (v < l.shape[d])
      c[d] = v;
    return c;
  }
  void reg(unsigned d, int64_t v) {
    if (v < l.shape[d])
      l.regs.push_back(at(d, v));
  }
  void lane(unsigned d, int64_t v) { l.lanes.push_back(at(d, v)); }
  void warp(unsigned d, int64_t v) { l.warps.push_back(at(d, v)); }
  /// `count` warps (a power of two) along d from `step`; zero bases along
  /// `copies` are warps that hold the same elements.
  void warps(unsigned d, unsigned count, int64_t step, bool copies) {
    for (unsigned w = 1; w < count; w *= 2)
      copies ? l.warps.push_back(LinearLayout::Coord(2, 0)) : warp(d, step * w);
  }
  /// Repetitions of a tile of `tile` elements along d up to the block.
  void repeat(unsigned d, int64_t tile) {
    for (int64_t v = tile; v < l.shape[d]; v *= 2)
      reg(d, v);
  }
};
} // namespace

// mma.sync m16n8: per warp tile, lane l holds rows l/4 and l/4 + 8 and columns
// 2 (l % 4) and the next; warps tile M first, then N. Register bits: column
// +1, row +8, then repetitions along N, then along M.
LinearLayout LinearLayout::mma(MmaLayoutAttr mma, ArrayRef<int64_t> shape) {
  Builder2D b(shape);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  b.reg(1, 1);
  b.reg(0, 8);
  for (int64_t v : {2, 4})
    b.lane(1, v);
  for (int64_t v : {1, 2, 4})
    b.lane(0, v);
  b.warps(0, wm, 16, false);
  b.warps(1, wn, 8, false);
  b.repeat(1, 8 * wn);
  b.repeat(0, 16 * wm);
  return b.l;
}

// The fragments of mma.sync's operands for K = 8 * kWidth (w): A's 16 x 8w tile
// has registers (w elements along K each) at rows +0/+8 and K +0/+4w, lanes
// at K 2w-steps (l % 4) and rows l / 4; B's 8w x 8 tile has registers at K
// +0/+4w and lanes at K (l % 4) w and columns l / 4.
LinearLayout LinearLayout::dotOperand(DotOperandLayoutAttr op, ArrayRef<int64_t> shape) {
  Builder2D b(shape);
  auto mma = cast<MmaLayoutAttr>(op.getParent());
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  int64_t w = op.getKWidth();
  bool isA = op.getOpIdx() == 0;
  unsigned kDim = isA ? 1 : 0, other = isA ? 0 : 1;
  for (int64_t v = 1; v < w; v *= 2)
    b.reg(kDim, v);
  if (isA)
    b.reg(0, 8);
  b.reg(kDim, 4 * w);
  b.lane(kDim, w);
  b.lane(kDim, 2 * w);
  for (int64_t v : {1, 2, 4})
    b.lane(other, v);
  b.warps(0, wm, 16, /*copies=*/!isA);
  b.warps(1, wn, 8, /*copies=*/isA);
  b.repeat(kDim, 8 * w);
  b.repeat(other, isA ? 16 * wm : 8 * wn);
  return b.l;
}

LinearLayout LinearLayout::get(Attribute encoding, ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(encoding))
    return LinearLayout::blocked(blocked, shape);
  if (auto mmaAttr = dyn_cast<MmaLayoutAttr>(encoding))
    return LinearLayout::mma(mmaAttr, shape);
  if (auto op = dyn_cast<DotOperandLayoutAttr>(encoding))
    return LinearLayout::dotOperand(op, shape);
  auto slice = cast<SliceLayoutAttr>(encoding);
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + slice.getDim(), 1);
  return get(slice.getParent(), parentShape).sliced(slice.getDim());
}

LinearLayout LinearLayout::get(RankedTensorType type) { return get(type.getEncoding(), type.getShape()); }

LinearLayout LinearLayout::sliced(unsigned dim) const {
  LinearLayout l;
  for (unsigned d = 0; d < rank(); ++d)
    if (d != dim)
      l.shape.push_back(shape[d]);
  auto drop = [&](const Coord &c) {
    Coord out;
    for (unsigned d = 0; d < c.size(); ++d)
      if (d != dim)
        out.push_back(c[d]);
    return out;
  };
  for (const Coord &c : regs) {
    Coord p = drop(c);
    if (llvm::any_of(p, [](int64_t v) { return v != 0; }))
      l.regs.push_back(p);
  }
  for (const Coord &c : lanes)
    l.lanes.push_back(drop(c));
  for (const Coord &c : warps)
    l.warps.push_back(drop(c));
  return l;
}

LinearLayout LinearLayout::moved(ArrayRef<int64_t> newShape, function_ref<Coord(const Coord &)> moveTo) const {
  LinearLayout l;
  l.shape.assign(newShape.begin(), newShape.end());
  for (const Coord &c : regs)
    l.regs.push_back(moveTo(c));
  for (const Coord &c : lanes)
    l.lanes.push_back(moveTo(c));
  for (const Coord &c : warps)
    l.warps.push_back(moveTo(c));
  return l;
}

BlockedLayoutAttr blockedLayoutWithMap(MLIRContext *ctx, const LinearLayout &l) {
  unsigned rank = l.rank();
  if (rank == 0)
    return {};
  // The dimension and bit a basis moves; none for a zero basis (copies) or
  // one that moves along several dimensions or by several bits.
  auto bitOf = [&](const LinearLayout::Coord &c) -> std::optional<std::pair<unsigned, unsigned>> {
    std::optional<std::pair<unsigned, unsigned>> bit;
    for (unsigned d = 0; d < rank; ++d) {
      if (c[d] == 0)
        continue;
      if (bit || !llvm::isPowerOf2_64(uint64_t(c[d])))
        return std::nullopt;
      bit = {d, llvm::Log2_64(uint64_t(c[d]))};
    }
    return bit;
  };
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  // The first lane and warp bit of each dimension (the order's keys), and
  // its lowest coordinate bit held by a thread bit.
  SmallVector<unsigned> firstLane(rank, ~0u), firstWarp(rank, ~0u), lowestThreadBit(rank, ~0u);
  auto threadBits = [&](ArrayRef<LinearLayout::Coord> bases, SmallVector<unsigned> &count,
                        SmallVector<unsigned> &first) {
    for (auto [i, c] : llvm::enumerate(bases)) {
      auto bit = bitOf(c);
      if (!bit)
        return false;
      auto [d, b] = *bit;
      count[d] *= 2;
      first[d] = std::min(first[d], unsigned(i));
      lowestThreadBit[d] = std::min(lowestThreadBit[d], b);
    }
    return true;
  };
  if (!threadBits(l.lanes, tpw, firstLane) || !threadBits(l.warps, wpc, firstWarp))
    return {};
  for (const LinearLayout::Coord &c : l.regs) {
    auto bit = bitOf(c);
    if (!bit)
      return {};
    if (bit->second < lowestThreadBit[bit->first])
      spt[bit->first] *= 2;
  }
  // The order: dimensions that take no lane and no warp first (the last
  // first), then the others as their lanes and their warps both run (each
  // taking its lanes and warps after those of the dimensions before it).
  SmallVector<unsigned> order, threaded;
  for (unsigned d = rank; d-- > 0;)
    (firstLane[d] == ~0u && firstWarp[d] == ~0u ? order : threaded).push_back(d);
  auto precedes = [&](unsigned a, unsigned b) { // a must come before b
    return (firstLane[a] != ~0u && firstLane[b] != ~0u && firstLane[a] < firstLane[b]) ||
           (firstWarp[a] != ~0u && firstWarp[b] != ~0u && firstWarp[a] < firstWarp[b]);
  };
  while (!threaded.empty()) {
    // Of the dimensions free to come next, the one with the first lane (the
    // fastest, as getBlockedLayout orders them).
    auto next = threaded.end();
    for (auto it = threaded.begin(); it != threaded.end(); ++it)
      if (llvm::none_of(threaded, [&](unsigned e) { return e != *it && precedes(e, *it); }) &&
          (next == threaded.end() || firstLane[*it] < firstLane[*next]))
        next = it;
    if (next == threaded.end())
      return {}; // lanes and warps run through the dimensions in different orders
    order.push_back(*next);
    threaded.erase(next);
  }
  if (l.lanes.size() != 5) // a warp's 32 lanes
    return {};
  auto blocked = BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
  // The candidate must hold what `l` holds: the same lanes and warps, the
  // same registers in any order.
  LinearLayout check = LinearLayout::blocked(blocked, l.shape);
  auto sorted = [](SmallVector<LinearLayout::Coord> bases) {
    llvm::sort(bases);
    return bases;
  };
  if (check.lanes != l.lanes || check.warps != l.warps || sorted(check.regs) != sorted(l.regs))
    return {};
  return blocked;
}

static void xorBits(LinearLayout::Coord &out, ArrayRef<LinearLayout::Coord> bases, int64_t bits) {
  for (unsigned i = 0; i < bases.size(); ++i)
    if (bits >> i & 1)
      for (unsigned d = 0; d < out.size(); ++d)
        out[d] ^= bases[i][d];
}

LinearLayout::Coord LinearLayout::registerCoord(int64_t reg) const {
  Coord c(rank(), 0);
  xorBits(c, regs, reg);
  return c;
}

std::optional<LinearLayout::InputBit> LinearLayout::bitWithBasis(llvm::ArrayRef<int64_t> coord) const {
  auto find = [&](llvm::ArrayRef<Coord> bases) -> std::optional<unsigned> {
    for (unsigned i = 0; i < bases.size(); ++i)
      if (llvm::ArrayRef<int64_t>(bases[i]) == coord)
        return i;
    return std::nullopt;
  };
  if (auto i = find(regs))
    return InputBit{BitKind::Register, *i};
  if (auto i = find(lanes))
    return InputBit{BitKind::Lane, *i};
  if (auto i = find(warps))
    return InputBit{BitKind::Warp, *i};
  return std::nullopt;
}

LinearLayout::Coord LinearLayout::apply(int64_t reg, int64_t lane, int64_t warp) const {
  Coord c(rank(), 0);
  xorBits(c, regs, reg);
  xorBits(c, lanes, lane);
  xorBits(c, warps, warp);
  return c;
}

unsigned LinearLayout::contiguousRegisters(unsigned d) const {
  unsigned n = 0;
  for (const Coord &c : regs) {
    for (unsigned e = 0; e < rank(); ++e)
      if (c[e] != (e == d ? int64_t(1) << n : 0))
        return 1u << n;
    ++n;
  }
  return 1u << n;
}

static unsigned zeroMask(ArrayRef<LinearLayout::Coord> bases) {
  unsigned m = 0;
  for (unsigned i = 0; i < bases.size(); ++i)
    if (llvm::all_of(bases[i], [](int64_t v) { return v == 0; }))
      m |= 1u << i;
  return m;
}

unsigned LinearLayout::broadcastLaneMask() const { return zeroMask(lanes); }
unsigned LinearLayout::broadcastWarpMask() const { return zeroMask(warps); }

bool LinearLayout::registersDisjointFromThreads() const {
  for (unsigned d = 0; d < rank(); ++d) {
    int64_t r = 0, t = 0;
    for (const Coord &c : regs)
      r |= c[d];
    for (const Coord &c : lanes)
      t |= c[d];
    for (const Coord &c : warps)
      t |= c[d];
    if (r & t)
      return false;
  }
  return true;
}

int64_t LinearLayout::linearIndex(ArrayRef<int64_t> coord) const {
  int64_t idx = 0;
  for (unsigned d = 0; d < rank(); ++d)
    idx = idx * shape[d] + coord[d];
  return idx;
}

int64_t LinearLayout::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

} // namespace blk
