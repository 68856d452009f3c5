// The swizzled byte offsets of a !blk.smem tile two ways: the IR the
// lowering emits (SharedRing::byteOffset, evaluated here op by op on
// constant coordinates) and SharedBufferType::tileByteOffset, which
// blk-pipeline-dot's costs use. Every element of tiles of 1- and 2-byte
// elements along either dimension, lines of 32 to 256 bytes; and of rings
// arranged for threads (an XOR swizzle of the element index), whose
// offsets must also fill the slot with no two elements on one address.
#include "../../lib/Conversion/BlkToLLVM/SharedRing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>
#include <set>

using namespace blk;

namespace {

/// The value of an i32 computed from constants by the integer ops the
/// offset arithmetic uses.
int64_t evaluate(mlir::Value v) {
  mlir::Operation *op = v.getDefiningOp();
  if (auto c = llvm::dyn_cast<mlir::LLVM::ConstantOp>(op))
    return llvm::cast<mlir::IntegerAttr>(c.getValue()).getInt();
  int64_t a = evaluate(op->getOperand(0)), b = evaluate(op->getOperand(1));
  if (llvm::isa<mlir::LLVM::AddOp>(op))
    return a + b;
  if (llvm::isa<mlir::LLVM::MulOp>(op))
    return a * b;
  if (llvm::isa<mlir::LLVM::AndOp>(op))
    return a & b;
  if (llvm::isa<mlir::LLVM::XOrOp>(op))
    return a ^ b;
  if (llvm::isa<mlir::LLVM::LShrOp>(op))
    return int64_t(uint64_t(a) >> b);
  if (llvm::isa<mlir::LLVM::ShlOp>(op))
    return a << b;
  ADD_FAILURE() << "unexpected op " << op->getName().getStringRef().str();
  return 0;
}

/// A module to build each tile's offset arithmetic in.
class SharedRingOffset : public ::testing::Test {
protected:
  SharedRingOffset() : b(&ctx), loc(b.getUnknownLoc()) {
    ctx.loadDialect<BlkDialect, mlir::LLVM::LLVMDialect>();
    module = mlir::ModuleOp::create(loc);
    b.setInsertionPointToEnd(module.getBody());
  }
  ~SharedRingOffset() override { module->erase(); }
  mlir::MLIRContext ctx;
  mlir::OpBuilder b;
  mlir::Location loc;
  mlir::ModuleOp module;
};

TEST_F(SharedRingOffset, LoweringAndCompileTimeAgree) {
  for (unsigned bits : {8u, 16u})
    for (unsigned contig : {0u, 1u})
      for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 64}, {64, 128}, {128, 64}, {16, 256}, {32, 16}}) {
        auto type = SharedBufferType::get(&ctx, {2, rows, cols}, b.getIntegerType(bits), contig);
        SharedRing ring(type);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c) {
            mlir::Value coords[] = {i32Const(b, loc, r), i32Const(b, loc, c)};
            int64_t lowered = evaluate(ring.byteOffset(b, loc, mlir::Value(), coords));
            ASSERT_EQ(lowered, type.tileByteOffset({r, c}))
                << bits << "-bit [" << rows << ", " << cols << "] contig " << contig << " at (" << r << ", " << c << ")";
          }
        module.getBody()->clear(); // the ops of this tile
      }
}

TEST_F(SharedRingOffset, ThreadArrangementsAgreeAndPermute) {
  struct Case {
    unsigned bits, contig;
    int64_t rows, cols;
    llvm::SmallVector<int64_t> xors;
  };
  // Pairs as blk-pipeline-dot finds them (one source flipping one or two
  // bits), a target that is another pair's source, and a line of 16.
  Case cases[] = {{32, 1, 128, 128, {4, 7}},
                  {32, 1, 64, 64, {2, 6, 3, 7, 4, 8}},
                  {16, 0, 64, 128, {3, 7, 4, 7, 5, 9}},
                  {8, 1, 32, 16, {4, 6, 6, 8}},
                  {32, 0, 16, 32, {2, 5, 3, 6}}};
  for (const Case &k : cases) {
    auto type = SharedBufferType::get(&ctx, {2, k.rows, k.cols}, b.getIntegerType(k.bits), k.contig, k.xors);
    ASSERT_TRUE(type.isThreadArranged());
    SharedRing ring(type);
    std::set<int64_t> offsets;
    for (int64_t r = 0; r < k.rows; ++r)
      for (int64_t c = 0; c < k.cols; ++c) {
        mlir::Value coords[] = {i32Const(b, loc, r), i32Const(b, loc, c)};
        int64_t lowered = evaluate(ring.byteOffset(b, loc, mlir::Value(), coords));
        ASSERT_EQ(lowered, type.tileByteOffset({r, c}))
            << k.bits << "-bit [" << k.rows << ", " << k.cols << "] at (" << r << ", " << c << ")";
        ASSERT_EQ(lowered % (k.bits / 8), 0);
        offsets.insert(lowered);
      }
    EXPECT_EQ(int64_t(offsets.size()), k.rows * k.cols);
    EXPECT_EQ(*offsets.rbegin(), type.getSlotBytes() - k.bits / 8);
    module.getBody()->clear();
  }
}

} // namespace
