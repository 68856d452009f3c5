#include "blk/blk_c.h"
#include "blk/blk.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <algorithm>
#include <cstring>

struct blk_jit {
  blk::Jit jit;
  explicit blk_jit(blk::Backend b) : jit(b) {}
};
struct blk_jit_kernel {
  blk::Kernel kernel;
};

namespace {
int report(const blk::Status &s, char *error, size_t size) {
  if (s.ok())
    return 0;
  if (error && size) {
    std::strncpy(error, s.message.c_str(), size - 1);
    error[size - 1] = '\0';
  }
  return -1;
}

blk::KernelOptions options(const char *constants, const char *arch, unsigned numWarps) {
  blk::KernelOptions o;
  if (constants) {
    llvm::SmallVector<llvm::StringRef> items;
    llvm::StringRef(constants).split(items, ',', -1, false);
    auto isTrue = [](llvm::StringRef v) { return v == "1" || v == "True" || v == "true"; };
    for (llvm::StringRef item : items) {
      auto [k, v] = item.split('=');
      if (k.trim() == "num_stages") // an option, spelled as tuning files spell it
        v.trim().getAsInteger(10, o.numStages);
      else if (k.trim() == "release_slots") // options too
        o.releaseSlots = isTrue(v.trim());
      else if (k.trim() == "ping_pong")
        o.pingPong = isTrue(v.trim());
      else if (k.trim() == "warp_specialize")
        o.warpSpecialize = isTrue(v.trim());
      else
        o.constants[k.trim().str()] = v.trim().str();
    }
  }
  if (arch)
    o.arch = arch;
  if (numWarps)
    o.numWarps = numWarps;
  return o;
}
blk::Status kernelArgs(const blk_value *args, int numArgs, std::vector<blk::KernelArg> &out) {
  for (int i = 0; i < numArgs; ++i) {
    if (args[i].kind == BLK_VALUE_POINTER)
      out.emplace_back(reinterpret_cast<void *>(uintptr_t(args[i].bits)));
    else if (args[i].kind == BLK_VALUE_INT)
      out.emplace_back(int64_t(args[i].bits));
    else if (args[i].kind == BLK_VALUE_FLOAT)
      out.emplace_back(args[i].real);
    else
      return blk::Status::error("unknown kind of argument " + std::to_string(i));
  }
  return {};
}

/// Copies `text` into a caller's buffer; too long is an error, not a cut.
int copyOut(const std::string &text, char *out, size_t outSize, char *error, size_t size) {
  if (text.size() >= outSize)
    return report(blk::Status::error("result of " + std::to_string(text.size()) + " bytes does not fit the buffer"),
                  error, size);
  std::memcpy(out, text.c_str(), text.size() + 1);
  return 0;
}

/// Runs `compile` into a new kernel handed to `*out` on success.
template <typename Fn> int compileInto(blk_jit_kernel **out, char *error, size_t size, Fn compile) {
  auto k = std::make_unique<blk_jit_kernel>();
  if (report(compile(k->kernel), error, size))
    return -1;
  *out = k.release();
  return 0;
}
} // namespace

