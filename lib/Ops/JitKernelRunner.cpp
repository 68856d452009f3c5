// KernelRunner over the JIT: kernels compiled from source once per variant
// and kernel, launched on the Jit's backend (GPU or CPU interpreter).
#include "blk/Ops/JitKernelRunner.h"

#include <map>

namespace blk::ops {

namespace {
class JitRunner : public KernelRunner {
public:
  JitRunner(Jit &jit, std::string dir) : jit(jit), dir(std::move(dir)) {}

  Status launch(const Variant &variant, const std::string &kernel, Grid grid, const std::vector<KernelArg> &args,
                void *stream) override {
    std::string key = variant.name() + ":" + kernel;
    auto it = kernels.find(key);
    if (it == kernels.end()) {
      KernelOptions options;
      for (auto &[k, v] : variant.bindings)
        if (k == "num_warps")
          options.numWarps = unsigned(std::stoul(v));
        else if (k == "num_stages")
          options.numStages = unsigned(std::stoul(v));
        else
          options.constants[k] = v;
      Kernel compiled;
      if (Status s = jit.compileFile(dir + "/" + variant.file + ".blk", kernel, options, compiled); !s.ok())
        return s;
      it = kernels.emplace(key, std::move(compiled)).first;
    }
    return it->second.launch(grid, args, stream);
  }
  Status alloc(size_t bytes, void **out) override { return jit.alloc(bytes, out); }
  Status free(void *ptr) override { return jit.free(ptr); }
  Status upload(void *dst, const void *src, size_t bytes) override { return jit.upload(dst, src, bytes); }
  Status download(void *dst, const void *src, size_t bytes) override {
    if (Status s = jit.synchronize(); !s.ok())
      return s;
    return jit.download(dst, src, bytes);
  }
  // The interpreter runs programs one after another: three walk several
  // tiles each, as SMs do on the GPU.
  int64_t persistentPrograms() override {
    return jit.backend() == Backend::CPU ? 3 : KernelRunner::persistentPrograms();
  }

private:
  Jit &jit;
  std::string dir;
  std::map<std::string, Kernel> kernels;
};
} // namespace

std::unique_ptr<KernelRunner> makeJitRunner(Jit &jit, const std::string &kernelDir) {
  return std::make_unique<JitRunner>(jit, kernelDir);
}

} // namespace blk::ops
