#include "blk/Frontend/Parser.h"

#include "Imports.h"

#include "blk/Frontend/Lexer.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <functional>
#include <map>

namespace blk {

mlir::Location toMLIR(mlir::MLIRContext &ctx, const ast::Loc &loc) {
  return mlir::FileLineColLoc::get(&ctx, loc.file ? *loc.file : "<unknown>", loc.line, loc.col);
}

namespace {
using namespace ast;

/// What the files of one compilation share while they are parsed: the files
/// being parsed (importing one of them is a cycle) and the files parsed.
struct ImportSession {
  std::vector<std::string> parsing, parsingNames; // real paths and names as written, outermost first
  std::map<std::string, std::shared_ptr<File>> parsed;
};

class Parser {
public:
  Parser(mlir::MLIRContext &ctx, std::vector<Token> toks, ImportSession &imports)
      : ctx(ctx), toks(std::move(toks)), imports(imports) {}

  std::unique_ptr<File> parseFile() {
    if (!toks.empty() && toks.back().kind == Tok::Error)
      return fail(toks.back().loc, toks.back().text), nullptr;
    auto file = std::make_unique<File>();
    file->locationName = cur().loc.file;
    while (!at(Tok::Eof)) {
      if (atKeyword("from")) {
        if (!parseImport(*file))
          return nullptr;
        continue;
      }
      if (atKeyword("import"))
        return fail(cur().loc, "write `from MODULE import NAME` (MODULE.blk next to this file); `import MODULE` "
                               "is not supported"),
               nullptr;
      if (atName()) {
        auto constant = parseConstant();
        if (!constant)
          return nullptr;
        const std::string &name = constant->targets[0];
        if (!notImported(*file, name, constant->loc))
          return nullptr;
        if (file->find(name) || llvm::any_of(file->constants, [&](auto &c) { return c->targets[0] == name; }))
          return fail(constant->loc, "'" + name + "' is defined twice"), nullptr;
        file->constants.push_back(std::move(constant));
        continue;
      }
      auto fn = parseFunction();
      if (!fn)
        return nullptr;
      if (!notImported(*file, fn->name, fn->loc))
        return nullptr;
      if (file->find(fn->name))
        return fail(fn->loc, "function '" + fn->name + "' is defined twice"), nullptr;
      if (llvm::any_of(file->constants, [&](auto &c) { return c->targets[0] == fn->name; }))
        return fail(fn->loc, "'" + fn->name + "' is defined twice"), nullptr;
      fn->module = file.get();
      file->functions.push_back(std::move(fn));
    }
    return file;
  }

private:
  mlir::MLIRContext &ctx;
  std::vector<Token> toks;
  ImportSession &imports;
  size_t i = 0;
  bool failed = false;
  unsigned loopDepth = 0; // loops around the statement being parsed
  // Source nested deeper than these is refused where it goes too deep: the
  // parser and code generation recurse once per level, and the stack of a
  // thread that compiles is not ours to size (a JIT may compile on any).
  static constexpr unsigned kMaxNesting = 200;    // parentheses, brackets, calls, unary operators
  static constexpr unsigned kMaxExprDepth = 1000; // operators, calls, attributes, subscripts in one expression
  static constexpr unsigned kMaxBlockDepth = 100; // indented blocks, an elif counting as one
  unsigned nesting = 0, blockDepth = 0;

  /// Counts a level of the parser's recursion while it lives.
  struct Level {
    unsigned &count;
    explicit Level(unsigned &counter) : count(++counter) {}
    ~Level() { --count; }
  };
  bool tooDeep(unsigned &count, unsigned limit, const Loc &loc, llvm::StringRef what) {
    if (count <= limit)
      return false;
    fail(loc, what + " nested too deeply (more than " + llvm::Twine(limit) + " levels" +
                  (&count == &blockDepth ? "; an elif counts as one)" : ")"));
    return true;
  }

