#include "blk/Dialect/Blk/IR/Layout.h"

using namespace mlir;

namespace blk {

BlockedLayoutAttr getBlockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                   unsigned numWarps, unsigned vec) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order;
  for (unsigned d = 0; d < rank; ++d)
    order.push_back(rank - 1 - d); // row-major: last dim fastest
  // Fill the fastest dimension first: vector width, then lanes, then warps;
  // what the fastest dimension cannot absorb goes to the slower ones.
  int64_t fast = shape[order[0]];
  int64_t total = 1;
  for (int64_t s : shape)
    total *= s;
  int64_t threads = int64_t(kWarpSize) * numWarps;
  int64_t perThread = std::max<int64_t>(1, total / threads);
  spt[order[0]] = unsigned(std::min<int64_t>({int64_t(vec), fast, perThread}));
  int64_t remaining = kWarpSize;
  for (unsigned i = 0; i < rank && remaining > 1; ++i) {
    unsigned d = order[i];
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    int64_t take = std::min(room, remaining);
    if (i == rank - 1)
      take = remaining; // the slowest dimension takes the rest (replicated)
    tpw[d] = unsigned(take);
    remaining /= take;
  }
  int64_t warps = numWarps;
  for (unsigned i = rank; i-- > 0 && warps > 1;) {
    unsigned d = order[i]; // warps go to the slowest dimension first
    int64_t room = std::max<int64_t>(1, shape[d] / (int64_t(spt[d]) * tpw[d]));
    int64_t take = std::min(room, warps);
    if (i == 0)
      take = warps;
    wpc[d] = unsigned(take);
    warps /= take;
  }
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

BlockedLayoutAttr getBlockedLayout(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  return dyn_cast_or_null<BlockedLayoutAttr>(tensor.getEncoding());
}

ThreadTiling ThreadTiling::get(RankedTensorType type) {
  auto layout = cast<BlockedLayoutAttr>(type.getEncoding());
  ThreadTiling t;
  t.shape.assign(type.getShape().begin(), type.getShape().end());
  t.sizePerThread.assign(layout.getSizePerThread().begin(), layout.getSizePerThread().end());
  t.threadsPerWarp.assign(layout.getThreadsPerWarp().begin(), layout.getThreadsPerWarp().end());
  t.warpsPerCTA.assign(layout.getWarpsPerCTA().begin(), layout.getWarpsPerCTA().end());
  t.order.assign(layout.getOrder().begin(), layout.getOrder().end());
  for (unsigned d = 0; d < t.shape.size(); ++d) {
    int64_t tile = int64_t(t.sizePerThread[d]) * t.threadsPerWarp[d] * t.warpsPerCTA[d];
    t.tile.push_back(tile);
    t.reps.push_back(std::max<int64_t>(1, t.shape[d] / tile));
  }
  return t;
}

int64_t ThreadTiling::elemsPerThread() const {
  int64_t n = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    n *= int64_t(sizePerThread[d]) * reps[d];
  return n;
}

SmallVector<int64_t> ThreadTiling::registerOffsets(int64_t reg) const {
  // Registers enumerate (chunk within thread, repetition), fastest dim first.
  unsigned rank = shape.size();
  SmallVector<int64_t> inChunk(rank), rep(rank);
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = order[i];
    inChunk[d] = reg % sizePerThread[d];
    reg /= sizePerThread[d];
  }
  for (unsigned i = 0; i < rank; ++i) {
    unsigned d = order[i];
    rep[d] = reg % reps[d];
    reg /= reps[d];
  }
  SmallVector<int64_t> offs(rank);
  for (unsigned d = 0; d < rank; ++d)
    offs[d] = rep[d] * tile[d] + inChunk[d];
  return offs;
}

} // namespace blk
