// What the load pipeliners (blk-pipeline-loads, blk-pipeline-dot) share: the
// body ops that compute an access's pointer and mask for one iteration, the
// guard that masks off an access issued for an iteration past the loop, and
// which loads go through shared-memory rings beside a loop's dots;
// and what they and the descriptor passes share: the tile a dot operand
// reads through a `trans`.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_LOOPSLICE_H
#define BLK_DIALECT_BLK_TRANSFORMS_LOOPSLICE_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/IR/IRMapping.h"

namespace blk {

/// A loop-carried pointer or integer (scalar or block) advanced by a
/// loop-invariant step each iteration (`p += BLOCK_K * stride`, `k_offset +=
/// BLOCK_K`): k iterations on it is `p + k * step`.
struct Advance {
  mlir::BlockArgument arg;
  mlir::Value step;
};

/// `step` times the constant `k` (scalar or block), at `b`.
mlir::Value scaleStep(mlir::OpBuilder &b, mlir::Location loc, mlir::Value step, int64_t k);
/// `at` (an advancing iter arg's value) moved by `delta` as the loop moves
/// it: addptr for pointers, addi for integers.
mlir::Value advanceBy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value at, mlir::Value delta);

/// The ops of a loop body that compute some values for one iteration, in
/// body order, and the advancing iter args they read.
struct IterationSlice {
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::SmallVector<Advance> advances;
};

/// The slice computing `roots` from the induction variable and values
/// defined outside `loop` (and, with `allowAdvances`, iter args the loop
/// advances by a loop-invariant offset) through pure ops without regions
/// directly in the body (and, with `allowLoads` in a loop that writes no
/// memory, loads: an index read through a page table or a permutation);
/// nothing when they depend on anything else. Changes nothing.
std::optional<IterationSlice> iterationSlice(mlir::scf::ForOp loop, mlir::ValueRange roots, bool allowAdvances,
                                             bool allowLoads = false);

/// Moves the ops in `loop`'s body that compute the invariant `v` in front of
/// the loop (iterationSlice checked that they can move).
void hoistInvariant(mlir::scf::ForOp loop, mlir::Value v);

/// Clones `slice` at `b` for iteration `iv` into `map`, which then maps
/// body values to their clones; ops an earlier call for the same iteration
/// already cloned into `map` (a slice shared by several tiles) are not
/// cloned again. `argAt` gives each advancing iter arg's value there; the
/// slice's loads are masked off where `inRange` (iterationGuard; needed
/// when the slice has loads) is false, so that an iteration past the loop
/// reads nothing.
void cloneIteration(mlir::OpBuilder &b, mlir::scf::ForOp loop, const IterationSlice &slice, mlir::Value iv,
                    llvm::function_ref<mlir::Value(const Advance &)> argAt, mlir::IRMapping &map,
                    mlir::Value inRange = mlir::Value());

/// Whether iteration `iv` runs (i1): `iv < ub` and, when `from` is given,
/// `iv > from` (an iteration number that wrapped past the type's maximum).
mlir::Value iterationGuard(mlir::OpBuilder &b, mlir::Location loc, mlir::scf::ForOp loop, mlir::Value iv,
                           mlir::Value from);

/// The mask of an access through `ptrType` issued for iteration `iv`:
/// `mask` (may be null) and iterationGuard.
mlir::Value iterationMask(mlir::OpBuilder &b, mlir::Location loc, mlir::scf::ForOp loop, mlir::Value iv,
                          mlir::Value from, mlir::Type ptrType, mlir::Value mask);

/// `mask` (may be null) and-ed with `inRange` (i1) splat to `ptrType`'s shape.
mlir::Value guardedMask(mlir::OpBuilder &b, mlir::Location loc, mlir::Value inRange, mlir::Type ptrType,
                        mlir::Value mask);

/// The scf.for directly holding `op` when the pipeliners can count its
/// iterations: a signed comparison and a positive constant step or a runtime
/// one (positive, as scf.for's must be: split-K's `BLOCK_K * split`); null
/// otherwise.
mlir::scf::ForOp pipelinableLoop(mlir::Operation *op);

/// Whether `op` lies in a loop, however deep (blk-pipeline-dot issues a
/// wgmma dot outside every loop from shared memory).
bool inAnyLoop(mlir::Operation *op);

/// Whether the pipeliners can count `loop`'s iterations (as above).
bool countableLoop(mlir::scf::ForOp loop);

