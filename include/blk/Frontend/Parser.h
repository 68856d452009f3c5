// Recursive-descent parser for .blk files. Errors go to the MLIR diagnostic
// engine as `file:line:col: error: ...`.
#ifndef BLK_FRONTEND_PARSER_H
#define BLK_FRONTEND_PARSER_H

#include "blk/Frontend/AST.h"
#include "mlir/IR/MLIRContext.h"

namespace blk {

/// Parses `source` (named `filename` in diagnostics); null after an error.
std::unique_ptr<ast::File> parseFile(mlir::MLIRContext &ctx, llvm::StringRef source, llvm::StringRef filename);

/// The path and contents of every file `source` (named `filename`) imports,
/// directly or through other imports, in a fixed order: what a compiled
/// kernel depends on besides its source (the JIT's cache keys hold them).
/// Files that cannot be read are left out (parsing reports them).
std::vector<std::string> importedSources(llvm::StringRef source, llvm::StringRef filename);

/// The MLIR location of an AST location.
mlir::Location toMLIR(mlir::MLIRContext &ctx, const ast::Loc &loc);

} // namespace blk

#endif
