// TMA copies and their mbarriers: one thread initializes the barriers, arms
// a slot's barrier with the bytes to expect and issues cp.async.bulk.tensor
// (one box per swizzle-wide chunk of the ring, SharedRing.h): outside a
// producer warpgroup from one lane of the issuing warp (elect.sync: with a
// lane ptxas cannot prove single, it issues each copy in a loop over lanes),
// in one from its first thread; every thread waits on the
// barrier's phase (the issuing warp is warp 0, or the producer warpgroup's
// first: WarpRolesToLLVM.cpp). A slot's release: each
// warp's first lane arrives on the slot's empty barrier, and the issuing
// warp waits for it. TMA stores: the issuing thread copies a slot out as
// one bulk group and waits for its reads before the slot is written again.
// Warpgroups' turns at issuing wgmma (ping-pong) go on named barriers. The tensor map is a kernel parameter passed
// by value (grid constant) whose generic address the copy reads.
#include "SharedRing.h"

using namespace mlir;

namespace blk {
namespace {

Value threadIsFirst(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, i32Const(b, loc, 0));
}

/// The 32-bit shared-memory address of mbarrier `index` (an i32 value or null for 0) of `bars`.
Value barrierAddress(OpBuilder &b, Location loc, Value bars, Value index) {
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), bars);
  if (!index)
    return addr;
  return LLVM::AddOp::create(b, loc, addr, LLVM::MulOp::create(b, loc, index, i32Const(b, loc, 8)));
}

/// PTX `body` on operand $0 = `pred` (i1) and the rest, run only where it
/// holds (`p`), and with `electLane` in only one lane of each warp where it
/// holds, the one elect.sync picks.
void predicated(OpBuilder &b, Location loc, Value pred, ValueRange operands, const std::string &body,
                const std::string &constraints, bool electLane = false) {
  SmallVector<Value> all{LLVM::ZExtOp::create(b, loc, b.getI32Type(), pred)};
  all.append(operands.begin(), operands.end());
  std::string head = electLane ? "{ .reg .pred p, e; setp.ne.b32 p, $0, 0; elect.sync _|e, 0xffffffff; and.pred p, p, e; "
                               : "{ .reg .pred p; setp.ne.b32 p, $0, 0; ";
  inlineAsm(b, loc, Type(), all, head + body + " }", "r" + (constraints.empty() ? "" : "," + constraints));
}

/// `instruction` (on operand $1, the barrier's address) for each of `count`
/// mbarriers at `bars`, by thread 0 alone.
void eachBarrierByFirstThread(OpBuilder &b, Location loc, Value bars, int64_t count, const std::string &instruction) {
  Value first = threadIsFirst(b, loc);
  for (int64_t i = 0; i < count; ++i)
    predicated(b, loc, first, barrierAddress(b, loc, bars, i32Const(b, loc, i)), "@p " + instruction, "r");
}

/// The TMA boxes of one slot of a ring (its swizzle-wide chunks,
/// SharedRing.h), as operands of an inline asm: per box, appended to
/// `operands` and `constraints`, the chunk's shared-memory address and its
/// coordinates innermost first (the column, the row, then any leading batch
/// and head dimensions); returned, each box's `$N` of the address and
/// `$N, ...` of the coordinates. Operand numbers count from `operands`'
/// size + 1 (the asm's $0 is its predicate).
struct BoxOperands {
  std::string address, coords;
};
FailureOr<SmallVector<BoxOperands>> appendBoxes(OpBuilder &b, Operation *op, TensorDescType desc,
                                                SharedBufferType bufferType, Value buffer, Value slotIndex,
                                                ValueRange offsets, SmallVectorImpl<Value> &operands,
                                                std::string &constraints) {
  Location loc = op->getLoc();
  SharedRing ring(bufferType);
  TmaBox box = tmaBox(desc);
  if (box.swizzleBytes != ring.width || box.copies * ring.chunkBytes() != ring.slotBytes)
    return op->emitOpError("the descriptor's TMA boxes do not tile the buffer's slot");
  Value slot = LLVM::AddOp::create(b, loc, LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), buffer),
                                   LLVM::MulOp::create(b, loc, slotIndex, i32Const(b, loc, ring.slotBytes)));
  size_t rank = offsets.size();
  SmallVector<BoxOperands> boxes;
  for (int64_t c = 0; c < box.copies; ++c) {
    unsigned at = unsigned(operands.size()) + 1;
    operands.push_back(LLVM::AddOp::create(b, loc, slot, i32Const(b, loc, c * ring.chunkBytes())));
    operands.push_back(LLVM::AddOp::create(b, loc, offsets[rank - 1], i32Const(b, loc, c * box.shape.back())));
    for (size_t d = rank - 1; d-- > 0;)
      operands.push_back(offsets[d]);
    BoxOperands out{"$" + std::to_string(at), ""};
    for (size_t d = 0; d < rank; ++d)
      out.coords += (d ? ", $" : "$") + std::to_string(at + 1 + d);
    boxes.push_back(std::move(out));
    for (size_t d = 0; d <= rank; ++d) // the address, then each coordinate
      constraints += ",r";
  }
  return boxes;
}

