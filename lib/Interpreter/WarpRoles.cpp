// A warp-specialized kernel on the interpreter: the producer warpgroup's
// branch (straight-line ops, then one loop of TMA copies) runs as a
// coroutine beside the consumers' branch. It starts first and, after each
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
  if (producer)
    return roles->emitError("the interpreter runs one producer warpgroup at a time");
  Block &branch = roles.getThenRegion().front();
  for (Operation &op : branch.without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op); loop && !producer && loop.getInitArgs().empty()) {
      producer = Producer{loop, get(loop.getLowerBound()).i[0], get(loop.getUpperBound()).i[0],
                          get(loop.getStep()).i[0]};
      if (producer->step <= 0)
        return loop->emitError("loop step must be positive, got ") << producer->step;
      continue;
    }
    if (producer || op.getNumRegions())
      return op.emitError("the interpreter runs a producer branch of straight-line ops and one loop");
    if (failed(execOp(&op)))
      return failure();
  }
  if (failed(runProducer()))
    return failure();
  SmallVector<Tensor> none;
  if (!roles.getElseRegion().empty() && failed(execBlock(roles.getElseRegion().front(), {}, none)))
    return failure();
  if (failed(runProducer()))
    return failure();
  bool done = !producer || producer->iv >= producer->ub;
  producer.reset();
  if (!done)
    return roles->emitError() << "the producer warpgroup still waits for a slot's release after the consumers "
                                 "finished in "
                              << programText();
  return success();
}

LogicalResult Executor::runProducer() {
  while (producer && producer->iv < producer->ub) {
    Block *body = producer->loop.getBody();
    if (!producer->next) {
      set(body->getArgument(0), Tensor::like(body->getArgument(0).getType(), 1));
      env[body->getArgument(0)].i[0] = producer->iv;
      producer->next = &body->front();
    }
    for (Operation *op = producer->next;; op = op->getNextNode()) {
      if (op->hasTrait<OpTrait::IsTerminator>()) {
        producer->iv += producer->step;
        producer->next = nullptr;
        break;
      }
      if (auto wait = dyn_cast<MBarrierWaitOp>(op); wait && wouldWait(wait)) {
        producer->next = op; // blocked until the consumers release the slot
        return success();
      }
      if (failed(execOp(op)))
        return failure();
    }
  }
  return success();
}

} // namespace blk::interp
