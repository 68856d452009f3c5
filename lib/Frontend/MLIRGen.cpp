// Kernels and expressions: the entry of the frontend's code generation.
#include "Generator.h"

#include "blk/Frontend/Lexer.h"
#include "blk/Support/InternalErrors.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace blk {

void registerBlkDialects(DialectRegistry &registry) {
  registry.insert<BlkDialect, arith::ArithDialect, math::MathDialect, scf::SCFDialect, func::FuncDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect, gpu::GPUDialect, ub::UBDialect>();
}

Generator::Generator(MLIRContext &ctx, const ast::File &file, const GenOptions &options)
    : ctx(ctx), file{file, *this}, options(options), builder(&ctx) {}

/// Parses a -D value: an integer, a float, True/False or a type name.
static TV parseDefine(Generator &g, const std::string &text) {
  if (text == "True" || text == "False")
    return TV::makeBool(text == "True");
  bool isUnsigned;
  if (Type t = g.typeFromName(text, isUnsigned))
    return TV::makeDType(t, isUnsigned);
  // An integer as the source writes one (0x, 0o, 0b, '_', up to 2^64 - 1).
  bool negative = !text.empty() && text[0] == '-';
  std::vector<Token> toks = lex(llvm::StringRef(text).drop_front(negative), std::make_shared<std::string>());
  if (toks.size() == 3 && toks[0].kind == Tok::Int && toks[1].kind == Tok::Newline) {
    __int128 v = negative ? -__int128(toks[0].intValue) : __int128(toks[0].intValue);
    return TV::fitsConstant(v) ? TV::makeWideInt(v) : TV();
  }
  if (!toks.empty() && toks.back().kind == Tok::Error && std::isdigit((unsigned char)text[negative]))
    return TV(); // a malformed number (010, 2^64), not a word
  char *end = nullptr;
  long long i = std::strtoll(text.c_str(), &end, 0);
  if (end && *end == '\0' && !text.empty())
    return TV::makeInt(i);
  double f = std::strtod(text.c_str(), &end);
  if (end && *end == '\0' && !text.empty())
    return TV::makeFloat(f);
  // A string, quoted or a bare word (-D PRECISION=ieee).
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
    return TV::makeStr(text.substr(1, text.size() - 2));
  bool word = !text.empty() && llvm::all_of(text, [](char c) { return std::isalnum((unsigned char)c) || c == '_'; });
  return word ? TV::makeStr(text) : TV();
}

