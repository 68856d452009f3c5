// Load pipelining in registers. A loop
//   for i in range(lb, ub, step): x = load(p(i), m(i)); ...x...
// becomes, with S stages,
//   x_0 .. x_{S-2} = load(p(lb + k step), m(...) & (lb + k step < ub))
//   for i with (q_0 .. q_{S-2}) carried:
//     n = i + (S-1) step; x_new = load(p(n), m(n) & (n < ub))
//     ...q_0...; yield q_1 .. q_{S-2}, x_new
// so a load is in flight while earlier iterations compute. A pointer or
// counter the loop advances (p += d each iteration) is read at p + k d, k
// iterations on.
// In a loop with tensor-core dots, the 2-D loads cp.async can copy go
// through shared-memory rings instead (blk-pipeline-dot): carried in
// registers, a block of 8- or 16-bit elements is unpacked where it is
// loaded, which waits for the load in its own iteration. So do the loads
// that address other loads (indices), which blk-pipeline-dot issues ahead
// with the tiles they address. In a loop without such dots, so do tiles
// too large to carry (stagedWithoutDots: a [1024, 16] f32 tile takes 128
// registers in each thread of 4 warps for each iteration ahead).
#include "blk/Analysis/AxisInfo.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "LoopSlice.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKPIPELINELOADSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// Whether `load` is a dot operand: blk-pipeline-dot stages those through
/// shared memory instead.
bool feedsDot(LoadOp load) {
  return llvm::any_of(load->getUsers(), [](Operation *user) { return isa<DotOp>(user); });
}

/// Whether `load`'s value is broadcast (reaches an expand_dims through
/// elementwise ops) in a loop with a dot. In the broadcast's layout each
/// element has copies in many threads (a row statistic read along an
/// accumulator's columns): carried S-1 iterations ahead it would hold S-1
/// times those registers next to the accumulators, and the dot's
/// asynchronous work covers its latency when it is issued in its own
/// iteration.
bool broadcastInDotLoop(LoadOp load, scf::ForOp loop) {
  if (!loop.getBody()->walk([](DotOp) { return WalkResult::interrupt(); }).wasInterrupted())
    return false;
  SmallVector<Value> work{load.getResult()};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<ExpandDimsOp>(user))
        return true;
      if ((user->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(user)) && seen.insert(user).second)
        llvm::append_range(work, user->getResults());
    }
  }
  return false;
}

/// Whether `load`'s value reaches the pointer of another load of `loop`'s
/// body through pure ops (an index read through a page table) that
/// `copied` says cp.async can copy: in a loop with a tensor-core dot,
/// blk-pipeline-dot issues such an index load ahead with the tiles it
/// addresses, which a loop-carried index would keep in their own iteration.
bool addressesCopiedLoad(LoadOp load, scf::ForOp loop, llvm::function_ref<bool(LoadOp)> copied) {
  SmallVector<Value> work{load.getResult()};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != loop.getBody())
        continue;
      if (auto other = dyn_cast<LoadOp>(user); other && use.get() == other.getPtr()) {
        if (copied(other))
          return true;
        continue;
      }
      if (user->getNumRegions() == 0 && isMemoryEffectFree(user) && seen.insert(user).second)
        llvm::append_range(work, user->getResults());
    }
  }
  return false;
}

/// `load` again for iteration `iv` = `from` + a positive offset, its mask
/// and-ed with the iteration's guard (iterationMask); `argAt` gives each
/// advanced pointer's value in that iteration.
Value issueLoad(OpBuilder &b, scf::ForOp loop, LoadOp load, const IterationSlice &slice, Value iv, Value from,
                llvm::function_ref<Value(const Advance &)> argAt) {
  Location loc = load.getLoc();
  IRMapping map;
  cloneIteration(b, loop, slice, iv, argAt, map);
  Value mask = iterationMask(b, loc, loop, iv, from, load.getPtr().getType(),
                             load.getMask() ? map.lookupOrDefault(load.getMask()) : Value());
  Value other = load.getOther() ? map.lookupOrDefault(load.getOther()) : Value();
  auto copy = LoadOp::create(b, loc, load.getType(), map.lookupOrDefault(load.getPtr()), mask, other, load.getVec(),
                             load.getVecDimAttr(), load.getEvict());
  return copy.getResult();
}

