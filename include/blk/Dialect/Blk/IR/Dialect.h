// The blk dialect: types, layout attributes and ops.
#ifndef BLK_DIALECT_BLK_IR_DIALECT_H
#define BLK_DIALECT_BLK_IR_DIALECT_H

#include "blk/Support/FloatBits.h"
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
/// The PTX ISA version (times ten) a module's instructions need when newer
/// than the default 8.0 (fp8 mma.sync: 84); set by the lowering.
inline constexpr llvm::StringLiteral kMinPtxVersionAttr = "blk.min_ptx_version";
/// Bytes of shared memory a kernel needs (attribute of its func.func, set by
/// blk-allocate-shared-memory) and the offset of an op's scratch buffer.
/// On a warp-specialized kernel: the warps of its producer warpgroup, which
/// run after the `blk.num_warps` consumer warps (blk.producer_warp).
inline constexpr llvm::StringLiteral kProducerWarpsAttr = "blk.producer_warps";
/// On the `scf.if` that splits a warp-specialized kernel: its then branch
/// is the producer warpgroup's (whose first thread issues the TMA copies
/// there; elsewhere thread 0 does).
inline constexpr llvm::StringLiteral kProducerBranchAttr = "blk.producer_branch";
/// On an `scf.for`: the source asked for warp specialization
/// (`range(..., warp_specialize=True)`).
inline constexpr llvm::StringLiteral kWarpSpecializeAttr = "blk.warp_specialize";
/// On an `scf.for`: the source's pipelining depth for this loop
/// (`range(..., num_stages=N)`), in place of the kernel's; its loads are
/// issued ahead even when the loop stores.
inline constexpr llvm::StringLiteral kNumStagesAttr = "blk.num_stages";
inline constexpr llvm::StringLiteral kSharedBytesAttr = "blk.shared";
/// On a kernel: programs per SM that ptxas should leave registers for
/// (blk-programs-per-sm; `.minnctapersm`).
inline constexpr llvm::StringLiteral kProgramsPerSMAttr = "blk.programs_per_sm";
inline constexpr llvm::StringLiteral kSmemOffsetAttr = "blk.smem_offset";

/// The 8-bit floats of fp8 tensor cores (f8e4m3: e4m3 without infinities,
/// Triton's float8e4nv; f8e5m2). They are stored, converted and multiplied
/// by `dot`; arithmetic on them goes through a wider float.
/// The warpgroups (4 warps each) of the module's programs when they are two
/// or more whole ones (warpgroup turns need that); none otherwise.
inline std::optional<int64_t> warpGroups(mlir::Operation *op) {
  auto module = mlir::isa<mlir::ModuleOp>(op) ? mlir::cast<mlir::ModuleOp>(op) : op->getParentOfType<mlir::ModuleOp>();
  auto warps = module ? module->getAttrOfType<mlir::IntegerAttr>(kNumWarpsAttr) : mlir::IntegerAttr();
  if (!warps || warps.getInt() < 8 || warps.getInt() % 4)
    return std::nullopt;
  return warps.getInt() / 4;
}

inline bool isFloat8(mlir::Type t) { return mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(t); }
/// The bit format of an isFloat8 type (blk/Support/FloatBits.h).
inline F8 float8Format(mlir::Type t) { return mlir::isa<mlir::Float8E5M2Type>(t) ? F8::E5M2 : F8::E4M3; }

/// Argument attributes of a kernel's hidden TMA tensor-map parameter (set by
/// blk-lower-tensor-descriptors): where the host finds the descriptor's
/// base (an argument index), shape and strides (outermost first). In the
/// arrays an entry >= 0 is an argument index, an entry < 0 the constant
/// -entry.
inline constexpr llvm::StringLiteral kTmaBaseAttr = "blk.tma_base";
inline constexpr llvm::StringLiteral kTmaShapeAttr = "blk.tma_shape";
inline constexpr llvm::StringLiteral kTmaStridesAttr = "blk.tma_strides";

/// How TMA copies a descriptor's block into a swizzled ring slot: boxes of
/// `shape` (the block, its last dimension cut to one swizzle width), one per
/// `swizzleBytes`-wide chunk of the ring's arrangement (SharedRing.h).
struct TmaBox {
  llvm::SmallVector<int64_t, 5> shape;
  int64_t swizzleBytes = 0;
  int64_t copies = 1;
};
TmaBox tmaBox(TensorDescType desc);
/// A descriptor's block without its leading dimensions of size 1: the
/// block a box of a batched tensor (batch and head coordinates first) loads.
llvm::ArrayRef<int64_t> innerBlock(TensorDescType desc);
/// The ring of `slots` tiles TMA fills with `desc`'s 2-D blocks (rows along
/// the last dimension), or null when the block does not fit the swizzled
/// arrangement.
SharedBufferType tmaRing(TensorDescType desc, int64_t slots);

/// Whether an atomic read-modify-write of `kind` applies to elements of `type`.
bool atomicSupports(AtomicRMWKind kind, mlir::Type type);
} // namespace blk

#endif
