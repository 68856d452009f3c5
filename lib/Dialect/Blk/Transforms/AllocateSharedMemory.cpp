#include "blk/Support/InternalErrors.h"
#include "blk/Analysis/Allocation.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace blk {
#define GEN_PASS_DEF_BLKALLOCATESHAREDMEMORYPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

using namespace mlir;

namespace {
struct Buffer {
  Operation *op;
  int64_t bytes;
  int64_t first, last; // lifetime, in program-order op numbers
  int64_t offset = -1;
  int64_t align = 16;
};

struct AllocateSharedMemory : impl::BlkAllocateSharedMemoryPassBase<AllocateSharedMemory> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(allocate(func)))
        return signalPassFailure();
  }

  LogicalResult allocate(func::FuncOp func) {
    std::vector<Buffer> buffers;
    int64_t index = 0;
    llvm::DenseMap<Operation *, int64_t> number;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      number[op] = ++index;
      ScratchPlan plan = scratchFor(op);
      if (plan.bytes > 0)
        buffers.push_back({op, plan.bytes, index, index}); // scratch lives while its op runs
    });
    // A ring of tiles (or its mbarriers) lives until its last use, or the
    // end of the outermost loop around a use: a loop that reads it keeps it
    // for every iteration. (A use in a branch does not keep it for the
    // whole `if`: a warp-specialized kernel's rings, allocated before its
    // split into roles, end with the consumers' loop.)
    func.walk([&](Operation *alloc) {
      if (!isa<LocalAllocOp, MBarrierAllocOp>(alloc))
        return;
      int64_t last = number[alloc];
      // A wgmma reads its shared operands until the wait that completes it.
      SmallVector<Operation *> users(alloc->getUsers());
      for (size_t i = 0; i < users.size(); ++i) {
        bool view = isa<LocalTransOp>(users[i]);
        if (view || isa<WarpGroupDotOp, WarpGroupDotWaitOp>(users[i]))
          for (Operation *reader : users[i]->getUsers())
            if ((view || isa<WarpGroupDotWaitOp>(reader)) && !llvm::is_contained(users, reader))
              users.push_back(reader);
      }
      for (Operation *user : users) {
        Operation *holder = user;
        for (Operation *op = user; op && op->getBlock() != alloc->getBlock(); op = op->getParentOp())
          if (isa<LoopLikeOpInterface>(op->getParentOp()))
            holder = op->getParentOp();
        int64_t end = number[holder];
        holder->walk([&](Operation *nested) { end = std::max(end, number[nested]); });
        last = std::max(last, end);
      }
      if (auto ring = dyn_cast<LocalAllocOp>(alloc)) {
        SharedBufferType type = ring.getType();
        buffers.push_back({alloc, type.getSlots() * type.getSlotBytes(), number[alloc], last, -1, 1024});
      } else {
        int64_t count = cast<MBarrierAllocOp>(alloc).getType().getCount();
        buffers.push_back({alloc, 8 * count, number[alloc], last, -1, 8});
      }
    });
    // First fit, largest first: a buffer takes the lowest offset that does
    // not overlap a placed buffer whose lifetime meets its own.
    std::vector<Buffer *> order;
    for (Buffer &b : buffers)
      order.push_back(&b);
    llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
    int64_t total = 0;
    std::vector<Buffer *> placed;
    for (Buffer *b : order) {
      int64_t offset = 0;
      bool moved = true;
      while (moved) {
        moved = false;
        for (Buffer *p : placed) {
          bool liveTogether = p->first <= b->last && b->first <= p->last;
          bool overlap = p->offset < offset + b->bytes && offset < p->offset + p->bytes;
          if (liveTogether && overlap) {
            offset = llvm::alignTo(p->offset + p->bytes, b->align);
            moved = true;
          }
        }
      }
      b->offset = offset;
      placed.push_back(b);
      total = std::max(total, offset + b->bytes);
    }
    auto i64 = IntegerType::get(&getContext(), 64);
    for (Buffer &b : buffers)
      b.op->setAttr(kSmemOffsetAttr, IntegerAttr::get(i64, b.offset));
    func->setAttr(kSharedBytesAttr, IntegerAttr::get(i64, total));
    if (total > limit) {
      Buffer *largest = order.front();
      return userFacing(largest->op->emitError()) << "kernel '" << func.getName() << "' needs " << total
                                      << " bytes of shared memory, more than the target's " << int64_t(limit)
                                      << "; this op needs the most (" << largest->bytes
                                      << " bytes): "
                                      << (isa<LocalAllocOp>(largest->op)
                                              ? "use fewer stages (num_stages) or smaller blocks"
                                              : "use a smaller block or fewer warps along the reduced axis");
    }
    return success();
  }
};
} // namespace
} // namespace blk
