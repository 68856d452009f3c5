// Internal to the JIT: the state of a Jit.
#ifndef BLK_LIB_JIT_JITIMPL_H
#define BLK_LIB_JIT_JITIMPL_H

#include "blk/Frontend/MLIRGen.h"
#include "blk/Jit/DiskCache.h"
#include "blk/blk.h"

#include "mlir/IR/MLIRContext.h"
#include <cstdlib>

namespace blk {

struct Jit::Impl {
  Backend backend;
  Status availability;
  mlir::MLIRContext ctx;
  /// CPU backend: the memory kernels may touch.
  std::map<uintptr_t, size_t> hostAllocations;
  /// CPU backend: the caller's memory kernels may touch (registerHostMemory); not freed here.
  std::map<uintptr_t, size_t> hostRegistrations;
  DiskCache cache{DiskCache::defaultDirectory()};
  Jit::CacheStats stats;
  /// Autotuning results by "kernel|device|key values", loaded from tuningFile on first use.
  std::string tuningFile = std::getenv("BLK_TUNING_FILE") ? std::getenv("BLK_TUNING_FILE") : "";
  bool tuningLoaded = false;
  std::map<std::string, TuningConfig> tuning;

  explicit Impl(Backend b) : backend(b) {
    ctx.printOpOnDiagnostic(false);
    mlir::DialectRegistry registry;
    registerBlkDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    if (backend == Backend::CUDA)
      availability = rt::initDevice(0);
  }
};

} // namespace blk

#endif
