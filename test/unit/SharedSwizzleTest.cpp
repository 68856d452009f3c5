// Swizzles of layout moves' shared-memory buffers (blk/Analysis/
// SharedSwizzle.h), checked by simulating the banks: for random pairs of
// blocked layouts (conversions and transposes, elements of 1 to 8 bytes),
// every access phase of the writes and of the reads, under the swizzle
// found, touches each bank in one word at most; the swizzle permutes the
// buffer and keeps each access's vector in consecutive elements.
#include "blk/Analysis/SharedSwizzle.h"
#include "blk/Dialect/Blk/IR/Layout.h"

#include "RandomLayouts.h"

#include <gtest/gtest.h>
#include <functional>
#include <map>
#include <random>
#include <set>

using namespace blk;

namespace {

struct Ctx {
  mlir::MLIRContext ctx;
  Ctx() { ctx.loadDialect<BlkDialect>(); }
};

/// One side of a move: its layout, where its coordinates land in the
/// buffer's row-major order, and its vector.
struct Side {
  LinearLayout layout;
  llvm::SmallVector<int64_t> shape; // of the buffer
  llvm::SmallVector<int64_t> order; // buffer dimension d is layout dimension order[d]; empty: the same
  int64_t vector;

  int64_t index(const LinearLayout::Coord &c) const {
    int64_t i = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      i = i * shape[d] + (order.empty() ? c[d] : c[order[d]]);
    return i;
  }
  SharedAccess access() const {
    SharedAccess a;
    a.vector = vector;
    for (const LinearLayout::Coord &c : layout.lanes)
      a.laneSteps.push_back(index(c));
    return a;
  }
};

/// The most distinct words any bank serves in one access phase of `side`
/// (1: no conflict), over every register vector of warp 0, each row-major
/// index at `place(index)` in the buffer.
int worstConflict(const Side &side, int64_t elemBytes, const std::function<int64_t(int64_t)> &place) {
  int64_t bytes = side.vector * elemBytes, lanesPerPhase = bytes <= 4 ? 32 : 128 / bytes, worst = 1;
  for (int64_t r = 0; r < side.layout.numRegisters(); r += side.vector)
    for (int64_t first = 0; first < 32; first += lanesPerPhase) {
      std::map<int64_t, std::set<int64_t>> wordsOfBank;
      std::set<int64_t> seen; // copies of an element access one address
      for (int64_t lane = first; lane < first + lanesPerPhase; ++lane) {
        int64_t address = place(side.index(side.layout.apply(r, lane, 0))) * elemBytes;
        if (!seen.insert(address).second)
          continue;
        for (int64_t word = address / 4; word <= (address + bytes - 1) / 4; ++word)
          wordsOfBank[word % 32].insert(word);
      }
      for (auto &[bank, words] : wordsOfBank)
        worst = std::max<int64_t>(worst, words.size());
    }
  return int(worst);
}

int worstConflict(const Side &side, int64_t elemBytes, const SharedSwizzle &s) {
  return worstConflict(side, elemBytes, [&](int64_t index) { return s.apply(index); });
}

/// A vector's elements are consecutive registers along the buffer's last
/// dimension: they must stay consecutive, and the swizzle must permute the
/// buffer.
void expectPermutationKeepingVectors(const SharedSwizzle &s, int64_t n, int64_t vector) {
  std::set<int64_t> image;
  for (int64_t i = 0; i < n; ++i) {
    int64_t to = s.apply(i);
    ASSERT_TRUE(to >= 0 && to < n);
    image.insert(to);
    if (i % vector)
      ASSERT_EQ(to, s.apply(i - i % vector) + i % vector) << "vector split at " << i;
  }
  EXPECT_EQ(int64_t(image.size()), n);
}

int64_t rowVector(const LinearLayout &l, int64_t elemBytes) {
  return std::min<int64_t>(l.contiguousRegisters(l.rank() - 1), std::max<int64_t>(1, 16 / elemBytes));
}

/// Checks the swizzle of moving `from` to `to` (a transpose when
/// `transpose`): conflict-free on both sides where found. Returns whether
/// one was found.
bool checkMove(const LinearLayout &from, const LinearLayout &to, int64_t elemBytes, bool transpose) {
  int64_t w = transpose ? 1 : rowVector(from, elemBytes), r = transpose ? 1 : rowVector(to, elemBytes);
  if (w == 1 || r == 1)
    w = r = 1;
  Side write{from, llvm::SmallVector<int64_t>(to.shape.begin(), to.shape.end()), {}, w};
  if (transpose)
    write.order = {1, 0};
  Side read{to, llvm::SmallVector<int64_t>(to.shape.begin(), to.shape.end()), {}, r};
  std::optional<SharedSwizzle> s =
      findSharedSwizzle(write.access(), read.access(), elemBytes, from.numElements());
  if (!s)
    return false;
  EXPECT_EQ(worstConflict(write, elemBytes, *s), 1) << "writes, " << elemBytes << "-byte elements";
  EXPECT_EQ(worstConflict(read, elemBytes, *s), 1) << "reads, " << elemBytes << "-byte elements";
  expectPermutationKeepingVectors(*s, from.numElements(), std::max(w, r));
  return true;
}

TEST(SharedSwizzle, RandomConversionsAndTransposes) {
  Ctx c;
  std::mt19937 rng(17);
  int tried = 0, found = 0;
  for (auto shape : {std::pair<int64_t, int64_t>{64, 64}, {32, 128}, {128, 32}, {16, 256}, {256, 16}, {64, 32}})
    for (int64_t elemBytes : {1, 2, 4, 8})
      for (int i = 0; i < 24; ++i) {
        llvm::SmallVector<int64_t> s{shape.first, shape.second}, t{shape.second, shape.first};
        LinearLayout a = LinearLayout::blocked(randomBlocked(&c.ctx, s, 4, rng, 4), s);
        LinearLayout b = LinearLayout::blocked(randomBlocked(&c.ctx, s, 4, rng, 4), s);
        LinearLayout bt = LinearLayout::blocked(randomBlocked(&c.ctx, t, 4, rng, 4), t);
        tried += 2;
        found += checkMove(a, b, elemBytes, false);
        found += checkMove(a, bt, elemBytes, true);
        if (testing::Test::HasFailure())
          return;
      }
  // Nearly every move has one (1150 of 1152; the rest keep the padded buffer).
  EXPECT_GT(found * 100, tried * 99) << found << " of " << tried;
}

// The two ways the analysis counts conflicts agree with the banks simulated
// here: the rank test on the lanes' linear maps (conflictFree) for row-major
// and swizzled buffers, and bankConflictWays for padded ones (one element
// after every row, as a move without vectors pads).
TEST(SharedSwizzle, ConflictCountsAgreeWithTheBanks) {
  Ctx c;
  std::mt19937 rng(23);
  int conflicting = 0;
  for (auto shape : {std::pair<int64_t, int64_t>{64, 64}, {32, 128}, {128, 32}, {16, 256}})
    for (int64_t elemBytes : {1, 2, 4, 8})
      for (int i = 0; i < 16; ++i) {
        llvm::SmallVector<int64_t> s{shape.first, shape.second};
        LinearLayout l = LinearLayout::blocked(randomBlocked(&c.ctx, s, 4, rng, 4), s);
        int64_t vector = rowVector(l, elemBytes);
        Side side{l, s, {}, vector};
        bool oracle = worstConflict(side, elemBytes, SharedSwizzle()) == 1;
        EXPECT_EQ(conflictFree(side.access(), elemBytes, SharedSwizzle()), oracle);
        conflicting += !oracle;
        SharedSwizzle swizzle;
        swizzle.xors = {{2, 7}, {3, 8}}; // any swizzle: the two counts must agree
        EXPECT_EQ(conflictFree(side.access(), elemBytes, swizzle), worstConflict(side, elemBytes, swizzle) == 1);
        int64_t period = shape.second;
        auto padded = [&](int64_t index) { return index + index / period; };
        EXPECT_EQ(bankConflictWays(l, vector, elemBytes,
                                   [&](const LinearLayout::Coord &coord) { return padded(side.index(coord)); }),
                  worstConflict(side, elemBytes, padded));
      }
  EXPECT_GT(conflicting, 0); // the cases include conflicts
}

// A transpose of a [64, 32] f32 tile whose rows lanes read 4 at a time
// (emit-layouts.blk's): row-major, a warp's column of reads hits one bank
// 8 ways; one XOR of the index's column bits with its row bits removes it.
TEST(SharedSwizzle, TransposeOfRows) {
  Ctx c;
  llvm::SmallVector<int64_t> shape{64, 32}, t{32, 64};
  auto tile = BlockedLayoutAttr::get(&c.ctx, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  LinearLayout from = LinearLayout::blocked(tile, shape), to = LinearLayout::blocked(tile, t);
  Side write{from, t, {1, 0}, 1}, read{to, t, {}, 1};
  EXPECT_GT(worstConflict(write, 4, SharedSwizzle()), 1);
  EXPECT_FALSE(conflictFree(write.access(), 4, SharedSwizzle()));
  std::optional<SharedSwizzle> s = findSharedSwizzle(write.access(), read.access(), 4, 2048);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->xors.empty());
  EXPECT_EQ(worstConflict(write, 4, *s), 1);
  EXPECT_EQ(worstConflict(read, 4, *s), 1);
}

// An 8-bit [64, 128] B tile moved from its N-major ring (128-byte lines,
// 16-byte units XOR-ed with the line's low bits) into a K-major wgmma buffer
// (64-byte lines): 4 x 4 bytes per thread, 4-byte words both ways. The
// wavefronts of warp 0's 8 reads and 8 writes, counted by hand: 16 lanes
// along K read 16 rows 4 apart, 2 swizzle phases, in 2 words: 8 ways; 4
// along K, 2 phases of 2 units of 4 words: 2 ways; 2 along K, 8 units of 4
// words: none. The writes: 16 along K fill two 64-byte lines whose 16-byte
// units land on the same banks: 2 ways; 4 along K, 2 phases of 1 unit of 4
// words: 4 ways; 2 along K: 8 ways. The layout's own vectors are found
// along either dimension (bits 0 and 1 into the buffer, 2 and 3 out of the
// ring).
TEST(SharedSwizzle, WavefrontsOfAByteTranspose) {
  Ctx c;
  llvm::SmallVector<int64_t> shape{64, 128};
  auto i8 = mlir::IntegerType::get(&c.ctx, 8);
  auto ring = SharedBufferType::get(&c.ctx, {3, 64, 128}, i8, 1);
  auto buffer = SharedBufferType::get(&c.ctx, {3, 64, 128}, i8, 0);
  auto wavefronts = [&](unsigned lanesK, SharedBufferType into) {
    unsigned lanesN = 32 / lanesK, warpsN = std::min(8u, unsigned(128 / (4 * lanesN)));
    auto tile = BlockedLayoutAttr::get(&c.ctx, {4, 4}, {lanesK, lanesN}, {8 / warpsN, warpsN}, {0, 1});
    LinearLayout l = LinearLayout::blocked(tile, shape);
    return sharedWavefronts(l, into.getContig(), 1,
                            [&](const LinearLayout::Coord &coord) { return into.tileByteOffset(coord); });
  };
  LinearLayout l = LinearLayout::blocked(BlockedLayoutAttr::get(&c.ctx, {4, 4}, {4, 8}, {2, 4}, {0, 1}), shape);
  EXPECT_EQ(lineVectorBits(l, 0, 1), (llvm::SmallVector<unsigned>{0, 1}));
  EXPECT_EQ(lineVectorBits(l, 1, 1), (llvm::SmallVector<unsigned>{2, 3}));
  EXPECT_EQ(wavefronts(16, ring), 64);
  EXPECT_EQ(wavefronts(4, ring), 16);
  EXPECT_EQ(wavefronts(2, ring), 8);
  EXPECT_EQ(wavefronts(16, buffer), 16);
  EXPECT_EQ(wavefronts(4, buffer), 32);
  EXPECT_EQ(wavefronts(2, buffer), 64);
}

} // namespace
