// Loops: `for i in range(...)` as scf.for and `while` as scf.while, each
// carrying the variables its body assigns; a loop that `break` or `return`
// can leave runs as scf.while that also carries those flags (so the passes
// that pipeline scf.for never see it); `static_range` unrolls.
#include "Generator.h"

#include <functional>

using namespace mlir;

namespace blk {
namespace {

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

/// How a loop's body can end it early: `break` and `continue` of this loop
/// (not of the loops nested in it), `return` from anywhere in it.
struct LoopExits {
  bool breaks = false, continues = false, returns = false;
  /// Whether the loop can end before its condition or range says.
  bool leaves() const { return breaks || returns; }
};

void scanExits(const ast::Body &body, LoopExits &e, bool nested) {
  for (auto &s : body) {
    switch (s->kind) {
    case ast::Stmt::Kind::Break: e.breaks |= !nested; break;
    case ast::Stmt::Kind::Continue: e.continues |= !nested; break;
    case ast::Stmt::Kind::Return: e.returns = true; break;
    case ast::Stmt::Kind::If: {
      auto *i = static_cast<const ast::IfStmt *>(s.get());
      scanExits(i->thenBody, e, nested);
      scanExits(i->elseBody, e, nested);
      break;
    }
    case ast::Stmt::Kind::For: scanExits(static_cast<const ast::ForStmt *>(s.get())->body, e, true); break;
    case ast::Stmt::Kind::While: scanExits(static_cast<const ast::WhileStmt *>(s.get())->body, e, true); break;
    default: break;
    }
  }
}

LoopExits exitsOf(const ast::Body &body) {
  LoopExits e;
  scanExits(body, e, /*nested=*/false);
  return e;
}

/// Hides the enclosing loop's break and continue flags while a nested loop
/// is generated (`break` ends the innermost loop only).
struct HiddenFlags {
  Generator &g;
  Env saved;
  explicit HiddenFlags(Generator &g) : g(g) {
    for (const char *flag : {kLoopBroke, kLoopContinued})
      if (auto it = g.env.find(flag); it != g.env.end()) {
        saved[flag] = it->second;
        g.env.erase(it);
      }
  }
  ~HiddenFlags() {
    g.env.erase(kLoopBroke);
    g.env.erase(kLoopContinued);
    for (auto &[flag, value] : saved)
      g.env[flag] = value;
  }
};

/// The variables a loop carries: those its body assigns that exist before it,
/// and the flags of a loop its body can leave. A tuple or block pointer is
/// carried as its leaves.
struct LoopCarried {
  std::vector<std::string> names;
  std::vector<TV> forms; // per name: its value before the loop (the form of tuples and block pointers)
  SmallVector<Value> inits; // per leaf
  std::vector<bool> isUnsigned;

