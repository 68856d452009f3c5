// The arrangement blk-pipeline-dot gives a ring only threads read
// (threadArrangedRing): f32 activations copied in 16-byte rows and read back
// as a wgmma register A (kWidth 4) meet 2-way bank conflicts in the
// tensor-core arrangement (an LDS.128 phase holds rows r and r + 1, whose
// 16-byte units the 128B swizzle maps onto one set of banks); the thread
// arrangement found instead has none on either side and takes fewer
// wavefronts. A ring the tensor-core arrangement already serves keeps it.
#include "../../lib/Dialect/Blk/Transforms/RingReadBack.h"

#include "blk/Analysis/SharedSwizzle.h"
#include "blk/Dialect/Blk/IR/Layout.h"

#include "mlir/IR/Builders.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

struct Ctx {
  mlir::MLIRContext ctx;
  Ctx() { ctx.loadDialect<BlkDialect>(); }
};

/// The most ways one bank serves `layout`'s accesses of `vector` elements
/// to a slot of `ring`.
int64_t ways(const LinearLayout &layout, int64_t vector, SharedBufferType ring) {
  int64_t bytes = ring.getElementBytes();
  return bankConflictWays(layout, vector, bytes,
                          [&](const LinearLayout::Coord &c) { return ring.tileByteOffset(c) / bytes; });
}

TEST(RingReadBack, RegisterAFromF32RowsIsArrangedForThreads) {
  Ctx c;
  mlir::Builder b(&c.ctx);
  for (unsigned warps : {4u, 8u})
    for (int64_t k : {64, 128}) {
      llvm::SmallVector<int64_t> shape{128, k};
      auto written = mlir::RankedTensorType::get(
          shape, b.getF32Type(), BlockedLayoutAttr::get(&c.ctx, {1, 4}, {4, 8}, {warps, 1}, {1, 0}));
      auto mma = MmaLayoutAttr::get(&c.ctx, 3, {warps, 1}, {64, 128, 32});
      auto read = mlir::RankedTensorType::get(shape, b.getF32Type(), DotOperandLayoutAttr::get(&c.ctx, 0, mma, 4));
      auto ring = SharedBufferType::get(&c.ctx, {2, 128, k}, b.getF32Type(), 1);
      LinearLayout writes = LinearLayout::get(written), reads = LinearLayout::get(read);
      ASSERT_EQ(ways(reads, 4, ring), 2) << warps << " warps, K " << k;
      SharedBufferType arranged = threadArrangedRing(ring, written, 4, read);
      ASSERT_TRUE(arranged) << warps << " warps, K " << k;
      EXPECT_TRUE(arranged.isThreadArranged());
      EXPECT_EQ(arranged.getShape(), ring.getShape());
      EXPECT_GE(arranged.threadRunElements(), 4);
      EXPECT_EQ(ways(writes, 4, arranged), 1);
      EXPECT_EQ(ways(reads, 4, arranged), 1);
      auto byteOf = [](SharedBufferType t) {
        return [t](const LinearLayout::Coord &coord) { return t.tileByteOffset(coord); };
      };
      EXPECT_LT(sharedWavefronts(reads, 1, 4, byteOf(arranged)), sharedWavefronts(reads, 1, 4, byteOf(ring)));
    }
}

