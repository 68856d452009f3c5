// The CUDA driver API, loaded from libcuda.so.1 at first use, so that
// programs built on the runtime start (and report "no GPU") on machines
// without a driver, and link against nothing but libc.
#ifndef BLK_RUNTIME_DRIVER_H
#define BLK_RUNTIME_DRIVER_H

#include <cuda.h>
#include <string>

namespace blk::rt {

// The functions the runtime, its tests and benchmarks call. cuda.h maps some
// names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2); the table follows.
#define BLK_DRIVER_FUNCTIONS(X)                                                                              \
  X(cuInit) X(cuDeviceGet) X(cuDeviceGetCount) X(cuDeviceGetName) X(cuDeviceGetAttribute)                  \
  X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuCtxGetCurrent) X(cuCtxSynchronize) X(cuGetErrorName)  \
  X(cuGetErrorString) X(cuModuleLoadDataEx) X(cuModuleUnload) X(cuModuleGetFunction) X(cuLaunchKernel)      \
  X(cuMemAlloc) X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoDAsync) X(cuMemsetD8Async)         \
  X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime)            \
  X(cuFuncSetAttribute) X(cuFuncGetAttribute) X(cuTensorMapEncodeTiled)

struct DriverApi {
#define BLK_DRIVER_MEMBER(name) decltype(&::name) name = nullptr;
  BLK_DRIVER_FUNCTIONS(BLK_DRIVER_MEMBER)
#undef BLK_DRIVER_MEMBER
};

/// The loaded driver, or null (and `error` says why) when it cannot be loaded.
const DriverApi *driver(std::string *error = nullptr);

} // namespace blk::rt

#endif