struct MBarrierAllocToLLVM : OpConversionPattern<MBarrierAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierAllocOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> bars = allocatedBuffer(rewriter, op);
    if (failed(bars))
      return failure();
    Location loc = op.getLoc();
    int64_t arrivals = op.getArrivals().value_or(1);
    eachBarrierByFirstThread(rewriter, loc, *bars, op.getType().getCount(),
                             "mbarrier.init.shared::cta.b64 [$1], " + std::to_string(arrivals) + ";");
    // The initialized barriers, visible to the copy engine and to every thread.
    inlineAsm(rewriter, loc, Type(), ValueRange{}, "fence.mbarrier_init.release.cluster;", "");
    inlineAsm(rewriter, loc, Type(), ValueRange{}, "fence.proxy.async.shared::cta;", "");
    emitBarrier(rewriter, loc);
    rewriter.replaceOp(op, *bars);
    return success();
  }
};

struct MBarrierInvalToLLVM : OpConversionPattern<MBarrierInvalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierInvalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    eachBarrierByFirstThread(rewriter, loc, adaptor.getBarriers(), op.getBarriers().getType().getCount(),
                             "mbarrier.inval.shared::cta.b64 [$1];");
    emitBarrier(rewriter, loc); // before the memory holds anything else
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitToLLVM : OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value addr = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    // Labels are local to the braces, so each wait may use the same one.
    if (!op.getIssuer()) {
      inlineAsm(rewriter, loc, Type(), ValueRange{addr, adaptor.getPhase()},
                "{ .reg .pred done; blk_wait: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1; "
                "@!done bra blk_wait; }",
                "r,r");
    } else {
      // The warp whose first thread issues the copies alone; the test is
      // uniform across each warp.
      Value issuing = emitIsIssuingWarp(rewriter, loc);
      inlineAsm(rewriter, loc, Type(),
                ValueRange{LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), issuing), addr, adaptor.getPhase()},
                "{ .reg .pred p, done; setp.ne.b32 p, $0, 0; @!p bra blk_skip; "
                "blk_wait: mbarrier.try_wait.parity.shared::cta.b64 done, [$1], $2; @!done bra blk_wait; blk_skip: }",
                "r,r,r");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveToLLVM : OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierArriveOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The first lane of each warp, once the warp's reads are done (its
    // wgmma waits are warp-wide), where the predicate holds.
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value lane = LLVM::AndOp::create(rewriter, loc, tid, i32Const(rewriter, loc, 31));
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane, i32Const(rewriter, loc, 0));
    Value arrive = LLVM::AndOp::create(rewriter, loc, adaptor.getPred(), first);
    predicated(rewriter, loc, arrive, barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex()),
               "@p mbarrier.arrive.shared::cta.b64 _, [$1];", "r");
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncTMACopyToLLVM : OpConversionPattern<AsyncTMACopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncTMACopyOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A producer warp has nothing else to do while one of its threads issues;
    // a consumer's issuing warp would wait through ptxas's loop over lanes,
    // so one lane is elected there (measured on an H200: the attention
    // backward 3% faster; electing in a producer warp too was mixed, the
    // non-causal attention forward 2.5% faster, the causal one 2% and the
    // persistent matmul 1.5% slower).
    // A copy after the stores comes from the thread whose bulk groups it
    // waits for.
    bool afterStores = op.getAfterStores();
    bool oneThread = afterStores || inProducerBranch(rewriter);
    Value issue = LLVM::AndOp::create(rewriter, loc, adaptor.getPred(),
                                      oneThread ? emitIsIssuingThread(rewriter, loc) : emitIsIssuingWarp(rewriter, loc));
    Value bar = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getSlot());
    Value map = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), adaptor.getDesc());
    // $1 barrier, $2 tensor map, then the boxes.
    SmallVector<Value> operands{bar, map};
    std::string constraints = "r,l";
    FailureOr<SmallVector<BoxOperands>> boxes =
        appendBoxes(rewriter, op, op.getDesc().getType(), op.getBuffer().getType(), adaptor.getBuffer(),
                    adaptor.getSlot(), adaptor.getOffsets(), operands, constraints);
    if (failed(boxes))
      return failure();
    std::string rank = std::to_string(adaptor.getOffsets().size());
    std::string body = afterStores ? "@p cp.async.bulk.wait_group.read 0; " : "";
    body += "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
                       std::to_string(SharedRing(op.getBuffer().getType()).slotBytes) + ";";
    for (const BoxOperands &box : *boxes)
      body += " @p cp.async.bulk.tensor." + rank + "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [" +
              box.address + "], [$2, {" + box.coords + "}], [$1];";
    predicated(rewriter, loc, issue, operands, body, constraints, /*electLane=*/!oneThread);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A slot copied out by the issuing thread: one cp.async.bulk.tensor per
