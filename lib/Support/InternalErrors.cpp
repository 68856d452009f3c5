#include "blk/Support/InternalErrors.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace blk {

namespace {

// Metadata, not printed: the diagnostic is the user's.
constexpr llvm::StringLiteral kUserFacing = "blk.user-facing";

// The pass running on this thread: diagnostics are handled on the thread
// that emits them, which is the one running the pass.
thread_local const Pass *runningPass = nullptr;

struct RunningPass : PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *) override { runningPass = pass; }
  void runAfterPass(Pass *, Operation *) override { runningPass = nullptr; }
  void runAfterPassFailed(Pass *, Operation *) override { runningPass = nullptr; }
};

} // namespace

InFlightDiagnostic &userFacing(InFlightDiagnostic &diag) {
  if (Diagnostic *d = diag.getUnderlyingDiagnostic())
    d->getMetadata().push_back(DiagnosticArgument(StringRef(kUserFacing)));
  return diag;
}

bool isUserFacing(const Diagnostic &diag) {
  for (const DiagnosticArgument &arg : const_cast<Diagnostic &>(diag).getMetadata())
    if (arg.getKind() == DiagnosticArgument::DiagnosticArgumentKind::String && arg.getAsString() == kUserFacing)
      return true;
  return false;
}

Location userLocation(Operation *op) {
  SmallVector<Operation *> queue{op};
  llvm::SmallPtrSet<Operation *, 8> seen{op};
  for (size_t i = 0; i < queue.size(); ++i) { // nearest users first
    if (queue[i]->getLoc()->findInstanceOf<FileLineColLoc>())
      return queue[i]->getLoc();
    for (Operation *user : queue[i]->getUsers())
      if (seen.insert(user).second)
        queue.push_back(user);
  }
  return op->getLoc();
}

InternalErrors::InternalErrors(MLIRContext &ctx, std::string phase) : ctx(ctx), phase(std::move(phase)) {
  handler = ctx.getDiagEngine().registerHandler([this](Diagnostic &d) -> LogicalResult {
    if (reporting || d.getSeverity() != DiagnosticSeverity::Error || isUserFacing(d))
      return failure(); // on to the next handler
    Held h{d.getLocation(), d.str(), {}, this->phase};
    if (runningPass)
      h.phase = "pass " + runningPass->getArgument().str() + " of " + h.phase;
    for (const Diagnostic &note : d.getNotes())
      h.notes.emplace_back(note.getLocation(), note.str());
    held.push_back(std::move(h));
    return success();
  });
}

InternalErrors::~InternalErrors() {
  (void)report();
  ctx.getDiagEngine().eraseHandler(handler);
}

void InternalErrors::setKernels(ModuleOp module) {
  kernels.clear();
  for (auto f : module.getOps<func::FuncOp>())
    kernels.emplace_back(f.getName().str(), f.getLoc());
}

void InternalErrors::instrument(PassManager &pm) { pm.addInstrumentation(std::make_unique<RunningPass>()); }

std::string InternalErrors::kernelAt(Location loc) const {
  // The kernel defined last before the location, in the same file.
  auto at = loc->findInstanceOf<FileLineColLoc>();
  const std::string *best = nullptr;
  unsigned bestLine = 0;
  for (const auto &[name, kernelLoc] : kernels) {
    auto def = Location(kernelLoc)->findInstanceOf<FileLineColLoc>();
    if (at && def && def.getFilename() == at.getFilename() && def.getLine() <= at.getLine() &&
        (!best || def.getLine() >= bestLine)) {
      best = &name;
      bestLine = def.getLine();
    }
  }
  if (best)
    return "kernel '" + *best + "'";
  if (kernels.size() == 1)
    return "kernel '" + kernels.front().first + "'";
  return "the file's kernels";
}

LogicalResult InternalErrors::report() {
  if (held.empty())
    return success();
  reporting = true;
  for (const Held &h : held) {
    InFlightDiagnostic diag = emitError(h.loc) << "internal compiler error: " << h.message;
    for (const auto &[loc, text] : h.notes)
      diag.attachNote(loc) << text;
    diag.attachNote(h.loc) << "while compiling " << kernelAt(h.loc) << ", in " << h.phase
                           << ". This is a bug in blk, not in the kernel: please report it with the kernel's source "
                              "and the command line (or the JIT's bindings) that compiled it";
  }
  held.clear();
  reporting = false;
  return failure();
}

} // namespace blk
