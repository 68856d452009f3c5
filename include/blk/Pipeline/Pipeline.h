// The one compilation pipeline, in two halves, registered once for blk-opt
// and built the same way by blkc and the JIT.
#ifndef BLK_PIPELINE_PIPELINE_H
#define BLK_PIPELINE_PIPELINE_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace blk {

struct PipelineOptions : mlir::PassPipelineOptions<PipelineOptions> {
  Option<unsigned> numWarps{*this, "num-warps", llvm::cl::desc("Warps per program"), llvm::cl::init(4)};
  Option<unsigned> numStages{*this, "num-stages",
                             llvm::cl::desc("Loads in flight per loop load (1: no pipelining)"), llvm::cl::init(1)};
  Option<bool> releaseSlots{*this, "release-slots",
                            llvm::cl::desc("Release TMA ring slots on empty mbarriers instead of barriers"),
                            llvm::cl::init(false)};
  Option<bool> pingPong{*this, "ping-pong",
                        llvm::cl::desc("With release-slots: warpgroups take turns issuing a loop's wgmma"),
                        llvm::cl::init(false)};
  Option<bool> warpSpecialize{*this, "warp-specialize",
                              llvm::cl::desc("Every loop that can: its TMA copies issued by a producer warpgroup"),
                              llvm::cl::init(false)};
  Option<std::string> arch{*this, "arch", llvm::cl::desc("Target (sm_80 ... sm_90a): its shared-memory limit"),
                           llvm::cl::init("sm_90a")};
};

/// blk dialect (as the frontend makes it) to blk with layouts and vector widths.
void buildBlkToGPUPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
/// blk with layouts to the LLVM and NVVM dialects.
void buildGPUToLLVMPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);
/// Both halves.
void buildBlkToLLVMPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// The compute capability of `arch`: 90 for sm_90a, 80 for sm_80.
unsigned computeCapability(llvm::StringRef arch);

/// Bytes of shared memory one program may use on `arch` (opt-in maximum).
int64_t sharedMemoryLimit(llvm::StringRef arch);

/// Registers the passes and the pipelines `blk-to-gpu`, `blk-gpu-to-llvm`, `blk-to-llvm`.
void registerBlkPassesAndPipelines();

} // namespace blk

#endif
