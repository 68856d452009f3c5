// Shared-memory pipelining of tensor-core dots' operands. In a loop
//   for i: a = load(pa(i)); b = load(pb(i)); acc = dot(cvt(a), cvt(b), acc)
// each operand that is a load the loop can issue ahead goes to a ring of
// shared-memory slots through cp.async, D = num_stages - 1 iterations ahead
// (its pointer may go through an index the loop loads, a page table: that
// load is issued for the later iteration too, masked off past the bound);
// one schedule serves every dot of the loop:
//   copy the ring operands' tiles 0 .. D-1; commit each iteration's group
//   for i (the n-th iteration): wait until tile n landed; barrier
//     acc = dot(ldmatrix(A[n % S]), ldmatrix(B[n % S]), acc)       mma.sync
//     acc = wait(wgmma(A[n % S], B[n % S], acc), 1 pending)          wgmma
//     ... (every dot of the loop)
//     copy tiles n + D into slot (n + D) % S; commit
// The loop's other 2-D loads that cp.async can copy go into rings of their
// own in the same groups, each thread reading its elements back where the
// load was (at more than one stage; blk-pipeline-loads leaves them alone).
// Operands that are not such loads keep their registers: mma.sync reads
// both operands from registers, wgmma reads A from registers (a value
// computed in the loop, such as attention's probabilities) or from a
// one-slot buffer written once (a loop-invariant tile), and B from shared
// memory: a B that is no ring load is written once where it is defined when
// loop-invariant, else each iteration into one of three slots (a B computed
// in the loop, such as dequantized weights). mma.sync reads its slots before the next
// iteration's barrier, so S = D + 1 slots suffice; an asynchronous wgmma may
// still read slot n - 1 while another warpgroup passes that barrier, so
// loops with wgmma take S = D + 2.
// A wgmma result the loop only carries stays in flight past its iteration:
// with one group pending when it accumulates into its own iter arg (matmul),
// else until the next iteration's first complete wait, which carries it
// before anything reads it (attention's PV overlaps the next QK and the
// softmax), or where there is none, until a wait in front of its first
// reader that leaves the groups issued since pending; after the loop a
// complete wait. A carried result whose iter arg is still read after the
// next one is issued (the next block's QK issued before this block's
// softmax) is waited for in front of the yield instead: the loop edge would
// copy an accumulator in flight, for which ptxas serializes every wgmma.
// Every other wgmma of the loop is waited for where its result is first
// read, with the dots issued since left pending: a loop that issues the
// next block's QK before the previous block's PV runs that PV beside the
// softmax.
// Descriptor loads that blk-lower-tensor-descriptors kept for TMA are copied
// by one thread (async_tma_copy, none past the bound) and waited for on the
// slot's mbarrier (phase n / S) instead of cp.async groups. Where every ring
// is a TMA ring read by wgmma, no barrier of all threads remains in the
// loop: each warp releases tile n - 1's slot on an empty mbarrier where it
// is done with iteration n - 1's wgmma (in front of the copies), and the
// warp that issues the copies waits for the release of the slot it copies
// tile n + D into.
#include "blk/Analysis/Allocation.h"
#include "blk/Analysis/SharedSwizzle.h"
#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "LoopSlice.h"
#include "Occupancy.h"
#include "RingReadBack.h"
#include "WarpSpecialize.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKPIPELINEDOTPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// An operand's load (a pointer load, or a descriptor load TMA copies) and
/// what recomputes its pointer and mask, or its offsets, for another
/// iteration.
struct OperandLoad {
  Operation *load;
  IterationSlice slice;
  DescriptorLoadOp tma() const { return dyn_cast<DescriptorLoadOp>(load); }
};

/// `v` before any layout conversions.
Value skipConversions(Value v) {
  while (auto convert = v.getDefiningOp<ConvertLayoutOp>())
    v = convert.getSrc();
  return v;
}

/// The value a dot operand reads, through its conversion to the operand
/// layout and a `trans` (then `transposed` is set).
Value operandSource(Value operand, bool &transposed) {
  return skipConversions(throughTrans(skipConversions(operand), &transposed));
}

/// Whether every use of `load` is an operand of a ring-reading dot of
/// `loop`, as is or transposed: then one ring serves them all, each dot
/// reading its slot directly or through a transposed view. Unlike
/// onlyDotOperands, it follows any chain of layout conversions and `trans`
/// in the loop body, and takes a dot that reads the load through
/// operandSource.
bool onlyFeedsDots(scf::ForOp loop, Operation *load) {
  SmallVector<Value> worklist{load->getResult(0)};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto dot = dyn_cast<DotOp>(user)) {
        bool transposed;
        if (dot->getBlock() != loop.getBody() || !ringReader(dot) || dot.getAcc() == v ||
            (operandSource(dot.getA(), transposed).getDefiningOp() != load &&
             operandSource(dot.getB(), transposed).getDefiningOp() != load))
          return false;
        continue;
      }
      if (!isa<ConvertLayoutOp, TransOp>(user) || user->getBlock() != loop.getBody())
        return false;
      worklist.push_back(user->getResult(0));
    }
  }
  return true;
}

/// The load behind a dot operand (`source`, from operandSource) when
/// cp.async can replace it: zero `other`, a pointer and mask recomputable
/// for another iteration, and no use but dot operands.
std::optional<OperandLoad> operandLoad(scf::ForOp loop, Value source) {
  Value operand = source;
  if (auto tma = operand.getDefiningOp<DescriptorLoadOp>()) {
    if (tma->getBlock() != loop.getBody() || !onlyFeedsDots(loop, tma) || !isa<BlockArgument>(tma.getDesc()))
      return std::nullopt;
    std::optional<IterationSlice> slice = iterationSlice(loop, tma.getOffsets(), /*allowAdvances=*/false);
    if (!slice)
      return std::nullopt;
    return OperandLoad{tma, std::move(*slice)};
  }
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || load->getBlock() != loop.getBody() || !onlyFeedsDots(loop, load) ||
      !isZeroOrAbsent(load.getOther()))
    return std::nullopt;
  std::optional<IterationSlice> slice = accessSlice(loop, load);
  if (!slice)
    return std::nullopt;
  return OperandLoad{load, std::move(*slice)};
}

/// The shared ring for `load`'s tile, or nothing when cp.async cannot copy
/// it (accesses under 4 bytes) or the tile does not fit the swizzle.
SharedBufferType ringFor(const OperandLoad &op, int64_t slots) {
  auto type = cast<RankedTensorType>(op.load->getResult(0).getType());
  if (type.getRank() != 2)
    return {};
  if (DescriptorLoadOp tma = op.tma())
    return tmaRing(tma.getDesc().getType(), slots);
  auto load = cast<LoadOp>(op.load);
  return cpAsyncRing(type, load.getAccessDim(), load.getVec(), slots);
}

/// The op whose result the loop yields into `arg`.
Operation *yieldedDefinition(scf::ForOp loop, BlockArgument arg) {
  return loop.getYieldedValues()[arg.getArgNumber() - 1].getDefiningOp();
}

/// Makes the first complete wgmma wait of the body that precedes every
/// reader of `arg` (a wgmma result of the previous iteration, still in
/// flight) carry it, and the readers read the waited value. False when no
/// such wait exists. `last` follows the wait when it is the one replaced.
bool waitInNextIteration(scf::ForOp loop, BlockArgument arg, Operation *&last) {
  Block *body = loop.getBody();
  SmallVector<Operation *> readers;
  for (OpOperand &use : arg.getUses())
    readers.push_back(body->findAncestorOpInBlock(*use.getOwner()));
  for (auto wait : body->getOps<WarpGroupDotWaitOp>()) {
    if (wait.getPending() != 0)
      continue;
    if (!llvm::all_of(readers, [&](Operation *r) { return r && wait->isBeforeInBlock(r); }))
      return false;
    SmallVector<Value> accs(wait.getAccs());
    accs.push_back(arg);
    OpBuilder b(wait);
    auto carrying = WarpGroupDotWaitOp::create(b, wait.getLoc(), accs, 0);
    wait.replaceAllUsesWith(carrying.getResults().drop_back());
    arg.replaceAllUsesExcept(carrying.getResults().back(), carrying);
    if (last == wait)
      last = carrying;
    wait.erase();
    return true;
  }
  return false;
}

/// Whether a complete wgmma wait of `body` comes before `op` (an op of
/// `body`; true for null): whatever was in flight is done when `op` runs.
bool completeWaitBefore(Block *body, Operation *op) {
  if (!op)
    return true;
  for (auto wait : body->getOps<WarpGroupDotWaitOp>())
    if (wait.getPending() == 0)
      return wait->isBeforeInBlock(op);
  return false;
}

/// Whether `op`'s regions hold a wgmma or a wait for one.
bool issuesOrWaits(Operation *op) {
  return op->walk([](Operation *inner) {
             return isa<WarpGroupDotOp, WarpGroupDotWaitOp>(inner) ? WalkResult::interrupt() : WalkResult::advance();
           }).wasInterrupted();
}

