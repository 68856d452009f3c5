#include "blk/Runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include "blk/Runtime/Driver.h"
#include "blk/Support/OccupancyRequests.h"
#include "TensorMaps.h"
#include <fstream>
#include <sstream>

namespace blk::rt {

namespace {
const char *kTypeNames[] = {"ptr", "i1", "i8", "i16", "i32", "i64", "u32", "u64", "f16", "bf16", "f32", "f64"};
} // namespace

const char *toString(ArgType t) { return kTypeNames[int(t)]; }

bool parseArgType(const std::string &s, ArgType &out) {
  for (int i = 0; i < int(sizeof(kTypeNames) / sizeof(kTypeNames[0])); ++i)
    if (s == kTypeNames[i]) {
      out = ArgType(i);
      return true;
    }
  return false;
}

Arg Arg::f32(float v) {
  Arg a{ArgType::F32};
  std::memcpy(&a.bits, &v, sizeof v);
  return a;
}
Arg Arg::f64(double v) {
  Arg a{ArgType::F64};
  std::memcpy(&a.bits, &v, sizeof v);
  return a;
}

namespace {
/// The driver; only called after initDevice() or a module load succeeded.
const DriverApi *drv() { return driver(); }
} // namespace

std::string driverError(int code) {
  if (!drv())
    return "CUDA driver not loaded";
  const char *name = nullptr, *text = nullptr;
  drv()->cuGetErrorName(CUresult(code), &name);
  drv()->cuGetErrorString(CUresult(code), &text);
  return std::string(name ? name : "CUDA_ERROR_UNKNOWN") + ": " + (text ? text : "unknown error");
}

#define BLK_CU(call, what)                                                                                   \
  do {                                                                                                       \
    CUresult r_ = (call);                                                                                    \
    if (r_ != CUDA_SUCCESS)                                                                                  \
      return Status::error(std::string(what) + " failed: " + driverError(r_));                              \
  } while (0)

namespace {
std::atomic<CUcontext> primaryContext{nullptr};
std::atomic<int> multiprocessors{0};
} // namespace

Status initDevice(int ordinal) {
  std::string why;
  if (!driver(&why))
    return Status::error(why);
  BLK_CU(drv()->cuInit(0), "cuInit");
  CUdevice dev;
  BLK_CU(drv()->cuDeviceGet(&dev, ordinal), "cuDeviceGet");
  CUcontext ctx;
  BLK_CU(drv()->cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  BLK_CU(drv()->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  int sms = 0;
  BLK_CU(drv()->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev), "cuDeviceGetAttribute");
  multiprocessors.store(sms);
  primaryContext.store(ctx);
  return {};
}

Status multiprocessorCount(int &out) {
  if (!primaryContext.load())
    return Status::error("multiprocessorCount: no device initialized");
  out = multiprocessors.load();
  return {};
}

Status ensureContext() {
  CUcontext primary = primaryContext.load();
  if (!primary || !drv())
    return {};
  CUcontext current = nullptr;
  if (drv()->cuCtxGetCurrent(&current) == CUDA_SUCCESS && current)
    return {};
  BLK_CU(drv()->cuCtxSetCurrent(primary), "cuCtxSetCurrent");
  return {};
}

Status deviceAlloc(size_t bytes, void **out) {
  if (Status s = ensureContext(); !s.ok())
    return s;
  CUdeviceptr p;
  BLK_CU(drv()->cuMemAlloc(&p, std::max<size_t>(bytes, 1)), "cuMemAlloc of " + std::to_string(bytes) + " bytes");
  *out = reinterpret_cast<void *>(p);
  return {};
}

Status deviceFree(void *ptr) {
  if (Status s = ensureContext(); !s.ok())
    return s;
  BLK_CU(drv()->cuMemFree(CUdeviceptr(uintptr_t(ptr))), "cuMemFree");
  return {};
}

Status copyToDevice(void *dst, const void *src, size_t bytes) {
  if (Status s = ensureContext(); !s.ok())
    return s;
  BLK_CU(drv()->cuMemcpyHtoD(CUdeviceptr(uintptr_t(dst)), src, bytes), "upload");
  return {};
}

Status copyToHost(void *dst, const void *src, size_t bytes) {
  if (Status s = ensureContext(); !s.ok())
    return s;
  BLK_CU(drv()->cuMemcpyDtoH(dst, CUdeviceptr(uintptr_t(src)), bytes), "download");
  return {};
}

Status synchronizeDevice(const std::string &what) {
  if (Status s = ensureContext(); !s.ok())
    return s;
  BLK_CU(drv()->cuCtxSynchronize(), what);
  return {};
}

std::string KernelSignature::constant(const std::string &key, const std::string &fallback) const {
  for (auto &[k, v] : constants)
    if (k == key)
      return v;
  return fallback;
}

namespace {
/// Calls `fn` on each item of a comma-separated list.
template <typename Fn> void forEachItem(const std::string &list, Fn fn) {
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    fn(item);
}
} // namespace

std::vector<KernelSignature> parseSignatures(const std::string &ptx) {
  std::vector<KernelSignature> sigs;
  std::istringstream in(ptx);
  std::string line;
  const std::string tag = "// blk.kernel ";
  while (std::getline(in, line)) {
    if (line.rfind(tag, 0) != 0)
      continue;
    std::istringstream words(line.substr(tag.size()));
    KernelSignature sig;
    words >> sig.name;
    std::string field;
    while (words >> field) {
      if (field.rfind("num_warps=", 0) == 0) {
        sig.numWarps = unsigned(std::stoul(field.substr(10)));
      } else if (field.rfind("producer_warps=", 0) == 0) {
        sig.producerWarps = unsigned(std::stoul(field.substr(15)));
      } else if (field.rfind("shared=", 0) == 0) {
        sig.sharedBytes = unsigned(std::stoul(field.substr(7)));
      } else if (field.rfind("constants=", 0) == 0) {
        forEachItem(field.substr(10), [&](const std::string &item) {
          size_t eq = item.find('=');
          if (eq != std::string::npos)
            sig.constants.emplace_back(item.substr(0, eq), item.substr(eq + 1));
        });
      } else if (field.rfind("spec=", 0) == 0) {
        forEachItem(field.substr(5), [&](const std::string &item) {
          size_t colon = item.find(':');
          if (colon != std::string::npos)
            sig.divisibility.emplace_back(unsigned(std::stoul(item.substr(0, colon))),
                                          unsigned(std::stoul(item.substr(colon + 1))));
        });
      } else if (field.rfind("tma=", 0) == 0) {
        std::istringstream maps(field.substr(4));
        std::string item;
        while (std::getline(maps, item, ';')) {
          TensorMapRecipe recipe;
          if (parseTensorMapRecipe(item, recipe))
            sig.tensorMaps.push_back(std::move(recipe));
          else
            sig.tensorMaps.push_back(TensorMapRecipe{ArgType::F16, ~0u}); // reported at launch
        }
      } else if (field.rfind("args=", 0) == 0) {
        forEachItem(field.substr(5), [&](const std::string &item) {
          ArgType t;
          if (parseArgType(item, t))
            sig.args.push_back(t);
        });
      }
    }
    sigs.push_back(std::move(sig));
  }
  return sigs;
}

namespace {
/// The occupancy requests of `ptx` (empty for a cubin) whose kernels, as
/// loaded in `mod`, use local memory: spills that the request's register cap
/// caused (blk's kernels have no local arrays).
std::vector<OccupancyRequest> spillingRequests(CUmodule mod, const std::string &ptx) {
  std::vector<OccupancyRequest> spilling;
  for (OccupancyRequest &request : occupancyRequests(ptx)) {
    CUfunction fn;
    int local = 0;
    if (drv()->cuModuleGetFunction(&fn, mod, request.entry.c_str()) == CUDA_SUCCESS &&
        drv()->cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn) == CUDA_SUCCESS && local > 0)
      spilling.push_back(std::move(request));
  }
  return spilling;
}
} // namespace

Status Module::load(const std::string &image, std::unique_ptr<Module> &out, std::vector<KernelSignature> signatures) {
  std::string why;
  if (!driver(&why))
    return Status::error(why);
  if (Status s = ensureContext(); !s.ok())
    return s;
  std::unique_ptr<Module> m(new Module());
  bool isPTX = image.find(".target") != std::string::npos && image.find('\0') == std::string::npos;
  std::string text = isPTX ? image : std::string();
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  char log[8192] = {0};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log))};
  CUresult r = drv()->cuModuleLoadDataEx(&m->mod, isPTX ? text.c_str() : image.data(), 2, opts, values);
  if (r != CUDA_SUCCESS)
    return Status::error("loading the module failed: " + driverError(r) + (log[0] ? std::string("\n") + log : ""));
  // A kernel that asks for several programs per SM (blk-programs-per-sm)
  // and spills to fit their registers is compiled again without the request.
  if (std::vector<OccupancyRequest> spilling = spillingRequests(m->mod, isPTX ? text : std::string());
      !spilling.empty()) {
    drv()->cuModuleUnload(m->mod);
    m->mod = nullptr;
    text = withoutRequests(text, spilling);
    r = drv()->cuModuleLoadDataEx(&m->mod, text.c_str(), 2, opts, values);
    if (r != CUDA_SUCCESS)
      return Status::error("loading the module failed: " + driverError(r) + (log[0] ? std::string("\n") + log : ""));
  }
  m->sigs = signatures.empty() && isPTX ? parseSignatures(image) : std::move(signatures);
  out = std::move(m);
  return {};
}

