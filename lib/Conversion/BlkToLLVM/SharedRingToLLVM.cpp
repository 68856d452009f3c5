// The ring ops of blk-pipeline-dot: a ring is an address in the kernel's
// shared memory; async_copy is cp.async with a zero fill for masked-off
// elements, local_load is ldmatrix (mma.sync operands) or reads each
// thread's elements, local_store writes them (stmatrix for a wgmma
// accumulator's 16-bit fragments, else 16-byte vectors where they run along
// the lines), and the waits and fences are their PTX instructions.
#include "MatrixLanes.h"
#include "SharedRing.h"

#include "blk/Analysis/SharedSwizzle.h"

#include <functional>
#include <memory>

using namespace mlir;

namespace blk {

int64_t SharedRing::swizzledIndex(int64_t line, int64_t pos) const {
  int64_t index = line * length + pos, swizzled = index;
  for (size_t i = 0; i + 1 < xors.size(); i += 2)
    swizzled ^= ((index >> xors[i + 1]) & 1) << xors[i];
  return swizzled;
}

Value SharedRing::swizzledIndex(OpBuilder &b, Location loc, ArrayRef<Value> coords) const {
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  Value index = LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, coords[1 - contig], c(length)), coords[contig]);
  Value swizzled = index;
  for (size_t i = 0; i + 1 < xors.size(); i += 2) {
    Value bit = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, index, c(xors[i + 1])), c(1));
    swizzled = LLVM::XOrOp::create(b, loc, swizzled, LLVM::ShlOp::create(b, loc, bit, c(xors[i])));
  }
  return swizzled;
}

