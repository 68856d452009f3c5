// The Triton-tutorial matmul's operand loads, recognized as boxes of a
// strided tensor and rewritten as tensor-descriptor loads, so that the
// pointer form gets TMA as matmul_tma does. A box whose contiguous run goes
// down its columns (an operand transposed through its strides, such as
// `W + rk[:, None] + rn[None, :] * stride` for X @ W^T) becomes a load of
// the transposed box followed by `trans`, which the ring reads through a
// transposed view. Every part of the pattern is matched exactly; anything
// else keeps its pointer loads.
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "HostValues.h"
#include "LoopSlice.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKLOADSTOTENSORDESCRIPTORSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

Value stripBroadcast(Value v) {
  while (auto b = v.getDefiningOp<BroadcastOp>())
    v = b.getSrc();
  return v;
}

/// `start + arange(0, n)` along dimension `dim` of a 2-D block (through
/// expand_dims and broadcast): the 1-D value, its start (i32) and dim.
struct Index {
  Value line, start;
  unsigned dim = 0;
};
std::optional<Index> matchIndex(Value v) {
  auto expand = stripBroadcast(v).getDefiningOp<ExpandDimsOp>();
  if (!expand || cast<RankedTensorType>(expand.getType()).getRank() != 2)
    return std::nullopt;
  Index idx;
  idx.line = expand.getSrc();
  idx.dim = expand.getAxis() == 1 ? 0 : 1;
  Value line = idx.line;
  auto isArange = [](Value x) {
    auto a = x.getDefiningOp<ArangeOp>();
    return a && a.getStart() == 0;
  };
  if (isArange(line))
    return idx; // start 0 (null)
  auto add = line.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [s, a] : {std::pair{add.getLhs(), add.getRhs()}, std::pair{add.getRhs(), add.getLhs()}})
    if (auto splat = s.getDefiningOp<SplatOp>(); splat && isArange(a)) {
      idx.start = splat.getSrc();
      return idx;
    }
  return std::nullopt;
}

/// One term of a pointer's offset: index * stride (stride an i64 scalar, or
/// null for 1).
struct Term {
  Index idx;
  Value stride;
};
std::optional<Term> matchTerm(Value v) {
  v = stripBroadcast(v);
  Value stride;
  if (auto mul = v.getDefiningOp<arith::MulIOp>()) {
    for (auto [x, s] : {std::pair{mul.getLhs(), mul.getRhs()}, std::pair{mul.getRhs(), mul.getLhs()}})
      if (auto splat = stripBroadcast(s).getDefiningOp<SplatOp>()) {
        v = x;
        stride = splat.getSrc();
        break;
      }
    if (!stride)
      return std::nullopt;
  }
  if (auto ext = v.getDefiningOp<arith::ExtSIOp>()) // an i32 index widened, or used as it is
    v = ext.getIn();
  std::optional<Index> idx = matchIndex(v);
  if (!idx)
    return std::nullopt;
  if (stride && matchPattern(stride, m_One()))
    stride = Value();
  return Term{*idx, stride};
}

/// A block of pointers `splat(base) + term + term`: the base and the terms.
bool matchPointers(Value p, Value &base, SmallVectorImpl<Term> &terms) {
  p = stripBroadcast(p);
  if (auto splat = p.getDefiningOp<SplatOp>()) {
    base = splat.getSrc();
    return true;
  }
  auto add = p.getDefiningOp<AddPtrOp>();
  if (!add)
    return false;
  std::optional<Term> t = matchTerm(add.getOffset());
  if (!t)
    return false;
  terms.push_back(*t);
  return matchPointers(add.getPtr(), base, terms);
}

/// Whether the row stride `v` spans a multiple of 16 bytes (TMA's rule) at
/// every launch the kernel accepts: a constant, or an argument whose
/// specialized divisibility does.
bool strideSpans16Bytes(func::FuncOp func, Value v, int64_t elemBytes) {
  std::optional<int64_t> source = hostSource(func, v);
  if (!source)
    return false;
  int64_t multiple = *source < 0 ? -*source : argDivisibility(func, func.getArgument(unsigned(*source)));
  return multiple && multiple * elemBytes % 16 == 0;
}

