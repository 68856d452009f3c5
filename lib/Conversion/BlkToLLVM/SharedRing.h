// Addresses in a !blk.smem ring: the swizzled arrangement its type
// describes, shared by cp.async writers, ldmatrix readers and wgmma
// descriptors.
#ifndef BLK_CONVERSION_BLKTOLLVM_SHAREDRING_H
#define BLK_CONVERSION_BLKTOLLVM_SHAREDRING_H

#include "Patterns.h"

namespace blk {

struct SharedRing {
  SharedBufferType type;
  unsigned contig;    // the tile dimension along a line
  int64_t width;      // bytes per line (the swizzle width W)
  int64_t lineElems;  // elements per line
  int64_t lines;      // lines per chunk: the other dimension's extent
  int64_t elemBytes;
  explicit SharedRing(SharedBufferType t)
      : type(t), contig(t.getContig()), width(t.getSwizzleBytes()), elemBytes(t.getElementBytes()) {
    lineElems = width / elemBytes;
    lines = t.getTileShape()[1 - contig];
  }
  /// Bytes of one chunk: `lines` lines of W bytes.
  int64_t chunkBytes() const { return lines * width; }
  /// The wgmma descriptor's swizzle mode: 1 for 128 bytes, 2 for 64, 3 for 32.
  int64_t swizzleMode() const { return width == 128 ? 1 : width == 64 ? 2 : 3; }
  /// Byte offset (i32) in the ring of tile element `coords` (i32) of `slot`.
  mlir::Value byteOffset(mlir::OpBuilder &b, mlir::Location loc, mlir::Value slot,
                         llvm::ArrayRef<mlir::Value> coords) const;
};

} // namespace blk

#endif
