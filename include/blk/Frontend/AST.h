// The syntax tree of a .blk file. Every node carries its source location.
#ifndef BLK_FRONTEND_AST_H
#define BLK_FRONTEND_AST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace blk::ast {

struct Loc {
  std::shared_ptr<std::string> file;
  unsigned line = 0, col = 0;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

struct Expr {
  enum class Kind { Int, Float, Bool, None, Str, Name, Unary, Binary, Compare, BoolOp, Ternary, Call,
                    Attribute, Subscript, List, Slice, PointerType };
  Expr(Kind kind, Loc loc) : kind(kind), loc(std::move(loc)) {}
  virtual ~Expr() = default;
  const Kind kind;
  const Loc loc;
  /// Levels of expressions in this one, itself included (the parser bounds
  /// it: code generation recurses once per level).
  unsigned depth = 1;
};
using ExprPtr = std::unique_ptr<Expr>;

template <Expr::Kind K> struct ExprBase : Expr {
  explicit ExprBase(Loc loc) : Expr(K, std::move(loc)) {}
  static bool classof(const Expr *e) { return e->kind == K; }
};

struct IntExpr : ExprBase<Expr::Kind::Int> {
  IntExpr(Loc l, uint64_t v) : ExprBase(std::move(l)), value(v) {}
  uint64_t value;
};
struct FloatExpr : ExprBase<Expr::Kind::Float> {
  FloatExpr(Loc l, double v) : ExprBase(std::move(l)), value(v) {}
  double value;
};
struct BoolExpr : ExprBase<Expr::Kind::Bool> {
  BoolExpr(Loc l, bool v) : ExprBase(std::move(l)), value(v) {}
  bool value;
};
struct NoneExpr : ExprBase<Expr::Kind::None> {
  using ExprBase::ExprBase;
};
struct StrExpr : ExprBase<Expr::Kind::Str> {
  StrExpr(Loc l, std::string v) : ExprBase(std::move(l)), value(std::move(v)) {}
  std::string value;
};
struct NameExpr : ExprBase<Expr::Kind::Name> {
  NameExpr(Loc l, std::string n) : ExprBase(std::move(l)), name(std::move(n)) {}
  std::string name;
};
/// `*T` in a parameter annotation: a pointer to elements of T.
struct PointerTypeExpr : ExprBase<Expr::Kind::PointerType> {
  PointerTypeExpr(Loc l, ExprPtr p) : ExprBase(std::move(l)), pointee(std::move(p)) {}
  ExprPtr pointee;
};
struct UnaryExpr : ExprBase<Expr::Kind::Unary> {
  UnaryExpr(Loc l, std::string o, ExprPtr e) : ExprBase(std::move(l)), op(std::move(o)), operand(std::move(e)) {}
  std::string op; // "-", "+", "~", "not"
  ExprPtr operand;
};
struct BinaryExpr : ExprBase<Expr::Kind::Binary> {
  BinaryExpr(Loc l, std::string o, ExprPtr a, ExprPtr b)
      : ExprBase(std::move(l)), op(std::move(o)), lhs(std::move(a)), rhs(std::move(b)) {}
  std::string op; // + - * / // % ** << >> & | ^
  ExprPtr lhs, rhs;
};
struct CompareExpr : ExprBase<Expr::Kind::Compare> {
  CompareExpr(Loc l, std::string o, ExprPtr a, ExprPtr b)
      : ExprBase(std::move(l)), op(std::move(o)), lhs(std::move(a)), rhs(std::move(b)) {}
  std::string op; // < <= > >= == !=
  ExprPtr lhs, rhs;
};
struct BoolOpExpr : ExprBase<Expr::Kind::BoolOp> {
  BoolOpExpr(Loc l, std::string o, ExprPtr a, ExprPtr b)
      : ExprBase(std::move(l)), op(std::move(o)), lhs(std::move(a)), rhs(std::move(b)) {}
  std::string op; // "and", "or"
  ExprPtr lhs, rhs;
};
struct TernaryExpr : ExprBase<Expr::Kind::Ternary> {
  TernaryExpr(Loc l, ExprPtr c, ExprPtr a, ExprPtr b)
      : ExprBase(std::move(l)), cond(std::move(c)), thenValue(std::move(a)), elseValue(std::move(b)) {}
  ExprPtr cond, thenValue, elseValue;
};
struct KeywordArg {
  std::string name;
  Loc loc;
  ExprPtr value;
};
struct CallExpr : ExprBase<Expr::Kind::Call> {
  CallExpr(Loc l, ExprPtr c) : ExprBase(std::move(l)), callee(std::move(c)) {}
  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> kwargs;
};
struct AttributeExpr : ExprBase<Expr::Kind::Attribute> {
  AttributeExpr(Loc l, ExprPtr b, std::string n) : ExprBase(std::move(l)), base(std::move(b)), name(std::move(n)) {}
  ExprPtr base;
  std::string name;
};
struct SubscriptExpr : ExprBase<Expr::Kind::Subscript> {
  SubscriptExpr(Loc l, ExprPtr b) : ExprBase(std::move(l)), base(std::move(b)) {}
  ExprPtr base;
  std::vector<ExprPtr> indices; // SliceExpr for ':', NoneExpr for None
};
struct SliceExpr : ExprBase<Expr::Kind::Slice> {
  using ExprBase::ExprBase;
};
struct ListExpr : ExprBase<Expr::Kind::List> {
  using ExprBase::ExprBase;
  std::vector<ExprPtr> elements;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

struct Stmt {
  enum class Kind { Expr, Assign, AugAssign, If, For, While, Return, Pass, Break, Continue };
  Stmt(Kind kind, Loc loc) : kind(kind), loc(std::move(loc)) {}
  virtual ~Stmt() = default;
  const Kind kind;
  const Loc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

template <Stmt::Kind K> struct StmtBase : Stmt {
  explicit StmtBase(Loc loc) : Stmt(K, std::move(loc)) {}
  static bool classof(const Stmt *s) { return s->kind == K; }
};

struct ExprStmt : StmtBase<Stmt::Kind::Expr> {
  ExprStmt(Loc l, ExprPtr e) : StmtBase(std::move(l)), expr(std::move(e)) {}
  ExprPtr expr;
};
/// One position of a nested unpacking: a name, or a parenthesized group.
struct UnpackTarget {
  std::string name; // empty for a group
  std::vector<UnpackTarget> parts;
};
struct AssignStmt : StmtBase<Stmt::Kind::Assign> {
  using StmtBase::StmtBase;
  std::vector<std::string> targets; // `a, b = ...` unpacks; every name a nested unpacking binds
  std::vector<UnpackTarget> nested; // `a, (b, c) = ...`: its shape; empty when no target is a group
  ExprPtr annotation;               // `X: constexpr = 4`; may be null
  ExprPtr value;
};
struct AugAssignStmt : StmtBase<Stmt::Kind::AugAssign> {
  using StmtBase::StmtBase;
  std::string target, op;
  ExprPtr value;
};
struct IfStmt : StmtBase<Stmt::Kind::If> {
  using StmtBase::StmtBase;
  ExprPtr cond;
  Body thenBody, elseBody; // `elif` is an IfStmt alone in elseBody
};
struct ForStmt : StmtBase<Stmt::Kind::For> {
  using StmtBase::StmtBase;
  std::string var;
  ExprPtr iter; // a call of range(...)
  Body body;
};
struct WhileStmt : StmtBase<Stmt::Kind::While> {
  using StmtBase::StmtBase;
  ExprPtr cond;
  Body body;
};
struct ReturnStmt : StmtBase<Stmt::Kind::Return> {
  using StmtBase::StmtBase;
  ExprPtr value; // may be null
};
struct PassStmt : StmtBase<Stmt::Kind::Pass> {
  using StmtBase::StmtBase;
};
struct BreakStmt : StmtBase<Stmt::Kind::Break> {
  using StmtBase::StmtBase;
};
struct ContinueStmt : StmtBase<Stmt::Kind::Continue> {
  using StmtBase::StmtBase;
};

//===----------------------------------------------------------------------===//
// Functions and files
//===----------------------------------------------------------------------===//

struct Param {
  std::string name;
  Loc loc;
  ExprPtr annotation; // null when untyped (helpers)
  ExprPtr defaultValue;

