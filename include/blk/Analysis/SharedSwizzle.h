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

/// The register bits (basis indices, in order) whose registers run along
/// dimension `contig` from an aligned start, up to 16 bytes of `elemBytes`
/// elements: the registers that differ only in them are one vector access
/// of a tile whose lines run along `contig`. Any bits qualify, not only the
/// lowest (a thread holding 4 x 4 bytes of a K-major tile reads its rows of
/// an N-major tile as 4-byte vectors, bits 2 and 3).
llvm::SmallVector<unsigned> lineVectorBits(const LinearLayout &layout, unsigned contig, int64_t elemBytes);

/// The registers of each vector access: for each register with none of
/// `bits` set, the registers `bits` spread out from it, in order.
llvm::SmallVector<llvm::SmallVector<int64_t>> lineVectors(int64_t numRegisters, llvm::ArrayRef<unsigned> bits);

/// Shared-memory wavefronts warp 0 of `layout` takes to access a tile in
/// vectors along `contig` (lineVectorBits), element coordinates at byte
/// `byteOf(coords)`: for each vector access and each access phase (the lanes
/// whose accesses fill 128 bytes), the most distinct 4-byte words one bank
/// serves.
int64_t sharedWavefronts(const LinearLayout &layout, unsigned contig, int64_t elemBytes,
                         llvm::function_ref<int64_t(const LinearLayout::Coord &)> byteOf);

} // namespace blk

#endif