/// The number of wgmma groups issued at the top level of `body` in
/// [from, to) (to null: the block's end); none where an op in between has
/// regions holding a wgmma (its count is not known).
std::optional<int32_t> dotsIssued(Block *body, Operation *from, Operation *to) {
  int32_t count = 0;
  for (Operation *op = from; op != to; op = op->getNextNode()) {
    if (isa<WarpGroupDotOp>(op))
      ++count;
    else if (op->getNumRegions() != 0 && issuesOrWaits(op))
      return std::nullopt;
  }
  return count;
}

/// The first op of `body` (at its top level) that reads `v`, or null.
Operation *firstReaderIn(Block *body, Value v) {
  Operation *first = nullptr;
  for (Operation *user : v.getUsers())
    if (Operation *r = body->findAncestorOpInBlock(*user); r && (!first || r->isBeforeInBlock(first)))
      first = r;
  return first;
}

/// Whether `arg` is read after `issue` in the loop body.
bool readAfter(BlockArgument arg, Operation *issue) {
  Block *body = issue->getBlock();
  return llvm::any_of(arg.getUses(), [&](OpOperand &use) {
    Operation *r = body->findAncestorOpInBlock(*use.getOwner());
    return r && issue->isBeforeInBlock(r);
  });
}

/// Waits for `arg` (the result of `issue`, a wgmma of the previous
/// iteration still in flight) where it is first read, or in front of what
/// follows `last` if that comes first: there each warp releases the
/// previous iteration's slot (release-slots), or, with one slot fewer, a
/// barrier lets the copies refill it, both of which need iteration n - 1's
/// wgmma complete (with D + 2 slots the copies refill slot n - 2, so the
/// rule is stricter than that scheme needs); leaving pending the groups issued
/// since: those after `issue` in the previous iteration and those before
/// the wait in this one (a loop that issues the next block's QK before the
/// softmax of this block keeps it in flight under the softmax). False when
/// those groups cannot be counted.
bool waitWhereRead(scf::ForOp loop, BlockArgument arg, Operation *issue, Operation *&last) {
  Block *body = loop.getBody();
  Operation *firstReader = firstReaderIn(body, arg);
  bool beforeCopies = firstReader && (firstReader == last || firstReader->isBeforeInBlock(last));
  Operation *at = beforeCopies ? firstReader : last->getNextNode();
  std::optional<int32_t> after = dotsIssued(body, issue->getNextNode(), nullptr);
  std::optional<int32_t> before = dotsIssued(body, &body->front(), at);
  if (!after || !before)
    return false;
  OpBuilder b(at);
  auto wait = WarpGroupDotWaitOp::create(b, issue->getLoc(), ValueRange{arg}, *after + *before);
  arg.replaceAllUsesExcept(wait.getResult(0), wait);
  if (!beforeCopies)
    last = wait;
  return true;
}

/// Moves each complete wait of one wgmma of `body` down to the first op
/// that reads the result, so that the dots issued in between run beside the
/// work that does not need it (a source that issues the next block's QK
/// before the previous block's PV overlaps that PV with the softmax); the
/// wait then leaves those later dots pending. Waits are in order, so a wait
/// that leaves the N dots issued after this one pending completes this one.
/// Stops at another wait and at ops whose regions issue or wait for wgmma
/// (not counted); a reduction's combine region does neither.
void sinkWaitsToReaders(Block *body) {
  SmallVector<WarpGroupDotWaitOp> waits(body->getOps<WarpGroupDotWaitOp>());
  for (WarpGroupDotWaitOp wait : llvm::reverse(waits)) {
    if (wait.getPending() != 0 || wait.getAccs().size() != 1 ||
        !wait.getAccs()[0].getDefiningOp<WarpGroupDotOp>())
      continue;
    Operation *firstReader = firstReaderIn(body, wait.getResult(0));
    if (!firstReader)
      continue;
    int32_t pending = 0;
    Operation *dest = wait->getNextNode();
    for (; dest != firstReader; dest = dest->getNextNode()) {
      // A barrier or a slot's release in between concerns the previous
      // iteration's dots, done before this one's. Waits for those (several
      // results, a block argument, or pending > 0) are not moved, and a
      // sunk wait stops at any wait.
      if (isa<WarpGroupDotWaitOp>(dest) || (dest->getNumRegions() != 0 && issuesOrWaits(dest)))
        break;
      if (isa<WarpGroupDotOp>(dest))
        ++pending;
    }
    if (dest == wait->getNextNode())
      continue;
    wait->moveBefore(dest);
    wait.setPending(pending);
  }
}

/// Whether `op` runs in each thread's registers, with no barrier of all
/// threads in its lowering: elementwise math, views and block shapes that
/// move no element between threads, a conversion that needs no scratch.
bool runsInRegisters(Operation *op) {
  if (isa<WarpGroupDotOp, LocalTransOp, SplatOp, BroadcastOp, ExpandDimsOp>(op))
    return true;
  if (isa<ConvertLayoutOp>(op))
    return scratchFor(op).bytes == 0;
  Dialect *dialect = op->getDialect();
  return op->getNumRegions() == 0 && dialect && isa<arith::ArithDialect, math::MathDialect>(dialect);
}

/// Warpgroups take turns issuing the wgmma of `loop` (FlashAttention-3's
/// ping-pong): each waits for its turn before the iteration's first dot and
/// hands it on after the last, so that the next warpgroup's dots follow on
/// the tensor cores while this one runs the rest of its iteration (the
/// dots issued back to back; nothing else is ordered). Needs
/// the loop free of barriers of all threads (release-slots), which would
/// hold the warpgroups in step; two or more warpgroups.
void takeTurns(scf::ForOp loop) {
  if (!warpGroups(loop))
    return;
  auto dots = loop.getBody()->getOps<WarpGroupDotOp>();
  if (dots.empty())
    return;
  Operation *first = *dots.begin(), *last = nullptr;
  for (WarpGroupDotOp dot : dots)
    last = dot;
  // A turn is the iteration's dots issued back to back (FlashAttention-3's
  // order: block n's scores, then block n - 1's P V): between them only ops
  // that run in each thread's registers. A wait would hold the work in
  // between inside the turn; a barrier of all threads (one the lowering of
  // an op with shared-memory scratch, a reduction across warps, a dot
  // outside wgmma, ... brings) would deadlock, this warpgroup at the barrier
  // and the next one waiting for its turn.
  for (Operation *op = first; op != last; op = op->getNextNode())
    if (!runsInRegisters(op))
      return;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  WarpGroupTurnOp::create(b, loc, "open");
  b.setInsertionPoint(first);
  WarpGroupTurnOp::create(b, loc, "take");
  b.setInsertionPointAfter(last);
  WarpGroupTurnOp::create(b, loc, "pass");
  // In front of whatever follows the loop (its barrier of all threads, the
  // next loop's turns): the last hand-over is taken back first.
  b.setInsertionPointAfter(loop);
  WarpGroupTurnOp::create(b, loc, "close");
}

/// A tile copied into a ring: a dot operand's, or (`registers`) that of
/// another load of the loop, read back into registers where it was loaded.
struct RingOperand {
  OperandLoad op;
  SharedBufferType type;
  Value buf, bars; // bars: TMA copies only
  bool registers = false;
  // Read only into registers before the loop's last dot (no wgmma reads the
  // ring from shared memory): its slot is free once every thread has passed
  // the next barrier, so it needs one slot fewer than a wgmma operand's ring.
  bool readBeforeLastDot = false;
};

/// How one dot of the loop reads its operands: a ring (index into the
/// loop's rings) or its registers (-1); or, for a wgmma's loop-invariant A,
/// a one-slot buffer written once where the block is defined (`staged`, the
/// block it holds).
struct DotPlan {
  DotOp dot;
  int a = -1, b = -1;
  bool aTransposed = false, bTransposed = false; // read through a transposed view of the ring
  bool wgmma;
  Value staged, aBuf, aSlot;
  // A wgmma B that is no ring load: the block (before its conversion) and
  // the buffer it is read from; written once in front of the loop when
  // loop-invariant (bSlot fixed), else every iteration (bStoredType).
  Value bSource, bBuf, bSlot;
  SharedBufferType bStoredType;
};

