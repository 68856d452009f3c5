// The C API's runner handle (blk_ops.h), shared by the PTX and JIT halves.
#ifndef BLK_LIB_OPS_OPSCHANDLE_H
#define BLK_LIB_OPS_OPSCHANDLE_H

#include "blk/Ops/KernelRunner.h"

struct blk_ops_runner {
  std::unique_ptr<blk::ops::KernelRunner> runner;
};

#endif
