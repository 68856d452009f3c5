// A 16-bit block converted to an mma.sync operand (#blk.dot_op, kWidth 2):
// every thread stores its runs of contiguous elements to a shared tile
// arranged as a ring's slot (SharedRing.h: 16-byte units XOR-swizzled by
// line), then each warp reads its fragments with ldmatrix, four 8x8 matrices
// per instruction. The swizzle puts the eight lines an ldmatrix phase reads
// in eight different bank groups, so neither the stores nor the reads
// conflict. When K is the tile's row
// direction the plain ldmatrix gives the fragment pairs; otherwise .trans.
#include "MatrixLanes.h"
#include "SharedRing.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

Value sharedByte(OpBuilder &b, Location loc, int64_t offset, Value byteOffset) {
  return sharedElement(b, loc, offset, b.getI8Type(), byteOffset);
}

struct LdmatrixConversion : OpConversionPattern<ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType(), dstType = op.getType();
    if (!isLdmatrixConversion(srcType, dstType))
      return failure();
    FailureOr<int64_t> offset = scratchOffset(op);
    if (failed(offset))
      return failure();
    Location loc = op.getLoc();
    auto operand = cast<DotOperandLayoutAttr>(dstType.getEncoding());
    LinearLayout from = LinearLayout::get(srcType), to = LinearLayout::get(dstType);
    unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0;
    // Rows of the tile along the source's contiguous dimension, so that its
    // runs are stored whole.
    unsigned contig = from.contiguousRegisters(1) >= from.contiguousRegisters(0) ? 1 : 0;
    SharedRing tile(srcType.getShape(), /*elemBytes=*/2, contig);
    Type elem = srcType.getElementType();

    // Stores: runs of up to 8 elements (16 bytes) along the row.
    unsigned run = std::min<unsigned>(8, from.contiguousRegisters(contig));
    ThreadCoords src = emitThreadCoords(rewriter, loc, from);
    ValueRange values = adaptor.getSrc();
    for (int64_t r = 0; r < from.numRegisters(); r += run) {
      Value ptr = sharedByte(rewriter, loc, *offset, tile.byteOffset(rewriter, loc, Value(), src.element(rewriter, loc, from, r)));
      if (run == 1) {
        storeShared(rewriter, loc, values[r], ptr);
        continue;
      }
      auto vecType = VectorType::get({int64_t(run)}, elem);
      Value vec = LLVM::UndefOp::create(rewriter, loc, vecType);
      for (unsigned e = 0; e < run; ++e)
        vec = LLVM::InsertElementOp::create(rewriter, loc, vec, values[r + e], i32Const(rewriter, loc, e));
      LLVM::StoreOp::create(rewriter, loc, vec, ptr, /*alignment=*/run * 2);
    }
    emitBarrier(rewriter, loc);
    FailureOr<SmallVector<Value>> out =
        emitLdmatrixFragments(rewriter, loc, op, dstType, /*trans=*/contig != kDim, [&](OpBuilder &b, ArrayRef<Value> coord) {
          return sharedByte(b, loc, *offset, tile.byteOffset(b, loc, Value(), coord));
        });
    if (failed(out))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*out});
    return success();
  }
};

} // namespace

// Each lane gives the address of one matrix row: lanes 8q..8q+7 the rows of
// matrix q (up to four per instruction).
FailureOr<SmallVector<Value>> emitLdmatrixFragments(OpBuilder &rewriter, Location loc, Operation *op,
                                                 RankedTensorType dstType, bool trans,
                                                 function_ref<Value(OpBuilder &, ArrayRef<Value>)> addressOf) {
  auto operand = cast<DotOperandLayoutAttr>(dstType.getEncoding());
  LinearLayout to = LinearLayout::get(dstType);
  unsigned kDim = operand.getOpIdx() == 0 ? 1 : 0;
  Type elem = dstType.getElementType();

  // The 8x8 matrices of this thread's fragments: in lane 0's frame, each
  // starts at a register whose coordinates are multiples of 8 and pairs
  // it with the next element along K.
  llvm::DenseMap<int64_t, int64_t> regAt = registersByPosition(to);
  SmallVector<FragmentMatrix> matrices; // lo, hi: the destination registers
  for (int64_t r = 0; r < to.numRegisters(); ++r) {
    LinearLayout::Coord c = to.registerCoord(r);
    if (c[0] % 8 || c[1] % 8)
      continue;
    LinearLayout::Coord next = c;
    ++next[kDim];
    auto it = regAt.find(to.linearIndex(next));
    if (it == regAt.end())
      return op->emitOpError("the operand layout does not pair elements along K");
    matrices.push_back({c, r, it->second});
  }

  // Each lane gives the address of one matrix row: lanes 8q..8q+7 the rows
  // of matrix q. Rows run along the tile's rows: the non-K coordinate when
  // K is contiguous (plain), the K coordinate otherwise (.trans).
  MatrixLanes lanes(rewriter, loc, to);
  unsigned rowDim = trans ? kDim : 1 - kDim;
  SmallVector<Value> out(to.numRegisters());
  Type i32 = rewriter.getI32Type();
  auto pairType = VectorType::get({2}, elem);
  unsigned count = 0;
  for (size_t first = 0; first < matrices.size(); first += count) {
    count = MatrixLanes::countAt(first, matrices.size());
    std::array<Value, 2> coord = lanes.rowOrigin(rewriter, loc, ArrayRef(matrices).slice(first, count), rowDim);
    Value ptr = addressOf(rewriter, coord);
    Value addr = LLVM::PtrToIntOp::create(rewriter, loc, i32, ptr);
    std::string regs;
    for (unsigned m = 0; m < count; ++m)
      regs += (m ? ", $" : "$") + std::to_string(m);
    std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") +
                       ".shared.b16 {" + regs + "}, [$" + std::to_string(count) + "];";
    std::string constraints;
    for (unsigned m = 0; m < count; ++m)
      constraints += "=r,";
    constraints += "r";
    Type resultType = count == 1 ? i32 : Type(LLVM::LLVMStructType::getLiteral(rewriter.getContext(), SmallVector<Type>(count, i32)));
    Value ld = inlineAsm(rewriter, loc, resultType, ValueRange{addr}, text, constraints);
    for (unsigned m = 0; m < count; ++m) {
      Value word = count == 1 ? ld : Value(LLVM::ExtractValueOp::create(rewriter, loc, ld, int64_t(m)));
      Value pair = LLVM::BitcastOp::create(rewriter, loc, pairType, word);
      const FragmentMatrix &mat = matrices[first + m];
      out[mat.lo] = LLVM::ExtractElementOp::create(rewriter, loc, pair, i32Const(rewriter, loc, 0));
      out[mat.hi] = LLVM::ExtractElementOp::create(rewriter, loc, pair, i32Const(rewriter, loc, 1));
    }
  }
  if (llvm::any_of(out, [](Value v) { return !v; }))
    return op->emitOpError("the operand layout holds elements no ldmatrix reads");
  return out;
}

void populateDotOperandPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  // Before the general conversion through shared memory.
  patterns.add<LdmatrixConversion>(tc, patterns.getContext(), /*benefit=*/2);
}

} // namespace blk