Status Module::loadFile(const std::string &path, std::unique_ptr<Module> &out, std::vector<KernelSignature> signatures) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::error("cannot open " + path);
  std::stringstream buf;
  buf << in.rdbuf();
  return load(buf.str(), out, std::move(signatures));
}

Module::~Module() {
  if (mod && drv())
    drv()->cuModuleUnload(mod);
}

Status Module::kernel(const std::string &name, Kernel &out) const {
  const KernelSignature *sig = nullptr;
  for (auto &s : sigs)
    if (s.name == name)
      sig = &s;
  if (!sig)
    return Status::error("no signature for kernel '" + name + "' (is it a blk kernel of this module?)");
  CUfunction fn;
  CUresult r = drv()->cuModuleGetFunction(&fn, mod, name.c_str());
  if (r != CUDA_SUCCESS)
    return Status::error("kernel '" + name + "' not found in the module: " + driverError(r));
  // Beyond 48 KiB, dynamic shared memory must be opted into per function.
  if (sig->sharedBytes > 48 * 1024) {
    r = drv()->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(sig->sharedBytes));
    if (r != CUDA_SUCCESS)
      return Status::error("kernel '" + name + "' needs " + std::to_string(sig->sharedBytes) +
                           " bytes of shared memory: " + driverError(r));
  }
  out.fn = fn;
  out.sig = *sig;
  return {};
}

