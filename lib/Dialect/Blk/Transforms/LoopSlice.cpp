#include "LoopSlice.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace blk {

/// Whether `def` may be recomputed for another iteration.
static bool isCloneable(scf::ForOp loop, Operation *def) {
  return def->getBlock() == loop.getBody() && def->getNumRegions() == 0 && isMemoryEffectFree(def);
}

/// The body ops computing `v` in operand-first order, when `v` depends on
/// nothing the loop defines or carries.
static std::optional<SmallVector<Operation *>> invariantOps(scf::ForOp loop, Value v) {
  SmallVector<Operation *> ops;
  llvm::SmallDenseSet<Operation *> seen;
  std::function<bool(Value)> visit = [&](Value x) {
    Operation *def = x.getDefiningOp();
    if (!def)
      return !loop->isAncestor(cast<BlockArgument>(x).getOwner()->getParentOp());
    if (!loop->isProperAncestor(def) || seen.contains(def))
      return true;
    if (!isCloneable(loop, def) || !llvm::all_of(def->getOperands(), visit))
      return false;
    seen.insert(def);
    ops.push_back(def);
    return true;
  };
  if (!visit(v))
    return std::nullopt;
  return ops;
}

void hoistInvariant(scf::ForOp loop, Value v) {
  // Held in a local: a range-for over `*temporary` would read a destroyed optional.
  auto ops = invariantOps(loop, v);
  for (Operation *op : *ops)
    op->moveBefore(loop);
}

/// The advance of iter arg `arg`, when the loop yields `arg + invariant`: a
/// pointer (addptr) or an integer (addi: a counter such as a block pointer's
/// offset, whose sum wraps as its k steps at once do).
static std::optional<Advance> advanceOf(scf::ForOp loop, BlockArgument arg) {
  Value yielded = loop.getYieldedValues()[arg.getArgNumber() - 1];
  Value step;
  if (auto add = yielded.getDefiningOp<AddPtrOp>(); add && add.getPtr() == arg)
    step = add.getOffset();
  if (auto add = yielded.getDefiningOp<arith::AddIOp>())
    step = add.getLhs() == arg ? add.getRhs() : add.getRhs() == arg ? add.getLhs() : Value();
  if (!step || step == arg || !invariantOps(loop, step))
    return std::nullopt;
  return Advance{arg, step};
}

Value scaleStep(OpBuilder &b, Location loc, Value step, int64_t k) {
  Type t = step.getType();
  auto block = dyn_cast<RankedTensorType>(t);
  TypedAttr factor = block ? TypedAttr(DenseElementsAttr::get(block, APInt(block.getElementTypeBitWidth(), k)))
                           : TypedAttr(IntegerAttr::get(t, k));
  return arith::MulIOp::create(b, loc, step, arith::ConstantOp::create(b, loc, factor));
}

Value advanceBy(OpBuilder &b, Location loc, Value at, Value delta) {
  if (isa<PointerType>(getElementTypeOrSelf(at.getType())))
    return AddPtrOp::create(b, loc, at.getType(), at, delta);
  return arith::AddIOp::create(b, loc, at, delta);
}

/// iterationSlice, where the caller has found whether the loop writes memory
/// (`allowLoads` only where it does not).
static std::optional<IterationSlice> sliceOfIteration(scf::ForOp loop, ValueRange roots, bool allowAdvances,
                                                      bool allowLoads) {
  IterationSlice result;
  llvm::SetVector<Operation *> slice;
  llvm::SmallDenseSet<Value> seenArgs;
  SmallVector<Value> work(roots);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != loop.getBody())
        continue; // an argument of an enclosing block
      std::optional<Advance> advance = allowAdvances ? advanceOf(loop, arg) : std::nullopt;
      if (!advance)
        return std::nullopt; // a loop-carried value
      if (seenArgs.insert(arg).second)
        result.advances.push_back(*advance);
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      continue; // defined outside the loop
    bool load = allowLoads && isa<LoadOp>(def) && def->getBlock() == loop.getBody();
    if (!load && !isCloneable(loop, def))
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  for (Operation &op : *loop.getBody())
    if (slice.contains(&op))
      result.ops.push_back(&op);
  return result;
}

std::optional<IterationSlice> iterationSlice(scf::ForOp loop, ValueRange roots, bool allowAdvances,
                                             bool allowLoads) {
  return sliceOfIteration(loop, roots, allowAdvances, allowLoads && !loadsMustWait(loop));
}

