// Layout assignment. Values that an op ties together (operands and results of
// elementwise ops, loads, stores, loop-carried values) form one group and get
// one layout; an op computing data leaves out its operands that are index
// arithmetic from scalars (pointers, masks, offsets), which are computed
// again in each layout that reads them. The group of a dot's accumulator takes the #blk.mma layout
// blk-accelerate-dot chose for it (the op's `mma` attribute), and so do
// the 2-D sources of its broadcasts. A group of 2 or 3 dimensions that loads
// read or stores write takes the blocked layout its own accesses and shape
// call for (its anchor): where its accesses run along different dimensions,
// the one whose other accesses cost least to move (counted per loop around
// them: a tile read through strides in a loop and stored row-major after it
// runs down its columns). The groups no access anchors share one blocked
// layout per kernel (function) and rank, fitted to its largest block of that
// rank. A group one dimension short of its readers takes the slice that
// `x[:, None]` or a reduction along an axis asks for (a loaded 2-D block
// expanded to 3-D keeps its anchor and is converted), or, when nothing asks,
// a blocked layout of its own. A 2-D group that a scan reads takes a layout
// that keeps the scan's axis inside threads when its layout would spread it
// over warps. Across a reshape, trans or permute, a side that no access
// anchors and nothing else asked for takes the layout in which each thread
// keeps its elements (the move renames registers), where a blocked layout
// holds them; the other groups that nothing binds may take a layout that
// keeps a reduction's axis in registers. Both choices are by estimated cost
// (groupCost, broadcastCost).
// A gather's indices share its result's group (its source moves through
// shared memory in whatever layout the source has).
// Where a group's layout differs from what an op needs, a
// blk.convert_layout goes in.
#include "blk/Analysis/LayoutMove.h"
#include "blk/Support/InternalErrors.h"
#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "LoopSlice.h"
#include "Rematerialize.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKASSIGNLAYOUTSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
// Twice a thread's registers: ptxas takes about 10 s on such a block (and
// minutes at twice that), and the kernel spills most of it anyway.
constexpr int64_t kMaxElemsPerThread = 512;

bool isBlock(Value v) { return isa<RankedTensorType>(v.getType()); }

/// An elementwise op or load whose block result is data (not recomputable
/// from scalars): its operands that are recomputable follow its layout.
bool computesData(Operation *op) {
  if (!(op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp, AddPtrOp, LoadOp>(op)) || op->getNumResults() != 1)
    return false;
  return isBlock(op->getResult(0)) && !isRecomputable(op->getResult(0));
}

/// A store of a data block: its pointers and mask, when recomputable,
/// follow the data's layout.
bool storesData(Operation *op) {
  auto store = dyn_cast<StoreOp>(op);
  return store && isBlock(store.getValue()) && !isRecomputable(store.getValue());
}

/// How often a cost at `op` counts: 8 times per loop around it (an op in a
/// loop runs once per iteration; trip counts are not known here).
int64_t timesRun(Operation *op) {
  int64_t times = 1;
  for (Operation *p = op->getParentOp(); p && !isa<func::FuncOp>(p); p = p->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(p))
      times = std::min<int64_t>(times * 8, 512);
  return times;
}

/// A load or store of a block: its pointers, the data read or written, and
/// the width and dimension of its vectors.
struct Access {
  Operation *op;
  Value ptr, data;
  unsigned vec, dim;
};

struct AssignLayouts : impl::BlkAssignLayoutsPassBase<AssignLayouts> {
  using Base::Base;

  llvm::EquivalenceClasses<Value> groups;
  /// Layout a group was asked for (the first request wins), by group leader.
  llvm::DenseMap<Value, Attribute> requested;
  /// The 2-D blocked layout of groups that no access anchors.
  BlockedLayoutAttr parent2D;
  /// The same for blocks of 3 or more dimensions, by rank: fitted to the
  /// kernel's largest block of that rank, the last dimension fastest.
  llvm::DenseMap<unsigned, BlockedLayoutAttr> parentByRank;
  /// The blocked layout of each 2-D group that loads or stores read or
  /// write, fitted to its own shape and accesses, by group leader.
  llvm::DenseMap<Value, BlockedLayoutAttr> anchored;
  /// The widest access on blocks of each shape (decides that shape's chunk).
  llvm::DenseMap<ArrayRef<int64_t>, unsigned> widest;

  void tie(ValueRange values) {
    Value first;
    for (Value v : values) {
      if (!isBlock(v))
        continue;
      groups.insert(v);
      if (first)
        groups.unionSets(first, v);
      else
        first = v;
    }
  }

  void request(Value v, Attribute layout) {
    groups.insert(v);
    requested.try_emplace(groups.getLeaderValue(v), layout);
  }

