// blk.dot on CUDA cores ("ieee" precision): both operands go to shared memory
// (row-major, padded); then, for each k in order, every thread reads the
// A[m, k] of the rows and the B[k, n] of the columns its accumulator
// registers hold, and applies one fused multiply-add per register.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

struct DotToLLVM : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    auto aType = op.getA().getType(), bType = op.getB().getType(), cType = op.getAcc().getType();
    if (!hasLayout(aType) || !hasLayout(bType) || !hasLayout(cType))
      return failure();
    FailureOr<int64_t> offset = scratchOffset(op);
    if (failed(offset))
      return failure();
    ScratchPlan plan = scratchFor(op);
    Location loc = op.getLoc();
    Type inElem = aType.getElementType(), accElem = cType.getElementType();
    int64_t K = aType.getDimSize(1);

    // Operands to shared memory, each element by its own row-major index.
    auto slot = [&](unsigned part, RankedTensorType t, Value index) {
      return sharedElement(rewriter, loc, *offset + plan.partOffsets[part], inElem,
                           emitPaddedIndex(rewriter, loc, index, sharedPadPeriod(t)));
    };
    for (auto [part, t, values] : {std::tuple{0u, aType, adaptor.getA()}, std::tuple{1u, bType, adaptor.getB()}}) {
      LinearLayout layout = LinearLayout::get(t);
      SmallVector<Value> indices = emitRegisterIndices(rewriter, loc, layout);
      for (auto [r, v] : llvm::enumerate(values))
        storeShared(rewriter, loc, v, slot(part, t, indices[r]));
    }
    NVVM::Barrier0Op::create(rewriter, loc);

    // The rows and columns this thread's accumulator registers hold: one
    // load each per k, shared by the registers on that row or column.
    LinearLayout acc = LinearLayout::get(cType);
    ThreadCoords thread = emitThreadCoords(rewriter, loc, acc);
    llvm::MapVector<int64_t, Value> rows, cols; // register coordinate -> i32 index
    SmallVector<std::pair<int64_t, int64_t>> regRowCol;
    for (int64_t r = 0; r < acc.numRegisters(); ++r) {
      LinearLayout::Coord c = acc.registerCoord(r);
      regRowCol.push_back({c[0], c[1]});
      if (!rows.count(c[0]) || !cols.count(c[1])) {
        SmallVector<Value> at = thread.element(rewriter, loc, acc, r);
        rows.insert({c[0], at[0]});
        cols.insert({c[1], at[1]});
      }
    }
    auto widen = [&](Value v) -> Value {
      if (v.getType() == accElem)
        return v;
      if (isa<FloatType>(accElem))
        return LLVM::FPExtOp::create(rewriter, loc, accElem, v);
      return LLVM::SExtOp::create(rewriter, loc, accElem, v);
    };
    SmallVector<Value> out(adaptor.getAcc().begin(), adaptor.getAcc().end());
    Value kStride = i32Const(rewriter, loc, K), nStride = i32Const(rewriter, loc, bType.getDimSize(1));
    for (int64_t k = 0; k < K; ++k) {
      Value kv = i32Const(rewriter, loc, k);
      llvm::DenseMap<int64_t, Value> aVals, bVals;
      for (auto &[key, m] : rows) {
        Value index = LLVM::AddOp::create(rewriter, loc, LLVM::MulOp::create(rewriter, loc, m, kStride), kv);
        aVals[key] = widen(loadShared(rewriter, loc, inElem, slot(0, aType, index)));
      }
      for (auto &[key, n] : cols) {
        Value index = LLVM::AddOp::create(rewriter, loc, LLVM::MulOp::create(rewriter, loc, kv, nStride), n);
        bVals[key] = widen(loadShared(rewriter, loc, inElem, slot(1, bType, index)));
      }
      for (auto [r, rc] : llvm::enumerate(regRowCol)) {
        Value x = aVals[rc.first], y = bVals[rc.second];
        if (isa<FloatType>(accElem))
          out[r] = LLVM::FMAOp::create(rewriter, loc, x, y, out[r]);
        else
          out[r] = LLVM::AddOp::create(rewriter, loc, out[r], LLVM::MulOp::create(rewriter, loc, x, y));
      }
    }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

} // namespace

void populateDotOpPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<DotToLLVM>(tc, patterns.getContext());
}

} // namespace blk
