// Warp-shuffle plans of layout moves (blk/Analysis/LayoutMove.h), run on the
// host: every lane of every warp offers, reads and keeps what the plan says,
// and each result register must end up holding its element. Pairs of
// blocked layouts of random tilings, their slices (and slices of slices),
// tensor-core layouts, and permutations of 3-D blocks.
#include "blk/Analysis/LayoutMove.h"

#include "RandomLayouts.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace blk;

namespace {

struct Ctx {
  mlir::MLIRContext ctx;
  Ctx() { ctx.loadDialect<BlkDialect>(); }
};

using CoordMap = std::function<LinearLayout::Coord(const LinearLayout::Coord &)>;

LinearLayout::Coord same(const LinearLayout::Coord &c) { return c; }

std::string describe(const LinearLayout &l) {
  std::string text;
  auto list = [&](const char *name, llvm::ArrayRef<LinearLayout::Coord> bases) {
    text += name;
    for (const LinearLayout::Coord &c : bases) {
      text += " (";
      for (int64_t v : c)
        text += std::to_string(v) + ",";
      text += ")";
    }
  };
  list("regs", l.regs);
  list(" lanes", l.lanes);
  list(" warps", l.warps);
  return text;
}

/// Whether every element a warp of `to` holds is held by the same warp of `from`.
bool staysInWarps(const LinearLayout &from, const LinearLayout &to, unsigned warps, const CoordMap &toSource) {
  for (unsigned w = 0; w < warps; ++w) {
    std::set<int64_t> held;
    for (unsigned l = 0; l < 32; ++l)
      for (int64_t r = 0; r < from.numRegisters(); ++r)
        held.insert(from.linearIndex(from.apply(r, l, w)));
    for (unsigned l = 0; l < 32; ++l)
      for (int64_t r = 0; r < to.numRegisters(); ++r)
        if (!held.count(from.linearIndex(toSource(to.apply(r, l, w)))))
          return false;
  }
  return true;
}

/// Runs `plan` on every warp: each result register must receive its element
/// exactly once (elements named by their row-major position in the source).
void expectPlanMoves(const WarpShufflePlan &plan, const LinearLayout &from, const LinearLayout &to, unsigned warps,
                     const CoordMap &toSource) {
  ASSERT_EQ(plan.numResults, to.numRegisters());
  ASSERT_GE(plan.numRounds(), plan.numResults);
  for (unsigned w = 0; w < warps; ++w) {
    std::vector<std::vector<int64_t>> offers(plan.numRounds(), std::vector<int64_t>(32));
    for (int64_t k = 0; k < plan.numRounds(); ++k)
      for (unsigned l = 0; l < 32; ++l) {
        int64_t r = plan.roundRegister[k] ^ plan.offeredRegister.apply(l, w);
        ASSERT_LT(r, from.numRegisters());
        offers[k][l] = from.linearIndex(from.apply(r, l, w));
      }
    for (unsigned l = 0; l < 32; ++l) {
      std::set<int64_t> rounds;
      for (int64_t r = 0; r < plan.numResults; ++r) {
        int64_t k = r ^ plan.resultRound.apply(l, w);
        ASSERT_LT(k, plan.numRounds());
        ASSERT_TRUE(rounds.insert(k).second) << "two results from round " << k;
        int64_t src = plan.roundLane[k] ^ plan.sourceLane.apply(l, w);
        ASSERT_LT(src, 32);
        if (plan.readsOwnValue(k))
          ASSERT_EQ(src, int64_t(l));
        ASSERT_EQ(offers[k][src], from.linearIndex(toSource(to.apply(r, l, w))))
            << "warp " << w << " lane " << l << " round " << k << " register " << r;
      }
    }
  }
}

/// Plans every pair and checks it: a plan exactly when elements stay in
/// their warps, and every plan moves them right. Returns how many had plans.
int checkPairs(llvm::ArrayRef<LinearLayout> layouts, unsigned warps, const CoordMap &toSource) {
  int planned = 0;
  for (const LinearLayout &from : layouts)
    for (const LinearLayout &to : layouts) {
      std::optional<WarpShufflePlan> plan = planWarpShuffles(from, to, toSource);
      bool inWarps = staysInWarps(from, to, warps, toSource);
      EXPECT_EQ(plan.has_value(), inWarps) << describe(from) << " -> " << describe(to);
      if (plan) {
        ++planned;
        expectPlanMoves(*plan, from, to, warps, toSource);
      }
      if (testing::Test::HasFatalFailure() || testing::Test::HasNonfatalFailure())
        return planned;
    }
  return planned;
}

TEST(LayoutMove, RandomBlockedPairs) {
  Ctx c;
  std::mt19937 rng(7);
  int planned = 0;
  for (auto shape : {std::vector<int64_t>{128}, {1024}, {16, 64}, {64, 16}, {32, 32}, {8, 256}, {4, 8, 16}})
    for (unsigned warps : {1u, 2u, 4u}) {
      SCOPED_TRACE(std::to_string(shape.size()) + "-D, " + std::to_string(shape[0]) + " rows, " +
                   std::to_string(warps) + " warps");
      std::vector<LinearLayout> layouts;
      for (int i = 0; i < 12; ++i)
        layouts.push_back(LinearLayout::blocked(randomBlocked(&c.ctx, shape, warps, rng), shape));
      planned += checkPairs(layouts, warps, same);
      if (HasFailure())
        return;
    }
  EXPECT_GT(planned, 100); // most random pairs keep some of their warps' elements
}

TEST(LayoutMove, SlicesOfDifferentParents) {
  // A reduction's result in one parent's slice moved to another parent's
  // slice or to a 1-D layout: lanes that hold copies read their own copy.
  Ctx c;
  std::mt19937 rng(11);
  for (unsigned warps : {1u, 4u, 8u}) {
    SCOPED_TRACE(std::to_string(warps) + " warps");
    std::vector<LinearLayout> layouts;
    for (int i = 0; i < 10; ++i)
      for (unsigned dim : {0u, 1u}) {
        auto parent = randomBlocked(&c.ctx, {128, 128}, warps, rng);
        layouts.push_back(LinearLayout::get(SliceLayoutAttr::get(&c.ctx, dim, parent), {128}));
      }
    for (unsigned vec : {1u, 4u})
      layouts.push_back(LinearLayout::blocked(getBlockedLayout(&c.ctx, {128}, warps, vec), {128}));
    checkPairs(layouts, warps, same);
    if (HasFailure())
      return;
  }
}

TEST(LayoutMove, TensorCoreLayouts) {
  Ctx c;
  std::mt19937 rng(3);
  for (auto [wm, wn] : {std::pair{1u, 1u}, std::pair{2u, 2u}, std::pair{4u, 1u}}) {
    unsigned warps = wm * wn;
    llvm::SmallVector<int64_t> shape{64, 64};
    auto mma = MmaLayoutAttr::get(&c.ctx, 2, {wm, wn}, {16, 8});
    std::vector<LinearLayout> layouts{LinearLayout::get(mma, shape),
                                      LinearLayout::get(DotOperandLayoutAttr::get(&c.ctx, 0, mma, 2), shape),
                                      LinearLayout::get(DotOperandLayoutAttr::get(&c.ctx, 1, mma, 2), shape)};
    for (int i = 0; i < 6; ++i)
      layouts.push_back(LinearLayout::blocked(randomBlocked(&c.ctx, shape, warps, rng), shape));
    checkPairs(layouts, warps, same);
    if (HasFailure())
      return;
  }
}

TEST(LayoutMove, TransposesAndReshapes) {
  Ctx c;
  std::mt19937 rng(5);
  for (unsigned warps : {1u, 4u}) {
    std::vector<LinearLayout> tall, wide;
    for (int i = 0; i < 8; ++i) {
      tall.push_back(LinearLayout::blocked(randomBlocked(&c.ctx, {64, 16}, warps, rng), {64, 16}));
      wide.push_back(LinearLayout::blocked(randomBlocked(&c.ctx, {16, 64}, warps, rng), {16, 64}));
    }
    CoordMap reversed = [](const LinearLayout::Coord &x) { return LinearLayout::Coord{x[1], x[0]}; };
    // [16, 64] as [64, 16] in row-major order.
    CoordMap reshaped = [](const LinearLayout::Coord &x) {
      int64_t pos = x[0] * 64 + x[1];
      return LinearLayout::Coord{pos / 16, pos % 16};
    };
    for (const LinearLayout &from : tall)
      for (const LinearLayout &to : wide)
        for (const CoordMap &toSource : {reversed, reshaped}) {
          std::optional<WarpShufflePlan> plan = planWarpShuffles(from, to, toSource);
          ASSERT_EQ(plan.has_value(), staysInWarps(from, to, warps, toSource));
          if (plan)
            expectPlanMoves(*plan, from, to, warps, toSource);
          if (HasFailure())
            return;
        }
  }
}

TEST(LayoutMove, PermutationsOf3DBlocks) {
  // blk.permute of a [4, 8, 16] block in every order: the element each
  // result register needs comes from layoutMoveSource on a real op.
  Ctx c;
  std::mt19937 rng(13);
  mlir::OpBuilder b(&c.ctx);
  mlir::Location loc = b.getUnknownLoc();
  auto module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  llvm::SmallVector<int64_t> shape{4, 8, 16};
  int planned = 0;
  for (llvm::SmallVector<int64_t> order : {llvm::SmallVector<int64_t>{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1},
                                           {2, 1, 0}}) {
    llvm::SmallVector<int64_t> permuted;
    for (int64_t d : order)
      permuted.push_back(shape[d]);
    auto src = b.create<mlir::UnrealizedConversionCastOp>(
        loc, mlir::TypeRange{mlir::RankedTensorType::get(shape, b.getF32Type())}, mlir::ValueRange{});
    auto permute = b.create<PermuteOp>(loc, mlir::RankedTensorType::get(permuted, b.getF32Type()),
                                       src.getResult(0), b.getDenseI64ArrayAttr(order));
    EXPECT_EQ(movePermutation(permute), order);
    CoordMap toSource = [&](const LinearLayout::Coord &x) { return layoutMoveSource(permute, x); };
    for (unsigned warps : {1u, 4u}) {
      for (int i = 0; i < 8; ++i) {
        LinearLayout from = LinearLayout::blocked(randomBlocked(&c.ctx, shape, warps, rng), shape);
        LinearLayout to = LinearLayout::blocked(randomBlocked(&c.ctx, permuted, warps, rng), permuted);
        std::optional<WarpShufflePlan> plan = planWarpShuffles(from, to, toSource);
        ASSERT_EQ(plan.has_value(), staysInWarps(from, to, warps, toSource));
        if (plan) {
          ++planned;
          expectPlanMoves(*plan, from, to, warps, toSource);
        }
        if (HasFailure())
          return;
      }
    }
  }
  EXPECT_GT(planned, 5); // one warp: every pair
  module->erase();
}

TEST(LayoutMove, SlicesOfSlices) {
  // arange(0, 16)[None, :, None] in a 3-D parent: the 1-D block's layout is a
  // slice of a slice; it moves to another parent's or to a 1-D layout.
  Ctx c;
  std::mt19937 rng(17);
  for (unsigned warps : {1u, 4u}) {
    SCOPED_TRACE(std::to_string(warps) + " warps");
    std::vector<LinearLayout> layouts;
    for (int i = 0; i < 8; ++i) {
      auto parent = randomBlocked(&c.ctx, {4, 16, 8}, warps, rng);
      auto outer = SliceLayoutAttr::get(&c.ctx, 2, parent);
      auto inner = SliceLayoutAttr::get(&c.ctx, 0, outer);
      layouts.push_back(LinearLayout::get(inner, {16}));
      // The same elements as dimension 1 of the parent: every lane and warp
      // holds what the parent's threads hold at coordinate (0, j, 0).
      LinearLayout l = LinearLayout::get(inner, {16}), p = LinearLayout::blocked(parent, {4, 16, 8});
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned w = 0; w < warps; ++w)
          for (int64_t r = 0; r < l.numRegisters(); ++r) {
            LinearLayout::Coord at = l.apply(r, lane, w);
            ASSERT_EQ(at.size(), 1u);
            bool held = false;
            for (int64_t pr = 0; pr < p.numRegisters() && !held; ++pr) {
              LinearLayout::Coord full = p.apply(pr, lane, w);
              held = full[1] == at[0];
            }
            ASSERT_TRUE(held) << "lane " << lane << " warp " << w << " register " << r;
          }
    }
    layouts.push_back(LinearLayout::blocked(getBlockedLayout(&c.ctx, {16}, warps, 1), {16}));
    checkPairs(layouts, warps, same);
    if (HasFailure())
      return;
  }
}