  /// Ties values that must share a layout.
  void collectGroups(Operation *op) {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
      for (unsigned i = 0; i < forOp.getNumResults(); ++i)
        tie({forOp.getInitArgs()[i], forOp.getRegionIterArgs()[i], yield.getOperand(i), forOp.getResult(i)});
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      for (unsigned i = 0; i < ifOp.getNumResults(); ++i) {
        SmallVector<Value> tied{ifOp.getResult(i), ifOp.thenYield().getOperand(i)};
        if (!ifOp.getElseRegion().empty())
          tied.push_back(ifOp.elseYield().getOperand(i));
        tie(tied);
      }
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
      auto cond = whileOp.getConditionOp();
      auto yield = whileOp.getYieldOp();
      for (unsigned i = 0; i < whileOp.getInits().size(); ++i)
        tie({whileOp.getInits()[i], whileOp.getBeforeArguments()[i], yield.getOperand(i)});
      for (unsigned i = 0; i < whileOp.getNumResults(); ++i)
        tie({cond.getArgs()[i], whileOp.getAfterArguments()[i], whileOp.getResult(i)});
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      tie(reduce.getSrcs());
      tie(reduce.getResults());
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      // The operands move through shared memory. An accumulator computed
      // from scalars (zeros, which CSE may share between dots of different
      // tensor-core shapes) is made again in the result's layout instead of
      // tying the dots' results together.
      if (!isRecomputable(dot.getAcc()))
        tie({dot.getAcc(), dot.getResult()});
    } else if (auto gather = dyn_cast<GatherOp>(op)) {
      tie({gather.getIndex(), gather.getResult()}); // the source moves through shared memory
    } else if (auto sort = dyn_cast<SortOp>(op)) {
      // Sorted in place; a topk's shorter rows are written and read back
      // through shared memory in their own layout.
      if (sort.getSrc().getType().getShape() == sort.getType().getShape())
        tie({sort.getSrc(), sort.getResult()});
    } else if (isa<ExpandDimsOp, BroadcastOp, ConvertLayoutOp, ReshapeOp, TransOp, PermuteOp>(op)) {
      // Source and result differ in shape or layout.
    } else if (storesData(op) || computesData(op)) {
      // Index arithmetic (pointers, masks, offsets) is recomputed in the
      // layout of the data it meets (blk-remove-layout-conversions), so it
      // does not pull the data into the layout of its other uses: the load
      // of a row statistic takes the layout its consumer broadcasts it in,
      // whatever layout the same offsets have in a 2-D tile's pointers, and
      // a column sum's stored accumulator keeps its reduction's slice,
      // whatever layout the row offsets its column offsets share an arange
      // with take.
      SmallVector<Value> tied;
      for (Value operand : op->getOperands())
        if (!isRecomputable(operand))
          tied.push_back(operand);
      llvm::append_range(tied, op->getResults());
      tie(tied);
    } else if (op->hasTrait<OpTrait::Elementwise>() ||
               isa<arith::SelectOp, AddPtrOp, AssumeOp, LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp, AtomicLoadOp,
                   AtomicStoreOp, ScanOp>(op)) {
      SmallVector<Value> tied(op->getOperands());
      llvm::append_range(tied, op->getResults());
      tie(tied);
    }
    for (Value v : op->getResults())
      if (isBlock(v))
        groups.insert(v);
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          if (isBlock(a))
            groups.insert(a);
  }

  Attribute sliceOf(unsigned dim, Attribute parent) { return SliceLayoutAttr::get(&getContext(), dim, parent); }

  /// The layout of a 2-D block scanned along `axis`: lanes, then warps,
  /// along the other dimension as far as it reaches (each with up to `vec`
  /// elements of it), the rest along the axis, so that each thread holds a
  /// run of the axis and the scan combines it in order, in registers; what
  /// crosses threads crosses as few as the shape allows.
  BlockedLayoutAttr scanLayout(ArrayRef<int64_t> shape, unsigned axis, unsigned vec) {
    unsigned other = 1 - axis;
    SmallVector<unsigned> spt(2, 1), tpw(2, 1), wpc(2, 1);
    tpw[other] = unsigned(std::min<int64_t>(kWarpSize, shape[other]));
    tpw[axis] = kWarpSize / tpw[other];
    wpc[other] = unsigned(std::clamp<int64_t>(shape[other] / tpw[other], 1, numWarps));
    wpc[axis] = numWarps / wpc[other];
    spt[other] = unsigned(std::clamp<int64_t>(shape[other] / (tpw[other] * wpc[other]), 1, vec));
    spt[axis] = unsigned(std::max<int64_t>(1, shape[axis] / (tpw[axis] * wpc[axis])));
    return BlockedLayoutAttr::get(&getContext(), spt, tpw, wpc, {other, axis});
  }

  /// The layout of a 2-D block sorted along its rows: warps along the rows
  /// as far as they reach, lanes along the axis, then registers, so that
  /// compare-exchanges stay in threads (selects) or warps (shuffles) and only
  /// the longest cross warps.
  BlockedLayoutAttr sortLayout(ArrayRef<int64_t> shape) {
    SmallVector<unsigned> spt(2, 1), tpw(2, 1), wpc(2, 1);
    tpw[1] = unsigned(std::min<int64_t>(kWarpSize, shape[1]));
    tpw[0] = kWarpSize / tpw[1];
    wpc[0] = unsigned(std::clamp<int64_t>(shape[0] / tpw[0], 1, numWarps));
    wpc[1] = numWarps / wpc[0];
    spt[1] = unsigned(std::max<int64_t>(1, shape[1] / (tpw[1] * wpc[1])));
    return BlockedLayoutAttr::get(&getContext(), spt, tpw, wpc, {1, 0});
  }

  /// The blocked layout in which the other side of a reshape, trans or
  /// permute `op` holds what each thread holds in `layout` on this side
  /// (`forward`: `layout` is the source's), if there is one.
  BlockedLayoutAttr layoutAcrossMove(Operation *op, Attribute layout, bool forward) {
    auto src = cast<RankedTensorType>(op->getOperand(0).getType());
    auto res = cast<RankedTensorType>(op->getResult(0).getType());
    ArrayRef<int64_t> from = forward ? src.getShape() : res.getShape(), to = forward ? res.getShape() : src.getShape();
    auto powerOf2 = [](int64_t n) { return llvm::isPowerOf2_64(uint64_t(n)); };
    if (!llvm::all_of(from, powerOf2) || !llvm::all_of(to, powerOf2))
      return {}; // a reshape is then not linear over bits
    SmallVector<int64_t, 4> order = movePermutation(op); // result dim d is source dim order[d]
    auto moveTo = [&](const LinearLayout::Coord &c) {
      if (order.empty())
        return reshapedCoord(from, to, c);
      LinearLayout::Coord out(to.size(), 0);
      for (auto [d, s] : llvm::enumerate(order))
        forward ? out[d] = c[s] : out[s] = c[d];
      return out;
    };
    return blockedLayoutWithMap(&getContext(), LinearLayout::get(layout, from).moved(to, moveTo));
  }

  /// Estimated warp instructions per thread that the group of `v` costs at
  /// its moves and combines in `layout`: each reshape, trans or permute into
  /// or out of it (the other side in its layout as known now), and each
  /// reduction or scan of it across lanes (a shuffle and a combine per lane
  /// bit of its axis, for each result register) and warps (a round trip
  /// through shared memory), each times the loops around it.
  int64_t groupCost(Value v, Attribute layout) {
    Value leader = groups.getLeaderValue(v);
    auto layoutFor = [&](Value other) {
      return groups.isEquivalent(other, leader) ? layout : layoutOf(other);
    };
    auto linear = [&](Value value, Attribute l) {
      return LinearLayout::get(l, cast<RankedTensorType>(value.getType()).getShape());
    };
    auto moveCostOf = [&](Operation *move) -> int64_t {
      Value src = move->getOperand(0), res = move->getResult(0);
      Attribute from = layoutFor(src), to = layoutFor(res);
      if (!from || !to)
        return 0;
      return moveCost(planLayoutMove(linear(src, from), linear(res, to),
                                     [&](const LinearLayout::Coord &c) { return layoutMoveSource(move, c); },
                                     wordsPerElement(src.getType())));
    };
    auto combineCost = [&](Value src, unsigned axis, ValueRange srcs, bool scan) -> int64_t {
      LinearLayout l = linear(src, layout);
      auto along = [&](ArrayRef<LinearLayout::Coord> bases) {
        return int64_t(llvm::count_if(bases, [&](const LinearLayout::Coord &c) { return c[axis] != 0; }));
      };
      int64_t words = 0;
      for (Value s : srcs)
        words += wordsPerElement(s.getType());
      int64_t results = l.sliced(axis).numRegisters(), lanes = along(l.lanes), cost = lanes * results * (words + 1);
      if (scan && lanes)
        cost += l.numRegisters(); // each register takes its lanes' carry
      if (along(l.warps))
        cost += 2 * words * results + 16;
      return cost;
    };
    int64_t cost = 0;
    for (Value member : groups.members(leader)) {
      if (Operation *def = member.getDefiningOp(); def && isa<ReshapeOp, TransOp, PermuteOp>(def))
        cost += timesRun(def) * moveCostOf(def);
      for (Operation *user : member.getUsers()) {
        if (isa<ReshapeOp, TransOp, PermuteOp>(user) && !groups.isEquivalent(user->getResult(0), leader))
          cost += timesRun(user) * moveCostOf(user);
        else if (auto reduce = dyn_cast<ReduceOp>(user); reduce && reduce.getSrcs()[0] == member)
          cost += timesRun(user) * combineCost(member, reduce.getAxis(), reduce.getSrcs(), /*scan=*/false);
        else if (auto scan = dyn_cast<ScanOp>(user); scan && scan.getSrcs()[0] == member)
          cost += timesRun(user) * combineCost(member, scan.getAxis(), scan.getSrcs(), /*scan=*/true);
      }
    }
    return cost;
  }

  /// The layout of a block of `shape` whose dimension `axis` lies in each
  /// thread's registers, lanes and warps spread over the other dimensions
  /// (the last fastest); none when they would hold copies or a thread more
  /// than 64 values.
  BlockedLayoutAttr reductionLayout(ArrayRef<int64_t> shape, unsigned axis) {
    SmallVector<int64_t> rest(shape);
    rest[axis] = 1;
    SmallVector<unsigned> order{axis}; // the axis, with one element, slowest
    for (unsigned d = shape.size(); d-- > 0;)
      if (d != axis)
        order.insert(order.end() - 1, d);
    BlockedLayoutAttr spread = getBlockedLayout(&getContext(), rest, numWarps, 1, order);
    SmallVector<unsigned> spt(spread.getSizePerThread());
    spt[axis] = unsigned(shape[axis]);
    auto l = BlockedLayoutAttr::get(&getContext(), spt, spread.getThreadsPerWarp(), spread.getWarpsPerCTA(), order);
    LinearLayout linear = LinearLayout::blocked(l, shape);
    if (linear.broadcastLaneMask() || linear.broadcastWarpMask() || linear.numRegisters() > 64)
      return {};
    return l;
  }

  /// Estimated cost of the conversions that giving the group of `v` the
  /// layout `layout` puts in front of expansions of loaded blocks broadcast
  /// into it (a loaded block keeps its own layout and is converted into the
  /// slice of the broadcast's), each times the loops around it.
  int64_t broadcastCost(Value v, Attribute layout) {
    int64_t cost = 0;
    for (Value member : groups.members(groups.getLeaderValue(v))) {
      auto broadcast = member.getDefiningOp<BroadcastOp>();
      auto expand = broadcast ? broadcast.getSrc().getDefiningOp<ExpandDimsOp>() : ExpandDimsOp();
      if (!expand)
        continue;
      Value src = expand.getSrc();
      auto t = cast<RankedTensorType>(src.getType());
      if (t.getRank() < 2 || !anchored.count(groups.getLeaderValue(src)))
        continue;
      LinearLayout from = LinearLayout::get(layoutOf(src), t.getShape());
      LinearLayout to = LinearLayout::get(sliceOf(expand.getAxis(), layout), t.getShape());
      cost += timesRun(expand) * moveCost(planLayoutMove(from, to, [](const LinearLayout::Coord &c) { return c; },
                                              wordsPerElement(t)));
    }
    return cost;
  }

  /// The layout of the group of `v`.
  Attribute layoutOf(Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getEncoding())
      return t.getEncoding();
    if (Attribute a = requested.lookup(groups.getLeaderValue(v)))
      return a;
    if (t.getRank() >= 2) {
      if (BlockedLayoutAttr own = anchored.lookup(groups.getLeaderValue(v)))
        return own;
      return t.getRank() == 2 ? parent2D : parentByRank.lookup(t.getRank());
    }
    unsigned vec = widest.lookup(t.getShape());
    if (vec == 0)
      vec = 4; // no memory access decides: a few elements per thread for ILP
    return getBlockedLayout(&getContext(), t.getShape(), numWarps, vec);
  }

  /// The layout blk-coalesce gives an access running along `dim` with
  /// vectors of `vec` elements of a block of `shape` (its fastest dimension
  /// `dim`, then the others, the last first).
  BlockedLayoutAttr accessLayout(ArrayRef<int64_t> shape, unsigned dim, unsigned vec, int64_t minPerThread = 1) {
    SmallVector<unsigned> order{dim};
    for (unsigned d = shape.size(); d-- > 0;)
      if (d != dim)
        order.push_back(d);
    return getBlockedLayout(&getContext(), shape, numWarps, vec, order, minPerThread);
  }

  /// Estimated warp instructions per thread that giving the accessed group
  /// of `leader` the layout `layout` costs: a move into or out of the layout
  /// blk-coalesce gives each access running along another dimension, and the
  /// group's moves and combines (groupCost), each times the loops around it.
  int64_t anchorCost(Value leader, ArrayRef<const Access *> accesses, BlockedLayoutAttr layout) {
    auto t = cast<RankedTensorType>(leader.getType());
    LinearLayout own = LinearLayout::get(layout, t.getShape());
    int64_t cost = groupCost(leader, layout);
    for (const Access *a : accesses) {
      if (a->dim == layout.getOrder()[0])
        continue;
      LinearLayout coalesced = LinearLayout::get(accessLayout(t.getShape(), a->dim, a->vec), t.getShape());
      cost += timesRun(a->op) * moveCost(planLayoutMove(own, coalesced, [](const LinearLayout::Coord &c) { return c; },
                                                        wordsPerElement(a->data.getType())));
    }
    return cost;
  }

  /// Anchors: a group of 2 or more dimensions that loads read or stores write takes the layout
  /// its own accesses coalesce best in, fitted to its own shape: fastest
  /// along one dimension they run along, with the widest vector among
  /// those. Where they run along different dimensions (a tile read through
  /// strides in a loop and stored row-major after it), the dimension whose
  /// layout costs least (anchorCost: the other accesses' moves, counted per
  /// loop around them), then the one most of them run along, then the last.
  /// Blocks of other shapes in the kernel do not bend it (a [16, 1024] tile
  /// beside a [1024, 16] one).
  void anchorAccessedGroups(func::FuncOp func, ArrayRef<Access> accesses, int64_t largestPerThread) {
    struct Accesses {
      SmallVector<unsigned, 3> count, widest; // per dimension
      SmallVector<const Access *> all;
    };
    llvm::MapVector<Value, Accesses> byGroup;
    for (const Access &access : accesses) {
      auto t = dyn_cast<RankedTensorType>(access.data.getType());
      if (!t || t.getRank() < 2 || t.getEncoding() || access.dim >= t.getRank())
        continue;
      Accesses &a = byGroup[groups.getLeaderValue(access.data)];
      if (a.count.empty()) {
        a.count.assign(t.getRank(), 0);
        a.widest.assign(t.getRank(), 0);
      }
      ++a.count[access.dim];
      a.widest[access.dim] = std::max(a.widest[access.dim], access.vec);
      a.all.push_back(&access);
    }
    // A wgmma operand's loads are copied into shared-memory tiles of
    // 128-byte rows: a warp's lanes reach no further along a row than 128
    // bytes of what they copy (measured: a gathered matmul's [64, 128] bf16
    // B tile 9% slower with 16 lanes along its rows). Counted in the loaded
    // type: int8 weights dequantized into a bf16 B take 8 lanes of 16 bytes
    // along a 128-byte row (4 lanes held twice the column scales, and the
    // program too many registers to share an SM with another). An mma.sync
    // operand, written from registers and read with ldmatrix, keeps the
    // lanes its access wants (a [128, 64] K^T tile read through a page table
    // 13% slower with 8).
    llvm::DenseSet<Value> wgmmaOperands;
    func.walk([&](DotOp dot) {
      MmaLayoutAttr mma = dot.getMmaAttr();
      if (mma && mma.getVersion() >= 3)
        for (Value operand : {dot.getA(), dot.getB()})
          wgmmaOperands.insert(groups.getLeaderValue(operand));
    });
    auto operandRowElems = [&](Value leader, const Accesses &a) -> unsigned {
      if (!wgmmaOperands.contains(leader))
        return 0;
      unsigned bytes = 1;
      for (const Access *access : a.all)
        bytes = std::max(bytes, cast<RankedTensorType>(access->data.getType()).getElementTypeBitWidth() / 8);
      return 128 / bytes;
    };
    for (auto &[leader, a] : byGroup) {
      ArrayRef<int64_t> shape = cast<RankedTensorType>(leader.getType()).getShape();
      auto layoutAlong = [&](unsigned fast) {
        unsigned vec = a.widest[fast] ? a.widest[fast] : 4;
        SmallVector<int64_t> fitted(shape);
        if (unsigned rowElems = operandRowElems(leader, a))
          fitted[fast] = std::min<int64_t>(fitted[fast], std::max(rowElems, vec));
        // A block smaller than the kernel's largest keeps the vector width
        // the largest allows, the threads past it holding copies (RoPE's
        // [8, 64] K heads beside [32, 64] Q heads: 4-byte accesses instead
        // of 16-byte ones took 7% longer).
        return accessLayout(fitted, fast, vec, largestPerThread);
      };
      unsigned rank = shape.size();
      unsigned fast = rank - 1; // the dimension most accesses run along, the last on ties
      for (unsigned d = rank - 1; d-- > 0;)
        if (a.count[d] > a.count[fast])
          fast = d;
      BlockedLayoutAttr chosen = layoutAlong(fast);
      if (llvm::count_if(a.count, [](unsigned n) { return n > 0; }) > 1) {
        int64_t best = anchorCost(leader, a.all, chosen);
        for (unsigned d = rank; d-- > 0;) {
          if (d == fast || a.count[d] == 0)
            continue;
          BlockedLayoutAttr l = layoutAlong(d);
          if (int64_t cost = anchorCost(leader, a.all, l); cost < best)
            best = cost, chosen = l;
        }
      }
      anchored[leader] = chosen;
    }
  }

  /// Layouts of one kernel.
  void assignIn(func::FuncOp func) {
    MLIRContext *ctx = &getContext();
    // State of this kernel only.
    groups = {};
    requested.clear();
    widest.clear();
    anchored.clear();
    parent2D = {};
    parentByRank.clear();
    // The widest access on blocks of each shape decides that shape's chunk;
    // the largest 2-D block decides the kernel's 2-D layout, fastest along
    // the dimension most 2-D accesses run along (the last on ties; accesses
    // along the other one get their own layout in blk-coalesce).
    unsigned widest2D[2] = {0, 0}, accesses2D[2] = {0, 0};
    int64_t narrowest2D[2] = {INT64_MAX, INT64_MAX}; // of the accessed blocks, per dimension
    SmallVector<int64_t> shape2D;
    llvm::DenseMap<unsigned, RankedTensorType> largestByRank; // of 3 or more dimensions
    SmallVector<Access> accesses;
    func.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op))
        accesses.push_back({op, load.getPtr(), load.getResult(), load.getVec(), load.getAccessDim()});
      else if (auto store = dyn_cast<StoreOp>(op))
        accesses.push_back({op, store.getPtr(), store.getValue(), store.getVec(), store.getAccessDim()});
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t); tensor && tensor.getRank() == 2) {
          if (shape2D.empty() || tensor.getNumElements() > shape2D[0] * shape2D[1])
            shape2D.assign(tensor.getShape().begin(), tensor.getShape().end());
        } else if (tensor && tensor.getRank() > 2) {
          RankedTensorType &largest = largestByRank[tensor.getRank()];
          if (!largest || tensor.getNumElements() > largest.getNumElements())
            largest = tensor;
        }
    });
    for (const Access &a : accesses) {
      auto t = dyn_cast<RankedTensorType>(a.ptr.getType());
      if (!t)
        continue;
      if (t.getRank() == 2) {
        widest2D[a.dim] = std::max(widest2D[a.dim], a.vec);
        ++accesses2D[a.dim];
        for (unsigned d = 0; d < 2; ++d)
          narrowest2D[d] = std::min(narrowest2D[d], t.getDimSize(d));
      } else {
        widest[t.getShape()] = std::max(widest.lookup(t.getShape()), a.vec);
      }
    }
    if (!shape2D.empty()) {
      unsigned fast = accesses2D[0] > accesses2D[1] ? 0 : 1;
      unsigned vec = widest2D[fast] ? widest2D[fast] : 4;
      // Lanes along the fast dimension no further than the narrowest
      // accessed block reaches: wider, its lanes would hold copies (a
      // matmul's 128x64 A tile in a layout fitted to its 128x256 result).
      SmallVector<int64_t> fitted = shape2D;
      fitted[fast] = std::min(fitted[fast], narrowest2D[fast]);
      parent2D = getBlockedLayout(ctx, fitted, numWarps, vec, {fast, 1 - fast});
    }

    for (auto &[rank, largest] : largestByRank) {
      unsigned vec = widest.lookup(largest.getShape());
      parentByRank[rank] = getBlockedLayout(ctx, largest.getShape(), numWarps, vec ? vec : 4);
    }

    func.walk([&](Operation *op) { collectGroups(op); });
    anchorAccessedGroups(func, accesses, shape2D.empty() ? 1 : shape2D[0] * shape2D[1] / (int64_t(kWarpSize) * numWarps));
    // Requests. First the tensor-core layouts of dots' accumulators; then, consumers before producers, the 2-D sources of
    // broadcasts for their results' layout; then, in program order, 1-D
    // sources of x[:, None] and 1-D results of reductions of 2-D blocks.
    func.walk([&](DotOp dot) {
      if (MmaLayoutAttr mma = dot.getMmaAttr())
        request(dot.getResult(), mma);
    });
    // Scans whose axis the kernel's layout spreads over warps (program
    // order: the first scan of a group decides).
    func.walk([&](ScanOp scan) {
      Value src = scan.getSrcs()[0]; // the operands share one group
      auto t = cast<RankedTensorType>(src.getType());
      if (t.getRank() != 2 || t.getEncoding())
        return;
      auto current = dyn_cast_or_null<BlockedLayoutAttr>(layoutOf(src));
      if (current && current.getWarpsPerCTA()[scan.getAxis()] > 1)
        request(src, scanLayout(t.getShape(), scan.getAxis(), std::max(widest2D[1 - scan.getAxis()], 1u)));
    });
    // Sorts likewise: their exchanges across warps go through shared memory.
    func.walk([&](SortOp sort) {
      auto t = sort.getSrc().getType();
      if (t.getRank() != 2 || t.getEncoding())
        return;
      auto current = dyn_cast_or_null<BlockedLayoutAttr>(layoutOf(sort.getSrc()));
      if (current && current.getWarpsPerCTA()[1] > 1)
        request(sort.getSrc(), sortLayout(t.getShape()));
    });
    // Reshapes, transposes and permutations, in program order: a result
    // group no access anchors and nothing asked for takes its source's
    // layout carried across the move (the move then renames registers), a
    // free source its bound result's, when that costs the group no more at
    // its moves and combines than the layout it has otherwise.
    llvm::DenseSet<Value> accessedGroups;
    for (const Access &a : accesses)
      if (isBlock(a.data))
        accessedGroups.insert(groups.getLeaderValue(a.data));
    auto isFree = [&](Value v) {
      Value leader = groups.getLeaderValue(v);
      return !cast<RankedTensorType>(v.getType()).getEncoding() && !requested.count(leader) &&
             !accessedGroups.count(leader);
    };
    func.walk([&](Operation *op) {
      if (!isa<ReshapeOp, TransOp, PermuteOp>(op))
        return;
      Value src = op->getOperand(0), res = op->getResult(0);
      auto across = [&](Value free, Value bound, bool forward) {
        Attribute fixed = layoutOf(bound), otherwise = layoutOf(free);
        if (!fixed || !otherwise)
          return;
        BlockedLayoutAttr l = layoutAcrossMove(op, fixed, forward);
        if (l && groupCost(free, l) <= groupCost(free, otherwise))
          request(free, l);
      };
      if (isFree(res))
        across(res, src, /*forward=*/true);
      else if (isFree(src))
        across(src, res, /*forward=*/false);
    });
    // The other groups of 2 or more dimensions that nothing binds: the
    // kernel's layout for their rank, or one that keeps the axis of one of
    // their reductions in each thread's registers, whichever costs less at
    // their moves and combines and at the conversions of loaded blocks
    // broadcast into them (a product of x[:, :, None] and y[None, :, :]
    // summed along its middle axis).
    llvm::SetVector<Value> freeGroups;
    func.walk([&](Operation *op) {
      for (Value r : op->getResults())
        if (auto t = dyn_cast<RankedTensorType>(r.getType()); t && t.getRank() >= 2 && isFree(r))
          freeGroups.insert(groups.getLeaderValue(r));
    });
    for (Value leader : freeGroups) {
      Attribute otherwise = layoutOf(leader);
      if (!otherwise)
        continue;
      SmallVector<BlockedLayoutAttr> candidates;
      for (Value member : groups.members(leader))
        for (Operation *user : member.getUsers())
          if (auto reduce = dyn_cast<ReduceOp>(user); reduce && reduce.getSrcs()[0] == member)
            if (BlockedLayoutAttr l = reductionLayout(cast<RankedTensorType>(member.getType()).getShape(),
                                                      reduce.getAxis()))
              candidates.push_back(l);
      int64_t best = groupCost(leader, otherwise) + broadcastCost(leader, otherwise);
      BlockedLayoutAttr chosen;
      for (BlockedLayoutAttr l : candidates)
        if (int64_t cost = groupCost(leader, l) + broadcastCost(leader, l); cost < best)
          best = cost, chosen = l;
      if (chosen)
        request(leader, chosen);
    }
    SmallVector<BroadcastOp> broadcasts;
    func.walk([&](BroadcastOp op) { broadcasts.push_back(op); });
    for (BroadcastOp op : llvm::reverse(broadcasts))
      request(op.getSrc(), layoutOf(op.getResult()));
    func.walk([&](Operation *op) {
      // A 2-D source that accesses anchor keeps its own layout (a
      // conversion goes in before the expansion).
      if (auto expand = dyn_cast<ExpandDimsOp>(op))
        if (Value src = expand.getSrc(); cast<RankedTensorType>(src.getType()).getRank() == 1 || !anchored.count(groups.getLeaderValue(src)))
          request(src, sliceOf(expand.getAxis(), layoutOf(expand.getResult())));
      if (auto reduce = dyn_cast<ReduceOp>(op); reduce && cast<RankedTensorType>(reduce.getSrcs()[0].getType()).getRank() >= 2)
        for (Value r : reduce.getResults())
          request(r, sliceOf(reduce.getAxis(), layoutOf(reduce.getSrcs()[0])));
    });

    // Give every block its group's layout.
    auto withLayout = [&](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (!t || t.getEncoding())
        return;
      v.setType(RankedTensorType::get(t.getShape(), t.getElementType(), layoutOf(v)));
    };
    func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            withLayout(arg);
      for (OpResult result : op->getResults())
        withLayout(result);
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          constant.setValueAttr(dense.reshape(cast<ShapedType>(constant.getType())));
    });
    insertConversions(func);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1))) {
      userFacing(module.emitError()) << "num-warps must be a power of two from 1 to 32, got " << numWarps;
      return signalPassFailure();
    }
    // Each function (kernel) gets layouts of its own.
    for (auto func : module.getOps<func::FuncOp>())
      assignIn(func);

    // A block far larger than the program's threads would unroll into
    // thousands of registers per thread: refuse it where it is made.
    WalkResult tooLarge = module.walk([&](Operation *op) {
      // wgmma reads B from shared memory, where blk-pipeline-dot writes it
      // for a dot in a loop it pipelines or outside any loop: its
      // fragments, copied in every warp, never fill registers there.
      if (auto convert = dyn_cast<ConvertLayoutOp>(op))
        if (auto operand = dyn_cast<DotOperandLayoutAttr>(convert.getType().getEncoding());
            operand && operand.getOpIdx() == 1)
          if (auto mma = dyn_cast<MmaLayoutAttr>(operand.getParent()); mma && mma.getVersion() == 3)
            if (llvm::any_of(convert->getUsers(), [](Operation *user) {
                  auto dot = dyn_cast<DotOp>(user);
                  return dot && (pipelinableLoop(dot) || !inAnyLoop(dot));
                }))
              return WalkResult::advance();
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t); tensor && hasLayout(tensor)) {
          int64_t perThread = LinearLayout::get(tensor).numRegisters();
          if (perThread > kMaxElemsPerThread) {
            userFacing(mlir::emitError(userLocation(op)))
                << "a block of " << tensor.getNumElements() << " elements needs " << perThread
                << " values per thread with " << unsigned(numWarps) << " warps (at most " << kMaxElemsPerThread
                << "); use a smaller block or more warps";
            return WalkResult::interrupt();
          }
        }
      return WalkResult::advance();
    });
    if (tooLarge.wasInterrupted())
      return signalPassFailure();
    module->setAttr(kNumWarpsAttr, IntegerAttr::get(IntegerType::get(ctx, 32), numWarps));
  }

  /// Where an op needs a layout other than its operand's or result's group
  /// has, converts between them.
  void insertConversions(func::FuncOp func) {
    func.walk([&](Operation *op) {
      OpBuilder b(op);
      auto convertOperand = [&](OpOperand &operand, Attribute want) {
        auto t = cast<RankedTensorType>(operand.get().getType());
        if (t.getEncoding() == want)
          return;
        auto type = RankedTensorType::get(t.getShape(), t.getElementType(), want);
        operand.set(ConvertLayoutOp::create(b, op->getLoc(), type, operand.get()));
      };
      if (computesData(op) || storesData(op)) {
        // Every block operand in the data's layout (index arithmetic is
        // recomputed there by blk-remove-layout-conversions).
        Value data = computesData(op) ? op->getResult(0) : cast<StoreOp>(op).getValue();
        Attribute want = cast<RankedTensorType>(data.getType()).getEncoding();
        for (OpOperand &operand : op->getOpOperands())
          if (isBlock(operand.get()))
            convertOperand(operand, want);
      } else if (auto dot = dyn_cast<DotOp>(op)) {
        // Tensor cores read operand fragments in the dot's own tensor-core
        // shape and write its result in it. A group takes the first dot's
        // layout; a dot of another shape that an elementwise op ties to it
        // (`acc + dot(acc.to(i8), c)`) computes in its own and is converted
        // into the group's after it. The accumulator has the result's
        // layout (a constant one is made again in it).
        auto mma = dot.getMmaAttr();
        auto result = cast<RankedTensorType>(dot.getResult().getType());
        if (mma && result.getEncoding() != mma) {
          b.setInsertionPointAfter(op);
          dot.getResult().setType(RankedTensorType::get(result.getShape(), result.getElementType(), mma));
          auto convert = ConvertLayoutOp::create(b, op->getLoc(), result, dot.getResult());
          dot.getResult().replaceAllUsesExcept(convert, convert);
          b.setInsertionPoint(op);
        }
        convertOperand(dot.getAccMutable(), dot.getResult().getType().getEncoding());
        if (mma) {
          unsigned kWidth = mma.getInstrShape()[2] / 8;
          convertOperand(dot.getAMutable(), DotOperandLayoutAttr::get(op->getContext(), 0, mma, kWidth));
          convertOperand(dot.getBMutable(), DotOperandLayoutAttr::get(op->getContext(), 1, mma, kWidth));
        }
      } else if (auto gather = dyn_cast<GatherOp>(op)) {
        convertOperand(gather.getIndexMutable(), gather.getResult().getType().getEncoding());
      } else if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
        convertOperand(broadcast.getSrcMutable(), broadcast.getResult().getType().getEncoding());
      } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
        convertOperand(expand.getSrcMutable(), sliceOf(expand.getAxis(), expand.getResult().getType().getEncoding()));
      } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
        auto src = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
        if (src.getRank() < 2)
          return;
        b.setInsertionPointAfter(op);
        Attribute want = sliceOf(reduce.getAxis(), src.getEncoding());
        for (Value r : reduce.getResults()) {
          auto t = cast<RankedTensorType>(r.getType());
          if (t.getEncoding() == want)
            continue;
          Type groupType = t;
          r.setType(RankedTensorType::get(t.getShape(), t.getElementType(), want));
          auto convert = ConvertLayoutOp::create(b, op->getLoc(), groupType, r);
          r.replaceAllUsesExcept(convert, convert);
        }
      }
    });
  }
};
} // namespace
} // namespace blk
