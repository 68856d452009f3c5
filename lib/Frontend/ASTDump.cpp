// `blkc --emit=ast`: an indented print of the syntax tree with locations.
#include "blk/Frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

namespace blk::ast {
namespace {

struct Dumper {
  llvm::raw_ostream &os;
  unsigned depth = 0;

  llvm::raw_ostream &line(const Loc &loc) {
    os.indent(depth * 2);
    return os;
  }
  static std::string at(const Loc &loc) { return " @" + std::to_string(loc.line) + ":" + std::to_string(loc.col); }

  void expr(const Expr &e) {
    using K = Expr::Kind;
    switch (e.kind) {
    case K::Int: line(e.loc) << "Int " << static_cast<const IntExpr &>(e).value << at(e.loc) << "\n"; return;
    case K::Float: line(e.loc) << "Float " << static_cast<const FloatExpr &>(e).value << at(e.loc) << "\n"; return;
    case K::Bool: line(e.loc) << "Bool " << (static_cast<const BoolExpr &>(e).value ? "True" : "False") << at(e.loc) << "\n"; return;
    case K::None: line(e.loc) << "None" << at(e.loc) << "\n"; return;
    case K::Str: line(e.loc) << "Str \"" << static_cast<const StrExpr &>(e).value << "\"" << at(e.loc) << "\n"; return;
    case K::Name: line(e.loc) << "Name " << static_cast<const NameExpr &>(e).name << at(e.loc) << "\n"; return;
    case K::Slice: line(e.loc) << "Slice" << at(e.loc) << "\n"; return;
    case K::PointerType: line(e.loc) << "PointerType" << at(e.loc) << "\n"; nested(*static_cast<const PointerTypeExpr &>(e).pointee); return;
    case K::Unary: {
      auto &u = static_cast<const UnaryExpr &>(e);
      line(e.loc) << "Unary " << u.op << at(e.loc) << "\n";
      nested(*u.operand);
      return;
    }
    case K::Binary: case K::Compare: case K::BoolOp: {
      const char *kind = e.kind == K::Binary ? "Binary " : e.kind == K::Compare ? "Compare " : "BoolOp ";
      auto &b = static_cast<const BinaryExpr &>(e); // same layout for the three
      const std::string &op = e.kind == K::Binary ? b.op : e.kind == K::Compare ? static_cast<const CompareExpr &>(e).op : static_cast<const BoolOpExpr &>(e).op;
      const Expr &l = e.kind == K::Binary ? *b.lhs : e.kind == K::Compare ? *static_cast<const CompareExpr &>(e).lhs : *static_cast<const BoolOpExpr &>(e).lhs;
      const Expr &r = e.kind == K::Binary ? *b.rhs : e.kind == K::Compare ? *static_cast<const CompareExpr &>(e).rhs : *static_cast<const BoolOpExpr &>(e).rhs;
      line(e.loc) << kind << op << at(e.loc) << "\n";
      nested(l);
      nested(r);
      return;
    }
    case K::Ternary: {
      auto &t = static_cast<const TernaryExpr &>(e);
      line(e.loc) << "Ternary" << at(e.loc) << "\n";
      nested(*t.cond);
      nested(*t.thenValue);
      nested(*t.elseValue);
      return;
    }
    case K::Call: {
      auto &c = static_cast<const CallExpr &>(e);
      line(e.loc) << "Call" << at(e.loc) << "\n";
      nested(*c.callee);
      for (auto &a : c.args)
        nested(*a);
      for (auto &kw : c.kwargs) {
        ++depth;
        line(kw.loc) << "Keyword " << kw.name << at(kw.loc) << "\n";
        nested(*kw.value);
        --depth;
      }
      return;
    }
    case K::Attribute: {
      auto &a = static_cast<const AttributeExpr &>(e);
      line(e.loc) << "Attribute " << a.name << at(e.loc) << "\n";
      nested(*a.base);
      return;
    }
    case K::Subscript: {
      auto &s = static_cast<const SubscriptExpr &>(e);
      line(e.loc) << "Subscript" << at(e.loc) << "\n";
      nested(*s.base);
      for (auto &i : s.indices)
        nested(*i);
      return;
    }
    case K::List: {
      auto &l = static_cast<const ListExpr &>(e);
      line(e.loc) << "List" << at(e.loc) << "\n";
      for (auto &el : l.elements)
        nested(*el);
      return;
    }
    }
  }
  void nested(const Expr &e) {
    ++depth;
    expr(e);
    --depth;
  }
  void body(const Body &b) {
    ++depth;
    for (auto &s : b)
      stmt(*s);
    --depth;
  }
  void stmt(const Stmt &s) {
    switch (s.kind) {
    case Stmt::Kind::Pass: line(s.loc) << "Pass" << at(s.loc) << "\n"; return;
    case Stmt::Kind::Break: line(s.loc) << "Break" << at(s.loc) << "\n"; return;
    case Stmt::Kind::Continue: line(s.loc) << "Continue" << at(s.loc) << "\n"; return;
    case Stmt::Kind::Expr: line(s.loc) << "ExprStmt" << at(s.loc) << "\n"; nested(*static_cast<const ExprStmt &>(s).expr); return;
    case Stmt::Kind::Assign: {
      auto &a = static_cast<const AssignStmt &>(s);
      line(s.loc) << "Assign";
      for (auto &t : a.targets)
        os << " " << t;
      os << at(s.loc) << "\n";
      nested(*a.value);
      return;
    }
    case Stmt::Kind::AugAssign: {
      auto &a = static_cast<const AugAssignStmt &>(s);
      line(s.loc) << "AugAssign " << a.target << " " << a.op << "=" << at(s.loc) << "\n";
      nested(*a.value);
      return;
    }
    case Stmt::Kind::If: {
      auto &i = static_cast<const IfStmt &>(s);
      line(s.loc) << "If" << at(s.loc) << "\n";
      nested(*i.cond);
      body(i.thenBody);
      if (!i.elseBody.empty()) {
        line(s.loc) << "Else\n";
        body(i.elseBody);
      }
      return;
    }
    case Stmt::Kind::For: {
      auto &f = static_cast<const ForStmt &>(s);
      line(s.loc) << "For " << f.var << at(s.loc) << "\n";
      nested(*f.iter);
      body(f.body);
      return;
    }
    case Stmt::Kind::While: {
      auto &w = static_cast<const WhileStmt &>(s);
      line(s.loc) << "While" << at(s.loc) << "\n";
      nested(*w.cond);
      body(w.body);
      return;
    }
    case Stmt::Kind::Return: {
      auto &r = static_cast<const ReturnStmt &>(s);
      line(s.loc) << "Return" << at(s.loc) << "\n";
      if (r.value)
        nested(*r.value);
      return;
    }
    }
  }
};

} // namespace

void dump(const File &file, llvm::raw_ostream &os) {
  Dumper d{os};
  for (const Import &i : file.imports)
    os << "Import " << i.name << " from " << i.from->filename << Dumper::at(i.loc) << "\n";
  for (auto &c : file.constants) {
    os << "Constant " << c->targets[0] << Dumper::at(c->loc) << "\n";
    d.depth = 1;
    d.expr(*c->annotation);
    d.expr(*c->value);
  }
  for (auto &fn : file.functions) {
    os << (fn->isKernel ? "Kernel " : "Function ") << fn->name << Dumper::at(fn->loc) << "\n";
    for (auto &p : fn->params) {
      os << "  Param " << p.name << Dumper::at(p.loc) << "\n";
      d.depth = 2;
      if (p.annotation)
        d.expr(*p.annotation);
      if (p.defaultValue) {
        os << "    Default\n";
        d.depth = 3;
        d.expr(*p.defaultValue);
      }
    }
    d.depth = 0;
    d.body(fn->body);
  }
}

} // namespace blk::ast
