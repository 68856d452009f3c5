// Internal to the interpreter: values and the executor of one program.
#ifndef BLK_LIB_INTERPRETER_EXECUTOR_H
#define BLK_LIB_INTERPRETER_EXECUTOR_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Interpreter/Interpreter.h"
#include "llvm/ADT/DenseMap.h"
#include <set>

namespace blk::interp {

/// A scalar (empty shape) or a block. Floats are held as doubles already
/// rounded to their type; integers sign-extended from their width; pointers
/// as addresses in `i`.
struct Tensor {
  mlir::Type elem;
  llvm::SmallVector<int64_t, 2> shape;
  std::vector<double> f;
  std::vector<int64_t> i;
  /// The warp_group_dot (Executor::dots) whose result this accumulator will
  /// hold once a warp_group_dot_wait completes it; -1: none.
  int64_t dot = -1;

  bool isFloat() const { return mlir::isa<mlir::FloatType>(elem); }
  size_t size() const { return isFloat() ? f.size() : i.size(); }
  static Tensor like(mlir::Type type, size_t n);
  /// Element `flat` as a one-element tensor (a scalar of the element type).
  Tensor element(size_t flat) const;
  /// Element `flat` takes element `j` of `from` (of the same element type).
  void copyElement(size_t flat, const Tensor &from, size_t j = 0);
};

/// The lines of a block along `axis`: element j of line (o, in) is at
/// (o * len + j) * inner + in.
struct AxisLines {
  int64_t outer = 1, len, inner = 1;
  AxisLines(llvm::ArrayRef<int64_t> shape, int64_t axis) : len(shape[axis]) {
    for (int64_t d = axis + 1; d < int64_t(shape.size()); ++d)
      inner *= shape[d];
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
  }
  size_t at(int64_t o, int64_t j, int64_t in) const { return size_t((o * len + j) * inner + in); }
};

/// Rounds `v` to the float type `t` (f16/bf16/f32 round to nearest even).
double roundTo(mlir::Type t, double v);
/// Sign-extends the low `width` bits of `v`.
int64_t wrapInt(unsigned width, int64_t v);
/// c += a @ b: one fused multiply-add per k in order, rounded to c's type
/// each step; `tf32` rounds f32 operands first, as cvt.rna.tf32.f32 does.
void multiplyAccumulate(Tensor a, Tensor b, Tensor &c, bool tf32);
/// Element `j` of `out` from the memory at `p` (elements of type `elem`).
void readElement(mlir::Type elem, const void *p, Tensor &out, size_t j);
/// Element `j` of `value` to the memory at `p`.
void writeElement(mlir::Type elem, void *p, const Tensor &value, size_t j);
/// The addresses of a descriptor's block at `offsets` (row-major), and
/// which of them lie inside the tensor.
void descriptorBlock(const Tensor &desc, llvm::ArrayRef<int64_t> offsets, Tensor &addrs, std::vector<bool> &inside);
/// Applies an elementwise arith/math op; failure if unsupported.
mlir::LogicalResult evalElementwise(mlir::Operation *op, llvm::ArrayRef<const Tensor *> operands, Tensor &result);

class Executor {
public:
  Executor(Interpreter &interp, const RunOptions &options, std::array<unsigned, 3> pid, std::array<unsigned, 3> grid)
      : interp(interp), options(options), pid(pid), grid(grid) {}
  mlir::LogicalResult runKernel(mlir::func::FuncOp func, llvm::ArrayRef<Arg> args);

private:
  mlir::LogicalResult execBlock(mlir::Block &block, llvm::ArrayRef<Tensor> args,
                                llvm::SmallVectorImpl<Tensor> &terminatorOperands);
  mlir::LogicalResult execOp(mlir::Operation *op);
  mlir::LogicalResult execFor(mlir::scf::ForOp op);
  mlir::LogicalResult execIf(mlir::scf::IfOp op);
  mlir::LogicalResult execWhile(mlir::scf::WhileOp op);
  mlir::LogicalResult execLoad(LoadOp op);
  /// A load of `result`'s elements through `ptr` where `mask` holds (`other`,
  /// or 0, elsewhere); `what` names the access in errors.
  mlir::LogicalResult loadThrough(mlir::Operation *op, const char *what, mlir::Value ptr, mlir::Value mask,
                                  mlir::Value other, mlir::Value result);
  /// A store of `value`'s elements through `ptr` where `mask` holds.
  mlir::LogicalResult storeThrough(mlir::Operation *op, const char *what, mlir::Value ptr, mlir::Value value,
                                   mlir::Value mask);
  mlir::LogicalResult execReduce(ReduceOp op);
  mlir::LogicalResult execScan(ScanOp op);
  /// blk.gather; an index outside its axis is an error (undefined on the GPU).
  mlir::LogicalResult execGather(GatherOp op);
  /// blk.sort: Triton's bitonic network, exchange for exchange (Sort.cpp).
  mlir::LogicalResult execSort(SortOp op);
  mlir::LogicalResult execStore(StoreOp op);
  mlir::LogicalResult execMakeTensorDescriptor(MakeTensorDescriptorOp op);
  mlir::LogicalResult execDescriptorLoad(DescriptorLoadOp op);
  mlir::LogicalResult execDescriptorStore(DescriptorStoreOp op);
  /// Calls `fn` with the index and address of each element of `desc`'s
  /// block at `offsets` inside the tensor, after checking the access.
  mlir::LogicalResult forEachDescriptorElement(mlir::Operation *op, mlir::Value desc, mlir::ValueRange offsets,
                                               const char *what, llvm::function_ref<void(size_t, void *)> fn);
  mlir::LogicalResult forEachDescriptorElement(mlir::Operation *op, const Tensor &desc,
                                               llvm::ArrayRef<int64_t> offsets, const char *what,
                                               llvm::function_ref<void(size_t, void *)> fn);
  mlir::LogicalResult execAtomicRMW(AtomicRMWOp op);
  mlir::LogicalResult execAtomicCAS(AtomicCASOp op);
  mlir::LogicalResult execAtomicLoad(AtomicLoadOp op);
  mlir::LogicalResult execAtomicStore(AtomicStoreOp op);
  // Shared memory, after the blk passes (SharedMemory.cpp).
  mlir::LogicalResult execSharedOp(mlir::Operation *op);
  /// An error at `op` unless `slot` is one of `buffer`'s.
  mlir::LogicalResult checkSlot(mlir::Operation *op, const Tensor &buffer, int64_t slot);
  /// The tile in a slot as `buffer` sees it: transposed where it is a local_trans view.
  Tensor readSlot(const Tensor &buffer, int64_t slot) const;
  void writeSlot(const Tensor &buffer, int64_t slot, const Tensor &tile);
  /// Where slot `slot` of ring `ring` starts in its storage.
  size_t slotStart(size_t ring, int64_t slot) const;
  /// Fills a slot with NaN (floats) or 0x7f bytes (integers): a copy into it
  /// is in flight, and reading it before the copy lands shows.
  void poisonSlot(size_t ring, int64_t slot);
  void completeDot(size_t id);
  mlir::LogicalResult execAsyncCopy(AsyncCopyOp op);
  mlir::LogicalResult execAsyncTMACopy(AsyncTMACopyOp op);
  /// TMA stores read their slot when waited for, the latest the GPU may:
  /// a slot written again before the wait stores the new data.
  mlir::LogicalResult execAsyncTMAStore(AsyncTMAStoreOp op);
  mlir::LogicalResult execTMAStoreWait();
  mlir::LogicalResult execMBarrierWait(MBarrierWaitOp op);
  mlir::LogicalResult execMBarrierArrive(MBarrierArriveOp op);
  /// Warp specialization (WarpRoles.cpp): the producer branch runs beside
  /// the consumers, as far ahead as its slots' releases let it.
  mlir::LogicalResult startProducer(mlir::scf::IfOp roles);
  mlir::LogicalResult runProducer();
  bool wouldWait(MBarrierWaitOp op);
  mlir::LogicalResult execWarpGroupDot(WarpGroupDotOp op);
  mlir::LogicalResult execWarpGroupDotWait(WarpGroupDotWaitOp op);
  /// A hidden TMA descriptor parameter of `func` (blk-lower-tensor-descriptors)
  /// built from the runtime arguments, as the host builds its tensor map.
  Tensor tmaDescriptor(mlir::func::FuncOp func, unsigned index, llvm::ArrayRef<Tensor> args);

