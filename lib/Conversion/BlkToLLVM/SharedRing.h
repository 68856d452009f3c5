// Addresses in a !blk.smem ring: the swizzled arrangement its type
// describes, shared by cp.async writers, ldmatrix readers and wgmma
// descriptors.
#ifndef BLK_CONVERSION_BLKTOLLVM_SHAREDRING_H
#define BLK_CONVERSION_BLKTOLLVM_SHAREDRING_H

#include "Patterns.h"

namespace blk {

/// One arrangement of 2-D tiles in shared memory, for rings and for the
/// tiles of ldmatrix conversions: dimension `contig` runs along lines of W
/// bytes (the smaller of 128 and a whole line); longer lines are split into
/// W-byte chunks stored one after another; in each line the 16-byte units
/// are XOR-ed with bits 7.. of the line's offset (the hardware's 128B, 64B
/// and 32B swizzles), so 8 lines read at one unit hit 8 bank groups.
struct SharedRing {
  unsigned contig;    // the tile dimension along a line
  int64_t elemBytes;
  int64_t width;      // bytes per line (the swizzle width W)
  int64_t lineElems;  // elements per line
  int64_t lines;      // lines per chunk: the other dimension's extent
  int64_t slotBytes;  // one tile
  // A ring arranged for threads instead (SharedBufferType's `xor`): lines
  // of `length` elements one after another, the element index's bits
  // flipped pair by pair (flipped bit, source bit), maybe none.
  bool threadArranged = false;
  llvm::SmallVector<int64_t> xors;
  int64_t length = 0;
  SharedRing(llvm::ArrayRef<int64_t> tileShape, int64_t elemBytes, unsigned contig)
      : contig(contig), elemBytes(elemBytes),
        width(SharedBufferType::swizzleBytes(tileShape[contig] * elemBytes)), lineElems(width / elemBytes),
        lines(tileShape[1 - contig]), slotBytes(tileShape[0] * tileShape[1] * elemBytes), length(tileShape[contig]) {}
  explicit SharedRing(SharedBufferType t) : SharedRing(t.getTileShape(), t.getElementBytes(), t.getContig()) {
    threadArranged = t.isThreadArranged();
    xors.assign(t.getXors().begin(), t.getXors().end());
  }
  /// Elements that stay next to each other along a line: a 16-byte unit
  /// of the tensor-core arrangement, or up to the lowest flipped bit.
  int64_t runElements() const {
    int64_t run = 16 / elemBytes;
    for (size_t i = 0; i < xors.size(); i += 2)
      run = std::min(run, int64_t(1) << xors[i]);
    return run;
  }
  /// Bytes of one chunk: `lines` lines of W bytes.
  int64_t chunkBytes() const { return lines * width; }
  /// The wgmma descriptor's swizzle mode: 1 for 128 bytes, 2 for 64, 3 for 32.
  int64_t swizzleMode() const { return width == 128 ? 1 : width == 64 ? 2 : 3; }
  /// The thread arrangement's element index of a slot's (line, pos), its
  /// bits flipped pair by pair: at compile time, and as IR (i32).
  int64_t swizzledIndex(int64_t line, int64_t pos) const;
  mlir::Value swizzledIndex(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::Value> coords) const;
  /// Byte offset (i32) of tile element `coords` (i32) of `slot` (null:
  /// the first).
  mlir::Value byteOffset(mlir::OpBuilder &b, mlir::Location loc, mlir::Value slot,
                         llvm::ArrayRef<mlir::Value> coords) const;
};

} // namespace blk

#endif
