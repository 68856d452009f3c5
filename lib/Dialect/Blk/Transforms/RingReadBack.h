// How blk-pipeline-dot reads back a ring that only threads read (a load
// beside the loop's dots, copied ahead by cp.async): the layout it is read
// in, and an arrangement of the ring for those reads.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_RINGREADBACK_H
#define BLK_DIALECT_BLK_TRANSFORMS_RINGREADBACK_H

#include "blk/Dialect/Blk/IR/Dialect.h"

namespace blk {

/// The layout to read back an 8-bit B tile [K, N] in from its ring (lines
/// `ring.getContig()`) when it is written each iteration into its K-major
/// `buffer`, chosen on the shared-memory wavefronts of the copies into the
/// ring (`writeVector` elements an access), the reads out of it (its
/// arrangement for tensor cores or for those threads, whichever costs
/// less) and the writes into the buffer; null where the tile's own layout
/// costs least.
mlir::RankedTensorType readBackType(mlir::RankedTensorType type, SharedBufferType ring, SharedBufferType buffer,
                                    int64_t writeVector);

/// `ring` arranged for threads (SharedBufferType's `xor`) when an XOR
/// swizzle of its slots' element index takes fewer shared-memory
/// wavefronts than the tensor-core arrangement for both the copies into it
/// (`written`'s layout, `writeVector` elements an access) and the reads in
/// `read`'s layout, or as many with nothing flipped (its addresses fold
/// into constants per register); null otherwise.
SharedBufferType threadArrangedRing(SharedBufferType ring, mlir::RankedTensorType written, int64_t writeVector,
                                    mlir::RankedTensorType read);

} // namespace blk

#endif
