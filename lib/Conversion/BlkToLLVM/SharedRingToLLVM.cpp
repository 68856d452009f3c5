// The ring ops of blk-pipeline-dot: a ring is an address in the kernel's
// shared memory; async_copy is cp.async with a zero fill for masked-off
// elements, local_load is ldmatrix (mma.sync operands) or reads each
// thread's elements, local_store writes them (16-byte vectors where they run
// along the lines), and the waits
// and fences are their PTX instructions.
#include "SharedRing.h"

#include "blk/Analysis/SharedSwizzle.h"

using namespace mlir;

namespace blk {

Value SharedRing::byteOffset(OpBuilder &b, Location loc, Value slot, ArrayRef<Value> coords) const {
  Value line = coords[1 - contig], pos = coords[contig];
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  Value chunk = LLVM::LShrOp::create(b, loc, pos, c(llvm::Log2_64(lineElems)));
  Value within = LLVM::MulOp::create(b, loc, LLVM::AndOp::create(b, loc, pos, c(lineElems - 1)), c(elemBytes));
  Value lineStart = LLVM::MulOp::create(b, loc, line, c(width));
  // The 16-byte unit XOR-ed with bits 7.. of the line's offset.
  Value phase = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, lineStart, c(7)), c(width / 16 - 1));
  Value unit = LLVM::XOrOp::create(b, loc, LLVM::LShrOp::create(b, loc, within, c(4)), phase);
  Value off = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, chunk, c(chunkBytes())), lineStart);
  if (slot)
    off = LLVM::AddOp::create(b, loc, off, LLVM::MulOp::create(b, loc, slot, c(slotBytes)));
  off = LLVM::AddOp::create(b, loc, off, LLVM::ShlOp::create(b, loc, unit, c(4)));
  return LLVM::AddOp::create(b, loc, off, LLVM::AndOp::create(b, loc, within, c(15)));
}

namespace {

Value byteAt(OpBuilder &b, Location loc, Value base, Value offset) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base, ValueRange{offset});
}

struct LocalAllocToLLVM : OpConversionPattern<LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalAllocOp op, OneToNOpAdaptor, ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> ring = allocatedBuffer(rewriter, op);
    if (failed(ring))
      return failure();
    rewriter.replaceOp(op, *ring);
    return success();
  }
};

struct AsyncCopyToLLVM : OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedRing ring(op.getBuffer().getType());
    LinearLayout layout = LinearLayout::get(op.getPtr().getType());
    ThreadCoords thread = emitThreadCoords(rewriter, loc, layout);
    Value base = adaptor.getBuffer()[0], slot = adaptor.getSlot()[0];
    ValueRange ptrs = adaptor.getPtr(), masks = adaptor.getMask();
    int64_t bytes = int64_t(op.getVec()) * ring.elemBytes;
    // .cg (L2 only) for whole 16-byte lines; smaller copies must use .ca.
    std::string text = std::string("cp.async.") + (bytes == 16 ? "cg" : "ca") + ".shared.global [$0], [$1], " +
                       std::to_string(bytes) + ", $2;";
    // Threads holding copies of a tile's elements leave their copy to the
    // owner (two writes of one address race, whatever they write).
    Value owner = thread.owner ? LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), thread.owner).getResult()
                               : Value();
    if (owner)
      text = "{\n.reg .pred p;\nsetp.ne.b32 p, $3, 0;\n@p " + text + "\n}";
    Value full = i32Const(rewriter, loc, bytes), none = i32Const(rewriter, loc, 0);
    for (int64_t r = 0; r < layout.numRegisters(); r += op.getVec()) {
      Value dst = byteAt(rewriter, loc, base, ring.byteOffset(rewriter, loc, slot, thread.element(rewriter, loc, layout, r)));
      Value dstAddr = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(), dst);
      Value size = masks.empty() ? full : LLVM::SelectOp::create(rewriter, loc, masks[r], full, none).getResult();
      if (owner)
        inlineAsm(rewriter, loc, Type(), ValueRange{dstAddr, ptrs[r], size, owner}, text, "r,l,r,r");
      else
        inlineAsm(rewriter, loc, Type(), ValueRange{dstAddr, ptrs[r], size}, text, "r,l,r");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitGroupToLLVM : OpConversionPattern<AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitToLLVM : OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    rewriter.eraseOp(op);
    return success();
  }
};