/// A buffer of `slots` tiles that the block `src` (an operand before its
/// conversion to the operand layout, K along `kDim`) can be written into for
/// wgmma: 16-bit or 8-bit floats, 2-D, each element held by one thread
/// (every thread writes its own); null otherwise. 8-bit tiles are written
/// K-major, the only way wgmma reads them.
SharedBufferType operandBuffer(Value src, int64_t slots, unsigned kDim) {
  auto type = dyn_cast<RankedTensorType>(src.getType());
  if (!type || type.getRank() != 2 || !hasLayout(type) ||
      !(type.getElementTypeBitWidth() == 16 || isFloat8(type.getElementType())))
    return {};
  LinearLayout layout = LinearLayout::get(type);
  if (layout.broadcastLaneMask() || layout.broadcastWarpMask())
    return {};
  // Lines along the dimension the thread's registers (or else lanes) run along.
  unsigned contig = 1;
  if (!layout.regs.empty())
    contig = layout.regs[0][0] != 0 ? 0 : 1;
  else if (!layout.lanes.empty())
    contig = layout.lanes[0][0] != 0 ? 0 : 1;
  if (type.getElementTypeBitWidth() == 8)
    contig = kDim;
  return SharedBufferType::getChecked([] { return InFlightDiagnostic(); }, type.getContext(),
                                      {slots, type.getDimSize(0), type.getDimSize(1)}, type.getElementType(), contig);
}

/// The elementwise ops (one use each) that lead from a ring load's tile to a
/// conversion into a wgmma dot's register A operand (activations scaled and
/// rounded to fp8 each iteration), and that conversion; nothing where the
/// tile goes anywhere else.
std::pair<SmallVector<Operation *>, ConvertLayoutOp> chainToRegisterA(Value tile) {
  SmallVector<Operation *> chain;
  for (Value v = tile; v.hasOneUse();) {
    Operation *user = *v.getUsers().begin();
    if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
      auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(convert.getType().getEncoding());
      auto mma = operand ? dyn_cast<MmaLayoutAttr>(operand.getParent()) : MmaLayoutAttr();
      bool registerA = mma && mma.getVersion() >= 3 && operand.getOpIdx() == 0 &&
                       llvm::all_of(convert->getUsers(), [](Operation *u) { return isa<DotOp>(u); });
      return registerA ? std::pair{chain, convert} : std::pair{SmallVector<Operation *>(), ConvertLayoutOp()};
    }
    if (!user->hasTrait<OpTrait::Elementwise>() || user->getNumResults() != 1 ||
        cast<RankedTensorType>(user->getResult(0).getType()).getShape() !=
            cast<RankedTensorType>(tile.getType()).getShape())
      break;
    chain.push_back(user);
    v = user->getResult(0);
  }
  return {};
}

/// `v` (an operand of the chain above, beside the tile) in `layout`: a
/// splat or constant made again, a row or column broadcast rebuilt from
/// its line converted once where the line is defined (a loop-invariant
/// scale converts before the loop), anything else converted at `at`.
Value inLayout(Value v, Attribute layout, Operation *at) {
  auto type = cast<RankedTensorType>(v.getType());
  auto retyped = [&](RankedTensorType t, Attribute l) { return RankedTensorType::get(t.getShape(), t.getElementType(), l); };
  OpBuilder b(at);
  if (auto splat = v.getDefiningOp<SplatOp>())
    return SplatOp::create(b, splat.getLoc(), retyped(type, layout), splat.getSrc());
  if (auto constant = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<SplatElementsAttr>(constant.getValue()))
      return arith::ConstantOp::create(b, constant.getLoc(), retyped(type, layout),
                                       SplatElementsAttr::get(retyped(type, layout), dense.getSplatValue<Attribute>()));
  if (auto broadcast = v.getDefiningOp<BroadcastOp>())
    if (auto expand = broadcast.getSrc().getDefiningOp<ExpandDimsOp>()) {
      Value line = expand.getSrc();
      unsigned axis = unsigned(expand.getAxis());
      OpBuilder lb(line.getContext());
      if (Operation *def = line.getDefiningOp())
        lb.setInsertionPointAfter(def);
      else
        lb.setInsertionPointToStart(cast<BlockArgument>(line).getOwner());
      auto lineType = cast<RankedTensorType>(line.getType());
      Value moved = ConvertLayoutOp::create(lb, expand.getLoc(),
                                            retyped(lineType, SliceLayoutAttr::get(v.getContext(), axis, layout)), line);
      Value expanded =
          ExpandDimsOp::create(b, expand.getLoc(), retyped(cast<RankedTensorType>(expand.getType()), layout), moved, axis);
      return BroadcastOp::create(b, broadcast.getLoc(), retyped(type, layout), expanded);
    }
  return ConvertLayoutOp::create(b, v.getLoc(), retyped(type, layout), v);
}