OwningOpRef<ModuleOp> Generator::run() {
  auto module = ModuleOp::create(builder.getUnknownLoc());
  const ast::File &root = file.root;
  // The file's kernels and those it imports by name (under those names).
  std::vector<std::pair<std::string, const ast::Function *>> kernels;
  for (auto &[name, fn] : root.kernels())
    if (options.kernels.empty() || llvm::is_contained(options.kernels, name))
      kernels.emplace_back(name, fn);
  for (const std::string &name : options.kernels) {
    const ast::Function *fn = root.find(name);
    if (!fn || !fn->isKernel) {
      emitError(FileLineColLoc::get(&ctx, root.filename, 1, 1)) << "no @kernel named '" << name << "' in the file";
      return nullptr;
    }
  }
  if (kernels.empty()) {
    emitError(FileLineColLoc::get(&ctx, root.filename, 1, 1)) << "the file defines no @kernel function";
    return nullptr;
  }
  // A binding no kernel of the file takes is a typo, not something to ignore;
  // one that only other kernels of the file take is not (one set of bindings
  // serves a file's kernels, compiled one at a time by the JIT).
  for (const auto &[name, value] : options.defines) {
    bool used = llvm::any_of(root.kernels(), [&, &name = name](const auto &kernel) {
      return llvm::any_of(kernel.second->params,
                          [&](const ast::Param &p) { return p.name == name && p.isCompileTime(); });
    });
    if (!used) {
      emitError(FileLineColLoc::get(&ctx, root.filename, 1, 1))
          << "-D " << name << ": no kernel in the file has a constexpr or dtype parameter named '" << name << "'";
      return nullptr;
    }
  }
  if (!genConstants(root))
    return nullptr;
  for (auto &[kernelName, fn] : kernels) {
    env.clear();
    callStack = {fn};
    // Compile-time parameters first: typed parameters may name them (`P: *T`).
    for (const ast::Param &p : fn->params) {
      if (!p.annotation)
        return error(p.loc, "parameter '" + p.name + "' of kernel '" + fn->name +
                                "' needs a type (for example `" + p.name + ": i32`, `" + p.name +
                                ": *f32` or `" + p.name + ": constexpr`)"),
               nullptr;
      if (!p.isCompileTime())
        continue;
      const std::string &kind = llvm::cast<ast::NameExpr>(p.annotation.get())->name; // constexpr or dtype
      TV value;
      auto it = options.defines.find(p.name);
      if (it != options.defines.end()) {
        value = parseDefine(*this, it->second);
        if (!value)
          return error(p.loc, "cannot parse the value '" + it->second + "' given for '" + p.name + "'"), nullptr;
      } else if (p.defaultValue) {
        builder.setInsertionPointToEnd(module.getBody());
        if (!(value = gen(*p.defaultValue)))
          return nullptr;
      } else {
        return error(p.loc, "missing value for " + kind + " parameter '" + p.name + "' of kernel '" +
                                fn->name + "' (give it a default or pass -D " + p.name + "=...)"),
               nullptr;
      }
      if (kind == "dtype" && value.kind != TV::DType)
        return error(p.loc, "dtype parameter '" + p.name + "' must be bound to a type, got " + describe(value)),
               nullptr;
      if (kind == "constexpr" && !value.isConstexpr())
        return error(p.loc, "constexpr parameter '" + p.name + "' must be bound to a number, a bool or a string, got " +
                                describe(value)),
               nullptr;
      env[p.name] = value;
    }
    // Runtime parameters become the kernel's arguments (KernelParameters.cpp).
    KernelArguments kernelArgs;
    SmallVector<const ast::Param *> runtimeParams;
    runtimeParamNames.clear();
    for (const ast::Param &p : fn->params)
      if (!env.count(p.name))
        runtimeParamNames.push_back(p.name);
    for (const ast::Param &p : fn->params) {
      if (env.count(p.name))
        continue;
      if (p.defaultValue)
        return error(p.defaultValue->loc, "only constexpr and dtype parameters can have defaults"), nullptr;
      if (!addKernelArguments(p, fn->name, kernelArgs))
        return nullptr;
      runtimeParams.push_back(&p);
    }
    runtimeParamNames.clear();
    builder.setInsertionPointToEnd(module.getBody());
    auto func = func::FuncOp::create(builder, loc(fn->loc), kernelName, builder.getFunctionType(kernelArgs.types, {}));
    func->setAttr(kKernelAttr, builder.getUnitAttr());
    // The bound compile-time parameters, for tools and the runtime to read.
    SmallVector<NamedAttribute> constants;
    for (const ast::Param &p : fn->params) {
      auto it = env.find(p.name);
      if (it == env.end())
        continue;
      const TV &v = it->second;
      Attribute a;
      if (v.kind == TV::Int)
        a = builder.getI64IntegerAttr(v.i);
      else if (v.kind == TV::Bool)
        a = builder.getBoolAttr(v.i != 0);
      else if (v.kind == TV::Float)
        a = builder.getF64FloatAttr(v.f);
      else if (v.kind == TV::DType)
        a = builder.getStringAttr(describe(v.type, v.isUnsigned));
      else if (v.kind == TV::Str)
        a = builder.getStringAttr(v.s);
      if (a)
        constants.push_back(builder.getNamedAttr(p.name, a));
    }
    func->setAttr(kConstantsAttr, builder.getDictionaryAttr(constants));
    Block *entry = func.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    for (auto [idx, name] : llvm::enumerate(kernelArgs.names)) {
      auto spec = options.divisibility.find(name);
      if (spec != options.divisibility.end())
        func.setArgAttr(idx, kDivisibilityAttr, builder.getI64IntegerAttr(spec->second));
      else if (options.alignAllPointers && isa<PointerType>(kernelArgs.types[idx]))
        func.setArgAttr(idx, kDivisibilityAttr, builder.getI64IntegerAttr(16));
    }
    unsigned next = 0;
    for (const ast::Param *p : runtimeParams)
      env[p->name] = bindKernelArguments(*p->annotation, kernelArgs, entry->getArguments(), next);
    std::vector<const ast::Stmt *> body;
    for (auto &s : fn->body)
      body.push_back(s.get());
    bool returned = false;
    returnValues.clear();
    if (!genStmts(body, returned))
      return nullptr;
    func::ReturnOp::create(builder, loc(fn->loc));
  }
  if (failed(verify(module)))
    return nullptr;
  return module;
}

