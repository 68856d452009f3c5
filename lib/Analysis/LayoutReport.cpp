#include "blk/Analysis/LayoutReport.h"

#include "blk/Analysis/Allocation.h"
#include "blk/Analysis/LayoutMove.h"
#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Path.h"

using namespace mlir;

namespace blk {

namespace {

/// `file:line:col` of the first file location in `loc`, the file without
/// its directories (the report is read next to the source).
std::string where(Location loc) {
  auto f = loc->findInstanceOf<FileLineColLoc>();
  if (!f)
    return "<unknown>";
  return llvm::sys::path::filename(f.getFilename().getValue()).str() + ":" + std::to_string(f.getLine()) + ":" +
         std::to_string(f.getColumn());
}

std::string shapeOf(RankedTensorType t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(t.getShape(), os, "x");
  os << "x" << t.getElementType();
  return text;
}

/// Short names for a kernel's layouts (L0, L1, ... in order of first use),
/// listed once: the attributes are long and a kernel has few of them.
struct LayoutNames {
  llvm::MapVector<Attribute, std::string> names;
  std::string operator()(RankedTensorType t) {
    auto [it, inserted] = names.try_emplace(t.getEncoding(), "");
    if (inserted)
      it->second = "L" + std::to_string(names.size() - 1);
    return it->second;
  }
};

/// Whether a move that renames registers leaves every element in the
/// register of the same number.
bool keepsRegisters(Operation *op, const LayoutMovePlan &plan) {
  if (plan.rounds)
    return llvm::all_of(llvm::enumerate(plan.rounds->roundRegister),
                        [](auto r) { return r.value() == int64_t(r.index()); });
  LinearLayout from = LinearLayout::get(cast<RankedTensorType>(op->getOperand(0).getType()));
  LinearLayout to = LinearLayout::get(cast<RankedTensorType>(op->getResult(0).getType()));
  for (int64_t r = 0; r < to.numRegisters(); ++r)
    if (from.registerCoord(r) != to.registerCoord(r))
      return false;
  return true;
}

/// The path a layout move takes, as its lowering takes it, and its cost.
std::string movePath(Operation *op) {
  LayoutMovePlan plan = planLayoutMove(op);
  switch (plan.path) {
  case MovePath::Registers:
    if (keepsRegisters(op, plan))
      return "registers only (each thread keeps its elements): free";
    return "register permutation (each thread keeps its elements in other registers): free";
  case MovePath::Shuffles:
    return "warp shuffles: " + std::to_string(plan.rounds->shuffles()) + " rounds of shfl.sync.idx and " +
           std::to_string(plan.rounds->selects()) + " selects per thread, cost " + std::to_string(plan.shuffleCost) +
           " against " + std::to_string(plan.sharedCost) + " through shared memory";
  case MovePath::Ldmatrix:
    return "shared memory, a swizzled tile read with ldmatrix: " + std::to_string(scratchFor(op).bytes) +
           " bytes written and read per program, 2 barriers";
  case MovePath::Shared:
    break;
  }
  SharedMove move = sharedMoveOf(op);
  std::string text = "shared memory: " + std::to_string(scratchFor(op).bytes) +
                     " bytes written and read per program, " + std::to_string(move.write) + "-element writes, " +
                     std::to_string(move.read) + "-element reads, " +
                     (move.swizzle ? move.swizzle->xors.empty() ? "row-major" : "XOR-swizzled" : "padded") +
                     ", 2 barriers";
  if (plan.rounds)
    text += " (cost " + std::to_string(plan.sharedCost) + " against " + std::to_string(plan.shuffleCost) +
            " by warp shuffles)";
  return text;
}

} // namespace

void printLayoutReport(ModuleOp module, llvm::raw_ostream &os) {
  for (auto func : module.getOps<func::FuncOp>()) {
    LayoutNames layoutOf;
    std::string values, moves;
    llvm::raw_string_ostream valuesOs(values), movesOs(moves);
    int64_t movedBytes = 0;
    unsigned numMoves = 0;
    func.walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        if (!type || !hasLayout(type))
          continue;
        valuesOs << "  " << where(op->getLoc()) << "  " << op->getName() << "  " << shapeOf(type) << "  "
                 << layoutOf(type) << "  " << LinearLayout::get(type).numRegisters() << "/thread\n";
      }
      if (isa<ConvertLayoutOp, TransOp, PermuteOp, ReshapeOp>(op)) {
        auto from = cast<RankedTensorType>(op->getOperand(0).getType());
        auto to = cast<RankedTensorType>(op->getResult(0).getType());
        movesOs << "  " << where(op->getLoc()) << "  " << op->getName() << "  " << shapeOf(from) << "  "
                << layoutOf(from) << " -> " << layoutOf(to) << ": " << movePath(op) << "\n";
        movedBytes += scratchFor(op).bytes;
        ++numMoves;
      } else if (int64_t bytes = scratchFor(op).bytes) {
        movesOs << "  " << where(op->getLoc()) << "  " << op->getName() << ": shared-memory scratch, " << bytes
                << " bytes per program\n";
        ++numMoves;
      }
    });
    os << "kernel " << func.getName();
    if (auto warps = module->getAttrOfType<IntegerAttr>(kNumWarpsAttr))
      os << " (" << warps.getInt() << " warps)";
    os << "\n\nlayouts:\n";
    for (const auto &[attr, name] : layoutOf.names) {
      os << "  " << name << " = ";
      attr.print(os);
      os << "\n";
    }
    os << "\nvalues (location, op, shape, layout, values per thread):\n" << values;
    os << "\nmoves between threads (" << numMoves << "; layout moves: " << movedBytes
       << " bytes through shared memory per program):\n"
       << (moves.empty() ? "  none\n" : moves) << "\n";
  }
}

} // namespace blk
