// The tiling step for tensor cores: each dot the target can run on mma.sync
// or wgmma gets an `mma` attribute (instruction shape and warps per tile, a layout);
// blk-assign-layouts then spreads it over the accumulator's group.
#include "blk/Dialect/Blk/IR/Layout.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKACCELERATEDOTPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// The instruction's K for these operands on this target; 0 when the dot
/// stays on CUDA cores.
unsigned mmaK(DotOp dot, unsigned computeCapability) {
  if (computeCapability < 80)
    return 0;
  Type elem = dot.getA().getType().getElementType();
  bool tf32 = elem.isF32() && dot.getInputPrecision() == "tf32";
  bool fp8 = isFloat8(elem) && computeCapability >= 89; // mma.sync e4m3/e5m2 came with Ada
  unsigned k = elem.isF16() || elem.isBF16() ? 16 : elem.isInteger(8) || fp8 ? 32 : tf32 ? 8 : 0;
  auto a = dot.getA().getType();
  if (!k || a.getDimSize(0) < 16 || a.getDimSize(1) < k || dot.getB().getType().getDimSize(1) < 8)
    return 0;
  return k;
}

/// Warps along M and N: each doubling goes to the dimension whose per-warp
/// tile is longer (M on ties), while the warp tile stays at least one
/// instruction (16 x 8); warps beyond that hold copies along M.
std::pair<unsigned, unsigned> warpTiling(int64_t m, int64_t n, unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool mSplits = m / (16 * wm) >= 2, nSplits = n / (8 * wn) >= 2;
    if (mSplits && (!nSplits || m / wm >= n / wn))
      wm *= 2;
    else if (nSplits)
      wn *= 2;
    else
      wm *= 2;
  }
  return {wm, wn};
}

struct AccelerateDot : impl::BlkAccelerateDotPassBase<AccelerateDot> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](DotOp dot) {
      unsigned k = mmaK(dot, computeCapability);
      auto result = dot.getResult().getType();
      if (!k || dot.getMmaAttr() || result.getEncoding())
        return;
      int64_t m = result.getDimSize(0), n = result.getDimSize(1);
      Type elem = dot.getA().getType().getElementType();
      bool wgmmaShape = wgmma && numWarps % 4 == 0 && m % (16 * numWarps) == 0 && n % 8 == 0 && n <= 256 &&
                        dot.getA().getType().getDimSize(1) % k == 0;
      // 8-bit floats too: wgmma reads them only K-major, so an operand
      // loaded along M or N is transposed on its way (A converted into
      // registers, B written K-major into shared memory: blk-pipeline-dot).
      if (wgmmaShape && (elem.isF16() || elem.isBF16() || isFloat8(elem))) {
        dot.setMmaAttr(MmaLayoutAttr::get(&getContext(), 3, {unsigned(numWarps), 1}, {64, unsigned(n), k}));
        return;
      }
      auto [wm, wn] = warpTiling(m, n, numWarps);
      dot.setMmaAttr(MmaLayoutAttr::get(&getContext(), 2, {wm, wn}, {16, 8, k}));
    });
  }
};

} // namespace
} // namespace blk