  /// `e` with its depth set from its operands' (already bounded), or null
  /// when it exceeds kMaxExprDepth.
  ExprPtr bounded(ExprPtr e) {
    unsigned d = 0;
    auto see = [&](const Expr *c) {
      if (c)
        d = std::max(d, c->depth);
    };
    if (auto *u = llvm::dyn_cast<UnaryExpr>(e.get()))
      see(u->operand.get());
    else if (auto *b = llvm::dyn_cast<BinaryExpr>(e.get()))
      see(b->lhs.get()), see(b->rhs.get());
    else if (auto *c = llvm::dyn_cast<CompareExpr>(e.get()))
      see(c->lhs.get()), see(c->rhs.get());
    else if (auto *o = llvm::dyn_cast<BoolOpExpr>(e.get()))
      see(o->lhs.get()), see(o->rhs.get());
    else if (auto *t = llvm::dyn_cast<TernaryExpr>(e.get()))
      see(t->cond.get()), see(t->thenValue.get()), see(t->elseValue.get());
    else if (auto *call = llvm::dyn_cast<CallExpr>(e.get())) {
      see(call->callee.get());
      for (auto &a : call->args)
        see(a.get());
      for (auto &kw : call->kwargs)
        see(kw.value.get());
    } else if (auto *a = llvm::dyn_cast<AttributeExpr>(e.get()))
      see(a->base.get());
    else if (auto *sub = llvm::dyn_cast<SubscriptExpr>(e.get())) {
      see(sub->base.get());
      for (auto &i : sub->indices)
        see(i.get());
    } else if (auto *l = llvm::dyn_cast<ListExpr>(e.get())) {
      for (auto &el : l->elements)
        see(el.get());
    } else if (auto *ptr = llvm::dyn_cast<PointerTypeExpr>(e.get()))
      see(ptr->pointee.get());
    e->depth = d + 1;
    if (e->depth > kMaxExprDepth)
      return fail(e->loc, "expression nested too deeply (more than " + llvm::Twine(kMaxExprDepth) +
                              " levels of operators, calls and subscripts); split it with assignments");
    return e;
  }

  const Token &cur() const { return toks[std::min(i, toks.size() - 1)]; }
  bool at(Tok k) const { return cur().kind == k; }
  bool atOp(llvm::StringRef op) const { return cur().kind == Tok::Op && cur().text == op; }
  bool atKeyword(llvm::StringRef kw) const { return cur().kind == Tok::Ident && cur().text == kw; }
  Token take() { return toks[std::min(i++, toks.size() - 1)]; }

  std::nullptr_t fail(const Loc &loc, const llvm::Twine &msg) {
    if (!failed)
      mlir::emitError(toMLIR(ctx, loc)) << msg.str();
    failed = true;
    return nullptr;
  }
  std::string describe(const Token &t) const {
    switch (t.kind) {
    case Tok::Eof: return "end of file";
    case Tok::Newline: return "end of line";
    case Tok::Indent: return "an indented block";
    case Tok::Dedent: return "the end of a block";
    case Tok::String: return "a string";
    default: return "'" + t.text + "'";
    }
  }
  bool expectOp(llvm::StringRef op) {
    if (atOp(op)) {
      ++i;
      return true;
    }
    fail(cur().loc, "expected '" + op + "', found " + describe(cur()));
    return false;
  }
  bool expect(Tok k, llvm::StringRef what) {
    if (at(k)) {
      ++i;
      return true;
    }
    fail(cur().loc, "expected " + what + ", found " + describe(cur()));
    return false;
  }
  static bool isKeyword(llvm::StringRef s) {
    return llvm::is_contained({"def", "if", "elif", "else", "for", "in", "while", "return", "and", "or", "not",
                               "True", "False", "None", "pass", "break", "continue", "lambda", "class", "import",
                               "from", "as"},
                              s);
  }
  bool atName() const { return at(Tok::Ident) && !isKeyword(cur().text); }
  bool expectName(std::string &out, llvm::StringRef what) {
    if (at(Tok::Ident) && !isKeyword(cur().text)) {
      out = take().text;
      return true;
    }
    fail(cur().loc, "expected " + what + ", found " + describe(cur()));
    return false;
  }

