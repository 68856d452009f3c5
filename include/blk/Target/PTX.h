// LLVM IR, PTX and cubin from a module in the LLVM and NVVM dialects.
#ifndef BLK_TARGET_PTX_H
#define BLK_TARGET_PTX_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>

namespace blk {

struct TargetOptions {
  std::string arch = "sm_90a";  // sm_80, sm_89, sm_90, sm_90a
  std::string libdevice;        // libdevice.10.bc; empty: the configured default
  std::string ptxas;            // ptxas; empty: the configured default
};

/// The ptxas `options` name, or the configured default.
std::string ptxasPath(const TargetOptions &options);

/// Checks that `arch` is one blk targets.
bool isSupportedArch(llvm::StringRef arch);

/// LLVM IR (optimized at O3, libdevice linked where used) as text.
mlir::FailureOr<std::string> emitLLVMIR(mlir::ModuleOp module, const TargetOptions &options);
/// PTX assembly. `phaseDone`, when given, is called with "llvm" once the LLVM
/// IR is optimized and "ptx" once the assembly is emitted (for timings).
mlir::FailureOr<std::string> emitPTX(mlir::ModuleOp module, const TargetOptions &options,
                                     llvm::function_ref<void(const char *)> phaseDone = {});

struct CubinResult {
  std::string cubin;
  std::string log; // ptxas -v output
  /// Per kernel: registers, shared memory bytes, spill bytes, from ptxas -v.
  struct KernelInfo {
    std::string name;
    int registers = 0, sharedBytes = 0, spillStores = 0;
  };
  std::vector<KernelInfo> kernels;
};
/// Runs ptxas on `ptx`; errors are reported at `loc`.
mlir::FailureOr<CubinResult> assemblePTX(llvm::StringRef ptx, const TargetOptions &options, mlir::Location loc);

} // namespace blk

#endif
