// Statements: assignment, if/elif/else, for and while loops with
// loop-carried values, return (early returns become structured branches).
#include "Generator.h"

using namespace mlir;

namespace blk {
namespace {

using StmtList = std::vector<const ast::Stmt *>;

StmtList listOf(const ast::Body &body) {
  StmtList out;
  for (auto &s : body)
    out.push_back(s.get());
  return out;
}

/// Whether some path through `stmts` returns.
bool mayReturn(llvm::ArrayRef<const ast::Stmt *> stmts) {
  for (const ast::Stmt *s : stmts) {
    if (llvm::isa<ast::ReturnStmt>(s))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s))
      if (mayReturn(listOf(i->thenBody)) || mayReturn(listOf(i->elseBody)))
        return true;
  }
  return false;
}

/// Whether every path through `stmts` returns.
bool alwaysReturns(llvm::ArrayRef<const ast::Stmt *> stmts) {
  for (const ast::Stmt *s : stmts) {
    if (llvm::isa<ast::ReturnStmt>(s))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s))
      if (alwaysReturns(listOf(i->thenBody)) && alwaysReturns(listOf(i->elseBody)))
        return true;
  }
  return false;
}

/// Names assigned anywhere in `stmts` (in order of first assignment).
void assignedNames(const ast::Body &body, std::vector<std::string> &out) {
  auto add = [&](const std::string &n) {
    if (!llvm::is_contained(out, n))
      out.push_back(n);
  };
  for (auto &s : body) {
    if (auto *a = llvm::dyn_cast<ast::AssignStmt>(s.get()))
      for (auto &t : a->targets)
        add(t);
    if (auto *a = llvm::dyn_cast<ast::AugAssignStmt>(s.get()))
      add(a->target);
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s.get())) {
      assignedNames(i->thenBody, out);
      assignedNames(i->elseBody, out);
    }
    if (auto *f = llvm::dyn_cast<ast::ForStmt>(s.get())) {
      assignedNames(f->body, out);
    }
    if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s.get()))
      assignedNames(w->body, out);
  }
}

} // namespace

/// Materializes compile-time values that must live in SSA form (loop-carried
/// or merged across a runtime branch).
static TV materialize(Generator &g, const TV &v, const ast::Loc &loc) {
  if (v.isVal() || !v.isConst())
    return v;
  bool isUnsigned;
  Type t = g.literalType(v, isUnsigned);
  return g.convertElement(v, t, isUnsigned, loc);
}

/// The variables a loop carries: those its body assigns that exist before it.
struct LoopCarried {
  std::vector<std::string> names;
  SmallVector<Value> inits;
  std::vector<bool> isUnsigned;

  /// Collects them from the current environment (materializing constants).
  bool collect(Generator &g, const ast::Body &body, llvm::StringRef skip, const ast::Loc &loc) {
    std::vector<std::string> assigned;
    assignedNames(body, assigned);
    for (const std::string &n : assigned) {
      auto it = g.env.find(n);
      if (it == g.env.end() || n == skip)
        continue;
      TV v = materialize(g, it->second, loc);
      if (!v)
        return false;
      if (!v.isVal())
        return g.error(loc, "'" + n + "' (" + g.describe(v) + ") cannot change inside a loop"), false;
      it->second = v;
      names.push_back(n);
      inits.push_back(v.value);
      isUnsigned.push_back(v.isUnsigned);
    }
    return true;
  }
  SmallVector<Type> types() const {
    SmallVector<Type> t;
    for (Value v : inits)
      t.push_back(v.getType());
    return t;
  }
  /// Binds the names to `values` (block arguments or loop results).
  void bind(Generator &g, ValueRange values) const {
    for (size_t c = 0; c < names.size(); ++c)
      g.env[names[c]] = TV::makeVal(values[c], isUnsigned[c]);
  }
  /// Generates a loop body at the builder's insertion point and its scf.yield
  /// of the carried values.
  bool genBody(Generator &g, const ast::Body &body, const ast::Loc &loc) const {
    bool wasInLoop = g.inLoop, returned;
    g.inLoop = true;
    if (!g.genStmts(listOf(body), returned))
      return false;
    g.inLoop = wasInLoop;
    SmallVector<Value> values;
    if (!yields(g, loc, values))
      return false;
    scf::YieldOp::create(g.builder, g.loc(loc), values);
    return true;
  }
  /// The values to yield: the names' current values, of unchanged types.
  bool yields(Generator &g, const ast::Loc &loc, SmallVectorImpl<Value> &out) const {
    for (size_t c = 0; c < names.size(); ++c) {
      TV v = g.env[names[c]];
      if (v.isConst())
        v = g.convertElement(v, inits[c].getType(), isUnsigned[c], loc);
      if (!v)
        return false;
      if (!v.isVal() || v.value.getType() != inits[c].getType())
        return g.error(loc, "type mismatch: loop-carried '" + names[c] + "' starts as " +
                                g.describe(inits[c].getType()) + " but becomes " + g.describe(v) +
                                " in the loop; convert it with .to()"),
               false;
      out.push_back(v.value);
    }
    return true;
  }
};

