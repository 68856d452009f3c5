// Where the library's operators (FusedLinearCrossEntropy.h) run their
// kernels: a KernelRunner launches a kernel of kernels/ in one compiled
// variant and owns that device's memory. Two runners: precompiled PTX
// (makePtxRunner, the runtime only: what a GPU machine without LLVM runs)
// and the JIT on the GPU or the CPU interpreter (JitKernelRunner.h).
#ifndef BLK_OPS_KERNELRUNNER_H
#define BLK_OPS_KERNELRUNNER_H

#include "blk/blk.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace blk::ops {

/// A compiled variant of a kernel file: the file's stem and its bindings in
/// the order of its `# variants:` entry (num_warps and num_stages included).
struct Variant {
  std::string file;
  std::vector<std::pair<std::string, std::string>> bindings;
  /// The PTX file's name as scripts/kernel-variants.sh gives it, without
  /// ".ptx": "fused_linear_cross_entropy.bf16.32.32.16.64".
  std::string name() const;
};

class KernelRunner {
public:
  virtual ~KernelRunner() = default;
  virtual Status launch(const Variant &variant, const std::string &kernel, Grid grid,
                        const std::vector<KernelArg> &args, void *stream) = 0;
  /// Memory the kernels read and write (device memory, or the interpreter's host memory).
  virtual Status alloc(size_t bytes, void **out) = 0;
  virtual Status free(void *ptr) = 0;
  virtual Status upload(void *dst, const void *src, size_t bytes) = 0;
  /// Waits for every kernel launched so far, then copies.
  virtual Status download(void *dst, const void *src, size_t bytes) = 0;
  /// The programs a persistent kernel launches: one per SM of the device
  /// the runtime initialized, or 0 where there is none (the operators then
  /// launch a program per tile).
  virtual int64_t persistentPrograms();
};

/// Launches the PTX that scripts/build-ptx.sh writes into `ptxDir`: for each
/// variant, `<name>.spec.ptx` when the arguments meet its specialization,
/// else `<name>.ptx`. Initializes the CUDA driver (device 0).
Status makePtxRunner(const std::string &ptxDir, std::unique_ptr<KernelRunner> &out);

} // namespace blk::ops

#endif
