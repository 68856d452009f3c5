// The ops the blk passes introduce: shared-memory rings, cp.async groups,
// TMA copies on mbarriers and asynchronous wgmma dots. Layouts do not change
// values, so only when data lands matters: a copy fills its slot at the wait
// that completes it, and until then the slot reads as poison.
#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <limits>

using namespace mlir;

namespace blk::interp {

size_t Executor::slotStart(size_t ring, int64_t slot) const {
  const Tensor &r = rings[ring];
  return size_t(slot * r.shape[1] * r.shape[2]);
}

LogicalResult Executor::checkSlot(Operation *op, const Tensor &buffer, int64_t slot) {
  int64_t slots = rings[size_t(buffer.i[0])].shape[0];
  if (slot >= 0 && slot < slots)
    return success();
  return op->emitError() << "slot " << slot << " out of range of a ring of " << slots << " in " << programText();
}

Tensor Executor::readSlot(const Tensor &buffer, int64_t slot) const {
  const Tensor &ring = rings[size_t(buffer.i[0])];
  int64_t rows = ring.shape[1], cols = ring.shape[2];
  bool trans = buffer.i[1];
  Tensor tile = Tensor::like(ring.elem, size_t(rows * cols));
  tile.shape = trans ? SmallVector<int64_t, 2>{cols, rows} : SmallVector<int64_t, 2>{rows, cols};
  size_t start = slotStart(size_t(buffer.i[0]), slot);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      tile.copyElement(size_t(trans ? c * rows + r : r * cols + c), ring, start + size_t(r * cols + c));
  return tile;
}

void Executor::writeSlot(const Tensor &buffer, int64_t slot, const Tensor &tile) {
  Tensor &ring = rings[size_t(buffer.i[0])];
  int64_t rows = ring.shape[1], cols = ring.shape[2];
  bool trans = buffer.i[1];
  size_t start = slotStart(size_t(buffer.i[0]), slot);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      ring.copyElement(start + size_t(r * cols + c), tile, size_t(trans ? c * rows + r : r * cols + c));
}

void Executor::poisonSlot(size_t ring, int64_t slot) {
  Tensor &r = rings[ring];
  size_t start = slotStart(ring, slot), n = size_t(r.shape[1] * r.shape[2]);
  if (r.isFloat())
    std::fill_n(r.f.begin() + long(start), n, std::numeric_limits<double>::quiet_NaN());
  else
    std::fill_n(r.i.begin() + long(start), n, wrapInt(r.elem.getIntOrFloatBitWidth(), 0x7f7f7f7f7f7f7f7fll));
}

void Executor::land(const Landing &l) {
  Tensor buffer;
  buffer.i = {int64_t(l.ring), 0};
  writeSlot(buffer, l.slot, l.tile);
}

void Executor::completeDot(size_t id) {
  PendingDot &d = dots[id];
  Tensor a = d.op.hasRegisterA() ? d.a : readSlot(d.a, d.aSlot);
  Tensor b = readSlot(d.b, d.bSlot);
  if (!d.op.hasRegisterA())
    readSinceSync.insert({size_t(d.a.i[0]), d.aSlot});
  readSinceSync.insert({size_t(d.b.i[0]), d.bSlot});
  bool tf32 = b.elem.isF32(); // wgmma multiplies f32 as tf32
  // An accumulator chained from an earlier dot in flight: that one completed first.
  Tensor c = d.acc.dot >= 0 ? dots[size_t(d.acc.dot)].result : d.acc;
  c.dot = -1;
  multiplyAccumulate(std::move(a), std::move(b), c, tf32);
  d.result = std::move(c);
  d.done = true;
  d.a = d.b = d.acc = Tensor();
}

LogicalResult Executor::execWarpGroupDot(WarpGroupDotOp op) {
  PendingDot d;
  d.op = op;
  d.a = get(op.getA());
  if (!op.hasRegisterA()) {
    d.aSlot = get(op.getASlot()).i[0];
    if (failed(checkSlot(op, d.a, d.aSlot)))
      return failure();
  }
  d.b = get(op.getB());
  d.bSlot = get(op.getBSlot()).i[0];
  if (failed(checkSlot(op, d.b, d.bSlot)) || failed(checkFenced(op, d.b, d.bSlot, "wgmma")) ||
      (!op.hasRegisterA() && failed(checkFenced(op, d.a, d.aSlot, "wgmma"))))
    return failure();
  d.acc = get(op.getAcc());
  // Undefined until a wait completes it: NaN (or 0x7f...) meanwhile.
  Tensor pending = Tensor::like(op.getType(), size_t(op.getType().getNumElements()));
  if (pending.isFloat())
    std::fill(pending.f.begin(), pending.f.end(), std::numeric_limits<double>::quiet_NaN());
  else
    std::fill(pending.i.begin(), pending.i.end(), wrapInt(pending.elem.getIntOrFloatBitWidth(), 0x7f7f7f7f7f7f7f7fll));
  pending.dot = int64_t(dots.size());
  dots.push_back(std::move(d));
  set(op.getResult(), std::move(pending));
  return success();
}

LogicalResult Executor::execWarpGroupDotWait(WarpGroupDotWaitOp op) {
  size_t pending = size_t(op.getPending());
  while (dots.size() - firstInFlight > pending)
    completeDot(firstInFlight++);
  for (auto [acc, result] : llvm::zip(op.getAccs(), op.getResults())) {
    const Tensor &v = get(acc);
    // A dot still in flight stays so: its registers fill at a later wait.
    set(result, v.dot >= 0 && dots[size_t(v.dot)].done ? dots[size_t(v.dot)].result : v);
  }
  return success();
}

LogicalResult Executor::execAsyncCopy(AsyncCopyOp op) {
  const Tensor &buffer = get(op.getBuffer());
  int64_t slot = get(op.getSlot()).i[0];
  if (failed(checkSlot(op, buffer, slot)) || failed(checkNotRead(op, buffer, slot, "a cp.async copy")))
    return failure();
  const Tensor &ptr = get(op.getPtr());
  const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
  Type elem = cast<SharedBufferType>(op.getBuffer().getType()).getElementType();
  Tensor tile = Tensor::like(elem, ptr.size()); // zeros where masked off, as cp.async fills
  tile.shape = ptr.shape;
  size_t bytes = std::max(1u, elem.getIntOrFloatBitWidth() / 8);
  for (size_t j = 0; j < ptr.size(); ++j) {
    if (mask && !(mask->i[j] & 1))
      continue;
    if (failed(checkAccess(op, "async copy", ptr, j, bytes)))
      return failure();
    readElement(elem, reinterpret_cast<const void *>(uintptr_t(ptr.i[j])), tile, j);
  }
  // The slot as the view sees it: land through the same (maybe transposed) view.
  Tensor stored = Tensor::like(elem, ptr.size());
  stored.shape = {rings[size_t(buffer.i[0])].shape[1], rings[size_t(buffer.i[0])].shape[2]};
  int64_t rows = stored.shape[0], cols = stored.shape[1];
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      stored.copyElement(size_t(r * cols + c), tile, size_t(buffer.i[1] ? c * rows + r : r * cols + c));
  poisonSlot(size_t(buffer.i[0]), slot);
  openGroup.push_back({size_t(buffer.i[0]), slot, std::move(stored)});
  return success();
}

LogicalResult Executor::execAsyncTMACopy(AsyncTMACopyOp op) {
  if (!(get(op.getPred()).i[0] & 1))
    return success(); // nothing issued, nothing armed
  if (op.getAfterStores() && failed(execTMAStoreWait()))
    return failure();
  const Tensor &buffer = get(op.getBuffer());
  int64_t slot = get(op.getSlot()).i[0];
  if (failed(checkSlot(op, buffer, slot)) || failed(checkNotRead(op, buffer, slot, "a TMA copy")))
    return failure();
  if (buffer.i[1])
    return op->emitError("the interpreter does not support TMA copies into a transposed view");
  Type elem = cast<SharedBufferType>(op.getBuffer().getType()).getElementType();
  const Tensor &ring = rings[size_t(buffer.i[0])];
  Tensor tile = Tensor::like(elem, size_t(ring.shape[1] * ring.shape[2])); // zeros outside the tensor
  tile.shape = {ring.shape[1], ring.shape[2]};
  if (failed(forEachDescriptorElement(op, op.getDesc(), op.getOffsets(), "TMA copy",
                                      [&](size_t j, void *p) { readElement(elem, p, tile, j); })))
    return failure();
  MBarriers &bars = mbarriers[size_t(get(op.getBarriers()).i[0])];
  if (slot >= int64_t(bars.armed.size()))
    return op->emitError() << "no mbarrier " << slot << " for the slot in " << programText();
  poisonSlot(size_t(buffer.i[0]), slot);
  bars.armed[size_t(slot)].push_back({size_t(buffer.i[0]), slot, std::move(tile)});
  return success();
}

LogicalResult Executor::checkNotRead(Operation *op, const Tensor &buffer, int64_t slot, const char *writer) {
  if (!readSinceSync.count({size_t(buffer.i[0]), slot}))
    return success();
  return op->emitError() << writer << " writes slot " << slot
                         << " of a shared buffer that threads read after the last blk.barrier (a slower warp may "
                            "still be reading it) in "
                         << programText();
}

LogicalResult Executor::checkFenced(Operation *op, const Tensor &buffer, int64_t slot, const char *reader) {
  std::pair<size_t, int64_t> key{size_t(buffer.i[0]), slot};
  if (unfenced.count(key))
    return op->emitError() << reader << " reads slot " << slot
                           << " of a shared buffer that threads wrote after the last blk.fence_async_shared (the "
                              "async proxy may not see those writes) in "
                           << programText();
  if (unsynced.count(key))
    return op->emitError() << reader << " reads slot " << slot
                           << " of a shared buffer that threads wrote after the last blk.barrier (other threads' "
                              "writes may not have happened) in "
                           << programText();
  return success();
}

LogicalResult Executor::execAsyncTMAStore(AsyncTMAStoreOp op) {
  const Tensor &buffer = get(op.getBuffer());
  int64_t slot = get(op.getSlot()).i[0];
  if (failed(checkSlot(op, buffer, slot)) || failed(checkFenced(op, buffer, slot, "a TMA store")))
    return failure();
  SmallVector<int64_t> offsets;
  for (Value v : op.getOffsets())
    offsets.push_back(get(v).i[0]);
  tmaStores.push_back({op, buffer, get(op.getDesc()), slot, std::move(offsets)});
  return success();
}

LogicalResult Executor::execTMAStoreWait() {
  for (const PendingTmaStore &s : tmaStores) {
    Tensor tile = readSlot(s.buffer, s.slot);
    if (failed(forEachDescriptorElement(s.op, s.desc, s.offsets, "TMA store",
                                        [&](size_t j, void *p) { writeElement(tile.elem, p, tile, j); })))
      return failure();
  }
  tmaStores.clear();
  return success();
}

LogicalResult Executor::execMBarrierWait(MBarrierWaitOp op) {
  if (!op.getIssuer() && !producer.empty() && wouldWait(op) && failed(runProducer()))
    return failure();
  if (op.getIssuer()) // the readers released their slots
    readSinceSync.clear();
  MBarriers &bars = mbarriers[size_t(get(op.getBarriers()).i[0])];
  int64_t index = get(op.getIndex()).i[0], parity = get(op.getPhase()).i[0] & 1;
  if (index < 0 || index >= int64_t(bars.phases.size()))
    return op->emitError() << "mbarrier " << index << " out of range of " << bars.phases.size() << " in "
                           << programText();
  if (wouldWait(op))
    return op->emitError() << "mbarrier_wait on mbarrier " << index << " at parity " << parity
                           << " would wait forever: no TMA copy is in flight on it and no warp arrives in "
                           << programText();
  int64_t &phases = bars.phases[size_t(index)];
  if ((phases & 1) != parity)
    return success(); // that phase completed already
  auto &armed = bars.armed[size_t(index)];
  for (const Landing &l : armed)
    land(l);
  armed.clear();
  ++phases;
  return success();
}

LogicalResult Executor::execMBarrierArrive(MBarrierArriveOp op) {
  if (!(get(op.getPred()).i[0] & 1))
    return success();
  MBarriers &bars = mbarriers[size_t(get(op.getBarriers()).i[0])];
  int64_t index = get(op.getIndex()).i[0];
  if (index < 0 || index >= int64_t(bars.phases.size()))
    return op->emitError() << "mbarrier " << index << " out of range of " << bars.phases.size() << " in "
                           << programText();
  // Every warp of the program arrives at once: the phase completes.
  ++bars.phases[size_t(index)];
  return producer.empty() ? success() : runProducer();
}

LogicalResult Executor::execSharedOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<LocalAllocOp>([&](LocalAllocOp a) {
        auto type = cast<SharedBufferType>(a.getType());
        ArrayRef<int64_t> shape = type.getShape();
        Tensor ring = Tensor::like(type.getElementType(), size_t(shape[0] * shape[1] * shape[2]));
        ring.shape.assign(type.getShape().begin(), type.getShape().end());
        rings.push_back(std::move(ring));
        size_t index = rings.size() - 1;
        for (int64_t s = 0; s < type.getSlots(); ++s)
          poisonSlot(index, s); // uninitialized shared memory
        Tensor handle;
        handle.elem = type;
        handle.i = {int64_t(index), 0};
        set(a.getResult(), std::move(handle));
        return success();
      })
      .Case<LocalTransOp>([&](LocalTransOp t) {
        Tensor view = get(t.getBuffer());
        view.elem = t.getType();
        view.i[1] ^= 1;
        set(t.getResult(), std::move(view));
        return success();
      })
      .Case<LocalLoadOp>([&](LocalLoadOp l) -> LogicalResult {
        const Tensor &buffer = get(l.getBuffer());
        int64_t slot = get(l.getSlot()).i[0];
        if (failed(checkSlot(l, buffer, slot)))
          return failure();
        set(l.getResult(), readSlot(buffer, slot));
        readSinceSync.insert({size_t(buffer.i[0]), slot});
        return success();
      })
      .Case<LocalStoreOp>([&](LocalStoreOp s) -> LogicalResult {
        const Tensor &buffer = get(s.getBuffer());
        int64_t slot = get(s.getSlot()).i[0];
        if (failed(checkSlot(s, buffer, slot)) || failed(checkNotRead(s, buffer, slot, "blk.local_store")))
          return failure();
        writeSlot(buffer, slot, get(s.getValue()));
        unfenced.insert({size_t(buffer.i[0]), slot});
        unsynced.insert({size_t(buffer.i[0]), slot});
        return success();
      })
      .Case<AsyncCopyOp>([&](AsyncCopyOp c) { return execAsyncCopy(c); })
      .Case<AsyncCommitGroupOp>([&](AsyncCommitGroupOp) {
        committedGroups.push_back(std::move(openGroup));
        openGroup.clear();
        return success();
      })
      .Case<AsyncWaitOp>([&](AsyncWaitOp w) {
        // Groups complete in order; copies not yet committed stay in flight.
        size_t keep = size_t(w.getPending()), done = 0;
        while (committedGroups.size() - done > keep) {
          for (const Landing &l : committedGroups[done]) {
            land(l);
            unfenced.insert({l.ring, l.slot}); // cp.async writes as the threads do
            unsynced.insert({l.ring, l.slot});
          }
          ++done;
        }
        committedGroups.erase(committedGroups.begin(), committedGroups.begin() + long(done));
        return success();
      })
      .Case<FenceAsyncSharedOp>([&](Operation *) {
        unfenced.clear();
        return success();
      })
      .Case<MBarrierInvalOp>([&](Operation *) { return success(); })
      .Case<MBarrierAllocOp>([&](MBarrierAllocOp a) {
        size_t n = size_t(cast<BarriersType>(a.getType()).getCount());
        mbarriers.push_back({std::vector<int64_t>(n, 0), std::vector<std::vector<Landing>>(n)});
        Tensor handle;
        handle.elem = a.getType();
        handle.i = {int64_t(mbarriers.size() - 1)};
        set(a.getResult(), std::move(handle));
        return success();
      })
      .Case<MBarrierWaitOp>([&](MBarrierWaitOp w) { return execMBarrierWait(w); })
      .Case<MBarrierArriveOp>([&](MBarrierArriveOp a) { return execMBarrierArrive(a); })
      .Case<AsyncTMACopyOp>([&](AsyncTMACopyOp c) { return execAsyncTMACopy(c); })
      .Case<AsyncTMAStoreOp>([&](AsyncTMAStoreOp s) { return execAsyncTMAStore(s); })
      .Case<TMAStoreWaitOp>([&](TMAStoreWaitOp) { return execTMAStoreWait(); })
      .Case<WarpGroupDotOp>([&](WarpGroupDotOp d) { return execWarpGroupDot(d); })
      .Case<WarpGroupDotWaitOp>([&](WarpGroupDotWaitOp w) { return execWarpGroupDotWait(w); })
      .Default([&](Operation *) { return op->emitError("unexpected shared-memory op"); });
}

Tensor Executor::tmaDescriptor(func::FuncOp func, unsigned index, ArrayRef<Tensor> args) {
  // Values in the attributes: N >= 0 is argument N, -N the constant N.
  auto value = [&](int64_t v) { return v >= 0 ? args[size_t(v)].i[0] : -v; };
  Tensor desc;
  desc.elem = func.getArgument(index).getType();
  desc.i.push_back(value(func.getArgAttrOfType<IntegerAttr>(index, kTmaBaseAttr).getInt()));
  for (StringRef name : {kTmaShapeAttr, kTmaStridesAttr})
    for (int64_t v : func.getArgAttrOfType<DenseI64ArrayAttr>(index, name).asArrayRef())
      desc.i.push_back(value(v));
  return desc;
}

} // namespace blk::interp