bool Generator::genConstants(const ast::File &module) {
  if (globals.count(&module))
    return true;
  filesByLocation[module.locationName.get()] = &module;
  // The files it imports first: their constants may be imported here.
  for (const auto &imported : module.modules)
    if (!genConstants(*imported))
      return false;
  Env &mine = globals[&module];
  for (const ast::Import &imp : module.imports)
    if (imp.constant)
      mine[imp.name] = globals[imp.from][imp.constant->targets[0]];
  // Values that are not constants make ops: those go into a module that is
  // then dropped, and the value is refused.
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(builder.getUnknownLoc());
  OpBuilder::InsertionGuard guard(builder);
  constantsOf = &module;
  for (const auto &c : module.constants) {
    builder.setInsertionPointToEnd(scratch->getBody());
    env.clear();
    TV v = gen(*c->value);
    if (!v)
      return false;
    const std::string &kind = llvm::cast<ast::NameExpr>(c->annotation.get())->name;
    if (kind == "dtype" && v.kind != TV::DType)
      return error(c->value->loc, "constant '" + c->targets[0] + "' is declared a dtype but is " + describe(v)), false;
    if (kind == "constexpr" && !v.isConstexpr() && v.kind != TV::DType)
      return error(c->value->loc, "constant '" + c->targets[0] +
                                      "' must be a compile-time number, bool, string or dtype, got " + describe(v)),
             false;
    mine[c->targets[0]] = v;
  }
  constantsOf = nullptr;
  env.clear();
  return true;
}

TV Generator::genTupleOrValue(const ast::Expr &e) {
  auto *list = llvm::dyn_cast<ast::ListExpr>(&e);
  if (!list)
    return gen(e);
  std::vector<TV> values;
  for (auto &el : list->elements) {
    TV v = genTupleOrValue(*el); // a tuple may hold tuples: (x, (lo, hi))
    if (!v)
      return v;
    values.push_back(v);
  }
  return TV::makeTuple(std::move(values));
}

