// The interpreter's engine: programs of the grid, regions and scf control
// flow, blk ops, checked memory.
#include "Executor.h"

#include "blk/Support/FloatBits.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include <algorithm>
#include <numeric>
#include <random>

using namespace mlir;

namespace blk::interp {

void Interpreter::addBuffer(void *data, size_t bytes) {
  buffers.push_back({uintptr_t(data), uintptr_t(data) + bytes});
}

LogicalResult Interpreter::run(StringRef kernel, std::array<unsigned, 3> grid, ArrayRef<Arg> args,
                               const RunOptions &options) {
  auto func = module.lookupSymbol<func::FuncOp>(kernel);
  if (!func || !func->hasAttr(kKernelAttr))
    return emitError(module.getLoc()) << "no kernel named '" << kernel << "'";
  // After the blk passes, TMA descriptors follow the runtime parameters;
  // the run builds them from the arguments as the host does.
  unsigned params = 0;
  while (params < func.getNumArguments() && !func.getArgAttr(params, kTmaBaseAttr))
    ++params;
  if (args.size() != params)
    return emitError(func.getLoc()) << "kernel '" << kernel << "' takes " << params << " arguments, got "
                                    << args.size();
  for (auto [idx, type] : llvm::enumerate(func.getArgumentTypes().take_front(params))) {
    Arg::Kind want = isa<PointerType>(type) ? Arg::Pointer : isa<FloatType>(type) ? Arg::Float : Arg::Int;
    if (args[idx].kind != want)
      return emitError(func.getLoc()) << "argument " << idx << " of kernel '" << kernel << "' must be "
                                      << (want == Arg::Pointer ? "a pointer" : want == Arg::Float ? "a float" : "an integer");
  }
  if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
    return emitError(func.getLoc()) << "empty grid";
  // Each element takes 8 bytes here: a block of hundreds of millions (a huge
  // BLOCK binding) would not fit in memory, an error rather than a crash.
  constexpr int64_t kMaxBlockElements = int64_t(1) << 24;
  if (!checkedKernels.contains(func)) {
    Operation *huge = nullptr;
    func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto block = dyn_cast<RankedTensorType>(t); block && !huge && block.getNumElements() > kMaxBlockElements)
          huge = op;
    });
    if (huge)
      return huge->emitError() << "a block of more than " << kMaxBlockElements
                               << " elements is too large for the interpreter: use smaller blocks";
    checkedKernels.insert(func);
  }
  std::vector<std::array<unsigned, 3>> programs;
  for (unsigned z = 0; z < grid[2]; ++z)
    for (unsigned y = 0; y < grid[1]; ++y)
      for (unsigned x = 0; x < grid[0]; ++x)
        programs.push_back({x, y, z});
  if (options.shuffle) {
    std::mt19937_64 rng(options.seed);
    std::shuffle(programs.begin(), programs.end(), rng);
  }
  for (const auto &pid : programs) {
    Executor exec(*this, options, pid, grid);
    if (failed(exec.runKernel(func, args)))
      return failure();
  }
  return success();
}

LogicalResult Executor::runKernel(func::FuncOp func, ArrayRef<Arg> args) {
  SmallVector<Tensor> argValues;
  for (auto [arg, type] : llvm::zip(args, func.getArgumentTypes().take_front(args.size()))) {
    Tensor t = Tensor::like(type, 1);
    if (arg.kind == Arg::Float)
      t.f[0] = roundTo(type, arg.f);
    else if (arg.kind == Arg::Pointer)
      t.i[0] = int64_t(uintptr_t(arg.ptr));
    else
      t.i[0] = wrapInt(type.getIntOrFloatBitWidth(), arg.i);
    argValues.push_back(std::move(t));
  }
  for (unsigned idx = args.size(); idx < func.getNumArguments(); ++idx)
    argValues.push_back(tmaDescriptor(func, idx, argValues));
  SmallVector<Tensor> ignored;
  if (failed(execBlock(func.getBody().front(), argValues, ignored)))
    return failure();
  // The GPU may still be reading a store's buffer when the kernel exits.
  if (!tmaStores.empty())
    return tmaStores.front().op->emitError() << "a TMA store is never waited for (blk.tma_store_wait) in "
                                             << programText();
  return success();
}