  /// False (after an error) when `name` is imported into `file`.
  bool notImported(const File &file, const std::string &name, const Loc &loc) {
    if (const Import *imp = file.findImport(name))
      return fail(loc, "'" + name + "' is defined here and imported from " + imp->from->filename + " (line " +
                           std::to_string(imp->loc.line) + "); import it under another name with `as`"),
             false;
    return true;
  }

  // import := 'from' '.'* NAME ('.' NAME)* 'import' ( names | '(' names [','] ')' ) NEWLINE
  // names := NAME ['as' NAME] (',' NAME ['as' NAME])*
  bool parseImport(File &file) {
    ++i; // 'from'
    unsigned dots = 0;
    while (atOp(".")) {
      ++dots;
      ++i;
    }
    Loc moduleLoc = cur().loc;
    std::vector<std::string> parts(1);
    if (!expectName(parts[0], "a module name"))
      return false;
    while (atOp(".")) {
      ++i;
      parts.emplace_back();
      if (!expectName(parts.back(), "a module name"))
        return false;
    }
    if (!atKeyword("import"))
      return fail(cur().loc, "expected 'import', found " + describe(cur())), false;
    ++i;
    bool parens = atOp("(");
    if (parens)
      ++i;
    struct Wanted {
      std::string name, as;
      Loc loc;
    };
    std::vector<Wanted> wanted;
    while (true) {
      Wanted w;
      w.loc = cur().loc;
      if (!expectName(w.name, "a name to import"))
        return false;
      w.as = w.name;
      if (atKeyword("as")) {
        ++i;
        if (!expectName(w.as, "a name after 'as'"))
          return false;
      }
      wanted.push_back(std::move(w));
      if (!atOp(","))
        break;
      ++i;
      if (parens && atOp(")"))
        break;
    }
    if ((parens && !expectOp(")")) || !expect(Tok::Newline, "end of line"))
      return false;
    std::string written = std::string(dots, '.') + llvm::join(parts, ".");
    std::shared_ptr<File> module = loadModule(importPath(*moduleLoc.file, dots, parts), written, moduleLoc);
    if (!module)
      return false;
    for (const Wanted &w : wanted) {
      Import imp;
      imp.name = w.as;
      imp.loc = w.loc;
      if (const Function *fn = module->find(w.name)) {
        imp.function = fn;
        imp.from = fn->module;
      } else if (const AssignStmt *c = module->findConstant(w.name)) {
        imp.constant = c;
        imp.from = module.get();
      } else if (const Import *again = module->findImport(w.name)) {
        imp.constant = again->constant;
        imp.from = again->from;
      } else {
        return fail(w.loc, "cannot import '" + w.name + "': " + module->filename +
                               " defines no function or constant named '" + w.name + "'"),
               false;
      }
      if (const Import *prior = file.findImport(imp.name)) {
        if (prior->function == imp.function && prior->constant == imp.constant)
          continue; // the same definition again
        return fail(w.loc, "'" + imp.name + "' is already imported from " + prior->from->filename + " (line " +
                               std::to_string(prior->loc.line) + "); import one under another name with `as`"),
               false;
      }
      if (file.find(imp.name) || file.findConstant(imp.name))
        return fail(w.loc, "'" + imp.name + "' is already defined in this file; import it under another name with `as`"),
               false;
      file.imports.push_back(std::move(imp));
    }
    if (!llvm::is_contained(file.modules, module))
      file.modules.push_back(module);
    return true;
  }

