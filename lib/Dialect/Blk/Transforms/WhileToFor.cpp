// Counted `while` loops as `scf.for`: `k = 0; while k < K: ...; k += BLOCK_K` is
// `for k in range(0, K, BLOCK_K)`, and only `scf.for` loops are pipelined and
// give their dots rings and wgmma. The rewrite needs a step known positive (a
// constant): with any other step the `while` loop may not end, which
// `scf.for` cannot express.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKWHILETOFORPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {
/// What makes a `while` loop counted: the carried value at `index` is
/// compared with `bound` and advanced by `step` each iteration.
struct Counter {
  unsigned index;
  Value bound;
  APInt step;
};

std::optional<Counter> matchCounter(scf::WhileOp loop) {
  Block *before = loop.getBeforeBody();
  scf::ConditionOp condition = loop.getConditionOp();
  // The condition computes nothing but the comparison and passes the
  // carried values on unchanged (the after region and the results get them).
  if (!llvm::hasSingleElement(before->without_terminator()) ||
      ValueRange(before->getArguments()) != condition.getArgs())
    return std::nullopt;
  auto cmp = dyn_cast<arith::CmpIOp>(before->front());
  if (!cmp || condition.getCondition() != cmp.getResult())
    return std::nullopt;
  Value counter, bound;
  if (cmp.getPredicate() == arith::CmpIPredicate::slt)
    counter = cmp.getLhs(), bound = cmp.getRhs();
  else if (cmp.getPredicate() == arith::CmpIPredicate::sgt)
    counter = cmp.getRhs(), bound = cmp.getLhs();
  else
    return std::nullopt;
  auto arg = dyn_cast<BlockArgument>(counter);
  if (!arg || arg.getOwner() != before || loop->isAncestor(bound.getParentRegion()->getParentOp()))
    return std::nullopt;
  unsigned index = arg.getArgNumber();
  Value afterCounter = loop.getAfterBody()->getArgument(index);
  auto add = loop.getYieldOp().getResults()[index].getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  Value step = add.getLhs() == afterCounter ? add.getRhs() : add.getRhs() == afterCounter ? add.getLhs() : Value();
  APInt value;
  if (!step || !matchPattern(step, m_ConstantInt(&value)) || !value.isStrictlyPositive())
    return std::nullopt;
  return Counter{index, bound, value};
}

void rewriteAsFor(IRRewriter &rewriter, scf::WhileOp loop, const Counter &c) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value lb = loop.getInits()[c.index];
  Type type = lb.getType();
  Value step = arith::ConstantOp::create(rewriter, loc, rewriter.getIntegerAttr(type, c.step));
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInits()))
    if (i != c.index)
      inits.push_back(init);
  auto forOp = scf::ForOp::create(rewriter, loc, lb, c.bound, step, inits,
                                  [](OpBuilder &, Location, Value, ValueRange) {});
  Block *body = forOp.getBody();
  SmallVector<Value> args;
  for (unsigned i = 0, carried = 0, n = loop.getAfterBody()->getNumArguments(); i < n; ++i)
    args.push_back(i == c.index ? forOp.getInductionVar() : forOp.getRegionIterArgs()[carried++]);
  rewriter.mergeBlocks(loop.getAfterBody(), body, args);
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> yielded;
  for (auto [i, v] : llvm::enumerate(yield.getResults()))
    if (i != c.index)
      yielded.push_back(v);
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, yielded);

  // The counter after the loop: the first value at or past the bound,
  // lb + ceil((bound - lb) / step) * step, or lb when the loop does not run.
  SmallVector<Value> results(forOp.getResults());
  rewriter.setInsertionPointAfter(forOp);
  Value exit = lb;
  if (!loop.getResult(c.index).use_empty()) {
    Value one = arith::ConstantOp::create(rewriter, loc, rewriter.getIntegerAttr(type, 1));
    Value span = arith::SubIOp::create(rewriter, loc, c.bound, lb);
    Value rounded = arith::AddIOp::create(rewriter, loc, span, arith::SubIOp::create(rewriter, loc, step, one));
    Value trips = arith::DivSIOp::create(rewriter, loc, rounded, step);
    Value past = arith::AddIOp::create(rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, trips, step));
    Value runs = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, lb, c.bound);
    exit = arith::SelectOp::create(rewriter, loc, runs, past, lb);
  }
  results.insert(results.begin() + c.index, exit);
  rewriter.replaceOp(loop, results);
}

struct WhileToFor : impl::BlkWhileToForPassBase<WhileToFor> {
  void runOnOperation() override {
    SmallVector<scf::WhileOp> loops;
    getOperation()->walk([&](scf::WhileOp loop) { loops.push_back(loop); }); // inner loops first
    IRRewriter rewriter(&getContext());
    for (scf::WhileOp loop : loops)
      if (std::optional<Counter> c = matchCounter(loop))
        rewriteAsFor(rewriter, loop, *c);
  }
};
} // namespace
} // namespace blk
