// An LLVM IR pass run at the end of blk's O3 pipeline: constants of index
// arithmetic moved out from under shifts and multiplies, for the backend to
// fold into addresses.
#ifndef BLK_TARGET_DISTRIBUTECONSTANTOFFSETS_H
#define BLK_TARGET_DISTRIBUTECONSTANTOFFSETS_H

#include "llvm/IR/PassManager.h"

namespace blk {

struct DistributeConstantOffsetsPass : llvm::PassInfoMixin<DistributeConstantOffsetsPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};

} // namespace blk

#endif
