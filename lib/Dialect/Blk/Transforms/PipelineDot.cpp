// Shared-memory pipelining of a tensor-core dot's operands. In a loop
//   for i: a = load(pa(i)); b = load(pb(i)); acc = dot(cvt(a), cvt(b), acc)
// the operand tiles go to rings of shared-memory slots through cp.async,
// D = num_stages - 1 iterations ahead:
//   copy tiles 0 .. D-1; commit each
//   for i (the n-th iteration): wait until tile n landed; barrier
//     acc = dot(ldmatrix(A[n % S]), ldmatrix(B[n % S]), acc)       mma.sync
//     acc = wait(wgmma(A[n % S], B[n % S], acc), 1 pending)          wgmma
//     copy tiles n + D into slot (n + D) % S; commit
// mma.sync reads its slot before the next iteration's barrier, so S = D + 1
// slots suffice; an asynchronous wgmma may still read slot n - 1 while
// another warpgroup passes that barrier, so wgmma takes S = D + 2.
// Descriptor loads that blk-lower-tensor-descriptors kept for TMA are copied
// by one thread (async_tma_copy, none past the bound) and waited for on the
// slot's mbarrier (phase n / S) instead of cp.async groups.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "LoopSlice.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKPIPELINEDOTPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// An operand's load (a pointer load, or a descriptor load TMA copies) and
/// what recomputes its pointer and mask, or its offsets, for another
/// iteration.
struct OperandLoad {
  Operation *load;
  IterationSlice slice;
  DescriptorLoadOp tma() const { return dyn_cast<DescriptorLoadOp>(load); }
};

/// The load behind a dot operand (through its conversion to the operand
/// layout) when cp.async can replace it: zero `other`, and a pointer and
/// mask recomputable for another iteration.
std::optional<OperandLoad> operandLoad(scf::ForOp loop, Value operand) {
  if (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
    operand = convert.getSrc();
  if (auto tma = operand.getDefiningOp<DescriptorLoadOp>()) {
    if (tma->getBlock() != loop.getBody() || !tma->hasOneUse() || !isa<BlockArgument>(tma.getDesc()))
      return std::nullopt;
    std::optional<IterationSlice> slice = iterationSlice(loop, tma.getOffsets(), /*allowAdvances=*/false);
    if (!slice)
      return std::nullopt;
    return OperandLoad{tma, std::move(*slice)};
  }
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || load->getBlock() != loop.getBody() || !load->hasOneUse() || !isZeroOrAbsent(load.getOther()))
    return std::nullopt;
  SmallVector<Value> roots{load.getPtr()};
  if (load.getMask())
    roots.push_back(load.getMask());
  std::optional<IterationSlice> slice = iterationSlice(loop, roots, /*allowAdvances=*/true);
  if (!slice)
    return std::nullopt;
  return OperandLoad{load, std::move(*slice)};
}

/// The shared ring for `load`'s tile, or nothing when cp.async cannot copy
/// it (accesses under 4 bytes) or the tile does not fit the swizzle.
SharedBufferType ringFor(const OperandLoad &op, int64_t slots) {
  auto type = cast<RankedTensorType>(op.load->getResult(0).getType());
  if (type.getRank() != 2)
    return {};
  if (DescriptorLoadOp tma = op.tma())
    return tmaRing(tma.getDesc().getType(), slots);
  auto load = cast<LoadOp>(op.load);
  unsigned contig = accessDim(load.getPtr().getType(), load.getVecDim());
  auto ring = SharedBufferType::getChecked([] { return InFlightDiagnostic(); }, type.getContext(),
                                           {slots, type.getDimSize(0), type.getDimSize(1)}, type.getElementType(),
                                           contig);
  if (!ring || load.getVec() * ring.getElementBytes() < 4)
    return {};
  return ring;
}

