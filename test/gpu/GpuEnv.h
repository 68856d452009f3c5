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
  explicit DeviceBuffer(const ref::Buffer &host) : DeviceBuffer(host.data) {}
  explicit DeviceBuffer(const std::vector<uint8_t> &host);
  ~DeviceBuffer();
  void download(ref::Buffer &host) const { download(host.data); }
  void download(std::vector<uint8_t> &host) const;
};

/// True when BLK_REQUIRE_GPU=1: the device gate (scripts/device-gate.sh),
/// where a test that cannot reach the GPU must fail, not skip.
bool gpuRequired();

} // namespace blk::gpu

#define BLK_REQUIRE_GPU()                                                                                    \
  do {                                                                                                       \
    if (!::blk::gpu::unavailableReason().empty()) {                                                          \
      if (::blk::gpu::gpuRequired())                                                                         \
        FAIL() << "no GPU (BLK_REQUIRE_GPU=1): " << ::blk::gpu::unavailableReason();                        \
      GTEST_SKIP() << "no GPU: " << ::blk::gpu::unavailableReason();                                        \
    }                                                                                                        \
  } while (0)

#endif