  /// The parsed file at `path` (`written` as the import names it), parsed
  /// once per compilation; null after an error.
  std::shared_ptr<File> loadModule(const std::string &path, const std::string &written, const Loc &loc) {
    std::string key = realPath(path);
    auto open = llvm::find(imports.parsing, key);
    if (open != imports.parsing.end()) {
      std::string chain;
      for (size_t f = open - imports.parsing.begin(); f < imports.parsing.size(); ++f)
        chain += imports.parsingNames[f] + " imports ";
      return fail(loc, "import cycle: " + chain + path);
    }
    if (auto done = imports.parsed.find(key); done != imports.parsed.end())
      return done->second;
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return fail(loc, "cannot import '" + written + "': no file " + path + " (" + buffer.getError().message() + ")");
    imports.parsing.push_back(key);
    imports.parsingNames.push_back(path);
    Parser sub(ctx, lex((*buffer)->getBuffer(), std::make_shared<std::string>(path)), imports);
    std::unique_ptr<File> parsed = sub.parseFile();
    imports.parsing.pop_back();
    imports.parsingNames.pop_back();
    if (!parsed) {
      failed = true; // reported where it is
      return nullptr;
    }
    parsed->filename = path;
    std::shared_ptr<File> shared = std::move(parsed);
    imports.parsed[key] = shared;
    return shared;
  }

  // constant := NAME ':' ('constexpr' | 'dtype') '=' expr NEWLINE (at the top level)
  std::unique_ptr<AssignStmt> parseConstant() {
    Loc loc = cur().loc;
    StmtPtr s = parseSimpleStmt();
    if (!s || !expect(Tok::Newline, "end of line"))
      return nullptr;
    auto *assign = llvm::dyn_cast<AssignStmt>(s.get());
    if (!assign)
      return fail(loc, "only functions and constants (`NAME: constexpr = value`) can be at the top level");
    auto *ann = llvm::dyn_cast_or_null<NameExpr>(assign->annotation.get());
    if (assign->targets.size() != 1 || !ann || (ann->name != "constexpr" && ann->name != "dtype"))
      return fail(loc, "a top-level constant needs the annotation `constexpr` (or `dtype`): `" +
                           assign->targets[0] + ": constexpr = ...`");
    s.release();
    return std::unique_ptr<AssignStmt>(assign);
  }

  // function := ['@' 'kernel' NEWLINE] 'def' name '(' params ')' ['->' expr] ':' body
  std::unique_ptr<Function> parseFunction() {
    auto fn = std::make_unique<Function>();
    if (atOp("@")) {
      ++i;
      Token deco = cur();
      std::string name;
      if (!expectName(name, "a decorator name"))
        return nullptr;
      if (name != "kernel")
        return fail(deco.loc, "unknown decorator '@" + name + "' (only @kernel exists)");
      fn->isKernel = true;
      if (!expect(Tok::Newline, "end of line after the decorator"))
        return nullptr;
    }
    if (!atKeyword("def"))
      return fail(cur().loc, "expected 'def', '@kernel' or a constant at the top level, found " + describe(cur()));
    fn->loc = take().loc;
    if (!expectName(fn->name, "a function name") || !expectOp("("))
      return nullptr;
    while (!atOp(")")) {
      Param p;
      p.loc = cur().loc;
      if (!expectName(p.name, "a parameter name"))
        return nullptr;
      for (auto &q : fn->params)
        if (q.name == p.name)
          return fail(p.loc, "parameter '" + p.name + "' is declared twice");
      if (atOp(":")) {
        ++i;
        if (!(p.annotation = parseAnnotation()))
          return nullptr;
      }
      if (atOp("=")) {
        ++i;
        if (!(p.defaultValue = parseExpr()))
          return nullptr;
      }
      fn->params.push_back(std::move(p));
      if (!atOp(","))
        break;
      ++i;
    }
    if (!expectOp(")"))
      return nullptr;
    if (atOp("->")) {
      ++i;
      if (!parseAnnotation())
        return nullptr;
    }
    if (!expectOp(":") || !parseBody(fn->body))
      return nullptr;
    return fn;
  }