struct PipelineDot : impl::BlkPipelineDotPassBase<PipelineDot> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots) {
      APInt step;
      if (scf::ForOp loop = pipelinableLoop(dot, &step))
        pipeline(loop, step, dot);
    }
  }

  void pipeline(scf::ForOp loop, const APInt &stepValue, DotOp dot) {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
    if (!mma)
      return;
    // Rings hold 16-bit operands (ldmatrix and wgmma read them); tf32 and
    // i8 fragments keep the register path.
    if (dot.getA().getType().getElementTypeBitWidth() != 16)
      return;
    std::optional<OperandLoad> opA = operandLoad(loop, dot.getA()), opB = operandLoad(loop, dot.getB());
    if (!opA || !opB)
      return;
    bool wgmma = mma.getVersion() == 3;
    int64_t ahead = std::max<int64_t>(numStages, 2) - 1, slots = ahead + (wgmma ? 2 : 1);
    SharedBufferType ringA = ringFor(*opA, slots), ringB = ringFor(*opB, slots);
    if (!ringA || !ringB)
      return;
    // An asynchronous wgmma overlaps the next iteration only when the loop
    // just carries its result on.
    BlockArgument accArg = dyn_cast<BlockArgument>(dot.getAcc());
    bool carried = accArg && accArg.getOwner() == loop.getBody() && dot->hasOneUse() &&
                   isa<scf::YieldOp>(*dot->getUsers().begin()) &&
                   loop.getYieldedValues()[accArg.getArgNumber() - 1] == dot.getResult();

    // The advances' offsets are scaled in front of the loop.
    for (OperandLoad *op : {&*opA, &*opB})
      for (const Advance &adv : op->slice.advances)
        hoistInvariant(loop, adv.step);

    Location loc = dot.getLoc();
    OpBuilder b(loop);
    Type ivType = loop.getInductionVar().getType(), i32 = b.getI32Type();
    auto ivConst = [&](OpBuilder &ob, const APInt &v) -> Value {
      return arith::ConstantOp::create(ob, loc, IntegerAttr::get(ivType, v));
    };
    auto i32Const = [&](OpBuilder &ob, int64_t v) -> Value {
      return arith::ConstantOp::create(ob, loc, IntegerAttr::get(i32, v));
    };
    Value bufA = LocalAllocOp::create(b, loc, ringA), bufB = LocalAllocOp::create(b, loc, ringB);
    // One mbarrier per slot for each operand TMA copies.
    auto barriersFor = [&](const OperandLoad &op) -> Value {
      return op.tma() ? MBarrierAllocOp::create(b, loc, BarriersType::get(b.getContext(), slots)).getResult() : Value();
    };
    Value barsA = barriersFor(*opA), barsB = barriersFor(*opB);
    bool anyCpAsync = !opA->tma() || !opB->tma();
    // Each advance's offset for k iterations, computed once.
    llvm::DenseMap<std::pair<Value, int64_t>, Value> scaled;
    auto offsetTimes = [&](Value step, int64_t k) -> Value {
      Value &v = scaled[{step, k}];
      if (!v) {
        OpBuilder ob(loop);
        auto t = cast<RankedTensorType>(step.getType());
        Value times = arith::ConstantOp::create(
            ob, loc, DenseElementsAttr::get(t, APInt(t.getElementTypeBitWidth(), uint64_t(k))));
        v = arith::MulIOp::create(ob, loc, step, times);
      }
      return v;
    };

    // Copies of the tiles of iteration `iv`, k iterations after the one
    // whose iter args `args` hold, masked by iterationMask.
    auto copy = [&](OpBuilder &ob, const OperandLoad &op, Value buf, Value bars, Value slot, Value iv, int64_t k,
                    ValueRange args, Value from) {
      IRMapping map = cloneIteration(ob, loop, op.slice, iv, [&](const Advance &adv) -> Value {
        Value at = args[adv.arg.getArgNumber() - 1];
        return k ? AddPtrOp::create(ob, loc, at.getType(), at, offsetTimes(adv.step, k)).getResult() : at;
      });
      if (DescriptorLoadOp tma = op.tma()) {
        SmallVector<Value> offsets;
        for (Value o : tma.getOffsets())
          offsets.push_back(map.lookupOrDefault(o));
        Value pred = iterationMask(ob, loc, loop, iv, from, ob.getI1Type(), Value());
        AsyncTMACopyOp::create(ob, loc, tma.getDesc(), offsets, buf, slot, bars, pred);
        return;
      }
      auto load = cast<LoadOp>(op.load);
      Value mask = iterationMask(ob, loc, loop, iv, from, load.getPtr().getType(),
                                 load.getMask() ? map.lookupOrDefault(load.getMask()) : Value());
      AsyncCopyOp::create(ob, loc, map.lookupOrDefault(load.getPtr()), mask, buf, slot, load.getVec());
    };

    // The prologue.
    ValueRange inits = loop.getInitArgs();
    for (int64_t k = 0; k < ahead; ++k) {
      Value iv = k ? arith::AddIOp::create(b, loc, loop.getLowerBound(), ivConst(b, stepValue * k)).getResult()
                   : loop.getLowerBound();
      Value slot = i32Const(b, k);
      copy(b, *opA, bufA, barsA, slot, iv, k, inits, k ? loop.getLowerBound() : Value());
      copy(b, *opB, bufB, barsB, slot, iv, k, inits, k ? loop.getLowerBound() : Value());
      if (anyCpAsync)
        AsyncCommitGroupOp::create(b, loc);
    }

    // The body: wait for this iteration's tiles at the top.
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    Value iv = loop.getInductionVar();
    Value n = arith::DivSIOp::create(body, loc, arith::SubIOp::create(body, loc, iv, loop.getLowerBound()),
                                     ivConst(body, stepValue));
    if (isa<IndexType>(ivType))
      n = arith::IndexCastOp::create(body, loc, i32, n);
    else if (ivType != i32)
      n = arith::TruncIOp::create(body, loc, i32, n);
    Value slot = arith::RemUIOp::create(body, loc, n, i32Const(body, slots));
    Value nextSlot =
        arith::RemUIOp::create(body, loc, arith::AddIOp::create(body, loc, n, i32Const(body, ahead)), i32Const(body, slots));
    if (anyCpAsync) {
      AsyncWaitOp::create(body, loc, ahead - 1);
      if (wgmma)
        FenceAsyncSharedOp::create(body, loc); // the copies wrote through the generic proxy
    }
    if (barsA || barsB) {
      Value phase = arith::AndIOp::create(body, loc, arith::DivUIOp::create(body, loc, n, i32Const(body, slots)),
                                          i32Const(body, 1));
      for (Value bars : {barsA, barsB})
        if (bars)
          MBarrierWaitOp::create(body, loc, bars, slot, phase);
    }
    // cp.async data of other threads, and slots no warpgroup still reads (TMA overwrites them next).
    BarrierOp::create(body, loc);

    body.setInsertionPoint(dot);
    Value result;
    if (wgmma) {
      Value issued = WarpGroupDotOp::create(body, loc, dot.getType(), bufA, slot, bufB, slot, dot.getAcc());
      result = WarpGroupDotWaitOp::create(body, loc, issued, carried ? 1 : 0);
    } else {
      Value fragA = LocalLoadOp::create(body, loc, dot.getA().getType(), bufA, slot);
      Value fragB = LocalLoadOp::create(body, loc, dot.getB().getType(), bufB, slot);
      result = DotOp::create(body, loc, dot.getType(), fragA, fragB, dot.getAcc(), dot.getMmaAttr(),
                             dot.getInputPrecisionAttr());
    }
    // The tiles `ahead` iterations on, after the dot so that they overlap it.
    Value future = arith::AddIOp::create(body, loc, iv, ivConst(body, stepValue * ahead));
    ValueRange args = loop.getRegionIterArgs();
    copy(body, *opA, bufA, barsA, nextSlot, future, ahead, args, iv);
    copy(body, *opB, bufB, barsB, nextSlot, future, ahead, args, iv);
    if (anyCpAsync)
      AsyncCommitGroupOp::create(body, loc);

    dot.getResult().replaceAllUsesWith(result);
    Operation *convertA = dot.getA().getDefiningOp<ConvertLayoutOp>();
    Operation *convertB = dot.getB().getDefiningOp<ConvertLayoutOp>();
    dot.erase();
    for (Operation *op : {convertA, convertB})
      if (op && op->use_empty())
        op->erase();
    opA->load->erase();
    opB->load->erase();

    // After the loop: the last wgmma done, stray copies (masked, past the
    // bound) landed before the memory is reused.
    OpBuilder after(loop->getContext());
    after.setInsertionPointAfter(loop);
    if (wgmma && carried) {
      Value final = loop.getResult(accArg.getArgNumber() - 1);
      auto done = WarpGroupDotWaitOp::create(after, loc, final, 0);
      final.replaceAllUsesExcept(done.getResult(), done);
    }
    if (anyCpAsync)
      AsyncWaitOp::create(after, loc, 0);
    BarrierOp::create(after, loc);
    // Every TMA copy issued was waited for in its iteration; the barriers'
    // memory may hold other data once retired.
    for (Value bars : {barsA, barsB})
      if (bars)
        MBarrierInvalOp::create(after, loc, bars);
  }
};

} // namespace
} // namespace blk
