// Warp specialization (WarpSpecialize.h). The producer warpgroup runs after
// the consumer warps, so that every layout, which maps warps 0 .. N - 1,
// stays as assigned; the consumers synchronize on a named barrier of their
// own threads (the lowering's), the producer warps joining none.
#include "WarpSpecialize.h"

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace blk {

std::optional<ScalarSlice> scalarSlice(func::FuncOp func, scf::ForOp outer, ArrayRef<Value> roots) {
  Block *body = &func.getBody().front();
  Block *outerBody = outer ? outer.getBody() : nullptr;
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body && !(outer && arg == outer.getInductionVar()))
        return std::nullopt;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (needed.contains(def))
      continue;
    bool inBody = def->getBlock() == body || (outerBody && def->getBlock() == outerBody);
    if (!inBody || def->getNumRegions() || !isMemoryEffectFree(def) ||
        llvm::any_of(def->getResultTypes(), [](Type t) { return isa<ShapedType>(t); }))
      return std::nullopt;
    needed.insert(def);
    worklist.append(def->operand_begin(), def->operand_end());
  }
  ScalarSlice slice;
  for (Operation &op : *body)
    if (needed.contains(&op))
      slice.kernel.push_back(&op);
  if (outerBody)
    for (Operation &op : *outerBody)
      if (needed.contains(&op))
        slice.outer.push_back(&op);
  return slice;
}

Value tripCount(OpBuilder &b, Location loc, Value lb, Value ub, Value step) {
  Type type = lb.getType();
  auto c = [&](int64_t v) -> Value { return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, v)); };
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value up = arith::AddIOp::create(b, loc, span, arith::SubIOp::create(b, loc, step, c(1)));
  Value count = arith::MaxSIOp::create(b, loc, arith::DivSIOp::create(b, loc, up, step), c(0));
  Type i32 = b.getI32Type();
  if (isa<IndexType>(type))
    return arith::IndexCastOp::create(b, loc, i32, count);
  return type == i32 ? count : arith::TruncIOp::create(b, loc, i32, count).getResult();
}

Value tripIndex(OpBuilder &b, Location loc, Value iv, Value lb, Value step) {
  Value trip = arith::DivSIOp::create(b, loc, arith::SubIOp::create(b, loc, iv, lb), step);
  Type i32 = b.getI32Type();
  if (isa<IndexType>(trip.getType()))
    return arith::IndexCastOp::create(b, loc, i32, trip);
  return trip.getType() == i32 ? trip : arith::TruncIOp::create(b, loc, i32, trip).getResult();
}

std::optional<std::pair<int32_t, int32_t>> roleRegisters(int64_t numWarps) {
  constexpr int64_t kRegisterFile = 65536, kProducerRegisters = 40;
  int64_t threads = (numWarps + kProducerWarps) * 32;
  int64_t atLaunch = std::min<int64_t>(256, kRegisterFile / threads / 8 * 8);
  int64_t consumers = std::min<int64_t>(256, (kRegisterFile - kProducerRegisters * kProducerWarps * 32) /
                                                 (numWarps * 32) / 8 * 8);
  if (consumers <= atLaunch)
    return std::nullopt;
  return std::pair{int32_t(kProducerRegisters), int32_t(consumers)};
}

OpBuilder splitWarpRoles(func::FuncOp func, int64_t numWarps, ArrayRef<Operation *> shared,
                         ArrayRef<Operation *> slice, IRMapping &map) {
  Block *body = &func.getBody().front();
  Location loc = func.getLoc();
  MLIRContext *ctx = func.getContext();
  for (Operation *op : llvm::reverse(shared))
    op->moveBefore(body, body->begin());
  OpBuilder b(ctx);
  if (shared.empty())
    b.setInsertionPointToStart(body);
  else
    b.setInsertionPointAfter(shared.back());
  Value producer = ProducerWarpOp::create(b, loc);
  auto roles = scf::IfOp::create(b, loc, TypeRange{}, producer, /*withElseRegion=*/true);
  roles->setAttr(kProducerBranchAttr, b.getUnitAttr());
  // The consumers: everything after the split but the return.
  Block *consumers = &roles.getElseRegion().front();
  Operation *yield = consumers->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(llvm::make_range(std::next(roles->getIterator()),
                                                                   body->getTerminator()->getIterator())))
    op.moveBefore(yield);
  func->setAttr(kProducerWarpsAttr, b.getI32IntegerAttr(kProducerWarps));
  std::optional<std::pair<int32_t, int32_t>> registers = roleRegisters(numWarps);
  if (registers) {
    OpBuilder c = OpBuilder::atBlockBegin(consumers);
    SetMaxRegistersOp::create(c, loc, registers->second, /*increase=*/true);
  }
  OpBuilder p = OpBuilder::atBlockTerminator(&roles.getThenRegion().front());
  if (registers)
    SetMaxRegistersOp::create(p, loc, registers->first, /*increase=*/false);
  for (Operation *op : slice)
    map.map(op, p.clone(*op, map));
  return p;
}

} // namespace blk
