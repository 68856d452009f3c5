#ifndef BLK_CONVERSION_PASSES_H
#define BLK_CONVERSION_PASSES_H

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace blk {
#define GEN_PASS_DECL
#include "blk/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "blk/Conversion/Passes.h.inc"
} // namespace blk

#endif