  ExprPtr parseAnnotation() {
    Level level(nesting);
    if (tooDeep(nesting, kMaxNesting, cur().loc, "type"))
      return nullptr;
    if (atOp("*")) {
      Loc loc = take().loc;
      auto pointee = parseAnnotation();
      if (!pointee)
        return nullptr;
      return bounded(std::make_unique<PointerTypeExpr>(loc, std::move(pointee)));
    }
    // A tuple of annotations, `(*f32, i32)`: a tuple parameter.
    if (atOp("(")) {
      auto list = std::make_unique<ListExpr>(take().loc);
      while (!atOp(")")) {
        auto element = parseAnnotation();
        if (!element)
          return nullptr;
        list->elements.push_back(std::move(element));
        if (atOp(","))
          take();
        else if (!atOp(")"))
          return fail(cur().loc, "expected ',' or ')' in a tuple of types, found " + describe(cur())), nullptr;
      }
      take();
      return bounded(std::move(list));
    }
    return parsePostfix();
  }

  // body := NEWLINE INDENT stmt+ DEDENT | simple_stmt NEWLINE
  bool parseBody(Body &body) {
    Level level(blockDepth);
    if (tooDeep(blockDepth, kMaxBlockDepth, cur().loc, "blocks"))
      return false;
    if (!at(Tok::Newline)) {
      auto s = parseSimpleStmt();
      if (!s)
        return false;
      body.push_back(std::move(s));
      return expect(Tok::Newline, "end of line");
    }
    ++i;
    if (!expect(Tok::Indent, "an indented block"))
      return false;
    while (!at(Tok::Dedent) && !at(Tok::Eof)) {
      auto s = parseStmt();
      if (!s)
        return false;
      body.push_back(std::move(s));
    }
    return expect(Tok::Dedent, "the end of the block");
  }

  StmtPtr parseStmt() {
    if (atKeyword("if"))
      return parseIf();
    if (atKeyword("for")) {
      auto s = std::make_unique<ForStmt>(take().loc);
      if (!expectName(s->var, "a loop variable"))
        return nullptr;
      if (!atKeyword("in"))
        return fail(cur().loc, "expected 'in', found " + describe(cur()));
      ++i;
      if (!(s->iter = parseExpr()) || !expectOp(":") || !parseLoopBody(s->body))
        return nullptr;
      return s;
    }
    if (atKeyword("while")) {
      auto s = std::make_unique<WhileStmt>(take().loc);
      if (!(s->cond = parseExpr()) || !expectOp(":") || !parseLoopBody(s->body))
        return nullptr;
      return s;
    }
    if (atKeyword("def") || atOp("@"))
      return fail(cur().loc, "functions must be defined at the top level");
    if (atKeyword("from") || atKeyword("import"))
      return fail(cur().loc, "imports must be at the top level of a file");
    auto s = parseSimpleStmt();
    if (!s || !expect(Tok::Newline, "end of line"))
      return nullptr;
    return s;
  }

  bool parseLoopBody(Body &body) {
    ++loopDepth;
    bool ok = parseBody(body);
    --loopDepth;
    return ok;
  }

  StmtPtr parseIf() {
    auto s = std::make_unique<IfStmt>(take().loc); // 'if' or 'elif'
    if (!(s->cond = parseExpr()) || !expectOp(":") || !parseBody(s->thenBody))
      return nullptr;
    if (atKeyword("elif")) {
      Level level(blockDepth);
      if (tooDeep(blockDepth, kMaxBlockDepth, cur().loc, "blocks"))
        return nullptr;
      auto nested = parseIf();
      if (!nested)
        return nullptr;
      s->elseBody.push_back(std::move(nested));
    } else if (atKeyword("else")) {
      ++i;
      if (!expectOp(":") || !parseBody(s->elseBody))
        return nullptr;
    }
    return s;
  }