/// The block behind a dot operand, before its conversions to the operand
/// layout.
Value registerSource(Value operand) {
  while (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
    operand = convert.getSrc();
  return operand;
}

/// The one-slot buffer a loop-invariant wgmma operand can be staged in, and
/// the block it holds; null otherwise.
std::pair<Value, SharedBufferType> stagedOperand(scf::ForOp loop, Value operand) {
  Value src = registerSource(operand);
  if (!loop.isDefinedOutsideOfLoop(src))
    return {};
  SharedBufferType buffer = operandBuffer(src, 1, /*kDim=*/1);
  if (!buffer)
    return {};
  return {src, buffer};
}

// A B operand computed in the loop is written into one of three slots each
// iteration: the slot written in iteration n was last read by the wgmma of
// iteration n - 3, which every warpgroup completed (its wait in iteration
// n - 2) before the barrier at the top of iteration n - 1. Where the rings'
// copies refill slot n - 1 after a barrier (reuseAfterBarrier), two slots
// do: the wgmma of iteration n - 2 is done in every warpgroup before that
// barrier in iteration n - 1.
constexpr int64_t kStoredBSlots = 3;
constexpr int64_t kStoredBSlotsAfterBarrier = 2;

/// Bytes of the shared buffers made before `loop` (outside it) that live
/// while it runs: a use at or after the loop, in the allocation's block or
/// below (a TMA store's buffer in a persistent kernel's loop over tiles).
int64_t buffersLiveAcross(scf::ForOp loop) {
  int64_t bytes = 0;
  loop->getParentOfType<func::FuncOp>().walk([&](LocalAllocOp alloc) {
    Block *block = alloc->getBlock();
    Operation *loopTop = block->findAncestorOpInBlock(*loop);
    if (!loopTop || !alloc->isBeforeInBlock(loopTop))
      return;
    if (llvm::any_of(alloc->getUsers(), [&](Operation *user) {
          Operation *userTop = block->findAncestorOpInBlock(*user);
          return userTop && (userTop == loopTop || loopTop->isBeforeInBlock(userTop));
        }))
      bytes += alloc.getType().getSlots() * alloc.getType().getSlotBytes();
  });
  return bytes;
}

/// The loop directly in a kernel's body that holds `loop` (a persistent
/// kernel's loop over tiles), or null where `loop` is itself in the body.
scf::ForOp outerLoopOf(scf::ForOp loop) {
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  return outer && isa<func::FuncOp>(outer->getParentOp()) ? outer : scf::ForOp();
}

/// What a producer warpgroup computes again to issue `loop`'s copies (every
/// ring a TMA ring): the ops that give the loop's bounds and the values from
/// outside the loop that the copies' offsets read (and, for a loop in a loop
/// over tiles, that loop's bounds and the ops of its body they need).
/// Nothing where the loop is neither directly in a kernel's body of one
/// block nor in a loop that is, the kernel has a producer already or whole
/// warpgroups do not fit, or those values need more than scalar arithmetic
/// on the arguments.
std::optional<ScalarSlice> specializable(scf::ForOp loop, ArrayRef<RingOperand> rings, int64_t numWarps,
                                         int64_t sharedMemoryLimit) {
  scf::ForOp outer = outerLoopOf(loop);
  // In a loop over tiles the producer fills the next tile's slots while the
  // consumers run this tile's epilogue: the rings cannot share memory with
  // its scratch (the accumulator's move for the store) or its TMA store's
  // buffer, so all must fit.
  if (outer) {
    int64_t ringBytes = 0, scratch = 0;
    for (const RingOperand &r : rings)
      ringBytes += r.type.getSlots() * r.type.getSlotBytes() + 8 * r.type.getSlots();
    outer.getBody()->walk([&](Operation *op) {
      if (op == loop.getOperation() || loop->isAncestor(op))
        return;
      scratch = std::max(scratch, scratchFor(op).bytes);
    });
    if (ringBytes + scratch + buffersLiveAcross(loop) > sharedMemoryLimit)
      return std::nullopt;
  }
  auto func = dyn_cast<func::FuncOp>((outer ? outer.getOperation() : loop.getOperation())->getParentOp());
  if (!func || !func.getBody().hasOneBlock() || func->hasAttr(kProducerWarpsAttr) || numWarps % 4 ||
      (numWarps + kProducerWarps) * 32 > 1024)
    return std::nullopt;
  SmallVector<Value> roots{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  if (outer)
    roots.append({outer.getLowerBound(), outer.getUpperBound(), outer.getStep()});
  for (const RingOperand &r : rings) {
    DescriptorLoadOp tma = r.op.tma();
    if (!tma || !r.op.slice.advances.empty())
      return std::nullopt;
    auto outside = [&](Value v) {
      if (loop.isDefinedOutsideOfLoop(v))
        roots.push_back(v);
    };
    for (Value o : tma.getOffsets())
      outside(o);
    for (Operation *op : r.op.slice.ops)
      for (Value v : op->getOperands())
        outside(v);
  }
  return scalarSlice(func, outer, roots);
}

/// The producer warpgroup of `loop` (specializable): in its own loop over the
/// same iterations, its issuing warp waits for tile n's slot to be released
/// (the consumers arrive on `empty` once done with the tile S before it,
/// the first S slots free from the start) and copies tile n into it. In a
/// loop over tiles, n counts on across them: the producer's copy of that
/// loop carries the count, as the consumers' does.
void buildProducer(scf::ForOp loop, ArrayRef<RingOperand> rings, Value empty, int64_t slots, int64_t numWarps,
                   const ScalarSlice &slice) {
  SmallVector<Operation *> shared;
  for (const RingOperand &r : rings)
    shared.append({r.buf.getDefiningOp(), r.bars.getDefiningOp()});
  shared.push_back(empty.getDefiningOp());
  scf::ForOp outer = outerLoopOf(loop); // before the split moves it into the consumers' branch
  IRMapping map;
  OpBuilder p = splitWarpRoles(loop->getParentOfType<func::FuncOp>(), numWarps, shared, slice.kernel, map);
  Location loc = loop.getLoc();
  Type i32 = p.getI32Type();
  // The tiles of earlier trips through the loop over tiles.
  Value before;
  scf::ForOp outerCopy;
  if (outer) {
    Value zero = arith::ConstantOp::create(p, loc, IntegerAttr::get(i32, 0));
    outerCopy = scf::ForOp::create(p, loc, map.lookupOrDefault(outer.getLowerBound()),
                                   map.lookupOrDefault(outer.getUpperBound()), map.lookupOrDefault(outer.getStep()),
                                   ValueRange{zero});
    map.map(outer.getInductionVar(), outerCopy.getInductionVar());
    p.setInsertionPointToStart(outerCopy.getBody());
    for (Operation *op : slice.outer)
      map.map(op, p.clone(*op, map));
    before = outerCopy.getRegionIterArgs()[0];
  }
  Value lb = map.lookupOrDefault(loop.getLowerBound()), step = map.lookupOrDefault(loop.getStep());
  Value ub = map.lookupOrDefault(loop.getUpperBound());
  auto producer = scf::ForOp::create(p, loc, lb, ub, step);
  if (outerCopy) {
    Value total = arith::AddIOp::create(p, loc, before, tripCount(p, loc, lb, ub, step));
    scf::YieldOp::create(p, loc, total);
  }
  OpBuilder b = OpBuilder::atBlockTerminator(producer.getBody());
  auto i32Const = [&](int64_t v) -> Value { return arith::ConstantOp::create(b, loc, IntegerAttr::get(i32, v)); };
  Value iv = producer.getInductionVar();
  Value n = tripIndex(b, loc, iv, lb, step);
  if (before)
    n = arith::AddIOp::create(b, loc, before, n);
  Value slot = arith::RemUIOp::create(b, loc, n, i32Const(slots));
  Value round = arith::DivUIOp::create(b, loc, n, i32Const(slots));
  Value parity = arith::XOrIOp::create(b, loc, arith::AndIOp::create(b, loc, round, i32Const(1)), i32Const(1));
  MBarrierWaitOp::create(b, loc, empty, slot, parity, /*issuer=*/true);
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  for (const RingOperand &r : rings) {
    cloneIteration(b, loop, r.op.slice, iv, [](const Advance &) { return Value(); }, map);
    DescriptorLoadOp tma = r.op.tma();
    SmallVector<Value> offsets;
    for (Value o : tma.getOffsets())
      offsets.push_back(map.lookupOrDefault(o));
    AsyncTMACopyOp::create(b, loc, tma.getDesc(), offsets, r.buf, slot, r.bars, always);
  }
}

struct PipelineDot : impl::BlkPipelineDotPassBase<PipelineDot> {
  using Base::Base;

  void runOnOperation() override {
    stagedBuffers.clear();
    // Dots by the loop that holds them, in program order.
    llvm::MapVector<Operation *, SmallVector<DotOp>> byLoop;
    getOperation().walk([&](DotOp dot) {
      if (scf::ForOp loop = pipelinableLoop(dot))
        byLoop[loop].push_back(dot);
    });
    // Loops whose only rings are tiles too large to carry in registers.
    getOperation().walk([&](LoadOp load) {
      scf::ForOp loop = pipelinableLoop(load);
      if (loop && !byLoop.count(loop) && tooLargeToCarry(loop, load)) // none at one stage
        byLoop[loop];
    });
    for (auto &[loop, dots] : byLoop)
      pipeline(cast<scf::ForOp>(loop), dots);
    // wgmma dots outside loops (an epilogue's product, a loop's first or
    // last step peeled) read B from shared memory too: as register
    // fragments every warp would hold all of it.
    SmallVector<DotOp> outsideLoops;
    getOperation().walk([&](DotOp dot) {
      auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
      if (mma && mma.getVersion() == 3 && !inAnyLoop(dot))
        outsideLoops.push_back(dot);
    });
    for (DotOp dot : outsideLoops)
      issueFromSharedMemory(dot);
  }

  /// Bytes of the buffers still read at or after `dot`, in its block.
  int64_t bytesLiveAt(DotOp dot) {
    int64_t bytes = 0;
    Block *block = dot->getBlock();
    dot->getParentOfType<func::FuncOp>().walk([&](LocalAllocOp alloc) {
      bool live = llvm::any_of(alloc->getUsers(), [&](Operation *user) {
        Operation *at = block->findAncestorOpInBlock(*user);
        return !at || !at->isBeforeInBlock(dot);
      });
      if (live)
        bytes += alloc.getType().getSlots() * alloc.getType().getSlotBytes();
    });
    return bytes;
  }

  /// `dot` as a warp_group_dot reading B from a one-slot buffer written
  /// where B is defined, and its wait; unchanged where B has no such
  /// buffer or it would not fit beside the buffers live there.
  void issueFromSharedMemory(DotOp dot) {
    Value src = registerSource(dot.getB());
    SharedBufferType buffer = operandBuffer(src, 1, /*kDim=*/0);
    if (!buffer)
      return;
    if (!stagedBuffers.count(src)) {
      if (buffer.getSlotBytes() + bytesLiveAt(dot) > sharedMemoryLimit / 8 * 7) // room for scratch
        return;
      llvm::MapVector<Value, SharedBufferType> staged;
      staged.try_emplace(src, buffer);
      stage(staged);
    }
    auto [buf, slot] = stagedBuffers.lookup(src);
    OpBuilder b(dot);
    Value issued =
        WarpGroupDotOp::create(b, dot.getLoc(), dot.getType(), dot.getA(), Value(), buf, slot, dot.getAcc());
    Value done = WarpGroupDotWaitOp::create(b, dot.getLoc(), ValueRange{issued}, 0).getResult(0);
    Value bOperand = dot.getB();
    dot.replaceAllUsesWith(done);
    dot.erase();
    while (auto convert = bOperand.getDefiningOp<ConvertLayoutOp>()) {
      if (!convert->use_empty())
        break;
      bOperand = convert.getSrc();
      convert.erase();
    }
  }

  /// stagedWithoutDots for `load` of `loop`, at the loop's stages, with
  /// the threads of the module's warps.
  std::optional<IterationSlice> tooLargeToCarry(scf::ForOp loop, LoadOp load) {
    auto warps = getOperation()->getAttrOfType<IntegerAttr>(kNumWarpsAttr);
    return stagedWithoutDots(loop, load, load.getVec(), load.getAccessDim(), loopStages(loop, numStages),
                             warps ? warps.getInt() * 32 : 0, sharedMemoryLimit);
  }

  /// Each staged block's buffer and slot (0), shared by every loop that
  /// reads it.
  llvm::DenseMap<Value, std::pair<Value, Value>> stagedBuffers;

  /// Writes the blocks not staged yet into their buffers where they are
  /// defined, not in front of the loop: a loop nested in another (attention
  /// backward's loop over the query heads of a group) or two loops reading
  /// one block would otherwise keep its registers alive across the outer
  /// loop or between the two. Then visible to the async proxy (wgmma) and to
  /// every warpgroup.
  void stage(const llvm::MapVector<Value, SharedBufferType> &staged) {
    for (auto [src, type] : staged) {
      if (stagedBuffers.count(src))
        continue;
      OpBuilder b(src.getContext());
      if (Operation *def = src.getDefiningOp())
        b.setInsertionPointAfter(def);
      else
        b.setInsertionPointToStart(cast<BlockArgument>(src).getOwner());
      Location loc = src.getLoc();
      Value slot = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
      Value buf = LocalAllocOp::create(b, loc, type);
      LocalStoreOp::create(b, loc, src, buf, slot);
      FenceAsyncSharedOp::create(b, loc);
      BarrierOp::create(b, loc);
      stagedBuffers[src] = {buf, slot};
    }
  }

  void pipeline(scf::ForOp loop, ArrayRef<DotOp> loopDots) {
    int64_t ahead = std::max<int64_t>(loopStages(loop, numStages), 2) - 1;
    // Which operands go through rings. Rings hold 16-bit operands (ldmatrix
    // and wgmma read them) and 8-bit float operands of wgmma (K-major); tf32
    // and i8 fragments, and 8-bit ones on mma.sync, keep the register path.
    SmallVector<DotPlan> plans;
    SmallVector<RingOperand> rings;
    bool anyWgmma = false;
    // Whether a tile fits a ring does not depend on the slot count, which
    // depends on whether any dot runs on wgmma: rings are typed after.
    // A load feeding several dots (as is or transposed) gets one ring.
    llvm::DenseMap<Operation *, int> ringOfLoad;
    // kMajor: the ring must run along the operand's K dimension `kDim` as
    // the dot reads it (8-bit wgmma operands).
    // With `add` false, only whether it would get one (0) or not (-1).
    auto ringIndex = [&](Value operand, bool &transposed, bool kMajor, unsigned kDim, bool add = true) -> int {
      std::optional<OperandLoad> op = operandLoad(loop, operandSource(operand, transposed));
      SharedBufferType ring = op ? ringFor(*op, 1) : SharedBufferType();
      if (!ring || (kMajor && (transposed ? 1 - ring.getContig() : ring.getContig()) != kDim))
        return -1;
      if (!add)
        return 0;
      auto [it, inserted] = ringOfLoad.try_emplace(op->load, int(rings.size()));
      if (inserted)
        rings.push_back({std::move(*op), SharedBufferType(), Value(), Value(), false});
      return it->second;
    };
    for (DotOp dot : loopDots) {
      auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
      if (!ringReader(dot))
        continue;
      DotPlan plan{dot};
      bool hopper = mma.getVersion() == 3;
      bool kMajor = hopper && dot.getA().getType().getElementTypeBitWidth() == 8;
      // mma.sync reads no 8-bit fragments from rings: an 8-bit dot whose B
      // wgmma cannot read from shared memory keeps both operands in registers.
      if (kMajor) {
        bool bTransposed;
        if (ringIndex(dot.getB(), bTransposed, kMajor, 0, /*add=*/false) < 0 &&
            !operandBuffer(registerSource(dot.getB()), 1, 0))
          continue;
      }
      plan.a = ringIndex(dot.getA(), plan.aTransposed, kMajor, 1);
      plan.b = ringIndex(dot.getB(), plan.bTransposed, kMajor, 0);
      // wgmma reads B from shared memory: a B that is no ring load is
      // written there (once when loop-invariant, else every iteration).
      if (hopper && plan.b < 0 && operandBuffer(registerSource(dot.getB()), 1, 0))
        plan.bSource = registerSource(dot.getB());
      plan.wgmma = hopper && (plan.b >= 0 || plan.bSource);
      if (plan.a < 0 && plan.b < 0 && !plan.wgmma)
        continue;
      anyWgmma |= plan.wgmma;
      plans.push_back(plan);
    }
    // The loop's other 2-D loads that cp.async can copy go through rings of
    // their own, issued with the operands' copies and read back where they
    // were loaded (registers carried across iterations would hold 8- and
    // 16-bit elements unpacked, which waits for the load where it is
    // issued). As blk-pipeline-loads, only at more than one stage. In a
    // loop with no dot on rings, only tiles too large to carry.
    size_t operandRings = rings.size();
    if (loopStages(loop, numStages) > 1)
      for (auto load : loop.getBody()->getOps<LoadOp>()) {
        // A load the loop already carries ahead in registers (blk-pipeline-
        // loads issued it for a later iteration) stays as it is.
        bool carried = llvm::any_of(load->getUsers(), [](Operation *user) { return isa<scf::YieldOp>(user); });
        if (carried || ringOfLoad.count(load))
          continue;
        std::optional<IterationSlice> slice =
            plans.empty() ? tooLargeToCarry(loop, load)
                          : stagedBesideDots(loop, load, load.getVec(), load.getAccessDim());
        if (slice)
          rings.push_back({OperandLoad{load, std::move(*slice)}, SharedBufferType(), Value(), Value(), true});
      }
    // An asynchronous wgmma may still read slot n - 1 while another
    // warpgroup passes the top barrier of iteration n, so the copies of
    // tile n + D go to a slot of their own (D + 2 slots), or, where one slot
    // less lets one more program share an SM's shared memory, to slot n - 1
    // after a barrier that every warpgroup reaches once its wgmma of
    // iteration n - 1 is done.
    // The buffers of wgmma operands that are no ring loads, and others live
    // across the loop.
    // (B operands computed in the loop counted apart: their slots depend on
    // how the rings' slots are reused.)
    int64_t otherBytes = buffersLiveAcross(loop), storedBSlotBytes = 0;
    for (DotPlan &plan : plans) {
      if (plan.wgmma && plan.a < 0)
        if (auto [src, buffer] = stagedOperand(loop, plan.dot.getA()); src)
          otherBytes += buffer.getSlotBytes();
      if (plan.bSource) {
        int64_t bytes = operandBuffer(plan.bSource, 1, 0).getSlotBytes();
        (loop.isDefinedOutsideOfLoop(plan.bSource) ? otherBytes : storedBSlotBytes) += bytes;
      }
    }
    // Programs per SM that the wgmma accumulators' registers allow, counted
    // for a loop that writes a B each iteration: its fewer slots pay only
    // for a program that registers leave room for (not beside a 128x256
    // tile's 128 accumulators per thread at 8 warps). Rings alone are sized
    // by shared memory only.
    int64_t byRegisters = kThreadsPerSM;
    auto warps = loop->getParentOfType<ModuleOp>()->getAttrOfType<IntegerAttr>(kNumWarpsAttr);
    if (storedBSlotBytes && warps) {
      int64_t accumulators = 0;
      for (DotPlan &plan : plans)
        if (plan.wgmma)
          accumulators += accumulatorRegisters(plan.dot.getType());
      byRegisters = programsByRegisters(accumulators, warps.getInt() * kWarpSize);
    }
    // Other loads' rings read into registers before the last dot (where
    // they were loaded), in a loop with a wgmma dot: one slot fewer.
    Operation *lastDot = nullptr;
    for (DotPlan &plan : plans)
      if (Operation *d = loop.getBody()->findAncestorOpInBlock(*plan.dot); !lastDot || lastDot->isBeforeInBlock(d))
        lastDot = d;
    for (RingOperand &r : llvm::drop_begin(rings, operandRings))
      if (Operation *at = loop.getBody()->findAncestorOpInBlock(*r.op.load); anyWgmma && at && lastDot)
        r.readBeforeLastDot = at->isBeforeInBlock(lastDot);
    // The slots of the rings (wgmma operands' rings: `slots`; rings read
    // before the last dot: one fewer) and the bytes of one slot of each.
    int64_t slotBytes = 0, registerSlotBytes = 0, slots = 0, storedBSlots = kStoredBSlots;
    bool reuseAfterBarrier = false;
    auto sizeRings = [&] {
      slotBytes = registerSlotBytes = 0;
      for (RingOperand &r : rings)
        (r.readBeforeLastDot ? registerSlotBytes : slotBytes) += ringFor(r.op, 1).getSlotBytes();
      auto programsPerSM = [&](int64_t slots, int64_t bSlots) {
        return std::min(byRegisters, programsBySharedMemory(slots * slotBytes + (slots - 1) * registerSlotBytes +
                                                                bSlots * storedBSlotBytes + otherBytes,
                                                            sharedMemoryLimit));
      };
      reuseAfterBarrier = anyWgmma && programsPerSM(ahead + 1, kStoredBSlotsAfterBarrier) >
                                          programsPerSM(ahead + 2, kStoredBSlots);
      slots = ahead + (anyWgmma && !reuseAfterBarrier ? 2 : 1);
      storedBSlots = reuseAfterBarrier ? kStoredBSlotsAfterBarrier : kStoredBSlots;
    };
    auto ringBytes = [&] {
      return slots * slotBytes + (slots - 1) * registerSlotBytes + storedBSlots * storedBSlotBytes + otherBytes;
    };
    sizeRings();
    // Rings of other loads only where every buffer leaves an eighth of
    // shared memory free (the operands' buffers are bounded below), at fewer
    // tiles ahead where that lets them fit: a tile too large for two tiles
    // ahead beside the operands' rings (PTX/register-ring-one-ahead.blk's
    // f32 activations) is copied one tile ahead rather than loaded where it
    // is read.
    if (rings.size() > operandRings) {
      int64_t asked = ahead;
      while (ahead > 1 && ringBytes() > sharedMemoryLimit / 8 * 7) {
        --ahead;
        sizeRings();
      }
      if (ringBytes() > sharedMemoryLimit / 8 * 7) {
        ahead = asked;
        rings.resize(operandRings);
        sizeRings();
      }
    }
    // Fewer tiles ahead where the operands' rings do not fit beside the
    // other buffers.
    while (ahead > 1 && ringBytes() > sharedMemoryLimit) {
      --ahead;
      sizeRings();
    }
    if (plans.empty() && rings.empty())
      return;
    for (RingOperand &r : rings)
      r.type = ringFor(r.op, r.readBeforeLastDot ? slots - 1 : slots);
    // A wgmma's loop-invariant A is read from shared memory (as Triton
    // does): registers held across the loop would crowd out accumulators.
    // Staged while the loop's buffers leave an eighth of shared memory free.
    int64_t bytes = 0;
    for (RingOperand &r : rings)
      bytes += r.type.getSlots() * r.type.getSlotBytes();
    llvm::MapVector<Value, SharedBufferType> staged;
    for (DotPlan &plan : plans)
      if (plan.wgmma && plan.a < 0)
        if (auto [src, buffer] = stagedOperand(loop, plan.dot.getA()); src) {
          if (!staged.count(src) && bytes + buffer.getSlotBytes() > sharedMemoryLimit / 8 * 7)
            continue;
          if (staged.try_emplace(src, buffer).second)
            bytes += buffer.getSlotBytes();
          plan.staged = src;
        }
    for (DotPlan &plan : plans) {
      if (!plan.bSource)
        continue;
      if (loop.isDefinedOutsideOfLoop(plan.bSource)) {
        SharedBufferType buffer = operandBuffer(plan.bSource, 1, 0);
        if (staged.count(plan.bSource) || bytes + buffer.getSlotBytes() <= sharedMemoryLimit / 8 * 7) {
          if (staged.try_emplace(plan.bSource, buffer).second)
            bytes += buffer.getSlotBytes();
          continue;
        }
      } else if (SharedBufferType buffer = operandBuffer(plan.bSource, storedBSlots, 0);
                 bytes + buffer.getSlots() * buffer.getSlotBytes() <= sharedMemoryLimit / 8 * 7) {
        plan.bStoredType = buffer;
        bytes += buffer.getSlots() * buffer.getSlotBytes();
        continue;
      }
      // No room: mma.sync reads B from registers, and an 8-bit A from
      // registers too (read back from its ring where it was loaded, unless
      // another dot reads that ring directly).
      plan.bSource = Value();
      plan.wgmma = false;
      if (plan.a >= 0 && plan.dot.getA().getType().getElementTypeBitWidth() == 8 &&
          llvm::none_of(plans, [&](const DotPlan &other) {
            return &other != &plan && (other.a == plan.a || other.b == plan.a);
          })) {
        rings[plan.a].registers = true;
        plan.a = -1;
      }
    }
    stage(staged);

    // The advances' offsets are scaled in front of the loop, and operand
    // conversions of values defined before it happen there once.
    for (RingOperand &r : rings)
      for (const Advance &adv : r.op.slice.advances)
        hoistInvariant(loop, adv.step);
    for (DotPlan &plan : plans)
      for (auto [index, operand] : {std::pair{plan.staged ? 0 : plan.a, plan.dot.getA()}, std::pair{plan.b, plan.dot.getB()}})
        if (index < 0)
          if (auto convert = operand.getDefiningOp<ConvertLayoutOp>();
              convert && convert->getBlock() == loop.getBody() && loop.isDefinedOutsideOfLoop(convert.getSrc()))
            convert->moveBefore(loop);

    Location loc = loop.getLoc();
    OpBuilder b(loop);
    Type i32 = b.getI32Type();
    auto i32Const = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantOp::create(ob, loc, IntegerAttr::get(i32, v));
    };
    bool anyCpAsync = false;
    for (RingOperand &r : rings) {
      r.buf = LocalAllocOp::create(b, loc, r.type);
      // One mbarrier per slot for each operand TMA copies.
      if (r.op.tma())
        r.bars = MBarrierAllocOp::create(b, loc, BarriersType::get(b.getContext(), slots), IntegerAttr());
      else
        anyCpAsync = true;
    }
    // TMA rings alone, read by wgmma: the readers of a slot release it on an
    // empty mbarrier (one arrival per warp) and the issuing warp waits for
    // that before copying into the slot again, instead of barriers of every
    // thread each iteration, so that warpgroups need not run in step.
    // Asked for warp specialization, such a loop's copies go to a producer
    // warpgroup (producerSlice: what it computes again of the consumers'
    // values).
    Value empty;
    auto numWarps = loop->getParentOfType<ModuleOp>()->getAttrOfType<IntegerAttr>(kNumWarpsAttr);
    // Asked for on the loop or on a loop around it (Triton's persistent
    // matmul marks its loop over tiles).
    bool askedToSpecialize = warpSpecialize;
    for (Operation *op = loop; op && !isa<func::FuncOp>(op); op = op->getParentOp())
      askedToSpecialize |= isa<scf::ForOp>(op) && op->hasAttr(kWarpSpecializeAttr);
    std::optional<ScalarSlice> producerSlice;
    if ((releaseSlots || askedToSpecialize) && anyWgmma && !anyCpAsync && numWarps &&
        llvm::none_of(plans, [](const DotPlan &plan) { return bool(plan.bStoredType); })) {
      if (askedToSpecialize)
        producerSlice = specializable(loop, rings, numWarps.getInt(), sharedMemoryLimit);
      if (releaseSlots || producerSlice)
        empty = MBarrierAllocOp::create(b, loc, BarriersType::get(b.getContext(), slots),
                                        b.getI64IntegerAttr(numWarps.getInt()));
    }
    // Staged A operands: written once, then visible to the async proxy
    // (wgmma) and to every warpgroup.
    for (DotPlan &plan : plans) {
      if (plan.staged)
        std::tie(plan.aBuf, plan.aSlot) = stagedBuffers.lookup(plan.staged);
      if (plan.bStoredType)
        plan.bBuf = LocalAllocOp::create(b, loc, plan.bStoredType);
      else if (plan.bSource)
        std::tie(plan.bBuf, plan.bSlot) = stagedBuffers.lookup(plan.bSource);
    }
    // Each advance's offset for k iterations, computed once.
    llvm::DenseMap<std::pair<Value, int64_t>, Value> scaled;
    auto offsetTimes = [&](Value step, int64_t k) -> Value {
      Value &v = scaled[{step, k}];
      if (!v) {
        OpBuilder ob(loop);
        v = scaleStep(ob, loc, step, k);
      }
      return v;
    };

    // Copies of every ring's tile of iteration `iv`, k iterations after the
    // one whose iter args `args` hold, masked by iterationMask; one group.
    // The rings' slices share one mapping: what two tiles' pointers share
    // (an index read through a page table) is computed once.
    // `slotOf(r)`: the slot of ring r the tile goes to.
    auto copyAll = [&](OpBuilder &ob, function_ref<Value(const RingOperand &)> slotOf, Value iv, int64_t k,
                       ValueRange args, Value from) {
      IRMapping map;
      Value inRange;
      for (RingOperand &r : rings) {
        const OperandLoad &op = r.op;
        if (!inRange && llvm::any_of(op.slice.ops, [](Operation *o) { return isa<LoadOp>(o); }))
          inRange = iterationGuard(ob, loc, loop, iv, from);
        cloneIteration(
            ob, loop, op.slice, iv,
            [&](const Advance &adv) -> Value {
              Value at = args[adv.arg.getArgNumber() - 1];
              return k ? advanceBy(ob, loc, at, offsetTimes(adv.step, k)) : at;
            },
            map, inRange);
        if (DescriptorLoadOp tma = op.tma()) {
          SmallVector<Value> offsets;
          for (Value o : tma.getOffsets())
            offsets.push_back(map.lookupOrDefault(o));
          Value pred = iterationMask(ob, loc, loop, iv, from, ob.getI1Type(), Value());
          AsyncTMACopyOp::create(ob, loc, tma.getDesc(), offsets, r.buf, slotOf(r), r.bars, pred);
          continue;
        }
        auto load = cast<LoadOp>(op.load);
        Value mask = iterationMask(ob, loc, loop, iv, from, load.getPtr().getType(),
                                   load.getMask() ? map.lookupOrDefault(load.getMask()) : Value());
        AsyncCopyOp::create(ob, loc, map.lookupOrDefault(load.getPtr()), mask, r.buf, slotOf(r), load.getVec());
      }
      if (anyCpAsync)
        AsyncCommitGroupOp::create(ob, loc);
    };

    // The prologue (the producer's, when there is one).
    ValueRange inits = loop.getInitArgs();
    for (int64_t k = 0; k < (producerSlice ? 0 : ahead); ++k) {
      Value iv = k ? arith::AddIOp::create(b, loc, loop.getLowerBound(), stepsOf(b, loc, loop, k)).getResult()
                   : loop.getLowerBound();
      Value slot = i32Const(b, k); // k < every ring's slots
      copyAll(b, [&](const RingOperand &) { return slot; }, iv, k, inits, k ? loop.getLowerBound() : Value());
    }

    // In a loop over tiles with a producer warpgroup, the tiles count on
    // across its trips: it carries the count of the trips before.
    Value tilesBefore;
    scf::ForOp outer = producerSlice ? outerLoopOf(loop) : scf::ForOp();
    if (outer) {
      IRRewriter rewriter(loop.getContext());
      rewriter.setInsertionPoint(outer);
      Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
      FailureOr<LoopLikeOpInterface> counted = outer.replaceWithAdditionalYields(
          rewriter, ValueRange{zero}, /*replaceInitOperandUsesInLoop=*/false,
          [&](OpBuilder &yb, Location yl, ArrayRef<BlockArgument> args) -> SmallVector<Value> {
            Value trips = tripCount(yb, yl, loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
            return {arith::AddIOp::create(yb, yl, args[0], trips).getResult()};
          });
      outer = cast<scf::ForOp>(counted->getOperation());
      tilesBefore = outer.getRegionIterArgs().back();
    }

    // The body: wait for this iteration's tiles at the top.
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    Value iv = loop.getInductionVar();
    Value n = tripIndex(body, loc, iv, loop.getLowerBound(), stepsOf(body, loc, loop, 1));
    if (tilesBefore)
      n = arith::AddIOp::create(body, loc, tilesBefore, n);
    // Tile n + k's slot in a ring of `s` slots (by default `slots`), and the
    // parity of the phase its barrier completes for it.
    auto tileSlot = [&](int64_t k, int64_t s = 0) -> Value {
      Value sv = i32Const(body, s ? s : slots);
      Value t = k ? arith::AddIOp::create(body, loc, n, i32Const(body, k)).getResult() : n;
      return arith::RemUIOp::create(body, loc, t, sv);
    };
    auto tileParity = [&](int64_t k, int64_t s = 0) -> Value {
      Value one = i32Const(body, 1), sv = i32Const(body, s ? s : slots);
      Value t = k ? arith::AddIOp::create(body, loc, n, i32Const(body, k)).getResult() : n;
      return arith::AndIOp::create(body, loc, arith::DivUIOp::create(body, loc, t, sv), one);
    };
    Value slot = tileSlot(0), nextSlot = tileSlot(ahead);
    // This iteration's slot and the one tile n + D goes to, per ring size
    // (rings read into registers have a slot fewer), here where every use
    // of them follows.
    llvm::SmallDenseMap<int64_t, std::pair<Value, Value>> slotsBySize{{slots, {slot, nextSlot}}};
    for (RingOperand &r : rings)
      if (!slotsBySize.count(r.type.getSlots()))
        slotsBySize[r.type.getSlots()] = {tileSlot(0, r.type.getSlots()), tileSlot(ahead, r.type.getSlots())};
    auto slotOf = [&](const RingOperand &r) { return slotsBySize.lookup(r.type.getSlots()).first; };
    auto nextSlotOf = [&](const RingOperand &r) { return slotsBySize.lookup(r.type.getSlots()).second; };
    Value storedBSlot;
    if (llvm::any_of(plans, [](const DotPlan &plan) { return bool(plan.bStoredType); }))
      storedBSlot = arith::RemUIOp::create(body, loc, n, i32Const(body, storedBSlots));
    if (anyCpAsync) {
      AsyncWaitOp::create(body, loc, ahead - 1);
      // The copies wrote through the generic proxy: fenced for wgmma here
      // where a wgmma reads such a ring (rings only read into registers
      // need no fence), unless the iteration's first wgmma writes its B
      // first, whose fence (after this wait, before any wgmma) orders them
      // as well.
      auto copiedByThreads = [&](int index) { return index >= 0 && !rings[index].op.tma(); };
      bool wgmmaReadsCopies = llvm::any_of(
          plans, [&](const DotPlan &plan) { return plan.wgmma && (copiedByThreads(plan.a) || copiedByThreads(plan.b)); });
      auto firstWgmma = llvm::find_if(plans, [](const DotPlan &plan) { return plan.wgmma; });
      if (wgmmaReadsCopies && firstWgmma != plans.end() && !firstWgmma->bStoredType)
        FenceAsyncSharedOp::create(body, loc);
    }
    if (llvm::any_of(rings, [](const RingOperand &r) { return bool(r.bars); })) {
      Value phase = tileParity(0);
      for (RingOperand &r : rings)
        if (r.bars)
          MBarrierWaitOp::create(body, loc, r.bars, slotOf(r),
                                 r.type.getSlots() == slots ? phase : tileParity(0, r.type.getSlots()));
    }
    Operation *top = nullptr; // where copies go in a loop without dots
    if (!empty) // cp.async data of other threads, and slots no warpgroup still reads (TMA overwrites them next)
      top = BarrierOp::create(body, loc);
    // The other loads read this iteration's slot where they were loaded;
    // cp.async filled zeros where the mask is off, `other` goes there.
    for (RingOperand &r : rings) {
      if (!r.registers)
        continue;
      auto load = cast<LoadOp>(r.op.load);
      OpBuilder at(load);
      bool selected = load.getMask() && !isZeroOrAbsent(load.getOther());
      // A wgmma B written into shared memory each iteration is then this
      // tile; an 8-bit one is read back in the layout whose moves through
      // shared memory cost least (readBackType).
      DotPlan *stored = nullptr;
      for (DotPlan &plan : plans)
        if (plan.bSource == load.getResult() && plan.bStoredType)
          stored = &plan;
      RankedTensorType packed = stored && !selected ? readBackType(cast<RankedTensorType>(load.getType()), r.type,
                                                                   stored->bStoredType, load.getVec())
                                                    : RankedTensorType();
      // A tile only scaled and rounded into a wgmma's register A is read back
      // in A's layout: no move through shared memory each iteration.
      auto [chain, toA] = packed || selected ? std::pair{SmallVector<Operation *>(), ConvertLayoutOp()}
                                             : chainToRegisterA(load.getResult());
      Attribute aLayout = toA ? toA.getType().getEncoding() : Attribute();
      RankedTensorType readType = packed ? packed : cast<RankedTensorType>(load.getType());
      if (aLayout)
        readType = RankedTensorType::get(readType.getShape(), readType.getElementType(), aLayout);
      // Only threads touch this ring: arranged for their copies and reads
      // where the tensor-core arrangement makes them meet in banks (rows
      // of f32 activations read back as a wgmma register A).
      if (SharedBufferType arranged =
              threadArrangedRing(r.type, cast<RankedTensorType>(load.getType()), load.getVec(), readType)) {
        r.type = arranged;
        r.buf.setType(arranged);
      }
      Value tile = LocalLoadOp::create(at, load.getLoc(), readType, r.buf, slotOf(r));
      if (aLayout) {
        Value last = tile;
        for (Operation *op : chain) {
          for (OpOperand &use : op->getOpOperands())
            if (use.get() != load.getResult() && use.get() != last)
              use.set(inLayout(use.get(), aLayout, op));
          for (OpOperand &use : op->getOpOperands())
            if (use.get() == load.getResult())
              use.set(last);
          auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
          op->getResult(0).setType(RankedTensorType::get(resultType.getShape(), resultType.getElementType(), aLayout));
          last = op->getResult(0);
        }
        toA.getResult().replaceAllUsesWith(last);
        toA.erase();
        continue; // the load, now unused, goes with the others below
      }
      Value packedTile = packed ? tile : Value();
      if (packed)
        tile = ConvertLayoutOp::create(at, load.getLoc(), load.getType(), tile);
      if (selected)
        tile = arith::SelectOp::create(at, load.getLoc(), load.getMask(), tile, load.getOther());
      load.getResult().replaceAllUsesWith(tile);
      for (DotPlan &plan : plans)
        if (plan.bSource == load.getResult())
          plan.bSource = packedTile ? packedTile : tile;
    }

    // Each dot reads its rings' slots; the last one is followed by the
    // copies of tile n + D, so that they overlap the dots.
    SmallVector<BlockArgument> carriedAccs; // iter args of wgmma results the loop carries
    SmallVector<BlockArgument> inFlight;    // those of them no wait in their iteration completes
    // For each of those, the op of the body that writes its register A (null:
    // A is in shared memory or defined before the loop). wgmma reads register
    // A asynchronously: it must be complete before that op runs again.
    llvm::DenseMap<BlockArgument, Operation *> aWriter;
    Operation *last = nullptr;
    for (DotPlan &plan : plans) {
      DotOp dot = plan.dot;
      body.setInsertionPoint(dot);
      // A ring's buffer as the dot reads it: as loaded, or transposed.
      auto ringView = [&](int index, bool transposed) -> Value {
        Value buf = rings[index].buf;
        return transposed ? LocalTransOp::create(body, loc, buf).getResult() : buf;
      };
      auto operand = [&](int index, bool transposed, Value value) -> Value {
        return index < 0 ? value
                         : LocalLoadOp::create(body, loc, value.getType(), ringView(index, transposed),
                                               slotOf(rings[index]))
                               .getResult();
      };
      Value result;
      if (plan.wgmma) {
        // The iter arg the loop carries the result into, when the yield is
        // the result's only use.
        BlockArgument yieldedInto;
        if (dot->hasOneUse() && isa<scf::YieldOp>(*dot->getUsers().begin()))
          yieldedInto = loop.getRegionIterArgs()[dot->getUses().begin()->getOperandNumber()];
        // A dot accumulating into that iter arg overlaps the next iteration
        // with one group pending; any other carried result stays in flight
        // until the next iteration's first complete wait (attention's PV).
        bool carried = yieldedInto && dot.getAcc() == yieldedInto;
        Value bView, bSlot;
        if (plan.b >= 0) {
          bView = ringView(plan.b, plan.bTransposed), bSlot = slotOf(rings[plan.b]);
        } else if (plan.bStoredType) {
          // This iteration's B, visible to the async proxy and to every
          // warpgroup before the wgmma reads it.
          LocalStoreOp::create(body, loc, plan.bSource, plan.bBuf, storedBSlot);
          FenceAsyncSharedOp::create(body, loc);
          BarrierOp::create(body, loc);
          bView = plan.bBuf, bSlot = storedBSlot;
        } else {
          bView = plan.bBuf, bSlot = plan.bSlot;
        }
        Value issued = plan.a >= 0 ? WarpGroupDotOp::create(body, loc, dot.getType(), ringView(plan.a, plan.aTransposed),
                                                            slotOf(rings[plan.a]), bView, bSlot, dot.getAcc())
                       : plan.aBuf ? WarpGroupDotOp::create(body, loc, dot.getType(), plan.aBuf, plan.aSlot, bView,
                                                            bSlot, dot.getAcc())
                                   : WarpGroupDotOp::create(body, loc, dot.getType(), dot.getA(), Value(), bView,
                                                            bSlot, dot.getAcc());
        // A register A written in the body each iteration must not change
        // while this dot still reads it: one left pending into the next
        // iteration would.
        Operation *aDef = plan.a < 0 && !plan.aBuf ? dot.getA().getDefiningOp() : nullptr;
        Operation *aWrite = aDef ? loop.getBody()->findAncestorOpInBlock(*aDef) : nullptr;
        if (yieldedInto && !carried) {
          result = issued;
          inFlight.push_back(yieldedInto);
          aWriter[yieldedInto] = aWrite;
        } else {
          // Pending across the loop edge only where a complete wait comes
          // first in the body, before A is written again.
          bool aSafe = completeWaitBefore(loop.getBody(), aWrite);
          result = WarpGroupDotWaitOp::create(body, loc, ValueRange{issued}, carried && aSafe ? 1 : 0).getResult(0);
          if (carried)
            carriedAccs.push_back(yieldedInto);
        }
      } else {
        Value a = operand(plan.a, plan.aTransposed, dot.getA());
        Value b = operand(plan.b, plan.bTransposed, dot.getB());
        result = DotOp::create(body, loc, dot.getType(), a, b, dot.getAcc(), dot.getMmaAttr(),
                               dot.getInputPrecisionAttr());
      }
      last = result.getDefiningOp();
      dot.getResult().replaceAllUsesWith(result);
    }
    for (BlockArgument accArg : inFlight) {
      Operation *issue = yieldedDefinition(loop, accArg);
      if (std::optional<int32_t> since = dotsIssued(loop.getBody(), issue->getNextNode(), loop.getBody()->getTerminator());
          since && readAfter(accArg, issue)) {
        // The iter arg is still read after the next value is issued, so the
        // two live in different registers and the loop edge copies one into
        // the other: a copy ptxas sees reading an accumulator in flight, for
        // which it serializes every wgmma (C7514). The value is waited for
        // in front of the yield instead, the groups issued since pending.
        body.setInsertionPoint(loop.getBody()->getTerminator());
        auto done = WarpGroupDotWaitOp::create(body, loc, ValueRange{issue->getResult(0)}, *since);
        issue->getResult(0).replaceAllUsesExcept(done.getResult(0), done);
        continue;
      }
      // The next iteration's first complete wait, which carries it, must
      // come before its register A is written again.
      bool waitsBeforeA = completeWaitBefore(loop.getBody(), aWriter.lookup(accArg));
      if (!waitsBeforeA || (!waitInNextIteration(loop, accArg, last) && !waitWhereRead(loop, accArg, issue, last))) {
        // Not countable: wait right after the issue.
        body.setInsertionPointAfter(issue);
        auto done = WarpGroupDotWaitOp::create(body, loc, ValueRange{issue->getResult(0)}, 0);
        issue->getResult(0).replaceAllUsesExcept(done.getResult(0), done);
        if (last == issue)
          last = done;
      }
      carriedAccs.push_back(accArg);
    }
    // The tiles `ahead` iterations on, after the last dot, or where no dot
    // reads rings, as soon as every thread is done with the slot they fill
    // (read in the last iteration, before the barrier at the top).
    body.setInsertionPointAfter(last ? last : top);
    if (empty) {
      // Here every wgmma of iteration n - 1 is done in this warp: it
      // releases tile n - 1's slot ((n + S - 1) % S). The copies go to tile
      // t = n + D - S's slot, released in the t / S-th phase of its barrier:
      // parity of tile n + D's phase, flipped, which passes at once where
      // t < 0 (a slot not used yet).
      Value released = arith::CmpIOp::create(body, loc, arith::CmpIPredicate::sge, n, i32Const(body, 1));
      MBarrierArriveOp::create(body, loc, empty, tileSlot(slots - 1), released);
      if (!producerSlice) {
        Value parity = arith::XOrIOp::create(body, loc, tileParity(ahead), i32Const(body, 1));
        MBarrierWaitOp::create(body, loc, empty, nextSlot, parity, /*issuer=*/true);
      }
    } else if (reuseAfterBarrier) {
      BarrierOp::create(body, loc);
    }
    if (producerSlice) {
      buildProducer(loop, rings, empty, slots, numWarps.getInt(), *producerSlice);
    } else {
      Value future = arith::AddIOp::create(body, loc, iv, stepsOf(body, loc, loop, ahead));
      copyAll(body, nextSlotOf, future, ahead, loop.getRegionIterArgs(), iv);
    }

    // The dots, then what led from their ring loads (or staged blocks) to
    // them: conversions and transposes no one else reads.
    for (DotPlan &plan : plans) {
      SmallVector<Operation *> chain;
      for (auto [read, operand] : {std::pair{plan.a >= 0 || bool(plan.staged), plan.dot.getA()},
                                   std::pair{plan.b >= 0 || bool(plan.bSource), plan.dot.getB()}})
        for (Operation *op = read ? operand.getDefiningOp() : nullptr; op && isa<ConvertLayoutOp, TransOp>(op);
             op = op->getOperand(0).getDefiningOp())
          chain.push_back(op);
      plan.dot.erase();
      for (Operation *op : chain)
        if (op->use_empty())
          op->erase();
    }
    for (RingOperand &r : rings)
      r.op.load->erase();
    // What computed only the erased loads' pointers and masks goes too:
    // canonicalization would drop the pure ops later, but not an index
    // load, whose lowering is kept for its side effects.
    llvm::SmallPtrSet<Operation *, 32> sliceOps;
    for (RingOperand &r : rings)
      sliceOps.insert(r.op.slice.ops.begin(), r.op.slice.ops.end());
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*loop.getBody())))
      if (sliceOps.contains(&op) && op.use_empty())
        op.erase();

    sinkWaitsToReaders(loop.getBody());

    // After the loop: the last wgmma done, stray copies (masked, past the
    // bound) landed before the memory is reused.
    OpBuilder after(loop->getContext());
    after.setInsertionPointAfter(loop);
    for (BlockArgument accArg : carriedAccs) {
      Value final = loop.getResult(accArg.getArgNumber() - 1);
      auto done = WarpGroupDotWaitOp::create(after, loc, ValueRange{final}, 0);
      final.replaceAllUsesExcept(done.getResult(0), done);
    }
    if (anyCpAsync)
      AsyncWaitOp::create(after, loc, 0);
    BarrierOp::create(after, loc);
    // Every TMA copy issued was waited for in its iteration; the barriers'
    // memory may hold other data once retired (after the loop over tiles,
    // whose later trips use them again).
    if (outer) {
      after.setInsertionPointAfter(outer);
      BarrierOp::create(after, loc);
    }
    for (RingOperand &r : rings)
      if (r.bars)
        MBarrierInvalOp::create(after, loc, r.bars);
    if (empty)
      MBarrierInvalOp::create(after, loc, empty);
    if (empty && pingPong)
      takeTurns(loop); // `close` goes right after the loop, before all of the above
  }
};

} // namespace
} // namespace blk