TV Generator::gen(const ast::Expr &e) {
  using K = ast::Expr::Kind;
  switch (e.kind) {
  case K::Int: {
    return TV::makeWideInt(static_cast<const ast::IntExpr &>(e).value);
  }
  case K::Float: return TV::makeFloat(static_cast<const ast::FloatExpr &>(e).value);
  case K::Bool: return TV::makeBool(static_cast<const ast::BoolExpr &>(e).value);
  case K::None: return TV::makeNone();
  case K::Str: return TV::makeStr(static_cast<const ast::StrExpr &>(e).value);
  case K::Name: {
    const std::string &name = static_cast<const ast::NameExpr &>(e).name;
    auto it = env.find(name);
    if (it != env.end())
      return it->second;
    // The constants of the file the name is written in (a default value of
    // an imported helper's parameter is evaluated where it is called).
    auto written = filesByLocation.find(e.loc.file.get());
    const Env &visible = globals[written != filesByLocation.end() ? written->second : &file.current()];
    if (auto global = visible.find(name); global != visible.end())
      return global->second;
    bool isUnsigned;
    if (Type t = typeFromName(name, isUnsigned))
      return TV::makeDType(t, isUnsigned);
    if (name == "inf")
      return TV::makeFloat(std::numeric_limits<double>::infinity());
    if (name == "nan")
      return TV::makeFloat(std::numeric_limits<double>::quiet_NaN());
    // Triton's bound on a block's elements, for kernels that check their
    // block sizes against it (a compiled block is bounded sooner: at most
    // 512 values per thread).
    if (name == "TRITON_MAX_TENSOR_NUMEL")
      return TV::makeWideInt(1048576);
    if (file.find(name))
      return error(e.loc, "function '" + name + "' can only be called");
    if (llvm::is_contained(runtimeParamNames, name))
      return error(e.loc, "'" + name + "' is a runtime parameter, known only at launch: a parameter's annotation "
                          "(a tensor descriptor's block shape) can use constexpr and dtype parameters only");
    return error(e.loc, "unknown name '" + name + "'");
  }
  case K::PointerType: {
    TV pointee = gen(*static_cast<const ast::PointerTypeExpr &>(e).pointee);
    if (!pointee)
      return pointee;
    if (pointee.kind != TV::DType)
      return error(e.loc, "expected a type after '*', got " + describe(pointee));
    // A pointer's TV carries its pointee's signedness: a load through *u32 is a u32.
    return TV::makeDType(PointerType::get(&ctx, pointee.type), pointee.isUnsigned);
  }
  case K::Unary: {
    auto &u = static_cast<const ast::UnaryExpr &>(e);
    TV x = gen(*u.operand);
    return x ? genUnary(u.op, x, e.loc) : x;
  }
  case K::Binary: {
    auto &b = static_cast<const ast::BinaryExpr &>(e);
    TV l = gen(*b.lhs);
    if (!l)
      return l;
    TV r = gen(*b.rhs);
    return r ? genBinary(b.op, l, r, e.loc) : r;
  }
  case K::Compare: {
    auto &c = static_cast<const ast::CompareExpr &>(e);
    TV l = gen(*c.lhs);
    if (!l)
      return l;
    TV r = gen(*c.rhs);
    return r ? genCompare(c.op, l, r, e.loc) : r;
  }
  case K::BoolOp: {
    auto &b = static_cast<const ast::BoolOpExpr &>(e);
    TV l = gen(*b.lhs);
    if (!l)
      return l;
    if (l.isConst()) { // Python short-circuit on compile-time values
      bool v = l.asDouble() != 0;
      if ((b.op == "and" && !v) || (b.op == "or" && v))
        return TV::makeBool(v);
      TV r = gen(*b.rhs);
      return r ? toBool(r, e.loc) : r;
    }
    TV r = gen(*b.rhs);
    if (!r)
      return r;
    if (!shapeOf(l).empty() || !shapeOf(r).empty())
      return error(e.loc, "'" + b.op + "' needs scalar conditions; use '" + (b.op == "and" ? "&" : "|") +
                              "' on blocks");
    TV lb = toBool(l, e.loc), rb = toBool(r, e.loc);
    if (!lb || !rb)
      return TV();
    return genBinary(b.op == "and" ? "&" : "|", lb, rb, e.loc);
  }
  case K::Ternary: {
    auto &t = static_cast<const ast::TernaryExpr &>(e);
    TV c = gen(*t.cond);
    if (!c)
      return c;
    if (c.isConst())
      return gen(c.asDouble() != 0 ? *t.thenValue : *t.elseValue);
    return error(e.loc, "a conditional expression needs a compile-time condition; use where(cond, a, b)");
  }
  case K::Call: return genCall(static_cast<const ast::CallExpr &>(e));
  case K::Attribute: {
    auto &a = static_cast<const ast::AttributeExpr &>(e);
    TV base = gen(*a.base);
    if (!base)
      return base;
    if (a.name == "dtype" && base.isVal())
      return TV::makeDType(elementType(base), base.isUnsigned);
    if (a.name == "element_ty" && base.kind == TV::DType && isa<PointerType>(base.type))
      return TV::makeDType(llvm::cast<PointerType>(base.type).getPointeeType());
    return error(e.loc, "unknown attribute '" + a.name + "' of " + describe(base));
  }
  case K::List: return error(e.loc, "a list is only allowed as a shape argument");
  case K::Subscript: {
    // x[:, None], x[None, :]: ':' keeps a dimension, None inserts one of size 1.
    auto &sub = static_cast<const ast::SubscriptExpr &>(e);
    TV base = gen(*sub.base);
    if (!base)
      return base;
    if (base.kind == TV::Tuple) {
      // t[i]: a compile-time index, negative from the end, as in Python.
      if (sub.indices.size() != 1 || llvm::isa<ast::SliceExpr, ast::NoneExpr>(sub.indices[0].get()))
        return error(e.loc, "a tuple takes one compile-time integer index");
      TV index = gen(*sub.indices[0]);
      if (!index)
        return index;
      if (index.kind != TV::Int)
        return error(sub.indices[0]->loc, "a tuple index must be a compile-time integer, got " + describe(index));
      int64_t n = int64_t(base.elements.size()), i = index.i < 0 ? index.i + n : index.i;
      if (index.isU64 || i < 0 || i >= n)
        return error(sub.indices[0]->loc, "tuple index " + std::to_string(index.i) + " is out of range for " +
                                              describe(base));
      return base.elements[size_t(i)];
    }
    if (!base.isVal() || shapeOf(base).empty())
      return error(e.loc, "only blocks can be indexed, got " + describe(base));
    size_t kept = 0;
    for (auto &idx : sub.indices) {
      if (llvm::isa<ast::SliceExpr>(idx.get()))
        ++kept;
      else if (!llvm::isa<ast::NoneExpr>(idx.get()))
        return error(idx->loc, "a block index must be ':' or None (element indexing is not supported)");
    }
    if (kept != shapeOf(base).size())
      return error(e.loc, "indexing " + describe(base) + " needs " + std::to_string(shapeOf(base).size()) +
                              " ':', got " + std::to_string(kept));
    Value x = base.value;
    for (size_t pos = 0; pos < sub.indices.size(); ++pos) {
      if (!llvm::isa<ast::NoneExpr>(sub.indices[pos].get()))
        continue;
      auto t = llvm::cast<RankedTensorType>(x.getType());
      SmallVector<int64_t> shape(t.getShape());
      shape.insert(shape.begin() + pos, 1);
      x = ExpandDimsOp::create(builder, loc(e.loc), RankedTensorType::get(shape, t.getElementType()), x, int32_t(pos));
    }
    return TV::makeVal(x, base.isUnsigned);
  }
  case K::Slice: return error(e.loc, "':' is only allowed inside an index");
  }
  return error(e.loc, "unsupported expression");
}