void cloneIteration(OpBuilder &b, scf::ForOp loop, const IterationSlice &slice, Value iv,
                    function_ref<Value(const Advance &)> argAt, IRMapping &map, Value inRange) {
  map.map(loop.getInductionVar(), iv);
  for (const Advance &adv : slice.advances)
    if (!map.contains(adv.arg))
      map.map(adv.arg, argAt(adv));
  for (Operation *op : slice.ops) {
    if (map.contains(op))
      continue;
    auto load = dyn_cast<LoadOp>(op);
    if (!load) {
      map.map(op, b.clone(*op, map));
      continue;
    }
    assert(inRange && "a slice with loads is cloned under an iteration guard");
    Value mask = guardedMask(b, load.getLoc(), inRange, load.getPtr().getType(),
                             load.getMask() ? map.lookupOrDefault(load.getMask()) : Value());
    Value other = load.getOther() ? map.lookupOrDefault(load.getOther()) : Value();
    auto copy = LoadOp::create(b, load.getLoc(), load.getType(), map.lookupOrDefault(load.getPtr()), mask, other,
                               load.getVec(), load.getVecDimAttr(), load.getEvict());
    map.map(op, copy.getOperation());
    map.map(load.getResult(), copy.getResult());
  }
}

Value iterationGuard(OpBuilder &b, Location loc, scf::ForOp loop, Value iv, Value from) {
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, loop.getUpperBound());
  if (from)
    inRange = arith::AndIOp::create(b, loc, inRange, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, iv, from));
  return inRange;
}

Value iterationMask(OpBuilder &b, Location loc, scf::ForOp loop, Value iv, Value from, Type ptrType, Value mask) {
  return guardedMask(b, loc, iterationGuard(b, loc, loop, iv, from), ptrType, mask);
}

Value guardedMask(OpBuilder &b, Location loc, Value inRange, Type ptrType, Value mask) {
  Value guard = inRange;
  if (auto t = dyn_cast<RankedTensorType>(ptrType))
    guard = SplatOp::create(b, loc, RankedTensorType::get(t.getShape(), b.getI1Type(), t.getEncoding()), inRange);
  return mask ? arith::AndIOp::create(b, loc, mask, guard).getResult() : guard;
}

bool inAnyLoop(Operation *op) { return op->getParentOfType<LoopLikeOpInterface>() != nullptr; }

bool countableLoop(scf::ForOp loop) {
  if (loop.getUnsignedCmp())
    return false;
  APInt value;
  return !matchPattern(loop.getStep(), m_ConstantInt(&value)) || value.isStrictlyPositive(); // a runtime step is positive
}

scf::ForOp pipelinableLoop(Operation *op) {
  auto loop = dyn_cast_or_null<scf::ForOp>(op->getParentOp());
  return loop && countableLoop(loop) ? loop : nullptr;
}

Value stepsOf(OpBuilder &b, Location loc, scf::ForOp loop, int64_t k) {
  Type type = loop.getInductionVar().getType();
  APInt value;
  if (matchPattern(loop.getStep(), m_ConstantInt(&value)))
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value * k));
  if (k == 1)
    return loop.getStep();
  return arith::MulIOp::create(b, loc, loop.getStep(), arith::ConstantOp::create(b, loc, IntegerAttr::get(type, k)));
}