  /// An error at `op` unless element `j` of `ptr` addresses `bytes` inside a buffer.
  mlir::LogicalResult checkAccess(mlir::Operation *op, const char *what, const Tensor &ptr, size_t j, size_t bytes);
  /// What a `vec` > 1 access (blk-vectorize-memory's) promises the GPU: each
  /// run of `vec` elements along `dim` from a multiple of `vec` is contiguous
  /// in memory, aligned to its size and under one mask value; an error names
  /// the first run that breaks it (a wrong vector width would read or write
  /// the wrong bytes, or fault, on the GPU).
  mlir::LogicalResult checkVectors(mlir::Operation *op, const char *what, const Tensor &ptr, const Tensor *mask,
                                   unsigned vec, unsigned dim, size_t bytes);
  std::string programText() const;
  mlir::LogicalResult execPrint(PrintOp op);
  mlir::LogicalResult execAssert(AssertOp op);
  /// Checks that [addr, addr + bytes) lies in a registered buffer.
  bool inBounds(int64_t addr, size_t bytes) const;
  /// "(i, j)": the coordinates of element `flat` of a block.
  static std::string coordText(const Tensor &t, size_t flat);
  /// " at index (i, j)" for a block, "" for a scalar.
  static std::string indexText(const Tensor &t, size_t flat);

