#include "OpsCHandle.h"
#include "blk/Ops/JitKernelRunner.h"
#include "blk/blk_c.h"

#include <cstring>

extern "C" int blk_jit_ops_runner(blk_jit *jit, const char *kernel_dir, blk_ops_runner **out, char *error,
                                  size_t error_size) {
  if (!jit || !kernel_dir || !out) {
    if (error && error_size) {
      std::strncpy(error, "blk_jit_ops_runner: null argument", error_size - 1);
      error[error_size - 1] = '\0';
    }
    return -1;
  }
  auto r = std::make_unique<blk_ops_runner>();
  r->runner = blk::ops::makeJitRunner(blk::ops::jitOfHandle(jit), kernel_dir);
  *out = r.release();
  return 0;
}
