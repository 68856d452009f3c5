// Load pipelining in registers. A loop
//   for i in range(lb, ub, step): x = load(p(i), m(i)); ...x...
// becomes, with S stages,
//   x_0 .. x_{S-2} = load(p(lb + k step), m(...) & (lb + k step < ub))
//   for i with (q_0 .. q_{S-2}) carried:
//     n = i + (S-1) step; x_new = load(p(n), m(n) & (n < ub))
//     ...q_0...; yield q_1 .. q_{S-2}, x_new
// so a load is in flight while earlier iterations compute.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKPIPELINELOADSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// Whether anything in `loop` (nested ops included) writes memory.
bool writesMemory(scf::ForOp loop) {
  WalkResult r = loop.getBody()->walk([](Operation *op) {
    if (isa<StoreOp, AtomicRMWOp, AtomicCASOp, PrintOp, AssertOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// Whether `load` is a dot operand: blk-pipeline-dot stages those through
/// shared memory instead.
bool feedsDot(LoadOp load) {
  return llvm::any_of(load->getUsers(), [](Operation *user) { return isa<DotOp>(user); });
}

/// The ops of `loop`'s body that compute `load`'s operands, in body order,
/// when they depend only on the induction variable and values defined
/// outside the loop (and are pure, without regions); else nothing.
std::optional<SmallVector<Operation *>> addressSlice(scf::ForOp loop, LoadOp load) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(load->getOperands());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == loop.getBody())
        return std::nullopt; // a loop-carried value
      continue;              // defined outside (an argument of an enclosing block)
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      continue; // defined outside the loop
    if (def->getBlock() != loop.getBody() || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered;
  for (Operation &op : *loop.getBody())
    if (slice.contains(&op))
      ordered.push_back(&op);
  return ordered;
}

/// `load` again for iteration `iv` = `from` + a positive offset, its mask
/// and-ed with `iv < ub` and, when `from` is given, `iv > from` (an offset
/// that wrapped around past the type's maximum loads nothing).
Value issueLoad(OpBuilder &b, scf::ForOp loop, LoadOp load, ArrayRef<Operation *> slice, Value iv, Value from) {
  Location loc = load.getLoc();
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  for (Operation *op : slice)
    b.clone(*op, map);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, loop.getUpperBound());
  if (from)
    inRange = arith::AndIOp::create(b, loc, inRange,
                                    arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, iv, from));
  Value mask = inRange;
  if (auto t = dyn_cast<RankedTensorType>(load.getPtr().getType()))
    mask = SplatOp::create(b, loc, RankedTensorType::get(t.getShape(), b.getI1Type()), inRange);
  if (load.getMask())
    mask = arith::AndIOp::create(b, loc, map.lookupOrDefault(load.getMask()), mask);
  Value other = load.getOther() ? map.lookupOrDefault(load.getOther()) : Value();
  auto copy = LoadOp::create(b, loc, load.getType(), map.lookupOrDefault(load.getPtr()), mask, other, load.getVec(),
                             load.getVecDimAttr(), load.getEvict());
  return copy.getResult();
}

struct PipelineLoads : impl::BlkPipelineLoadsPassBase<PipelineLoads> {
  using Base::Base;

  void runOnOperation() override {
    if (numStages <= 1)
      return;
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); }); // inner loops first
    for (scf::ForOp loop : loops)
      pipeline(loop);
  }

  void pipeline(scf::ForOp loop) {
    APInt step;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) || !step.isStrictlyPositive() || loop.getUnsignedCmp() ||
        writesMemory(loop))
      return;
    SmallVector<std::pair<LoadOp, SmallVector<Operation *>>> loads;
    for (Operation &op : *loop.getBody())
      if (auto load = dyn_cast<LoadOp>(op); load && !feedsDot(load))
        if (auto slice = addressSlice(loop, load))
          loads.push_back({load, std::move(*slice)});
    if (loads.empty())
      return;
    unsigned ahead = numStages - 1;
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    Type ivType = loop.getInductionVar().getType();
    auto offset = [&](OpBuilder &ob, Value base, unsigned k) -> Value {
      if (k == 0)
        return base;
      Value delta = arith::ConstantOp::create(ob, loc, IntegerAttr::get(ivType, step * k));
      return arith::AddIOp::create(ob, loc, base, delta);
    };
    // The prologue: iterations lb .. lb + (ahead - 1) step.
    SmallVector<Value> inits;
    for (auto &[load, slice] : loads)
      for (unsigned k = 0; k < ahead; ++k)
        inits.push_back(issueLoad(b, loop, load, slice, offset(b, loop.getLowerBound(), k),
                                  k ? loop.getLowerBound() : Value()));
    IRRewriter rewriter(loop);
    auto newYields = [&](OpBuilder &ob, Location, ArrayRef<BlockArgument> queues) {
      // Called before the body moves into the new loop: the fresh loads go at
      // the top of the old body, which then moves with them.
      SmallVector<Value> yields;
      OpBuilder::InsertionGuard guard(ob);
      ob.setInsertionPointToStart(loop.getBody());
      Value iv = loop.getInductionVar();
      Value next = offset(ob, iv, ahead);
      for (auto [i, entry] : llvm::enumerate(loads)) {
        auto &[load, slice] = entry;
        ArrayRef<BlockArgument> queue = queues.slice(i * ahead, ahead);
        Value fresh = issueLoad(ob, loop, load, slice, next, iv);
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
    for (auto &entry : loads)
      entry.first.erase();
  }
};
} // namespace
} // namespace blk
