// Bank-conflict-free arrangements of a layout move's shared-memory buffer:
// an XOR swizzle of the row-major element index, chosen on the linear maps
// of both sides' lanes, so that neither the writes nor the reads of one
// access phase hit a bank twice, with no padding.
#ifndef BLK_ANALYSIS_SHAREDSWIZZLE_H
#define BLK_ANALYSIS_SHAREDSWIZZLE_H

#include "blk/Dialect/Blk/IR/Layout.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace blk {

/// Flips bit `target` of an element index where its bit `source` is set,
/// for each (target, source) pair. Every source is above every target, so
/// the map is its own inverse (a permutation of the buffer) and keeps runs
/// of 2^(lowest target) elements together.
struct SharedSwizzle {
  llvm::SmallVector<std::pair<unsigned, unsigned>, 5> xors;
  int64_t apply(int64_t index) const;
  /// The bits the swizzle may flip.
  int64_t targetMask() const;
};

/// One side of a move through shared memory: how far (in elements of the
/// row-major buffer) flipping each lane bit moves a thread's access, and
/// the elements one access moves (a vector).
struct SharedAccess {
  llvm::SmallVector<int64_t, 5> laneSteps;
  int64_t vector = 1;
};

/// Whether the lanes of one access phase of `side` (the lanes whose accesses
/// fill 128 bytes) touch distinct banks, or one 4-byte word, in a buffer of
/// `elemBytes`-byte elements indexed through `swizzle`.
bool conflictFree(const SharedAccess &side, int64_t elemBytes, const SharedSwizzle &swizzle);

/// A swizzle under which both sides are conflict free and each side's
/// vectors stay whole, in a buffer of `numElements` (a power of two): none
/// at all where row-major order is, else each bit above a 128-byte line
/// that a phase's lanes move flips up to two bits within the line, found
/// depth first (no flip tried first); none where there is none (the buffer
/// is padded then).
std::optional<SharedSwizzle> findSharedSwizzle(const SharedAccess &write, const SharedAccess &read,
                                               int64_t elemBytes, int64_t numElements);

/// The most distinct 4-byte words one bank serves in an access phase of
/// warp 0 of `layout` (1: no conflict), its registers accessing runs of
/// `vector` elements of `elemBytes` at element offset `offsetOf(coords)`:
/// any arrangement (a padded buffer's too), counted access by access.
int64_t bankConflictWays(const LinearLayout &layout, int64_t vector, int64_t elemBytes,
                         llvm::function_ref<int64_t(const LinearLayout::Coord &)> offsetOf);

} // namespace blk

#endif
