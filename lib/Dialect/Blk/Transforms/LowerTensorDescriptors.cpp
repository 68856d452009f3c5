// Tensor descriptors to pointer accesses, except the wgmma operand loads
// that TMA will copy and the stores TMA will make (their descriptors become
// hidden kernel arguments).
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
/// blk-pipeline-dot ring: 16-bit, or 8-bit floats (their dots took wgmma
/// only with K-major boxes).
bool tmaOperand(DescriptorLoadOp load, scf::ForOp loop) {
  TensorDescType desc = load.getDesc().getType();
  Type elem = desc.getElementType();
  if (load->getParentOp() != loop || !(elem.getIntOrFloatBitWidth() == 16 || isFloat8(elem)) || !tmaRing(desc, 1))
    return false;
  // Only dots of the loop that read rings read it, as is or through a
  // `trans` (one ring serves them all).
  if (!onlyDotOperands(load, [&](DotOp dot) { return dot->getParentOp() == loop && ringReader(dot); }))
    return false;
  // wgmma reads 8-bit tiles only K-major, and boxes are row-major: A as
  // loaded, B through a `trans` (a B stored [K, N] is transposed in
  // registers, blk-pipeline-dot).
  if (elem.getIntOrFloatBitWidth() == 8)
    for (OpOperand &use : load->getUses()) {
      // A operand (0) K-major as loaded, B (1) only through a trans.
      if (!isa<TransOp>(use.getOwner())) {
        if (use.getOperandNumber() != 0)
          return false;
        continue;
      }
      for (OpOperand &dotUse : use.getOwner()->getUses())
        if (dotUse.getOperandNumber() != 1)
          return false;
    }
  return iterationSlice(loop, load.getOffsets(), /*allowAdvances=*/false).has_value();
}

/// The descriptor loads behind a wgmma dot's operands that TMA copies: every
/// operand of the dot that is a descriptor load in its loop, when TMA can
/// copy each of them (the other operands are computed in registers or
/// loaded before the loop); none otherwise.
SmallVector<DescriptorLoadOp> tmaOperands(DotOp dot) {
  auto mma = dot.getMmaAttr();
  scf::ForOp loop = pipelinableLoop(dot);
  if (!mma || mma.getVersion() != 3 || !loop)
    return {};
  SmallVector<DescriptorLoadOp> loads;
  for (Value operand : {dot.getA(), dot.getB()}) {
    // Maybe read through a `trans` (the ring then through a transposed view;
    // tmaOperand checks the trans's other uses).
    auto load = throughTrans(operand).getDefiningOp<DescriptorLoadOp>();
    if (!load || load->getParentOp() != loop)
      continue;
    if (!tmaOperand(load, loop) || llvm::is_contained(loads, load))
      return {};
    loads.push_back(load);
  }
  return loads;
}

/// The most a TMA store, or the TMA stores of one loop nest together, stage
/// through shared memory: the buffers live beside a persistent kernel's
/// rings, which need the rest.
constexpr int64_t kMaxTmaStoreBytes = 64 * 1024;

/// Whether TMA can store `store`'s block from a one-slot shared buffer
/// (blk-tma-stores): a 2-D block (after leading 1s) of at most 256 rows and
/// kMaxTmaStoreBytes, in the swizzled arrangement of a ring.
bool tmaStore(DescriptorStoreOp store) {
  TensorDescType desc = store.getDesc().getType();
  ArrayRef<int64_t> block = innerBlock(desc);
  SharedBufferType buffer = tmaRing(desc, 1);
  return buffer && block[0] <= 256 && buffer.getSlotBytes() <= kMaxTmaStoreBytes &&
         store.getValue().getType().getShape() == block;
}

