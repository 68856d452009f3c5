// ldmatrix and stmatrix: which row of which 8x8 matrix each lane addresses.
#ifndef BLK_CONVERSION_BLKTOLLVM_MATRIXLANES_H
#define BLK_CONVERSION_BLKTOLLVM_MATRIXLANES_H

#include "blk/Dialect/Blk/IR/Layout.h"

#include "mlir/IR/Builders.h"

#include <array>

namespace blk {

/// An 8x8 matrix of a thread's fragments: its origin in lane 0's frame and
/// the two registers (a 32-bit pair of 16-bit elements) each lane holds.
struct FragmentMatrix {
  LinearLayout::Coord at;
  int64_t lo, hi;
};

/// The lanes of an ldmatrix or stmatrix of up to four matrices: lanes
/// 8q..8q+7 address the rows of matrix q.
class MatrixLanes {
public:
  MatrixLanes(mlir::OpBuilder &b, mlir::Location loc, const LinearLayout &layout);

  /// The matrices one instruction takes from `first` of `total`: 4, 2 or 1
  /// (.x4, .x2, .x1).
  static unsigned countAt(size_t first, size_t total);

  /// This lane's row of `matrices` (one instruction's): the coordinates of
  /// row lane % 8 of matrix (lane / 8) % count, rows advancing along `rowDim`.
  std::array<mlir::Value, 2> rowOrigin(mlir::OpBuilder &b, mlir::Location loc,
                                       llvm::ArrayRef<FragmentMatrix> matrices, unsigned rowDim) const;

private:
  mlir::Value rowInMatrix, laneGroup;
  mlir::Value warpOffset[2];
};

} // namespace blk

#endif
