// Warp specialization: a kernel split into a producer warpgroup, which
// issues a loop's TMA copies, and the consumer warps, which run the rest.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_WARPSPECIALIZE_H
#define BLK_DIALECT_BLK_TRANSFORMS_WARPSPECIALIZE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace blk {

/// Warps of the producer warpgroup (setmaxnreg works on whole warpgroups).
inline constexpr int64_t kProducerWarps = 4;

/// What the producer warps compute again: ops of the kernel's body and, for
/// a loop nested in a loop of that body (a persistent kernel's loop over
/// tiles), ops of that outer loop's body, each list in order.
struct ScalarSlice {
  llvm::SmallVector<mlir::Operation *> kernel, outer;
};

/// The ops that compute `roots` from the kernel's arguments (and `outer`'s
/// induction variable, when given): each directly in `func`'s body or in
/// `outer`'s, without memory effects or regions, of scalar results. Nothing
/// when a root needs anything else.
std::optional<ScalarSlice> scalarSlice(mlir::func::FuncOp func, mlir::scf::ForOp outer,
                                       mlir::ArrayRef<mlir::Value> roots);

/// The iterations of a loop from `lb` to `ub` by `step` (> 0), as i32:
/// zero when ub <= lb.
mlir::Value tripCount(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lb, mlir::Value ub, mlir::Value step);

/// The trip of a loop from `lb` by `step` whose induction variable is `iv`,
/// counted from 0, as i32.
mlir::Value tripIndex(mlir::OpBuilder &b, mlir::Location loc, mlir::Value iv, mlir::Value lb, mlir::Value step);

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
