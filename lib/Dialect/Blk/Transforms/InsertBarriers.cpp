#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "blk/Analysis/Allocation.h"

namespace blk {
#define GEN_PASS_DEF_BLKINSERTBARRIERSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

using namespace mlir;

namespace {
/// Shared-memory ranges [begin, end) accessed since the last barrier.
using Pending = llvm::SmallVector<std::pair<int64_t, int64_t>>;

void merge(Pending &into, const Pending &from) {
  for (auto range : from)
    if (!llvm::is_contained(into, range))
      into.push_back(range);
}

/// Bytes `op` uses at its offset. A ring or mbarrier allocation counts as
/// an access to all of its memory: asynchronous copies and mbarrier
/// initialization write it from then on, and a conversion's scratch placed
/// there before (a loop-invariant operand converted in front of the loop)
/// must be read by every thread first.
int64_t bytesAt(Operation *op) {
  if (auto ring = dyn_cast<LocalAllocOp>(op))
    return ring.getType().getSlots() * ring.getType().getSlotBytes();
  if (auto bars = dyn_cast<MBarrierAllocOp>(op))
    return 8 * bars.getType().getCount();
  return scratchFor(op).bytes;
}

/// The memory of the buffer `v` views: its allocation's offset and size,
/// or nothing before allocation.
std::optional<std::pair<int64_t, int64_t>> bufferRange(Value v) {
  while (auto trans = v.getDefiningOp<LocalTransOp>())
    v = trans.getBuffer();
  auto alloc = v.getDefiningOp<LocalAllocOp>();
  auto offset = alloc ? alloc->getAttrOfType<IntegerAttr>(kSmemOffsetAttr) : IntegerAttr();
  if (!offset)
    return std::nullopt;
  return std::pair{offset.getInt(), offset.getInt() + bytesAt(alloc)};
}

struct InsertBarriers : impl::BlkInsertBarriersPassBase<InsertBarriers> {
  /// Per loop: the ranges pending where it was entered (sorted) and where
  /// it left them.
  llvm::DenseMap<Operation *, llvm::SmallVector<std::pair<Pending, Pending>, 2>> loopExits;
  /// The buffers read by the warp_group_dots walked so far: their reads
  /// end at a wait, which may come after a barrier.
  Pending wgmmaReads;

  void runOnOperation() override {
    loopExits.clear(); // the ops of an earlier module may have been freed
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      wgmmaReads.clear();
      Pending pending;
      visitRegion(func.getBody(), pending);
    }
  }

  void visitRegion(Region &region, Pending &pending) {
    for (Block &block : region)
      for (Operation &op : llvm::make_early_inc_range(block))
        visitOp(&op, pending);
  }

  void visitOp(Operation *op, Pending &pending) {
    if (isa<BarrierOp>(op)) {
      pending.clear();
      return;
    }
    if (isa<scf::ForOp, scf::WhileOp>(op)) {
      // A loop entered again with ranges it has seen leaves what it left
      // then: its barriers for them are in place. Without this, a loop in
      // a loop is walked twice per walk of the outer one, 2^depth times.
      Pending key = pending;
      llvm::sort(key);
      key.push_back({-1, int64_t(wgmmaReads.size())}); // what a wait in it would add
      for (auto &[entered, left] : loopExits[op])
        if (entered == key) {
          pending = left;
          return;
        }
      // The body runs after what precedes the loop and after itself.
      Pending entry = pending, state = pending;
      for (int pass = 0; pass < 2; ++pass) {
        for (Region &region : op->getRegions())
          visitRegion(region, state);
        merge(entry, state);
        state = entry;
      }
      pending = entry;
      loopExits[op].push_back({std::move(key), entry}); // the walk of the body may have grown the map
      return;
    }
    if (op->getNumRegions() > 0 && !isa<ReduceOp, ScanOp>(op)) {
      Pending out;
      for (Region &region : op->getRegions()) { // branches start from the same state
        Pending branch = pending;
        visitRegion(region, branch);
        merge(out, branch);
      }
      pending = out;
      return;
    }
    // An access to a buffer races with no other access to it here (the
    // pipelines order those with their own barriers and mbarriers), but
    // with what later reuses its bytes once it is dead: scratch of the
    // epilogue written by one warp while another still reads the ring.
    for (Value operand : op->getOperands())
      if (isa<SharedBufferType>(operand.getType()))
        if (auto range = bufferRange(operand)) {
          merge(pending, {*range});
          if (isa<WarpGroupDotOp>(op))
            merge(wgmmaReads, {*range});
        }
    if (isa<WarpGroupDotWaitOp>(op))
      merge(pending, wgmmaReads);
    auto offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttr);
    if (!offset)
      return;
    int64_t begin = offset.getInt(), end = begin + bytesAt(op);
    bool hazard = llvm::any_of(pending, [&](auto r) { return r.first < end && begin < r.second; });
    if (hazard) {
      OpBuilder b(op);
      BarrierOp::create(b, op->getLoc());
      pending.clear();
    }
    pending.push_back({begin, end});
  }
};
} // namespace
} // namespace blk