  StmtPtr parseSimpleStmt() {
    Loc loc = cur().loc;
    if (atKeyword("pass")) {
      ++i;
      return std::make_unique<PassStmt>(loc);
    }
    if (atKeyword("break") || atKeyword("continue")) {
      if (loopDepth == 0)
        return fail(loc, "'" + cur().text + "' outside a loop");
      if (take().text == "break")
        return std::make_unique<BreakStmt>(loc);
      return std::make_unique<ContinueStmt>(loc);
    }
    if (atKeyword("return")) {
      auto s = std::make_unique<ReturnStmt>(take().loc);
      if (!at(Tok::Newline) && !(s->value = parseExprList()))
        return nullptr;
      return s;
    }
    auto first = parseExprList();
    if (!first)
      return nullptr;
    ExprPtr annotation;
    if (atOp(":") && llvm::isa<NameExpr>(first.get())) {
      ++i;
      if (!(annotation = parseAnnotation()))
        return nullptr;
      if (!atOp("="))
        return fail(cur().loc, "expected '=' after the annotation, found " + describe(cur()));
    }
    if (atOp("=")) {
      ++i;
      auto s = std::make_unique<AssignStmt>(loc);
      s->annotation = std::move(annotation);
      if (auto *name = llvm::dyn_cast<NameExpr>(first.get())) {
        s->targets.push_back(name->name);
      } else if (auto *list = llvm::dyn_cast<ListExpr>(first.get())) {
        // Names, or parenthesized groups of them (`a, (b, c) = ...`).
        std::function<bool(const ListExpr &, std::vector<UnpackTarget> &)> unpack =
            [&](const ListExpr &l, std::vector<UnpackTarget> &out) {
              for (auto &e : l.elements) {
                if (auto *n = llvm::dyn_cast<NameExpr>(e.get())) {
                  s->targets.push_back(n->name);
                  out.push_back({n->name, {}});
                } else if (auto *group = llvm::dyn_cast<ListExpr>(e.get())) {
                  out.push_back({});
                  if (!unpack(*group, out.back().parts))
                    return false;
                } else {
                  return fail(e->loc, "can only assign to names"), false;
                }
              }
              return true;
            };
        std::vector<UnpackTarget> shape;
        if (!unpack(*list, shape))
          return nullptr;
        if (llvm::any_of(shape, [](const UnpackTarget &t) { return t.name.empty(); }))
          s->nested = std::move(shape);
      } else {
        return fail(first->loc, "can only assign to names");
      }
      if (!(s->value = parseExprList()))
        return nullptr;
      return s;
    }
    for (const char *op : {"+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="}) {
      if (atOp(op)) {
        ++i;
        auto *name = llvm::dyn_cast<NameExpr>(first.get());
        if (!name)
          return fail(first->loc, "can only assign to names");
        auto s = std::make_unique<AugAssignStmt>(loc);
        s->target = name->name;
        s->op = std::string(op).substr(0, std::strlen(op) - 1);
        if (!(s->value = parseExpr()))
          return nullptr;
        return s;
      }
    }
    return std::make_unique<ExprStmt>(loc, std::move(first));
  }

  /// `a, b` (a tuple, kept as a ListExpr) or a single expression.
  ExprPtr parseExprList() {
    Loc loc = cur().loc;
    auto e = parseExpr();
    if (!e || !atOp(","))
      return e;
    auto list = std::make_unique<ListExpr>(loc);
    list->elements.push_back(std::move(e));
    while (atOp(",")) {
      ++i;
      if (atOp("=") || atOp(")") || at(Tok::Newline)) // `a, = f()` and `(a,)`
        break;
      auto next = parseExpr();
      if (!next)
        return nullptr;
      list->elements.push_back(std::move(next));
    }
    return bounded(std::move(list));
  }

  ExprPtr parseExpr() {
    Level level(nesting);
    if (tooDeep(nesting, kMaxNesting, cur().loc, "expression"))
      return nullptr;
    auto e = parseOr();
    if (!e || !atKeyword("if"))
      return e;
    Loc loc = take().loc;
    auto cond = parseOr();
    if (!cond)
      return nullptr;
    if (!atKeyword("else"))
      return fail(cur().loc, "expected 'else' in a conditional expression, found " + describe(cur()));
    ++i;
    auto other = parseExpr();
    if (!other)
      return nullptr;
    return bounded(std::make_unique<TernaryExpr>(loc, std::move(cond), std::move(e), std::move(other)));
  }