Status Kernel::launch(Grid grid, CUstream stream, const Arg *args, size_t count) const {
  if (!fn)
    return Status::error("launch of an unloaded kernel");
  if (count != sig.args.size())
    return Status::error("kernel '" + sig.name + "' takes " + std::to_string(sig.args.size()) + " arguments, got " +
                         std::to_string(count));
  void *params[64];
  if (count > 64)
    return Status::error("too many arguments");
  for (size_t i = 0; i < count; ++i) {
    bool sameWidth = (args[i].type == ArgType::U32 && sig.args[i] == ArgType::I32) ||
                     (args[i].type == ArgType::U64 && sig.args[i] == ArgType::I64);
    if (args[i].type != sig.args[i] && !sameWidth)
      return Status::error("argument " + std::to_string(i) + " of kernel '" + sig.name + "' must be " +
                           toString(sig.args[i]) + ", got " + toString(args[i].type));
    if (args[i].type == ArgType::Ptr && args[i].bits == 0)
      return Status::error("argument " + std::to_string(i) + " of kernel '" + sig.name + "' is a null pointer");
    for (auto [index, div] : sig.divisibility)
      if (index == i && div > 1 && args[i].bits % div != 0)
        return Status::error("argument " + std::to_string(i) + " of kernel '" + sig.name + "' must be " +
                             (args[i].type == ArgType::Ptr ? "aligned to " : "a multiple of ") +
                             std::to_string(div) + " (the kernel was specialized for it)");
    params[i] = const_cast<uint64_t *>(&args[i].bits); // little-endian: low bytes hold narrower values
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0)
    return Status::error("empty grid");
  if (Status s = ensureContext(); !s.ok())
    return s;
  // Hidden parameters: the TMA tensor maps, built from the arguments.
  alignas(64) CUtensorMap maps[8];
  if (sig.tensorMaps.size() > 8 || count + sig.tensorMaps.size() > 64)
    return Status::error("kernel '" + sig.name + "' has too many tensor maps");
  for (size_t m = 0; m < sig.tensorMaps.size(); ++m) {
    const TensorMapRecipe &recipe = sig.tensorMaps[m];
    if (recipe.base >= count || sig.args[recipe.base] != ArgType::Ptr)
      return Status::error("kernel '" + sig.name + "' has a malformed tensor map in its signature");
    if (Status s = encodeTensorMap(sig, recipe, args, count, maps[m]); !s.ok())
      return s;
    params[count + m] = &maps[m];
  }
  CUresult r = drv()->cuLaunchKernel(fn, grid.x, grid.y, grid.z, (sig.numWarps + sig.producerWarps) * 32, 1, 1, sig.sharedBytes, stream, params,
                                     nullptr);
  if (r != CUDA_SUCCESS)
    return Status::error("launch of '" + sig.name + "' failed: " + driverError(r));
  return {};
}

} // namespace blk::rt