LogicalResult Executor::execBlock(Block &block, ArrayRef<Tensor> args, SmallVectorImpl<Tensor> &terminatorOperands) {
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, value);
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      terminatorOperands.clear();
      for (Value v : op.getOperands())
        terminatorOperands.push_back(get(v));
      return success();
    }
    if (failed(execOp(&op)))
      return failure();
  }
  return success();
}

static Tensor scalarInt(Type type, int64_t v) {
  Tensor t = Tensor::like(type, 1);
  t.i[0] = v;
  return t;
}

LogicalResult Executor::execReduce(ReduceOp op) {
  size_t n = op.getSrcs().size();
  // Copies: running the combiner adds values to `env`, which may move its entries.
  SmallVector<Tensor> srcs;
  for (Value v : op.getSrcs())
    srcs.push_back(get(v));
  AxisLines lines(srcs[0].shape, op.getAxis());
  SmallVector<Tensor> results;
  for (size_t k = 0; k < n; ++k)
    results.push_back(Tensor::like(op.getResult(k).getType(), size_t(lines.outer * lines.inner)));
  Block &body = op.getCombine().front();
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t in = 0; in < lines.inner; ++in) {
      // Left to right along the axis.
      SmallVector<Tensor> acc;
      for (size_t k = 0; k < n; ++k)
        acc.push_back(srcs[k].element(lines.at(o, 0, in)));
      for (int64_t j = 1; j < lines.len; ++j) {
        SmallVector<Tensor> args(acc);
        for (size_t k = 0; k < n; ++k)
          args.push_back(srcs[k].element(lines.at(o, j, in)));
        SmallVector<Tensor> combined;
        if (failed(execBlock(body, args, combined)))
          return failure();
        acc.assign(combined.begin(), combined.end());
      }
      for (size_t k = 0; k < n; ++k)
        results[k].copyElement(size_t(o * lines.inner + in), acc[k]);
    }
  for (size_t k = 0; k < n; ++k)
    set(op.getResult(k), std::move(results[k]));
  return success();
}

LogicalResult Executor::execScan(ScanOp op) {
  size_t n = op.getSrcs().size();
  SmallVector<Tensor> srcs; // copies: the combiner adds to `env`
  for (Value v : op.getSrcs())
    srcs.push_back(get(v));
  AxisLines lines(srcs[0].shape, op.getAxis());
  SmallVector<Tensor> outs(srcs);
  Block &body = op.getCombine().front();
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t in = 0; in < lines.inner; ++in)
      for (int64_t k = 1; k < lines.len; ++k) {
        // Left to right: out[j] = out[j - 1] op src[j]; reversed: out[j] = src[j] op out[j + 1].
        int64_t j = op.getReverse() ? lines.len - 1 - k : k, from = op.getReverse() ? j + 1 : j - 1;
        size_t prev = lines.at(o, from, in), cur = lines.at(o, j, in);
        SmallVector<Tensor> args, combined;
        for (size_t i = 0; i < n; ++i)
          args.push_back(op.getReverse() ? srcs[i].element(cur) : outs[i].element(prev));
        for (size_t i = 0; i < n; ++i)
          args.push_back(op.getReverse() ? outs[i].element(prev) : srcs[i].element(cur));
        if (failed(execBlock(body, args, combined)))
          return failure();
        for (size_t i = 0; i < n; ++i)
          outs[i].copyElement(cur, combined[i]);
      }
  for (size_t i = 0; i < n; ++i)
    set(op.getResult(i), std::move(outs[i]));
  return success();
}

