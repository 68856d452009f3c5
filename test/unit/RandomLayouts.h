// Random blocked layouts for the layout tests of test/unit.
#ifndef BLK_TEST_UNIT_RANDOMLAYOUTS_H
#define BLK_TEST_UNIT_RANDOMLAYOUTS_H

#include "blk/Dialect/Blk/IR/Layout.h"

#include <algorithm>
#include <random>

namespace blk {

/// A random blocked layout of `shape` over `warps` warps: a random order,
/// 1 to 2^(sizeBits - 1) elements per thread along each dimension, lanes
/// and warps spread over random dimensions.
inline BlockedLayoutAttr randomBlocked(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape, unsigned warps,
                                       std::mt19937 &rng, unsigned sizeBits = 3) {
  unsigned rank = shape.size();
  llvm::SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1), order;
  for (unsigned d = 0; d < rank; ++d)
    order.push_back(d);
  std::shuffle(order.begin(), order.end(), rng);
  for (unsigned d = 0; d < rank; ++d)
    spt[d] = 1u << (rng() % sizeBits);
  for (unsigned t = 1; t < 32; t *= 2)
    tpw[rng() % rank] *= 2;
  for (unsigned t = 1; t < warps; t *= 2)
    wpc[rng() % rank] *= 2;
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

} // namespace blk

#endif