bool loadsMustWait(scf::ForOp loop) {
  bool vouched = loop->hasAttr(kNumStagesAttr);
  WalkResult r = loop.getBody()->walk([&](Operation *op) {
    if ((isa<StoreOp>(op) && !vouched) ||
        isa<AtomicRMWOp, AtomicCASOp, AtomicLoadOp, AtomicStoreOp, PrintOp, AssertOp>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

unsigned loopStages(scf::ForOp loop, unsigned kernelStages) {
  auto stages = loop->getAttrOfType<IntegerAttr>(kNumStagesAttr);
  return stages ? unsigned(stages.getInt()) : kernelStages;
}

bool ringReader(DotOp dot) {
  // Before layouts the dot carries the instruction it was given; after,
  // its result is in that instruction's accumulator layout.
  // mma.sync reads 16-bit fragments from rings (ldmatrix); wgmma also
  // reads 8-bit floats, K-major.
  Attribute layout = dot.getType().getEncoding();
  MmaLayoutAttr mma = dot.getMmaAttr();
  Type elem = dot.getA().getType().getElementType();
  return mma && (!layout || isa<MmaLayoutAttr>(layout)) &&
         (elem.getIntOrFloatBitWidth() == 16 || (mma.getVersion() == 3 && isFloat8(elem)));
}

SharedBufferType cpAsyncRing(RankedTensorType tile, unsigned contig, unsigned vec, int64_t slots) {
  if (tile.getRank() != 2)
    return {};
  auto ring = SharedBufferType::getChecked([] { return InFlightDiagnostic(); }, tile.getContext(),
                                           {slots, tile.getDimSize(0), tile.getDimSize(1)}, tile.getElementType(),
                                           contig);
  if (!ring || vec * ring.getElementBytes() < 4)
    return {};
  return ring;
}

/// accessSlice, where the caller has found whether the loop writes memory.
static std::optional<IterationSlice> accessSliceOf(scf::ForOp loop, LoadOp load, bool loopWrites) {
  SmallVector<Value> roots{load.getPtr()};
  if (load.getMask())
    roots.push_back(load.getMask());
  return sliceOfIteration(loop, roots, /*allowAdvances=*/true, /*allowLoads=*/!loopWrites);
}

std::optional<IterationSlice> accessSlice(scf::ForOp loop, LoadOp load) {
  return accessSliceOf(loop, load, loadsMustWait(loop));
}

std::optional<IterationSlice> stagedBesideDots(scf::ForOp loop, LoadOp load, unsigned vec, unsigned contig) {
  auto tile = dyn_cast<RankedTensorType>(load.getType());
  if (load->getBlock() != loop.getBody() || !pipelinableLoop(load) || !tile || !cpAsyncRing(tile, contig, vec, 1))
    return std::nullopt;
  if (!llvm::any_of(loop.getBody()->getOps<DotOp>(), ringReader) || loadsMustWait(loop))
    return std::nullopt;
  return accessSliceOf(loop, load, /*loopWrites=*/false);
}

/// Whether a dot reads `load`'s value, directly or through layout
/// conversions (before and after layouts alike).
static bool readByDot(LoadOp load) {
  SmallVector<Value> work{load.getResult()};
  while (!work.empty())
    for (Operation *user : work.pop_back_val().getUsers()) {
      if (isa<DotOp>(user))
        return true;
      if (isa<ConvertLayoutOp>(user))
        work.push_back(user->getResult(0));
    }
  return false;
}

std::optional<IterationSlice> stagedWithoutDots(scf::ForOp loop, LoadOp load, unsigned vec, unsigned contig,
                                                int64_t slots, int64_t threads, int64_t sharedMemoryLimit) {
  auto tile = dyn_cast<RankedTensorType>(load.getType());
  if (slots < 2 || threads <= 0 || load->getBlock() != loop.getBody() || !pipelinableLoop(load) || !tile)
    return std::nullopt;
  SharedBufferType ring = cpAsyncRing(tile, contig, vec, slots);
  if (!ring || slots * ring.getSlotBytes() > sharedMemoryLimit / 8 * 7)
    return std::nullopt;
  int64_t carried = (slots - 1) * tile.getNumElements() * ring.getElementBytes() / (threads * 4);
  if (carried <= kCarriedRegisterLimit)
    return std::nullopt;
  if (llvm::any_of(loop.getBody()->getOps<DotOp>(), ringReader) || loadsMustWait(loop) || readByDot(load))
    return std::nullopt;
  return accessSliceOf(loop, load, /*loopWrites=*/false);
}

bool isZeroOrAbsent(Value v) {
  if (!v)
    return true;
  if (auto splat = v.getDefiningOp<SplatOp>())
    v = splat.getSrc();
  return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
}

Value throughTrans(Value operand, bool *transposed) {
  auto trans = operand.getDefiningOp<TransOp>();
  if (transposed)
    *transposed = bool(trans);
  return trans ? trans.getSrc() : operand;
}

bool onlyDotOperands(Value v, function_ref<bool(DotOp)> accept) {
  auto dotOperand = [&](OpOperand &use) {
    auto dot = dyn_cast<DotOp>(use.getOwner());
    return dot && use.getOperandNumber() < 2 && accept(dot);
  };
  for (OpOperand &use : v.getUses()) {
    auto trans = dyn_cast<TransOp>(use.getOwner());
    if (trans ? !llvm::all_of(trans->getUses(), dotOperand) : !dotOperand(use))
      return false;
  }
  return true;
}

DescriptorLoadOp loadBeforeTmaStore(DescriptorStoreOp store, function_ref<bool(Value)> through) {
  Operation *parent = store->getParentOp();
  if (!isa<func::FuncOp>(parent) && !(isa<scf::ForOp>(parent) && isa<func::FuncOp>(parent->getParentOp())))
    return {};
  for (Operation &op : *store->getBlock()) {
    if (&op == store.getOperation())
      break;
    auto load = dyn_cast<DescriptorLoadOp>(op);
    if (load && load.getDesc().getType() == store.getDesc().getType() && through(load.getDesc()) &&
        llvm::none_of(load->getUsers(), [](Operation *user) { return isa<DotOp, TransOp>(user); }))
      return load;
  }
  return {};
}

} // namespace blk
