// Operand loads of a wgmma dot in a loop, recognized as boxes of a strided
// tensor and rewritten as tensor-descriptor loads, so that pointer loads get
// TMA as descriptor loads do. Two forms: the Triton-tutorial matmul's
// (pointers made before the loop, advanced by a constant each iteration,
// masked by `idx < SIZE - k`), and pointers computed in the loop from its
// index (attention's `K + cols[None, :] * stride + offs_d[:, None]`, masked
// by `cols < SIZE`). The base may be an argument moved by program-uniform
// i32 indices times strides (`K + b * stride_b + h * stride_h`): each such
// term becomes a leading dimension of the tensor map, of block size 1. A
// box whose contiguous run goes down its columns (an operand transposed
// through its strides, such as `W + rk[:, None] + rn[None, :] * stride` for
// X @ W^T) becomes a load of the transposed box followed by `trans`, which
// the ring reads through a transposed view. A dot's loads in the loop are
// rewritten all or none, and a load several dots read (as is or through
// `trans`) with all of them; anything else keeps its pointer loads. As in the
// tutorial form, indices are taken to be non-negative (the descriptor reads
// zeros below 0, where the pointers would read before the base).
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

/// An index line `splat(start) + arange(0, n)` or `arange(0, n)` (start
/// null), maybe widened by extsi: the line as built, its start and n.
struct Line {
  Value line, start;
  int64_t n;
};
std::optional<Line> lineParts(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtSIOp>())
    v = ext.getIn();
  auto range = [](Value x) -> std::optional<int64_t> {
    auto r = x.getDefiningOp<ArangeOp>();
    if (!r || r.getStart() != 0)
      return std::nullopt;
    return int64_t(r.getEnd());
  };
  if (auto n = range(v))
    return Line{v, Value(), *n};
  if (auto add = v.getDefiningOp<arith::AddIOp>())
    for (auto [x, y] : {std::pair{add.getLhs(), add.getRhs()}, std::pair{add.getRhs(), add.getLhs()}})
      if (auto splat = x.getDefiningOp<SplatOp>())
        if (auto n = range(y))
          return Line{v, splat.getSrc(), *n};
  return std::nullopt;
}

/// Folds a uniform addend into an index line's start: `(splat(a) +
/// arange(0, n)) + splat(b)` becomes `splat(a + b) + arange(0, n)` (and
/// `- splat(b)`, `splat(a - b)`), so that a line shifted by a block (`cols -
/// BLOCK_N`: the previous block's keys) is a line as lineParts reads it.
/// One scalar add instead of a vector one.
void foldLineStarts(func::FuncOp func) {
  func.walk([](Operation *op) {
    if (!isa<arith::AddIOp, arith::SubIOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || type.getRank() != 1)
      return;
    bool sub = isa<arith::SubIOp>(op);
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    for (auto [x, y] : {std::pair{lhs, rhs}, std::pair{rhs, lhs}}) {
      auto shift = y.getDefiningOp<SplatOp>();
      std::optional<Line> line = lineParts(x);
      if (!shift || !line || !line->start || x != line->line || (sub && x != lhs))
        continue;
      OpBuilder b(op);
      Location loc = op->getLoc();
      auto lineAdd = x.getDefiningOp<arith::AddIOp>();
      Value range = lineAdd.getLhs().getDefiningOp<SplatOp>() ? lineAdd.getRhs() : lineAdd.getLhs();
      Value start = sub ? arith::SubIOp::create(b, loc, line->start, shift.getSrc()).getResult()
                        : arith::AddIOp::create(b, loc, line->start, shift.getSrc()).getResult();
      Value splat = SplatOp::create(b, loc, type, start);
      op->getResult(0).replaceAllUsesWith(arith::AddIOp::create(b, loc, splat, range).getResult());
      op->erase();
      return;
    }
  });
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
  std::optional<Line> line = lineParts(expand.getSrc()); // through extsi: `rows[None, :]` of an i64 line
  if (!line)
    return std::nullopt;
  return Index{line->line, line->start, expand.getAxis() == 1 ? 0u : 1u};
}

