// Internal to the blk-to-LLVM conversion: the type converter and the pattern
// groups, one file each.
#ifndef BLK_LIB_CONVERSION_BLKTOLLVM_PATTERNS_H
#define BLK_LIB_CONVERSION_BLKTOLLVM_PATTERNS_H

#include "blk/Dialect/Blk/IR/Layout.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace blk {

/// Blocks become the scalars one thread holds; pointers become global
/// (address space 1) LLVM pointers; other scalars stay as they are.
class ThreadTypeConverter : public mlir::TypeConverter {
public:
  explicit ThreadTypeConverter(mlir::MLIRContext *ctx);
};

/// Coordinates of the calling thread's first element along each dimension of
/// a tiling, and whether it owns (is the first copy of) its elements.
struct ThreadBase {
  llvm::SmallVector<mlir::Value> coords; // i32, one per dimension
  mlir::Value owner;                      // i1, null when no thread holds copies
};
ThreadBase emitThreadBase(mlir::OpBuilder &b, mlir::Location loc, const ThreadTiling &tiling);

mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

void populateElementwisePatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateProgramOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateMemoryOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateDebugOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);

} // namespace blk

#endif
