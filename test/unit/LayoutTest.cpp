#include "blk/Analysis/Allocation.h"
#include "blk/Analysis/LayoutMove.h"
#include "blk/Dialect/Blk/IR/Layout.h"

#include <gtest/gtest.h>
#include <map>

using namespace blk;

namespace {

struct Ctx {
  mlir::MLIRContext ctx;
  Ctx() { ctx.loadDialect<BlkDialect>(); }
};

/// Every element is held by exactly one owning (lane, warp, register): owners
/// are threads whose copy bits are zero.
void expectExactCover(const LinearLayout &l, unsigned warps) {
  std::map<int64_t, int> owned;
  unsigned laneCopies = l.broadcastLaneMask(), warpCopies = l.broadcastWarpMask();
  for (unsigned w = 0; w < warps; ++w)
    for (unsigned lane = 0; lane < 32; ++lane) {
      if ((lane & laneCopies) || (w & warpCopies))
        continue;
      for (int64_t r = 0; r < l.numRegisters(); ++r) {
        LinearLayout::Coord c = l.apply(r, lane, w);
        for (unsigned d = 0; d < l.rank(); ++d)
          ASSERT_LT(c[d], l.shape[d]);
        ++owned[l.linearIndex(c)];
      }
    }
  ASSERT_EQ(int64_t(owned.size()), l.numElements());
  for (auto [idx, count] : owned)
    EXPECT_EQ(count, 1) << "element " << idx;
}

TEST(Layout, VectorWidthAndRepetition) {
  Ctx c;
  auto layout = LinearLayout::blocked(getBlockedLayout(&c.ctx, {1024}, 4, 4), {1024});
  EXPECT_EQ(layout.contiguousRegisters(0), 4u);
  EXPECT_EQ(layout.numRegisters(), 8);
  EXPECT_EQ(layout.registerCoord(5)[0], 512 + 1); // second repetition, element 1 of the chunk
  EXPECT_EQ(layout.apply(0, 1, 0)[0], 4);         // lane 1 starts at element 4
  EXPECT_EQ(layout.apply(0, 0, 1)[0], 128);       // warp 1 after 32 lanes of 4
  expectExactCover(layout, 4);
}

TEST(Layout, SmallBlocksReplicate) {
  Ctx c;
  for (int64_t n : {1, 2, 32, 64, 128, 256, 4096})
    for (unsigned warps : {1u, 4u, 8u})
      for (unsigned vec : {1u, 4u, 8u}) {
        SCOPED_TRACE(std::to_string(n) + " " + std::to_string(warps) + " " + std::to_string(vec));
        expectExactCover(LinearLayout::blocked(getBlockedLayout(&c.ctx, {n}, warps, vec), {n}), warps);
      }
}

TEST(Layout, TwoDimensionsAndSlices) {
  Ctx c;
  for (auto shape : {std::vector<int64_t>{64, 128}, {8, 1024}, {128, 16}, {1, 256}, {32, 32}})
    for (unsigned warps : {1u, 4u, 8u}) {
      SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + " w" + std::to_string(warps));
      auto blocked = getBlockedLayout(&c.ctx, shape, warps, 4);
      LinearLayout l = LinearLayout::blocked(blocked, shape);
      expectExactCover(l, warps);
      for (unsigned dim : {0u, 1u}) {
        // The slice covers the remaining dimension exactly once, and equals
        // the parent over the block with a dimension of one, minus that dimension.
        auto slice = SliceLayoutAttr::get(&c.ctx, dim, blocked);
        int64_t n = shape[1 - dim];
        LinearLayout s = LinearLayout::get(slice, {n});
        expectExactCover(s, warps);
        std::vector<int64_t> withOne = shape;
        withOne[dim] = 1;
        LinearLayout p = LinearLayout::blocked(blocked, withOne);
        ASSERT_EQ(p.numRegisters(), s.numRegisters());
        for (int64_t r = 0; r < s.numRegisters(); ++r)
          EXPECT_EQ(p.registerCoord(r)[1 - dim], s.registerCoord(r)[0]);
      }
    }
}

