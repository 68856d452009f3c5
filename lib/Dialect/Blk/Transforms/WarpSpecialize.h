// Warp specialization: a kernel split into a producer warpgroup, which
// issues a loop's TMA copies, and the consumer warps, which run the rest.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_WARPSPECIALIZE_H
#define BLK_DIALECT_BLK_TRANSFORMS_WARPSPECIALIZE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace blk {

/// Warps of the producer warpgroup (setmaxnreg works on whole warpgroups).
inline constexpr int64_t kProducerWarps = 4;

/// The ops of `func`'s body, in order, that compute `roots` from its
/// arguments, so that the producer warps can compute them again: each
/// directly in the body, without memory effects or regions, of scalar
/// results. Nothing when a root needs anything else.
std::optional<llvm::SmallVector<mlir::Operation *>> scalarSlice(mlir::func::FuncOp func, mlir::ArrayRef<mlir::Value> roots);

/// Registers per thread for the producer warpgroup and for each of
/// `numWarps` consumer warps (setmaxnreg), where the consumers get more than
/// the launch of numWarps + 4 warps gives every thread; nothing otherwise.
std::optional<std::pair<int32_t, int32_t>> roleRegisters(int64_t numWarps);

/// Splits `func`, whose body is one block: `shared` (allocations both roles
/// use) move to its start; then one `scf.if` on `blk.producer_warp` whose
/// else branch holds the rest of the body (the consumers) and whose then
/// branch starts with clones of `slice` (recorded in `map`). Returns a
/// builder at the end of the producer branch. Marks `func` with
/// `blk.producer_warps`.
mlir::OpBuilder splitWarpRoles(mlir::func::FuncOp func, int64_t numWarps, mlir::ArrayRef<mlir::Operation *> shared,
                               mlir::ArrayRef<mlir::Operation *> slice, mlir::IRMapping &map);

} // namespace blk

#endif
