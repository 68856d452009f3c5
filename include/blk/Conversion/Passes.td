#ifndef BLK_CONVERSION_PASSES_TD
#define BLK_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertBlkToLLVMPass : Pass<"convert-blk-to-llvm", "mlir::ModuleOp"> {
  let summary = "Distribute blocks over threads: blk ops to LLVM/NVVM, blocks to per-thread scalars";
  let description = [{
    Every block value becomes the scalars one thread holds under its layout
    (a 1:N type conversion); elementwise `arith`/`math` ops on blocks become
    the same ops on each scalar; `scf` ops carry the scalars. Global loads and
    stores become predicated `ld.global`/`st.global` of the width the op's
    `vec` and the layout allow; atomics become predicated `atom.global`
    issued once per element. Needs layouts (`blk-assign-layouts`).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
                           "mlir::gpu::GPUDialect", "mlir::arith::ArithDialect"];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", /*default=*/"90",
           "Target compute capability times ten (80 for sm_80): decides which atomics exist">,
    Option<"scanLaneBits", "scan-lane-bits", "unsigned", /*default=*/"3",
           "Consecutive lane bits along a scan's axis from which the scan over them runs by shfl.up "
           "steps (one running value) instead of xor butterflies (a prefix and a total per step); "
           "0: butterflies always">
  ];
}

def BlkLowerToNVVMPass : Pass<"blk-lower-to-nvvm", "mlir::ModuleOp"> {
  let summary = "Lower the scalar remainder (func, arith, math, scf, cf) to LLVM and NVVM";
  let description = [{
    Kernels become `llvm.func`s marked `nvvm.kernel` with `nvvm.maxntid` from
    the module's `blk.num_warps`; math functions become libdevice calls
    (`__nv_*`) except the fast paths (`ex2.approx` for exp and exp2).
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::NVVM::NVVMDialect",
                           "mlir::cf::ControlFlowDialect"];
}

#endif