bool Generator::genStmts(llvm::ArrayRef<const ast::Stmt *> stmts, bool &returned) {
  returned = false;
  for (size_t k = 0; k < stmts.size(); ++k) {
    const ast::Stmt *s = stmts[k];
    switch (s->kind) {
    case ast::Stmt::Kind::Pass:
      break;
    case ast::Stmt::Kind::Expr: {
      if (!gen(*static_cast<const ast::ExprStmt *>(s)->expr))
        return false;
      break;
    }
    case ast::Stmt::Kind::Assign: {
      auto *a = static_cast<const ast::AssignStmt *>(s);
      TV v = genTupleOrValue(*a->value);
      if (!v)
        return false;
      if (a->targets.size() != 1 || v.kind == TV::Tuple) {
        // a, b = f(...)
        if (v.kind != TV::Tuple || v.elements.size() != a->targets.size() || a->annotation)
          return error(a->loc, "cannot unpack " + describe(v) + " into " + std::to_string(a->targets.size()) +
                                   " names"),
                 false;
        for (size_t t = 0; t < a->targets.size(); ++t)
          env[a->targets[t]] = v.elements[t];
        break;
      }
      if (v.kind == TV::None || v.kind == TV::Str)
        return error(a->value->loc, "cannot assign " + describe(v) + " to a variable"), false;
      if (auto *ann = llvm::dyn_cast_or_null<ast::NameExpr>(a->annotation.get())) {
        if (ann->name == "constexpr" && !v.isConst())
          return error(a->value->loc, "a constexpr needs a compile-time value, got " + describe(v)), false;
      } else if (a->annotation) {
        TV t = gen(*a->annotation);
        if (!t)
          return false;
        if (t.kind != TV::DType)
          return error(a->annotation->loc, "expected a type or constexpr, got " + describe(t)), false;
        v = convertElement(v, t.type, t.isUnsigned, a->loc);
        if (!v)
          return false;
      }
      env[a->targets[0]] = v;
      break;
    }
    case ast::Stmt::Kind::AugAssign: {
      auto *a = static_cast<const ast::AugAssignStmt *>(s);
      auto it = env.find(a->target);
      if (it == env.end())
        return error(a->loc, "unknown name '" + a->target + "'"), false;
      TV rhs = gen(*a->value);
      if (!rhs)
        return false;
      TV v = genBinary(a->op, it->second, rhs, a->loc);
      if (!v)
        return false;
      // Augmented assignment keeps the variable's type (as Triton does).
      if (it->second.isVal() && v.isVal() && v.value.getType() != it->second.value.getType() &&
          shapeOf(v) == shapeOf(it->second) && !isa<PointerType>(elementType(v)))
        v = convertElement(v, elementType(it->second), it->second.isUnsigned, a->loc);
      if (!v)
        return false;
      env[a->target] = v;
      break;
    }
    case ast::Stmt::Kind::Return: {
      auto *r = static_cast<const ast::ReturnStmt *>(s);
      if (inLoop)
        return error(r->loc, "'return' inside a loop is not supported"), false;
      if (r->value) {
        if (callStack.size() < 2 || callStack.back()->isKernel)
          return error(r->loc, "a kernel cannot return a value; store results through a pointer"), false;
        TV v = genTupleOrValue(*r->value);
        if (!v)
          return false;
        returnValues = {v};
      } else {
        returnValues = {TV::makeNone()};
      }
      returned = true;
      return true;
    }
    case ast::Stmt::Kind::If: {
      auto *i = static_cast<const ast::IfStmt *>(s);
      TV cond = gen(*i->cond);
      if (!cond)
        return false;
      StmtList thenList = listOf(i->thenBody), elseList = listOf(i->elseBody);
      llvm::ArrayRef<const ast::Stmt *> rest = stmts.drop_front(k + 1);
      if (cond.isConst() || cond.kind == TV::None) {
        // Compile-time condition: only the taken branch exists.
        bool taken = cond.isConst() && cond.asDouble() != 0;
        StmtList chosen = taken ? thenList : elseList;
        chosen.insert(chosen.end(), rest.begin(), rest.end());
        return genStmts(chosen, returned);
      }
      if (!shapeOf(cond).empty())
        return error(i->cond->loc, "an 'if' needs a scalar condition, got " + describe(cond) +
                                       "; use where() or a mask for blocks"),
               false;
      TV c = toBool(cond, i->cond->loc);
      if (!c)
        return false;
      // A branch that may return takes the statements after the `if` with it
      // (into each branch that does not always return).
      bool consumesRest = mayReturn(thenList) || mayReturn(elseList);
      if (consumesRest) {
        if (!alwaysReturns(thenList))
          thenList.insert(thenList.end(), rest.begin(), rest.end());
        if (!alwaysReturns(elseList))
          elseList.insert(elseList.end(), rest.begin(), rest.end());
      }
      Location at = loc(i->loc);
      auto placeholder = scf::IfOp::create(builder, at, TypeRange{}, c.value, /*withElseRegion=*/true);
      Env before = env;
      std::vector<TV> savedReturn = returnValues;
      Env branchEnv[2];
      std::vector<TV> branchReturn[2];
      bool branchReturned[2];
      Block *blocks[2] = {&placeholder.getThenRegion().front(), &placeholder.getElseRegion().front()};
      StmtList *lists[2] = {&thenList, &elseList};
      for (int b = 0; b < 2; ++b) {
        env = before;
        returnValues.clear();
        builder.setInsertionPoint(blocks[b]->getTerminator());
        if (!genStmts(*lists[b], branchReturned[b]))
          return false;
        branchEnv[b] = env;
        branchReturn[b] = returnValues;
      }
      // What each branch yields: the helper's return value when the rest of
      // the function was consumed, else the variables either branch changed.
      std::vector<std::string> names;
      std::vector<TV> yields[2];
      const ast::Loc &l = i->loc;
      if (consumesRest) {
        bool wantsValue = callStack.size() > 1;
        for (int b = 0; b < 2; ++b) {
          bool hasValue = !branchReturn[b].empty() && branchReturn[b][0].kind != TV::None;
          if (wantsValue && !hasValue)
            return error(l, "helper '" + callStack.back()->name + "' must return a value on every path"), false;
          if (wantsValue && branchReturn[b][0].kind == TV::Tuple)
            return error(l, "returning several values from inside an 'if' is not supported yet"), false;
          if (wantsValue)
            yields[b].push_back(branchReturn[b][0]);
        }
      } else {
        auto same = [](const TV &a, const TV &b) {
          return a.kind == b.kind && a.value == b.value && a.i == b.i && a.isU64 == b.isU64 && a.f == b.f &&
                 a.type == b.type && a.s == b.s;
        };
        for (auto &[name, value] : branchEnv[0]) {
          auto other = branchEnv[1].find(name);
          if (other == branchEnv[1].end())
            continue; // defined on one branch only: not visible after the if
          auto old = before.find(name);
          if (old == before.end() || !same(old->second, value) || !same(old->second, other->second))
            names.push_back(name);
        }
        for (const std::string &name : names)
          for (int b = 0; b < 2; ++b)
            yields[b].push_back(branchEnv[b][name]);
      }
      // Merge: identical compile-time values stay constants; others become SSA.
      SmallVector<Type> resultTypes;
      std::vector<bool> isSSA;
      for (size_t y = 0; y < yields[0].size(); ++y) {
        TV &a = yields[0][y], &b = yields[1][y];
        bool same = a.kind == b.kind && !a.isVal() && a.i == b.i && a.isU64 == b.isU64 && a.f == b.f &&
                    a.type == b.type && a.s == b.s;
        if (same && a.kind != TV::Val) {
          isSSA.push_back(false);
          continue;
        }
        for (int br = 0; br < 2; ++br) {
          builder.setInsertionPoint(blocks[br]->getTerminator());
          TV &v = yields[br][y];
          TV &other = yields[1 - br][y];
          if (v.isConst() && other.isVal())
            v = convertElement(v, elementType(other), other.isUnsigned, l);
          else
            v = materialize(*this, v, l);
          if (!v)
            return false;
        }
        if (!a.isVal() || !b.isVal()) {
          std::string what = names.empty() ? "the return value" : "'" + names[y] + "'";
          return error(l, what + " is " + describe(a) + " on one branch and " + describe(b) +
                              " on the other; only numbers and blocks can differ between branches"),
                 false;
        }
        if (a.value.getType() != b.value.getType()) {
          std::string what = names.empty() ? "the return value" : "'" + names[y] + "'";
          return error(l, "type mismatch: " + what + " has type " + describe(a) + " on one branch and " +
                              describe(b) + " on the other"),
                 false;
        }
        resultTypes.push_back(a.value.getType());
        isSSA.push_back(true);
      }
      builder.setInsertionPoint(placeholder);
      auto ifOp = scf::IfOp::create(builder, at, resultTypes, c.value, /*withElseRegion=*/true);
      for (int b = 0; b < 2; ++b) {
        Region &dst = b == 0 ? ifOp.getThenRegion() : ifOp.getElseRegion();
        Region &src = b == 0 ? placeholder.getThenRegion() : placeholder.getElseRegion();
        dst.takeBody(src);
        Block &block = dst.front();
        block.getTerminator()->erase();
        builder.setInsertionPointToEnd(&block);
        SmallVector<Value> values;
        for (size_t y = 0; y < yields[b].size(); ++y)
          if (isSSA[y])
            values.push_back(yields[b][y].value);
        scf::YieldOp::create(builder, at, values);
      }
      placeholder.erase();
      builder.setInsertionPointAfter(ifOp);
      env = before;
      unsigned r = 0;
      std::vector<TV> merged;
      for (size_t y = 0; y < yields[0].size(); ++y)
        merged.push_back(isSSA[y] ? TV::makeVal(ifOp.getResult(r++), yields[0][y].isUnsigned) : yields[0][y]);
      if (consumesRest) {
        returnValues = merged.empty() ? std::vector<TV>{TV::makeNone()} : merged;
        returned = true;
        return true;
      }
      for (size_t n = 0; n < names.size(); ++n)
        env[names[n]] = merged[n];
      returnValues = savedReturn;
      break;
    }
    case ast::Stmt::Kind::For: {
      auto *f = static_cast<const ast::ForStmt *>(s);
      auto *call = llvm::dyn_cast<ast::CallExpr>(f->iter.get());
      auto *callee = call ? llvm::dyn_cast<ast::NameExpr>(call->callee.get()) : nullptr;
      if (!callee || (callee->name != "range" && callee->name != "static_range"))
        return error(f->iter->loc, "a for loop must iterate over range(...) or static_range(...)"), false;
      if (callee->name == "static_range") {
        if (!genStaticRange(*f, *call))
          return false;
        break;
      }
      if (call->args.empty() || call->args.size() > 3 || !call->kwargs.empty())
        return error(call->loc, "range takes 1 to 3 arguments, got " + std::to_string(call->args.size())), false;
      std::vector<TV> bounds;
      for (auto &a : call->args) {
        TV v = gen(*a);
        if (!v)
          return false;
        if (!(v.kind == TV::Int || v.kind == TV::Bool) &&
            !(v.isVal() && shapeOf(v).empty() && isa<IntegerType>(elementType(v)) && !elementType(v).isInteger(1)))
          return error(a->loc, "range bounds must be scalar integers, got " + describe(v)), false;
        bounds.push_back(v);
      }
      TV lb = bounds.size() == 1 ? TV::makeInt(0) : bounds[0];
      TV ub = bounds.size() == 1 ? bounds[0] : bounds[1];
      TV step = bounds.size() == 3 ? bounds[2] : TV::makeInt(1);
      if (step.kind == TV::Int && step.wide() <= 0)
        return error(call->args[2]->loc, "range step must be positive, got " + std::to_string(step.i)), false;
      Type ivType = builder.getI32Type();
      for (TV *b : {&lb, &ub, &step})
        if ((b->isVal() && elementType(*b).getIntOrFloatBitWidth() == 64) ||
            (b->kind == TV::Int && (b->wide() < INT32_MIN || b->wide() > INT32_MAX)))
          ivType = builder.getI64Type();
      for (TV *b : {&lb, &ub, &step}) {
        *b = convertElement(*b, ivType, false, f->loc);
        if (!*b)
          return false;
      }
      LoopCarried carried;
      if (!carried.collect(*this, f->body, f->var, f->loc))
        return false;
      Location at = loc(f->loc);
      auto loop = scf::ForOp::create(builder, at, lb.value, ub.value, step.value, carried.inits);
      Block *body = loop.getBody();
      if (body->mightHaveTerminator())
        body->getTerminator()->erase();
      Env before = env;
      env[f->var] = TV::makeVal(loop.getInductionVar());
      carried.bind(*this, loop.getRegionIterArgs());
      builder.setInsertionPointToEnd(body);
      if (!carried.genBody(*this, f->body, f->loc))
        return false;
      builder.setInsertionPointAfter(loop);
      env = before;
      carried.bind(*this, loop.getResults());
      break;
    }
    case ast::Stmt::Kind::While: {
      auto *w = static_cast<const ast::WhileStmt *>(s);
      LoopCarried carried;
      if (!carried.collect(*this, w->body, "", w->loc))
        return false;
      SmallVector<Type> types = carried.types();
      Location at = loc(w->loc);
      auto loop = scf::WhileOp::create(builder, at, types, carried.inits);
      SmallVector<Location> locs(types.size(), at);
      Block *beforeBlock = builder.createBlock(&loop.getBefore(), {}, types, locs);
      Env before = env;
      carried.bind(*this, beforeBlock->getArguments());
      TV cond = gen(*w->cond);
      if (!cond)
        return false;
      if (!shapeOf(cond).empty())
        return error(w->cond->loc, "a while loop needs a scalar condition, got " + describe(cond)), false;
      cond = toBool(cond, w->cond->loc);
      if (cond && cond.isConst())
        cond = convertElement(cond, builder.getI1Type(), false, w->cond->loc);
      if (!cond)
        return false;
      scf::ConditionOp::create(builder, at, cond.value, beforeBlock->getArguments());
      Block *afterBlock = builder.createBlock(&loop.getAfter(), {}, types, locs);
      carried.bind(*this, afterBlock->getArguments());
      if (!carried.genBody(*this, w->body, w->loc))
        return false;
      builder.setInsertionPointAfter(loop);
      env = before;
      carried.bind(*this, loop.getResults());
      break;
    }
    }
  }
  return true;
}

