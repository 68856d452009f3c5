// Autotuning: time each config on the device, keep the fastest per (kernel,
// key, device), persist the choice in a tuning file.
#include "JitImpl.h"

#include "blk/Runtime/Driver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>

namespace blk {

std::string TuningConfig::str() const {
  std::string s;
  for (const auto &[k, v] : constants)
    s += k + "=" + v + ",";
  s += "num_warps=" + std::to_string(numWarps);
  if (numStages != 1)
    s += ",num_stages=" + std::to_string(numStages);
  if (releaseSlots)
    s += ",release_slots=1";
  if (pingPong)
    s += ",ping_pong=1";
  return s;
}

static bool parseConfig(llvm::StringRef text, TuningConfig &out) {
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',', -1, false);
  for (llvm::StringRef item : items) {
    auto [k, v] = item.split('=');
    if (v.empty())
      return false;
    if (k == "num_warps") {
      if (v.getAsInteger(10, out.numWarps))
        return false;
    } else if (k == "num_stages") {
      if (v.getAsInteger(10, out.numStages))
        return false;
    } else if (k == "release_slots" || k == "ping_pong") {
      if (v != "0" && v != "1")
        return false;
      (k == "release_slots" ? out.releaseSlots : out.pingPong) = v == "1";
    } else {
      out.constants[k.str()] = v.str();
    }
  }
  return true;
}

struct TunedKernel::Impl {
  Jit *jit = nullptr;
  std::string path, name;
  KernelOptions options;
  std::vector<TuningConfig> configs;
  std::vector<std::string> keys;
  std::vector<Kernel> kernels; // one per config, compiled on first need
  std::vector<size_t> keyIndex;
  size_t searchCount = 0;

  std::string keyOf(const std::vector<KernelArg> &args) const {
    std::string key = name + "|" + jit->deviceName() + "|";
    for (size_t i : keyIndex)
      key += (i < args.size() ? std::to_string(int64_t(args[i].bits)) : "?") + ",";
    return key;
  }
};

TunedKernel::TunedKernel() = default;
TunedKernel::~TunedKernel() = default;
TunedKernel::TunedKernel(TunedKernel &&) noexcept = default;
TunedKernel &TunedKernel::operator=(TunedKernel &&) noexcept = default;
size_t TunedKernel::searches() const { return impl ? impl->searchCount : 0; }

const TuningConfig *TunedKernel::chosen(const std::vector<KernelArg> &args) const {
  if (!impl)
    return nullptr;
  auto &table = impl->jit->tuningTable();
  auto it = table.find(impl->keyOf(args));
  return it == table.end() ? nullptr : &it->second;
}

void Jit::setTuningFile(const std::string &path) {
  impl->tuningFile = path;
  impl->tuningLoaded = false;
}

std::map<std::string, TuningConfig> &Jit::tuningTable() {
  if (!impl->tuningLoaded) {
    impl->tuningLoaded = true;
    if (!impl->tuningFile.empty())
      if (auto buf = llvm::MemoryBuffer::getFile(impl->tuningFile)) {
        llvm::SmallVector<llvm::StringRef> lines;
        (*buf)->getBuffer().split(lines, '\n', -1, false);
        for (llvm::StringRef line : lines) { // KEY \t CONFIG
          auto [key, config] = line.split('\t');
          TuningConfig c;
          if (!key.starts_with("#") && parseConfig(config.trim(), c))
            impl->tuning[key.str()] = c;
        }
      }
  }
  return impl->tuning;
}

Status Jit::saveTuning() {
  if (impl->tuningFile.empty())
    return {};
  std::string text = "# blk tuning file: kernel|device|key values<TAB>config\n";
  for (const auto &[key, c] : impl->tuning)
    text += key + "\t" + c.str() + "\n";
  std::string tmp = impl->tuningFile + ".tmp";
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      return Status::error("cannot write " + tmp + ": " + ec.message());
    os << text;
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, impl->tuningFile))
    return Status::error("cannot write " + impl->tuningFile + ": " + ec.message());
  return {};
}

std::string Jit::deviceName() const {
  if (impl->backend == Backend::CPU)
    return "cpu-interpreter";
  char name[256] = "cuda";
  CUdevice dev;
  if (impl->availability.ok() && rt::driver()->cuDeviceGet(&dev, 0) == CUDA_SUCCESS)
    rt::driver()->cuDeviceGetName(name, sizeof name, dev);
  return name;
}

