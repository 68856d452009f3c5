// The blk passes for the interpreter: the pipeline and the option checks
// that blkc uses, so that the IR run is the IR `blkc --emit=gpu` prints.
#include "blk/Interpreter/AfterPasses.h"

#include "blk/Compiler/Compiler.h"
#include "blk/Pipeline/Pipeline.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace blk::interp {

std::string invalidTarget(const PassTarget &target) {
  CompileOptions options;
  options.target.arch = target.arch;
  options.numWarps = target.numWarps;
  options.numStages = target.numStages;
  return invalidOptions(options);
}

LogicalResult runBlkPasses(ModuleOp module, const PassTarget &target) {
  MLIRContext &ctx = *module.getContext();
  if (std::string why = invalidTarget(target); !why.empty())
    return emitError(module.getLoc()) << why;
  PipelineOptions options;
  options.arch = target.arch;
  options.numWarps = target.numWarps;
  options.numStages = target.numStages;
  options.warpSpecialize = target.warpSpecialize;
  // As blkc: an error a pass reported without failing fails the compile too.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(&ctx, [&](Diagnostic &d) {
    errors += d.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // on to the caller's handler
  });
  PassManager pm(&ctx);
  buildBlkToGPUPipeline(pm, options);
  if (failed(pm.run(module)) || errors)
    return failure();
  return success();
}

} // namespace blk::interp
