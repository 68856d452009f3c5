// A kernel's runtime parameters as launch arguments: a pointer or scalar is
// one argument; a tuple `(A, B)` the arguments of its elements, in order; a
// tensor descriptor `tensor_descriptor(T, [B0, ...])` its base pointer, its
// sizes (32-bit) and its strides but the last (64-bit; the last is 1), so
// that a kernel taking Triton's host TensorDescriptor builds the descriptor
// make_tensor_descriptor would from them.
#include "Generator.h"

using namespace mlir;

namespace blk {

namespace {
bool addArguments(Generator &g, const ast::Expr &annotation, const std::string &param, KernelArguments &args) {
  if (auto *tuple = llvm::dyn_cast<ast::ListExpr>(&annotation)) {
    if (tuple->elements.empty())
      return g.error(annotation.loc, "tuple parameter '" + param + "' needs at least one element"), false;
    for (auto &element : tuple->elements)
      if (!addArguments(g, *element, param, args))
        return false;
    return true;
  }
  if (const ast::CallExpr *call = ast::Param::descriptorAnnotation(&annotation)) {
    TensorDescType desc = g.genDescriptorParamType(*call);
    if (!desc)
      return false;
    size_t rank = desc.getBlockShape().size();
    OpBuilder &b = g.builder;
    args.types.push_back(PointerType::get(b.getContext(), desc.getElementType()));
    args.types.append(rank, b.getI32Type());
    args.types.append(rank - 1, b.getI64Type());
    args.isUnsigned.append(2 * rank, false);
    return true;
  }
  auto *kind = llvm::dyn_cast<ast::NameExpr>(&annotation);
  if (kind && (kind->name == "constexpr" || kind->name == "dtype"))
    return g.error(annotation.loc, "a tuple parameter's elements are taken at launch (pointers, scalars, tensor "
                                   "descriptors), not " + kind->name),
           false;
  TV t = g.gen(annotation);
  if (!t)
    return false;
  if (t.kind != TV::DType)
    return g.error(annotation.loc, "expected a type for parameter '" + param + "', got " + g.describe(t)), false;
  if (isFloat8(t.type)) // the launch APIs pass scalars as 32- and 64-bit words
    return g.error(annotation.loc, "parameter '" + param + "' cannot be a scalar " + g.describe(t.type) +
                                       ": pass an f32 and convert it with .to(" + g.describe(t.type) + ")"),
           false;
  args.types.push_back(t.type);
  args.isUnsigned.push_back(t.isUnsigned);
  return true;
}
} // namespace

bool Generator::addKernelArguments(const ast::Param &param, const std::string &kernel, KernelArguments &args) {
  for (std::string &name : param.argumentNames()) {
    if (llvm::is_contained(args.names, name))
      return error(param.loc, "parameter '" + param.name + "' passes an argument named '" + name +
                                  "', which another parameter of kernel '" + kernel + "' passes too"),
             false;
    args.names.push_back(std::move(name));
  }
  return addArguments(*this, *param.annotation, param.name, args);
}

TV Generator::bindKernelArguments(const ast::Expr &annotation, const KernelArguments &args, ValueRange values,
                                  unsigned &next) {
  if (auto *tuple = llvm::dyn_cast<ast::ListExpr>(&annotation)) {
    std::vector<TV> elements;
    for (auto &element : tuple->elements)
      elements.push_back(bindKernelArguments(*element, args, values, next));
    return TV::makeTuple(std::move(elements));
  }
  // An integer the specialization knows to be 1 is that constant.
  auto equalsOne = [&](unsigned idx) {
    return llvm::is_contained(options.equalsOne, args.names[idx]) && isa<IntegerType>(args.types[idx]);
  };
  unsigned first = next;
  if (const ast::CallExpr *call = ast::Param::descriptorAnnotation(&annotation)) {
    TensorDescType desc = genDescriptorParamType(*call); // checked when its arguments were added
    size_t count = 2 * desc.getBlockShape().size();
    SmallVector<Value> parts(values.slice(first, count));
    for (size_t i = 1; i < count; ++i) // sizes and strides
      if (equalsOne(first + i))
        parts[i] = arith::ConstantIntOp::create(builder, loc(call->loc), 1,
                                                args.types[first + i].getIntOrFloatBitWidth());
    next += count;
    return bindDescriptorParam(call->loc, desc, parts);
  }
  ++next;
  if (equalsOne(first))
    return TV::makeInt(1);
  return TV::makeVal(values[first], args.isUnsigned[first]);
}

} // namespace blk
