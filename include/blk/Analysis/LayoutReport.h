// What the layout passes decided, for people: each block value's layout at its
// source location, and every data movement between layouts that is left
// (`blkc --emit=layouts`).
#ifndef BLK_ANALYSIS_LAYOUTREPORT_H
#define BLK_ANALYSIS_LAYOUTREPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace blk {

/// Prints, per kernel of `module` (after the blk passes): one line per op
/// that makes a block, with its location, shape, layout and values per
/// thread; then one line per layout move (convert_layout, trans, reshape)
/// and per op with shared-memory scratch, with the path it takes and what it
/// costs (bytes through shared memory per program).
void printLayoutReport(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace blk

#endif
