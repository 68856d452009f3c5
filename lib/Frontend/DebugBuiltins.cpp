// debug_barrier, static_print and assume: Triton's debugging and hint
// builtins that are neither math nor memory.
#include "Generator.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir;

namespace blk {

bool isDebugBuiltin(const std::string &name) {
  return llvm::is_contained({"debug_barrier", "static_print", "assume"}, name);
}

/// A compile-time value as Python prints it (True, 4, 0.5, f16, the text of a
/// string); a runtime value as its type.
std::string Generator::staticText(const TV &v) {
  switch (v.kind) {
  case TV::Bool: return v.i ? "True" : "False";
  case TV::Int: return v.isU64 ? std::to_string(uint64_t(v.i)) : std::to_string(v.i);
  case TV::Float: {
    char buf[32];
    for (int digits = 1; digits <= 17; ++digits) { // the shortest text that reads back, as Python's repr
      std::snprintf(buf, sizeof buf, "%.*g", digits, v.f);
      if (std::strtod(buf, nullptr) == v.f)
        break;
    }
    std::string s = buf;
    if (s.find_first_of(".eni") == std::string::npos) // 4 -> 4.0, as Python
      s += ".0";
    return s;
  }
  case TV::Str: return v.s;
  case TV::None: return "None";
  case TV::DType: return describe(v.type, v.isUnsigned);
  case TV::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < v.elements.size(); ++i)
      s += (i ? ", " : "") + staticText(v.elements[i]);
    return s + ")";
  }
  default: return describe(v);
  }
}

TV Generator::genDebugBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  Location at = loc(call.loc);
  if (name == "debug_barrier") { // every thread of the program waits here (bar.sync)
    BarrierOp::create(builder, at);
    return TV::makeNone();
  }
  if (name == "static_print") { // at compile time, once per generation of the call
    if (!options.staticPrint)
      return TV::makeNone();
    std::string line;
    for (size_t i = 0; i < call.args.size(); ++i)
      line += (i ? " " : "") + staticText(args[i]);
    llvm::errs() << line << "\n";
    return TV::makeNone();
  }
  // assume(cond): a promise to the optimizer (llvm.assume); the interpreter
  // checks it.
  const ast::Loc &condLoc = builtinArgLoc(call, name, 0);
  TV c = toBool(args[0], condLoc);
  if (!c)
    return c;
  if (c.isConst()) {
    if (c.asDouble() == 0)
      return error(condLoc, "assume's condition is always false");
    return TV::makeNone();
  }
  if (!shapeOf(c).empty())
    return error(condLoc, "assume needs a scalar condition, got " + describe(args[0]));
  LLVM::AssumeOp::create(builder, at, c.value);
  return TV::makeNone();
}

} // namespace blk
