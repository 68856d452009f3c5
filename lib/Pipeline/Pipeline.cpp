#include "blk/Pipeline/Pipeline.h"

#include "blk/Conversion/Passes.h"
#include "blk/Dialect/Blk/Transforms/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace blk {

unsigned computeCapability(llvm::StringRef arch) {
  unsigned cc = 0;
  arch.consume_front("sm_");
  arch.take_while([](char c) { return llvm::isDigit(c); }).getAsInteger(10, cc);
  return cc;
}

/// The canonicalizer without RemoveDuplicateSuccessorInputUses (MLIR 22),
/// quadratic in a loop's iter args: a lowered matmul loop carries 200+
/// registers, and that one pattern took 0.6 s of a 1 s compile.
static std::unique_ptr<mlir::Pass> createCanonicalizer() {
  return mlir::createCanonicalizerPass(mlir::GreedyRewriteConfig(),
                                       {"(anonymous namespace)::RemoveDuplicateSuccessorInputUses"});
}

void buildBlkToGPUPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  bool sm90a = options.arch == "sm_90a";
  // Drops what the frontend leaves for the passes to look past, such as a
  // loop-carried variable the loop overwrites before reading it and no one
  // reads after (a load yielded that way would look read by the yield).
  pm.addPass(createCanonicalizer());
  pm.addPass(createBlkWhileToForPass()); // counted while loops pipeline as range loops
  pm.addPass(createBlkAccelerateDotPass(
      BlkAccelerateDotPassOptions{computeCapability(options.arch), options.numWarps, sm90a}));
  // TMA for the tutorial form's operand loads too; then descriptors not copied by TMA
  // become pointer accesses, before the load pipeliner and vectorizer see them.
  bool tma = sm90a && options.numStages > 1;
  if (tma)
    pm.addPass(createBlkLoadsToTensorDescriptorsPass());
  pm.addPass(createBlkLowerTensorDescriptorsPass(BlkLowerTensorDescriptorsPassOptions{tma}));
  pm.addPass(createBlkPipelineLoadsPass(
      BlkPipelineLoadsPassOptions{options.numStages, options.numWarps, sharedMemoryLimit(options.arch)}));
  pm.addPass(createCanonicalizer());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createBlkVectorizeMemoryPass());
  pm.addPass(createBlkAssignLayoutsPass(BlkAssignLayoutsPassOptions{options.numWarps}));
  pm.addPass(createBlkCoalescePass());
  pm.addPass(createBlkRemoveLayoutConversionsPass());
  pm.addPass(mlir::createCSEPass()); // recomputed pointers and masks shared by several accesses
  pm.addPass(createBlkTmaStoresPass());
  pm.addPass(createBlkPipelineDotPass(BlkPipelineDotPassOptions{options.numStages, sharedMemoryLimit(options.arch),
                                                                options.releaseSlots, options.pingPong,
                                                                options.warpSpecialize}));
  pm.addPass(mlir::createCSEPass()); // and drops the loads' old masks
  pm.addPass(createBlkSinkPastReductionsPass());
  pm.addPass(createBlkCheckRegistersPass());
  pm.addPass(createBlkAllocateSharedMemoryPass(BlkAllocateSharedMemoryPassOptions{sharedMemoryLimit(options.arch)}));
  pm.addPass(createBlkProgramsPerSMPass(BlkProgramsPerSMPassOptions{sharedMemoryLimit(options.arch)}));
  pm.addPass(createBlkInsertBarriersPass());
}

int64_t sharedMemoryLimit(llvm::StringRef arch) {
  if (arch.starts_with("sm_90"))
    return 227 * 1024;
  if (arch == "sm_80" || arch == "sm_87")
    return 163 * 1024;
  return 99 * 1024; // sm_86, sm_89
}

void buildGPUToLLVMPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  pm.addPass(createConvertBlkToLLVMPass(ConvertBlkToLLVMPassOptions{computeCapability(options.arch)}));
  pm.addPass(createCanonicalizer());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(createBlkLowerToNVVMPass());
  pm.addPass(mlir::createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizer());
  pm.addPass(mlir::createCSEPass());
}

void buildBlkToLLVMPipeline(mlir::OpPassManager &pm, const PipelineOptions &options) {
  buildBlkToGPUPipeline(pm, options);
  buildGPUToLLVMPipeline(pm, options);
}

void registerBlkPassesAndPipelines() {
  registerBlkPasses();
  registerBlkConversionPasses();
  mlir::PassPipelineRegistration<PipelineOptions>(
      "blk-to-gpu", "Assign vector widths and layouts (blk as the frontend makes it to blk with layouts)",
      buildBlkToGPUPipeline);
  mlir::PassPipelineRegistration<PipelineOptions>("blk-gpu-to-llvm", "Lower blk with layouts to LLVM and NVVM",
                                                  buildGPUToLLVMPipeline);
  mlir::PassPipelineRegistration<PipelineOptions>("blk-to-llvm", "The whole pipeline: blk to LLVM and NVVM",
                                                  buildBlkToLLVMPipeline);
}

} // namespace blk
