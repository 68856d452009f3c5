// Statements: assignment, if/elif/else, return (early returns become
// structured branches), and what follows a `break`, `continue` or `return`
// inside a loop (the rest runs under a flag). The loops are in Loops.cpp.
#include "Generator.h"

#include <functional>

using namespace mlir;

namespace blk {
namespace {

using StmtList = std::vector<const ast::Stmt *>;

/// Whether some path through `stmts` returns (also from inside a loop).
bool mayReturn(llvm::ArrayRef<const ast::Stmt *> stmts) {
  for (const ast::Stmt *s : stmts) {
    if (llvm::isa<ast::ReturnStmt>(s))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s))
      if (mayReturn(listOf(i->thenBody)) || mayReturn(listOf(i->elseBody)))
        return true;
    if (auto *f = llvm::dyn_cast<ast::ForStmt>(s))
      if (mayReturn(listOf(f->body)))
        return true;
    if (auto *w = llvm::dyn_cast<ast::WhileStmt>(s))
      if (mayReturn(listOf(w->body)))
        return true;
  }
  return false;
}

/// Whether `stmts` hold a `break`, `continue` or `return` (outside nested loops, a return also inside them).
bool leavesEarly(llvm::ArrayRef<const ast::Stmt *> stmts) {
  for (const ast::Stmt *s : stmts) {
    if (llvm::isa<ast::BreakStmt, ast::ContinueStmt, ast::ReturnStmt>(s))
      return true;
    if (auto *i = llvm::dyn_cast<ast::IfStmt>(s))
      if (leavesEarly(listOf(i->thenBody)) || leavesEarly(listOf(i->elseBody)))
        return true;
    if (llvm::isa<ast::ForStmt, ast::WhileStmt>(s) && mayReturn({s}))
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

/// How a variable is named in messages (the generator's flags are not names).
std::string displayName(const std::string &name) {
  return name == kLoopReturnValue ? "the return value" : "'" + name + "'";
}

/// Whether two bindings are one: the same value or constant, tuples element by
/// element.
bool sameBinding(const TV &a, const TV &b) {
  if (a.kind != b.kind || a.value != b.value || a.i != b.i || a.isU64 != b.isU64 || a.f != b.f || a.type != b.type ||
      a.s != b.s || a.elements.size() != b.elements.size() || a.blockShape != b.blockShape || a.order != b.order)
    return false;
  for (size_t e = 0; e < a.elements.size(); ++e)
    if (!sameBinding(a.elements[e], b.elements[e]))
      return false;
  return true;
}

} // namespace

TV Generator::materialize(const TV &v, const ast::Loc &loc) {
  if (v.isVal() || !v.isConst())
    return v;
  bool isUnsigned;
  Type t = literalType(v, isUnsigned);
  return convertElement(v, t, isUnsigned, loc);
}

TV Generator::placeholderLike(const TV &v, const ast::Loc &loc) {
  if (!v.isVal())
    return v;
  auto zero = dyn_cast_or_null<TypedAttr>(builder.getZeroAttr(v.value.getType()));
  if (!zero)
    return error(loc, "a value of type " + describe(v) + " cannot be returned from inside a loop");
  return TV::makeVal(arith::ConstantOp::create(builder, this->loc(loc), zero), v.isUnsigned);
}

bool Generator::genBranches(Value c, llvm::function_ref<bool(bool &)> genThen,
                            llvm::function_ref<bool(bool &)> genElse, bool consumesRest, const ast::Loc &l,
                            bool &returned, const TV *perElement) {
  Location at = loc(l);
  // Per element (a map_elementwise function's `if` on a block): both
  // branches run where the `if` is, and their values merge by select.
  OpBuilder::InsertPoint here = builder.saveInsertionPoint();
  scf::IfOp placeholder;
  if (!perElement)
    placeholder = scf::IfOp::create(builder, at, TypeRange{}, c, /*withElseRegion=*/true);
  auto enterBranch = [&](int b) {
    if (perElement)
      builder.restoreInsertionPoint(here);
    else
      builder.setInsertionPoint((b == 0 ? placeholder.getThenRegion() : placeholder.getElseRegion()).front().getTerminator());
  };
  Env before = env;
  std::vector<TV> savedReturn = returnValues;
  Env branchEnv[2];
  std::vector<TV> branchReturn[2];
  bool branchReturned[2];
  llvm::function_ref<bool(bool &)> gens[2] = {genThen, genElse};
  TV outerGuard = elementGuard;
  for (int b = 0; b < 2; ++b) {
    env = before;
    returnValues.clear();
    enterBranch(b);
    if (perElement) {
      // Where this branch runs: its loads read only there.
      TV taken = b == 0 ? *perElement : genUnary("not", *perElement, l);
      elementGuard = !taken || outerGuard.kind == TV::None ? taken : genBinary("&", outerGuard, taken, l);
      if (!elementGuard)
        return false;
    }
    bool ok = gens[b](branchReturned[b]);
    elementGuard = outerGuard;
    if (!ok)
      return false;
    if (perElement)
      here = builder.saveInsertionPoint();
    branchEnv[b] = env;
    branchReturn[b] = returnValues;
  }
  // What each branch yields: the helper's return value when the rest of
  // the function was consumed, else the variables either branch changed.
  std::vector<std::string> names;
  std::vector<TV> yields[2];
  if (consumesRest) {
    bool hasValue[2];
    for (int b = 0; b < 2; ++b)
      hasValue[b] = !branchReturn[b].empty() && branchReturn[b][0].kind != TV::None;
    // A helper that returns nothing may leave early; one that returns a value must on every path.
    bool wantsValue = callStack.size() > 1 && (hasValue[0] || hasValue[1]);
    for (int b = 0; b < 2; ++b) {
      if (wantsValue && !hasValue[b])
        return error(l, "helper '" + callStack.back()->name + "' must return a value on every path"), false;
      if (wantsValue)
        yields[b].push_back(branchReturn[b][0]);
    }
  } else {
    // A value returned from inside a loop on one branch only: the other
    // branch did not return, so any value of that type does.
    for (int b = 0; b < 2; ++b) {
      auto has = branchEnv[b].find(kLoopReturnValue);
      if (has == branchEnv[b].end() || branchEnv[1 - b].count(kLoopReturnValue))
        continue;
      enterBranch(1 - b);
      TV fill = placeholderLike(has->second, l);
      if (!fill)
        return false;
      branchEnv[1 - b][kLoopReturnValue] = fill;
    }
    for (auto &[name, value] : branchEnv[0]) {
      auto other = branchEnv[1].find(name);
      if (other == branchEnv[1].end())
        continue; // defined on one branch only: not visible after the if
      auto old = before.find(name);
      if (old == before.end() || !sameBinding(old->second, value) || !sameBinding(old->second, other->second))
        names.push_back(name);
    }
    for (const std::string &name : names)
      for (int b = 0; b < 2; ++b)
        yields[b].push_back(branchEnv[b][name]);
  }
  // Tuples and block pointers merge leaf by leaf.
  std::vector<TV> forms = yields[0];
  std::vector<std::string> leafNames;
  {
    std::vector<TV> leaves[2];
    for (size_t y = 0; y < forms.size(); ++y) {
      if (!sameForm(yields[0][y], yields[1][y])) {
        std::string what = names.empty() ? "the return value" : displayName(names[y]);
        return error(l, what + " is " + describe(yields[0][y]) + " on one branch and " + describe(yields[1][y]) +
                            " on the other"),
               false;
      }
      for (int b = 0; b < 2; ++b)
        appendLeaves(yields[b][y], leaves[b]);
      while (leafNames.size() < leaves[0].size())
        leafNames.push_back(names.empty() ? kLoopReturnValue : names[y]);
    }
    yields[0] = std::move(leaves[0]);
    yields[1] = std::move(leaves[1]);
  }
  // Merge: identical compile-time values stay constants; others become SSA.
  SmallVector<Type> resultTypes;
  std::vector<bool> isSSA;
  for (size_t y = 0; y < yields[0].size(); ++y) {
    TV &a = yields[0][y], &b = yields[1][y];
    bool same = !a.isVal() && sameBinding(a, b);
    if (same) {
      isSSA.push_back(false);
      continue;
    }
    for (int br = 0; br < 2; ++br) {
      enterBranch(br);
      TV &v = yields[br][y];
      TV &other = yields[1 - br][y];
      if (v.isConst() && other.isVal())
        v = convertElement(v, elementType(other), other.isUnsigned, l);
      else
        v = materialize(v, l);
      if (!v)
        return false;
    }
    if (!a.isVal() || !b.isVal()) {
      std::string what = displayName(leafNames[y]);
      return error(l, what + " is " + describe(a) + " on one branch and " + describe(b) +
                          " on the other; only numbers and blocks can differ between branches"),
             false;
    }
    if (perElement ? elementType(a) != elementType(b) : a.value.getType() != b.value.getType()) {
      std::string what = displayName(leafNames[y]);
      return error(l, "type mismatch: " + what + " has type " + describe(a) + " on one branch and " +
                          describe(b) + " on the other"),
             false;
    }
    resultTypes.push_back(a.value.getType());
    isSSA.push_back(true);
  }
  std::vector<TV> mergedLeaves, merged;
  if (perElement) {
    if (!selectLeaves(*perElement, yields, isSSA, l, mergedLeaves))
      return false;
  } else {
    builder.setInsertionPoint(placeholder);
    auto ifOp = scf::IfOp::create(builder, at, resultTypes, c, /*withElseRegion=*/true);
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
    unsigned r = 0;
    for (size_t y = 0; y < yields[0].size(); ++y)
      mergedLeaves.push_back(isSSA[y] ? TV::makeVal(ifOp.getResult(r++), yields[0][y].isUnsigned) : yields[0][y]);
  }
  env = before;
  size_t pos = 0;
  for (const TV &form : forms)
    merged.push_back(withLeaves(form, mergedLeaves, pos));
  if (consumesRest) {
    returnValues = merged.empty() ? std::vector<TV>{TV::makeNone()} : merged;
    returned = true;
    return true;
  }
  for (size_t n = 0; n < names.size(); ++n)
    env[names[n]] = merged[n];
  returnValues = savedReturn;
  return true;
}

bool Generator::selectLeaves(const TV &cond, std::vector<TV> (&yields)[2], const std::vector<bool> &isSSA,
                             const ast::Loc &l, std::vector<TV> &out) {
  for (size_t y = 0; y < yields[0].size(); ++y) {
    const TV &a = yields[0][y], &b = yields[1][y];
    if (!isSSA[y]) {
      out.push_back(a);
      continue;
    }
    SmallVector<int64_t> shape, withCond;
    if (!broadcastShape(a, b, shape, l) || !broadcastShapes(shape, shapeOf(cond), withCond))
      return error(l, "shape mismatch: the branches' values do not broadcast with the condition"), false;
    TV ta = broadcastTo(a, withCond, l), tb = ta ? broadcastTo(b, withCond, l) : TV();
    TV tc = tb ? broadcastTo(cond, withCond, l) : TV();
    if (!tc)
      return false;
    out.push_back(TV::makeVal(arith::SelectOp::create(builder, loc(l), tc.value, ta.value, tb.value), a.isUnsigned));
  }
  return true;
}

Generator::Flow Generator::loopFlow(llvm::ArrayRef<const char *> flags) {
  bool maybe = false;
  for (const char *flag : flags) {
    auto it = env.find(flag);
    if (it == env.end())
      continue;
    if (!it->second.isVal() && it->second.asDouble() != 0)
      return Flow::Ends;
    maybe |= it->second.isVal();
  }
  return maybe ? Flow::MayEnd : Flow::Runs;
}

Value Generator::stillRunning(llvm::ArrayRef<const char *> flags, const ast::Loc &l) {
  Value stop;
  for (const char *flag : flags) {
    auto it = env.find(flag);
    if (it == env.end() || !it->second.isVal())
      continue;
    stop = stop ? arith::OrIOp::create(builder, loc(l), stop, it->second.value).getResult() : it->second.value;
  }
  Value one = arith::ConstantOp::create(builder, loc(l), builder.getBoolAttr(true));
  return stop ? arith::XOrIOp::create(builder, loc(l), stop, one).getResult() : one;
}

bool Generator::genWhileRunning(llvm::ArrayRef<const char *> flags, const ast::Loc &l,
                                llvm::function_ref<bool(bool &)> genRest) {
  Value running = stillRunning(flags, l);
  bool ignored;
  return genBranches(
      running,
      [&](bool &returned) {
        for (const char *flag : flags) // the rest runs only where none is set
          if (env.count(flag))
            env[flag] = TV::makeBool(false);
        return genRest(returned);
      },
      [](bool &returned) { return returned = false, true; }, /*consumesRest=*/false, l, ignored);
}

bool Generator::genReturnInLoop(const ast::ReturnStmt &r) {
  bool inHelper = callStack.size() > 1 && !callStack.back()->isKernel;
  if (r.value) {
    if (!inHelper)
      return error(r.loc, "a kernel cannot return a value; store results through a pointer"), false;
    TV v = genTupleOrValue(*r.value);
    if (!v)
      return false;
    if (v.kind == TV::Tuple)
      return error(r.loc, "returning several values from inside a loop is not supported"), false;
    if (v.kind == TV::BlockPtr)
      return error(r.value->loc, "a block pointer cannot be returned from inside a loop; return its offsets and "
                                 "advance it after the call"),
             false;
    if (v.isVal() && isa<PointerType>(elementType(v)))
      return error(r.value->loc, "a pointer cannot be returned from inside a loop; return an offset and add it "
                                 "to the pointer after the call"),
             false;
    env[kLoopReturnValue] = v;
  } else if (inHelper) {
    env[kLoopReturnValue] = TV::makeNone();
  }
  env[kLoopReturned] = TV::makeBool(true);
  return true;
}

bool Generator::genReturnAfterLoop(llvm::ArrayRef<const ast::Stmt *> rest, const ast::Loc &l, bool &returned,
                                   bool &consumed) {
  TV flag = env[kLoopReturned];
  consumed = flag.isVal() || flag.asDouble() != 0;
  if (!consumed) {
    env.erase(kLoopReturned);
    env.erase(kLoopReturnValue);
    return true;
  }
  // `return <the value the loop left>`, written where the loop is.
  auto value = env.find(kLoopReturnValue);
  auto ret = std::make_unique<ast::ReturnStmt>(l);
  if (value != env.end() && value->second.kind != TV::None)
    ret->value = std::make_unique<ast::NameExpr>(l, kLoopReturnValue);
  StmtList retList{ret.get()};
  synthesized.push_back(std::move(ret));
  if (!flag.isVal())
    return genStmts(retList, returned);
  StmtList restList(rest.begin(), rest.end());
  return genBranches(
      flag.value, [&](bool &r) { return genStmts(retList, r); },
      [&](bool &r) {
        env.erase(kLoopReturned);
        env.erase(kLoopReturnValue);
        return genStmts(restList, r);
      },
      /*consumesRest=*/true, l, returned);
}

bool Generator::genStmts(llvm::ArrayRef<const ast::Stmt *> stmts, bool &returned) {
  returned = false;
  for (size_t k = 0; k < stmts.size(); ++k) {
    const ast::Stmt *s = stmts[k];
    llvm::ArrayRef<const ast::Stmt *> rest = stmts.drop_front(k + 1);
    switch (s->kind) {
    case ast::Stmt::Kind::Pass:
      break;
    case ast::Stmt::Kind::Break:
      env[kLoopBroke] = TV::makeBool(true);
      return true;
    case ast::Stmt::Kind::Continue:
      env[kLoopContinued] = TV::makeBool(true);
      return true;
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
      if (a->targets.size() == 1 && v.kind == TV::Tuple && a->annotation)
        return error(a->annotation->loc, "a tuple takes no annotation: bind it as '" + a->targets[0] +
                                             " = (...)'"),
               false;
      if (!a->nested.empty()) {
        // a, (b, c) = t: each group unpacks the tuple at its position.
        std::function<bool(const std::vector<ast::UnpackTarget> &, const TV &)> bind =
            [&](const std::vector<ast::UnpackTarget> &shape, const TV &t) {
              if (t.kind != TV::Tuple || t.elements.size() != shape.size() || a->annotation)
                return error(a->loc, "cannot unpack " + describe(t) + " into " + std::to_string(shape.size()) +
                                         " names"),
                       false;
              for (size_t p = 0; p < shape.size(); ++p) {
                if (!shape[p].name.empty())
                  env[shape[p].name] = t.elements[p];
                else if (!bind(shape[p].parts, t.elements[p]))
                  return false;
              }
              return true;
            };
        if (!bind(a->nested, v))
          return false;
        break;
      }
      if (a->targets.size() != 1) {
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
      // `constexpr` and `dtype` check the value; a type (`f16`, `*f16`) converts it.
      auto *ann = llvm::dyn_cast_or_null<ast::NameExpr>(a->annotation.get());
      if (ann && ann->name == "constexpr") {
        if (!v.isConst())
          return error(a->value->loc, "a constexpr needs a compile-time value, got " + describe(v)), false;
      } else if (ann && ann->name == "dtype") {
        if (v.kind != TV::DType)
          return error(a->value->loc, "a dtype needs a type such as f16, got " + describe(v)), false;
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
        return genReturnInLoop(*r);
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
      if (cond.isConst() || cond.kind == TV::None) {
        // Compile-time condition: only the taken branch exists.
        bool taken = cond.isConst() && cond.asDouble() != 0;
        StmtList chosen = taken ? thenList : elseList;
        chosen.insert(chosen.end(), rest.begin(), rest.end());
        return genStmts(chosen, returned);
      }
      bool perElement = !shapeOf(cond).empty();
      if (perElement && !mapDepth)
        return error(i->cond->loc, "an 'if' needs a scalar condition, got " + describe(cond) +
                                       "; use where() or a mask for blocks"),
               false;
      if (perElement && inLoop && (leavesEarly(thenList) || leavesEarly(elseList)))
        return error(i->cond->loc, "a loop in a map_elementwise function cannot break, continue or return on an "
                                   "element (" + describe(cond) + "): its iterations are the same for every element"),
               false;
      TV c = toBool(cond, i->cond->loc);
      if (!c)
        return false;
      // Outside loops, a branch that may return takes the statements after
      // the `if` with it (into each branch that does not always return);
      // inside a loop, returns set a flag and the rest runs under it.
      bool consumesRest = !inLoop && (mayReturn(thenList) || mayReturn(elseList));
      if (consumesRest) {
        if (!alwaysReturns(thenList))
          thenList.insert(thenList.end(), rest.begin(), rest.end());
        if (!alwaysReturns(elseList))
          elseList.insert(elseList.end(), rest.begin(), rest.end());
      }
      if (!genBranches(
              perElement ? Value() : c.value, [&](bool &r) { return genStmts(thenList, r); },
              [&](bool &r) { return genStmts(elseList, r); }, consumesRest, i->loc, returned,
              perElement ? &c : nullptr))
        return false;
      if (consumesRest)
        return true;
      break;
    }
    case ast::Stmt::Kind::For: {
      if (!genFor(*static_cast<const ast::ForStmt *>(s)))
        return false;
      break;
    }
    case ast::Stmt::Kind::While: {
      if (!genWhile(*static_cast<const ast::WhileStmt *>(s)))
        return false;
      break;
    }
    }
    // After a statement that may have left the loop (or, from inside a loop,
    // the function): the rest runs only where it did not.
    if (inLoop) {
      Flow flow = loopFlow({kLoopBroke, kLoopContinued, kLoopReturned});
      if (flow == Flow::Ends)
        return true;
      if (flow == Flow::MayEnd)
        return rest.empty() ||
               genWhileRunning({kLoopBroke, kLoopContinued, kLoopReturned}, s->loc, [&](bool &r) {
                 return genStmts(rest, r);
               });
    } else if (env.count(kLoopReturned)) {
      bool consumed;
      if (!genReturnAfterLoop(rest, s->loc, returned, consumed))
        return false;
      if (consumed)
        return true;
    }
  }
  return true;
}

} // namespace blk