/// `k` steps of `loop`, in its induction variable's type, built at `b`
/// (after the step's definition): a constant where the step is one.
mlir::Value stepsOf(mlir::OpBuilder &b, mlir::Location loc, mlir::scf::ForOp loop, int64_t k);

/// Whether no load of `loop` may be issued ahead: something in it (nested
/// ops included) writes memory or orders the loads after it (an acquire).
/// Stores do not count in a loop its source gives a pipelining depth
/// (`range(..., num_stages=N)`, as in Triton: the author vouches that no
/// load reads what an earlier iteration stored).
bool loadsMustWait(mlir::scf::ForOp loop);

/// The pipelining depth of `loop`: its source's `num_stages` where given,
/// else the kernel's `kernelStages`.
unsigned loopStages(mlir::scf::ForOp loop, unsigned kernelStages);

/// Whether `dot` reads its operands through shared-memory rings when they
/// are loads (blk-pipeline-dot): 16-bit operands of a tensor-core dot
/// (`mma` set; after layouts, its result in the mma layout).
bool ringReader(DotOp dot);

/// A ring of `slots` tiles of `tile`'s shape and element type that cp.async
/// fills with copies of `vec` elements along dimension `contig`; null where
/// those copies are under 4 bytes or the tile does not fit the swizzled
/// arrangement.
SharedBufferType cpAsyncRing(mlir::RankedTensorType tile, unsigned contig, unsigned vec, int64_t slots);

/// The slice computing `load`'s pointer and mask for another iteration
/// (iterationSlice with advances and, where the loop writes no memory,
/// index loads).
std::optional<IterationSlice> accessSlice(mlir::scf::ForOp loop, LoadOp load);

/// When blk-pipeline-dot (at more than one stage) copies `load`, a 2-D
/// load directly in `loop`'s body, D iterations ahead through a ring of its
/// own, read back into registers where the load was: its accessSlice. The
/// loop holds a ring-reading dot, writes no memory, and can recompute the
/// load's pointer and mask; `vec` and `contig` are its access. Register
/// pipelining (blk-pipeline-loads) leaves such loads alone.
std::optional<IterationSlice> stagedBesideDots(mlir::scf::ForOp loop, LoadOp load, unsigned vec, unsigned contig);

/// 32-bit registers per thread above which a loop without tensor-core dots
/// carries a tile ahead through shared memory rather than in registers.
inline constexpr int64_t kCarriedRegisterLimit = 64;

/// When blk-pipeline-dot (at `slots` > 1 stages) copies `load` ahead
/// through a ring in a loop without ring-reading dots: a 2-D tile cp.async
/// can copy (`vec`, `contig`), read by no dot, in a loop that writes no
/// memory, whose `slots - 1` tiles in flight would take more than
/// kCarriedRegisterLimit registers in each of `threads` threads, and whose
/// ring leaves an eighth of `sharedMemoryLimit` free. Its accessSlice then;
/// register pipelining (blk-pipeline-loads) leaves such loads alone.
std::optional<IterationSlice> stagedWithoutDots(mlir::scf::ForOp loop, LoadOp load, unsigned vec, unsigned contig,
                                                int64_t slots, int64_t threads, int64_t sharedMemoryLimit);

/// Whether `v` (a load's `other`) is a block of zeros, or absent.
bool isZeroOrAbsent(mlir::Value v);

/// The value a dot operand reads: the source of the `trans` defining
/// `operand` (then `transposed`, when given, is set), else `operand`.
mlir::Value throughTrans(mlir::Value operand, bool *transposed = nullptr);

/// Whether every use of `v` is an A or B operand of a dot that `accept`s,
/// directly or through a `trans` whose every use is.
bool onlyDotOperands(mlir::Value v, llvm::function_ref<bool(DotOp)> accept);

/// The descriptor load a TMA store's buffer brings in by TMA first (the old
/// tile of C += A @ B, blk-tma-stores): the first before `store` in its block
/// through a descriptor of the same type, read by no dot, with the store in
/// at most one loop, an `scf.for` whose body holds it (its trips count the
/// copies' mbarrier phases). `through` says which descriptors qualify.
DescriptorLoadOp loadBeforeTmaStore(DescriptorStoreOp store, llvm::function_ref<bool(mlir::Value)> through);

} // namespace blk

#endif
