// blk.inline_asm_elementwise: how its values pack into registers, its
// verifier and its effects.
#include "blk/Dialect/Blk/IR/Dialect.h"

using namespace mlir;

namespace blk {

unsigned InlineAsmElementwiseOp::elementsPerRegister(unsigned bits, unsigned pack) {
  return bits < 32 ? std::min(32 / bits, pack) : 1;
}

unsigned InlineAsmElementwiseOp::registersPerValue(unsigned bits, unsigned pack) {
  return pack / elementsPerRegister(bits, pack);
}

SmallVector<StringRef> InlineAsmElementwiseOp::registerConstraints(StringRef constraints) {
  SmallVector<StringRef> parts, regs;
  constraints.split(parts, ',');
  for (StringRef p : parts)
    if (!p.trim().starts_with("~"))
      regs.push_back(p.trim());
  return regs;
}

LogicalResult InlineAsmElementwiseOp::verify() {
  if (getArgs().empty() || getResults().empty())
    return emitOpError("needs at least one argument and one result");
  int64_t pack = getPackedElement();
  if (pack < 1 || !llvm::isPowerOf2_64(uint64_t(pack)))
    return emitOpError("packed_element must be a power of two, got ") << pack;
  Type shape0 = getArgs()[0].getType();
  auto shapeOf = [](Type t) {
    auto r = dyn_cast<RankedTensorType>(t);
    return r ? SmallVector<int64_t>(r.getShape()) : SmallVector<int64_t>();
  };
  unsigned registers = 0;
  for (Value v : llvm::concat<Value>(getResults(), getArgs())) {
    if (shapeOf(v.getType()) != shapeOf(shape0))
      return emitOpError("arguments and results must have one shape");
    Type elem = getElementTypeOrSelf(v.getType());
    if (isa<PointerType>(elem) || elem.isInteger(1))
      return emitOpError("takes numbers, not ") << elem;
    registers += registersPerValue(elem.getIntOrFloatBitWidth(), unsigned(pack));
  }
  size_t named = registerConstraints(getConstraints()).size();
  if (named != registers)
    return emitOpError("constraints name ") << named << " registers; the results and arguments take " << registers;
  return success();
}

void InlineAsmElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Write::get());
  effects.emplace_back(MemoryEffects::Read::get());
}

} // namespace blk