/// The pointers of a descriptor's block at `offsets`, shaped as `block`
/// (the descriptor's block, or it without leading dimensions of size 1,
/// whose offsets then move the base), and the mask of those inside the
/// tensor.
std::pair<Value, Value> blockPointers(OpBuilder &b, Location loc, MakeTensorDescriptorOp make, ValueRange offsets,
                                      ArrayRef<int64_t> block) {
  TensorDescType desc = make.getType();
  unsigned rank = unsigned(block.size()), leading = desc.getRank() - rank;
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto full = RankedTensorType::get(block, i32);
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  // The leading offsets: a scalar step of the base each, inside or not as a whole.
  Value base = make.getBase(), scalarInside;
  for (unsigned d = 0; d < leading; ++d) {
    Value offset = offsets[d];
    base = AddPtrOp::create(b, loc, base.getType(), base,
                            arith::MulIOp::create(b, loc, arith::ExtSIOp::create(b, loc, i64, offset),
                                                  make.getStrides()[d]));
    Value inside = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, offset, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, offset, make.getShape()[d]));
    scalarInside = scalarInside ? arith::AndIOp::create(b, loc, scalarInside, inside).getResult() : inside;
  }
  auto ptrType = RankedTensorType::get(block, make.getBase().getType());
  Value ptrs = SplatOp::create(b, loc, ptrType, base), mask;
  if (scalarInside)
    mask = SplatOp::create(b, loc, RankedTensorType::get(block, b.getI1Type()), scalarInside);
  for (unsigned d = 0; d < rank; ++d) {
    unsigned td = leading + d; // the tensor's dimension
    // offset_d + arange(0, B_d), broadcast along the other dimensions.
    auto line = RankedTensorType::get({block[d]}, i32);
    Value idx = arith::AddIOp::create(b, loc, SplatOp::create(b, loc, line, offsets[td]),
                                      ArangeOp::create(b, loc, line, 0, int32_t(block[d])));
    SmallVector<int64_t> shape{block[d]};
    for (unsigned e = 0; e < rank; ++e) {
      if (e == d)
        continue;
      shape.insert(shape.begin() + e, 1);
      idx = ExpandDimsOp::create(b, loc, RankedTensorType::get(shape, i32), idx, e);
    }
    if (rank > 1)
      idx = BroadcastOp::create(b, loc, full, idx);
    Value step = arith::ExtSIOp::create(b, loc, RankedTensorType::get(block, i64), idx);
    if (!matchPattern(make.getStrides()[td], m_One())) // the unit stride of the rows, as AxisInfo sees it
      step = arith::MulIOp::create(b, loc, step,
                                   SplatOp::create(b, loc, RankedTensorType::get(block, i64), make.getStrides()[td]));
    ptrs = AddPtrOp::create(b, loc, ptrType, ptrs, step);
    Value zeros = SplatOp::create(b, loc, full, zero);
    Value inside = arith::AndIOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, idx, zeros),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, idx, SplatOp::create(b, loc, full, make.getShape()[td])));
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
      SmallVector<Operation *> accesses;
    };
    llvm::MapVector<MakeTensorDescriptorOp, Kept> kept;
    if (tma)
      func.walk([&](DotOp dot) {
        SmallVector<DescriptorLoadOp> loads = tmaOperands(dot);
        SmallVector<std::pair<MakeTensorDescriptorOp, Recipe>> recipes;
        for (DescriptorLoadOp load : loads) {
          auto make = load.getDesc().getDefiningOp<MakeTensorDescriptorOp>();
          std::optional<Recipe> recipe = make ? hostRecipe(func, make) : std::nullopt;
          if (!recipe)
            return; // this dot keeps none of its loads for TMA unless all have recipes
          recipes.push_back({make, *recipe});
        }
        for (auto [load, entry] : llvm::zip(loads, recipes)) {
          kept[entry.first].recipe = entry.second;
          if (!llvm::is_contained(kept[entry.first].accesses, load)) // read by several dots
            kept[entry.first].accesses.push_back(load);
        }
      });
    // Stores through descriptors become TMA stores (blk-tma-stores). The
    // buffers of the stores in one loop nest live together (each from in
    // front of the nest to its end): together at most kMaxTmaStoreBytes,
    // the later ones storing through pointers.
    llvm::DenseMap<Operation *, int64_t> bytesInNest;
    if (tma)
      func.walk([&](DescriptorStoreOp store) {
        auto make = store.getDesc().getDefiningOp<MakeTensorDescriptorOp>();
        if (!make || !tmaStore(store))
          return;
        std::optional<Recipe> recipe = hostRecipe(func, make);
        if (!recipe)
          return;
        Operation *nest = nullptr;
        for (Operation *p = store->getParentOp(); p && !isa<func::FuncOp>(p); p = p->getParentOp())
          if (isa<LoopLikeOpInterface>(p))
            nest = p;
        int64_t bytes = tmaRing(store.getDesc().getType(), 1).getSlotBytes();
        if (nest) {
          if (bytesInNest[nest] + bytes > kMaxTmaStoreBytes)
            return;
          bytesInNest[nest] += bytes;
        }
        kept[make].recipe = *recipe;
        kept[make].accesses.push_back(store);
        // A load of the same block before it comes in through its buffer.
        // The load returned is the last that `through` was asked about.
        MakeTensorDescriptorOp loaded;
        std::optional<Recipe> loadedRecipe;
        DescriptorLoadOp load = loadBeforeTmaStore(store, [&](Value desc) {
          loaded = desc.getDefiningOp<MakeTensorDescriptorOp>();
          loadedRecipe = loaded ? hostRecipe(func, loaded) : std::nullopt;
          return loadedRecipe.has_value();
        });
        if (load) {
          kept[loaded].recipe = *loadedRecipe;
          kept[loaded].accesses.push_back(load);
        }
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
      for (Operation *access : entry.accesses)
        access->setOperand(0, func.getArgument(index)); // the descriptor
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
        auto [ptrs, mask] = blockPointers(b, loc, make, load.getOffsets(), load.getType().getShape());
        Type elem = load.getType().getElementType();
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
        Value other = SplatOp::create(b, loc, load.getType(), zero);
        load.replaceAllUsesWith(LoadOp::create(b, loc, load.getType(), ptrs, mask, other, 1, IntegerAttr(),
                                               EvictionPolicy::Normal)
                                    .getResult());
      } else {
        auto store = cast<DescriptorStoreOp>(op);
        auto [ptrs, mask] = blockPointers(b, loc, make, store.getOffsets(), store.getValue().getType().getShape());
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
