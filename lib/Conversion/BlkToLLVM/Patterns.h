// Internal to the blk-to-LLVM conversion: the type converter and the pattern
// groups, one file each.
#ifndef BLK_LIB_CONVERSION_BLKTOLLVM_PATTERNS_H
#define BLK_LIB_CONVERSION_BLKTOLLVM_PATTERNS_H

#include "blk/Dialect/Blk/IR/Layout.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace blk {

struct WarpShufflePlan;

/// Blocks become the scalars one thread holds; pointers become global
/// (address space 1) LLVM pointers; other scalars stay as they are.
class ThreadTypeConverter : public mlir::TypeConverter {
public:
  explicit ThreadTypeConverter(mlir::MLIRContext *ctx);
};

/// The calling thread's part of a layout: the lane and warp terms of each
/// coordinate, and whether it owns (is the first copy of) its elements.
struct ThreadCoords {
  llvm::SmallVector<mlir::Value> coords; // i32, one per dimension
  mlir::Value owner;                      // i1, null when no thread holds copies
  bool additive = true;                   // register terms may be added (no shared bits)
  /// Coordinates (i32) of the element register `reg` holds.
  llvm::SmallVector<mlir::Value> element(mlir::OpBuilder &b, mlir::Location loc, const LinearLayout &layout,
                                         int64_t reg) const;
};
ThreadCoords emitThreadCoords(mlir::OpBuilder &b, mlir::Location loc, const LinearLayout &layout);

/// Lane id and warp id of the calling thread (i32).
mlir::Value emitLaneId(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value emitWarpId(mlir::OpBuilder &b, mlir::Location loc);
/// The sum over set bits i of `id` of bases[i][dim], built from shifts and
/// masks of runs of bits.
mlir::Value emitBasisSum(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id,
                         llvm::ArrayRef<LinearLayout::Coord> bases, unsigned dim);
/// Register index of each element lane 0 of warp 0 holds, by row-major
/// position in the block; every thread holds the same registers at its own
/// offsets.
llvm::DenseMap<int64_t, int64_t> registersByPosition(const LinearLayout &layout);
/// Inline PTX: `text` with `constraints` over `operands`; the result (null
/// for a void `resultType`). `sideEffects` keeps it ordered and alive.
mlir::Value inlineAsm(mlir::OpBuilder &b, mlir::Location loc, mlir::Type resultType, mlir::ValueRange operands,
                      llvm::StringRef text, llvm::StringRef constraints, bool sideEffects = true);
/// Row-major index (i32) of `coords` in a block of `shape`; 0 for a scalar.
mlir::Value emitLinearIndex(mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<mlir::Value> coords,
                            llvm::ArrayRef<int64_t> shape);
/// Row-major index (i32) of the element each register of `layout` holds, in
/// register order.
llvm::SmallVector<mlir::Value> emitRegisterIndices(mlir::OpBuilder &b, mlir::Location loc, const LinearLayout &layout);
/// Whether bit `bit` of `id` (a lane or warp id) is set: the upper half of a
/// butterfly pair.
mlir::Value emitBitIsSet(mlir::OpBuilder &b, mlir::Location loc, mlir::Value id, unsigned bit);

/// The type an element of `type` takes in global and shared memory: a byte
/// for booleans (i1 in registers) and fp8 (a byte in registers too), the
/// type itself otherwise.
mlir::Type memoryElementType(mlir::Type type);
/// Address of element `index` of an array of `type` that starts at byte
/// `offset` of the kernel's shared memory (booleans take a byte each).
mlir::Value sharedElement(mlir::OpBuilder &b, mlir::Location loc, int64_t offset, mlir::Type type,
                          mlir::Value index);
/// `index` + `pad` * (`index` / `period`) (`period` a power of two; 0:
/// `index`): the padded position of a row-major element in a layout move's
/// buffer (sharedPadPeriod).
mlir::Value emitPaddedIndex(mlir::OpBuilder &b, mlir::Location loc, mlir::Value index, int64_t period,
                            int64_t pad = 1);
/// The offset of `op`'s scratch buffer in shared memory, or an error at `op`
/// when the allocation pass has not placed it.
mlir::FailureOr<int64_t> scratchOffset(mlir::Operation *op);
/// The start (a shared-memory pointer) of the buffer the allocation pass
/// placed for `op` (a ring or mbarriers), or an error at `op`.
mlir::FailureOr<mlir::Value> allocatedBuffer(mlir::OpBuilder &b, mlir::Operation *op);
/// One element to or from shared memory (booleans travel as bytes).
void storeShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, mlir::Value ptr);
mlir::Value loadShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type, mlir::Value ptr);
/// Consecutive elements to or from shared memory in one access (`ptr`
/// aligned to their size; 32-bit words when they fill some): one element
/// goes as storeShared/loadShared does.
void storeSharedVector(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange values, mlir::Value ptr);
/// storeSharedVector done only where `pred` (i1) holds: a predicated
/// st.shared, so that threads holding copies of an element leave its write
/// to its owner (ThreadCoords::owner); a null `pred` stores everywhere.
void storeSharedVectorIf(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange values, mlir::Value ptr,
                         mlir::Value pred);
llvm::SmallVector<mlir::Value> loadSharedVector(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type, int64_t n,
                                                mlir::Value ptr);

