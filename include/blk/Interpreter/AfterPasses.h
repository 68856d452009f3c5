// The interpreter on the IR the blk passes make (`blkc --emit=gpu`): rings,
// cp.async groups, TMA copies and asynchronous dots, so that a pass that
// waits too little or reuses a slot too early gives a wrong result on the CPU.
#ifndef BLK_INTERPRETER_AFTERPASSES_H
#define BLK_INTERPRETER_AFTERPASSES_H

#include "mlir/IR/BuiltinOps.h"
#include <string>

namespace blk::interp {

/// The target the passes compile for, as blkc's --arch, --num-warps and
/// --num-stages give it.
struct PassTarget {
  std::string arch = "sm_90a";
  unsigned numWarps = 4;
  unsigned numStages = 1;
  bool warpSpecialize = false;
};

/// Why `target` cannot be compiled for (worded for the command line), or "".
std::string invalidTarget(const PassTarget &target);

/// Runs on `module` (as the frontend made it) the blk passes blkc runs for
/// `--emit=gpu`. Errors go to the context's diagnostic handler.
mlir::LogicalResult runBlkPasses(mlir::ModuleOp module, const PassTarget &target);

} // namespace blk::interp

#endif
