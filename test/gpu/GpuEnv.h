// GPU test helpers on the blk runtime: device buffers, loading bundled PTX,
// skipping when there is no GPU.
#ifndef BLK_TEST_GPU_GPUENV_H
#define BLK_TEST_GPU_GPUENV_H

#include "../common/Reference.h"
#include "blk/Runtime/Runtime.h"

#include <gtest/gtest.h>
#include <memory>

namespace blk::gpu {

/// Empty when a GPU is usable, else why not.
const std::string &unavailableReason();
const std::string &lastError();
/// Directory of the PTX files (BLK_PTX_DIR, else the build's ptx/).
std::string ptxDir();

struct LoadedKernel {
  std::shared_ptr<rt::Module> module;
  rt::Kernel kernel;
};
bool load(const std::string &ptxFile, const std::string &kernel, LoadedKernel &out);
bool synchronize();

/// The launch argument for a size parameter, typed as the signature says.
rt::Arg sizeArg(const rt::Kernel &k, unsigned index, int64_t n);

struct DeviceBuffer {
  uint64_t ptr = 0;
  size_t bytes = 0;
  explicit DeviceBuffer(const ref::Buffer &host);
  ~DeviceBuffer();
  void download(ref::Buffer &host) const;
};

} // namespace blk::gpu

#define BLK_REQUIRE_GPU()                                                                                    \
  do {                                                                                                       \
    if (!::blk::gpu::unavailableReason().empty())                                                            \
      GTEST_SKIP() << "no GPU: " << ::blk::gpu::unavailableReason();                                        \
  } while (0)

#endif
