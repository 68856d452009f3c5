// A warp-specialized kernel on the interpreter: the producer warpgroup's
// branch (straight-line ops and loops of TMA copies, nested in a loop over
// tiles in a persistent kernel) runs as a coroutine beside the consumers'
// branch. It starts first and, after each
// release of a slot, issues as many tiles as the released slots allow, so
// that a consumer that released a slot too early reads the next tile's
// poison there, as the GPU would read the next tile.
#include "Executor.h"

using namespace mlir;

namespace blk::interp {

// The phase is not complete and nothing will complete it: no TMA copy is
// armed on the barrier (the consumers' arrivals complete a phase at once).
bool Executor::wouldWait(MBarrierWaitOp op) {
  const MBarriers &bars = mbarriers[size_t(get(op.getBarriers()).i[0])];
  int64_t index = get(op.getIndex()).i[0], parity = get(op.getPhase()).i[0] & 1;
  if (index < 0 || index >= int64_t(bars.phases.size()))
    return false; // the wait reports it
  return (bars.phases[size_t(index)] & 1) == parity && bars.armed[size_t(index)].empty();
}

LogicalResult Executor::startProducer(scf::IfOp roles) {
  if (!producer.empty())
    return roles->emitError("the interpreter runs one producer warpgroup at a time");
  producer.push_back({scf::ForOp(), 0, 0, 1, &roles.getThenRegion().front().front()});
  if (failed(runProducer()))
    return failure();
  SmallVector<Tensor> none;
  if (!roles.getElseRegion().empty() && failed(execBlock(roles.getElseRegion().front(), {}, none)))
    return failure();
  if (failed(runProducer()))
    return failure();
  bool done = producer.empty();
  producer.clear();
  if (!done)
    return roles->emitError() << "the producer warpgroup still waits for a slot's release after the consumers "
                                 "finished in "
                              << programText();
  return success();
}

void Executor::bindIteration(scf::ForOp loop, int64_t iv, ArrayRef<Tensor> carried) {
  Block *body = loop.getBody();
  Tensor t = Tensor::like(body->getArgument(0).getType(), 1);
  t.i[0] = iv;
  set(body->getArgument(0), std::move(t));
  for (auto [arg, value] : llvm::zip(body->getArguments().drop_front(), carried))
    set(arg, value);
}

LogicalResult Executor::runProducer() {
  while (!producer.empty()) {
    size_t top = producer.size() - 1;
    Operation *op = producer[top].next;
    if (op->hasTrait<OpTrait::IsTerminator>()) {
      if (!producer[top].loop) { // the end of the branch
        producer.clear();
        return success();
      }
      SmallVector<Tensor> carried;
      for (Value v : op->getOperands())
        carried.push_back(get(v));
      ProducerFrame &frame = producer[top];
      frame.iv += frame.step;
      if (frame.iv < frame.ub) {
        bindIteration(frame.loop, frame.iv, carried);
        frame.next = &frame.loop.getBody()->front();
        continue;
      }
      scf::ForOp loop = frame.loop;
      for (auto [result, value] : llvm::zip(loop.getResults(), carried))
        set(result, value);
      producer.pop_back();
      producer.back().next = loop->getNextNode();
      continue;
    }
    if (auto wait = dyn_cast<MBarrierWaitOp>(op); wait && wouldWait(wait))
      return success(); // blocked until the consumers release the slot
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      int64_t lb = get(loop.getLowerBound()).i[0], ub = get(loop.getUpperBound()).i[0];
      int64_t step = get(loop.getStep()).i[0];
      if (step <= 0 && lb < ub)
        return loop->emitError("loop step must be positive, got ") << step;
      SmallVector<Tensor> inits;
      for (Value v : loop.getInitArgs())
        inits.push_back(get(v));
      if (lb >= ub) {
        for (auto [result, value] : llvm::zip(loop.getResults(), inits))
          set(result, value);
        producer[top].next = op->getNextNode();
        continue;
      }
      bindIteration(loop, lb, inits);
      producer.push_back({loop, lb, ub, step, &loop.getBody()->front()});
      continue;
    }
    if (op->getNumRegions())
      return op->emitError("the interpreter runs a producer branch of straight-line ops and loops");
    if (failed(execOp(op)))
      return failure();
    producer[top].next = op->getNextNode();
  }
  return success();
}

} // namespace blk::interp
