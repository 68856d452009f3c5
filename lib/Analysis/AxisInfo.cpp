#include "blk/Analysis/AxisInfo.h"

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include <numeric>

using namespace mlir;

namespace blk {

static unsigned rankOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return std::max<unsigned>(1, tensor.getRank());
  return 1;
}

static int64_t sizeOf(Type t, unsigned d) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return tensor.getRank() ? tensor.getShape()[d] : 1;
  return 1;
}

static int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }
static int64_t highestPow2Divisor(int64_t v) {
  if (v == 0)
    return kMaxDivisibility;
  return std::min<int64_t>(kMaxDivisibility, v & -v);
}

/// The divisibility of an operand's every element, when the result no longer
/// has the operand's runs: [2^n, 2^n+1, ...] is then only divisible by 1.
static int64_t runDivisibility(const AxisInfo &operand, int64_t resultContiguity, unsigned d) {
  return operand.contiguity[d] > resultContiguity ? 1 : operand.divisibility[d];
}

/// Whether every element of `v` is known to be non-negative (offsets are
/// assumed not to wrap, as contiguity assumes): the cases that make signed
/// division round like floor division.
static bool knownNonNegative(Value v, int depth = 0) {
  if (depth > 8)
    return false;
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return !value.isNegative();
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<ArangeOp, ProgramIdOp>(def))
    return true;
  if (isa<arith::ExtUIOp>(def))
    return true;
  if (isa<SplatOp, ExpandDimsOp, BroadcastOp, ConvertLayoutOp, TransOp, arith::ExtSIOp>(def))
    return knownNonNegative(def->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::MulIOp, arith::DivSIOp, arith::ShRSIOp>(def))
    return knownNonNegative(def->getOperand(0), depth + 1) && knownNonNegative(def->getOperand(1), depth + 1);
  return false;
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  AxisInfo info;
  info.contiguity.assign(rank, 1);
  info.divisibility.assign(rank, 1);
  info.constancy.assign(rank, 1);
  return info;
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](ArrayRef<int64_t> v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "contiguity = ";
  list(contiguity);
  os << ", divisibility = ";
  list(divisibility);
  os << ", constancy = ";
  list(constancy);
  if (constant)
    os << ", constant = " << *constant;
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo out = a;
  for (unsigned d = 0; d < a.rank(); ++d) {
    out.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    out.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  if (a.constant != b.constant)
    out.constant.reset();
  return out;
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  for (Region &region : root->getRegions())
    for (Block &block : region)
      visitBlock(block);
}

void AxisInfoAnalysis::visitBlock(Block &block) {
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      visitLoop(loop);
      continue;
    }
    visit(&op);
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        visitBlock(nested);
  }
}

void AxisInfoAnalysis::visitLoop(scf::ForOp loop) {
  visit(loop);
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  for (auto [arg, init] : llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs())) {
    AxisInfo info = get(init);
    infos[arg] = std::move(info);
  }
  auto analyseBody = [&] {
    body->walk([&](Operation *op) {
      for (Value r : op->getResults())
        infos.erase(r);
    });
    visitBlock(*body);
  };
  // Joins only lose facts (gcds), so this settles within a few rounds; a
  // loop that does not is taken as knowing nothing about its carried values.
  bool settled = false;
  for (int round = 0; round < 4 && !settled; ++round) {
    analyseBody();
    settled = true;
    for (auto [arg, next] : llvm::zip(loop.getRegionIterArgs(), yield->getOperands())) {
      AxisInfo yielded = get(next);
      AxisInfo joined = AxisInfo::join(infos[arg], yielded);
      if (!(joined == infos[arg])) {
        infos[arg] = joined;
        settled = false;
      }
    }
  }
  if (!settled) {
    for (Value arg : loop.getRegionIterArgs())
      infos[arg] = AxisInfo::unknown(rankOf(arg.getType()));
    analyseBody();
  }
  for (auto [result, arg] : llvm::zip(loop.getResults(), loop.getRegionIterArgs())) {
    AxisInfo info = infos[arg];
    infos[result] = std::move(info);
  }
}

AxisInfo AxisInfoAnalysis::get(Value v) {
  auto it = infos.find(v);
  if (it != infos.end())
    return it->second;
  AxisInfo info = AxisInfo::unknown(rankOf(v.getType()));
  // Function arguments: what the caller's specialization promises.
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto func = dyn_cast<func::FuncOp>(parent)) {
      if (auto div = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), kDivisibilityAttr))
        info.divisibility[0] = div.getInt();
    } else if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (arg == loop.getInductionVar()) {
        AxisInfo lb = get(loop.getLowerBound());
        AxisInfo step = get(loop.getStep());
        info.divisibility[0] = gcd(lb.divisibility[0], step.divisibility[0]);
      }
    }
  }
  return infos[v] = info;
}

