// How a layout move (convert_layout, trans, reshape) gets each thread the
// elements its result's layout gives it, decided on linear layouts: by
// renaming registers, by warp shuffles when every element stays in its warp,
// by an ldmatrix tile for tensor-core operands, or through shared memory.
// The allocator, the lowering and `blkc --emit=layouts` ask the same plan.
#ifndef BLK_ANALYSIS_LAYOUTMOVE_H
#define BLK_ANALYSIS_LAYOUTMOVE_H

#include "blk/Dialect/Blk/IR/Layout.h"

#include <optional>

namespace blk {

/// A linear map over GF(2) of a thread's lane id and warp id to an index (a
/// lane or a register): the XOR of the columns of the id's set bits.
struct ThreadBitMap {
  llvm::SmallVector<int64_t> lane, warp; // one column per lane bit, per warp bit
  int64_t apply(int64_t laneId, int64_t warpId) const;
  bool isZero() const;
  /// Whether the map is the lane id itself.
  bool isLaneIdentity() const;
  /// A basis of the map's image in which each vector's highest bit is set
  /// in no other: a value of the image is the XOR of the vectors whose
  /// highest bit it has (what a select tree tests, one bit per vector).
  llvm::SmallVector<int64_t> imageBasis() const;
};

/// A move inside each warp in rounds of one shfl.sync.idx (per 32-bit word
/// of an element): in round k each lane offers its source register
/// `roundRegister[k] ^ offeredRegister(lane, warp)` and reads the value lane
/// `roundLane[k] ^ sourceLane(lane, warp)` offers; its result register r is
/// the value it read in round `r ^ resultRound(lane)`. No two readers of one
/// lane in a round want different registers. The rounds are as many as the
/// result's registers, more when fewer lanes hold what a warp needs than
/// read it (each offers one value a round).
struct WarpShufflePlan {
  llvm::SmallVector<int64_t> roundLane, roundRegister;
  ThreadBitMap sourceLane, offeredRegister, resultRound;
  int64_t numResults = 0; // result registers per thread

  int64_t numRounds() const { return int64_t(roundLane.size()); }
  /// Whether round k reads the thread's own offer (no shuffle).
  bool readsOwnValue(int64_t k) const { return roundLane[k] == 0 && sourceLane.isLaneIdentity(); }
  /// shfl.sync.idx per element (rounds that read another lane).
  int64_t shuffles() const;
  /// Selects per element: offers (one tree per distinct roundRegister) and
  /// results (one tree per result register).
  int64_t selects() const;
  /// No shuffle and no select: result register k is source register roundRegister[k].
  bool isRegisterRename() const { return shuffles() == 0 && selects() == 0; }
};

/// The shuffle plan of moving a block from layout `from` to layout `to`,
/// where `toSource` gives the source coordinates of a result coordinate
/// (linear: the identity, a transpose's reversal, a reshape's row-major
/// re-indexing); none when an element leaves its warp or the rounds cannot
/// be formed (then shared memory moves it).
std::optional<WarpShufflePlan>
planWarpShuffles(const LinearLayout &from, const LinearLayout &to,
                 llvm::function_ref<LinearLayout::Coord(const LinearLayout::Coord &)> toSource);

enum class MovePath { Registers, Shuffles, Ldmatrix, Shared };

struct LayoutMovePlan {
  MovePath path = MovePath::Shared;
  /// Registers (from a plan) and Shuffles: the rounds. Empty for a
  /// convert_layout between layouts with the same lanes and warps, which
  /// renames registers by position.
  std::optional<WarpShufflePlan> rounds;
  /// Estimated warp instructions per thread: shuffles (a select counts
  /// half) and the shared-memory round trip (each 32-bit word stored and
  /// loaded, and two barriers); the cheaper path is taken.
  int64_t shuffleCost = 0, sharedCost = 0;
};

/// The path of a layout move `op` (convert_layout, trans or reshape whose
/// blocks have layouts).
LayoutMovePlan planLayoutMove(mlir::Operation *op);

/// The path of moving a block of `words` 32-bit words per element from
/// layout `from` to layout `to`, `toSource` giving the source coordinates of
/// a result coordinate (as for planWarpShuffles); ldmatrix not considered.
LayoutMovePlan planLayoutMove(const LinearLayout &from, const LinearLayout &to,
                              llvm::function_ref<LinearLayout::Coord(const LinearLayout::Coord &)> toSource,
                              int64_t words);
/// The estimated cost of a plan: its path's (zero for registers).
int64_t moveCost(const LayoutMovePlan &plan);

/// 32-bit words of one element of `type` in registers (pointers are 64-bit).
int64_t wordsPerElement(mlir::Type type);

/// The coordinates, in a block of shape `to`, of the element at `c` in a
/// block of shape `from` with the same row-major position (a reshape).
LinearLayout::Coord reshapedCoord(llvm::ArrayRef<int64_t> from, llvm::ArrayRef<int64_t> to,
                                  const LinearLayout::Coord &c);

/// The source coordinates of result coordinate `c` of a layout move `op`.
LinearLayout::Coord layoutMoveSource(mlir::Operation *op, const LinearLayout::Coord &c);

/// The order of a transpose or permute (dimension d of the result is
/// dimension order[d] of the source); empty for moves that keep coordinates
/// (conversions) or the row-major order (reshapes).
llvm::SmallVector<int64_t, 4> movePermutation(mlir::Operation *op);

} // namespace blk

#endif