mlir::Value i32Const(mlir::OpBuilder &b, mlir::Location loc, int64_t v);
/// `elems` (of one type, 32 bits together) packed into one i32 register, the
/// first in the low bits: a tensor-core fragment register.
mlir::Value packWord(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange elems);
/// `elems` in one vector value, as the bits of a vector of them: bytes of
/// fp8 conversions as the 16-bit pairs they came in.
mlir::Value packVector(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange elems);
/// a && c for i1 values, either of which may be null (true).
mlir::Value andValues(mlir::OpBuilder &b, mlir::Location loc, mlir::Value a, mlir::Value c);
/// Whether this thread writes (stores, atomics) the elements of a block of
/// pointers: the first copy of each element; thread 0 for a scalar pointer;
/// null when every thread owns its elements alone.
mlir::Value emitOwner(mlir::OpBuilder &b, mlir::Location loc, mlir::Type ptrType);

/// One application of a reduce/scan combiner region to two partial results.
llvm::SmallVector<mlir::Value> combine(mlir::OpBuilder &b, mlir::Region &combiner, mlir::ValueRange lhs,
                                       mlir::ValueRange rhs);
/// `v` from another lane by a shfl.sync of kind `kind`; `lane` is its lane
/// operand (a lane id, a distance or a lane mask).
mlir::Value shuffle(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, mlir::NVVM::ShflKind kind,
                    mlir::Value lane);
/// `v` from the lane whose id differs from ours in the bits of `laneMask`.
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v, unsigned laneMask);
/// The result registers of a layout move inside warps, from the source
/// registers `values`, by the rounds of `plan` (WarpShuffleToLLVM.cpp).
llvm::SmallVector<mlir::Value> emitWarpShuffles(mlir::OpBuilder &b, mlir::Location loc,
                                                const WarpShufflePlan &plan, mlir::ValueRange values);

/// The registers of `dstType` (a 16-bit #blk.dot_op, kWidth 2) read with
/// ldmatrix from a tile in shared memory: `addressOf` gives the address of
/// block element (row, col), the start of a 16-byte run along the tile's
/// lines; `trans` when K does not run along those lines. Errors at `op`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
emitLdmatrixFragments(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *op, mlir::RankedTensorType dstType,
                      bool trans, llvm::function_ref<mlir::Value(mlir::OpBuilder &, llvm::ArrayRef<mlir::Value>)> addressOf);

void populateElementwisePatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateProgramOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateMemoryOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateDebugOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateLayoutOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateGatherPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateSortPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateReduceOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
/// Scans; `laneScanBits`: the convert-blk-to-llvm option scan-lane-bits.
void populateScanOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns, unsigned laneScanBits);
void populateDotOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateDotOperandPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateSharedRingPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateTMAPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateWarpGroupDotPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateAtomicOpPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns, unsigned computeCapability);
void populateFloat8Patterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateLibDevicePatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateInlineAsmPatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);
void populateWarpRolePatterns(ThreadTypeConverter &tc, mlir::RewritePatternSet &patterns);

/// A barrier of every thread that runs the code where `b` inserts: bar.sync
/// 0, or in a warp-specialized kernel's consumer branch a named barrier of
/// the consumer warps alone.
void emitBarrier(mlir::OpBuilder &b, mlir::Location loc);
/// i1: the calling thread (warp) is the one that issues TMA copies where `b`
/// inserts: the producer warpgroup's first in its branch, else thread (warp) 0.
mlir::Value emitIsIssuingThread(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value emitIsIssuingWarp(mlir::OpBuilder &b, mlir::Location loc);
/// Whether `b` inserts into the producer warpgroup's branch of a
/// warp-specialized kernel.
bool inProducerBranch(mlir::OpBuilder &b);

/// fp8 (Float8ToLLVM.cpp). Whether `op` is lowered by the fp8 patterns even
/// on scalars: an arith.extf or arith.truncf with an fp8 side, or an fp8
/// constant.
bool lowersAsFloat8(mlir::Operation *op);
/// An error at the first fp8 conversion or product when the target is older
/// than sm_89; otherwise marks a module whose fp8 dots run on mma.sync with
/// the PTX ISA version they need (kMinPtxVersionAttr).
mlir::LogicalResult prepareFloat8(mlir::ModuleOp module, unsigned computeCapability);
/// fp8 bytes (of type `from`) to f16 or f32 values, two per cvt.
llvm::SmallVector<mlir::Value> widenFloat8(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange bytes,
                                           mlir::Type from, mlir::Type to);
/// The byte of an fp8 constant.
mlir::Value float8Bits(mlir::OpBuilder &b, mlir::Location loc, mlir::FloatAttr value);
/// Elements per global access (a load, a store, a vector atomic): the proven
/// width `vec`, within one thread's run of registers along the access's
/// dimension.
template <typename OpTy> unsigned accessWidth(OpTy op) {
  auto t = llvm::dyn_cast<mlir::RankedTensorType>(op.getPtr().getType());
  return t && hasLayout(t)
             ? std::min<unsigned>(op.getVec(), LinearLayout::get(t).contiguousRegisters(op.getAccessDim()))
             : 1;
}
/// Atomics the target lacks (bf16 add before sm_90) are errors at their op;
/// a module with vector atomics needs PTX ISA 8.1.
mlir::LogicalResult prepareAtomics(mlir::ModuleOp module, unsigned computeCapability);
/// Raises the module's kMinPtxVersionAttr to at least `version`.
void requirePtxVersion(mlir::ModuleOp module, int version);

/// Name of the kernel's dynamic shared memory (an external addrspace(3) array).
inline constexpr llvm::StringLiteral kSharedSymbol = "blk_shared";

} // namespace blk

#endif
