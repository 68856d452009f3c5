// Shared-memory scratch: which ops need a buffer while they run and how big
// it is. The allocation pass places the buffers; the lowering reads the
// offsets back through the same functions, so sizes agree by construction.
#ifndef BLK_ANALYSIS_ALLOCATION_H
#define BLK_ANALYSIS_ALLOCATION_H

#include "blk/Analysis/SharedSwizzle.h"
#include "blk/Dialect/Blk/IR/Layout.h"

namespace blk {

/// A scratch buffer of one op: its size and where each operand's part starts
/// (relative to the buffer).
struct ScratchPlan {
  int64_t bytes = 0;
  llvm::SmallVector<int64_t> partOffsets;
};

/// Bytes one element of `type` takes in shared memory (booleans: one byte).
int64_t sharedElementBytes(mlir::Type type);

/// Warp bits of `layout` that move along `axis` (a reduction along `axis`
/// combines across them through shared memory).
unsigned warpBitsAlong(const LinearLayout &layout, unsigned axis);
/// The register bits of `layout` along `axis` that move less than every
/// warp bit along it: a scan combines them before it crosses warps, so the
/// registers that differ only in them share one slot of its scratch.
int64_t scanFoldedRegisterBits(const LinearLayout &layout, unsigned axis);
/// The scratch slot of register `r`: its index with the bits of `folded` taken out.
int64_t scanSlotOf(int64_t r, int64_t folded);

/// Whether converting `from` to `to` moves data between threads (otherwise
/// it only renames registers).
bool crossesThreads(const LinearLayout &from, const LinearLayout &to);

/// Elements a layout move (convert_layout, reshape, trans) writes in shared
/// memory in row-major order are padded every `period` elements so that a
/// column of a 2-D block spreads over the banks instead of hitting one (a
/// transpose's store or read would otherwise conflict 16 or 32 ways).
/// `storage` is the shape written: the result's for a transpose, the
/// source's otherwise. Returns 0 (no padding) for 1-D blocks.
int64_t sharedPadPeriod(mlir::RankedTensorType storage);
/// Elements the padded buffer of `storage` takes with `pad` elements after
/// every period.
int64_t paddedSharedElements(mlir::RankedTensorType storage, int64_t pad = 1);

/// How a layout move (convert_layout, reshape, trans) goes through shared
/// memory, for the allocator and the lowering alike: each thread writes
/// (reads) runs of `write` (`read`) consecutive elements along the last
/// dimension in one access; the buffer holds the row-major `storage` shape
/// (the result's for a transpose, the source's otherwise): in row-major
/// order where no access phase of either side hits a bank twice; else with
/// `pad` elements after every sharedPadPeriod(storage) where that keeps
/// them off; else, its element indices XOR-swizzled where a swizzle does
/// (findSharedSwizzle, on the lanes' linear maps; shapes of powers of two);
/// else padded. A conversion moves vectors (up to 16 bytes)
/// only when both sides have runs: then the padding is the wider vector,
/// which keeps both aligned and shifts consecutive rows by whole vectors
/// across the banks. Otherwise, and for reshapes and transposes, elements
/// move one by one over one element of padding, which spreads a column over
/// all 32 banks.
struct SharedMove {
  mlir::RankedTensorType storage;
  int64_t write = 1, read = 1, pad = 1;
  std::optional<SharedSwizzle> swizzle;
  /// Elements the buffer takes: the block's, or with padding.
  int64_t elements() const;
};
SharedMove sharedMoveOf(mlir::Operation *op);

/// Whether a layout conversion that moves elements between threads goes to a 16-bit tensor-core operand through
/// a swizzled tile read with ldmatrix (lowering: DotOperandToLLVM.cpp). The
/// tile holds the block unpadded, arranged as a ring's slot (lines along the
/// source's contiguous dimension, 16-byte units XOR-swizzled by line).
bool isLdmatrixConversion(mlir::RankedTensorType from, mlir::RankedTensorType to);

/// Whether a sort exchanges elements through shared memory: a compare-
/// exchange distance along its axis that no register or lane bit of the
/// source's layout spans (warps, or no single bit), or a cut of its rows to
/// fewer elements (topk). Otherwise registers and shuffles suffice.
bool sortGoesThroughShared(SortOp sort);

/// The scratch `op` needs (bytes 0 when it needs none). Ops without layouts
/// on their blocks need none.
ScratchPlan scratchFor(mlir::Operation *op);

} // namespace blk

#endif