  ExprPtr parseOr() {
    auto lhs = parseAnd();
    while (lhs && atKeyword("or")) {
      Loc loc = take().loc;
      auto rhs = parseAnd();
      if (!rhs)
        return nullptr;
      lhs = bounded(std::make_unique<BoolOpExpr>(loc, "or", std::move(lhs), std::move(rhs)));
    }
    return lhs;
  }
  ExprPtr parseAnd() {
    auto lhs = parseNot();
    while (lhs && atKeyword("and")) {
      Loc loc = take().loc;
      auto rhs = parseNot();
      if (!rhs)
        return nullptr;
      lhs = bounded(std::make_unique<BoolOpExpr>(loc, "and", std::move(lhs), std::move(rhs)));
    }
    return lhs;
  }
  ExprPtr parseNot() {
    if (atKeyword("not")) {
      Level level(nesting);
      if (tooDeep(nesting, kMaxNesting, cur().loc, "expression"))
        return nullptr;
      Loc loc = take().loc;
      auto e = parseNot();
      return e ? bounded(std::make_unique<UnaryExpr>(loc, "not", std::move(e))) : nullptr;
    }
    return parseCompare();
  }
  ExprPtr parseCompare() {
    auto lhs = parseBinary(0);
    if (!lhs)
      return nullptr;
    for (const char *op : {"<", "<=", ">", ">=", "==", "!="}) {
      if (atOp(op)) {
        Loc loc = take().loc;
        auto rhs = parseBinary(0);
        if (!rhs)
          return nullptr;
        for (const char *again : {"<", "<=", ">", ">=", "==", "!="})
          if (atOp(again))
            return fail(cur().loc, "chained comparisons are not supported; combine them with '&'");
        return bounded(std::make_unique<CompareExpr>(loc, op, std::move(lhs), std::move(rhs)));
      }
    }
    return lhs;
  }

  // Binary operator levels, loosest first (Python's precedence).
  ExprPtr parseBinary(int level) {
    static const std::vector<std::vector<const char *>> levels = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%"}};
    if (level == int(levels.size()))
      return parseUnary();
    auto lhs = parseBinary(level + 1);
    while (lhs) {
      const char *matched = nullptr;
      for (const char *op : levels[level])
        if (atOp(op))
          matched = op;
      if (!matched)
        break;
      Loc loc = take().loc;
      auto rhs = parseBinary(level + 1);
      if (!rhs)
        return nullptr;
      lhs = bounded(std::make_unique<BinaryExpr>(loc, matched, std::move(lhs), std::move(rhs)));
    }
    return lhs;
  }
  ExprPtr parseUnary() {
    for (const char *op : {"-", "+", "~"}) {
      if (atOp(op)) {
        Level level(nesting);
        if (tooDeep(nesting, kMaxNesting, cur().loc, "expression"))
          return nullptr;
        Loc loc = take().loc;
        auto e = parseUnary();
        return e ? bounded(std::make_unique<UnaryExpr>(loc, op, std::move(e))) : nullptr;
      }
    }
    return parsePower();
  }
  ExprPtr parsePower() {
    auto base = parsePostfix();
    if (base && atOp("**")) {
      Loc loc = take().loc;
      auto exp = parseUnary();
      if (!exp)
        return nullptr;
      return bounded(std::make_unique<BinaryExpr>(loc, "**", std::move(base), std::move(exp)));
    }
    return base;
  }

