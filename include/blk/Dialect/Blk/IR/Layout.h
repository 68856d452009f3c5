// Layout arithmetic for blocked layouts: how many elements a thread holds and
// which block coordinates each of its registers maps to.
#ifndef BLK_DIALECT_BLK_IR_LAYOUT_H
#define BLK_DIALECT_BLK_IR_LAYOUT_H

#include "blk/Dialect/Blk/IR/Dialect.h"

namespace blk {

inline constexpr unsigned kWarpSize = 32;

/// The blocked layout that spreads `shape` over `numWarps` warps, each thread
/// holding up to `vec` consecutive elements of the fastest dimension.
BlockedLayoutAttr getBlockedLayout(mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<int64_t> shape,
                                   unsigned numWarps, unsigned vec);

/// The blocked layout of a block type, or null when it has none.
BlockedLayoutAttr getBlockedLayout(mlir::Type type);

/// Per-thread view of a block type with a blocked layout.
struct ThreadTiling {
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<unsigned> sizePerThread, threadsPerWarp, warpsPerCTA, order;
  /// Elements one tile covers along each dimension (sizePerThread * lanes * warps).
  llvm::SmallVector<int64_t> tile;
  /// Tiles along each dimension (>= 1; a tile larger than the block repeats data).
  llvm::SmallVector<int64_t> reps;

  static ThreadTiling get(mlir::RankedTensorType type);
  int64_t elemsPerThread() const;
  /// For register `reg`, the coordinate offsets that do not depend on the
  /// thread: the thread's own base is added to them.
  llvm::SmallVector<int64_t> registerOffsets(int64_t reg) const;
  /// Number of consecutive registers that hold consecutive elements of the
  /// fastest dimension (a vector access never crosses such a run).
  unsigned contiguousRegisters() const { return sizePerThread[order[0]]; }
};

} // namespace blk

#endif