/// Whether two index lines hold the same values: one value, or both
/// `splat(s) + arange(0, n)` (or `arange(0, n)`) of the same s and n, as a
/// source that writes `(k + offs)` twice gives before CSE.
bool sameLine(Value a, Value b) {
  if (a == b)
    return true;
  std::optional<Line> la = lineParts(a), lb = lineParts(b);
  return la && lb && la->n == lb->n && la->start == lb->start;
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

/// Whether the host supplies `v` as a 32-bit size: an i32 argument, or a
/// constant that fits (a mask's bound on an i64 line may be neither).
bool hostSize(func::FuncOp func, Value v) {
  std::optional<int64_t> source = hostSource(func, v);
  if (!source)
    return false;
  if (*source < 0)
    return -*source <= std::numeric_limits<int32_t>::max();
  return func.getArgument(unsigned(*source)).getType().isInteger(32);
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

/// A leading dimension of a batched tensor: the base moved by `coord`
/// (i32, sign-extended into the product) times `stride` (i64).
struct BatchTerm {
  Value coord, stride;
};

/// A scalar pointer `arg + x * s + y * t ...` (at most three terms, each an
/// i32 index sign-extended, times a stride): the argument and the terms,
/// outermost first as written.
bool matchBatchedBase(Value base, Value &arg, SmallVectorImpl<BatchTerm> &terms) {
  while (auto add = base.getDefiningOp<AddPtrOp>()) {
    auto mul = add.getOffset().getDefiningOp<arith::MulIOp>();
    if (isa<RankedTensorType>(add.getType()) || !mul)
      return false;
    bool found = false;
    for (auto [x, s] : {std::pair{mul.getLhs(), mul.getRhs()}, std::pair{mul.getRhs(), mul.getLhs()}})
      if (auto ext = x.getDefiningOp<arith::ExtSIOp>(); !found && ext && ext.getIn().getType().isInteger(32)) {
        terms.insert(terms.begin(), BatchTerm{ext.getIn(), s});
        found = true;
      }
    if (!found)
      return false;
    base = add.getPtr();
  }
  arg = base;
  return terms.size() <= 3; // TMA's tensor maps have 5 dimensions
}

/// The rewrite of one operand load: the descriptor's fields and the load's offsets.
struct BoxLoad {
  LoadOp load;
  Value base, stride;          // row stride (i64)
  Value sizes[2];              // i32, by dimension of the loaded block
  Value starts[2];             // i32 or null (0), by dimension of the loaded block
  std::optional<unsigned> advancing; // the dimension k moves along (the tutorial form)
  unsigned contiguous = 1;     // the dimension whose elements are adjacent in memory
  SmallVector<BatchTerm> batch;
};

/// The row and column terms of a box's pointers, the base split into its
/// argument and batch terms, the contiguous dimension and the row stride:
/// false unless the base is a 16-byte aligned argument and every stride
/// spans 16 bytes.
bool matchBoxPointers(func::FuncOp func, Value ptrs, int64_t elemBytes, BoxLoad &box, Term &row, Term &col) {
  SmallVector<Term> terms;
  Value base;
  if (!matchPointers(ptrs, base, terms) || terms.size() != 2 || terms[0].idx.dim == terms[1].idx.dim)
    return false;
  row = terms[0].idx.dim == 0 ? terms[0] : terms[1];
  col = terms[0].idx.dim == 0 ? terms[1] : terms[0];
  // One dimension contiguous, the other's stride a value.
  if (bool(col.stride) == bool(row.stride))
    return false;
  box.contiguous = col.stride ? 0 : 1;
  box.stride = col.stride ? col.stride : row.stride;
  if (!matchBatchedBase(base, box.base, box.batch))
    return false;
  int64_t baseAlign = argDivisibility(func, box.base); // pointers: bytes
  if (!baseAlign || baseAlign % 16 || !strideSpans16Bytes(func, box.stride, elemBytes))
    return false;
  for (const BatchTerm &t : box.batch)
    if (!strideSpans16Bytes(func, t.stride, elemBytes))
      return false;
  box.starts[0] = row.idx.start;
  box.starts[1] = col.idx.start;
  return true;
}

/// The compares of a load's mask, `line < splat(bound)` on a 2-D block or
/// on a 1-D line expanded into it, anded together: each with its index
/// (through matchIndex) and bound. False for anything else.
bool maskCompares(Value mask, SmallVectorImpl<std::pair<Index, Value>> &out) {
  SmallVector<Value> conds{mask};
  while (!conds.empty()) {
    Value m = stripBroadcast(conds.pop_back_val());
    if (auto andOp = m.getDefiningOp<arith::AndIOp>()) {
      conds.append({andOp.getLhs(), andOp.getRhs()});
      continue;
    }
    // `ok[None, :]` of a 1-D compare: the compare's line along the expanded dimension.
    std::optional<unsigned> lineDim;
    if (auto expand = m.getDefiningOp<ExpandDimsOp>();
        expand && cast<RankedTensorType>(expand.getType()).getRank() == 2) {
      lineDim = expand.getAxis() == 1 ? 0 : 1;
      m = expand.getSrc();
    }
    auto cmp = m.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt)
      return false;
    auto bound = stripBroadcast(cmp.getRhs()).getDefiningOp<SplatOp>();
    if (!bound)
      return false;
    std::optional<Index> idx;
    if (!lineDim) {
      idx = matchIndex(cmp.getLhs());
    } else if (std::optional<Line> line = lineParts(cmp.getLhs())) {
      idx = Index{line->line, line->start, *lineDim};
    }
    if (!idx)
      return false;
    out.push_back({*idx, bound.getSrc()});
  }
  return true;
}

std::optional<BoxLoad> matchBoxLoad(func::FuncOp func, scf::ForOp loop, Value operand) {
  auto load = operand.getDefiningOp<LoadOp>();
  if (!load || !load.getMask())
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
  Term row, col;
  if (!matchBoxPointers(func, init, elemBytes, box, row, col))
    return std::nullopt;
  // The advance: STEP along the contiguous dimension (+ splat(STEP)) or the
  // strided one (+ splat(STEP * stride)).
  APInt step;
  if (pipelinableLoop(load) != loop || !matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !matchPattern(loop.getLowerBound(), m_Zero()))
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
  SmallVector<std::pair<Index, Value>> cmps;
  if (!maskCompares(load.getMask(), cmps) || cmps.size() != 2)
    return std::nullopt;
  const Index *indices[2] = {&row.idx, &col.idx};
  for (auto &[idx, bound] : cmps) {
    if (!sameLine(idx.line, indices[idx.dim]->line) || box.sizes[idx.dim])
      return std::nullopt;
    Value size = bound;
    if (idx.dim == *box.advancing) {
      auto sub = size.getDefiningOp<arith::SubIOp>();
      if (!sub || sub.getRhs() != loop.getInductionVar())
        return std::nullopt;
      size = sub.getLhs();
    }
    if (!hostSize(func, size))
      return std::nullopt;
    box.sizes[idx.dim] = size;
  }
  return box;
}

/// A load whose pointers the loop computes each iteration: `base + row
/// term + column term` with lines such as `start_n + arange(0, BLOCK_N)`
/// (start from the loop index or before the loop), masked by `line < SIZE`
/// along any of its dimensions. A dimension without a mask is read whole:
/// its size is the block's when it starts at 0, unbounded otherwise.
std::optional<BoxLoad> matchComputedBoxLoad(func::FuncOp func, scf::ForOp loop, LoadOp load) {
  if (!isZeroOrAbsent(load.getOther()) || pipelinableLoop(load) != loop)
    return std::nullopt;
  auto type = cast<RankedTensorType>(load.getType());
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  BoxLoad box;
  box.load = load;
  Term row, col;
  if (!matchBoxPointers(func, load.getPtr(), elemBytes, box, row, col))
    return std::nullopt;
  const Index *indices[2] = {&row.idx, &col.idx};
  SmallVector<std::pair<Index, Value>> cmps;
  if (load.getMask() && !maskCompares(load.getMask(), cmps))
    return std::nullopt;
  for (auto &[idx, bound] : cmps) {
    if (!sameLine(idx.line, indices[idx.dim]->line) || box.sizes[idx.dim] || !hostSize(func, bound))
      return std::nullopt;
    box.sizes[idx.dim] = bound;
  }
  return box;
}

/// A dot operand's load in `loop` as a box, in either form.
std::optional<BoxLoad> matchOperandLoad(func::FuncOp func, scf::ForOp loop, LoadOp load) {
  if (load->getBlock() != loop.getBody())
    return std::nullopt;
  if (isa<BlockArgument>(load.getPtr()))
    return matchBoxLoad(func, loop, load.getResult());
  return matchComputedBoxLoad(func, loop, load);
}

struct LoadsToTensorDescriptors : impl::BlkLoadsToTensorDescriptorsPassBase<LoadsToTensorDescriptors> {
  using Base::Base;

  /// The load a dot operand reads, as is or through a `trans`.
  static LoadOp operandLoad(Value operand) { return throughTrans(operand).getDefiningOp<LoadOp>(); }

  /// A wgmma dot of a loop and its operands' loads in that loop.
  struct Candidate {
    DotOp dot;
    scf::ForOp loop;
    SmallVector<LoadOp, 2> loads;
  };

  /// Whether every use of `load` is an A or B operand of a candidate dot
  /// that lists it, as is or through a `trans` that only such operands use
  /// (one ring then serves every dot that reads the tile, as laid out or
  /// transposed).
  static bool onlyCandidateOperands(LoadOp load, ArrayRef<Candidate> candidates) {
    return onlyDotOperands(load, [&](DotOp dot) {
      return llvm::any_of(candidates,
                          [&](const Candidate &c) { return c.dot == dot && llvm::is_contained(c.loads, load); });
    });
  }

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      foldLineStarts(func);
      SmallVector<DotOp> dots;
      func.walk([&](DotOp dot) { dots.push_back(dot); });
      SmallVector<Candidate> candidates;
      for (DotOp dot : dots) {
        scf::ForOp loop = pipelinableLoop(dot);
        auto mma = dot.getMmaAttr();
        if (!loop || !mma || mma.getVersion() != 3)
          continue;
        // Not beside a B computed in the loop: wgmma reads it from shared
        // memory where it is stored each iteration behind a barrier of all
        // threads, which TMA for A does not speed up (slower on the H200:
        // docs/performance.md, dot stress).
        LoadOp bLoad = operandLoad(dot.getB());
        if ((!bLoad || bLoad->getParentRegion() != &loop.getRegion()) && !loop.isDefinedOutsideOfLoop(dot.getB()))
          continue;
        Candidate c{dot, loop, {}};
        for (Value operand : {dot.getA(), dot.getB()})
          if (LoadOp load = operandLoad(operand); load && load->getParentRegion() == &loop.getRegion())
            c.loads.push_back(load);
        // One tile as both operands keeps its pointer loads (and so does the
        // dot's other reader of it, which then fails onlyCandidateOperands).
        if (c.loads.size() == 2 && c.loads[0] == c.loads[1])
          continue;
        if (!c.loads.empty())
          candidates.push_back(std::move(c));
      }
      // Every load a candidate reads in its loop must be a box read only by
      // candidates' operands; else none of that dot's loads is rewritten,
      // nor those of the dots sharing them (to a fixed point).
      llvm::MapVector<Operation *, BoxLoad> boxes;
      llvm::DenseSet<Operation *> rejected;
      for (const Candidate &c : candidates)
        for (LoadOp load : c.loads) {
          if (boxes.count(load) || rejected.count(load))
            continue;
          std::optional<BoxLoad> box = matchOperandLoad(func, c.loop, load);
          if (box && onlyCandidateOperands(load, candidates))
            boxes.insert({load, *box});
          else
            rejected.insert(load);
        }
      for (bool changed = true; changed;) {
        changed = false;
        for (const Candidate &c : candidates)
          if (llvm::any_of(c.loads, [&](LoadOp l) { return rejected.count(l); }))
            for (LoadOp l : c.loads)
              changed |= rejected.insert(l).second;
      }
      for (auto &[load, box] : boxes)
        if (!rejected.count(load))
          rewrite(pipelinableLoop(box.load), box);
    });
  }

  void rewrite(scf::ForOp loop, BoxLoad box) {
    Location loc = box.load.getLoc();
    OpBuilder b(loop);
    auto type = cast<RankedTensorType>(box.load.getType());
    auto i32 = b.getI32Type(), i64 = b.getI64Type();
    // A size or stride as the host supplies it, made before the loop (the
    // frontend puts a constant where it is used, maybe inside the loop).
    auto func = loop->getParentOfType<func::FuncOp>();
    auto hostValue = [&](Value v, Type type) -> Value {
      int64_t source = *hostSource(func, v);
      Value host = source >= 0 ? Value(func.getArgument(unsigned(source)))
                               : arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, -source)).getResult();
      return host.getType() == type ? host : arith::ExtSIOp::create(b, loc, type, host).getResult();
    };
    auto toI64 = [&](Value v) { return hostValue(v, i64); };
    // The tensor's dimensions, outermost first: the batch terms', then the
    // loaded block's (the strided one, then the contiguous one).
    unsigned dims[2] = {1 - box.contiguous, box.contiguous};
    SmallVector<int64_t> boxShape{type.getDimSize(dims[0]), type.getDimSize(dims[1])};
    SmallVector<int64_t> blockShape(box.batch.size(), 1);
    blockShape.append(boxShape);
    SmallVector<Value> sizes, strides;
    for (const BatchTerm &t : box.batch) {
      // The program's own index, never outside.
      sizes.push_back(arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(std::numeric_limits<int32_t>::max())));
      strides.push_back(toI64(t.stride));
    }
    // A dimension without a mask is read whole: the block's size from 0,
    // unbounded from elsewhere.
    for (unsigned d : dims) {
      int64_t whole = box.starts[d] ? std::numeric_limits<int32_t>::max() : type.getDimSize(d);
      sizes.push_back(box.sizes[d] ? hostValue(box.sizes[d], i32)
                                   : arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(whole))).getResult());
    }
    strides.append({toI64(box.stride), arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1))});
    auto descType = TensorDescType::get(b.getContext(), blockShape, type.getElementType());
    Value desc = MakeTensorDescriptorOp::create(b, loc, descType, box.base, sizes, strides);
    b.setInsertionPoint(box.load);
    SmallVector<Value> offsets;
    for (const BatchTerm &t : box.batch)
      offsets.push_back(t.coord);
    for (unsigned d : dims) {
      Value start = box.starts[d] ? box.starts[d] : arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)).getResult();
      if (box.advancing && d == *box.advancing) {
        Value iv = loop.getInductionVar();
        if (iv.getType() != i32)
          iv = arith::IndexCastOp::create(b, loc, i32, iv);
        start = arith::AddIOp::create(b, loc, start, iv);
      }
      offsets.push_back(start);
    }
    Value loaded = DescriptorLoadOp::create(b, loc, RankedTensorType::get(boxShape, type.getElementType()), desc,
                                            offsets);
    if (box.contiguous == 0) {
      // A reader of the tile through `trans` reads the box as loaded.
      for (Operation *user : llvm::make_early_inc_range(box.load->getUsers()))
        if (auto trans = dyn_cast<TransOp>(user)) {
          trans.replaceAllUsesWith(loaded);
          trans.erase();
        }
      if (!box.load->use_empty())
        loaded = TransOp::create(b, loc, type, loaded);
    }
    box.load.replaceAllUsesWith(loaded);
    box.load.erase();
  }
};

} // namespace
} // namespace blk