LogicalResult Executor::execOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) -> LogicalResult {
        Type type = c.getType();
        size_t n = 1;
        if (auto r = dyn_cast<RankedTensorType>(type))
          n = r.getNumElements();
        Tensor t = Tensor::like(type, n);
        Attribute value = c.getValue();
        if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
          if (!dense.isSplat()) { // folded by the blk passes' canonicalizer
            size_t j = 0;
            for (Attribute e : dense.getValues<Attribute>()) {
              if (auto f = dyn_cast<FloatAttr>(e))
                t.f[j++] = f.getValueAsDouble();
              else
                t.i[j++] = wrapInt(t.elem.getIntOrFloatBitWidth(), cast<IntegerAttr>(e).getValue().getSExtValue());
            }
            set(c.getResult(), std::move(t));
            return success();
          }
          value = dense.getSplatValue<Attribute>();
        }
        if (auto f = dyn_cast<FloatAttr>(value))
          std::fill(t.f.begin(), t.f.end(), f.getValueAsDouble());
        else if (auto i = dyn_cast<IntegerAttr>(value))
          std::fill(t.i.begin(), t.i.end(), wrapInt(t.elem.getIntOrFloatBitWidth(), i.getValue().getSExtValue()));
        else
          return op->emitError("unsupported constant");
        set(c.getResult(), std::move(t));
        return success();
      })
      .Case<ProgramIdOp>([&](ProgramIdOp p) {
        set(p.getResult(), scalarInt(p.getType(), pid[p.getAxis()]));
        return success();
      })
      .Case<NumProgramsOp>([&](NumProgramsOp p) {
        set(p.getResult(), scalarInt(p.getType(), grid[p.getAxis()]));
        return success();
      })
      .Case<ArangeOp>([&](ArangeOp a) {
        Tensor t = Tensor::like(a.getType(), size_t(a.getEnd() - a.getStart()));
        std::iota(t.i.begin(), t.i.end(), int64_t(a.getStart()));
        set(a.getResult(), std::move(t));
        return success();
      })
      .Case<SplatOp>([&](SplatOp s) {
        const Tensor &src = get(s.getSrc());
        size_t n = s.getType().getNumElements();
        Tensor t = Tensor::like(s.getType(), n);
        if (t.isFloat())
          std::fill(t.f.begin(), t.f.end(), src.f[0]);
        else
          std::fill(t.i.begin(), t.i.end(), src.i[0]);
        set(s.getResult(), std::move(t));
        return success();
      })
      .Case<AddPtrOp>([&](AddPtrOp p) {
        Type pointee = cast<PointerType>(getElementTypeOrSelf(p.getType())).getPointeeType();
        int64_t bytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
        const Tensor &ptr = get(p.getPtr()), &off = get(p.getOffset());
        Tensor t = Tensor::like(p.getType(), ptr.size());
        for (size_t j = 0; j < t.i.size(); ++j)
          t.i[j] = int64_t(uint64_t(ptr.i[j]) + uint64_t(off.i[off.i.size() == 1 ? 0 : j] * bytes));
        set(p.getResult(), std::move(t));
        return success();
      })
      .Case<AssumeOp>([&](AssumeOp a) {
        set(a.getResult(), get(a.getSrc()));
        return success();
      })
      .Case<PtrToIntOp, IntToPtrOp>([&](Operation *cast) {
        Tensor t = get(cast->getOperand(0)); // pointers are their addresses already
        t.elem = getElementTypeOrSelf(cast->getResult(0).getType());
        set(cast->getResult(0), std::move(t));
        return success();
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp e) {
        Tensor t = get(e.getSrc()); // same elements, one more dimension of size 1
        t.shape.insert(t.shape.begin() + e.getAxis(), 1);
        set(e.getResult(), std::move(t));
        return success();
      })
      .Case<BroadcastOp>([&](BroadcastOp b) {
        const Tensor &src = get(b.getSrc());
        auto type = b.getType();
        Tensor t = Tensor::like(type, size_t(type.getNumElements()));
        size_t rank = t.shape.size();
        for (size_t flat = 0; flat < t.size(); ++flat) {
          // The source element: the same coordinates, 0 where the source has size 1.
          size_t rest = flat, srcFlat = 0, stride = 1;
          SmallVector<int64_t> coord(rank);
          for (size_t d = rank; d-- > 0;) {
            coord[d] = int64_t(rest % size_t(t.shape[d]));
            rest /= size_t(t.shape[d]);
          }
          for (size_t d = rank; d-- > 0;) {
            srcFlat += size_t(src.shape[d] == 1 ? 0 : coord[d]) * stride;
            stride *= size_t(src.shape[d]);
          }
          t.copyElement(flat, src, srcFlat);
        }
        set(b.getResult(), std::move(t));
        return success();
      })
      .Case<ConvertLayoutOp>([&](ConvertLayoutOp c) {
        set(c.getResult(), get(c.getSrc())); // layouts place elements; the values are the same
        return success();
      })
      .Case<ReshapeOp>([&](ReshapeOp r) {
        Tensor t = get(r.getSrc()); // row-major order is kept
        t.shape.assign(r.getType().getShape().begin(), r.getType().getShape().end());
        set(r.getResult(), std::move(t));
        return success();
      })
      .Case<TransOp>([&](TransOp tr) {
        const Tensor &src = get(tr.getSrc());
        int64_t rows = src.shape[0], cols = src.shape[1];
        Tensor t = Tensor::like(tr.getType(), src.size());
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j)
            t.copyElement(size_t(j * rows + i), src, size_t(i * cols + j));
        set(tr.getResult(), std::move(t));
        return success();
      })
      .Case<PermuteOp>([&](PermuteOp p) {
        const Tensor &src = get(p.getSrc());
        ArrayRef<int64_t> order = p.getOrder(), to = p.getType().getShape();
        Tensor t = Tensor::like(p.getType(), src.size());
        SmallVector<int64_t> srcStride(src.shape.size(), 1);
        for (size_t d = src.shape.size() - 1; d-- > 0;)
          srcStride[d] = srcStride[d + 1] * src.shape[d + 1];
        for (size_t flat = 0; flat < t.size(); ++flat) {
          // Result coordinate d is source coordinate order[d].
          size_t rest = flat, from = 0;
          for (size_t d = to.size(); d-- > 0;) {
            from += size_t(int64_t(rest % size_t(to[d])) * srcStride[order[d]]);
            rest /= size_t(to[d]);
          }
          t.copyElement(flat, src, from);
        }
        set(p.getResult(), std::move(t));
        return success();
      })
      .Case<GatherOp>([&](GatherOp g) { return execGather(g); })
      .Case<SortOp>([&](SortOp s) { return execSort(s); })
      .Case<DotOp>([&](DotOp d) {
        Tensor c = get(d.getAcc());
        multiplyAccumulate(get(d.getA()), get(d.getB()), c, d.getInputPrecision() == "tf32");
        set(d.getResult(), std::move(c));
        return success();
      })
      .Case<BarrierOp>([&](Operation *) { // order only: what threads wrote before it, all see after it
        unsynced.clear();
        readSinceSync.clear();
        return success();
      })
      .Case<WarpGroupTurnOp, SetMaxRegistersOp>([&](Operation *) { return success(); }) // order only, no values
      .Case<ProducerWarpOp>([&](ProducerWarpOp p) { // the scf.if on it runs both roles
        set(p.getResult(), scalarInt(p.getType(), 0));
        return success();
      })
      .Case<ReduceOp>([&](ReduceOp r) { return execReduce(r); })
      .Case<ScanOp>([&](ScanOp s) { return execScan(s); })
      .Case<LoadOp>([&](LoadOp l) { return execLoad(l); })
      .Case<StoreOp>([&](StoreOp s) { return execStore(s); })
      .Case<MakeTensorDescriptorOp>([&](MakeTensorDescriptorOp m) { return execMakeTensorDescriptor(m); })
      .Case<DescriptorLoadOp>([&](DescriptorLoadOp l) { return execDescriptorLoad(l); })
      .Case<DescriptorStoreOp>([&](DescriptorStoreOp s) { return execDescriptorStore(s); })
      .Case<AtomicRMWOp>([&](AtomicRMWOp a) { return execAtomicRMW(a); })
      .Case<AtomicCASOp>([&](AtomicCASOp a) { return execAtomicCAS(a); })
      .Case<AtomicLoadOp>([&](AtomicLoadOp a) { return execAtomicLoad(a); })
      .Case<AtomicStoreOp>([&](AtomicStoreOp a) { return execAtomicStore(a); })
      .Case<PrintOp>([&](PrintOp p) { return execPrint(p); })
      .Case<AssertOp>([&](AssertOp a) { return execAssert(a); })
      .Case<LLVM::AssumeOp>([&](LLVM::AssumeOp a) -> LogicalResult { // UB on the GPU; an error here
        if (!(get(a.getCond()).i[0] & 1))
          return op->emitError() << "assume's condition does not hold in " << programText();
        return success();
      })
      .Case<InlineAsmElementwiseOp>([&](InlineAsmElementwiseOp) -> LogicalResult {
        return op->emitError("inline_asm_elementwise runs PTX, which the interpreter cannot execute: run this "
                             "kernel on the GPU");
      })
      .Case<LocalAllocOp, LocalTransOp, LocalLoadOp, LocalStoreOp, AsyncCopyOp, AsyncCommitGroupOp, AsyncWaitOp,
            FenceAsyncSharedOp, WarpGroupDotOp, WarpGroupDotWaitOp, MBarrierAllocOp, MBarrierInvalOp, MBarrierWaitOp, MBarrierArriveOp,
            AsyncTMACopyOp, AsyncTMAStoreOp, TMAStoreWaitOp>([&](Operation *shared) { return execSharedOp(shared); })
      .Case<scf::ForOp>([&](scf::ForOp f) { return execFor(f); })
      .Case<scf::IfOp>([&](scf::IfOp i) { return execIf(i); })
      .Case<scf::WhileOp>([&](scf::WhileOp w) { return execWhile(w); })
      .Default([&](Operation *) -> LogicalResult {
        if (op->getNumResults() != 1 || op->getNumRegions() != 0)
          return op->emitError("the interpreter does not support '") << op->getName() << "'";
        SmallVector<const Tensor *> operands;
        for (Value v : op->getOperands())
          operands.push_back(&get(v));
        Tensor result;
        if (failed(evalElementwise(op, operands, result)))
          return failure();
        set(op->getResult(0), std::move(result));
        return success();
      });
}

