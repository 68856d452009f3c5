// A KernelRunner on the JIT: compiles kernels/<file>.blk from `kernelDir`
// once per variant and kernel, and launches on the Jit's backend (the GPU or
// the CPU interpreter) with the Jit's memory.
#ifndef BLK_OPS_JITKERNELRUNNER_H
#define BLK_OPS_JITKERNELRUNNER_H

#include "blk/Ops/KernelRunner.h"

struct blk_jit;

namespace blk::ops {

/// `jit` must outlive the runner.
std::unique_ptr<KernelRunner> makeJitRunner(Jit &jit, const std::string &kernelDir);

/// The Jit behind a C API handle (blk_c.h), for the operators' C API.
Jit &jitOfHandle(blk_jit *handle);

} // namespace blk::ops

#endif
