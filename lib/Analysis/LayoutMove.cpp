#include "blk/Analysis/LayoutMove.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {

namespace {

/// A basis (over GF(2)) of the span of some columns, each basis vector kept
/// with the columns whose XOR gives it; columns that add nothing are the
/// kernel's basis.
struct Span {
  struct Row {
    uint64_t value, columns;
  };
  llvm::SmallVector<Row> rows; // leading bits distinct, highest first
  llvm::SmallVector<uint64_t> kernel;

  /// `x` with the rows of its leading bits taken out, and those rows' columns.
  std::pair<uint64_t, uint64_t> reduce(uint64_t x) const {
    uint64_t columns = 0;
    for (const Row &r : rows)
      if (x & llvm::bit_floor(r.value))
        x ^= r.value, columns ^= r.columns;
    return {x, columns};
  }
  bool contains(uint64_t x) const { return reduce(x).first == 0; }
  /// Adds the column `x` (number `index`); false when it is in the span.
  bool add(uint64_t x, unsigned index) {
    auto [rest, columns] = reduce(x);
    columns ^= uint64_t(1) << index;
    if (!rest) {
      kernel.push_back(columns);
      return false;
    }
    Row row{rest, columns};
    auto at = llvm::find_if(rows, [&](const Row &r) { return r.value < rest; });
    rows.insert(at, row);
    return true;
  }
  /// Columns whose XOR is `x`, or none outside the span.
  std::optional<uint64_t> solve(uint64_t x) const {
    auto [rest, columns] = reduce(x);
    if (rest)
      return std::nullopt;
    return columns;
  }
};

/// XOR of the columns of the set bits of `bits`.
int64_t applyColumns(ArrayRef<int64_t> columns, int64_t bits) {
  int64_t out = 0;
  for (unsigned i = 0; i < columns.size(); ++i)
    if (bits >> i & 1)
      out ^= columns[i];
  return out;
}

int64_t lowBits(unsigned n) { return (int64_t(1) << n) - 1; }

} // namespace

int64_t ThreadBitMap::apply(int64_t laneId, int64_t warpId) const {
  return applyColumns(lane, laneId) ^ applyColumns(warp, warpId);
}

bool ThreadBitMap::isZero() const {
  return llvm::all_of(lane, [](int64_t c) { return c == 0; }) && llvm::all_of(warp, [](int64_t c) { return c == 0; });
}

bool ThreadBitMap::isLaneIdentity() const {
  for (unsigned i = 0; i < lane.size(); ++i)
    if (lane[i] != int64_t(1) << i)
      return false;
  return llvm::all_of(warp, [](int64_t c) { return c == 0; });
}

SmallVector<int64_t> ThreadBitMap::imageBasis() const {
  Span span;
  unsigned i = 0;
  for (int64_t c : llvm::concat<const int64_t>(lane, warp))
    span.add(uint64_t(c), i++);
  // Clear each row's leading bit from the rows below... and above: fully reduced.
  for (unsigned r = 0; r < span.rows.size(); ++r)
    for (unsigned s = 0; s < span.rows.size(); ++s)
      if (s != r && (span.rows[s].value & llvm::bit_floor(span.rows[r].value)))
        span.rows[s].value ^= span.rows[r].value;
  SmallVector<int64_t> basis;
  for (const Span::Row &row : span.rows)
    basis.push_back(int64_t(row.value));
  return basis;
}

int64_t WarpShufflePlan::shuffles() const {
  int64_t n = 0;
  for (int64_t k = 0; k < numRounds(); ++k)
    n += !readsOwnValue(k);
  return n;
}

int64_t WarpShufflePlan::selects() const {
  int64_t offerTree = (int64_t(1) << offeredRegister.imageBasis().size()) - 1;
  int64_t resultTree = (int64_t(1) << resultRound.imageBasis().size()) - 1;
  llvm::SmallDenseSet<int64_t> offers(roundRegister.begin(), roundRegister.end());
  return int64_t(offers.size()) * offerTree + numResults * resultTree;
}

