// blk::InternalErrors: unmarked errors are held back and reported as internal
// compiler errors; errors marked as the user's pass through unchanged.
#include "blk/Support/InternalErrors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

struct Collected {
  std::vector<std::string> errors, notes;
};

Collected collect(MLIRContext &ctx, llvm::function_ref<void()> body) {
  Collected c;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      c.errors.push_back(d.str());
    for (const Diagnostic &n : d.getNotes())
      c.notes.push_back(n.str());
    return success();
  });
  body();
  return c;
}

TEST(InternalErrors, UnmarkedErrorsAreReportedAsInternal) {
  MLIRContext ctx;
  Location loc = FileLineColLoc::get(&ctx, "k.blk", 3, 5);
  Collected c = collect(ctx, [&] {
    blk::InternalErrors internal(ctx, "the lowering to LLVM");
    emitError(loc) << "operand A's layout does not hold an mma.sync fragment";
    EXPECT_TRUE(failed(internal.report()));
    EXPECT_TRUE(succeeded(internal.report())); // once
  });
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0], "internal compiler error: operand A's layout does not hold an mma.sync fragment");
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("in the lowering to LLVM. This is a bug in blk, not in the kernel"), std::string::npos);
}

TEST(InternalErrors, UserFacingErrorsPassThrough) {
  MLIRContext ctx;
  Location loc = FileLineColLoc::get(&ctx, "k.blk", 3, 5);
  Collected c = collect(ctx, [&] {
    blk::InternalErrors internal(ctx, "the blk passes");
    blk::userFacing(emitError(loc)) << "a block of 1048576 elements needs 8192 values per thread";
    emitWarning(loc) << "a warning stays a warning";
    EXPECT_TRUE(succeeded(internal.report()));
  });
  ASSERT_EQ(c.errors.size(), 1u);
  EXPECT_EQ(c.errors[0], "a block of 1048576 elements needs 8192 values per thread");
}

TEST(InternalErrors, NamesTheKernelDefinedBeforeTheLocation) {
  MLIRContext ctx;
  ctx.loadDialect<func::FuncDialect>();
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(module->getBody());
  for (auto [name, line] : {std::pair{"first", 1u}, {"second", 10u}})
    func::FuncOp::create(b, FileLineColLoc::get(&ctx, "k.blk", line, 1), name, b.getFunctionType({}, {}));
  Collected c = collect(ctx, [&] {
    blk::InternalErrors internal(ctx, "the blk passes");
    internal.setKernels(*module);
    emitError(FileLineColLoc::get(&ctx, "k.blk", 12, 3)) << "broken";
    emitError(FileLineColLoc::get(&ctx, "k.blk", 4, 3)) << "broken";
  }); // reported when `internal` goes out of scope
  ASSERT_EQ(c.notes.size(), 2u);
  EXPECT_NE(c.notes[0].find("kernel 'second'"), std::string::npos);
  EXPECT_NE(c.notes[1].find("kernel 'first'"), std::string::npos);
}

} // namespace
