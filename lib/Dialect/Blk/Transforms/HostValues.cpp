#include "HostValues.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk {

std::optional<int64_t> hostSource(func::FuncOp func, Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtSIOp>()) // an i32 argument used as an i64 stride
    v = ext.getIn();
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (arg.getOwner() == &func.getBody().front())
      return int64_t(arg.getArgNumber());
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)) && c.isStrictlyPositive() && c.getSExtValue() < (int64_t(1) << 40))
    return -c.getSExtValue();
  return std::nullopt;
}

int64_t argDivisibility(func::FuncOp func, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return 0;
  auto div = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), kDivisibilityAttr);
  return div ? div.getInt() : 0;
}

} // namespace blk