/// The rewrite of one operand load: the descriptor's fields and the load's offsets.
struct BoxLoad {
  LoadOp load;
  Value base, stride;          // row stride (i64)
  Value sizes[2];              // i32, by dimension of the loaded block
  Value starts[2];             // i32 or null (0), by dimension of the loaded block
  unsigned advancing = 0;      // the dimension k moves along
  unsigned contiguous = 1;     // the dimension whose elements are adjacent in memory
};

std::optional<BoxLoad> matchBoxLoad(func::FuncOp func, scf::ForOp loop, Value operand) {
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || load->getBlock() != loop.getBody() || !load->hasOneUse() || !load.getMask())
    return std::nullopt;
  if (!isZeroOrAbsent(load.getOther()))
    return std::nullopt;
  auto type = cast<RankedTensorType>(load.getType());
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  // The pointer: a loop-carried block, advanced by a constant along one dimension.
  auto arg = dyn_cast<BlockArgument>(load.getPtr());
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
    return std::nullopt;
  unsigned iterIdx = arg.getArgNumber() - 1;
  Value init = loop.getInitArgs()[iterIdx];
  BoxLoad box;
  box.load = load;
  SmallVector<Term> terms;
  if (!matchPointers(init, box.base, terms) || terms.size() != 2 || terms[0].idx.dim == terms[1].idx.dim)
    return std::nullopt;
  const Term &row = terms[0].idx.dim == 0 ? terms[0] : terms[1], &col = terms[0].idx.dim == 0 ? terms[1] : terms[0];
  // One dimension contiguous, the other's stride a value.
  if (bool(col.stride) == bool(row.stride))
    return std::nullopt;
  box.contiguous = col.stride ? 0 : 1;
  box.stride = col.stride ? col.stride : row.stride;
  int64_t baseAlign = argDivisibility(func, box.base); // pointers: bytes
  if (!baseAlign || baseAlign % 16 || !strideSpans16Bytes(func, box.stride, elemBytes))
    return std::nullopt;
  box.starts[0] = row.idx.start;
  box.starts[1] = col.idx.start;
  // The advance: STEP along the contiguous dimension (+ splat(STEP)) or the
  // strided one (+ splat(STEP * stride)).
  APInt step;
  if (pipelinableLoop(load, &step) != loop || !matchPattern(loop.getLowerBound(), m_Zero()))
    return std::nullopt;
  auto next = loop.getYieldedValues()[iterIdx].getDefiningOp<AddPtrOp>();
  if (!next || next.getPtr() != arg)
    return std::nullopt;
  auto advSplat = next.getOffset().getDefiningOp<SplatOp>();
  if (!advSplat)
    return std::nullopt;
  Value adv = advSplat.getSrc();
  APInt c;
  if (matchPattern(adv, m_ConstantInt(&c)) && c == step.sextOrTrunc(c.getBitWidth())) {
    box.advancing = box.contiguous;
  } else if (auto mul = adv.getDefiningOp<arith::MulIOp>()) {
    bool rows = false;
    for (auto [s, k] : {std::pair{mul.getLhs(), mul.getRhs()}, std::pair{mul.getRhs(), mul.getLhs()}})
      rows |= s == box.stride && matchPattern(k, m_ConstantInt(&c)) && c == step.sextOrTrunc(c.getBitWidth());
    if (!rows)
      return std::nullopt;
    box.advancing = 1 - box.contiguous;
  } else {
    return std::nullopt;
  }
  // The mask: idx < SIZE on the fixed dimension, idx < SIZE - k on the advancing one.
  SmallVector<Value> conds{load.getMask()};
  SmallVector<arith::CmpIOp> cmps;
  while (!conds.empty()) {
    Value m = stripBroadcast(conds.pop_back_val());
    if (auto andOp = m.getDefiningOp<arith::AndIOp>()) {
      conds.append({andOp.getLhs(), andOp.getRhs()});
    } else if (auto cmp = m.getDefiningOp<arith::CmpIOp>(); cmp && cmp.getPredicate() == arith::CmpIPredicate::slt) {
      cmps.push_back(cmp);
    } else {
      return std::nullopt;
    }
  }
  if (cmps.size() != 2)
    return std::nullopt;
  const Index *indices[2] = {&row.idx, &col.idx};
  for (arith::CmpIOp cmp : cmps) {
    std::optional<Index> idx = matchIndex(cmp.getLhs());
    auto bound = stripBroadcast(cmp.getRhs()).getDefiningOp<SplatOp>();
    if (!idx || !bound || idx->line != indices[idx->dim]->line || box.sizes[idx->dim])
      return std::nullopt;
    Value size = bound.getSrc();
    if (idx->dim == box.advancing) {
      auto sub = size.getDefiningOp<arith::SubIOp>();
      if (!sub || sub.getRhs() != loop.getInductionVar())
        return std::nullopt;
      size = sub.getLhs();
    }
    if (!hostSource(func, size))
      return std::nullopt;
    box.sizes[idx->dim] = size;
  }
  return box;
}