void AxisInfoAnalysis::visit(Operation *op) {
  for (Value result : op->getResults()) {
    AxisInfo info = compute(op, result);
    infos[result] = std::move(info);
  }
}

AxisInfo AxisInfoAnalysis::compute(Operation *op, Value result) {
  unsigned rank = rankOf(result.getType());
  AxisInfo out = AxisInfo::unknown(rank);
  auto binary = [&](auto fn) {
    const AxisInfo lhs = get(op->getOperand(0));
    const AxisInfo rhs = get(op->getOperand(1));
    for (unsigned d = 0; d < rank; ++d)
      fn(d, lhs, rhs);
  };
  // Elementwise ops keep runs of equal inputs equal.
  auto elementwiseConstancy = [&]() {
    for (unsigned d = 0; d < rank; ++d) {
      int64_t c = sizeOf(result.getType(), d);
      for (Value operand : op->getOperands())
        c = gcd(c, get(operand).constancy[d]);
      out.constancy[d] = c;
    }
  };

  llvm::TypeSwitch<Operation *>(op)
      .Case<arith::ConstantOp>([&](arith::ConstantOp c) {
        APInt value;
        if (matchPattern(c.getResult(), m_ConstantInt(&value))) {
          int64_t v = value.getSExtValue();
          out.constant = v;
          for (unsigned d = 0; d < rank; ++d) {
            out.divisibility[d] = highestPow2Divisor(v);
            out.constancy[d] = sizeOf(result.getType(), d);
          }
        } else {
          for (unsigned d = 0; d < rank; ++d)
            out.constancy[d] = sizeOf(result.getType(), d);
        }
      })
      .Case<ArangeOp>([&](ArangeOp a) {
        out.contiguity[0] = a.getEnd() - a.getStart();
        out.divisibility[0] = highestPow2Divisor(a.getStart());
      })
      .Case<SplatOp>([&](SplatOp s) {
        const AxisInfo src = get(s.getSrc());
        out.constant = src.constant;
        for (unsigned d = 0; d < rank; ++d) {
          out.divisibility[d] = src.divisibility[0];
          out.constancy[d] = sizeOf(result.getType(), d);
        }
      })
      .Case<ExpandDimsOp>([&](ExpandDimsOp e) {
        // The new dimension has size 1: runs of one element, constant. Each
        // element is such a run, so it is divisible by what divides every
        // element of the source: of a contiguous run [2^n, 2^n + 1, ...]
        // only the first is divisible by 2^n.
        const AxisInfo src = get(e.getSrc());
        out = src;
        int64_t every = src.constant ? highestPow2Divisor(*src.constant)
                        : src.divisibility.empty() ? 1
                                                   : kMaxDivisibility;
        if (!src.constant)
          for (unsigned d = 0; d < src.divisibility.size(); ++d)
            every = gcd(every, src.contiguity[d] > 1 ? 1 : src.divisibility[d]);
        unsigned axis = e.getAxis();
        out.contiguity.insert(out.contiguity.begin() + axis, 1);
        out.divisibility.insert(out.divisibility.begin() + axis, every);
        out.constancy.insert(out.constancy.begin() + axis, 1);
      })
      .Case<TransOp>([&](TransOp t) {
        // A 2-D transpose: what held along one dimension holds along the other.
        out = get(t.getSrc());
        std::reverse(out.contiguity.begin(), out.contiguity.end());
        std::reverse(out.divisibility.begin(), out.divisibility.end());
        std::reverse(out.constancy.begin(), out.constancy.end());
      })
      .Case<ConvertLayoutOp>([&](ConvertLayoutOp c) { out = get(c.getSrc()); })
      .Case<BroadcastOp>([&](BroadcastOp b) {
        const AxisInfo src = get(b.getSrc());
        auto from = b.getSrc().getType().getShape(), to = b.getType().getShape();
        out = src;
        for (unsigned d = 0; d < rank; ++d)
          if (from[d] == 1 && to[d] != 1) { // repeated: constant along d
            out.contiguity[d] = 1;
            out.constancy[d] = to[d];
          }
      })
      .Case<AssumeOp>([&](AssumeOp a) {
        out = get(a.getSrc());
        if (auto div = a.getDivisibility())
          out.divisibility[rank - 1] = std::max(out.divisibility[rank - 1], int64_t(*div));
        if (auto contig = a.getContiguity())
          out.contiguity[rank - 1] = std::max(out.contiguity[rank - 1], int64_t(*contig));
        if (auto constancy = a.getConstancy())
          out.constancy[rank - 1] = std::max(out.constancy[rank - 1], int64_t(*constancy));
      })
      .Case<AddPtrOp>([&](AddPtrOp p) {
        auto pointee = cast<PointerType>(getElementTypeOrSelf(p.getType())).getPointeeType();
        int64_t elemBytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
        binary([&](unsigned d, const AxisInfo &ptr, const AxisInfo &off) {
          out.contiguity[d] = std::max(gcd(ptr.contiguity[d], off.constancy[d]),
                                       gcd(ptr.constancy[d], off.contiguity[d]));
          int64_t c = out.contiguity[d];
          out.divisibility[d] = gcd(runDivisibility(ptr, c, d),
                                    std::min(kMaxDivisibility, runDivisibility(off, c, d) * elemBytes));
          out.constancy[d] = gcd(ptr.constancy[d], off.constancy[d]);
        });
      })
      .Case<arith::AddIOp, arith::SubIOp>([&](Operation *) {
        bool isSub = isa<arith::SubIOp>(op);
        binary([&](unsigned d, const AxisInfo &l, const AxisInfo &r) {
          // x - contiguous is not contiguous; contiguous - constant is.
          out.contiguity[d] = isSub ? gcd(l.contiguity[d], r.constancy[d])
                                    : std::max(gcd(l.contiguity[d], r.constancy[d]),
                                               gcd(l.constancy[d], r.contiguity[d]));
          int64_t c = out.contiguity[d];
          out.divisibility[d] = gcd(runDivisibility(l, c, d), runDivisibility(r, c, d));
          out.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
        });
        const AxisInfo l = get(op->getOperand(0)), r = get(op->getOperand(1));
        if (l.constant && r.constant)
          out.constant = isSub ? *l.constant - *r.constant : *l.constant + *r.constant;
      })
      .Case<arith::MulIOp, arith::ShLIOp>([&](Operation *) {
        bool isShift = isa<arith::ShLIOp>(op);
        binary([&](unsigned d, const AxisInfo &l, const AxisInfo &r) {
          out.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          // Multiplying by the constant 1 keeps contiguity.
          if (r.constant && *r.constant == 1)
            out.contiguity[d] = l.contiguity[d];
          if (!isShift && l.constant && *l.constant == 1)
            out.contiguity[d] = r.contiguity[d];
          int64_t c = out.contiguity[d];
          int64_t rdiv = runDivisibility(r, c, d);
          if (isShift)
            rdiv = r.constant && *r.constant >= 0 && *r.constant < 30 ? (int64_t(1) << *r.constant) : 1;
          out.divisibility[d] = std::min(kMaxDivisibility, runDivisibility(l, c, d) * rdiv);
        });
        const AxisInfo l = get(op->getOperand(0)), r = get(op->getOperand(1));
        if (l.constant && r.constant)
          out.constant = isShift ? (*l.constant << *r.constant) : *l.constant * *r.constant;
      })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp, arith::ShRSIOp,
            arith::ShRUIOp>([&](Operation *) {
        // Division by a positive constant c (a right shift by s: c = 2^s).
        const AxisInfo l = get(op->getOperand(0)), r = get(op->getOperand(1));
        bool isShift = isa<arith::ShRSIOp, arith::ShRUIOp>(op);
        std::optional<int64_t> c;
        if (r.constant && isShift && *r.constant >= 0 && *r.constant < 30)
          c = int64_t(1) << *r.constant;
        else if (r.constant && !isShift && *r.constant > 0)
          c = *r.constant;
        if (!c) {
          elementwiseConstancy();
          return;
        }
        if (*c == 1) {
          out = l;
          return;
        }
        // Runs of c values starting at multiples of c have one quotient when
        // division rounds down: not for ceildiv, nor a signed division of
        // values that may be negative (-c+1..-1 give 0, -c gives -1).
        bool floors = isa<arith::FloorDivSIOp, arith::DivUIOp, arith::ShRSIOp, arith::ShRUIOp>(op) ||
                      (isa<arith::DivSIOp>(op) && knownNonNegative(op->getOperand(0)));
        for (unsigned d = 0; d < rank; ++d) {
          out.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          if (floors && l.contiguity[d] > 1)
            out.constancy[d] = std::max(out.constancy[d], gcd(l.contiguity[d], gcd(l.divisibility[d], *c)));
          // A multiple of d divided exactly by c is a multiple of d / c; unsigned
          // ops see negative values as 2^n + x, so only a power of two carries.
          int64_t ldiv = runDivisibility(l, 1, d);
          if (isa<arith::DivUIOp, arith::ShRUIOp>(op))
            ldiv = highestPow2Divisor(ldiv);
          out.divisibility[d] = ldiv % *c == 0 ? ldiv / *c : 1;
        }
        bool isUnsigned = isa<arith::DivUIOp, arith::ShRUIOp>(op);
        if (l.constant && (!isUnsigned || *l.constant >= 0)) {
          int64_t v = *l.constant, q = v / *c;
          bool inexact = v % *c != 0;
          if (isa<arith::FloorDivSIOp, arith::ShRSIOp>(op) && inexact && v < 0)
            q -= 1;
          if (isa<arith::CeilDivSIOp>(op) && inexact && v > 0)
            q += 1;
          out.constant = q;
          for (unsigned d = 0; d < rank; ++d)
            out.divisibility[d] = highestPow2Divisor(q);
        }
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) {
        binary([&](unsigned d, const AxisInfo &l, const AxisInfo &r) {
          out.constancy[d] = gcd(l.constancy[d], r.constancy[d]);
          // A contiguous run starting at a multiple of g, compared against a
          // run-constant multiple of g, flips only at a multiple of g.
          auto pred = cmp.getPredicate();
          bool ordered = pred != arith::CmpIPredicate::eq && pred != arith::CmpIPredicate::ne;
          if (ordered && r.constancy[d] > 1) {
            int64_t g = gcd(l.contiguity[d], gcd(l.divisibility[d], r.divisibility[d]));
            g = gcd(g, r.constancy[d]);
            out.constancy[d] = std::max(out.constancy[d], g);
          }
          if (ordered && l.constancy[d] > 1) {
            int64_t g = gcd(r.contiguity[d], gcd(r.divisibility[d], l.divisibility[d]));
            g = gcd(g, l.constancy[d]);
            out.constancy[d] = std::max(out.constancy[d], g);
          }
        });
      })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>([&](Operation *) {
        out = get(op->getOperand(0));
        if (isa<arith::TruncIOp>(op))
          out.constant.reset();
      })
      .Case<PtrToIntOp, IntToPtrOp>([&](Operation *) {
        // An address counts bytes, as a pointer's divisibility does; runs of
        // consecutive elements are runs of consecutive bytes only for bytes.
        out = get(op->getOperand(0));
        auto ptr = cast<PointerType>(getElementTypeOrSelf(
            (isa<PtrToIntOp>(op) ? op->getOperand(0) : op->getResult(0)).getType()));
        if (ptr.getPointeeType().getIntOrFloatBitWidth() > 8)
          out.contiguity.assign(rank, 1);
        out.constant.reset();
      })
      .Case<arith::SelectOp>([&](arith::SelectOp s) {
        const AxisInfo c = get(s.getCondition());
        const AxisInfo a = get(s.getTrueValue()), b = get(s.getFalseValue());
        for (unsigned d = 0; d < rank; ++d) {
          out.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
          out.constancy[d] = gcd(gcd(a.constancy[d], b.constancy[d]),
                                 c.rank() == rank ? c.constancy[d] : sizeOf(result.getType(), d));
          if (c.rank() == rank && c.constancy[d] == sizeOf(result.getType(), d))
            out.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
        }
      })
      .Default([&](Operation *) {
        if (op->hasTrait<OpTrait::Elementwise>() || isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op))
          elementwiseConstancy();
      });
  return out;
}

unsigned AxisInfoAnalysis::contiguousDim(Value ptr) {
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor || tensor.getRank() == 0)
    return 0;
  AxisInfo info = get(ptr);
  unsigned best = tensor.getRank() - 1;
  for (unsigned d = 0; d < best; ++d)
    if (info.contiguity[d] > info.contiguity[best])
      best = d;
  return best;
}

unsigned AxisInfoAnalysis::accessVectorWidth(Value ptr, Value mask, unsigned fast) {
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor)
    return 1;
  auto pointee = cast<PointerType>(tensor.getElementType()).getPointeeType();
  int64_t elemBytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  AxisInfo info = get(ptr);
  int64_t vec = std::min<int64_t>(info.contiguity[fast], 16 / elemBytes);
  vec = std::min(vec, std::max<int64_t>(1, info.divisibility[fast] / elemBytes));
  if (mask)
    vec = std::min(vec, get(mask).constancy[fast]);
  vec = std::max<int64_t>(1, vec);
  return unsigned(int64_t(1) << llvm::Log2_64(vec));
}

} // namespace blk