TEST(LayoutMove, PathsAndCosts) {
  Ctx c;
  // Registers that only change order: a rename, nothing to shuffle or select.
  auto rows = BlockedLayoutAttr::get(&c.ctx, {1, 4}, {8, 4}, {1, 1}, {1, 0});
  auto reversed = LinearLayout::blocked(rows, {8, 16});
  std::swap(reversed.regs[0], reversed.regs[1]);
  std::optional<WarpShufflePlan> rename = planWarpShuffles(LinearLayout::blocked(rows, {8, 16}), reversed, same);
  ASSERT_TRUE(rename);
  EXPECT_TRUE(rename->isRegisterRename());
  EXPECT_EQ(rename->roundRegister, (llvm::SmallVector<int64_t>{0, 2, 1, 3}));
  // A 1-D block of one element per lane to four per lane in one warp: each
  // round reads one register of the lane that holds it, which the lane
  // offers by its own position (a select tree of 4).
  auto one = LinearLayout::blocked(getBlockedLayout(&c.ctx, {128}, 1, 1), {128});
  auto four = LinearLayout::blocked(getBlockedLayout(&c.ctx, {128}, 1, 4), {128});
  std::optional<WarpShufflePlan> plan = planWarpShuffles(one, four, same);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->shuffles(), 4);
  EXPECT_GT(plan->selects(), 0);
  // Across warps: no plan.
  auto warpsSplit = LinearLayout::blocked(getBlockedLayout(&c.ctx, {512}, 4, 1), {512});
  auto warpsOther = LinearLayout::blocked(getBlockedLayout(&c.ctx, {512}, 4, 4), {512});
  EXPECT_FALSE(planWarpShuffles(warpsSplit, warpsOther, same));
}

} // namespace
