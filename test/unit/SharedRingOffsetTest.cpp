// The swizzled byte offsets of a !blk.smem tile two ways: the IR the
// lowering emits (SharedRing::byteOffset, evaluated here op by op on
// constant coordinates) and SharedBufferType::tileByteOffset, which
// blk-pipeline-dot's costs use. Every element of tiles of 1- and 2-byte
// elements along either dimension, lines of 32 to 256 bytes.
#include "../../lib/Conversion/BlkToLLVM/SharedRing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

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

TEST(SharedRingOffset, LoweringAndCompileTimeAgree) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<BlkDialect, mlir::LLVM::LLVMDialect>();
  mlir::OpBuilder b(&ctx);
  mlir::Location loc = b.getUnknownLoc();
  auto module = mlir::ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
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
  module->erase();
}

} // namespace