/// Whether two maps give every thread the same elements (registers in any order).
bool sameElements(const LinearLayout &a, const LinearLayout &b) {
  auto sorted = [](llvm::SmallVector<LinearLayout::Coord> v) {
    llvm::sort(v);
    return v;
  };
  return a.shape == b.shape && a.lanes == b.lanes && a.warps == b.warps && sorted(a.regs) == sorted(b.regs);
}

TEST(Layout, BlockedLayoutOfItsOwnMap) {
  Ctx c;
  // Every blocked layout without copies is found again from its map, with
  // the same sizes (the order may differ only where it decides nothing).
  for (auto shape : {std::vector<int64_t>{64, 128}, {128, 16}, {32, 32}, {4, 8, 32}, {16, 16, 4}, {2, 8, 64}})
    for (unsigned warps : {1u, 4u, 8u})
      for (unsigned vec : {1u, 4u})
        for (bool reversed : {false, true}) {
          llvm::SmallVector<unsigned> order;
          for (unsigned d = 0; d < shape.size(); ++d)
            order.push_back(reversed ? d : unsigned(shape.size() - 1 - d));
          auto blocked = getBlockedLayout(&c.ctx, shape, warps, vec, order);
          LinearLayout l = LinearLayout::blocked(blocked, shape);
          SCOPED_TRACE(::testing::PrintToString(shape) + " w" + std::to_string(warps) + " v" + std::to_string(vec) +
                       (reversed ? " column-major" : ""));
          BlockedLayoutAttr found = blockedLayoutWithMap(&c.ctx, l);
          if (l.broadcastLaneMask() || l.broadcastWarpMask()) {
            EXPECT_FALSE(found); // threads holding copies: not sought
            continue;
          }
          ASSERT_TRUE(found);
          EXPECT_TRUE(sameElements(LinearLayout::blocked(found, shape), l));
          EXPECT_EQ(found.getThreadsPerWarp(), blocked.getThreadsPerWarp());
          EXPECT_EQ(found.getWarpsPerCTA(), blocked.getWarpsPerCTA());
        }
}

