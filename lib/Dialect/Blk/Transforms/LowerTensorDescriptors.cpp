// Tensor descriptors to pointer accesses, except the wgmma operand loads
// that TMA will copy (their descriptors become hidden kernel arguments).
#include "blk/Dialect/Blk/Transforms/Passes.h"

#include "HostValues.h"
#include "LoopSlice.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk {
#define GEN_PASS_DEF_BLKLOWERTENSORDESCRIPTORSPASS
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

namespace {

/// Whether TMA can copy `load` (an operand of a wgmma dot in a loop) into a
/// blk-pipeline-dot ring.
bool tmaOperand(DescriptorLoadOp load, scf::ForOp loop) {
  TensorDescType desc = load.getDesc().getType();
  if (load->getParentOp() != loop || !load->hasOneUse() || desc.getElementType().getIntOrFloatBitWidth() != 16 ||
      !tmaRing(desc, 1))
    return false;
  return iterationSlice(loop, load.getOffsets(), /*allowAdvances=*/false).has_value();
}

/// The descriptor loads behind a wgmma dot's operands when TMA can copy both.
std::optional<std::pair<DescriptorLoadOp, DescriptorLoadOp>> tmaOperands(DotOp dot) {
  auto mma = dot.getMmaAttr();
  scf::ForOp loop = pipelinableLoop(dot);
  if (!mma || mma.getVersion() != 3 || !loop)
    return std::nullopt;
  // An operand may be read through a transpose (the ring then through a transposed view).
  auto source = [](Value operand) {
    if (auto trans = operand.getDefiningOp<TransOp>(); trans && trans->hasOneUse())
      operand = trans.getSrc();
    return operand.getDefiningOp<DescriptorLoadOp>();
  };
  DescriptorLoadOp a = source(dot.getA()), b = source(dot.getB());
  if (!a || !b || a == b || !tmaOperand(a, loop) || !tmaOperand(b, loop))
    return std::nullopt;
  return std::make_pair(a, b);
}

/// The pointers of a descriptor's block at `offsets` and the mask of those
/// inside the tensor.
std::pair<Value, Value> blockPointers(OpBuilder &b, Location loc, MakeTensorDescriptorOp make, ValueRange offsets) {
  TensorDescType desc = make.getType();
  ArrayRef<int64_t> block = desc.getBlockShape();
  unsigned rank = desc.getRank();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptrType = RankedTensorType::get(block, make.getBase().getType());
  Value ptrs = SplatOp::create(b, loc, ptrType, make.getBase()), mask;
  for (unsigned d = 0; d < rank; ++d) {
    // offset_d + arange(0, B_d), broadcast along the other dimensions.
    auto line = RankedTensorType::get({block[d]}, i32);
    Value idx = arith::AddIOp::create(b, loc, SplatOp::create(b, loc, line, offsets[d]),
                                      ArangeOp::create(b, loc, line, 0, int32_t(block[d])));
    SmallVector<int64_t> shape{block[d]};
    for (unsigned e = 0; e < rank; ++e) {
      if (e == d)
        continue;
      shape.insert(shape.begin() + e, 1);
      idx = ExpandDimsOp::create(b, loc, RankedTensorType::get(shape, i32), idx, e);
    }
    auto full = RankedTensorType::get(block, i32);
    if (rank > 1)
      idx = BroadcastOp::create(b, loc, full, idx);
    Value step = arith::ExtSIOp::create(b, loc, RankedTensorType::get(block, i64), idx);
    if (!matchPattern(make.getStrides()[d], m_One())) // the unit stride of the rows, as AxisInfo sees it
      step = arith::MulIOp::create(b, loc, step,
                                   SplatOp::create(b, loc, RankedTensorType::get(block, i64), make.getStrides()[d]));
    ptrs = AddPtrOp::create(b, loc, ptrType, ptrs, step);
    Value zero = SplatOp::create(b, loc, full, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
    Value inside = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, idx, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx, SplatOp::create(b, loc, full, make.getShape()[d])));
    mask = mask ? arith::AndIOp::create(b, loc, mask, inside).getResult() : inside;
  }
  return {ptrs, mask};
}