Value SharedRing::byteOffset(OpBuilder &b, Location loc, Value slot, ArrayRef<Value> coords) const {
  Value line = coords[1 - contig], pos = coords[contig];
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  if (threadArranged) {
    Value off = LLVM::MulOp::create(b, loc, swizzledIndex(b, loc, coords), c(elemBytes));
    return slot ? LLVM::AddOp::create(b, loc, off, LLVM::MulOp::create(b, loc, slot, c(slotBytes))).getResult() : off;
  }
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

/// Addresses of a thread's registers in a slot of a ring arranged for
/// threads. Coordinates are XORs of the layout's bases and the swizzled
/// index is linear over their bits, so a register's index is the thread's
/// own (computed once) XOR a constant: XOR-ed into the bits the thread's
/// part may hold, added elsewhere, where it folds into the access's
/// immediate offset (the tensor-core arrangement's formula, evaluated per
/// register, would cost a dozen instructions an access).
class ThreadRingAddresses {
public:
  ThreadRingAddresses(OpBuilder &b, Location loc, const SharedRing &ring, const LinearLayout &layout,
                      const ThreadCoords &thread, Value base, Value slot)
      : ring(ring), layout(layout), slotBase(base), threadIndex(ring.swizzledIndex(b, loc, thread.coords)) {
    if (slot)
      slotBase = byteAt(b, loc, base, LLVM::MulOp::create(b, loc, slot, i32Const(b, loc, ring.slotBytes)));
    for (const auto *bases : {&layout.lanes, &layout.warps})
      for (const LinearLayout::Coord &basis : *bases)
        threadBits |= ring.swizzledIndex(basis[1 - ring.contig], basis[ring.contig]);
  }
  /// The address of register `reg`'s element.
  Value at(OpBuilder &b, Location loc, int64_t reg) const {
    LinearLayout::Coord coord = layout.registerCoord(reg);
    int64_t constant = ring.swizzledIndex(coord[1 - ring.contig], coord[ring.contig]);
    int64_t flipped = constant & threadBits, added = constant & ~threadBits;
    Value index = threadIndex;
    if (flipped)
      index = LLVM::XOrOp::create(b, loc, index, i32Const(b, loc, flipped));
    Value at = byteAt(b, loc, slotBase, LLVM::MulOp::create(b, loc, index, i32Const(b, loc, ring.elemBytes)));
    return added ? byteAt(b, loc, at, i32Const(b, loc, added * ring.elemBytes)) : at;
  }

private:
  const SharedRing &ring;
  const LinearLayout &layout;
  Value slotBase, threadIndex;
  int64_t threadBits = 0;
};

/// The address of each register's element of `layout` in `slot` of `ring`
/// (its first register's, for each vector).
std::function<Value(OpBuilder &, Location, int64_t)> ringAddresses(OpBuilder &b, Location loc, const SharedRing &ring,
                                                                   const LinearLayout &layout,
                                                                   const ThreadCoords &thread, Value base, Value slot) {
  if (ring.threadArranged) {
    auto addresses = std::make_shared<ThreadRingAddresses>(b, loc, ring, layout, thread, base, slot);
    return [addresses](OpBuilder &ob, Location l, int64_t reg) { return addresses->at(ob, l, reg); };
  }
  return [&ring, &layout, &thread, base, slot](OpBuilder &ob, Location l, int64_t reg) {
    return byteAt(ob, l, base, ring.byteOffset(ob, l, slot, thread.element(ob, l, layout, reg)));
  };
}

/// The register bits of `layout`'s vector accesses to `ring`: runs along
/// its lines that its arrangement keeps whole.
SmallVector<unsigned> ringVectorBits(const LinearLayout &layout, const SharedRing &ring) {
  SmallVector<unsigned> bits = lineVectorBits(layout, ring.contig, ring.elemBytes);
  while (!bits.empty() && (int64_t(1) << bits.size()) > ring.runElements())
    bits.pop_back();
  return bits;
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
    // cp.async takes a 32-bit shared address. Outside a ring arranged for
    // threads (whose addresses are their own), the ring's base is converted
    // once and each copy's offset added in 32 bits: a 64-bit pointer per
    // copy would cost a widening, an add and a truncation each.
    Type i32 = rewriter.getI32Type();
    std::function<Value(int64_t)> destination;
    if (ring.threadArranged) {
      auto address = ringAddresses(rewriter, loc, ring, layout, thread, base, slot);
      destination = [&, address](int64_t r) {
        return LLVM::PtrToIntOp::create(rewriter, loc, i32, address(rewriter, loc, r)).getResult();
      };
    } else {
      Value baseAddr = LLVM::PtrToIntOp::create(rewriter, loc, i32, base);
      destination = [&, baseAddr](int64_t r) {
        Value offset = ring.byteOffset(rewriter, loc, slot, thread.element(rewriter, loc, layout, r));
        return LLVM::AddOp::create(rewriter, loc, baseAddr, offset).getResult();
      };
    }
    for (int64_t r = 0; r < layout.numRegisters(); r += op.getVec()) {
      Value dstAddr = destination(r);
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
/// layout (a wgmma A in registers among them), each thread reading the
/// elements it holds.
struct LocalLoadToLLVM : OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = op.getType();
    Location loc = op.getLoc();
    SharedRing ring(op.getBuffer().getType());
    Value base = adaptor.getBuffer()[0], slot = adaptor.getSlot()[0];
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(type.getEncoding());
    auto operandMma = operand ? dyn_cast<MmaLayoutAttr>(operand.getParent()) : MmaLayoutAttr();
    // A wgmma A read into registers takes the generic path: its elements
    // run kWidth along K per thread, vectors along the ring's lines.
    if (!operand || (operandMma && operandMma.getVersion() >= 3)) {
      LinearLayout layout = LinearLayout::get(type);
      ThreadCoords thread = emitThreadCoords(rewriter, loc, layout);
      SmallVector<unsigned> bits = ringVectorBits(layout, ring);
      SmallVector<Value> values(layout.numRegisters());
      // The scalar type a thread holds (fp8 travels as bytes).
      Type elem = getTypeConverter()->convertType(type.getElementType());
      auto address = ringAddresses(rewriter, loc, ring, layout, thread, base, slot);
      for (ArrayRef<int64_t> regs : lineVectors(layout.numRegisters(), bits)) {
        Value at = address(rewriter, loc, regs[0]);
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

/// Stores a 16-bit block with stmatrix (m8n8, up to four matrices an
/// instruction) where its layout gives each lane an 8x8 matrix fragment as
/// stmatrix takes it, as a wgmma accumulator does: lanes 0-1 along the
/// fragment's columns by 2 and 4 and a register pair next to each other
/// there, lanes 2-4 along its rows. Plain where the columns run along the
/// buffer's lines, .trans where the rows do. Each lane gives the address of
/// one matrix row: 16 bytes along a line, one swizzle unit. False, emitting
/// nothing, where the layout is not such.
bool storeMatrices(OpBuilder &b, Location loc, RankedTensorType type, const SharedRing &ring, Value base, Value slot,
                   ValueRange values) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(type.getEncoding());
  // stmatrix: sm_90, as wgmma; its rows are whole 16-byte units.
  if (!mma || mma.getVersion() != 3 || ring.elemBytes != 2 || ring.runElements() < 8)
    return false;
  LinearLayout layout = LinearLayout::get(type);
  if (layout.rank() != 2 || layout.lanes.size() != 5 || !layout.registersDisjointFromThreads() ||
      layout.broadcastLaneMask() || layout.broadcastWarpMask())
    return false;
  unsigned line = ring.contig, across = 1 - ring.contig;
  auto basis = [](unsigned dim, int64_t v) {
    LinearLayout::Coord x(2, 0);
    x[dim] = v;
    return x;
  };
  // The fragment's columns: along the lines (plain) or across them (.trans).
  bool trans = layout.lanes[0] == basis(across, 2);
  unsigned cols = trans ? across : line, rows = 1 - cols;
  if (layout.lanes[0] != basis(cols, 2) || layout.lanes[1] != basis(cols, 4) || layout.lanes[2] != basis(rows, 1) ||
      layout.lanes[3] != basis(rows, 2) || layout.lanes[4] != basis(rows, 4))
    return false;
  std::optional<LinearLayout::InputBit> pair = layout.bitWithBasis(basis(cols, 1));
  if (!pair || pair->kind != LinearLayout::BitKind::Register)
    return false;
  SmallVector<FragmentMatrix> matrices;
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    if ((r >> pair->bit) & 1)
      continue;
    LinearLayout::Coord at = layout.registerCoord(r);
    if (at[0] % 8 || at[1] % 8)
      return false;
    matrices.push_back({at, r, r | (int64_t(1) << pair->bit)});
  }
  // Each lane gives one memory row: 8 elements along a line, the lane's row
  // (lane % 8) across the lines.
  MatrixLanes lanes(b, loc, layout);
  unsigned count = 0;
  for (size_t first = 0; first < matrices.size(); first += count) {
    count = MatrixLanes::countAt(first, matrices.size());
    std::array<Value, 2> coord = lanes.rowOrigin(b, loc, ArrayRef(matrices).slice(first, count), across);
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), byteAt(b, loc, base, ring.byteOffset(b, loc, slot, coord)));
    SmallVector<Value> operands{addr};
    std::string regs, constraints = "r";
    for (unsigned m = 0; m < count; ++m) {
      const FragmentMatrix &mat = matrices[first + m];
      operands.push_back(packWord(b, loc, {values[mat.lo], values[mat.hi]}));
      regs += (m ? ", $" : "$") + std::to_string(m + 1);
      constraints += ",r";
    }
    inlineAsm(b, loc, Type(), operands,
              "stmatrix.sync.aligned.m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") + ".shared.b16 [$0], {" +
                  regs + "};",
              constraints);
  }
  return true;
}

struct LocalStoreToLLVM : OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalStoreOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedRing ring(op.getBuffer().getType());
    Value base = adaptor.getBuffer()[0], slot = adaptor.getSlot()[0];
    ValueRange values = adaptor.getValue();
    if (storeMatrices(rewriter, loc, op.getValue().getType(), ring, base, slot, values)) {
      rewriter.eraseOp(op);
      return success();
    }
    LinearLayout layout = LinearLayout::get(op.getValue().getType());
    // Threads holding copies of an element leave its write to its owner.
    ThreadCoords thread = emitThreadCoords(rewriter, loc, layout);
    auto address = ringAddresses(rewriter, loc, ring, layout, thread, base, slot);
    for (ArrayRef<int64_t> regs : lineVectors(layout.numRegisters(), ringVectorBits(layout, ring))) {
      Value at = address(rewriter, loc, regs[0]);
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