struct FenceAsyncSharedToLLVM : OpConversionPattern<FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor, ConversionPatternRewriter &rewriter) const override {
    inlineAsm(rewriter, op.getLoc(), Type(), ValueRange{}, "fence.proxy.async.shared::cta;", "");
    rewriter.eraseOp(op);
    return success();
  }
};

/// A transposed view is the same memory: its readers address it through the
/// view's type.
struct LocalTransToLLVM : OpConversionPattern<LocalTransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalTransOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {adaptor.getBuffer()});
    return success();
  }
};

/// A slot read as mma.sync operand fragments (ldmatrix), or, in any other
/// layout, each thread reading the elements it holds.
struct LocalLoadToLLVM : OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Location loc = op.getLoc();
    SharedRing ring(op.getBuffer().getType());
    Value base = adaptor.getBuffer()[0], slot = adaptor.getSlot()[0];
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(type.getEncoding());
    if (!operand) {
      LinearLayout layout = LinearLayout::get(type);
      ThreadCoords thread = emitThreadCoords(rewriter, loc, layout);
      SmallVector<unsigned> bits = lineVectorBits(layout, ring.contig, ring.elemBytes);
      SmallVector<Value> values(layout.numRegisters());
      // The scalar type a thread holds (fp8 travels as bytes).
      Type elem = getTypeConverter()->convertType(type.getElementType());
      for (ArrayRef<int64_t> regs : lineVectors(layout.numRegisters(), bits)) {
        Value at = byteAt(rewriter, loc, base,
                          ring.byteOffset(rewriter, loc, slot, thread.element(rewriter, loc, layout, regs[0])));
        for (auto [r, v] : llvm::zip(regs, loadSharedVector(rewriter, loc, elem, int64_t(regs.size()), at)))
          values[r] = v;
      }
      rewriter.replaceOpWithMultiple(op, {values});
      return success();
    }
    if (operand.getKWidth() != 2 || type.getElementTypeBitWidth() != 16)
      return op.emitOpError("reads mma.sync operands only as 16-bit fragments (kWidth 2)");
    unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0;
    FailureOr<SmallVector<Value>> out =
        emitLdmatrixFragments(rewriter, loc, op, type, /*trans=*/ring.contig != kDim, [&](OpBuilder &b, ArrayRef<Value> coord) {
          return byteAt(b, loc, base, ring.byteOffset(b, loc, slot, coord));
        });
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*out});
    return success();
  }
};

struct LocalStoreToLLVM : OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedRing ring(op.getBuffer().getType());
    LinearLayout layout = LinearLayout::get(op.getValue().getType());
    // Threads holding copies of an element leave its write to its owner.
    ThreadCoords thread = emitThreadCoords(rewriter, loc, layout);
    Value base = adaptor.getBuffer()[0], slot = adaptor.getSlot()[0];
    ValueRange values = adaptor.getValue();
    for (ArrayRef<int64_t> regs : lineVectors(layout.numRegisters(), lineVectorBits(layout, ring.contig, ring.elemBytes))) {
      Value at = byteAt(rewriter, loc, base,
                        ring.byteOffset(rewriter, loc, slot, thread.element(rewriter, loc, layout, regs[0])));
      SmallVector<Value> vector;
      for (int64_t r : regs)
        vector.push_back(values[r]);
      storeSharedVectorIf(rewriter, loc, vector, at, thread.owner);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateSharedRingPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<LocalAllocToLLVM, AsyncCopyToLLVM, AsyncCommitGroupToLLVM, AsyncWaitToLLVM, FenceAsyncSharedToLLVM,
               LocalLoadToLLVM, LocalStoreToLLVM, LocalTransToLLVM>(tc, patterns.getContext());
}

} // namespace blk