  ExprPtr parsePostfix() {
    auto e = parseAtom();
    while (e) {
      if (atOp("(")) {
        Loc calleeLoc = e->loc;
        ++i;
        auto call = std::make_unique<CallExpr>(calleeLoc, std::move(e));
        while (!atOp(")")) {
          if (at(Tok::Ident) && toks[i + 1].kind == Tok::Op && toks[i + 1].text == "=") {
            KeywordArg kw;
            kw.loc = cur().loc;
            kw.name = take().text;
            ++i;
            if (!(kw.value = parseExpr()))
              return nullptr;
            for (auto &other : call->kwargs)
              if (other.name == kw.name)
                return fail(kw.loc, "keyword argument '" + kw.name + "' is given twice");
            call->kwargs.push_back(std::move(kw));
          } else {
            if (!call->kwargs.empty())
              return fail(cur().loc, "positional argument after a keyword argument");
            auto arg = parseExpr();
            if (!arg)
              return nullptr;
            call->args.push_back(std::move(arg));
          }
          if (!atOp(","))
            break;
          ++i;
        }
        if (!expectOp(")"))
          return nullptr;
        e = bounded(std::move(call));
      } else if (atOp(".")) {
        Loc loc = take().loc;
        std::string name;
        if (!expectName(name, "an attribute name"))
          return nullptr;
        e = bounded(std::make_unique<AttributeExpr>(loc, std::move(e), name));
      } else if (atOp("[")) {
        auto sub = std::make_unique<SubscriptExpr>(take().loc, std::move(e));
        while (!atOp("]")) {
          if (atOp(":")) {
            sub->indices.push_back(std::make_unique<SliceExpr>(take().loc));
          } else {
            auto idx = parseExpr();
            if (!idx)
              return nullptr;
            sub->indices.push_back(std::move(idx));
          }
          if (!atOp(","))
            break;
          ++i;
        }
        if (!expectOp("]"))
          return nullptr;
        e = bounded(std::move(sub));
      } else {
        break;
      }
    }
    return e;
  }

  ExprPtr parseAtom() {
    const Token &t = cur();
    Loc loc = t.loc;
    switch (t.kind) {
    case Tok::Int:
      return std::make_unique<IntExpr>(loc, take().intValue);
    case Tok::Float:
      return std::make_unique<FloatExpr>(loc, take().floatValue);
    case Tok::String:
      return std::make_unique<StrExpr>(loc, take().text);
    case Tok::Ident:
      if (t.text == "True" || t.text == "False")
        return std::make_unique<BoolExpr>(loc, take().text == "True");
      if (t.text == "None")
        return ++i, std::make_unique<NoneExpr>(loc);
      if (isKeyword(t.text))
        return fail(loc, "expected an expression, found '" + t.text + "'");
      return std::make_unique<NameExpr>(loc, take().text);
    case Tok::Op:
      if (t.text == "(") {
        ++i;
        if (atOp(")")) // (): the empty tuple
          return ++i, std::make_unique<ListExpr>(loc);
        auto e = parseExprList();
        if (!e || !expectOp(")"))
          return nullptr;
        return e;
      }
      if (t.text == "[") {
        ++i;
        auto list = std::make_unique<ListExpr>(loc);
        while (!atOp("]")) {
          auto e = parseExpr();
          if (!e)
            return nullptr;
          list->elements.push_back(std::move(e));
          if (!atOp(","))
            break;
          ++i;
        }
        if (!expectOp("]"))
          return nullptr;
        return bounded(std::move(list));
      }
      [[fallthrough]];
    default:
      return fail(loc, "expected an expression, found " + describe(t));
    }
  }
};

} // namespace

std::unique_ptr<ast::File> parseFile(mlir::MLIRContext &ctx, llvm::StringRef source, llvm::StringRef filename) {
  auto file = std::make_shared<std::string>(filename.str());
  ImportSession imports;
  imports.parsing.push_back(realPath(filename.str()));
  imports.parsingNames.push_back(filename.str());
  auto result = Parser(ctx, lex(source, file), imports).parseFile();
  if (result)
    result->filename = filename.str();
  return result;
}

} // namespace blk
