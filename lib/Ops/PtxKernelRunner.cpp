// KernelRunner over precompiled PTX (scripts/build-ptx.sh) and the CUDA driver.
#include "blk/Ops/KernelRunner.h"
#include "blk/Runtime/Driver.h"

#include <fstream>
#include <map>

namespace blk::ops {

namespace {
/// The argument as the signature types it.
rt::Arg typed(const KernelArg &a, rt::ArgType type) {
  if (a.kind == KernelArg::Float || type == rt::ArgType::F32 || type == rt::ArgType::F64) {
    double d = a.kind == KernelArg::Float ? a.real : double(int64_t(a.bits));
    return type == rt::ArgType::F64 ? rt::Arg::f64(d) : rt::Arg::f32(float(d));
  }
  return rt::Arg{type, a.bits};
}

bool meetsSpecialization(const rt::KernelSignature &sig, const std::vector<rt::Arg> &args) {
  for (auto [index, div] : sig.divisibility)
    if (index < args.size() && div > 1 && args[index].bits % div != 0)
      return false;
  return true;
}

class PtxRunner : public KernelRunner {
public:
  explicit PtxRunner(std::string dir) : dir(std::move(dir)) {}

  Status launch(const Variant &variant, const std::string &kernel, Grid grid, const std::vector<KernelArg> &args,
                void *stream) override {
    std::string name = variant.name();
    // The specialized build first (sizes and strides multiples of 16), when it was built and the arguments fit it.
    const rt::Kernel *k = nullptr;
    std::vector<rt::Arg> typedArgs;
    for (const std::string &file : {name + ".spec.ptx", name + ".ptx"}) {
      const rt::Kernel *candidate = nullptr;
      Status s = find(file, kernel, candidate);
      if (!s.ok()) {
        if (file == name + ".ptx")
          return s;
        continue;
      }
      if (candidate->signature().args.size() != args.size())
        return Status::error("kernel '" + kernel + "' of " + file + " takes " +
                             std::to_string(candidate->signature().args.size()) + " arguments, got " +
                             std::to_string(args.size()));
      std::vector<rt::Arg> converted;
      for (size_t i = 0; i < args.size(); ++i)
        converted.push_back(typed(args[i], candidate->signature().args[i]));
      k = candidate;
      typedArgs = std::move(converted);
      if (meetsSpecialization(candidate->signature(), typedArgs))
        break;
    }
    return k->launch(grid, static_cast<CUstream>(stream), typedArgs);
  }

  Status alloc(size_t bytes, void **out) override { return rt::deviceAlloc(bytes, out); }
  Status free(void *ptr) override { return rt::deviceFree(ptr); }
  Status upload(void *dst, const void *src, size_t bytes) override { return rt::copyToDevice(dst, src, bytes); }
  Status download(void *dst, const void *src, size_t bytes) override {
    if (Status s = rt::synchronizeDevice("a kernel"); !s.ok())
      return s;
    return rt::copyToHost(dst, src, bytes);
  }

private:
  /// The kernel of a PTX file, the file loaded once (a failure is remembered too).
  Status find(const std::string &file, const std::string &kernel, const rt::Kernel *&out) {
    auto &entry = modules[file];
    if (!entry.loaded) {
      entry.loaded = true;
      std::string path = dir + "/" + file;
      if (!std::ifstream(path).good())
        entry.status = Status::error("no compiled kernel " + path + " (scripts/build-ptx.sh makes it)");
      else
        entry.status = rt::Module::loadFile(path, entry.module);
    }
    if (!entry.status.ok())
      return entry.status;
    auto it = entry.kernels.find(kernel);
    if (it == entry.kernels.end()) {
      rt::Kernel k;
      if (Status s = entry.module->kernel(kernel, k); !s.ok())
        return s;
      it = entry.kernels.emplace(kernel, k).first;
    }
    out = &it->second;
    return {};
  }

  struct LoadedModule {
    bool loaded = false;
    Status status;
    std::unique_ptr<rt::Module> module;
    std::map<std::string, rt::Kernel> kernels;
  };
  std::string dir;
  std::map<std::string, LoadedModule> modules;
};
} // namespace

Status makePtxRunner(const std::string &ptxDir, std::unique_ptr<KernelRunner> &out) {
  if (Status s = rt::initDevice(0); !s.ok())
    return s;
  out = std::make_unique<PtxRunner>(ptxDir);
  return {};
}

} // namespace blk::ops