// Notation: a source thread-local index u = register | lane << Rs, a result
// one v = register | lane << Rd; coordinates are row-major positions in the
// source block (their bits XOR as the layouts' bases do: power-of-two
// shapes). M maps v (and the warp bits) to the u that holds the same
// element in the same warp.
std::optional<WarpShufflePlan>
planWarpShuffles(const LinearLayout &from, const LinearLayout &to,
                 llvm::function_ref<LinearLayout::Coord(const LinearLayout::Coord &)> toSource) {
  if (from.warps.size() != to.warps.size() || from.lanes.size() != 5 || to.lanes.size() != 5)
    return std::nullopt;
  if (!llvm::all_of(from.shape, [](int64_t s) { return llvm::isPowerOf2_64(s); }))
    return std::nullopt;
  unsigned rs = from.regs.size(), rd = to.regs.size(), lanes = 5;
  auto sourcePos = [&](const LinearLayout::Coord &c) { return uint64_t(from.linearIndex(c)); };
  auto resultPos = [&](const LinearLayout::Coord &c) { return uint64_t(from.linearIndex(toSource(c))); };

  Span source; // columns: source registers, then lanes
  for (unsigned i = 0; i < rs; ++i)
    source.add(sourcePos(from.regs[i]), i);
  for (unsigned i = 0; i < lanes; ++i)
    source.add(sourcePos(from.lanes[i]), rs + i);
  // A lane bit the source holds copies along keeps the reader's own value of
  // that bit: the element is then read from the nearest copy, often itself.
  auto copyBit = [&](unsigned i) { return sourcePos(from.lanes[i]) == 0 ? uint64_t(1) << (rs + i) : 0; };
  SmallVector<int64_t> mReg, mLane, mWarp;
  for (unsigned i = 0; i < rd; ++i) {
    std::optional<uint64_t> u = source.solve(resultPos(to.regs[i]));
    if (!u)
      return std::nullopt; // in another warp
    mReg.push_back(int64_t(*u));
  }
  for (unsigned i = 0; i < lanes; ++i) {
    std::optional<uint64_t> u = source.solve(resultPos(to.lanes[i]));
    if (!u)
      return std::nullopt;
    mLane.push_back(int64_t(*u ^ copyBit(i)));
  }
  for (unsigned j = 0; j < to.warps.size(); ++j) {
    std::optional<uint64_t> u = source.solve(resultPos(to.warps[j]) ^ sourcePos(from.warps[j]));
    if (!u)
      return std::nullopt; // the result's warp j holds what another warp of the source holds
    mWarp.push_back(int64_t(*u));
  }
  auto regPart = [&](int64_t u) { return u & lowBits(rs); };
  auto lanePart = [&](int64_t u) { return u >> rs; };

  // K: the result's (register, lane) pairs that hold no element of their
  // own (copies). Copies along registers are not layouts blk makes.
  Span result;
  for (unsigned i = 0; i < rd; ++i)
    result.add(uint64_t(mReg[i]), i);
  for (unsigned i = 0; i < lanes; ++i)
    result.add(uint64_t(mLane[i]), rd + i);
  SmallVector<int64_t> copies; // lane parts of K, fully reduced
  for (uint64_t k : result.kernel) {
    if (k & lowBits(rd))
      return std::nullopt;
    copies.push_back(int64_t(k >> rd));
  }
  Span copySpan;
  for (unsigned i = 0; i < copies.size(); ++i)
    copySpan.add(uint64_t(copies[i]), i);
  for (unsigned r = 0; r < copySpan.rows.size(); ++r)
    for (unsigned s = 0; s < copySpan.rows.size(); ++s)
      if (s != r && (copySpan.rows[s].value & llvm::bit_floor(copySpan.rows[r].value)))
        copySpan.rows[s].value ^= copySpan.rows[r].value;
  uint64_t pivots = 0;
  for (const Span::Row &row : copySpan.rows)
    pivots |= llvm::bit_floor(row.value);

  // The rounds: a lane reads one value per round, and no source lane may be
  // asked for two registers in one round. Result register r of lane l comes
  // in round r ^ Q(l), Q zero on K. A lane bit whose source lanes are new to
  // the round keeps the round (Q = 0); else it takes a result register bit
  // whose source lane is new (or another copy of its source: a kernel
  // vector of the source); failing both, rounds of its own (the senders are
  // fewer than the readers: more rounds than result registers).
  uint64_t copyLanes = 0;
  for (const Span::Row &row : copySpan.rows)
    copyLanes |= row.value;
  SmallVector<int64_t> q(lanes, 0);
  SmallVector<unsigned> roundLanes;
  Span reads;
  SmallVector<unsigned> pending;
  for (unsigned i = 0; i < lanes; ++i)
    if (!(pivots >> i & 1) && !reads.add(uint64_t(lanePart(mLane[i])), i))
      pending.push_back(i);
  for (unsigned i : pending) {
    unsigned j = 0;
    while (j < rd && reads.contains(uint64_t(lanePart(mReg[j]))))
      ++j;
    if (j < rd) {
      q[i] = int64_t(1) << j;
      reads.add(uint64_t(lanePart(mReg[j])), 0);
      continue;
    }
    auto copy = llvm::find_if(source.kernel, [&](uint64_t k) { return !reads.contains(uint64_t(lanePart(k))); });
    if (!(copyLanes >> i & 1) && copy != source.kernel.end()) {
      mLane[i] ^= int64_t(*copy);
      reads.add(uint64_t(lanePart(mLane[i])), 0);
      continue;
    }
    roundLanes.push_back(i);
  }
  if (!roundLanes.empty() && pivots != copyLanes)
    return std::nullopt; // copies along combinations of lane bits: not layouts blk makes
  for (const Span::Row &row : copySpan.rows) {
    unsigned p = llvm::Log2_64(row.value);
    for (unsigned b = 0; b < lanes; ++b)
      if (b != p && (row.value >> b & 1))
        q[p] ^= q[b];
  }

  WarpShufflePlan plan;
  plan.numResults = int64_t(1) << rd;
  SmallVector<int64_t> rmap;
  for (unsigned i = 0; i < lanes; ++i) {
    int64_t u = applyColumns(mReg, q[i]) ^ mLane[i];
    if (llvm::is_contained(roundLanes, i))
      u = 0; // in the round's constant part
    plan.sourceLane.lane.push_back(lanePart(u));
    rmap.push_back(regPart(u));
  }
  for (auto [c, i] : llvm::enumerate(roundLanes))
    q[i] = int64_t(1) << (rd + c);
  plan.resultRound.lane = q;
  plan.resultRound.warp.assign(to.warps.size(), 0);
  // J: a reader's source lane to the register it wants (J(Lmap l) = Rmap l).
  Span lmap;
  for (unsigned i = 0; i < lanes; ++i)
    lmap.add(uint64_t(plan.sourceLane.lane[i]), i);
  auto jmap = [&](int64_t sourceLane) {
    return applyColumns(rmap, int64_t(lmap.reduce(uint64_t(sourceLane)).second));
  };
  for (unsigned i = 0; i < lanes; ++i)
    plan.offeredRegister.lane.push_back(jmap(int64_t(1) << i));
  for (int64_t u : mWarp) {
    plan.sourceLane.warp.push_back(lanePart(u));
    plan.offeredRegister.warp.push_back(jmap(lanePart(u)) ^ regPart(u));
  }
  for (int64_t k = 0; k < (int64_t(1) << (rd + roundLanes.size())); ++k) {
    int64_t u = applyColumns(mReg, k & lowBits(rd));
    for (auto [c, i] : llvm::enumerate(roundLanes))
      if (k >> (rd + c) & 1)
        u ^= mLane[i];
    plan.roundLane.push_back(lanePart(u));
    plan.roundRegister.push_back(regPart(u) ^ jmap(lanePart(u)));
  }
  return plan;
}