LogicalResult Executor::execGather(GatherOp op) {
  const Tensor &src = get(op.getSrc()), &index = get(op.getIndex());
  unsigned axis = op.getAxis();
  Tensor t = Tensor::like(op.getType(), index.size());
  SmallVector<int64_t> srcStride(src.shape.size(), 1);
  for (size_t d = src.shape.size() - 1; d-- > 0;)
    srcStride[d] = srcStride[d + 1] * src.shape[d + 1];
  for (size_t flat = 0; flat < t.size(); ++flat) {
    // The index's coordinates, with the index itself along the axis.
    int64_t pick = index.i[flat];
    if (pick < 0 || pick >= src.shape[axis])
      return op->emitError() << "gather's index " << pick << " is outside [0, " << src.shape[axis] << ") of axis "
                             << axis << indexText(index, flat) << " in " << programText();
    size_t rest = flat, from = 0;
    for (size_t d = index.shape.size(); d-- > 0;) {
      int64_t c = int64_t(rest % size_t(index.shape[d]));
      rest /= size_t(index.shape[d]);
      from += size_t((d == axis ? pick : c) * srcStride[d]);
    }
    t.copyElement(flat, src, from);
  }
  set(op.getResult(), std::move(t));
  return success();
}

LogicalResult Executor::execFor(scf::ForOp op) {
  int64_t lb = get(op.getLowerBound()).i[0], ub = get(op.getUpperBound()).i[0], step = get(op.getStep()).i[0];
  SmallVector<Tensor> carried;
  for (Value v : op.getInitArgs())
    carried.push_back(get(v));
  if (step <= 0 && lb < ub)
    return op->emitError("loop step must be positive, got ") << step;
  Type ivType = op.getInductionVar().getType();
  for (int64_t iv = lb; iv < ub; iv += step) {
    SmallVector<Tensor> args{scalarInt(ivType, iv)};
    args.append(carried.begin(), carried.end());
    SmallVector<Tensor> next;
    if (failed(execBlock(*op.getBody(), args, next)))
      return failure();
    carried = std::move(next);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), carried))
    set(result, value);
  return success();
}