  /// Collects them from the current environment (materializing constants).
  bool collect(Generator &g, const ast::Body &body, llvm::StringRef skip, const ast::Loc &loc) {
    std::vector<std::string> assigned;
    assignedNames(body, assigned);
    for (const std::string &n : assigned) {
      auto it = g.env.find(n);
      if (it == g.env.end() || n == skip)
        continue;
      std::vector<TV> leaves;
      Generator::appendLeaves(it->second, leaves);
      for (TV &leaf : leaves) {
        leaf = g.materialize(leaf, loc);
        if (!leaf)
          return false;
        if (!leaf.isVal())
          return g.error(loc, "'" + n + "' (" + g.describe(it->second) + ") cannot change inside a loop"), false;
      }
      size_t pos = 0;
      it->second = Generator::withLeaves(it->second, leaves, pos);
      names.push_back(n);
      forms.push_back(it->second);
      for (const TV &leaf : leaves) {
        inits.push_back(leaf.value);
        isUnsigned.push_back(leaf.isUnsigned);
      }
    }
    return true;
  }
  /// Adds the break flag (starting clear) and the function's return flag
  /// when the body has them.
  bool addFlags(Generator &g, const LoopExits &exits, const ast::Loc &loc) {
    for (auto [flag, used] : {std::pair{kLoopBroke, exits.breaks}, std::pair{kLoopReturned, exits.returns}}) {
      if (!used)
        continue;
      TV &v = g.env[flag];
      if (!v)
        v = TV::makeBool(false);
      v = g.materialize(v, loc);
      if (!v)
        return false;
      names.push_back(flag);
      forms.push_back(v);
      inits.push_back(v.value);
      isUnsigned.push_back(false);
    }
    return true;
  }
  SmallVector<Type> types() const {
    SmallVector<Type> t;
    for (Value v : inits)
      t.push_back(v.getType());
    return t;
  }
  /// Binds the names to `values` (block arguments or loop results), one per leaf.
  void bind(Generator &g, ValueRange values) const {
    std::vector<TV> leaves;
    for (size_t c = 0; c < values.size(); ++c)
      leaves.push_back(TV::makeVal(values[c], isUnsigned[c]));
    size_t pos = 0;
    for (size_t n = 0; n < names.size(); ++n)
      g.env[names[n]] = Generator::withLeaves(forms[n], leaves, pos);
  }
  /// The values to yield: the leaves of the names' current values, of
  /// unchanged forms and types.
  bool yields(Generator &g, const ast::Loc &loc, SmallVectorImpl<Value> &out) const {
    size_t c = 0;
    for (size_t n = 0; n < names.size(); ++n) {
      const TV &now = g.env[names[n]];
      auto mismatch = [&](const std::string &was, const std::string &is, bool convertible) {
        return g.error(loc, "type mismatch: loop-carried '" + names[n] + "' starts as " + was + " but becomes " + is +
                                " in the loop" + (convertible ? "; convert it with .to()" : "")),
               false;
      };
      if (!Generator::sameForm(forms[n], now))
        return mismatch(g.describe(forms[n]), g.describe(now), false);
      std::vector<TV> leaves;
      Generator::appendLeaves(now, leaves);
      for (TV v : leaves) {
        if (v.isConst())
          v = g.convertElement(v, inits[c].getType(), isUnsigned[c], loc);
        if (!v)
          return false;
        if (!v.isVal() || v.value.getType() != inits[c].getType())
          return mismatch(g.describe(inits[c].getType()), g.describe(v), true);
        out.push_back(v.value);
        ++c;
      }
    }
    return true;
  }
};

/// Generates one iteration of a loop body at the builder's insertion point
/// (its flags clear: it runs) and the values it yields.
bool genIteration(Generator &g, const ast::Body &body, const LoopExits &exits, const ast::Loc &loc,
                  const LoopCarried &carried, SmallVectorImpl<Value> &values) {
  if (exits.breaks)
    g.env[kLoopBroke] = TV::makeBool(false);
  if (exits.continues)
    g.env[kLoopContinued] = TV::makeBool(false);
  if (exits.returns)
    g.env[kLoopReturned] = TV::makeBool(false);
  bool wasInLoop = g.inLoop, returned;
  g.inLoop = true;
  if (!g.genStmts(listOf(body), returned))
    return false;
  g.inLoop = wasInLoop;
  return carried.yields(g, loc, values);
}

/// A value returned in the body and computed at run time leaves `loop` as
/// one more carried value. Its start value is never read: the loop ends in
/// the iteration that sets the return flag. `after` is what the function
/// returns if the flag is set after the loop.
bool carryReturnValue(Generator &g, scf::WhileOp &loop, const Env &before, SmallVectorImpl<Value> &yields,
                      const ast::Loc &l, TV &after) {
  auto it = g.env.find(kLoopReturnValue);
  if (it == g.env.end() || !it->second.isVal()) {
    after = it == g.env.end() ? TV() : it->second;
    return true;
  }
  TV value = it->second;
  Type type = value.value.getType();
  yields.push_back(value.value);
  OpBuilder::InsertionGuard guard(g.builder);
  g.builder.setInsertionPoint(loop);
  Value init;
  auto old = before.find(kLoopReturnValue);
  if (old != before.end() && old->second.isVal() && old->second.value.getType() == type) {
    init = old->second.value;
  } else {
    TV start = g.placeholderLike(value, l);
    if (!start)
      return false;
    init = start.value;
  }
  Block &cond = loop.getBefore().front(), &body = loop.getAfter().front();
  auto condition = cast<scf::ConditionOp>(cond.getTerminator());
  condition.getArgsMutable().append(cond.addArgument(type, loop.getLoc()));
  body.addArgument(type, loop.getLoc());
  SmallVector<Value> inits(loop.getInits());
  inits.push_back(init);
  auto grown = scf::WhileOp::create(g.builder, loop.getLoc(), TypeRange(condition.getArgs()), inits);
  grown.getBefore().takeBody(loop.getBefore());
  grown.getAfter().takeBody(loop.getAfter());
  loop.erase();
  loop = grown;
  after = TV::makeVal(grown.getResults().back(), value.isUnsigned);
  return true;
}

/// After a loop: the value a `return` in it left, where there is one.
void bindReturnValue(Generator &g, const TV &after) {
  if (after)
    g.env[kLoopReturnValue] = after;
}

/// `for` over `range` whose body can leave it: scf.while on the index, the
/// carried variables and the flags, running while index < end and no flag is set.
bool genLeavableFor(Generator &g, const ast::ForStmt &f, const TV &lb, const TV &ub, const TV &step,
                    const LoopExits &exits) {
  LoopCarried carried;
  if (!carried.collect(g, f.body, f.var, f.loc) || !carried.addFlags(g, exits, f.loc))
    return false;
  Location at = g.loc(f.loc);
  SmallVector<Type> types{lb.value.getType()};
  types.append(carried.types());
  SmallVector<Value> inits{lb.value};
  inits.append(carried.inits);
  auto loop = scf::WhileOp::create(g.builder, at, types, inits);
  SmallVector<Location> locs(types.size(), at);
  Block *cond = g.builder.createBlock(&loop.getBefore(), {}, types, locs);
  Env before = g.env;
  carried.bind(g, cond->getArguments().drop_front());
  Value inRange = arith::CmpIOp::create(g.builder, at, arith::CmpIPredicate::slt, cond->getArgument(0), ub.value);
  Value go = arith::AndIOp::create(g.builder, at, inRange, g.stillRunning({kLoopBroke, kLoopReturned}, f.loc));
  scf::ConditionOp::create(g.builder, at, go, cond->getArguments());
  Block *body = g.builder.createBlock(&loop.getAfter(), {}, types, locs);
  g.env[f.var] = TV::makeVal(body->getArgument(0));
  carried.bind(g, body->getArguments().drop_front());
  SmallVector<Value> values;
  if (!genIteration(g, f.body, exits, f.loc, carried, values))
    return false;
  values.insert(values.begin(), arith::AddIOp::create(g.builder, at, body->getArgument(0), step.value));
  TV returnValue;
  if (exits.returns && !carryReturnValue(g, loop, before, values, f.loc, returnValue))
    return false;
  scf::YieldOp::create(g.builder, at, values);
  g.builder.setInsertionPointAfter(loop);
  g.env = before;
  carried.bind(g, loop.getResults().drop_front());
  bindReturnValue(g, returnValue);
  return true;
}

/// The condition of a `while` as an i1 at the builder's insertion point.
Value whileCondition(Generator &g, const ast::WhileStmt &w) {
  TV cond = g.gen(*w.cond);
  if (!cond)
    return nullptr;
  if (!g.shapeOf(cond).empty())
    return g.error(w.cond->loc, "a while loop needs a scalar condition, got " + g.describe(cond)), nullptr;
  cond = g.toBool(cond, w.cond->loc);
  if (cond && cond.isConst())
    cond = g.convertElement(cond, g.builder.getI1Type(), false, w.cond->loc);
  return cond ? cond.value : nullptr;
}

} // namespace

bool Generator::genFor(const ast::ForStmt &f) {
  auto *call = llvm::dyn_cast<ast::CallExpr>(f.iter.get());
  auto *callee = call ? llvm::dyn_cast<ast::NameExpr>(call->callee.get()) : nullptr;
  if (!callee || (callee->name != "range" && callee->name != "static_range"))
    return error(f.iter->loc, "a for loop must iterate over range(...) or static_range(...)"), false;
  if (callee->name == "static_range")
    return genStaticRange(f, *call);
  // Of Triton's keywords, warp_specialize (a compile-time bool): the TMA
  // copies of the loop, or of the dot loops in it (a persistent kernel's loop
  // over tiles), go to a producer warpgroup where blk-pipeline-dot can do it.
  // flatten (Triton's persistent-matmul spelling) changes nothing: the
  // producer warpgroup already copies the next tile's operands during this
  // tile's epilogue, and without one each tile's loop fills its own rings.
  // num_stages (a compile-time integer): this loop's pipelining depth in
  // place of the kernel's; as in Triton, its loads are issued ahead even
  // when the loop stores (the author vouches that no load reads what an
  // earlier iteration stores).
  bool warpSpecialize = false;
  std::optional<int64_t> numStages;
  for (const auto &kw : call->kwargs) {
    if (kw.name != "warp_specialize" && kw.name != "flatten" && kw.name != "num_stages")
      return error(kw.loc, "range takes no keyword argument but warp_specialize, flatten and num_stages, got '" +
                               kw.name + "'"),
             false;
    TV v = gen(*kw.value);
    if (!v)
      return false;
    if (kw.name == "num_stages") {
      if (v.kind != TV::Int)
        return error(kw.value->loc, "num_stages must be a compile-time integer, got " + describe(v)), false;
      if (v.wide() < 0 || v.wide() > 16)
        return error(kw.value->loc, "num_stages must be from 0 to 16, got " + std::to_string(v.i)), false;
      numStages = v.i;
      continue;
    }
    if (v.kind != TV::Bool && v.kind != TV::Int)
      return error(kw.value->loc, kw.name + " must be a compile-time bool, got " + describe(v)), false;
    if (kw.name == "warp_specialize")
      warpSpecialize = v.i != 0;
  }
  if (call->args.empty() || call->args.size() > 3)
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
    *b = convertElement(*b, ivType, false, f.loc);
    if (!*b)
      return false;
  }
  LoopExits exits = exitsOf(f.body);
  HiddenFlags hidden(*this);
  if (exits.leaves())
    return genLeavableFor(*this, f, lb, ub, step, exits);
  LoopCarried carried;
  if (!carried.collect(*this, f.body, f.var, f.loc))
    return false;
  Location at = loc(f.loc);
  auto loop = scf::ForOp::create(builder, at, lb.value, ub.value, step.value, carried.inits);
  if (warpSpecialize)
    loop->setAttr(kWarpSpecializeAttr, builder.getUnitAttr());
  if (numStages)
    loop->setAttr(kNumStagesAttr, builder.getI32IntegerAttr(int32_t(*numStages)));
  Block *body = loop.getBody();
  if (body->mightHaveTerminator())
    body->getTerminator()->erase();
  Env before = env;
  env[f.var] = TV::makeVal(loop.getInductionVar());
  carried.bind(*this, loop.getRegionIterArgs());
  builder.setInsertionPointToEnd(body);
  SmallVector<Value> values;
  if (!genIteration(*this, f.body, exits, f.loc, carried, values))
    return false;
  scf::YieldOp::create(builder, at, values);
  builder.setInsertionPointAfter(loop);
  env = before;
  carried.bind(*this, loop.getResults());
  return true;
}