  const Tensor &get(mlir::Value v) { return env.find(v)->second; }
  void set(mlir::Value v, Tensor t) { env[v] = std::move(t); }

  Interpreter &interp;
  const RunOptions &options;
  std::array<unsigned, 3> pid, grid;
  llvm::DenseMap<mlir::Value, Tensor> env;

  /// Shared buffers (local_alloc), each [slots, rows, cols]; a buffer value
  /// holds its index here and 1 if it is seen transposed.
  std::vector<Tensor> rings;
  /// A copy in flight: the tile that lands in a slot.
  struct Landing {
    size_t ring;
    int64_t slot;
    Tensor tile;
  };
  void land(const Landing &l);
  /// cp.async: the copies since the last commit, then the committed groups
  /// still in flight, oldest first.
  std::vector<Landing> openGroup;
  std::vector<std::vector<Landing>> committedGroups;
  /// mbarriers: a set's completed phases per barrier and the TMA copies that
  /// complete the current one.
  struct MBarriers {
    std::vector<int64_t> phases;
    std::vector<std::vector<Landing>> armed;
  };
  std::vector<MBarriers> mbarriers;
  /// warp_group_dot operands, multiplied when a wait completes the dot: so
  /// a ring slot overwritten before the wait gives a wrong result, as on the GPU.
  struct PendingDot {
    WarpGroupDotOp op;
    Tensor a; // register A, or a buffer with aSlot
    int64_t aSlot = 0, bSlot = 0;
    Tensor b, acc, result;
    bool done = false;
  };
  std::vector<PendingDot> dots;
  /// Slots (ring, slot) that threads wrote, by local_store or cp.async,
  /// since the last fence.proxy.async: the async proxy (wgmma, TMA stores)
  /// may not see those writes, so reading one there is an error.
  std::set<std::pair<size_t, int64_t>> unfenced;
  /// The same writes since the last barrier: the async proxy reads a slot
  /// as a whole, so every thread's writes must be ordered before it.
  std::set<std::pair<size_t, int64_t>> unsynced;
  /// Slots read (local_load, a completed wgmma) since the last barrier, or
  /// since the issuing warp last waited for the readers' releases: writing
  /// one of them again (local_store, a cp.async or TMA copy) may overwrite
  /// it under a slower warp still reading it.
  std::set<std::pair<size_t, int64_t>> readSinceSync;
  mlir::LogicalResult checkNotRead(mlir::Operation *op, const Tensor &buffer, int64_t slot, const char *writer);
  /// An error at `op` where `reader` (the async proxy) would read `slot`
  /// of `buffer` before the threads' writes are fenced and synchronized.
  mlir::LogicalResult checkFenced(mlir::Operation *op, const Tensor &buffer, int64_t slot, const char *reader);
  /// TMA stores not yet waited for: the slot they copy out and where to.
  struct PendingTmaStore {
    mlir::Operation *op;
    Tensor buffer, desc;
    int64_t slot;
    llvm::SmallVector<int64_t> offsets;
  };
  std::vector<PendingTmaStore> tmaStores;
  /// Where the producer warpgroup's branch stands: the branch itself, then
  /// each loop it is in (the current iteration's induction variable), and the
  /// op of each to run next. Empty when no producer runs.
  struct ProducerFrame {
    mlir::scf::ForOp loop; // null: the branch
    int64_t iv = 0, ub = 0, step = 1;
    mlir::Operation *next = nullptr;
  };
  std::vector<ProducerFrame> producer;
  void bindIteration(mlir::scf::ForOp loop, int64_t iv, llvm::ArrayRef<Tensor> carried);
  size_t firstInFlight = 0; // dots complete in order
};

} // namespace blk::interp

#endif
