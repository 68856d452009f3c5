#ifndef BLK_DIALECT_BLK_TRANSFORMS_PASSES_H
#define BLK_DIALECT_BLK_TRANSFORMS_PASSES_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace blk {
#define GEN_PASS_DECL
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "blk/Dialect/Blk/Transforms/Passes.h.inc"
} // namespace blk

#endif