bool Generator::genWhile(const ast::WhileStmt &w) {
  LoopExits exits = exitsOf(w.body);
  HiddenFlags hidden(*this);
  LoopCarried carried;
  if (!carried.collect(*this, w.body, "", w.loc) || !carried.addFlags(*this, exits, w.loc))
    return false;
  SmallVector<Type> types = carried.types();
  Location at = loc(w.loc);
  auto loop = scf::WhileOp::create(builder, at, types, carried.inits);
  SmallVector<Location> locs(types.size(), at);
  Block *beforeBlock = builder.createBlock(&loop.getBefore(), {}, types, locs);
  Env before = env;
  carried.bind(*this, beforeBlock->getArguments());
  Value go;
  if (exits.leaves()) {
    // The condition is evaluated only while no flag is set (it may load or
    // take a lock).
    Value running = stillRunning({kLoopBroke, kLoopReturned}, w.loc);
    auto check = scf::IfOp::create(builder, at, TypeRange{builder.getI1Type()}, running, /*withElseRegion=*/true);
    builder.setInsertionPointToStart(&check.getThenRegion().front());
    Value c = whileCondition(*this, w);
    if (!c)
      return false;
    scf::YieldOp::create(builder, at, c);
    builder.setInsertionPointToStart(&check.getElseRegion().front());
    scf::YieldOp::create(builder, at, ValueRange{arith::ConstantOp::create(builder, at, builder.getBoolAttr(false))});
    builder.setInsertionPointAfter(check);
    go = check.getResult(0);
  } else if (!(go = whileCondition(*this, w))) {
    return false;
  }
  scf::ConditionOp::create(builder, at, go, beforeBlock->getArguments());
  Block *afterBlock = builder.createBlock(&loop.getAfter(), {}, types, locs);
  carried.bind(*this, afterBlock->getArguments());
  SmallVector<Value> values;
  if (!genIteration(*this, w.body, exits, w.loc, carried, values))
    return false;
  TV returnValue;
  if (exits.returns && !carryReturnValue(*this, loop, before, values, w.loc, returnValue))
    return false;
  scf::YieldOp::create(builder, at, values);
  builder.setInsertionPointAfter(loop);
  env = before;
  carried.bind(*this, loop.getResults());
  bindReturnValue(*this, returnValue);
  return true;
}