extern "C" {

blk_jit *blk_jit_create(int backend) {
  return new blk_jit(backend == BLK_BACKEND_CPU ? blk::Backend::CPU : blk::Backend::CUDA);
}
void blk_jit_destroy(blk_jit *jit) { delete jit; }
int blk_jit_available(blk_jit *jit, char *error, size_t size) { return report(jit->jit.available(), error, size); }

int blk_jit_compile_file(blk_jit *jit, const char *path, const char *kernel, const char *constants, const char *arch,
                         unsigned numWarps, blk_jit_kernel **out, char *error, size_t size) {
  if (!jit || !path || !kernel || !out)
    return report(blk::Status::error("blk_jit_compile_file: null argument"), error, size);
  return compileInto(out, error, size, [&](blk::Kernel &k) {
    return jit->jit.compileFile(path, kernel, options(constants, arch, numWarps), k);
  });
}

int blk_jit_compile_source(blk_jit *jit, const char *source, const char *kernel, const char *constants,
                           const char *arch, unsigned numWarps, blk_jit_kernel **out, char *error, size_t size) {
  if (!jit || !source || !kernel || !out)
    return report(blk::Status::error("blk_jit_compile_source: null argument"), error, size);
  return compileInto(out, error, size, [&](blk::Kernel &k) {
    return jit->jit.compileSource(source, kernel, options(constants, arch, numWarps), k);
  });
}

void blk_jit_kernel_destroy(blk_jit_kernel *kernel) { delete kernel; }

int blk_jit_launch(blk_jit_kernel *kernel, unsigned gx, unsigned gy, unsigned gz, void *stream, const blk_value *args,
                   int numArgs, char *error, size_t size) {
  if (!kernel || numArgs < 0 || (numArgs && !args))
    return report(blk::Status::error("blk_jit_launch: null or negative argument"), error, size);
  std::vector<blk::KernelArg> kargs;
  if (blk::Status s = kernelArgs(args, numArgs, kargs); !s.ok())
    return report(s, error, size);
  return report(kernel->kernel.launch(blk::Grid{gx, gy, gz}, kargs, stream), error, size);
}

int blk_jit_kernel_specialization(blk_jit_kernel *kernel, const blk_value *args, int numArgs, char *out,
                                  size_t outSize, char *error, size_t size) {
  if (!kernel || !out || !outSize || numArgs < 0 || (numArgs && !args))
    return report(blk::Status::error("blk_jit_kernel_specialization: null or negative argument"), error, size);
  std::vector<blk::KernelArg> kargs;
  if (blk::Status s = kernelArgs(args, numArgs, kargs); !s.ok())
    return report(s, error, size);
  return copyOut(kernel->kernel.specialization(kargs), out, outSize, error, size);
}

size_t blk_jit_kernel_num_variants(blk_jit_kernel *kernel) { return kernel ? kernel->kernel.numVariants() : 0; }

int blk_jit_kernel_descriptor_block(blk_jit_kernel *kernel, int arg, int64_t *out, int max_rank) {
  if (!kernel || arg < 0 || max_rank < 0 || (max_rank && !out))
    return -1;
  std::vector<int64_t> block = kernel->kernel.descriptorBlock(size_t(arg));
  if (block.size() > size_t(max_rank))
    return -1;
  std::copy(block.begin(), block.end(), out);
  return int(block.size());
}

int blk_jit_kernel_names(blk_jit *jit, const char *source, const char *filename, char *out, size_t outSize,
                         char *error, size_t size) {
  if (!jit || !source || !out || !outSize)
    return report(blk::Status::error("blk_jit_kernel_names: null argument"), error, size);
  std::vector<std::string> names;
  if (blk::Status s = jit->jit.kernelNames(source, filename ? filename : "<string>", names); !s.ok())
    return report(s, error, size);
  std::string joined;
  for (const std::string &n : names)
    joined += (joined.empty() ? "" : ",") + n;
  return copyOut(joined, out, outSize, error, size);
}

int blk_jit_register_host_memory(blk_jit *jit, void *ptr, size_t bytes, char *error, size_t size) {
  if (!jit)
    return report(blk::Status::error("blk_jit_register_host_memory: null jit"), error, size);
  return report(jit->jit.registerHostMemory(ptr, bytes), error, size);
}
int blk_jit_unregister_host_memory(blk_jit *jit, void *ptr, char *error, size_t size) {
  if (!jit)
    return report(blk::Status::error("blk_jit_unregister_host_memory: null jit"), error, size);
  return report(jit->jit.unregisterHostMemory(ptr), error, size);
}

void blk_jit_cache_stats(blk_jit *jit, size_t *memoryHits, size_t *diskHits, size_t *compiles) {
  blk::Jit::CacheStats stats = jit ? jit->jit.cacheStats() : blk::Jit::CacheStats();
  if (memoryHits)
    *memoryHits = stats.memoryHits;
  if (diskHits)
    *diskHits = stats.diskHits;
  if (compiles)
    *compiles = stats.compiles;
}

int blk_jit_alloc(blk_jit *jit, size_t bytes, void **out, char *error, size_t size) {
  return report(jit->jit.alloc(bytes, out), error, size);
}
int blk_jit_free(blk_jit *jit, void *ptr, char *error, size_t size) { return report(jit->jit.free(ptr), error, size); }
int blk_jit_upload(blk_jit *jit, void *dst, const void *src, size_t bytes, char *error, size_t size) {
  return report(jit->jit.upload(dst, src, bytes), error, size);
}
int blk_jit_download(blk_jit *jit, void *dst, const void *src, size_t bytes, char *error, size_t size) {
  return report(jit->jit.download(dst, src, bytes), error, size);
}
int blk_jit_synchronize(blk_jit *jit, char *error, size_t size) { return report(jit->jit.synchronize(), error, size); }

} // extern "C"

// For the operators' C API (lib/Ops/JitOpsC.cpp), which keeps the handle opaque.
namespace blk::ops {
Jit &jitOfHandle(blk_jit *handle) { return handle->jit; }
} // namespace blk::ops