/// Median time of `launch` in microseconds: CUDA events on the GPU, the wall
/// clock on the CPU interpreter.
static Status timeLaunches(Jit &jit, const std::function<Status()> &launch, int reps, double &us) {
  std::vector<double> times;
  if (jit.backend() == Backend::CPU) {
    for (int i = 0; i < reps; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      if (Status s = launch(); !s.ok())
        return s;
      times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
  } else {
    const rt::DriverApi *d = rt::driver();
    CUevent start, stop;
    d->cuEventCreate(&start, CU_EVENT_DEFAULT);
    d->cuEventCreate(&stop, CU_EVENT_DEFAULT);
    for (int i = 0; i < 3; ++i) // warm-up (and compilation of the variant)
      if (Status s = launch(); !s.ok())
        return s;
    for (int i = 0; i < reps; ++i) {
      d->cuEventRecord(start, nullptr);
      launch();
      d->cuEventRecord(stop, nullptr);
      d->cuEventSynchronize(stop);
      float ms = 0;
      d->cuEventElapsedTime(&ms, start, stop);
      times.push_back(ms * 1000.0);
    }
    d->cuEventDestroy(start);
    d->cuEventDestroy(stop);
  }
  std::sort(times.begin(), times.end());
  us = times[times.size() / 2];
  return {};
}

Status Jit::autotune(const std::string &path, const std::string &kernel, const KernelOptions &options,
                     const std::vector<TuningConfig> &configs, const std::vector<std::string> &keys, TunedKernel &out) {
  if (configs.empty())
    return Status::error("autotune: no configs");
  auto t = std::make_unique<TunedKernel::Impl>();
  t->jit = this;
  t->path = path;
  t->name = kernel;
  t->options = options;
  t->configs = configs;
  t->keys = keys;
  // Compile the first config now: errors surface here, and the parameter
  // names of the keys become known.
  t->kernels.resize(configs.size());
  KernelOptions first = options;
  for (const auto &[k, v] : configs[0].constants)
    first.constants[k] = v;
  first.numWarps = configs[0].numWarps;
  first.numStages = configs[0].numStages;
  first.releaseSlots = configs[0].releaseSlots;
  first.pingPong = configs[0].pingPong;
  if (Status s = compileFile(path, kernel, first, t->kernels[0]); !s.ok())
    return s;
  for (const std::string &key : keys) {
    size_t index = t->kernels[0].paramIndex(key);
    if (index == size_t(-1))
      return Status::error("autotune: kernel '" + kernel + "' has no runtime parameter '" + key + "'");
    t->keyIndex.push_back(index);
  }
  out.impl = std::move(t);
  return {};
}

Status TunedKernel::launch(const std::function<Grid(const TuningConfig &)> &grid, const std::vector<KernelArg> &args,
                           void *stream) {
  if (!impl)
    return Status::error("launch of a kernel that was not tuned");
  auto kernelFor = [&](size_t i, Kernel *&out) -> Status {
    if (!impl->kernels[i].compiled()) {
      KernelOptions o = impl->options;
      for (const auto &[k, v] : impl->configs[i].constants)
        o.constants[k] = v;
      o.numWarps = impl->configs[i].numWarps;
      o.numStages = impl->configs[i].numStages;
      o.releaseSlots = impl->configs[i].releaseSlots;
      o.pingPong = impl->configs[i].pingPong;
      if (Status s = impl->jit->compileFile(impl->path, impl->name, o, impl->kernels[i]); !s.ok())
        return s;
    }
    out = &impl->kernels[i];
    return {};
  };
  auto &table = impl->jit->tuningTable();
  std::string key = impl->keyOf(args);
  auto it = table.find(key);
  if (it == table.end()) {
    ++impl->searchCount;
    double best = 0;
    size_t bestIndex = 0;
    for (size_t i = 0; i < impl->configs.size(); ++i) {
      Kernel *k;
      if (Status s = kernelFor(i, k); !s.ok())
        return s;
      double us = 0;
      Grid g = grid(impl->configs[i]);
      Status s = timeLaunches(*impl->jit, [&] { return k->launch(g, args, stream); },
                              impl->jit->backend() == Backend::CPU ? 1 : 20, us);
      if (!s.ok())
        return Status::error("autotune: config " + impl->configs[i].str() + ": " + s.message);
      if (i == 0 || us < best) {
        best = us;
        bestIndex = i;
      }
    }
    it = table.emplace(key, impl->configs[bestIndex]).first;
    if (Status s = impl->jit->saveTuning(); !s.ok())
      return s;
  }
  // The chosen config, as recorded (it may come from a tuning file).
  size_t index = 0;
  for (; index < impl->configs.size(); ++index)
    if (impl->configs[index].str() == it->second.str())
      break;
  if (index == impl->configs.size())
    return Status::error("autotune: the tuning file chose " + it->second.str() + ", which is not among the configs");
  Kernel *k;
  if (Status s = kernelFor(index, k); !s.ok())
    return s;
  return k->launch(grid(impl->configs[index]), args, stream);
}

} // namespace blk