  /// Annotated `constexpr` or `dtype`: bound at compile time, not an argument.
  bool isCompileTime() const {
    auto *ann = llvm::dyn_cast_or_null<NameExpr>(annotation.get());
    return ann && (ann->name == "constexpr" || ann->name == "dtype");
  }

  /// The arguments a launch passes for this parameter, by name: the
  /// parameter itself; for a tuple `(A, B)` those of `name_0` and `name_1`;
  /// for a tensor descriptor of rank r its base pointer, r sizes and the
  /// r - 1 outer strides (`d_base`, `d_shape0`, ..., `d_stride0`, ...; the
  /// last stride is 1).
  std::vector<std::string> argumentNames() const {
    std::vector<std::string> names;
    appendArgumentNames(name, annotation.get(), names);
    return names;
  }

  /// `annotation` if it is `tensor_descriptor(T, [B0, ...])`, else null.
  static const CallExpr *descriptorAnnotation(const Expr *annotation) {
    auto *call = llvm::dyn_cast_or_null<CallExpr>(annotation);
    auto *callee = call ? llvm::dyn_cast<NameExpr>(call->callee.get()) : nullptr;
    return callee && callee->name == "tensor_descriptor" ? call : nullptr;
  }

private:
  static void appendArgumentNames(const std::string &name, const Expr *annotation, std::vector<std::string> &out) {
    if (auto *tuple = llvm::dyn_cast_or_null<ListExpr>(annotation)) {
      for (size_t i = 0; i < tuple->elements.size(); ++i)
        appendArgumentNames(name + "_" + std::to_string(i), tuple->elements[i].get(), out);
      return;
    }
    const CallExpr *desc = descriptorAnnotation(annotation);
    auto *block = desc && desc->args.size() == 2 ? llvm::dyn_cast<ListExpr>(desc->args[1].get()) : nullptr;
    if (!block) {
      out.push_back(name);
      return;
    }
    out.push_back(name + "_base");
    for (size_t d = 0; d < block->elements.size(); ++d)
      out.push_back(name + "_shape" + std::to_string(d));
    for (size_t d = 0; d + 1 < block->elements.size(); ++d)
      out.push_back(name + "_stride" + std::to_string(d));
  }
};

struct File;

struct Function {
  std::string name;
  Loc loc;
  bool isKernel = false;
  /// The file that defines it: its names are the ones the body sees.
  const File *module = nullptr;
  std::vector<Param> params;
  Body body;

