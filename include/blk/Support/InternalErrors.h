// Errors that are the compiler's fault, told apart from the user's.
//
// An error emitted after the frontend (by the verifier, a pass or a lowering)
// is a compiler bug unless the code that emits it marks it as the user's: a
// kernel too large for the target, a feature the target lacks, a tool missing
// from the installation. InternalErrors holds back the unmarked ones while a
// phase runs and reports them afterwards as `internal compiler error: ...`
// at their location, naming the kernel and the phase and saying how to report
// them, so that no op or pass name reads as the user's mistake.
#ifndef BLK_SUPPORT_INTERNALERRORS_H
#define BLK_SUPPORT_INTERNALERRORS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include <string>
#include <vector>

namespace mlir {
class PassManager;
} // namespace mlir

namespace blk {

/// Marks `diag` as the user's (or the installation's), not the compiler's.
mlir::InFlightDiagnostic &userFacing(mlir::InFlightDiagnostic &diag);
inline mlir::InFlightDiagnostic &&userFacing(mlir::InFlightDiagnostic &&diag) {
  userFacing(diag);
  return std::move(diag);
}
bool isUserFacing(const mlir::Diagnostic &diag);

/// Where to tell the user about `op`: its location, or, for an op the folder
/// made without one (a constant hoisted out of a loop), that of its nearest
/// user, through users of users, that has a file location.
mlir::Location userLocation(mlir::Operation *op);

class InternalErrors {
public:
  /// Starts holding back unmarked errors of `ctx`; `phase` says what runs
  /// ("checking the frontend's IR", "the blk passes", ...).
  InternalErrors(mlir::MLIRContext &ctx, std::string phase);
  ~InternalErrors();
  InternalErrors(const InternalErrors &) = delete;
  InternalErrors &operator=(const InternalErrors &) = delete;

  void setPhase(std::string phase) { this->phase = std::move(phase); }
  /// The kernels being compiled: an internal error names the one whose
  /// definition precedes its location.
  void setKernels(mlir::ModuleOp module);
  /// Names the pass that failed in the phase's report.
  void instrument(mlir::PassManager &pm);

  /// Reports the errors held back so far as internal compiler errors.
  /// Returns failure when there was any.
  mlir::LogicalResult report();

private:
  struct Held {
    mlir::Location loc;
    std::string message;
    std::vector<std::pair<mlir::Location, std::string>> notes;
    std::string phase;
  };
  std::string kernelAt(mlir::Location loc) const;

  mlir::MLIRContext &ctx;
  std::string phase;
  std::vector<std::pair<std::string, mlir::Location>> kernels;
  std::vector<Held> held;
  mlir::DiagnosticEngine::HandlerID handler;
  bool reporting = false;
};

} // namespace blk

#endif
