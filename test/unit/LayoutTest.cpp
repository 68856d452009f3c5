#include "blk/Dialect/Blk/IR/Layout.h"

#include <gtest/gtest.h>
#include <set>

using namespace blk;

namespace {

mlir::RankedTensorType blockType(mlir::MLIRContext &ctx, int64_t n, unsigned warps, unsigned vec) {
  ctx.loadDialect<BlkDialect>();
  auto layout = getBlockedLayout(&ctx, {n}, warps, vec);
  return mlir::RankedTensorType::get({n}, mlir::Float32Type::get(&ctx), layout);
}

/// Every element is held by exactly one owning thread: the coordinates of all
/// (thread, register) pairs of owners cover the block once.
void expectExactCover(mlir::RankedTensorType type, unsigned warps) {
  ThreadTiling t = ThreadTiling::get(type);
  int64_t n = type.getShape()[0];
  std::multiset<int64_t> owned;
  for (unsigned tid = 0; tid < warps * 32; ++tid) {
    int64_t idx = tid; // 1-D: warps then lanes, fastest dimension first
    bool owner = true;
    if (t.tile[0] > n) {
      int64_t chunks = n / t.sizePerThread[0];
      owner = idx < chunks;
      idx %= chunks;
    }
    if (!owner)
      continue;
    for (int64_t r = 0; r < t.elemsPerThread(); ++r)
      owned.insert(idx * t.sizePerThread[0] + t.registerOffsets(r)[0]);
  }
  ASSERT_EQ(int64_t(owned.size()), n);
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(owned.count(i), 1u) << "element " << i;
}

TEST(Layout, VectorWidthAndRepetition) {
  mlir::MLIRContext ctx;
  auto type = blockType(ctx, 1024, 4, 4);
  ThreadTiling t = ThreadTiling::get(type);
  EXPECT_EQ(t.sizePerThread[0], 4u);
  EXPECT_EQ(t.elemsPerThread(), 8);
  EXPECT_EQ(t.registerOffsets(5)[0], 512 + 1); // second repetition, element 1 of the chunk
  expectExactCover(type, 4);
}

TEST(Layout, SmallBlocksReplicate) {
  mlir::MLIRContext ctx;
  for (int64_t n : {1, 2, 32, 64, 128, 256, 4096})
    for (unsigned warps : {1u, 4u, 8u})
      for (unsigned vec : {1u, 4u, 8u}) {
        auto type = blockType(ctx, n, warps, vec);
        SCOPED_TRACE(std::to_string(n) + " " + std::to_string(warps) + " " + std::to_string(vec));
        expectExactCover(type, warps);
      }
}

} // namespace