struct LowerTensorDescriptors : impl::BlkLowerTensorDescriptorsPassBase<LowerTensorDescriptors> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (failed(lowerFunc(func)))
        signalPassFailure();
    });
  }

  LogicalResult lowerFunc(func::FuncOp func) {
    // The loads TMA copies, by descriptor, and where the host finds its fields.
    struct Kept {
      Recipe recipe;
      SmallVector<DescriptorLoadOp> loads;
    };
    llvm::MapVector<MakeTensorDescriptorOp, Kept> kept;
    if (tma)
      func.walk([&](DotOp dot) {
        auto operands = tmaOperands(dot);
        if (!operands)
          return;
        auto makeA = operands->first.getDesc().getDefiningOp<MakeTensorDescriptorOp>();
        auto makeB = operands->second.getDesc().getDefiningOp<MakeTensorDescriptorOp>();
        std::optional<Recipe> recipeA = makeA ? hostRecipe(func, makeA) : std::nullopt;
        std::optional<Recipe> recipeB = makeB ? hostRecipe(func, makeB) : std::nullopt;
        if (!recipeA || !recipeB)
          return;
        kept[makeA].recipe = *recipeA;
        kept[makeA].loads.push_back(operands->first);
        kept[makeB].recipe = *recipeB;
        kept[makeB].loads.push_back(operands->second);
      });
    for (auto &[make, entry] : kept) {
      const Recipe &recipe = entry.recipe;
      Builder b(func.getContext());
      NamedAttrList attrs;
      attrs.set(kTmaBaseAttr, b.getI64IntegerAttr(recipe.base));
      attrs.set(kTmaShapeAttr, b.getDenseI64ArrayAttr(recipe.shape));
      attrs.set(kTmaStridesAttr, b.getDenseI64ArrayAttr(recipe.strides));
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(index, make.getType(), attrs.getDictionary(func.getContext()), make.getLoc())))
        return failure();
      for (DescriptorLoadOp load : entry.loads)
        load.getDescMutable().assign(func.getArgument(index));
    }

    SmallVector<Operation *> accesses;
    func.walk([&](Operation *op) {
      if (isa<DescriptorLoadOp, DescriptorStoreOp>(op) && op->getOperand(0).getDefiningOp<MakeTensorDescriptorOp>())
        accesses.push_back(op);
    });
    for (Operation *op : accesses) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      auto make = op->getOperand(0).getDefiningOp<MakeTensorDescriptorOp>();
      if (auto load = dyn_cast<DescriptorLoadOp>(op)) {
        auto [ptrs, mask] = blockPointers(b, loc, make, load.getOffsets());
        Type elem = load.getType().getElementType();
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
        Value other = SplatOp::create(b, loc, load.getType(), zero);
        load.replaceAllUsesWith(LoadOp::create(b, loc, load.getType(), ptrs, mask, other, 1, IntegerAttr(),
                                               EvictionPolicy::Normal)
                                    .getResult());
      } else {
        auto store = cast<DescriptorStoreOp>(op);
        auto [ptrs, mask] = blockPointers(b, loc, make, store.getOffsets());
        StoreOp::create(b, loc, ptrs, store.getValue(), mask, 1, IntegerAttr(), EvictionPolicy::Normal);
      }
      op->erase();
    }
    SmallVector<MakeTensorDescriptorOp> makes;
    func.walk([&](MakeTensorDescriptorOp make) { makes.push_back(make); });
    for (MakeTensorDescriptorOp make : makes)
      if (make->use_empty())
        make->erase();
    return success();
  }

  struct Recipe {
    int64_t base;
    SmallVector<int64_t> shape, strides;
  };
  /// Where the host finds a descriptor's fields; nothing when one is
  /// computed in the kernel.
  static std::optional<Recipe> hostRecipe(func::FuncOp func, MakeTensorDescriptorOp make) {
    Recipe r;
    std::optional<int64_t> base = hostSource(func, make.getBase());
    if (!base || *base < 0)
      return std::nullopt;
    r.base = *base;
    for (auto [list, out] : {std::pair{make.getShape(), &r.shape}, std::pair{make.getStrides(), &r.strides}})
      for (Value v : list) {
        std::optional<int64_t> s = hostSource(func, v);
        if (!s)
          return std::nullopt;
        out->push_back(*s);
      }
    return r;
  }
};

} // namespace
} // namespace blk
