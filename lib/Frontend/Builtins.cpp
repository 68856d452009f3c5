// Calls: builtins, `.to(T)`, and helpers (inlined at each call).
#include "Generator.h"

#include <cmath>

using namespace mlir;

namespace blk {
namespace {

struct Arity {
  unsigned min, max;
  std::vector<const char *> names; // positional names, also accepted as keywords
};

const std::map<std::string, Arity> &builtinTable() {
  static const std::map<std::string, Arity> table = {
      {"program_id", {1, 1, {"axis"}}},
      {"num_programs", {1, 1, {"axis"}}},
      {"arange", {2, 2, {"start", "end"}}},
      {"zeros", {2, 2, {"shape", "dtype"}}},
      {"full", {3, 3, {"shape", "value", "dtype"}}},
      // Triton's order: boundary_check and padding_option apply to block pointers.
      {"load", {1, 7, {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                       "eviction_policy"}}},
      {"store", {2, 6, {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"}}},
      {"where", {3, 3, {"condition", "x", "y"}}},
      {"maximum", {2, 3, {"x", "y", "propagate_nan"}}},
      {"minimum", {2, 3, {"x", "y", "propagate_nan"}}},
      {"fma", {3, 3, {"x", "y", "z"}}},
      {"div_rn", {2, 2, {"x", "y"}}},
      {"cdiv", {2, 2, {"x", "div"}}},
      {"pointer_type", {1, 1, {"element_ty"}}},
      {"multiple_of", {2, 2, {"input", "values"}}},
      {"max_contiguous", {2, 2, {"input", "values"}}},
      {"float", {1, 1, {"x"}}},
      {"to_tensor", {1, 1, {"x"}}},
      {"len", {1, 1, {"obj"}}},
      {"static_assert", {1, 2, {"cond", "msg"}}},
      {"condition", {1, 2, {"arg1", "disable_licm"}}},
      {"device_assert", {1, 2, {"cond", "msg"}}},
      {"device_print", {1, 64, {"prefix"}}},
      {"exp", {1, 1, {"x"}}}, {"exp2", {1, 1, {"x"}}}, {"log", {1, 1, {"x"}}}, {"log2", {1, 1, {"x"}}},
      {"sqrt", {1, 1, {"x"}}}, {"rsqrt", {1, 1, {"x"}}}, {"abs", {1, 1, {"x"}}}, {"sin", {1, 1, {"x"}}},
      {"cos", {1, 1, {"x"}}}, {"tanh", {1, 1, {"x"}}}, {"erf", {1, 1, {"x"}}}, {"sigmoid", {1, 1, {"x"}}},
      {"floor", {1, 1, {"x"}}}, {"ceil", {1, 1, {"x"}}},
      {"sum", {1, 4, {"input", "axis", "keep_dims", "dtype"}}},
      {"xor_sum", {1, 3, {"input", "axis", "keep_dims"}}},
      {"reduce_or", {1, 3, {"input", "axis", "keep_dims"}}},
      {"max", {1, 5, {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"}}},
      {"min", {1, 5, {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"}}},
      {"argmax", {2, 4, {"input", "axis", "tie_break_left", "keep_dims"}}},
      {"argmin", {2, 4, {"input", "axis", "tie_break_left", "keep_dims"}}},
      {"cumsum", {1, 4, {"input", "axis", "reverse", "dtype"}}},
      {"cumprod", {1, 3, {"input", "axis", "reverse"}}},
      {"reduce", {3, 4, {"input", "axis", "combine_fn", "keep_dims"}}},
      {"associative_scan", {3, 4, {"input", "axis", "combine_fn", "reverse"}}},
      {"reshape", {2, 3, {"input", "shape", "can_reorder"}}},
      {"trans", {1, 4, {"input", "dims"}}},
      {"dot", {2, 7, {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"}}},
      {"broadcast_to", {2, 2, {"input", "shape"}}},
      {"broadcast", {2, 2, {"input", "other"}}},
      {"softmax", {1, 4, {"x", "dim", "keep_dims", "ieee_rounding"}}},
      {"atomic_add", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_max", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_min", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_xchg", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_and", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_or", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_xor", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"atomic_cas", {3, 5, {"pointer", "cmp", "val", "sem", "scope"}}},
      {"atomic_load", {1, 4, {"pointer", "mask", "sem", "scope"}}},
      {"atomic_store", {2, 5, {"pointer", "val", "mask", "sem", "scope"}}},
      {"cast", {2, 4, {"input", "dtype", "fp_downcast_rounding", "bitcast"}}},
      {"is_cuda", {0, 0, {}}},
      {"is_hip", {0, 0, {}}},
      {"is_hip_cdna3", {0, 0, {}}},
      {"is_hip_cdna4", {0, 0, {}}},
      {"cuda_capability_geq", {1, 2, {"major", "minor"}}},
      {"rand", {2, 3, {"seed", "offset", "n_rounds"}}},
      {"randn", {2, 3, {"seed", "offset", "n_rounds"}}},
      {"randint", {2, 3, {"seed", "offset", "n_rounds"}}},
      {"randint4x", {2, 3, {"seed", "offset", "n_rounds"}}},
      {"rand4x", {2, 3, {"seed", "offsets", "n_rounds"}}},
      {"randn4x", {2, 3, {"seed", "offset", "n_rounds"}}},
      {"philox", {5, 6, {"seed", "c0", "c1", "c2", "c3", "n_rounds"}}},
      {"philox_impl", {6, 7, {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"}}},
      {"uint_to_uniform_float", {1, 1, {"x"}}},
      {"pair_uniform_to_normal", {2, 2, {"u1", "u2"}}},
      // Triton's math and debugging builtins (MathBuiltins.cpp, DebugBuiltins.cpp, InlineAsm.cpp).
      {"clamp", {3, 4, {"x", "min", "max", "propagate_nan"}}},
      {"umulhi", {2, 2, {"x", "y"}}},
      {"fdiv", {2, 3, {"x", "y", "ieee_rounding"}}},
      {"sqrt_rn", {1, 1, {"x"}}},
      {"max_constancy", {2, 2, {"input", "values"}}},
      {"debug_barrier", {0, 0, {}}},
      {"static_print", {0, 64, {}}},
      {"assume", {1, 1, {"cond"}}},
      {"inline_asm_elementwise", {6, 6, {"asm", "constraints", "args", "dtype", "is_pure", "pack"}}},
      // Triton's shape operations (ShapeBuiltins.cpp); permute, trans, expand_dims, ravel and view read
      // their arguments themselves.
      {"permute", {2, 4, {"input", "dims"}}},
      {"expand_dims", {2, 2, {"input", "axis"}}},
      {"ravel", {1, 2, {"x", "can_reorder"}}},
      {"view", {2, 4, {"input", "shape"}}},
      {"join", {2, 2, {"a", "b"}}},
      {"split", {1, 1, {"a"}}},
      {"interleave", {2, 2, {"a", "b"}}},
      {"cat", {2, 3, {"input", "other", "can_reorder"}}},
      {"flip", {1, 2, {"x", "dim"}}},
      {"gather", {3, 3, {"src", "index", "axis"}}},
      {"zeros_like", {1, 1, {"input"}}},
      {"swizzle2d", {5, 5, {"i", "j", "size_i", "size_j", "size_g"}}},
      {"histogram", {2, 3, {"input", "num_bins", "mask"}}},
      // Triton's bitonic sorts along the last dimension (Sort.cpp).
      {"sort", {1, 3, {"x", "dim", "descending"}}},
      {"topk", {2, 4, {"x", "k", "dim", "descending"}}},
      {"bitonic_merge", {1, 3, {"x", "dim", "descending"}}},
      // Functions of Triton's libdevice module, under its names and parameter names.
      {"log1p", {1, 1, {"arg0"}}}, {"expm1", {1, 1, {"arg0"}}}, {"tan", {1, 1, {"arg0"}}},
      {"cosh", {1, 1, {"arg0"}}}, {"sinh", {1, 1, {"arg0"}}}, {"asin", {1, 1, {"arg0"}}},
      {"acos", {1, 1, {"arg0"}}}, {"atan", {1, 1, {"arg0"}}}, {"asinh", {1, 1, {"arg0"}}},
      {"acosh", {1, 1, {"arg0"}}}, {"atanh", {1, 1, {"arg0"}}}, {"log10", {1, 1, {"arg0"}}},
      {"cbrt", {1, 1, {"arg0"}}}, {"erfc", {1, 1, {"arg0"}}}, {"erfinv", {1, 1, {"arg0"}}},
      {"exp10", {1, 1, {"arg0"}}}, {"lgamma", {1, 1, {"arg0"}}}, {"tgamma", {1, 1, {"arg0"}}},
      {"round", {1, 1, {"arg0"}}}, {"rint", {1, 1, {"arg0"}}}, {"nearbyint", {1, 1, {"arg0"}}},
      {"trunc", {1, 1, {"arg0"}}}, {"isnan", {1, 1, {"arg0"}}}, {"isinf", {1, 1, {"arg0"}}},
      {"signbit", {1, 1, {"arg0"}}}, {"popc", {1, 1, {"arg0"}}}, {"clz", {1, 1, {"arg0"}}},
      {"pow", {2, 2, {"arg0", "arg1"}}}, {"atan2", {2, 2, {"arg0", "arg1"}}},
      {"copysign", {2, 2, {"arg0", "arg1"}}}, {"hypot", {2, 2, {"arg0", "arg1"}}},
  };
  return table;
}

/// What Python's float() makes of `text`: a decimal or exponent form, or
/// inf, infinity or nan in any case, signed, with surrounding spaces.
std::optional<double> parsePythonFloat(llvm::StringRef text) {
  text = text.trim();
  bool negative = text.consume_front("-");
  if (!negative)
    text.consume_front("+");
  std::string lower = text.lower();
  double v;
  if (lower == "inf" || lower == "infinity")
    v = std::numeric_limits<double>::infinity();
  else if (lower == "nan")
    v = std::numeric_limits<double>::quiet_NaN();
  else if (text.empty() || !(std::isdigit(text.front()) || text.front() == '.') || text.getAsDouble(v))
    return std::nullopt;
  return negative ? -v : v;
}

bool isMathFunction(const std::string &n) {
  return llvm::is_contained({"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "abs", "sin", "cos", "tanh", "erf",
                             "sigmoid", "floor", "ceil"},
                            n);
}

} // namespace

bool isReduction(const std::string &n) {
  return llvm::is_contained({"sum", "xor_sum", "reduce_or", "max", "min", "argmax", "argmin"}, n);
}

bool Generator::expectBool(const TV &v, const std::string &name, const ast::Loc &l) {
  if (v.kind == TV::Bool)
    return true;
  error(l, name + " must be True or False, got " + describe(v));
  return false;
}

bool Generator::boolKeyword(const ast::CallExpr &call, const std::string &method, const char *name,
                            const std::string &hint, bool &value) {
  for (auto &kw : call.kwargs) {
    if (kw.name != name)
      return error(kw.loc, "'." + method + "' has no parameter named '" + kw.name + "'" + hint), false;
    TV v = gen(*kw.value);
    if (!v || !expectBool(v, name, kw.value->loc))
      return false;
    value = v.i != 0;
  }
  return true;
}

const ast::Loc &Generator::builtinArgLoc(const ast::CallExpr &call, const std::string &builtin, size_t i) {
  const ast::Expr *e = builtinArgExpr(call, builtin, i);
  return e ? e->loc : call.loc;
}

const ast::Expr *Generator::builtinArgExpr(const ast::CallExpr &call, const std::string &builtin, size_t i) {
  if (i < call.args.size())
    return call.args[i].get();
  const std::vector<const char *> &names = builtinTable().at(builtin).names;
  for (auto &kw : call.kwargs)
    if (i < names.size() && kw.name == names[i])
      return kw.value.get();
  return nullptr;
}

TV Generator::genCall(const ast::CallExpr &call) {
  if (auto *attr = llvm::dyn_cast<ast::AttributeExpr>(call.callee.get()))
    return genMethod(call, *attr);
  auto *callee = llvm::dyn_cast<ast::NameExpr>(call.callee.get());
  if (!callee)
    return error(call.loc, "only named functions can be called");
  const std::string &name = callee->name;
  if (combineFn && !file.find(name) && isForbiddenInCombine(name))
    return error(callee->loc, "'" + name + "' cannot be used in combine function '" + combineFn->name +
                                  "': it computes on one element of each block (scalars)");
  if ((name == "reduce" || name == "associative_scan") && !file.find(name)) // reads combine_fn itself
    return genCombineBuiltin(name, call, nullptr, nullptr);
  if (name == "make_tensor_descriptor" && !file.find(name)) // reads its list arguments itself
    return genMakeTensorDescriptor(call);
  if (name == "inline_asm_elementwise" && !file.find(name)) // reads its list arguments itself
    return genInlineAsm(call);
  if (name == "map_elementwise" && !file.find(name)) // reads its function argument itself
    return genMapElementwise(call);
  if (elementGuard.kind != TV::None && !file.find(name) &&
      (name == "store" || isAtomic(name) || name == "device_print" || name == "device_assert" ||
       name == "debug_barrier"))
    return error(callee->loc, "'" + name + "' cannot run under a condition on an element: a map_elementwise "
                              "function's branches both run (their values are selected)");
  if (name == "make_block_ptr" && !file.find(name)) // reads its list arguments itself
    return genMakeBlockPtr(call);
  if (name == "advance" && !file.find(name)) // reads its offsets itself
    return genAdvance(call, nullptr, nullptr);
  if ((name == "permute" || name == "trans") && !file.find(name)) // reads its dims itself
    return genPermute(name, call, nullptr, nullptr);
  if (isShapeAlias(name) && !file.find(name)) // reads its axes or shape itself
    return genShapeAlias(name, call, nullptr, nullptr);
  std::vector<TV> args;
  std::map<std::string, TV> kwargs;
  // static_assert's message and device_print's prefix are strings; all
  // arguments are evaluated first, in order.
  const ast::Function *helper = file.find(name);
  for (auto &a : call.args) {
    if (llvm::isa<ast::ListExpr>(a.get())) {
      // A helper takes a tuple; a builtin reads a shape's list itself.
      TV v = helper ? genTupleOrValue(*a) : TV::makeNone();
      if (!v)
        return v;
      args.push_back(v);
      continue;
    }
    TV v = genArgument(*a);
    if (!v)
      return v;
    args.push_back(v);
  }
  for (auto &kw : call.kwargs) {
    // As positionally: a list is a tuple for a helper, read by a builtin itself.
    TV v = llvm::isa<ast::ListExpr>(kw.value.get()) ? (helper ? genTupleOrValue(*kw.value) : TV::makeNone())
                                                    : genArgument(*kw.value);
    if (!v)
      return v;
    kwargs[kw.name] = v;
  }
  if (helper) {
    if (helper->isKernel)
      return error(call.loc, "cannot call @kernel '" + name + "' from a kernel");
    return genHelperCall(*helper, call, args, kwargs);
  }
  auto it = builtinTable().find(name);
  if (it == builtinTable().end())
    return error(callee->loc, "unknown function '" + name + "'");
  const Arity &arity = it->second;
  // Keywords fill positional slots by name.
  for (auto &kw : call.kwargs) {
    auto pos = llvm::find_if(arity.names, [&](const char *n) { return kw.name == n; });
    if (pos == arity.names.end())
      return error(kw.loc, "'" + name + "' has no parameter named '" + kw.name + "'");
    size_t idx = pos - arity.names.begin();
    if (idx < args.size() && name != "device_print")
      return error(kw.loc, "'" + name + "' got '" + kw.name + "' twice");
  }
  size_t given = args.size() + kwargs.size();
  if (given < arity.min || given > arity.max) {
    std::string expect = arity.min == arity.max ? std::to_string(arity.min)
                                                : std::to_string(arity.min) + " to " + std::to_string(arity.max);
    return error(call.loc, "'" + name + "' takes " + expect + " argument" + (arity.max == 1 ? "" : "s") + ", got " +
                               std::to_string(given));
  }
  for (size_t idx = args.size(); idx < arity.names.size(); ++idx) {
    auto kw = kwargs.find(arity.names[idx]);
    args.push_back(kw != kwargs.end() ? kw->second : TV::makeNone());
  }
  return genBuiltin(name, call, args, kwargs);
}

TV Generator::genArgument(const ast::Expr &e) {
  // PropagateNan.ALL / .NONE (clamp's propagate_nan), unless a variable hides the name.
  if (auto *attr = llvm::dyn_cast<ast::AttributeExpr>(&e))
    if (auto *base = llvm::dyn_cast<ast::NameExpr>(attr->base.get()))
      if (base->name == "PropagateNan" && !env.count(base->name)) {
        if (attr->name != "ALL" && attr->name != "NONE")
          return error(attr->loc, "PropagateNan has ALL and NONE, not '" + attr->name + "'");
        return TV::makeStr(attr->name);
      }
  return gen(e);
}

static TV constexprInt(Generator &g, const TV &v, const ast::Expr &e, const char *what) {
  if (v.kind != TV::Int)
    return g.error(e.loc, std::string(what) + " must be a compile-time integer, got " + g.describe(v));
  return v;
}

TV Generator::genBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args,
                         std::map<std::string, TV> &) {
  Location at = loc(call.loc);
  auto argLoc = [&](size_t i) -> const ast::Loc & { return i < call.args.size() ? call.args[i]->loc : call.loc; };
  auto argExpr = [&](size_t i) -> const ast::Expr & {
    const ast::Expr *e = builtinArgExpr(call, name, i);
    return e ? *e : static_cast<const ast::Expr &>(call);
  };

  if (name == "program_id" || name == "num_programs") {
    if (!constexprInt(*this, args[0], argExpr(0), "the axis"))
      return TV();
    if (args[0].i < 0 || args[0].i > 2)
      return error(argLoc(0), "the axis must be 0, 1 or 2, got " + std::to_string(args[0].i));
    Value v = name == "program_id" ? Value(ProgramIdOp::create(builder, at, builder.getI32Type(), args[0].i))
                                   : Value(NumProgramsOp::create(builder, at, builder.getI32Type(), args[0].i));
    return TV::makeVal(v);
  }
  if (name == "arange") {
    if (!constexprInt(*this, args[0], argExpr(0), "arange's start") ||
        !constexprInt(*this, args[1], argExpr(1), "arange's end"))
      return TV();
    int64_t n = args[1].i - args[0].i;
    if (!isPow2(n))
      return error(call.loc, "arange's size (end - start) must be a power of two, got " + std::to_string(n));
    if (args[0].i < INT32_MIN || args[1].i > INT32_MAX)
      return error(call.loc, "arange's bounds must fit in i32");
    auto type = RankedTensorType::get({n}, builder.getI32Type());
    return TV::makeVal(ArangeOp::create(builder, at, type, args[0].i, args[1].i));
  }
  auto shapeArg = [&](size_t i, SmallVectorImpl<int64_t> &shape) { return genShape(argExpr(i), args[i], shape); };
  if (name == "reshape" || name == "broadcast_to") {
    SmallVector<int64_t> shape;
    if (!shapeArg(1, shape))
      return TV();
    if (name == "reshape") {
      // can_reorder=True lets Triton give the elements in another order;
      // blk keeps row-major order either way.
      if (args[2].kind != TV::None && !expectBool(args[2], "can_reorder", builtinArgLoc(call, "reshape", 2)))
        return TV();
      return genReshape(args[0], shape, argLoc(0), argLoc(1), call.loc);
    }
    if (!args[0].isVal() || shapeOf(args[0]).empty())
      return error(argLoc(0), "'broadcast_to' needs a block, got " + describe(args[0]));
    return broadcastTo(args[0], shape, call.loc);
  }
  if (name == "zeros" || name == "full") {
    SmallVector<int64_t> shape;
    if (!shapeArg(0, shape))
      return TV();
    TV dtype = args[name == "zeros" ? 1 : 2];
    if (dtype.kind != TV::DType || isa<PointerType>(dtype.type))
      return error(argLoc(name == "zeros" ? 1 : 2), "expected a dtype, got " + describe(dtype));
    TV value = name == "zeros" ? TV::makeInt(0) : args[1];
    if (!value.isConst() && !(value.isVal() && shapeOf(value).empty()))
      return error(argLoc(1), "full's value must be a scalar, got " + describe(value));
    return cast(value, dtype.type, dtype.isUnsigned, shape, call.loc);
  }
  if (name == "load" || name == "store") {
    bool isLoad = name == "load";
    if (args[0].kind == TV::BlockPtr) {
      if (!genBlockPointerAccess(name, call, args))
        return TV();
    } else {
      // Triton's defaults, () and "", are allowed.
      for (size_t a : isLoad ? std::vector<size_t>{3, 4} : std::vector<size_t>{3}) {
        const ast::Expr *e = builtinArgExpr(call, name, a);
        auto *list = llvm::dyn_cast_or_null<ast::ListExpr>(e);
        bool unset = !e || (list && list->elements.empty()) || llvm::isa<ast::NoneExpr>(e) ||
                     (args[a].kind == TV::Str && args[a].s.empty());
        if (!unset)
          return error(builtinArgLoc(call, name, a),
                       std::string(a == 3 ? "boundary_check" : "padding_option") +
                           " applies to block pointers (make_block_ptr); through pointers, mask= and other= say "
                           "which elements are read");
      }
    }
    TV ptr = args[0];
    if (!ptr.isVal() || !isa<PointerType>(elementType(ptr)))
      return error(argLoc(0), "'" + name + "' needs a pointer or a block of pointers, got " + describe(ptr));
    Type pointee = llvm::cast<PointerType>(elementType(ptr)).getPointeeType();
    if (isLoad && elementGuard.kind != TV::None) {
      // Under a branch on an element (map_elementwise): read only where the
      // branch runs, each element through its own copy of the pointer.
      SmallVector<int64_t> both;
      if (!broadcastShapes(shapeOf(ptr), shapeOf(elementGuard), both) || !(ptr = broadcastTo(ptr, both, argLoc(0))))
        return error(argLoc(0), "shape mismatch: a load of " + describe(ptr) + " under a condition on elements of " +
                                    describe(elementGuard));
      TV m = args[1].kind == TV::None ? TV::makeNone() : toBool(args[1], argLoc(1));
      args[1] = m.kind == TV::None ? elementGuard : genBinary("&", m, elementGuard, argLoc(1));
      if (!args[1])
        return TV();
    }
    SmallVector<int64_t> shape(shapeOf(ptr));
    TV value, mask = args[isLoad ? 1 : 2], other = isLoad ? args[2] : TV::makeNone();
    if (!isLoad) {
      value = args[1];
      if (!value.isConst() && !value.isVal())
        return error(argLoc(1), "'store' needs a value, got " + describe(value));
      if (!shapeOf(value).empty() && shape.empty())
        return error(argLoc(1), "shape mismatch: cannot store " + describe(value) + " through a single pointer");
      value = cast(value, pointee, ptr.isUnsigned, shape, argLoc(1)); // stores convert to the pointee type
      if (!value)
        return TV();
    }
    size_t cacheArg = isLoad ? 5 : 4, evictArg = cacheArg + 1;
    for (size_t extra : {cacheArg, evictArg})
      if (args[extra].kind != TV::None && args[extra].kind != TV::Str)
        return error(builtinArgLoc(call, name, extra), "cache and eviction hints must be strings");
    EvictionPolicy evict = EvictionPolicy::Normal;
    if (args[evictArg].kind == TV::Str && !args[evictArg].s.empty()) {
      std::optional<EvictionPolicy> e = symbolizeEvictionPolicy(args[evictArg].s);
      if (!e)
        return error(builtinArgLoc(call, name, evictArg),
                     "eviction_policy must be \"evict_first\", \"evict_last\" or \"evict_normal\", got \"" +
                         args[evictArg].s + "\"");
      evict = *e;
    }
    Value maskValue, otherValue;
    if (mask.kind != TV::None) {
      size_t maskArg = isLoad ? 1 : 2;
      if (shape.empty() && mask.isVal() && !shapeOf(mask).empty())
        return error(argLoc(maskArg), "shape mismatch: a mask of " + describe(mask) + " needs a block of pointers; this " +
                                          name + " goes through a single pointer");
      TV m = toBool(mask, argLoc(maskArg));
      if (!m)
        return TV();
      if (m.isConst()) {
        if (m.asDouble() == 0)
          return isLoad ? (other.kind != TV::None ? cast(other, pointee, ptr.isUnsigned, shape, call.loc)
                                                   : cast(TV::makeInt(0), pointee, ptr.isUnsigned, shape, call.loc))
                        : TV::makeNone(); // masked off everywhere
      } else {
        m = broadcastTo(m, shape, call.loc);
        if (!m)
          return TV();
        maskValue = m.value;
      }
      if (isLoad && other.kind != TV::None && maskValue) {
        TV o = cast(other, pointee, ptr.isUnsigned, shape, argLoc(2));
        if (!o)
          return TV();
        otherValue = o.value;
      }
    }
    if (isLoad) {
      Type resultType = shape.empty() ? pointee : Type(RankedTensorType::get(shape, pointee));
      return TV::makeVal(LoadOp::create(builder, at, resultType, ptr.value, maskValue, otherValue, 1, IntegerAttr(), evict),
                         ptr.isUnsigned);
    }
    StoreOp::create(builder, at, ptr.value, value.value, maskValue, 1, IntegerAttr(), evict);
    return TV::makeNone();
  }
  if (name == "condition") {
    // Triton's `while condition(c, disable_licm=...)`: the condition itself.
    // The hint asks Triton not to hoist invariant loads out of the loop;
    // blk's passes hoist no loads out of loops.
    if (args[1].kind != TV::None && !expectBool(args[1], "disable_licm", builtinArgLoc(call, name, 1)))
      return TV();
    return args[0];
  }
  if (name == "where") {
    TV c = toBool(args[0], argLoc(0));
    if (!c)
      return c;
    if (c.isConst())
      return c.asDouble() != 0 ? args[1] : args[2];
    bool isUnsigned;
    Type elem = promote(args[1], args[2], isUnsigned);
    if (!elem) {
      Type a = elementType(args[1]), b = elementType(args[2]);
      if (a && a == b && isa<PointerType>(a))
        elem = a;
      else
        return error(call.loc, "type mismatch: where() branches " + describe(args[1]) + " and " + describe(args[2]));
    }
    if (!constantFits(args[1], elem, isUnsigned, argLoc(1)) || !constantFits(args[2], elem, isUnsigned, argLoc(2)))
      return TV();
    SmallVector<int64_t> shape;
    if (!broadcastShape(args[1], args[2], shape, call.loc))
      return TV();
    SmallVector<int64_t> withCond;
    if (!broadcastShapes(shape, shapeOf(c), withCond)) // the condition broadcasts too
      return error(call.loc, "shape mismatch: condition " + describe(c) + " for " + describe(args[1]) + " and " +
                                 describe(args[2]));
    shape = withCond;
    TV a = cast(args[1], elem, isUnsigned, shape, argLoc(1));
    TV b = cast(args[2], elem, isUnsigned, shape, argLoc(2));
    TV cc = broadcastTo(c, shape, argLoc(0));
    if (!a || !b || !cc)
      return TV();
    return TV::makeVal(arith::SelectOp::create(builder, at, cc.value, a.value, b.value), isUnsigned);
  }
  if (name == "maximum" || name == "minimum") {
    // NONE: a NaN operand is ignored (max.f32); ALL: it is the result (max.NaN.f32).
    bool propagate;
    if (!propagateNan(args[2], builtinArgLoc(call, name, 2), propagate))
      return TV();
    if (args[0].isConst() && args[1].isConst()) {
      bool isF = args[0].kind == TV::Float || args[1].kind == TV::Float;
      double x = args[0].asDouble(), y = args[1].asDouble();
      if (isF && (std::isnan(x) || std::isnan(y)))
        return TV::makeFloat(propagate ? NAN : std::isnan(x) ? y : x);
      bool pickFirst = name == "maximum" ? x >= y : x <= y;
      if (isF)
        return TV::makeFloat(pickFirst ? x : y);
      return pickFirst ? args[0] : args[1];
    }
    bool isUnsigned;
    Type elem = promote(args[0], args[1], isUnsigned);
    if (!elem)
      return error(call.loc, "type mismatch: " + name + " of " + describe(args[0]) + " and " + describe(args[1]));
    if (!constantFits(args[0], elem, isUnsigned, argLoc(0)) || !constantFits(args[1], elem, isUnsigned, argLoc(1)))
      return TV();
    Type roundBack = isFloat8(elem) ? elem : Type(); // fp8: in f32 (exact)
    if (roundBack) {
      elem = builder.getF32Type();
      args[0] = widenFloat8(args[0], argLoc(0)), args[1] = widenFloat8(args[1], argLoc(1));
    }
    SmallVector<int64_t> shape;
    if (!broadcastShape(args[0], args[1], shape, call.loc))
      return TV();
    TV a = cast(args[0], elem, isUnsigned, shape, argLoc(0)), b = cast(args[1], elem, isUnsigned, shape, argLoc(1));
    if (!a || !b)
      return TV();
    bool isMax = name == "maximum";
    Value r;
    if (isa<FloatType>(elem) && propagate)
      r = isMax ? Value(arith::MaximumFOp::create(builder, at, a.value, b.value))
                : Value(arith::MinimumFOp::create(builder, at, a.value, b.value));
    else if (isa<FloatType>(elem))
      r = isMax ? Value(arith::MaxNumFOp::create(builder, at, a.value, b.value))
                : Value(arith::MinNumFOp::create(builder, at, a.value, b.value));
    else if (isUnsigned)
      r = isMax ? Value(arith::MaxUIOp::create(builder, at, a.value, b.value))
                : Value(arith::MinUIOp::create(builder, at, a.value, b.value));
    else
      r = isMax ? Value(arith::MaxSIOp::create(builder, at, a.value, b.value))
                : Value(arith::MinSIOp::create(builder, at, a.value, b.value));
    return roundBack ? convertElement(TV::makeVal(r), roundBack, false, call.loc) : TV::makeVal(r, isUnsigned);
  }
  if (name == "fma") {
    if (args[0].isConst() && args[1].isConst() && args[2].isConst())
      return TV::makeFloat(std::fma(args[0].asDouble(), args[1].asDouble(), args[2].asDouble()));
    bool u;
    Type elem = promote(args[0], args[1], u);
    if (elem && args[2].isVal()) { // promote the product's type with the addend's
      Type c = elementType(args[2]);
      if (isa<FloatType>(c) && c.getIntOrFloatBitWidth() > elem.getIntOrFloatBitWidth())
        elem = c;
    }
    if (!elem || !isa<FloatType>(elem))
      return error(call.loc, "fma needs floating-point operands");
    Type roundBack = isFloat8(elem) ? elem : Type(); // fp8: in f32
    if (roundBack) {
      elem = builder.getF32Type();
      for (int i = 0; i < 3; ++i)
        args[i] = widenFloat8(args[i], argLoc(i));
    }
    SmallVector<int64_t> shape, s2;
    if (!broadcastShape(args[0], args[1], shape, call.loc))
      return TV();
    TV first = shape.empty() ? args[2] : (shapeOf(args[0]).empty() ? args[1] : args[0]);
    if (!broadcastShape(first, args[2], s2, call.loc))
      return TV();
    TV a = cast(args[0], elem, false, s2, argLoc(0)), b = cast(args[1], elem, false, s2, argLoc(1)),
       c = cast(args[2], elem, false, s2, argLoc(2));
    if (!a || !b || !c)
      return TV();
    TV r = TV::makeVal(math::FmaOp::create(builder, at, a.value, b.value, c.value));
    return roundBack ? convertElement(r, roundBack, false, call.loc) : r;
  }
  if (name == "div_rn") { // IEEE-rounded division (the operator `/` is within 2 ulp on f32)
    TV q = genBinary("/", args[0], args[1], call.loc);
    if (q && q.isVal())
      if (auto div = q.value.getDefiningOp<arith::DivFOp>())
        div->setAttr(kPreciseAttr, builder.getUnitAttr());
    return q;
  }
  if (name == "pointer_type") { // Triton's tl.pointer_type(T): the dtype a 64-bit address converts to
    if (args[0].kind != TV::DType)
      return error(argLoc(0), "pointer_type needs a dtype, got " + describe(args[0]));
    return TV::makeDType(PointerType::get(builder.getContext(), args[0].type), args[0].isUnsigned);
  }
  if (name == "cdiv") {
    // Constants fold below with Python's // (as Triton's cdiv on constexprs).
    if (args[0].isConst() && args[1].isConst() &&
        (args[0].kind != TV::Int || args[1].kind != TV::Int || args[1].wide() == 0))
      return error(call.loc, "cdiv needs integers and a non-zero divisor");
    TV sum = genBinary("+", args[0], args[1], call.loc);
    if (!sum)
      return sum;
    TV minus = genBinary("-", sum, TV::makeInt(1), call.loc);
    return minus ? genBinary("//", minus, args[1], call.loc) : minus;
  }
  if (name == "multiple_of" || name == "max_contiguous" || name == "max_constancy") {
    TV x = args[0];
    if (!constexprInt(*this, args[1], argExpr(1), "the hint"))
      return TV();
    if (!isPow2(args[1].i))
      return error(argLoc(1), "the hint must be a power of two, got " + std::to_string(args[1].i));
    if (x.isConst())
      return x;
    if (!x.isVal() || (isa<FloatType>(elementType(x)) && name != "max_constancy"))
      return error(argLoc(0), name + " applies to integers and pointers, got " + describe(x));
    IntegerAttr div, contig, constancy;
    if (name == "multiple_of")
      div = builder.getI64IntegerAttr(args[1].i);
    else if (name == "max_contiguous")
      contig = builder.getI64IntegerAttr(args[1].i);
    else
      constancy = builder.getI64IntegerAttr(args[1].i);
    return TV::makeVal(AssumeOp::create(builder, at, x.value.getType(), x.value, div, contig, constancy),
                       x.isUnsigned);
  }
  if (name == "len") {
    // Python's len() of a tuple, a compile-time integer.
    if (args[0].kind != TV::Tuple)
      return error(argLoc(0), "len() takes a tuple, got " + describe(args[0]));
    return TV::makeInt(int64_t(args[0].elements.size()));
  }
  if (name == "to_tensor") {
    // Triton 3.9's to_tensor: a compile-time number becomes a value of the
    // type it takes on its own (i32, u32, i64 or u64; f32 or f64; i1), and
    // arithmetic on it is a value's from then on (i32 wraps); a value stays.
    if (!args[0].isVal() && !args[0].isConst())
      return error(argLoc(0), "to_tensor takes a number or a value, got " + describe(args[0]));
    return materialize(args[0], argLoc(0));
  }
  if (name == "float") {
    // Python's float() of a compile-time number or string: Triton kernels
    // write float("-inf") for a masked maximum's `other`.
    TV x = args[0];
    if (x.isConst())
      return TV::makeFloat(x.asDouble());
    if (x.kind != TV::Str)
      return error(argLoc(0), "float() takes a compile-time number or string, got " + describe(x));
    if (std::optional<double> v = parsePythonFloat(x.s))
      return TV::makeFloat(*v);
    return error(argLoc(0), "could not convert string to float: '" + x.s + "'");
  }
  if (name == "static_assert") {
    TV c = args[0];
    if (!c.isConst())
      return error(argLoc(0), "static_assert needs a compile-time condition, got " + describe(c));
    if (c.asDouble() == 0)
      return error(call.loc, "static_assert failed" + (args[1].kind == TV::Str ? ": " + args[1].s : std::string()));
    return TV::makeNone();
  }
  if (name == "device_assert") {
    TV c = toBool(args[0], argLoc(0));
    if (!c)
      return c;
    if (c.isConst())
      c = convertElement(c, builder.getI1Type(), false, call.loc);
    std::string msg = args[1].kind == TV::Str ? args[1].s : "device_assert failed";
    AssertOp::create(builder, at, c.value, msg);
    return TV::makeNone();
  }
  if (name == "device_print") {
    if (args[0].kind != TV::Str)
      return error(argLoc(0), "device_print's first argument must be a string prefix");
    SmallVector<Value> values;
    SmallVector<bool> unsignedArgs;
    for (size_t i = 1; i < args.size(); ++i) {
      TV v = args[i];
      if (v.kind == TV::None)
        continue;
      if (v.isConst()) {
        bool isUnsigned;
        Type t = literalType(v, isUnsigned);
        v = convertElement(v, t, isUnsigned, argLoc(i));
      }
      if (!v || !v.isVal())
        return error(argLoc(i), "device_print prints numbers and blocks, got " + describe(args[i]));
      values.push_back(v.value);
      unsignedArgs.push_back(v.isUnsigned && isa<IntegerType>(elementType(v)) && !elementType(v).isInteger(1));
    }
    auto print = PrintOp::create(builder, at, args[0].s, values, DenseBoolArrayAttr());
    if (llvm::is_contained(unsignedArgs, true))
      print.setUnsignedArgs(unsignedArgs);
    return TV::makeNone();
  }
  if (isMathFunction(name))
    return genMath(name, args[0], argLoc(0));
  if (isMathBuiltin(name))
    return genMathBuiltin(name, call, args);
  if (isDebugBuiltin(name))
    return genDebugBuiltin(name, call, args);
  if (isTargetQuery(name))
    return genTargetQuery(name, call, args);
  if (isReduction(name))
    return genReduction(name, call, args);
  if (name == "softmax")
    return genSoftmax(call, args);
  if (isAtomic(name))
    return genAtomic(name, call, args);
  if (name == "cast") {
    bool bitcast = false;
    if (args[3].kind != TV::None) {
      if (!expectBool(args[3], "bitcast", argLoc(3)))
        return TV();
      bitcast = args[3].i != 0;
    }
    if (args[1].kind != TV::DType)
      return error(argLoc(1), "'cast' needs a dtype, got " + describe(args[1]));
    return genCast(args[0], args[1], bitcast, args[2], argLoc(0), argLoc(2), call.loc);
  }
  if (name == "dot")
    return genDot(call, args);
  if (isRandom(name))
    return genRandom(name, call, args);
  if (name == "cumsum" || name == "cumprod")
    return genScan(name, call, args);
  if (isShapeBuiltin(name))
    return genShapeBuiltin(name, call, args);
  if (name == "histogram")
    return genHistogram(call, args);
  if (isSortBuiltin(name))
    return genSort(name, call, args, nullptr);
  return error(call.loc, "unknown function '" + name + "'");
}

TV Generator::genMath(const std::string &name, const TV &x, const ast::Loc &l) {
  if (x.isConst()) {
    double v = x.asDouble(), r;
    if (name == "exp") r = std::exp(v);
    else if (name == "exp2") r = std::exp2(v);
    else if (name == "log") r = std::log(v);
    else if (name == "log2") r = std::log2(v);
    else if (name == "sqrt") r = std::sqrt(v);
    else if (name == "rsqrt") r = 1 / std::sqrt(v);
    else if (name == "abs") return x.kind == TV::Int ? TV::makeInt(std::llabs(x.i)) : TV::makeFloat(std::fabs(v));
    else if (name == "sin") r = std::sin(v);
    else if (name == "cos") r = std::cos(v);
    else if (name == "tanh") r = std::tanh(v);
    else if (name == "erf") r = std::erf(v);
    else if (name == "sigmoid") r = 1 / (1 + std::exp(-v));
    else if (name == "floor") r = std::floor(v);
    else r = std::ceil(v);
    return TV::makeFloat(r);
  }
  if (!x.isVal() || !isa<IntegerType, FloatType>(elementType(x)))
    return error(l, "type mismatch: '" + name + "' needs a number or a block of numbers, got " + describe(x));
  Location at = loc(l);
  Type elem = elementType(x);
  if (name == "abs" && isa<IntegerType>(elem))
    return x.isUnsigned ? x : TV::makeVal(math::AbsIOp::create(builder, at, x.value));
  // Integers compute in f32; f16/bf16 compute in f32 and round back.
  Type computeType = isa<FloatType>(elem) && elem.getIntOrFloatBitWidth() >= 32 ? elem : builder.getF32Type();
  bool roundBack = isa<FloatType>(elem) && elem != computeType;
  TV in = convertElement(x, computeType, false, l);
  if (!in)
    return in;
  Value v = in.value, r;
  if (name == "exp") r = math::ExpOp::create(builder, at, v);
  else if (name == "exp2") r = math::Exp2Op::create(builder, at, v);
  else if (name == "log") r = math::LogOp::create(builder, at, v);
  else if (name == "log2") r = math::Log2Op::create(builder, at, v);
  else if (name == "sqrt") r = math::SqrtOp::create(builder, at, v);
  else if (name == "rsqrt") r = math::RsqrtOp::create(builder, at, v);
  else if (name == "abs") r = math::AbsFOp::create(builder, at, v);
  else if (name == "sin") r = math::SinOp::create(builder, at, v);
  else if (name == "cos") r = math::CosOp::create(builder, at, v);
  else if (name == "tanh") r = math::TanhOp::create(builder, at, v);
  else if (name == "erf") r = math::ErfOp::create(builder, at, v);
  else if (name == "floor") r = math::FloorOp::create(builder, at, v);
  else if (name == "ceil") r = math::CeilOp::create(builder, at, v);
  else { // sigmoid(x) = 1 / (1 + exp(-x))
    Value one = arith::ConstantOp::create(builder, at, builder.getFloatAttr(computeType, 1.0));
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      one = SplatOp::create(builder, at, RankedTensorType::get(t.getShape(), computeType), one);
    Value e = math::ExpOp::create(builder, at, arith::NegFOp::create(builder, at, v));
    r = arith::DivFOp::create(builder, at, one, arith::AddFOp::create(builder, at, one, e));
  }
  TV out = TV::makeVal(r);
  return roundBack ? convertElement(out, elem, false, l) : out;
}

bool Generator::genShape(const ast::Expr &expr, const TV &value, SmallVectorImpl<int64_t> &shape) {
  if (auto *list = llvm::dyn_cast<ast::ListExpr>(&expr)) {
    for (auto &el : list->elements) {
      TV d = gen(*el);
      if (!d || !constexprInt(*this, d, *el, "a block dimension"))
        return false;
      shape.push_back(d.i);
    }
  } else if (value.kind == TV::Int) {
    shape.push_back(value.i);
  } else {
    return error(expr.loc, "a block shape must be a list of compile-time integers such as [BLOCK]"), false;
  }
  if (shape.empty() || shape.size() > 3)
    return error(expr.loc, "blocks have 1 to 3 dimensions, got " + std::to_string(shape.size())), false;
  for (int64_t d : shape)
    if (!isPow2(d))
      return error(expr.loc, "block dimensions must be powers of two, got " + std::to_string(d)), false;
  return true;
}

TV Generator::genTrans(const TV &x, const ast::Loc &xLoc, const ast::Loc &callLoc) {
  if (!x.isVal() || shapeOf(x).size() != 2)
    return error(xLoc, "'trans' needs a 2-D block, got " + describe(x));
  auto type = llvm::cast<RankedTensorType>(x.value.getType());
  auto result = RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)}, type.getElementType());
  return TV::makeVal(TransOp::create(builder, loc(callLoc), result, x.value), x.isUnsigned);
}

TV Generator::genReshape(const TV &x, ArrayRef<int64_t> shape, const ast::Loc &xLoc, const ast::Loc &shapeLoc,
                         const ast::Loc &callLoc) {
  if (!x.isVal() || shapeOf(x).empty())
    return error(xLoc, "'reshape' needs a block, got " + describe(x));
  auto type = llvm::cast<RankedTensorType>(x.value.getType());
  auto result = RankedTensorType::get(shape, type.getElementType());
  if (result.getNumElements() != type.getNumElements())
    return error(shapeLoc, "cannot reshape " + describe(x) + " (" + std::to_string(type.getNumElements()) +
                               " elements) into " + std::to_string(result.getNumElements()) + " elements");
  return TV::makeVal(ReshapeOp::create(builder, loc(callLoc), result, x.value), x.isUnsigned);
}

TV Generator::genMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr) {
  TV base = gen(*attr.base);
  if (!base)
    return base;
  if (base.isVal() && isa<TensorDescType>(base.value.getType()))
    return genDescriptorMethod(call, attr, base);
  if (attr.name == "advance") // p.advance(offsets)
    return genAdvance(call, &base, &attr.base->loc);
  if (attr.name == "reduce" || attr.name == "associative_scan") // x.reduce(axis, combine_fn)
    return genCombineBuiltin(attr.name, call, &base, &attr.base->loc);
  if (isReduction(attr.name) || attr.name == "cumsum" || attr.name == "cumprod") {
    // x.sum(axis) is sum(x, axis): the same parameters, `input` bound to x.
    const std::vector<const char *> &names = builtinTable().at(attr.name).names;
    std::vector<TV> args(names.size(), TV::makeNone());
    args[0] = base;
    const Arity &arity = builtinTable().at(attr.name);
    size_t given = 1 + call.args.size() + call.kwargs.size();
    if (given > arity.max)
      return error(call.loc, "'" + attr.name + "' takes " + std::to_string(arity.min) + " to " +
                                 std::to_string(arity.max) + " arguments, got " + std::to_string(given));
    for (size_t i = 0; i < call.args.size(); ++i)
      if (!(args[i + 1] = gen(*call.args[i])))
        return TV();
    for (auto &kw : call.kwargs) {
      auto pos = llvm::find_if(names, [&](const char *n) { return kw.name == n; });
      if (pos == names.end() || pos == names.begin())
        return error(kw.loc, "'" + attr.name + "' has no parameter named '" + kw.name + "'");
      if (!(args[pos - names.begin()] = gen(*kw.value)))
        return TV();
    }
    return isReduction(attr.name) ? genReduction(attr.name, call, args) : genScan(attr.name, call, args);
  }
  if (attr.name == "trans" || attr.name == "permute") // x.trans(), x.permute(2, 0, 1)
    return genPermute(attr.name, call, &base, &attr.base->loc);
  if (isShapeMethod(attr.name))
    return genShapeMethod(call, attr, base);
  if (isShapeAlias(attr.name)) // x.expand_dims(axis), x.ravel(), x.view(A, B)
    return genShapeAlias(attr.name, call, &base, &attr.base->loc);
  if (attr.name == "sort") // x.sort(dim, descending)
    return genSortMethod(call, attr, base);
  if (attr.name == "reshape") { // x.reshape([a, b]) or x.reshape(a, b), and can_reorder=
    if (call.args.empty())
      return error(call.loc, "'.reshape' takes a shape: x.reshape([A, B]) or x.reshape(A, B)");
    bool canReorder = false; // checked only: the order is row-major either way
    if (!boolKeyword(call, "reshape", "can_reorder", "", canReorder))
      return TV();
    SmallVector<int64_t> shape;
    if (call.args.size() == 1 && llvm::isa<ast::ListExpr>(*call.args[0])) {
      if (!genShape(*call.args[0], TV::makeNone(), shape))
        return TV();
    } else {
      for (auto &arg : call.args) { // one compile-time integer each
        TV d = llvm::isa<ast::ListExpr>(*arg) ? TV::makeNone() : gen(*arg);
        if ((!llvm::isa<ast::ListExpr>(*arg) && !d) || !constexprInt(*this, d, *arg, "a block dimension"))
          return TV();
        if (!isPow2(d.i))
          return error(arg->loc, "block dimensions must be powers of two, got " + std::to_string(d.i));
        shape.push_back(d.i);
      }
      if (shape.size() > 3)
        return error(call.loc, "blocks have 1 to 3 dimensions, got " + std::to_string(shape.size()));
    }
    return genReshape(base, shape, attr.base->loc, call.args[0]->loc, call.loc);
  }
  if (attr.name != "to")
    return error(attr.loc, "unknown method '" + attr.name + "' of " + describe(base));
  // x.to(dtype, fp_downcast_rounding=None, bitcast=False)
  bool bitcast = false;
  TV rounding = TV::makeNone();
  const ast::Loc *roundingLoc = &call.loc;
  for (auto &kw : call.kwargs) {
    if (kw.name != "bitcast" && kw.name != "fp_downcast_rounding")
      return error(kw.loc, "'.to' has no parameter named '" + kw.name +
                               "' (it takes a dtype, fp_downcast_rounding= and bitcast=)");
    TV v = gen(*kw.value);
    if (!v)
      return v;
    if (kw.name == "fp_downcast_rounding") {
      rounding = v, roundingLoc = &kw.value->loc;
      continue;
    }
    if (!expectBool(v, "bitcast", kw.value->loc))
      return TV();
    bitcast = v.i != 0;
  }
  if (call.args.size() != 1)
    return error(call.loc, "'.to' takes 1 argument (a dtype), got " + std::to_string(call.args.size()));
  TV dtype = gen(*call.args[0]);
  if (!dtype)
    return dtype;
  if (dtype.kind != TV::DType)
    return error(call.args[0]->loc, "'.to' needs a dtype, got " + describe(dtype));
  return genCast(base, dtype, bitcast, rounding, attr.base->loc, *roundingLoc, call.loc);
}

TV Generator::genCast(const TV &x, const TV &dtype, bool bitcast, const TV &rounding, const ast::Loc &xLoc,
                      const ast::Loc &roundingLoc, const ast::Loc &callLoc) {
  if (!x.isConst() && !x.isVal())
    return error(xLoc, "'.to' applies to numbers and blocks, got " + describe(x));
  if (isa<PointerType>(dtype.type) || (x.isVal() && isa<PointerType>(elementType(x)))) {
    if (rounding.kind != TV::None)
      return error(roundingLoc, "fp_downcast_rounding applies to conversions of floats, not of pointers");
    return genAddressCast(x, dtype, xLoc, callLoc); // bitcast or not, as Triton casts pointers
  }
  // fp_downcast_rounding: "rtne" (the default) or "rtz", which only a float
  // narrowed to a float uses (as in Triton, other conversions ignore it).
  bool towardZero = false;
  if (rounding.kind != TV::None) {
    if (rounding.kind != TV::Str || (rounding.s != "rtne" && rounding.s != "rtz"))
      return error(roundingLoc, "fp_downcast_rounding must be \"rtne\" or \"rtz\", got " +
                                    (rounding.kind == TV::Str ? "\"" + rounding.s + "\"" : describe(rounding)));
    towardZero = rounding.s == "rtz";
  }
  if (bitcast) {
    if (towardZero)
      return error(roundingLoc, "fp_downcast_rounding applies to conversions, not to bitcasts");
    return genBitcast(x, dtype, xLoc, callLoc);
  }
  TV v = x;
  if (towardZero && v.isConst()) { // narrowed at run time below, where the rounding is kept
    bool isUnsigned;
    Type t = literalType(v, isUnsigned);
    if (!(v = convertElement(v, t, isUnsigned, xLoc)))
      return v;
  }
  Type src = v.isVal() ? elementType(v) : Type();
  bool narrowsFloat = towardZero && src && isa<FloatType>(src) && isa<FloatType>(dtype.type) &&
                      dtype.type.getIntOrFloatBitWidth() < src.getIntOrFloatBitWidth();
  if (!narrowsFloat)
    return convertElement(v, dtype.type, dtype.isUnsigned, callLoc);
  if (isFloat8(dtype.type))
    return error(roundingLoc, "fp_downcast_rounding=\"rtz\" narrows to f32, f16 or bf16; conversions to " +
                                  describe(dtype.type, false) + " round to nearest even");
  Type resultType = dtype.type;
  if (auto t = dyn_cast<RankedTensorType>(v.value.getType()))
    resultType = RankedTensorType::get(t.getShape(), dtype.type, t.getEncoding());
  auto towardZeroAttr = arith::RoundingModeAttr::get(builder.getContext(), arith::RoundingMode::toward_zero);
  return TV::makeVal(arith::TruncFOp::create(builder, loc(callLoc), resultType, v.value, towardZeroAttr,
                                             arith::FastMathFlagsAttr()),
                     false);
}

TV Generator::genAddressCast(const TV &x, const TV &dtype, const ast::Loc &xLoc, const ast::Loc &callLoc) {
  auto toPointer = dyn_cast<PointerType>(dtype.type);
  auto withElement = [&](Value v, Type elem) -> Type {
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      return RankedTensorType::get(t.getShape(), elem);
    return elem;
  };
  TV v = x;
  if (v.isConst()) { // an address written as a number: 0 is the null pointer
    if (v.kind != TV::Int)
      return error(xLoc, "only a 64-bit integer converts to a pointer, got " + describe(v));
    if (!(v = convertElement(v, builder.getI64Type(), false, xLoc)))
      return v;
  }
  Type src = elementType(v);
  Location at = loc(callLoc);
  if (isa<PointerType>(src)) {
    if (toPointer) { // another pointee: the same address
      if (src == toPointer)
        return TV::makeVal(v.value, dtype.isUnsigned);
      Value address = PtrToIntOp::create(builder, at, withElement(v.value, builder.getI64Type()), v.value);
      return TV::makeVal(IntToPtrOp::create(builder, at, withElement(v.value, toPointer), address), dtype.isUnsigned);
    }
    if (!dtype.type.isInteger(64))
      return error(callLoc, "a pointer converts to a 64-bit integer (i64 or u64), not to " +
                                describe(dtype.type, dtype.isUnsigned));
    return TV::makeVal(PtrToIntOp::create(builder, at, withElement(v.value, dtype.type), v.value), dtype.isUnsigned);
  }
  if (!src.isInteger(64))
    return error(xLoc, "only a 64-bit integer converts to a pointer, got " + describe(v) +
                           (isa<IntegerType>(src) ? " (convert it to i64 first)" : ""));
  return TV::makeVal(IntToPtrOp::create(builder, at, withElement(v.value, toPointer), v.value), dtype.isUnsigned);
}

TV Generator::genBitcast(const TV &x, const TV &dtype, const ast::Loc &xLoc, const ast::Loc &callLoc) {
  TV v = x;
  if (v.isConst()) { // a constant reinterprets the bits of its own type
    bool isUnsigned;
    Type t = literalType(v, isUnsigned);
    if (!(v = convertElement(v, t, isUnsigned, xLoc)))
      return v;
  }
  Type src = elementType(v), dst = dtype.type; // numbers: genCast converts pointers
  unsigned ws = src.getIntOrFloatBitWidth(), wd = dst.getIntOrFloatBitWidth();
  if (ws != wd)
    return error(callLoc, "bitcast needs types of the same width: " + describe(src, v.isUnsigned) + " has " +
                              std::to_string(ws) + " bits, " + describe(dst, dtype.isUnsigned) + " has " +
                              std::to_string(wd));
  if (src == dst) // i32 <-> u32: the same bits, read with the other signedness
    return TV::makeVal(v.value, dtype.isUnsigned);
  Type resultType = dst;
  if (auto t = dyn_cast<RankedTensorType>(v.value.getType()))
    resultType = RankedTensorType::get(t.getShape(), dst);
  return TV::makeVal(arith::BitcastOp::create(builder, loc(callLoc), resultType, v.value), dtype.isUnsigned);
}

TV Generator::genHelperCall(const ast::Function &fn, const ast::CallExpr &call, std::vector<TV> &args,
                            std::map<std::string, TV> &kwargs) {
  if (llvm::is_contained(callStack, &fn))
    return error(call.loc, "helper '" + fn.name + "' calls itself; recursion is not supported");
  // Each helper is generated inline, recursing in the compiler.
  constexpr size_t kMaxCallDepth = 100;
  if (callStack.size() > kMaxCallDepth)
    return error(call.loc, "helpers call each other too deeply (more than " + std::to_string(kMaxCallDepth) +
                               " calls deep)");
  if (args.size() > fn.params.size())
    return error(call.loc, "'" + fn.name + "' takes " + std::to_string(fn.params.size()) + " arguments, got " +
                               std::to_string(args.size()));
  Env callee;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ast::Param &p = fn.params[i];
    TV v;
    if (i < args.size()) {
      v = args[i];
      if (kwargs.count(p.name))
        return error(call.loc, "'" + fn.name + "' got '" + p.name + "' twice");
    } else if (kwargs.count(p.name)) {
      v = kwargs[p.name];
    } else if (p.defaultValue) {
      Env saved = env;
      env = callee;
      v = gen(*p.defaultValue);
      env = saved;
      if (!v)
        return v;
    } else {
      return error(call.loc, "'" + fn.name + "' is missing argument '" + p.name + "'");
    }
    if (auto *ann = llvm::dyn_cast_or_null<ast::NameExpr>(p.annotation.get())) {
      if (ann->name == "constexpr" && !v.isConstexpr())
        return error(call.loc, "argument '" + p.name + "' of '" + fn.name + "' must be a compile-time constant");
      if (ann->name == "dtype" && v.kind != TV::DType)
        return error(call.loc, "argument '" + p.name + "' of '" + fn.name + "' must be a dtype");
    }
    callee[p.name] = v;
  }
  for (auto &[k, v] : kwargs)
    if (llvm::none_of(fn.params, [&](const ast::Param &p) { return p.name == k; }))
      return error(call.loc, "'" + fn.name + "' has no parameter named '" + k + "'");
  Env saved = std::move(env);
  std::vector<TV> savedReturn = std::move(returnValues);
  bool savedInLoop = inLoop;
  env = std::move(callee);
  returnValues.clear();
  inLoop = false;
  callStack.push_back(&fn);
  std::vector<const ast::Stmt *> body;
  for (auto &s : fn.body)
    body.push_back(s.get());
  bool returned = false;
  bool ok = genStmts(body, returned);
  callStack.pop_back();
  TV result = ok ? (returnValues.empty() ? TV::makeNone() : returnValues[0]) : TV();
  env = std::move(saved);
  returnValues = std::move(savedReturn);
  inLoop = savedInLoop;
  return result;
}

} // namespace blk