/// box (swizzle-wide chunk of the slot), committed as one bulk group. TMA
/// writes only the part of each box inside the tensor.
struct AsyncTMAStoreToLLVM : OpConversionPattern<AsyncTMAStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncTMAStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // $1 tensor map, then the boxes.
    SmallVector<Value> operands{LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), adaptor.getDesc())};
    std::string constraints = "l";
    FailureOr<SmallVector<BoxOperands>> boxes =
        appendBoxes(rewriter, op, op.getDesc().getType(), op.getBuffer().getType(), adaptor.getBuffer(),
                    adaptor.getSlot(), adaptor.getOffsets(), operands, constraints);
    if (failed(boxes))
      return failure();
    std::string rank = std::to_string(adaptor.getOffsets().size()), body;
    for (const BoxOperands &box : *boxes)
      body += "@p cp.async.bulk.tensor." + rank + "d.global.shared::cta.bulk_group [$1, {" + box.coords + "}], [" +
              box.address + "]; ";
    body += "@p cp.async.bulk.commit_group;";
    predicated(rewriter, loc, emitIsIssuingThread(rewriter, loc), operands, body, constraints);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The issuing thread waits until its bulk stores have read shared memory.
struct TMAStoreWaitToLLVM : OpConversionPattern<TMAStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TMAStoreWaitOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    predicated(rewriter, op.getLoc(), emitIsIssuingThread(rewriter, op.getLoc()), {},
               "@p cp.async.bulk.wait_group.read 0;", "");
    rewriter.eraseOp(op);
    return success();
  }
};

/// Turns of the warpgroups on named barriers 1..N (0 is the barrier of all
/// threads): each barrier instance pairs one warpgroup's bar.sync with the
/// previous warpgroup's bar.arrive, 256 threads.
struct WarpGroupTurnToLLVM : OpConversionPattern<WarpGroupTurnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpGroupTurnOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t groups = *warpGroups(op); // the verifier's guarantee
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value group = LLVM::UDivOp::create(rewriter, loc, tid, i32Const(rewriter, loc, 128));
    auto groupIs = [&](int64_t g) {
      return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, group, i32Const(rewriter, loc, g));
    };
    StringRef step = op.getStep();
    if (step == "open") {
      predicated(rewriter, loc, groupIs(groups - 1), {}, "@p bar.arrive 1, 256;", "");
    } else if (step == "close") {
      predicated(rewriter, loc, groupIs(0), {}, "@p bar.sync 1, 256;", "");
    } else {
      // take: barrier 1 + w; pass: barrier 1 + (w + 1) % N.
      Value id = group;
      if (step == "pass")
        id = LLVM::URemOp::create(rewriter, loc, LLVM::AddOp::create(rewriter, loc, group, i32Const(rewriter, loc, 1)),
                                  i32Const(rewriter, loc, groups));
      id = LLVM::AddOp::create(rewriter, loc, id, i32Const(rewriter, loc, 1));
      inlineAsm(rewriter, loc, Type(), {id}, step == "take" ? "bar.sync $0, 256;" : "bar.arrive $0, 256;", "r");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateTMAPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<MBarrierAllocToLLVM, MBarrierInvalToLLVM, MBarrierWaitToLLVM, MBarrierArriveToLLVM, AsyncTMACopyToLLVM,
               AsyncTMAStoreToLLVM, TMAStoreWaitToLLVM, WarpGroupTurnToLLVM>(tc, patterns.getContext());
}

} // namespace blk
