// Internal to the frontend: where `from MODULE import NAME` finds MODULE.
#ifndef BLK_LIB_FRONTEND_IMPORTS_H
#define BLK_LIB_FRONTEND_IMPORTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace blk {

/// The file `from <dots><parts> import ...` names in a file at `importer`:
/// `helpers` is helpers.blk next to it, `lib.math` lib/math.blk, and each
/// leading dot after the first one directory up (Python's relative imports).
std::string importPath(llvm::StringRef importer, unsigned dots, llvm::ArrayRef<std::string> parts);

/// `path` with links and dots resolved (as it is when it does not exist):
/// the same file reached two ways has one name.
std::string realPath(llvm::StringRef path);

} // namespace blk

#endif