bool Generator::genStaticRange(const ast::ForStmt &f, const ast::CallExpr &call) {
  if (!call.kwargs.empty())
    return error(call.kwargs.front().loc, "static_range takes no keyword arguments, got '" + call.kwargs.front().name + "'"),
           false;
  if (call.args.empty() || call.args.size() > 3)
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
  // In 128 bits: bounds near the ends of i64 do not overflow the count.
  __int128 span = step > 0 ? __int128(ub) - lb : __int128(lb) - ub, by = step > 0 ? step : -__int128(step);
  __int128 count = span > 0 ? (span + by - 1) / by : 0;
  constexpr int64_t kMaxUnroll = 1024;
  if (count > kMaxUnroll)
    return error(call.loc, "static_range unrolls at most " + std::to_string(kMaxUnroll) + " iterations, got " +
                               (count > INT64_MAX ? std::string("more than 2^63") : std::to_string(int64_t(count)))),
           false;
  int64_t trips = int64_t(count);
  // Nested, they multiply: bounded in all, as compile time grows with it.
  constexpr int64_t kMaxUnrolledCopies = 16384;
  if (trips > 1 && unrolledCopies * trips > kMaxUnrolledCopies)
    return error(call.loc, "static_range loops nested here unroll " + std::to_string(unrolledCopies * trips) +
                               " copies of their body in all, at most " + std::to_string(kMaxUnrolledCopies)),
           false;
  int64_t savedCopies = unrolledCopies;
  unrolledCopies *= std::max<int64_t>(trips, 1);
  // Unrolled in place: the loop variable is a compile-time constant in each
  // copy of the body, and assignments are visible after the loop (as in
  // Python). A `break` or `return` under a compile-time condition drops the
  // copies after it; under a runtime condition they run under its flag.
  std::vector<const ast::Stmt *> body = listOf(f.body);
  LoopExits exits = exitsOf(f.body);
  HiddenFlags hidden(*this);
  if (exits.breaks)
    env[kLoopBroke] = TV::makeBool(false);
  if (exits.returns && !env.count(kLoopReturned))
    env[kLoopReturned] = TV::makeBool(false);
  bool savedInLoop = inLoop;
  inLoop = true;
  std::function<bool(int64_t)> unrollFrom = [&](int64_t first) {
    for (int64_t t = first; t < trips; ++t) {
      env[f.var] = TV::makeInt(lb + t * step);
      if (exits.continues)
        env[kLoopContinued] = TV::makeBool(false);
      bool returned = false;
      if (!genStmts(body, returned))
        return false;
      env.erase(kLoopContinued);
      Flow flow = loopFlow({kLoopBroke, kLoopReturned});
      if (flow == Flow::Ends)
        return true;
      if (flow == Flow::MayEnd)
        return genWhileRunning({kLoopBroke, kLoopReturned}, f.loc, [&](bool &) { return unrollFrom(t + 1); });
    }
    return true;
  };
  bool ok = unrollFrom(0);
  inLoop = savedInLoop;
  unrolledCopies = savedCopies;
  return ok;
}

} // namespace blk