TEST(Layout, BlockedLayoutsAcrossReshapesAndTransposes) {
  Ctx c;
  // A [32, 128] tile, 4-element vectors and 32 lanes along each row, 4
  // warps over the rows.
  auto tile = BlockedLayoutAttr::get(&c.ctx, {1, 4}, {1, 32}, {4, 1}, {1, 0});
  LinearLayout l = LinearLayout::blocked(tile, {32, 128});
  auto reshapeTo = [&](std::vector<int64_t> to) {
    return l.moved(to, [&](const LinearLayout::Coord &c) { return reshapedCoord(l.shape, to, c); });
  };
  // As [128, 32]: vectors and 8 lanes along each row, 4 lanes and the warps
  // over the rows.
  EXPECT_EQ(blockedLayoutWithMap(&c.ctx, reshapeTo({128, 32})),
            BlockedLayoutAttr::get(&c.ctx, {1, 4}, {4, 8}, {4, 1}, {1, 0}));
  // As groups of 32: [32, 4, 32].
  EXPECT_EQ(blockedLayoutWithMap(&c.ctx, reshapeTo({32, 4, 32})),
            BlockedLayoutAttr::get(&c.ctx, {1, 1, 4}, {1, 4, 8}, {4, 1, 1}, {2, 1, 0}));
  // As pairs: [32, 64, 2], the pair in a thread's vector.
  EXPECT_EQ(blockedLayoutWithMap(&c.ctx, reshapeTo({32, 64, 2})),
            BlockedLayoutAttr::get(&c.ctx, {1, 2, 2}, {1, 32, 1}, {4, 1, 1}, {2, 1, 0}));
  // Flattened: 4 elements, 32 lanes, then the warps, then the rows' repetitions.
  EXPECT_EQ(blockedLayoutWithMap(&c.ctx, reshapeTo({4096})), BlockedLayoutAttr::get(&c.ctx, {4}, {32}, {4}, {0}));
  // Transposed: the same sizes with dimensions swapped, dimension 0 fastest.
  LinearLayout t = l.moved({128, 32}, [](const LinearLayout::Coord &c) { return LinearLayout::Coord{c[1], c[0]}; });
  EXPECT_EQ(blockedLayoutWithMap(&c.ctx, t), BlockedLayoutAttr::get(&c.ctx, {4, 1}, {32, 1}, {1, 4}, {0, 1}));
  // A reshape that interleaves lanes and registers within a dimension has
  // no blocked layout: [32, 128] as [4096] with the rows fastest.
  LinearLayout columns = LinearLayout::blocked(BlockedLayoutAttr::get(&c.ctx, {1, 4}, {8, 4}, {4, 1}, {1, 0}), {32, 128});
  EXPECT_FALSE(blockedLayoutWithMap(
      &c.ctx, columns.moved({128, 32}, [](const LinearLayout::Coord &c) { return LinearLayout::Coord{c[1], c[0]}; })
                  .moved({4096}, [](const LinearLayout::Coord &c) { return LinearLayout::Coord{c[0] * 32 + c[1]}; })));
  // Nor has an mma.sync accumulator (lanes, then a register, then warps
  // along its rows).
  auto mma = MmaLayoutAttr::get(&c.ctx, 2, {2, 2}, {16, 8, 16});
  EXPECT_FALSE(blockedLayoutWithMap(&c.ctx, LinearLayout::mma(mma, {64, 64})));
}

TEST(Layout, ColumnMajorOrder) {
  Ctx c;
  // Dimension 0 fastest: a thread's vector and a warp's lanes run down a
  // column, as blk-coalesce asks for an access contiguous along dimension 0.
  for (unsigned warps : {1u, 4u, 8u}) {
    auto blocked = getBlockedLayout(&c.ctx, {64, 32}, warps, 4, {0, 1});
    LinearLayout l = LinearLayout::blocked(blocked, {64, 32});
    expectExactCover(l, warps);
    EXPECT_EQ(l.contiguousRegisters(0), 4u);
    EXPECT_EQ(l.contiguousRegisters(1), 1u);
    EXPECT_EQ(l.apply(0, 1, 0), (LinearLayout::Coord{4, 0})); // lane 1: the next 4 rows
    EXPECT_EQ(l.apply(0, 16, 0), (LinearLayout::Coord{0, 1})); // 16 lanes cover the 64 rows
  }
  // The default is row-major.
  LinearLayout rowMajor = LinearLayout::blocked(getBlockedLayout(&c.ctx, {64, 32}, 4, 4), {64, 32});
  EXPECT_EQ(rowMajor.contiguousRegisters(1), 4u);
  EXPECT_EQ(rowMajor.contiguousRegisters(0), 1u);
}

TEST(Layout, ReductionScratchAndConversions) {
  Ctx c;
  auto blocked = getBlockedLayout(&c.ctx, {4096}, 8, 8);
  LinearLayout l = LinearLayout::blocked(blocked, {4096});
  EXPECT_EQ(warpBitsAlong(l, 0), 3u); // 8 warps along the only axis
  auto rows = getBlockedLayout(&c.ctx, {16, 256}, 4, 4);
  LinearLayout r = LinearLayout::blocked(rows, {16, 256});
  EXPECT_EQ(warpBitsAlong(r, 1), 0u); // warps split rows: a row reduction needs no shared memory
  EXPECT_FALSE(crossesThreads(l, l));
  LinearLayout other = LinearLayout::blocked(getBlockedLayout(&c.ctx, {4096}, 8, 1), {4096});
  EXPECT_TRUE(crossesThreads(l, other));
}

} // namespace