LogicalResult Executor::execIf(scf::IfOp op) {
  if (op.getCondition().getDefiningOp<ProducerWarpOp>())
    return startProducer(op);
  bool cond = get(op.getCondition()).i[0] & 1;
  Region &region = cond ? op.getThenRegion() : op.getElseRegion();
  SmallVector<Tensor> results;
  if (!region.empty() && failed(execBlock(region.front(), {}, results)))
    return failure();
  for (auto [result, value] : llvm::zip(op.getResults(), results))
    set(result, value);
  return success();
}

LogicalResult Executor::execWhile(scf::WhileOp op) {
  SmallVector<Tensor> carried;
  for (Value v : op.getInits())
    carried.push_back(get(v));
  while (true) {
    SmallVector<Tensor> condOperands;
    if (failed(execBlock(op.getBefore().front(), carried, condOperands)))
      return failure();
    bool cond = condOperands[0].i[0] & 1;
    SmallVector<Tensor> passed(condOperands.begin() + 1, condOperands.end());
    if (!cond) {
      for (auto [result, value] : llvm::zip(op.getResults(), passed))
        set(result, value);
      return success();
    }
    if (failed(execBlock(op.getAfter().front(), passed, carried)))
      return failure();
  }
}

bool Executor::inBounds(int64_t addr, size_t bytes) const {
  uintptr_t a = uintptr_t(addr);
  for (const auto &r : interp.buffers)
    if (a >= r.begin && a + bytes <= r.end)
      return true;
  return false;
}

