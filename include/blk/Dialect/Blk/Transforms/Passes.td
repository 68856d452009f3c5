#ifndef BLK_TRANSFORMS_PASSES_TD
#define BLK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BlkVectorizeMemoryPass : Pass<"blk-vectorize-memory", "mlir::ModuleOp"> {
  let summary = "Set the widest safe vector width on every global load and store";
  let description = [{
    Runs AxisInfo over each kernel and records on every `blk.load` and
    `blk.store` the widest access (`vec`, in elements, at most 16 bytes) whose
    addresses are contiguous, aligned to the access size and covered by one
    mask value. Alignment of arguments comes only from `blk.divisibility`
    argument attributes, which the caller's specialization sets.
  }];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkAssignLayoutsPass : Pass<"blk-assign-layouts", "mlir::ModuleOp"> {
  let summary = "Give every block type a blocked layout over the program's threads";
  let description = [{
    Tiles each block shape over `num-warps` warps of 32 lanes. A thread holds
    as many consecutive elements as the widest vector access on blocks of that
    shape (so that one thread's chunk is one 16-byte access), and the tiling
    repeats when the block is larger than one tile. The module records
    `blk.num_warps`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program (a power of two from 1 to 32)">,
  ];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkTestPrintAxisInfoPass : Pass<"blk-test-print-axis-info", "mlir::ModuleOp"> {
  let summary = "Print AxisInfo of every integer and pointer value as remarks (for tests)";
}

#endif
