#include "GpuEnv.h"

#include <cstdlib>
#include "blk/Runtime/Driver.h"

namespace blk::gpu {

static std::string &errorText() {
  static std::string e;
  return e;
}
const std::string &lastError() { return errorText(); }

const std::string &unavailableReason() {
  static const std::string reason = [] {
    rt::Status s = rt::initDevice(0);
    return s.ok() ? std::string() : s.message;
  }();
  return reason;
}

bool gpuRequired() {
  const char *v = std::getenv("BLK_REQUIRE_GPU");
  return v && std::string(v) == "1";
}

std::string ptxDir() {
  if (const char *dir = std::getenv("BLK_PTX_DIR"))
    return dir;
  return BLK_DEFAULT_PTX_DIR;
}

bool load(const std::string &ptxFile, const std::string &kernel, LoadedKernel &out) {
  std::unique_ptr<rt::Module> m;
  rt::Status s = rt::Module::loadFile(ptxDir() + "/" + ptxFile, m);
  if (s.ok())
    s = m->kernel(kernel, out.kernel);
  if (!s.ok()) {
    errorText() = s.message;
    return false;
  }
  out.module = std::move(m);
  return true;
}

bool synchronize() {
  CUresult r = rt::driver()->cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    errorText() = "kernel failed: " + rt::driverError(r);
    return false;
  }
  return true;
}

rt::Arg sizeArg(const rt::Kernel &k, unsigned index, int64_t n) {
  return k.signature().args[index] == rt::ArgType::I64 ? rt::Arg::i64(n) : rt::Arg::i32(int32_t(n));
}

DeviceBuffer::DeviceBuffer(const std::vector<uint8_t> &host) : bytes(host.size()) {
  CUdeviceptr p;
  if (rt::driver()->cuMemAlloc(&p, bytes ? bytes : 1) != CUDA_SUCCESS)
    throw std::runtime_error("cuMemAlloc failed");
  ptr = p;
  rt::driver()->cuMemcpyHtoD(p, host.data(), bytes);
}
DeviceBuffer::~DeviceBuffer() { rt::driver()->cuMemFree(CUdeviceptr(ptr)); }
void DeviceBuffer::download(std::vector<uint8_t> &host) const {
  rt::driver()->cuMemcpyDtoH(host.data(), CUdeviceptr(ptr), bytes);
}

} // namespace blk::gpu