std::vector<std::pair<std::string, std::string>> boundConstants(func::FuncOp kernel) {
  std::vector<std::pair<std::string, std::string>> out;
  auto constants = kernel->getAttrOfType<DictionaryAttr>(kConstantsAttr);
  if (!constants)
    return out;
  for (NamedAttribute c : constants) {
    std::string value;
    llvm::raw_string_ostream os(value);
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      os << (i.getType().isInteger(1) ? (i.getInt() ? "True" : "False") : std::to_string(i.getInt()));
    else if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      os << f.getValueAsDouble();
    else if (auto str = dyn_cast<StringAttr>(c.getValue()))
      os << str.getValue();
    out.emplace_back(c.getName().str(), value);
  }
  return out;
}

OwningOpRef<ModuleOp> generateModule(MLIRContext &ctx, const ast::File &file, const GenOptions &options) {
  DialectRegistry registry;
  registerBlkDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = Generator(ctx, file, options).run();
  if (!module)
    return nullptr;
  // IR the verifier rejects is the frontend's bug, not the user's mistake.
  InternalErrors internal(ctx, "checking the IR the frontend generated");
  internal.setKernels(*module);
  if (options.injectInvalidIR)
    for (auto f : module->getOps<func::FuncOp>()) {
      OpBuilder b = OpBuilder::atBlockBegin(&f.getBody().front());
      func::ReturnOp::create(b, f.getLoc()); // a terminator in the middle of a block
    }
  if (failed(verify(*module)) || failed(internal.report()))
    return nullptr;
  return module;
}

} // namespace blk
