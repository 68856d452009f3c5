// Warp-specialized kernels (blk.producer_warps): the producer warpgroup's
// threads come after the consumers', the barriers of the consumers' code
// are a named barrier of their threads alone (the producer joins none), and
// the producer's first thread issues its branch's TMA copies (a lane of warp
// 0 those of a loop the consumers pipeline themselves).
#include "Patterns.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace blk {

namespace {
/// The kernel's consumer warps (blk.num_warps) and producer warps (0: none)
/// around `op`, or around where `b` inserts.
std::pair<int64_t, int64_t> warpsOf(Operation *op) {
  int64_t consumers = 4, producers = 0;
  if (auto module = op->getParentOfType<ModuleOp>())
    if (auto attr = module->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      consumers = attr.getInt();
  auto func = isa<FunctionOpInterface>(op) ? op : op->getParentOfType<FunctionOpInterface>();
  if (func)
    if (auto attr = func->getAttrOfType<IntegerAttr>(kProducerWarpsAttr))
      producers = attr.getInt();
  return {consumers, producers};
}
Operation *insertionParent(OpBuilder &b) { return b.getInsertionBlock()->getParentOp(); }

/// The first thread of the warps that issue TMA copies where `b` inserts:
/// the producer warpgroup's in its branch, thread 0 elsewhere (a loop the
/// consumers pipeline themselves).
int64_t issuingThread(OpBuilder &b) {
  return inProducerBranch(b) ? warpsOf(insertionParent(b)).first * 32 : 0;
}
} // namespace

/// The named barrier of a warp-specialized kernel's consumer warps (0 is
/// every thread's, 1 .. N the warpgroups' turns).
static constexpr int32_t kConsumerBarrier = 15;

void emitBarrier(OpBuilder &b, Location loc) {
  Operation *at = insertionParent(b);
  auto [consumers, producers] = warpsOf(at);
  // Before the split (directly in the kernel's body) every thread is there.
  if (!producers || isa<FunctionOpInterface>(at)) {
    NVVM::Barrier0Op::create(b, loc);
    return;
  }
  NVVM::BarrierOp::create(b, loc, Type(), i32Const(b, loc, kConsumerBarrier), i32Const(b, loc, consumers * 32),
                          NVVM::BarrierReductionAttr(), Value());
}

Value emitIsIssuingThread(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid, i32Const(b, loc, issuingThread(b)));
}

// The then branch of the `scf.if` marked blk.producer_branch.
bool inProducerBranch(OpBuilder &b) {
  for (Region *r = b.getInsertionBlock()->getParent(); r; r = r->getParentOp()->getParentRegion()) {
    Operation *owner = r->getParentOp();
    if (auto roles = dyn_cast<scf::IfOp>(owner); roles && roles->hasAttr(kProducerBranchAttr))
      return r == &roles.getThenRegion();
  }
  return false;
}

Value emitIsIssuingWarp(OpBuilder &b, Location loc) {
  Value warp = emitWarpId(b, loc);
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, warp, i32Const(b, loc, issuingThread(b) / 32));
}

namespace {
struct ProducerWarpToLLVM : OpConversionPattern<ProducerWarpOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ProducerWarpOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::uge, tid,
                                              i32Const(rewriter, loc, warpsOf(op).first * 32));
    return success();
  }
};

struct SetMaxRegistersToLLVM : OpConversionPattern<SetMaxRegistersOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SetMaxRegistersOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::SetMaxRegisterOp>(
        op, int32_t(op.getRegisters()),
        op.getIncrease() ? NVVM::SetMaxRegisterAction::increase : NVVM::SetMaxRegisterAction::decrease);
    return success();
  }
};
} // namespace

void populateWarpRolePatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<ProducerWarpToLLVM, SetMaxRegistersToLLVM>(tc, patterns.getContext());
}

} // namespace blk