SmallVector<int64_t, 4> movePermutation(Operation *op) {
  if (isa<TransOp>(op))
    return {1, 0};
  if (auto permute = dyn_cast<PermuteOp>(op))
    return SmallVector<int64_t, 4>(permute.getOrder());
  return {};
}

LinearLayout::Coord layoutMoveSource(Operation *op, const LinearLayout::Coord &c) {
  if (SmallVector<int64_t, 4> order = movePermutation(op); !order.empty()) {
    LinearLayout::Coord source(c.size(), 0);
    for (auto [d, from] : llvm::enumerate(order))
      source[from] = c[d];
    return source;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return reshapedCoord(reshape.getType().getShape(), reshape.getSrc().getType().getShape(), c);
  return c;
}

LinearLayout::Coord reshapedCoord(ArrayRef<int64_t> from, ArrayRef<int64_t> to, const LinearLayout::Coord &c) {
  int64_t pos = 0;
  for (unsigned d = 0; d < from.size(); ++d)
    pos = pos * from[d] + c[d];
  LinearLayout::Coord out(to.size(), 0);
  for (unsigned d = to.size(); d-- > 0; pos /= to[d])
    out[d] = pos % to[d];
  return out;
}

int64_t wordsPerElement(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<PointerType>(elem))
    return 2;
  return std::max<int64_t>(1, (elem.getIntOrFloatBitWidth() + 31) / 32);
}

