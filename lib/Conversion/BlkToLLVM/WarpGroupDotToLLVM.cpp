// blk.warp_group_dot on wgmma: each warpgroup (4 consecutive warps) owns
// 64-row slabs of the accumulator; for each slab and each step of K
// it issues wgmma.mma_async m64nNk16 (k32 for 8-bit floats) with B read
// from its ring through a 64-bit shared-memory descriptor and A either the
// same way or from registers (four b32 per thread: the mma.sync A fragment
// of the warp's 16 rows), then commits the group.
// blk.warp_group_dot_wait is wgmma.wait_group; the accumulator's registers
// pass through both so that nothing reads them while wgmma writes.
#include "SharedRing.h"

using namespace mlir;

namespace blk {
namespace {

/// A wgmma shared-memory matrix descriptor: start address, leading and
/// stride byte offsets (16-byte units) and the swizzle mode.
Value descriptor(OpBuilder &b, Location loc, Value address, int64_t leading, int64_t stride, int64_t mode) {
  Type i64 = b.getI64Type();
  Value start = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, address, i32Const(b, loc, 4)),
                                    i32Const(b, loc, 0x3FFF));
  uint64_t fields = (uint64_t(leading >> 4) << 16) | (uint64_t(stride >> 4) << 32) | (uint64_t(mode) << 62);
  Value constant = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(int64_t(fields)));
  return LLVM::OrOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, start), constant);
}

/// The descriptor of the matrix `bytes` further on than `desc`'s: shared
/// memory ends below 256 KB, so the start field (address / 16, 14 bits) of
/// the one further on is the sum and never carries into the next field.
/// Built once per slab and stepped by constants, the descriptors of a loop's
/// K steps cost one 64-bit add each instead of a shift, mask and or.
Value stepDescriptor(OpBuilder &b, Location loc, Value desc, int64_t bytes) {
  if (bytes == 0)
    return desc;
  Type i64 = b.getI64Type();
  return LLVM::AddOp::create(b, loc, desc, LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(bytes >> 4)));
}

/// Descriptor fields of one operand's ring: a K-major ring (K along its
/// lines) steps K within a line and needs no leading offset; an MN-major
/// one steps K by lines and strides chunks of the MN dimension.
struct OperandDesc {
  int64_t leading, stride;
  bool mnMajor;
};
OperandDesc operandDesc(const SharedRing &ring, unsigned kDim) {
  bool mnMajor = ring.contig != kDim;
  return {mnMajor ? ring.chunkBytes() : 16, 8 * ring.width, mnMajor};
}

/// The bytes K step `k` adds to an operand's offset (stepOffset's term of k).
int64_t stepBytes(const SharedRing &ring, bool mnMajor, int64_t k) {
  if (mnMajor) // lines along K
    return k * ring.width;
  return (k / ring.lineElems) * ring.chunkBytes() + (k % ring.lineElems) * ring.elemBytes;
}

/// Byte offset (i32) of the K step at `k` and the MN position `mn`
/// (a multiple of 64 for A, 0 for B) in one slot.
Value stepOffset(OpBuilder &b, Location loc, const SharedRing &ring, bool mnMajor, Value mn, int64_t k) {
  auto c = [&](int64_t v) { return i32Const(b, loc, v); };
  if (mnMajor) { // chunks along MN
    Value chunk = LLVM::LShrOp::create(b, loc, mn, c(llvm::Log2_64(ring.lineElems)));
    return LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, chunk, c(ring.chunkBytes())), c(stepBytes(ring, mnMajor, k)));
  }
  return LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, mn, c(ring.width)), c(stepBytes(ring, mnMajor, k)));
}

Value slotAddress(OpBuilder &b, Location loc, Value base, Value slot, const SharedRing &ring) {
  Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
  return LLVM::AddOp::create(b, loc, addr, LLVM::MulOp::create(b, loc, slot, i32Const(b, loc, ring.slotBytes)));
}

/// Inline asm whose outputs are `values` (f32) tied to the same inputs, plus
/// `extra` inputs with `extraConstraints`.
SmallVector<Value> asmThrough(OpBuilder &b, Location loc, StringRef text, ArrayRef<Value> values, ValueRange extra,
                              StringRef extraConstraints) {
  size_t n = values.size();
  std::string constraints;
  for (size_t i = 0; i < n; ++i)
    constraints += "=f,";
  for (size_t i = 0; i < n; ++i)
    constraints += std::to_string(i) + ",";
  constraints += extraConstraints.str();
  if (!constraints.empty() && constraints.back() == ',')
    constraints.pop_back();
  SmallVector<Value> operands(values);
  llvm::append_range(operands, extra);
  auto type = LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(n, b.getF32Type()));
  Value result = inlineAsm(b, loc, type, operands, text, constraints);
  SmallVector<Value> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, result, int64_t(i)));
  return out;
}

