// Layout arithmetic. Every layout (blocked, or a slice of one) is turned into
// one general form, a linear map: each bit of a thread's register index, lane
// id and warp id contributes a basis vector (a block coordinate), and the
// element a (register, lane, warp) triple holds is the XOR of the bases of its
// set bits. Lowerings only ever ask this form, never the attribute kinds.
#ifndef BLK_DIALECT_BLK_IR_LAYOUT_H
#define BLK_DIALECT_BLK_IR_LAYOUT_H

#include "blk/Dialect/Blk/IR/Dialect.h"

#include <optional>

namespace blk {

inline constexpr unsigned kWarpSize = 32;

/// The blocked layout that spreads `shape` over `numWarps` warps, each thread
/// holding up to `vec` consecutive elements of the fastest dimension: fewer
/// when the block has fewer than `vec` per thread, but not fewer than
/// `minPerThread` (the threads past the block then hold copies).
/// `order` lists the dimensions fastest first (empty: row-major, the last
/// dimension fastest).
BlockedLayoutAttr getBlockedLayout(mlir::MLIRContext *ctx,
                                   llvm::ArrayRef<int64_t> shape,
                                   unsigned numWarps, unsigned vec,
                                   llvm::ArrayRef<unsigned> order = {},
                                   int64_t minPerThread = 1);

/// The blocked layout of a block type, or null when it has none.
BlockedLayoutAttr getBlockedLayout(mlir::Type type);

/// Whether a block type carries a layout (blocked, slice, mma or dot operand).
bool hasLayout(mlir::Type type);
/// The block type `type` with `encoding` as its layout.
inline mlir::RankedTensorType withEncoding(mlir::Type type, mlir::Attribute encoding) {
  auto t = mlir::cast<mlir::RankedTensorType>(type);
  return mlir::RankedTensorType::get(t.getShape(), t.getElementType(), encoding);
}

struct LinearLayout {
  using Coord = llvm::SmallVector<int64_t, 4>;
  llvm::SmallVector<int64_t, 4> shape;
  /// One basis per bit of the register index, lane id and warp id. Register
  /// bases are never zero (no register holds a copy of another); a zero lane
  /// or warp basis means those threads hold copies (broadcast).
  llvm::SmallVector<Coord> regs, lanes, warps;

  /// The layout of a block type with a blocked or slice encoding.
  static LinearLayout get(mlir::RankedTensorType type);
  static LinearLayout get(mlir::Attribute encoding, llvm::ArrayRef<int64_t> shape);
  static LinearLayout blocked(BlockedLayoutAttr layout, llvm::ArrayRef<int64_t> shape);
  static LinearLayout mma(MmaLayoutAttr layout, llvm::ArrayRef<int64_t> shape);
  static LinearLayout dotOperand(DotOperandLayoutAttr layout, llvm::ArrayRef<int64_t> shape);
  /// The same map with dimension `dim` dropped from every basis (the layout of
  /// a reduction's result along `dim`); register bits that no longer move
  /// anything are removed.
  LinearLayout sliced(unsigned dim) const;
  /// The same threads holding the same elements of a block of `newShape`
  /// that element `c` moves to at `moveTo(c)`, a linear map (a reshape
  /// between shapes of powers of two, a permutation): every basis moved.
  LinearLayout moved(llvm::ArrayRef<int64_t> newShape,
                     llvm::function_ref<Coord(const Coord &)> moveTo) const;

  unsigned rank() const { return shape.size(); }
  int64_t numRegisters() const { return int64_t(1) << regs.size(); }
  /// Coordinates of register `reg` for lane 0 of warp 0.
  Coord registerCoord(int64_t reg) const;
  /// Coordinates held by register `reg` of thread (`lane`, `warp`).
  Coord apply(int64_t reg, int64_t lane, int64_t warp) const;
  /// Number of leading registers holding consecutive elements of dimension
  /// `dim`: vector accesses along `dim` never cross such a run.
  unsigned contiguousRegisters(unsigned dim) const;
  /// Bit masks of the lane and warp bits whose basis is zero (copies).
  unsigned broadcastLaneMask() const;
  unsigned broadcastWarpMask() const;
  /// Whether the register bases share no bit with the lane and warp bases in
  /// any dimension, so that XOR of the two parts equals their sum.
  bool registersDisjointFromThreads() const;
  /// Which bit of the register index, lane id or warp id has basis `coord`
  /// (the first such bit: registers, then lanes, then warps), if any: moving
  /// an element by `coord` is flipping that bit.
  enum class BitKind { Register, Lane, Warp };
  struct InputBit {
    BitKind kind;
    unsigned bit;
  };
  std::optional<InputBit> bitWithBasis(llvm::ArrayRef<int64_t> coord) const;
  /// Row-major position of `coord` in the block.
  int64_t linearIndex(llvm::ArrayRef<int64_t> coord) const;
  int64_t numElements() const;
};

/// The blocked layout whose map is `l` with its registers in some order, if
/// there is one: each basis one bit of one dimension, no copies, each
/// dimension's bits from the lowest registers, then lanes, then warps, then
/// registers, and the dimensions taking lanes and warps in one order. Moving
/// a block into it renames registers.
BlockedLayoutAttr blockedLayoutWithMap(mlir::MLIRContext *ctx, const LinearLayout &l);

} // namespace blk

#endif
