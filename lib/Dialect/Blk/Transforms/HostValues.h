// What the host can supply at launch: kernel arguments, constants, and the
// divisibility the kernel's specialization promises for them. Shared by the
// passes that move a descriptor's fields into a host-built TMA tensor map.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_HOSTVALUES_H
#define BLK_DIALECT_BLK_TRANSFORMS_HOSTVALUES_H

#include "blk/Dialect/Blk/IR/Dialect.h"

namespace blk {

/// Where the host finds `v` (through a sign extension): an argument index
/// (>= 0) of `func`, or a positive constant c as -c; nothing when `v` is
/// computed in the kernel.
std::optional<int64_t> hostSource(mlir::func::FuncOp func, mlir::Value v);

/// The divisibility the specialization promises for `v`, a kernel argument
/// (bytes for pointers); 0 when none, or when `v` is not an argument.
int64_t argDivisibility(mlir::func::FuncOp func, mlir::Value v);

} // namespace blk

#endif
