// blk.dot on tensor cores (an #blk.mma accumulator: one mma.sync per
// instruction tile, operands already in #blk.dot_op fragments) or on CUDA
// cores ("ieee" precision): both operands go to shared memory (row-major,
// padded); then, for each k in order, every thread reads the A[m, k] of the
// rows and the B[k, n] of the columns its accumulator registers hold, and
// applies one fused multiply-add per register.
#include "Patterns.h"

#include "blk/Analysis/Allocation.h"

using namespace mlir;

namespace blk {
namespace {

/// The PTX name of an mma.sync operand type.
std::string mmaTypeName(Type in) {
  if (isFloat8(in))
    return isa<Float8E5M2Type>(in) ? "e5m2" : "e4m3";
  return in.isF16() ? "f16" : in.isBF16() ? "bf16" : in.isInteger(8) ? "s8" : "tf32";
}

/// The PTX of mma.sync for these element types (m16n8k<k>).
std::string mmaInstruction(Type a, Type b, Type acc, unsigned k) {
  std::string c = acc.isInteger(32) ? "s32" : "f32";
  return "mma.sync.aligned.m16n8k" + std::to_string(k) + ".row.col." + c + "." + mmaTypeName(a) + "." +
         mmaTypeName(b) + "." + c;
}

struct MmaDotToLLVM : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    auto aType = op.getA().getType(), bType = op.getB().getType(), cType = op.getAcc().getType();
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(cType.getEncoding());
    if (!mma || !isa_and_nonnull<DotOperandLayoutAttr>(aType.getEncoding()) ||
        !isa_and_nonnull<DotOperandLayoutAttr>(bType.getEncoding()))
      return failure();
    Location loc = op.getLoc();
    LinearLayout la = LinearLayout::get(aType), lb = LinearLayout::get(bType), lc = LinearLayout::get(cType);
    auto aRegs = registersByPosition(la), bRegs = registersByPosition(lb), cRegs = registersByPosition(lc);
    int64_t M = aType.getDimSize(0), K = aType.getDimSize(1), N = bType.getDimSize(1);
    unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1], k = mma.getInstrShape()[2], w = k / 8;
    Type inElem = aType.getElementType(), accElem = cType.getElementType(), i32 = rewriter.getI32Type();

    // tf32 operands (w == 1): each f32 register rounded once, to nearest as
    // the interpreter does; the fragments then take the rounded words.
    auto operand = [&](ValueRange values) {
      SmallVector<Value> regs(values);
      if (w == 1)
        for (Value &v : regs)
          v = inlineAsm(rewriter, loc, i32, {v}, "cvt.rna.tf32.f32 $0, $1;", "=r,f", /*sideEffects=*/false);
      return regs;
    };
    SmallVector<Value> aValues = operand(adaptor.getA()), bValues = operand(adaptor.getB());

    // One 32-bit register: w elements along K from (row, col) of a
    // row-major [rows, cols] operand (K along cols for A, rows for B).
    auto pack = [&](ValueRange values, const llvm::DenseMap<int64_t, int64_t> &regs, int64_t cols, int64_t row,
                    int64_t col, bool alongCols) -> FailureOr<Value> {
      SmallVector<Value> elems;
      for (unsigned e = 0; e < w; ++e) {
        int64_t r = alongCols ? row : row + e, c = alongCols ? col + e : col;
        auto it = regs.find(r * cols + c);
        if (it == regs.end())
          return failure();
        elems.push_back(values[it->second]);
      }
      if (w == 1) // already a tf32 word
        return elems[0];
      return packWord(rewriter, loc, elems);
    };

    std::string text = mmaInstruction(inElem, bType.getElementType(), accElem, k) + " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, " +
                       "{$10, $11, $12, $13};";
    std::string constraints = accElem.isInteger(32) ? "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3" : "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
    Type resultType = LLVM::LLVMStructType::getLiteral(getContext(), SmallVector<Type>(4, accElem));
    SmallVector<Value> out(adaptor.getAcc().begin(), adaptor.getAcc().end());
    // k outermost: consecutive instructions use different accumulators.
    for (int64_t ki = 0; ki < K; ki += k)
      for (int64_t mi = 0; mi < M; mi += 16 * wm)
        for (int64_t ni = 0; ni < N; ni += 8 * wn) {
          SmallVector<Value> operands;
          for (auto [dr, dc] : {std::pair<int64_t, int64_t>{0, 0}, {8, 0}, {0, 4 * w}, {8, 4 * w}}) {
            FailureOr<Value> reg = pack(aValues, aRegs, K, mi + dr, ki + dc, true);
            if (failed(reg))
              return op.emitOpError("operand A's layout does not hold an mma.sync fragment");
            operands.push_back(*reg);
          }
          for (int64_t dk : {int64_t(0), int64_t(4 * w)}) {
            FailureOr<Value> reg = pack(bValues, bRegs, N, ki + dk, ni, false);
            if (failed(reg))
              return op.emitOpError("operand B's layout does not hold an mma.sync fragment");
            operands.push_back(*reg);
          }
          SmallVector<int64_t, 4> accRegs;
          for (auto [dr, dc] : {std::pair<int64_t, int64_t>{0, 0}, {0, 1}, {8, 0}, {8, 1}}) {
            auto it = cRegs.find((mi + dr) * N + ni + dc);
            if (it == cRegs.end())
              return op.emitOpError("the accumulator's layout does not hold an mma.sync tile");
            accRegs.push_back(it->second);
            operands.push_back(out[it->second]);
          }
          Value tile = inlineAsm(rewriter, loc, resultType, operands, text, constraints, /*sideEffects=*/false);
          for (auto [i, r] : llvm::enumerate(accRegs))
            out[r] = LLVM::ExtractValueOp::create(rewriter, loc, tile, int64_t(i));
        }
    rewriter.replaceOpWithMultiple(op, {out});
    return success();
  }
};

struct DotToLLVM : OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor, ConversionPatternRewriter &rewriter) const override {
    auto aType = op.getA().getType(), bType = op.getB().getType(), cType = op.getAcc().getType();
    if (!hasLayout(aType) || !hasLayout(bType) || !hasLayout(cType) || isa<MmaLayoutAttr>(cType.getEncoding()))
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
    emitBarrier(rewriter, loc);

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
    auto widen = [&](Value v, Type elem) -> Value {
      if (isFloat8(elem))
        return widenFloat8(rewriter, loc, v, elem, accElem)[0];
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
        aVals[key] = widen(loadShared(rewriter, loc, inElem, slot(0, aType, index)), inElem);
      }
      for (auto &[key, n] : cols) {
        Value index = LLVM::AddOp::create(rewriter, loc, LLVM::MulOp::create(rewriter, loc, kv, nStride), n);
        bVals[key] = widen(loadShared(rewriter, loc, inElem, slot(1, bType, index)), bType.getElementType());
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
  patterns.add<MmaDotToLLVM, DotToLLVM>(tc, patterns.getContext());
}

} // namespace blk
