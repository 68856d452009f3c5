// The blk dialect: types, layout attributes and ops.
#ifndef BLK_DIALECT_BLK_IR_DIALECT_H
#define BLK_DIALECT_BLK_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "blk/Dialect/Blk/IR/BlkDialect.h.inc"
#include "blk/Dialect/Blk/IR/BlkEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/Dialect/Blk/IR/BlkTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/Dialect/Blk/IR/BlkAttrs.h.inc"

namespace blk {
/// The dimension along which a vector access through `ptrType` is
/// contiguous: `vecDim` when set, else the last.
unsigned accessDim(mlir::Type ptrType, std::optional<uint32_t> vecDim);
} // namespace blk

#define GET_OP_CLASSES
#include "blk/Dialect/Blk/IR/BlkOps.h.inc"

namespace blk {
/// Name of the unit attribute that marks a func.func as a kernel entry point.
inline constexpr llvm::StringLiteral kKernelAttr = "blk.kernel";
/// Argument attribute: the caller promises divisibility (bytes for pointers,
/// value for integers) of this argument.
inline constexpr llvm::StringLiteral kDivisibilityAttr = "blk.divisibility";
/// Dictionary of the compile-time parameters a kernel was generated with.
inline constexpr llvm::StringLiteral kConstantsAttr = "blk.constants";
/// Marks an arith.divf that must round as IEEE division (div_rn).
inline constexpr llvm::StringLiteral kPreciseAttr = "blk.precise";
/// Module attributes set by the pipeline.
inline constexpr llvm::StringLiteral kNumWarpsAttr = "blk.num_warps";
/// Bytes of shared memory a kernel needs (attribute of its func.func, set by
/// blk-allocate-shared-memory) and the offset of an op's scratch buffer.
inline constexpr llvm::StringLiteral kSharedBytesAttr = "blk.shared";
inline constexpr llvm::StringLiteral kSmemOffsetAttr = "blk.smem_offset";

/// Whether an atomic read-modify-write of `kind` applies to elements of `type`.
bool atomicSupports(AtomicRMWKind kind, mlir::Type type);
} // namespace blk

#endif