bool Generator::genStaticRange(const ast::ForStmt &f, const ast::CallExpr &call) {
  if (call.args.empty() || call.args.size() > 3 || !call.kwargs.empty())
    return error(call.loc, "static_range takes 1 to 3 arguments, got " + std::to_string(call.args.size())), false;
  std::vector<int64_t> bounds;
  for (auto &a : call.args) {
    TV v = gen(*a);
    if (!v)
      return false;
    if (v.kind != TV::Int || v.isU64)
      return error(a->loc, "static_range bounds must be compile-time integers (of i64), got " + describe(v)), false;
    bounds.push_back(v.i);
  }
  int64_t lb = bounds.size() == 1 ? 0 : bounds[0], ub = bounds.size() == 1 ? bounds[0] : bounds[1];
  int64_t step = bounds.size() == 3 ? bounds[2] : 1;
  if (step == 0)
    return error(call.args[2]->loc, "static_range step must not be 0"), false;
  int64_t trips = step > 0 ? (ub > lb ? (ub - lb + step - 1) / step : 0) : (lb > ub ? (lb - ub - step - 1) / -step : 0);
  constexpr int64_t kMaxUnroll = 1024;
  if (trips > kMaxUnroll)
    return error(call.loc, "static_range unrolls at most " + std::to_string(kMaxUnroll) + " iterations, got " +
                               std::to_string(trips)),
           false;
  // Unrolled in place: the loop variable is a compile-time constant in each
  // copy of the body, and assignments are visible after the loop (as in Python).
  std::vector<const ast::Stmt *> body;
  for (auto &st : f.body)
    body.push_back(st.get());
  bool savedInLoop = inLoop;
  inLoop = true;
  for (int64_t t = 0; t < trips; ++t) {
    env[f.var] = TV::makeInt(lb + t * step);
    bool returned = false;
    if (!genStmts(body, returned)) {
      inLoop = savedInLoop;
      return false;
    }
  }
  inLoop = savedInLoop;
  return true;
}

} // namespace blk