struct PipelineLoads : impl::BlkPipelineLoadsPassBase<PipelineLoads> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); }); // inner loops first
    // Decided before any loop changes: the accesses' vector widths (as
    // blk-vectorize-memory will set them) say which loads beside a dot
    // cp.async can copy, and, in a loop without such a dot, which tiles too
    // large to carry in registers it copies instead. The analysis runs only
    // for modules with a loop that loads.
    std::optional<AxisInfoAnalysis> axis;
    for (scf::ForOp loop : loops) {
      unsigned stages = loopStages(loop, numStages);
      if (stages <= 1)
        continue;
      bool withDots = llvm::any_of(loop.getBody()->getOps<DotOp>(), ringReader);
      if (!withDots && loop.getBody()->getOps<LoadOp>().empty())
        continue;
      if (!axis)
        axis.emplace(getOperation());
      auto access = [&](LoadOp load) {
        unsigned dim = axis->contiguousDim(load.getPtr());
        return std::pair{axis->accessVectorWidth(load.getPtr(), load.getMask(), dim), dim};
      };
      if (!withDots) {
        for (auto load : loop.getBody()->getOps<LoadOp>()) {
          auto [vec, dim] = access(load);
          if (stagedWithoutDots(loop, load, vec, dim, stages, int64_t(numWarps) * 32, sharedMemoryLimit))
            leftToRings.insert(load);
        }
        continue;
      }
      auto copied = [&](LoadOp load) {
        auto tile = dyn_cast<RankedTensorType>(load.getType());
        auto [vec, dim] = access(load);
        return tile && cpAsyncRing(tile, dim, vec, 1);
      };
      for (auto load : loop.getBody()->getOps<LoadOp>()) {
        auto [vec, dim] = access(load);
        if (stagedBesideDots(loop, load, vec, dim) || addressesCopiedLoad(load, loop, copied))
          leftToRings.insert(load);
      }
    }
    for (scf::ForOp loop : loops)
      pipeline(loop);
    leftToRings.clear();
  }

  /// Loads blk-pipeline-dot stages through shared memory or issues ahead
  /// with the tiles they address.
  llvm::DenseSet<Operation *> leftToRings;

  void pipeline(scf::ForOp loop) {
    unsigned stages = loopStages(loop, numStages);
    if (stages <= 1 || !countableLoop(loop) || loadsMustWait(loop))
      return;
    SmallVector<std::pair<LoadOp, IterationSlice>> loads;
    for (Operation &op : *loop.getBody())
      if (auto load = dyn_cast<LoadOp>(op);
          load && !feedsDot(load) && !broadcastInDotLoop(load, loop) && !leftToRings.contains(load))
        if (auto slice = iterationSlice(loop, load->getOperands(), /*allowAdvances=*/true))
          loads.push_back({load, std::move(*slice)});
    if (loads.empty())
      return;
    unsigned ahead = stages - 1;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto offset = [&](OpBuilder &ob, Value base, unsigned k) -> Value {
      if (k == 0)
        return base;
      return arith::AddIOp::create(ob, loc, base, stepsOf(ob, loc, loop, k));
    };
    // A pointer or counter the loop advances (p += step each iteration) is
    // p + k step k iterations on; the steps are loop-invariant, scaled once in front of
    // the loop (before it is replaced, while the body's loads are issued).
    llvm::DenseMap<std::pair<Value, unsigned>, Value> scaled;
    OpBuilder front(loop);
    // The distance to the iteration each one loads for, scaled once in
    // front of the loop (a runtime step: a multiply per loop, not per
    // iteration).
    Value aheadSteps = stepsOf(front, loc, loop, ahead);
    for (auto &[load, slice] : loads)
      for (const Advance &adv : slice.advances) {
        hoistInvariant(loop, adv.step);
        for (unsigned k = 1; k <= ahead; ++k) {
          Value &times = scaled[{adv.step, k}];
          if (!times)
            times = scaleStep(front, loc, adv.step, k);
        }
      }
    auto advanced = [&](OpBuilder &ob, Value ptr, Value step, unsigned k) -> Value {
      return k ? advanceBy(ob, loc, ptr, scaled.lookup({step, k})) : ptr;
    };
    // The prologue: iterations lb .. lb + (ahead - 1) step.
    SmallVector<Value> inits;
    for (auto &[load, slice] : loads)
      for (unsigned k = 0; k < ahead; ++k)
        inits.push_back(issueLoad(b, loop, load, slice, offset(b, loop.getLowerBound(), k),
                                  k ? loop.getLowerBound() : Value(), [&](const Advance &adv) {
                                    Value init = loop.getInitArgs()[adv.arg.getArgNumber() - 1];
                                    return advanced(b, init, adv.step, k);
                                  }));
    // The new loop keeps the source's marks (num_stages, warp_specialize).
    DictionaryAttr marks = loop->getDiscardableAttrDictionary();
    IRRewriter rewriter(loop);
    auto newYields = [&](OpBuilder &ob, Location, ArrayRef<BlockArgument> queues) {
      // Called before the body moves into the new loop: the fresh loads go at
      // the top of the old body, which then moves with them.
      SmallVector<Value> yields;
      OpBuilder::InsertionGuard guard(ob);
      ob.setInsertionPointToStart(loop.getBody());
      Value iv = loop.getInductionVar();
      Value next = arith::AddIOp::create(ob, loc, iv, aheadSteps);
      for (auto [i, entry] : llvm::enumerate(loads)) {
        auto &[load, slice] = entry;
        ArrayRef<BlockArgument> queue = queues.slice(i * ahead, ahead);
        Value fresh = issueLoad(ob, loop, load, slice, next, iv, [&](const Advance &adv) {
          return advanced(ob, adv.arg, adv.step, ahead);
        });
        load.getResult().replaceAllUsesWith(queue[0]);
        for (unsigned k = 1; k < ahead; ++k)
          yields.push_back(queue[k]);
        yields.push_back(fresh);
      }
      return yields;
    };
    FailureOr<LoopLikeOpInterface> pipelined =
        loop.replaceWithAdditionalYields(rewriter, inits, /*replaceInitOperandUsesInLoop=*/false, newYields);
    if (failed(pipelined))
      return;
    (*pipelined)->setDiscardableAttrs(marks);
    for (auto &entry : loads)
      entry.first.erase();
  }
};
} // namespace
} // namespace blk