std::string Executor::coordText(const Tensor &t, size_t flat) {
  SmallVector<int64_t> coord(t.shape.size());
  for (size_t d = t.shape.size(); d-- > 0;) {
    coord[d] = int64_t(flat) % t.shape[d];
    flat /= size_t(t.shape[d]);
  }
  std::string s = "(";
  for (size_t d = 0; d < coord.size(); ++d)
    s += (d ? ", " : "") + std::to_string(coord[d]);
  return s + ")";
}

std::string Executor::indexText(const Tensor &t, size_t flat) {
  return t.shape.empty() ? "" : " at index " + coordText(t, flat);
}

std::string Executor::programText() const {
  return "program (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " + std::to_string(pid[2]) + ")";
}

LogicalResult Executor::execPrint(PrintOp op) {
  llvm::raw_ostream &os = *options.printStream;
  std::string head = "pid (" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " + std::to_string(pid[2]) + ") ";
  if (op.getArgs().empty())
    os << head << op.getPrefix() << "\n";
  for (auto [index, v] : llvm::enumerate(op.getArgs())) {
    const Tensor &t = get(v);
    bool isUnsigned = op.isUnsignedArg(index);
    unsigned bits = isUnsigned ? getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() : 64;
    for (size_t j = 0; j < t.size(); ++j) {
      os << head;
      if (!t.shape.empty())
        os << "idx " << coordText(t, j) << " ";
      os << op.getPrefix();
      if (t.isFloat())
        os << llvm::format("%f", t.f[j]);
      else if (isa<PointerType>(t.elem))
        os << "0x" << llvm::utohexstr(uint64_t(t.i[j]));
      else if (isUnsigned)
        os << (uint64_t(t.i[j]) & (bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1));
      else
        os << t.i[j];
      os << "\n";
    }
  }
  os.flush();
  return success();
}

LogicalResult Executor::execAssert(AssertOp op) {
  const Tensor &c = get(op.getCondition());
  for (size_t j = 0; j < c.i.size(); ++j)
    if (!(c.i[j] & 1))
      return op.emitError() << "device_assert failed in " << programText() << indexText(c, j) << ": "
                            << op.getMessage();
  return success();
}

} // namespace blk::interp
