// Moves the constant part of an index out from under shifts and multiplies,
// so that NVPTX's SeparateConstOffsetFromGEP finds it. A block's element
// offsets are per thread `(lane_part | k) * C + ...`, k one constant per
// register; with the constant under the multiply the backend computes a
// 64-bit address per register and keeps them all live (a [1024, 16] tile:
// 64 addresses for its load and store), where `lane_part * C | k * C` lets
// every register address one base plus an immediate. InstCombine distributes
// only single-use operands, and the lane part of an arange feeds many.
#include "DistributeConstantOffsets.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/KnownBits.h"

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace blk {
namespace {

/// `x op k` with k a constant integer, op an add or a disjoint or.
struct AddOfConstant {
  BinaryOperator *op = nullptr;
  Value *x = nullptr;
  const APInt *k = nullptr;
  bool isOr = false;
  /// Whether x <= x op k: no unsigned wrap.
  bool noWrap() const { return isOr || op->hasNoUnsignedWrap(); }
};

std::optional<AddOfConstant> matchAddOfConstant(Value *v) {
  AddOfConstant m;
  m.op = dyn_cast<BinaryOperator>(v);
  if (!m.op)
    return std::nullopt;
  if (m.op->getOpcode() == Instruction::Or && cast<PossiblyDisjointInst>(m.op)->isDisjoint())
    m.isOr = true;
  else if (m.op->getOpcode() != Instruction::Add)
    return std::nullopt;
  if (!match(m.op, m_c_BinOp(m_Value(m.x), m_APInt(m.k))))
    return std::nullopt;
  return m;
}

/// Rewrites `(x op k) << s` as `(x << s) op (k << s)` and `(x op k) * m` as
/// `x * m + k * m`; returns the replacement or null.
Value *distribute(BinaryOperator *outer) {
  const APInt *factor;
  bool shift = outer->getOpcode() == Instruction::Shl;
  if (!(shift || outer->getOpcode() == Instruction::Mul) || !match(outer->getOperand(1), m_APInt(factor)))
    return nullptr;
  std::optional<AddOfConstant> inner = matchAddOfConstant(outer->getOperand(0));
  if (!inner)
    return nullptr;
  IRBuilder<> b(outer);
  // No unsigned wrap carries over: x is at most x op k in both forms.
  bool nuw = outer->hasNoUnsignedWrap() && inner->noWrap();
  Value *scaled = shift ? b.CreateShl(inner->x, factor->getZExtValue(), "", nuw)
                        : b.CreateMul(inner->x, outer->getOperand(1), "", nuw);
  APInt constant = shift ? inner->k->shl(*factor) : *inner->k * *factor;
  Constant *c = ConstantInt::get(outer->getType(), constant);
  // Shifts keep the bits of x and k apart; a multiply may not.
  if (shift && inner->isOr)
    return b.CreateOr(scaled, c, "", /*IsDisjoint=*/true);
  return b.CreateAdd(scaled, c, "", nuw);
}

/// Rewrites `zext(x op k)` as `zext(x) op zext(k)` where no carry leaves
/// the narrow type (a disjoint or, an add without unsigned wrap), so that a
/// shift or multiply after the extension finds the constant; returns the
/// replacement or null.
Value *widen(ZExtInst *zext) {
  std::optional<AddOfConstant> inner = matchAddOfConstant(zext->getOperand(0));
  if (!inner || !inner->noWrap())
    return nullptr;
  IRBuilder<> b(zext);
  Value *wide = b.CreateZExt(inner->x, zext->getType());
  Constant *c = ConstantInt::get(zext->getType(), inner->k->zext(zext->getType()->getIntegerBitWidth()));
  return inner->isOr ? b.CreateOr(wide, c, "", /*IsDisjoint=*/true) : b.CreateAdd(wide, c, "", /*HasNUW=*/true);
}

/// Rewrites `a | b`, whose operands may share bits, as `(a & m) | b` with
/// the shared bits cleared from a, where every bit they may share is known
/// set in b (or the other way round); returns the replacement or null.
/// InstCombine folds `(t & 15) | 112` into `t | 112` when t < 128 (the 112
/// sets the bits the mask cleared); the or then stops being an add, and the
/// register's constant stays under it. The mask is a's possible bits less
/// the shared ones, the same for every register, so the copies are one.
Value *clearSharedBits(BinaryOperator *orOp, const SimplifyQuery &query) {
  Value *ops[2] = {orOp->getOperand(0), orOp->getOperand(1)};
  KnownBits known[2] = {computeKnownBits(ops[0], query), computeKnownBits(ops[1], query)};
  APInt shared = ~known[0].Zero & ~known[1].Zero;
  if (shared.isZero())
    return nullptr;
  // The side to mask (a) and the side whose constant sets the shared bits
  // (b), b tried as the second operand first; only where the or then adds a
  // constant the backend can take out.
  for (auto [a, b] : {std::pair{0, 1}, std::pair{1, 0}}) {
    if (!shared.isSubsetOf(known[b].One) || isa<Constant>(ops[a]) ||
        !(isa<ConstantInt>(ops[b]) || matchAddOfConstant(ops[b])))
      continue;
    IRBuilder<> builder(orOp);
    Value *masked = builder.CreateAnd(ops[a], ConstantInt::get(ops[a]->getType(), ~known[a].Zero & ~shared));
    return a == 0 ? builder.CreateOr(masked, ops[1], "", /*IsDisjoint=*/true)
                  : builder.CreateOr(ops[0], masked, "", /*IsDisjoint=*/true);
  }
  return nullptr;
}

} // namespace

/// The integer arithmetic that computes indices of global-memory GEPs.
/// Shared-memory addresses are left as they are: the lowering gives them
/// their constants already, and their padding (`row + row / 2`) keeps a
/// lane part under a shift right that distributing the rest would split
/// into one base per register.
DenseSet<Instruction *> globalIndexCone(Function &f) {
  DenseSet<Instruction *> cone;
  SmallVector<Value *> work;
  for (Instruction &inst : instructions(f))
    if (auto *gep = dyn_cast<GetElementPtrInst>(&inst); gep && gep->getAddressSpace() == 1)
      llvm::append_range(work, gep->indices());
  while (!work.empty()) {
    auto *inst = dyn_cast<Instruction>(work.pop_back_val());
    if (!inst || !(isa<BinaryOperator, ZExtInst, SExtInst>(inst)) || !inst->getType()->isIntegerTy() ||
        !cone.insert(inst).second)
      continue;
    llvm::append_range(work, inst->operands());
  }
  return cone;
}

PreservedAnalyses DistributeConstantOffsetsPass::run(Function &f, FunctionAnalysisManager &) {
  const DataLayout &layout = f.getDataLayout();
  bool changed = false;
  DenseSet<Instruction *> cone = globalIndexCone(f);
  // Program order: an operand is rewritten before its users look at it.
  SmallVector<Instruction *> work;
  for (Instruction &inst : instructions(f))
    if (cone.contains(&inst))
      work.push_back(&inst);
  auto replace = [&](Instruction *old, Value *replacement) {
    old->replaceAllUsesWith(replacement);
    replacement->takeName(old);
    old->eraseFromParent();
    changed = true;
  };
  for (Instruction *inst : work) {
    if (auto *zext = dyn_cast<ZExtInst>(inst)) {
      if (Value *replacement = widen(zext))
        replace(zext, replacement);
      continue;
    }
    auto *bin = dyn_cast<BinaryOperator>(inst);
    if (!bin || !bin->getType()->isIntegerTy())
      continue;
    if (Value *replacement = distribute(bin)) {
      replace(bin, replacement);
      continue;
    }
    // An or of operands with no bit in common is an add, through which the
    // backend then looks for constants.
    if (bin->getOpcode() != Instruction::Or || cast<PossiblyDisjointInst>(bin)->isDisjoint())
      continue;
    SimplifyQuery query(layout, bin);
    if (haveNoCommonBitsSet(bin->getOperand(0), bin->getOperand(1), query)) {
      cast<PossiblyDisjointInst>(bin)->setIsDisjoint(true);
      changed = true;
    } else if (Value *replacement = clearSharedBits(bin, query)) {
      replace(bin, replacement);
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace blk
