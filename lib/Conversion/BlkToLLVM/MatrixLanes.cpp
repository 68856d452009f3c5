#include "MatrixLanes.h"
#include "Patterns.h"

using namespace mlir;

namespace blk {

MatrixLanes::MatrixLanes(OpBuilder &b, Location loc, const LinearLayout &layout) {
  Value lane = emitLaneId(b, loc), warp = emitWarpId(b, loc);
  rowInMatrix = LLVM::AndOp::create(b, loc, lane, i32Const(b, loc, 7));
  laneGroup = LLVM::LShrOp::create(b, loc, lane, i32Const(b, loc, 3));
  for (unsigned d = 0; d < 2; ++d)
    warpOffset[d] = emitBasisSum(b, loc, warp, layout.warps, d);
}

unsigned MatrixLanes::countAt(size_t first, size_t total) {
  unsigned count = unsigned(std::min<size_t>(4, total - first));
  return count == 3 ? 2 : count;
}

std::array<Value, 2> MatrixLanes::rowOrigin(OpBuilder &b, Location loc, ArrayRef<FragmentMatrix> matrices,
                                            unsigned rowDim) const {
  unsigned count = unsigned(matrices.size());
  // This lane's matrix: q = laneGroup % count, chosen by selects.
  Value q = LLVM::AndOp::create(b, loc, laneGroup, i32Const(b, loc, count - 1));
  std::array<Value, 2> coord;
  for (unsigned d = 0; d < 2; ++d) {
    Value v = i32Const(b, loc, matrices[0].at[d]);
    for (unsigned m = 1; m < count; ++m) {
      Value isM = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, q, i32Const(b, loc, m));
      v = LLVM::SelectOp::create(b, loc, isM, i32Const(b, loc, matrices[m].at[d]), v);
    }
    v = LLVM::XOrOp::create(b, loc, v, warpOffset[d]);
    if (d == rowDim)
      v = LLVM::AddOp::create(b, loc, v, rowInMatrix);
    coord[d] = v;
  }
  return coord;
}

} // namespace blk