LayoutMovePlan planLayoutMove(Operation *op) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  LinearLayout from = LinearLayout::get(srcType), to = LinearLayout::get(dstType);
  LayoutMovePlan plan;
  if (isa<ConvertLayoutOp>(op)) {
    if (!crossesThreads(from, to)) {
      plan.path = MovePath::Registers;
      return plan;
    }
    if (isLdmatrixConversion(srcType, dstType)) {
      plan.path = MovePath::Ldmatrix;
      return plan;
    }
  }
  return planLayoutMove(from, to, [&](const LinearLayout::Coord &c) { return layoutMoveSource(op, c); },
                        wordsPerElement(srcType));
}

LayoutMovePlan planLayoutMove(const LinearLayout &from, const LinearLayout &to,
                              function_ref<LinearLayout::Coord(const LinearLayout::Coord &)> toSource, int64_t words) {
  LayoutMovePlan plan;
  // Each word stored and loaded once; a barrier after the stores and one
  // before the buffer is written again, each worth a round trip's wait.
  constexpr int64_t kBarrierCost = 8;
  plan.sharedCost = words * (from.numRegisters() + to.numRegisters()) + 2 * kBarrierCost;
  plan.rounds = planWarpShuffles(from, to, toSource);
  if (!plan.rounds) {
    plan.path = MovePath::Shared;
    return plan;
  }
  plan.shuffleCost = words * plan.rounds->shuffles() + (words * plan.rounds->selects() + 1) / 2;
  if (plan.rounds->isRegisterRename())
    plan.path = MovePath::Registers;
  else if (plan.shuffleCost < plan.sharedCost)
    plan.path = MovePath::Shuffles;
  else
    plan.path = MovePath::Shared;
  return plan;
}

int64_t moveCost(const LayoutMovePlan &plan) {
  switch (plan.path) {
  case MovePath::Registers:
  case MovePath::Ldmatrix:
    return 0;
  case MovePath::Shuffles:
    return plan.shuffleCost;
  case MovePath::Shared:
    return plan.sharedCost;
  }
  return plan.sharedCost;
}

} // namespace blk