struct LoadsToTensorDescriptors : impl::BlkLoadsToTensorDescriptorsPassBase<LoadsToTensorDescriptors> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      SmallVector<DotOp> dots;
      func.walk([&](DotOp dot) { dots.push_back(dot); });
      for (DotOp dot : dots) {
        scf::ForOp loop = pipelinableLoop(dot);
        auto mma = dot.getMmaAttr();
        if (!loop || !mma || mma.getVersion() != 3)
          continue;
        std::optional<BoxLoad> a = matchBoxLoad(func, loop, dot.getA()), b = matchBoxLoad(func, loop, dot.getB());
        if (a && b && a->load != b->load) {
          rewrite(loop, *a);
          rewrite(loop, *b);
        }
      }
    });
  }

  void rewrite(scf::ForOp loop, BoxLoad box) {
    Location loc = box.load.getLoc();
    OpBuilder b(loop);
    auto type = cast<RankedTensorType>(box.load.getType());
    auto i32 = b.getI32Type(), i64 = b.getI64Type();
    Value stride = box.stride.getType() == i64 ? box.stride : arith::ExtSIOp::create(b, loc, i64, box.stride).getResult();
    Value one = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
    // The tensor's dimensions, outermost first, as dimensions of the loaded block.
    unsigned dims[2] = {1 - box.contiguous, box.contiguous};
    SmallVector<int64_t> boxShape{type.getDimSize(dims[0]), type.getDimSize(dims[1])};
    auto descType = TensorDescType::get(b.getContext(), boxShape, type.getElementType());
    Value desc = MakeTensorDescriptorOp::create(b, loc, descType, box.base,
                                                ValueRange{box.sizes[dims[0]], box.sizes[dims[1]]},
                                                ValueRange{stride, one});
    b.setInsertionPoint(box.load);
    SmallVector<Value> offsets;
    for (unsigned d : dims) {
      Value start = box.starts[d] ? box.starts[d] : arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)).getResult();
      Value iv = loop.getInductionVar();
      if (iv.getType() != i32)
        iv = arith::IndexCastOp::create(b, loc, i32, iv);
      offsets.push_back(d == box.advancing ? arith::AddIOp::create(b, loc, start, iv).getResult() : start);
    }
    Value loaded = DescriptorLoadOp::create(b, loc, RankedTensorType::get(boxShape, type.getElementType()), desc,
                                            offsets);
    if (box.contiguous == 0)
      loaded = TransOp::create(b, loc, type, loaded);
    box.load.replaceAllUsesWith(loaded);
    box.load.erase();
  }
};

} // namespace
} // namespace blk
