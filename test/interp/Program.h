// Interpreter test helpers: a source compiled to blk IR with its
// diagnostics collected, and the kernels of kernels/ and test/kernels/.
#ifndef BLK_TEST_INTERP_PROGRAM_H
#define BLK_TEST_INTERP_PROGRAM_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Frontend/MLIRGen.h"
#include "blk/Frontend/Parser.h"
#include "blk/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace blk {

/// A compiled source and the diagnostics its runs produced.
struct Program {
  mlir::MLIRContext ctx;
  std::unique_ptr<ast::File> file;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> handler;

  Program(const std::string &source, std::map<std::string, std::string> defines = {},
          const std::string &name = "test.blk")
      : Program(source, [&] {
          GenOptions options;
          options.defines = std::move(defines);
          return options;
        }(), name) {}
  Program(const std::string &source, GenOptions options, const std::string &name) {
    handler = std::make_unique<mlir::ScopedDiagnosticHandler>(&ctx, [this](mlir::Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return mlir::success();
    });
    file = parseFile(ctx, source, name);
    if (!file)
      return;
    module = generateModule(ctx, *file, options);
  }
  int64_t block(llvm::StringRef kernel) {
    auto f = module->lookupSymbol<mlir::func::FuncOp>(kernel);
    auto c = f->getAttrOfType<mlir::DictionaryAttr>(kConstantsAttr);
    return llvm::cast<mlir::IntegerAttr>(c.get("BLOCK")).getInt();
  }
};

/// The path of kernels/<file>.blk, or of test/kernels/<file>.blk (kernels
/// only the tests use); empty when neither exists.
inline std::string kernelPath(const std::string &file) {
  for (const char *dir : {"/kernels/", "/test/kernels/"}) {
    std::string path = std::string(BLK_SOURCE_DIR) + dir + file + ".blk";
    if (llvm::sys::fs::exists(path))
      return path;
  }
  return std::string();
}

/// The source of kernelPath(file).
inline std::string readKernel(const std::string &file) {
  std::string path = kernelPath(file);
  if (auto buf = llvm::MemoryBuffer::getFile(path); buf && !path.empty())
    return (*buf)->getBuffer().str();
  return std::string();
}

} // namespace blk

#endif