TEST(RingReadBack, ConflictFreeRingsKeepTheirLinesInOrder) {
  Ctx c;
  mlir::Builder b(&c.ctx);
  llvm::SmallVector<int64_t> shape{64, 64};
  // bf16 rows copied and read in the same 16-byte vectors, 8 lanes (128
  // bytes) to a row: an access phase is one line, in either arrangement.
  // Lines one after another (nothing flipped) win the tie: a register's
  // element is then its thread's plus a constant.
  auto rows = mlir::RankedTensorType::get(shape, b.getBF16Type(),
                                          BlockedLayoutAttr::get(&c.ctx, {1, 8}, {4, 8}, {4, 1}, {1, 0}));
  auto ring = SharedBufferType::get(&c.ctx, {3, 64, 64}, b.getBF16Type(), 1);
  SharedBufferType inOrder = threadArrangedRing(ring, rows, 8, rows);
  ASSERT_TRUE(inOrder);
  EXPECT_TRUE(inOrder.isThreadArranged());
  EXPECT_TRUE(inOrder.getXors().empty());
  EXPECT_EQ(inOrder.tileByteOffset({5, 24}), (5 * 64 + 24) * 2);
  LinearLayout linear = LinearLayout::get(rows);
  auto wavefronts = [&](SharedBufferType t) {
    return sharedWavefronts(linear, 1, 2, [t](const LinearLayout::Coord &coord) { return t.tileByteOffset(coord); });
  };
  EXPECT_EQ(wavefronts(inOrder), wavefronts(ring));
  // Tiles of other than powers of two have no element-index swizzle.
  auto odd = SharedBufferType::get(&c.ctx, {2, 96, 64}, b.getBF16Type(), 1);
  auto oddRows = mlir::RankedTensorType::get({96, 64}, b.getBF16Type(),
                                             BlockedLayoutAttr::get(&c.ctx, {1, 8}, {8, 4}, {4, 1}, {1, 0}));
  EXPECT_FALSE(threadArrangedRing(odd, oddRows, 8, oddRows));
  // Four lanes of 16 bytes to a row put rows r and r + 1 in one phase:
  // the 128B swizzle maps their units onto one set of banks, the thread
  // arrangement does not.
  auto halfRows = mlir::RankedTensorType::get(shape, b.getBF16Type(),
                                              BlockedLayoutAttr::get(&c.ctx, {1, 8}, {8, 4}, {4, 1}, {1, 0}));
  ASSERT_EQ(ways(LinearLayout::get(halfRows), 8, ring), 2);
  SharedBufferType arranged = threadArrangedRing(ring, halfRows, 8, halfRows);
  ASSERT_TRUE(arranged);
  EXPECT_EQ(ways(LinearLayout::get(halfRows), 8, arranged), 1);
}

// An 8-bit B [K, N] copied N-major (16 bytes along N a thread, 4 lanes to
// a 64-byte line) and written K-major into wgmma's buffer each iteration:
// the layout it is read back in is chosen with the ring's arrangement. On
// the tensor-core arrangement the best read takes 2 x 16 elements a thread,
// 32 lanes along K: 8 wavefronts a warp for the copies, 16 for the reads,
// 16 for the writes into the buffer. Arranged for threads, the copies and
// reads take 8 each, for that layout and for 4 x 8 elements with 16 lanes
// along K; the latter takes fewer accesses (4 reads of 8 bytes, 8 writes of
// 4 bytes against 2 and 16).
TEST(RingReadBack, ByteTransposeReadsAnArrangedRing) {
  Ctx c;
  mlir::Builder b(&c.ctx);
  auto i8 = b.getIntegerType(8);
  llvm::SmallVector<int64_t> shape{64, 64};
  auto own = mlir::RankedTensorType::get(shape, i8, BlockedLayoutAttr::get(&c.ctx, {1, 16}, {8, 4}, {4, 1}, {1, 0}));
  auto ring = SharedBufferType::get(&c.ctx, {3, 64, 64}, i8, 1);
  auto buffer = SharedBufferType::get(&c.ctx, {3, 64, 64}, i8, 0);
  auto waves = [&](mlir::RankedTensorType t, SharedBufferType into) {
    return sharedWavefronts(LinearLayout::get(t), into.getContig(), 1,
                            [&](const LinearLayout::Coord &coord) { return into.tileByteOffset(coord); });
  };
  auto tensorCoreBest =
      mlir::RankedTensorType::get(shape, i8, BlockedLayoutAttr::get(&c.ctx, {2, 16}, {32, 1}, {1, 4}, {0, 1}));
  EXPECT_EQ(waves(own, ring), 8);
  EXPECT_EQ(waves(tensorCoreBest, ring), 16);
  EXPECT_EQ(waves(tensorCoreBest, buffer), 16);
  mlir::RankedTensorType got = readBackType(own, ring, buffer, 16);
  ASSERT_TRUE(got);
  EXPECT_EQ(got.getEncoding(), BlockedLayoutAttr::get(&c.ctx, {4, 8}, {16, 2}, {1, 4}, {1, 0}));
  SharedBufferType arranged = threadArrangedRing(ring, own, 16, got);
  ASSERT_TRUE(arranged);
  EXPECT_EQ(waves(own, arranged), 8);
  EXPECT_EQ(waves(got, arranged), 8);
  EXPECT_EQ(waves(got, buffer), 16);
}

} // namespace
