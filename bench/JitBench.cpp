// blk-jit-bench: the C++ API's costs on the device: cold compile and load,
// launches that hit the in-memory variant, and a new process's (here: a new
// Jit's) first launch served by the disk cache.
//   blk-jit-bench KERNELS_DIR
#include "blk/blk.h"

#include "llvm/Support/FileSystem.h"
#include <algorithm>
#include <chrono>
#include <cstdio>

using Clock = std::chrono::steady_clock;
static double usSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

int main(int argc, char **argv) {
  std::string path = std::string(argc > 1 ? argv[1] : "kernels") + "/vector_add.blk";
  llvm::SmallString<128> cacheDir;
  llvm::sys::fs::createUniqueDirectory("blk-jit-bench", cacheDir);
  const int n = 1 << 20;
  void *x, *y, *out;
  double coldUs, hitUs, diskUs, diskDescribeUs, compileUs;
  {
    blk::Jit jit(blk::Backend::CUDA);
    if (!jit.available().ok()) {
      std::printf("blk-jit-bench: no GPU: %s\n", jit.available().message.c_str());
      return 1;
    }
    jit.setCacheDirectory(std::string(cacheDir));
    jit.alloc(n * 4, &x);
    jit.alloc(n * 4, &y);
    jit.alloc(n * 4, &out);
    auto t0 = Clock::now();
    blk::Kernel k;
    blk::Status s = jit.compileFile(path, "vector_add", {{{"T", "f32"}}}, k);
    compileUs = usSince(t0);
    if (s.ok())
      s = k.launch({blk::cdiv(n, 1024)}, {x, y, out, int32_t(n)});
    coldUs = usSince(t0);
    if (!s.ok() || !(s = jit.synchronize()).ok()) {
      std::printf("blk-jit-bench: %s\n", s.message.c_str());
      return 1;
    }
    // Host time of launches that find their variant in memory, in batches
    // well under the driver's queue.
    std::vector<blk::KernelArg> args{x, y, out, int32_t(n)};
    double total = 0;
    for (int b = 0; b < 80; ++b) {
      t0 = Clock::now();
      for (int i = 0; i < 256; ++i)
        k.launch({1}, args);
      total += usSince(t0);
      jit.synchronize();
    }
    hitUs = total / (80 * 256);
  }
  // Disk hits: each round a new Jit (no variant in memory), as a new process
  // would; the median of 21 rounds.
  {
    std::vector<double> total, describe;
    for (int round = 0; round < 21; ++round) {
      blk::Jit jit(blk::Backend::CUDA);
      jit.setCacheDirectory(std::string(cacheDir));
      auto t0 = Clock::now();
      blk::Kernel k;
      blk::Status s = jit.compileFile(path, "vector_add", {{{"T", "f32"}}}, k);
      describe.push_back(usSince(t0));
      if (s.ok())
        s = k.launch({blk::cdiv(n, 1024)}, {x, y, out, int32_t(n)});
      total.push_back(usSince(t0));
      auto stats = jit.cacheStats();
      if (!s.ok() || stats.diskHits != 1) {
        std::printf("blk-jit-bench: disk cache not hit (%s)\n", s.message.c_str());
        return 1;
      }
      jit.synchronize();
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    diskUs = median(total);
    diskDescribeUs = median(describe);
  }
  // Autotuning on the device: three configs of vector add over 2^24 elements.
  std::string tuned;
  size_t searches = 0;
  {
    blk::Jit jit(blk::Backend::CUDA);
    jit.setCacheDirectory(std::string(cacheDir));
    jit.setTuningFile(std::string(cacheDir) + "/tuning.txt");
    const int m = 1 << 24;
    void *a, *b, *c;
    jit.alloc(size_t(m) * 4, &a);
    jit.alloc(size_t(m) * 4, &b);
    jit.alloc(size_t(m) * 4, &c);
    std::vector<blk::TuningConfig> configs{{{{"BLOCK", "512"}}, 4}, {{{"BLOCK", "1024"}}, 4}, {{{"BLOCK", "4096"}}, 8}};
    blk::TunedKernel k;
    blk::Status s = jit.autotune(path, "vector_add", {{{"T", "f32"}}}, configs, {"n"}, k);
    std::vector<blk::KernelArg> args{a, b, c, int32_t(m)};
    auto grid = [&](const blk::TuningConfig &cfg) { return blk::Grid{blk::cdiv(m, std::stoul(cfg.constants.at("BLOCK")))}; };
    if (s.ok())
      s = k.launch(grid, args);
    if (s.ok())
      s = k.launch(grid, args);
    if (!s.ok() || !k.chosen(args)) {
      std::printf("blk-jit-bench: autotune failed: %s\n", s.message.c_str());
      return 1;
    }
    tuned = k.chosen(args)->str();
    searches = k.searches();
  }
  std::printf("autotune: vector_add f32 2^24 on %zu search(es) chose %s\n\n", searches, tuned.c_str());
  std::printf("| JIT step (vector_add f32, 2^20) | us |\n|---|---:|\n");
  std::printf("| parse and check the source (compileFile) | %.0f |\n", compileUs);
  std::printf("| cold: compileFile + first launch (compile to PTX, driver load) | %.0f |\n", coldUs);
  std::printf("| launch hitting the in-memory variant (per launch, host) | %.2f |\n", hitUs);
  std::printf("| new Jit: compileFile + first launch from the disk cache (median of 21) | %.0f |\n", diskUs);
  std::printf("| of which compileFile (kernel description from the disk cache) | %.0f |\n", diskDescribeUs);
  std::printf("| of which the first launch (entry read and checked, module load, launch) | %.0f |\n",
              diskUs - diskDescribeUs);
  return 0;
}
