// Turns a parsed .blk file into the blk dialect: one func.func per kernel,
// constexpr and dtype parameters bound, helpers inlined.
#ifndef BLK_FRONTEND_MLIRGEN_H
#define BLK_FRONTEND_MLIRGEN_H

#include "blk/Frontend/AST.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include <map>

namespace blk {

struct GenOptions {
  /// Values for constexpr and dtype parameters by name (`-D NAME=VALUE`):
  /// integers, floats, True/False, or a type name such as bf16.
  std::map<std::string, std::string> defines;
  /// The caller's specialization by parameter name: divisibility of an
  /// integer, or alignment in bytes of a pointer (16).
  std::map<std::string, int64_t> divisibility;
  /// Integer parameters the caller specializes as equal to 1 (folded away).
  std::vector<std::string> equalsOne;
  /// Treat every pointer parameter as 16-byte aligned (Triton's common case).
  bool alignAllPointers = false;
  /// Kernels to generate; all `@kernel` functions when empty.
  std::vector<std::string> kernels;
  /// For tests of internal-error reporting: generate IR the verifier rejects.
  bool injectInvalidIR = false;
  /// Print static_print's text to standard error. Off for a generation that
  /// only inspects the kernel (the JIT's unspecialized probe of its
  /// parameters), so that it prints once per compilation.
  bool staticPrint = true;
  /// The target's compute capability (90 for sm_90a), which target_info's
  /// cuda_capability_geq compares with.
  unsigned computeCapability = 90;
};

/// Adds the tools' `-D NAME=VALUE` and `--spec NAME=16|1` arguments to `gen`;
/// returns what is wrong with the first malformed one, or nothing.
std::string addCommandLineBindings(GenOptions &gen, const std::vector<std::string> &defines,
                                   const std::vector<std::string> &specs);

/// Null after an error (already reported through the diagnostic engine).
mlir::OwningOpRef<mlir::ModuleOp> generateModule(mlir::MLIRContext &ctx, const ast::File &file,
                                                 const GenOptions &options);

/// The compile-time parameters `kernel` was generated with, as NAME=VALUE
/// texts ("BLOCK" -> "1024", "T" -> "bf16", a bool -> "True").
std::vector<std::pair<std::string, std::string>> boundConstants(mlir::func::FuncOp kernel);

/// Registers every dialect the frontend and the pipeline use.
void registerBlkDialects(mlir::DialectRegistry &registry);

} // namespace blk

#endif