struct WarpGroupDotToLLVM : OpConversionPattern<WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpGroupDotOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto accType = op.getAcc().getType();
    auto mma = cast<MmaLayoutAttr>(accType.getEncoding());
    bool registerA = op.hasRegisterA();
    SharedRing ringB(op.getB().getType());
    std::optional<SharedRing> ringA;
    if (!registerA)
      ringA.emplace(cast<SharedBufferType>(op.getA().getType()));
    int64_t M = accType.getDimSize(0), N = accType.getDimSize(1);
    int64_t K = op.getB().getType().getTileShape()[0];
    int64_t warps = mma.getWarpsPerCTA()[0];
    LinearLayout layout = LinearLayout::get(accType);
    llvm::DenseMap<int64_t, int64_t> regAt = registersByPosition(layout);
    llvm::DenseMap<int64_t, int64_t> aRegAt;
    if (registerA)
      aRegAt = registersByPosition(LinearLayout::get(cast<RankedTensorType>(op.getA().getType())));

    OperandDesc db = operandDesc(ringB, 0);
    OperandDesc da = ringA ? operandDesc(*ringA, 1) : OperandDesc{0, 0, false};
    Value baseA = ringA ? slotAddress(rewriter, loc, adaptor.getA()[0], adaptor.getASlot()[0], *ringA) : Value();
    Value baseB = slotAddress(rewriter, loc, adaptor.getB()[0], adaptor.getBSlot()[0], ringB);
    // The warp id as computed from tid.x: reading it from lane 0 once at the
    // kernel's entry (warp-uniform to ptxas) made ptxas move more values
    // into uniform registers and cost the causal attention backward's dK/dV
    // 10% (H200) for 1-6% in dQ.
    Value warpGroup = LLVM::LShrOp::create(rewriter, loc, emitWarpId(rewriter, loc), i32Const(rewriter, loc, 2));
    Value groupRow = LLVM::MulOp::create(rewriter, loc, warpGroup, i32Const(rewriter, loc, 64));
    Value zero = i32Const(rewriter, loc, 0), one = i32Const(rewriter, loc, 1);

    auto ptxType = [](Type t) -> std::string {
      return t.isBF16() ? "bf16" : t.isF16() ? "f16" : isa<Float8E4M3FNType>(t) ? "e4m3" : "e5m2";
    };
    Type elemA = registerA ? cast<RankedTensorType>(op.getA().getType()).getElementType()
                           : cast<SharedBufferType>(op.getA().getType()).getElementType();
    Type elemB = op.getB().getType().getElementType();
    // 8-bit operands: 32 of K per instruction, four to a register of A, no
    // transposes (K-major only, as the verifier checks).
    bool eightBit = elemB.getIntOrFloatBitWidth() == 8;
    int64_t kStep = eightBit ? 32 : 16, perWord = eightBit ? 4 : 2;
    int64_t n = N / 2; // accumulator registers per thread per slab
    // Operands after the accumulator: A (a descriptor, or four b32), B's
    // descriptor, then the scale-d predicate's source.
    int64_t aOps = registerA ? 4 : 1, bAt = n + aOps, predAt = bAt + 1;
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(n + predAt) +
                       ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(N) + "k" + std::to_string(kStep) + ".f32." +
                       ptxType(elemA) + "." + ptxType(elemB) +
                       " {";
    for (int64_t i = 0; i < n; ++i)
      text += (i ? ", $" : "$") + std::to_string(i);
    text += "}, ";
    if (registerA) {
      text += "{";
      for (int64_t i = 0; i < 4; ++i)
        text += (i ? ", $" : "$") + std::to_string(2 * n + i);
      text += "}";
    } else {
      text += "$" + std::to_string(2 * n);
    }
    text += ", $" + std::to_string(n + bAt) + ", p, 1, 1";
    if (!eightBit) {
      if (!registerA) // the register form has no transpose for A
        text += std::string(da.mnMajor ? ", 1" : ", 0");
      text += std::string(db.mnMajor ? ", 1" : ", 0");
    } else if (db.mnMajor || da.mnMajor) {
      return op.emitOpError("reads 8-bit operands only K-major");
    }
    text += ";\n}";
    std::string extraConstraints = registerA ? "r,r,r,r,l,r" : "l,l,r";

    // Every instruction's operands (A's packed fragments or descriptor, B's
    // descriptor) are computed before the fence: work between two wgmma
    // instructions makes ptxas fence and commit each of them alone.
    struct Issue {
      SmallVector<int64_t> regs; // accumulator registers in wgmma's order
      SmallVector<Value> operands;
    };
    SmallVector<Issue> issues;
    ValueRange aValues = registerA ? adaptor.getA() : ValueRange{};
    for (int64_t slab = 0; slab < M / (16 * warps); ++slab) {
      // The registers of this slab in wgmma's order: per 8 columns, rows
      // +0 and +8, each two adjacent columns.
      SmallVector<int64_t> regs;
      int64_t slabRow = slab * 16 * warps;
      for (int64_t i = 0; i < n; ++i) {
        int64_t q = i % 4, row = slabRow + 8 * (q / 2), col = 8 * (i / 4) + q % 2;
        auto it = regAt.find(row * N + col);
        if (it == regAt.end())
          return op.emitOpError("the accumulator layout does not match wgmma's fragments");
        regs.push_back(it->second);
      }
      Value row = LLVM::AddOp::create(rewriter, loc, groupRow, i32Const(rewriter, loc, slabRow));
      // Each operand's descriptor at k = 0; later K steps add the step's
      // bytes (a constant: stepOffset is the MN term plus one of k).
      Value descA0 = registerA ? Value()
                               : descriptor(rewriter, loc,
                                            LLVM::AddOp::create(rewriter, loc, baseA,
                                                                stepOffset(rewriter, loc, *ringA, da.mnMajor, row, 0)),
                                            da.leading, da.stride, ringA->swizzleMode());
      Value descB0 = descriptor(rewriter, loc,
                                LLVM::AddOp::create(rewriter, loc, baseB, stepOffset(rewriter, loc, ringB, db.mnMajor, zero, 0)),
                                db.leading, db.stride, ringB.swizzleMode());
      for (int64_t k = 0; k < K; k += kStep) {
        if (stepBytes(ringB, db.mnMajor, k) % 16 || (!registerA && stepBytes(*ringA, da.mnMajor, k) % 16))
          return op.emitOpError("a K step of an operand is not a multiple of 16 bytes");
        Issue issue{regs, {}};
        if (registerA) {
          // a0..a3: rows +0/+8 of the word's columns from k, then from
          // k + kStep / 2 (16-bit: k+{0,1}, k+{8,9}; 8-bit: k+0..3, k+16..19).
          int64_t half = kStep / 2;
          for (auto [dr, dc] : {std::pair<int64_t, int64_t>{0, 0}, {8, 0}, {0, half}, {8, half}}) {
            int64_t at = (slabRow + dr) * K + k + dc;
            SmallVector<Value> word;
            for (int64_t e = 0; e < perWord; ++e) {
              auto it = aRegAt.find(at + e);
              if (it == aRegAt.end())
                return op.emitOpError("operand A's layout does not hold wgmma's register fragments");
              word.push_back(aValues[it->second]);
            }
            issue.operands.push_back(packWord(rewriter, loc, word));
          }
        } else {
          issue.operands.push_back(stepDescriptor(rewriter, loc, descA0, stepBytes(*ringA, da.mnMajor, k)));
        }
        issue.operands.push_back(stepDescriptor(rewriter, loc, descB0, stepBytes(ringB, db.mnMajor, k)));
        issue.operands.push_back(one);
        issues.push_back(std::move(issue));
      }
    }

    SmallVector<Value> acc(adaptor.getAcc());
    inlineAsm(rewriter, loc, Type(), ValueRange{}, "wgmma.fence.sync.aligned;", "");
    for (Issue &issue : issues) {
      SmallVector<Value> in;
      for (int64_t r : issue.regs)
        in.push_back(acc[r]);
      SmallVector<Value> out = asmThrough(rewriter, loc, text, in, issue.operands, extraConstraints);
      for (auto [r, v] : llvm::zip(issue.regs, out))
        acc[r] = v;
    }
    inlineAsm(rewriter, loc, Type(), ValueRange{}, "wgmma.commit_group.sync.aligned;", "");
    rewriter.replaceOpWithMultiple(op, {acc});
    return success();
  }
};

struct WarpGroupDotWaitToLLVM : OpConversionPattern<WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpGroupDotWaitOp op, OneToNOpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // One wait over the registers of every accumulator it carries.
    SmallVector<Value> regs;
    SmallVector<size_t> counts;
    for (ValueRange acc : adaptor.getAccs()) {
      llvm::append_range(regs, acc);
      counts.push_back(acc.size());
    }
    std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(op.getPending()) + ";";
    SmallVector<Value> done = asmThrough(rewriter, op.getLoc(), text, regs, ValueRange{}, "");
    SmallVector<SmallVector<Value>> results;
    ArrayRef<Value> rest(done);
    for (size_t count : counts) {
      results.emplace_back(rest.take_front(count));
      rest = rest.drop_front(count);
    }
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

} // namespace

void populateWarpGroupDotPatterns(ThreadTypeConverter &tc, RewritePatternSet &patterns) {
  patterns.add<WarpGroupDotToLLVM, WarpGroupDotWaitToLLVM>(tc, patterns.getContext());
}

} // namespace blk