  /// The parameters passed at launch, in order (the kernel's arguments).
  std::vector<std::string> runtimeParamNames() const {
    std::vector<std::string> names;
    for (const Param &p : params)
      if (!p.isCompileTime())
        for (std::string &n : p.argumentNames())
          names.push_back(std::move(n));
    return names;
  }
};

/// A name `from MODULE import NAME [as LOCAL]` brings into a file: a
/// function or a constant of the file that defines it.
struct Import {
  std::string name; // LOCAL, as the importing file calls it
  Loc loc;
  const File *from = nullptr; // the file that defines it
  const Function *function = nullptr;
  const AssignStmt *constant = nullptr;
};

struct File {
  std::string filename;
  /// The name its locations carry (one string per parsed file): where a name
  /// is written tells which file's constants it sees.
  std::shared_ptr<std::string> locationName;
  /// Module-level constants (`NAME: constexpr = 4`, `T: dtype = f16`), in
  /// order: every kernel and helper of the file sees them.
  std::vector<std::unique_ptr<AssignStmt>> constants;
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<Import> imports;
  /// The files imported (shared: a file imported twice is parsed once).
  std::vector<std::shared_ptr<const File>> modules;
  /// A function defined or imported here.
  const Function *find(llvm::StringRef name) const {
    for (auto &f : functions)
      if (f->name == name)
        return f.get();
    for (const Import &i : imports)
      if (i.name == name && i.function)
        return i.function;
    return nullptr;
  }
  const AssignStmt *findConstant(llvm::StringRef name) const {
    for (auto &c : constants)
      if (c->targets[0] == name)
        return c.get();
    return nullptr;
  }
  const Import *findImport(llvm::StringRef name) const {
    for (const Import &i : imports)
      if (i.name == name)
        return &i;
    return nullptr;
  }
  /// The kernels of this file and those it imports by name, under the names
  /// this file gives them.
  std::vector<std::pair<std::string, const Function *>> kernels() const {
    std::vector<std::pair<std::string, const Function *>> out;
    for (auto &f : functions)
      if (f->isKernel)
        out.emplace_back(f->name, f.get());
    for (const Import &i : imports)
      if (i.function && i.function->isKernel)
        out.emplace_back(i.name, i.function);
    return out;
  }
};

/// Prints the tree in an indented form (`blkc --emit=ast`).
void dump(const File &file, llvm::raw_ostream &os);

} // namespace blk::ast

#endif
