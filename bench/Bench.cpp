// blk-bench: times the kernels of kernels/ on the GPU at LLM shapes, next to
// the device's copy bandwidth measured in the same run. Correctness first: a
// kernel whose output differs from the float64 reference is reported FAIL and
// not timed. CUDA events, warm-up, median of many runs, inputs far larger
// than L2, random data.
//   blk-bench [--ptx-dir DIR] [--json FILE] [--reps N]
#include "../test/common/Reference.h"
#include "blk/Runtime/Driver.h"
#include "blk/Runtime/Runtime.h"

#include <algorithm>
#include <chrono>
#include <dirent.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>

using namespace blk;

namespace {

const rt::DriverApi *D = nullptr;

#define CHECK_CU(call)                                                                                       \
  do {                                                                                                       \
    CUresult r_ = (call);                                                                                    \
    if (r_ != CUDA_SUCCESS) {                                                                                \
      std::fprintf(stderr, "%s failed: %s\n", #call, rt::driverError(r_).c_str());                           \
      std::exit(1);                                                                                          \
    }                                                                                                        \
  } while (0)

struct Result {
  std::string name, shape, dtype, status;
  double us = 0, gbps = 0, pctOfCopy = 0, relErr = 0;
};

/// Median time in microseconds of `launch`, timed one launch at a time with events.
double medianMicros(const std::function<void()> &launch, int reps) {
  CUevent start, stop;
  CHECK_CU(D->cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK_CU(D->cuEventCreate(&stop, CU_EVENT_DEFAULT));
  for (int i = 0; i < 10; ++i)
    launch();
  CHECK_CU(D->cuCtxSynchronize());
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    CHECK_CU(D->cuEventRecord(start, nullptr));
    launch();
    CHECK_CU(D->cuEventRecord(stop, nullptr));
    CHECK_CU(D->cuEventSynchronize(stop));
    float ms;
    CHECK_CU(D->cuEventElapsedTime(&ms, start, stop));
    times.push_back(ms * 1000.0);
  }
  D->cuEventDestroy(start);
  D->cuEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Device {
  CUdeviceptr ptr = 0;
  size_t bytes;
  explicit Device(size_t b) : bytes(b) { CHECK_CU(D->cuMemAlloc(&ptr, b)); }
  ~Device() { D->cuMemFree(ptr); }
};

/// Fills a buffer with random values in parallel (the inputs are gigabytes).
void fillRandom(ref::Buffer &b, double lo, double hi, uint64_t seed) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  size_t n = b.size(), chunk = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(seed * 7919 + t);
      std::uniform_real_distribution<double> dist(lo, hi);
      for (size_t i = t * chunk; i < std::min(n, (t + 1) * chunk); ++i)
        b.set(i, dist(rng));
    });
  for (auto &th : pool)
    th.join();
}

/// Relative-norm error against the float64 reference, computed in parallel.
double checkElementwise(const ref::Buffer &x, const ref::Buffer &y, const ref::Buffer &out,
                        double (*fn)(double, double)) {
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  size_t n = out.size(), chunk = (n + threads - 1) / threads;
  std::vector<double> num(threads), den(threads);
  std::vector<char> bad(threads, 0);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (size_t i = t * chunk; i < std::min(n, (t + 1) * chunk); ++i) {
        double o = out.get(i), r = fn(x.get(i), y.get(i));
        if (!std::isfinite(o))
          bad[t] = 1;
        num[t] += (o - r) * (o - r);
        den[t] += r * r;
      }
    });
  for (auto &th : pool)
    th.join();
  double sn = 0, sd = 0;
  for (unsigned t = 0; t < threads; ++t) {
    if (bad[t])
      return INFINITY;
    sn += num[t];
    sd += den[t];
  }
  return std::sqrt(sn / sd);
}

/// Host microseconds per launch of a tiny kernel through the C++ runtime
/// (checked launch included), and of cuLaunchKernel alone.
int measureLaunchOverhead(const std::string &ptxDir) {
  std::unique_ptr<rt::Module> mod;
  rt::Kernel k;
  rt::Status s = rt::Module::loadFile(ptxDir + "/vector_add.f32.ptx", mod);
  if (s.ok())
    s = mod->kernel("vector_add", k);
  if (!s.ok()) {
    std::fprintf(stderr, "blk-bench: %s\n", s.message.c_str());
    return 1;
  }
  Device x(4096), y(4096), out(4096);
  std::vector<rt::Arg> args{rt::Arg::devicePtr(x.ptr), rt::Arg::devicePtr(y.ptr), rt::Arg::devicePtr(out.ptr),
                            rt::Arg::i32(1024)};
  for (int i = 0; i < 100; ++i)
    k.launch(rt::Grid{1}, nullptr, args);
  CHECK_CU(D->cuCtxSynchronize());
  // Host time only: batches of 256 launches (well under the driver's queue, so
  // the GPU never holds the host back), synchronized outside the timed region.
  const int batches = 80, batch = 256;
  auto timed = [&](auto launch) {
    double total = 0;
    for (int b = 0; b < batches; ++b) {
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < batch; ++i)
        launch();
      total += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      CHECK_CU(D->cuCtxSynchronize());
    }
    return total / (batches * batch);
  };
  double us = timed([&] { k.launch(rt::Grid{1}, nullptr, args); });
  std::printf("launch_us=%.3f\n", us);
  // The floor: cuLaunchKernel itself, with the parameters prepared once.
  uint64_t values[4] = {x.ptr, y.ptr, out.ptr, 1024};
  void *params[4] = {&values[0], &values[1], &values[2], &values[3]};
  us = timed([&] { D->cuLaunchKernel(k.handle(), 1, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr); });
  std::printf("driver_launch_us=%.3f\n", us);
  // A kernel with two TMA tensor maps (built at every launch) against the
  // pointer matmul of the same tile without them, on a 16^3 problem.
  std::unique_ptr<rt::Module> mm, mmTma;
  rt::Kernel plain, tma;
  s = rt::Module::loadFile(ptxDir + "/matmul.bf16.bf16.128.256.64.w8.st3.ptx", mm);
  if (s.ok())
    s = mm->kernel("matmul", plain);
  if (s.ok())
    s = rt::Module::loadFile(ptxDir + "/matmul.bf16.bf16.128.256.64.w8.st3.spec.ptx", mmTma);
  if (s.ok())
    s = mmTma->kernel("matmul_tma", tma);
  if (!s.ok()) {
    std::fprintf(stderr, "blk-bench: %s\n", s.message.c_str());
    return 1;
  }
  Device a(16 * 16 * 2), b(16 * 16 * 2), c(16 * 16 * 2);
  std::vector<rt::Arg> plainArgs{rt::Arg::devicePtr(a.ptr), rt::Arg::devicePtr(b.ptr), rt::Arg::devicePtr(c.ptr),
                                 rt::Arg::i32(16), rt::Arg::i32(16), rt::Arg::i32(16), rt::Arg::i64(16),
                                 rt::Arg::i64(1), rt::Arg::i64(16), rt::Arg::i64(1), rt::Arg::i64(16),
                                 rt::Arg::i64(1)};
  std::vector<rt::Arg> tmaArgs{rt::Arg::devicePtr(a.ptr), rt::Arg::devicePtr(b.ptr), rt::Arg::devicePtr(c.ptr),
                               rt::Arg::i32(16), rt::Arg::i32(16), rt::Arg::i32(16), rt::Arg::i64(16),
                               rt::Arg::i64(16), rt::Arg::i64(16)};
  for (auto [name, kernel, kargs] : {std::tuple{"matmul_launch_us", &plain, &plainArgs},
                                     std::tuple{"matmul_tma_launch_us", &tma, &tmaArgs}}) {
    if (rt::Status e = kernel->launch(rt::Grid{1}, nullptr, *kargs); !e.ok()) {
      std::fprintf(stderr, "blk-bench: %s\n", e.message.c_str());
      return 1;
    }
    std::printf("%s=%.3f\n", name, timed([&] { kernel->launch(rt::Grid{1}, nullptr, *kargs); }));
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string ptxDir = "ptx", jsonPath;
  int reps = 100;
  bool launchOverhead = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ptx-dir" && i + 1 < argc)
      ptxDir = argv[++i];
    else if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (a == "--reps" && i + 1 < argc)
      reps = std::atoi(argv[++i]);
    else if (a == "--launch-overhead")
      launchOverhead = true;
    else {
      std::fprintf(stderr, "usage: %s [--ptx-dir DIR] [--json FILE] [--reps N] [--launch-overhead]\n", argv[0]);
      return 2;
    }
  }
  rt::Status s = rt::initDevice(0);
  if (!s.ok()) {
    std::fprintf(stderr, "blk-bench: no GPU: %s\n", s.message.c_str());
    return 1;
  }
  D = rt::driver();
  char devName[256];
  CUdevice dev;
  CHECK_CU(D->cuDeviceGet(&dev, 0));
  CHECK_CU(D->cuDeviceGetName(devName, sizeof devName, dev));

  if (launchOverhead)
    return measureLaunchOverhead(ptxDir);

  std::vector<Result> results;
  // The ceiling: a device-to-device copy, bytes read plus bytes written.
  double copyGBps;
  {
    size_t bytes = size_t(1) << 30;
    Device a(bytes), b(bytes);
    CHECK_CU(D->cuMemsetD8Async(a.ptr, 0x5a, bytes, nullptr));
    double us = medianMicros([&] { CHECK_CU(D->cuMemcpyDtoDAsync(b.ptr, a.ptr, bytes, nullptr)); }, reps);
    copyGBps = 2.0 * bytes / us / 1e3;
    results.push_back({"ceiling/copy", "1 GiB", "-", "ok", us, copyGBps, 100.0, 0});
  }

  struct Case {
    const char *file, *kernel, *shape;
    ref::DType type;
    size_t n;
  };
  const Case cases[] = {
      {"vector_add", "vector_add", "2^28", ref::DType::F32, size_t(1) << 28},
      {"vector_add", "vector_add", "2^28", ref::DType::BF16, size_t(1) << 28},
      {"swiglu", "swiglu_forward", "4096x14336", ref::DType::BF16, size_t(4096) * 14336},
      {"swiglu", "swiglu_forward", "4096x14336", ref::DType::F32, size_t(4096) * 14336},
      {"geglu", "geglu_forward", "4096x14336", ref::DType::BF16, size_t(4096) * 14336},
      {"kl_div", "kl_div", "8192x32000", ref::DType::F32, size_t(8192) * 32000},
      {"kl_div", "kl_div", "8192x32000", ref::DType::BF16, size_t(8192) * 32000},
  };
  uint64_t seed = std::random_device{}();
  for (const Case &c : cases) {
    const ref::ElementwiseCase *ec = nullptr;
    for (auto &e : ref::elementwiseCases())
      if (std::string(e.kernel) == c.kernel)
        ec = &e;
    // The default variant, then tuning variants <file>.<dtype>.<tag>.n16.ptx.
    std::string prefix = std::string(c.file) + "." + ref::name(c.type) + ".";
    std::vector<std::string> variants{prefix + "n16.ptx"};
    if (DIR *dir = opendir(ptxDir.c_str())) {
      while (dirent *e = readdir(dir)) {
        std::string f = e->d_name;
        if (f.rfind(prefix, 0) == 0 && f.size() > 8 && f.substr(f.size() - 8) == ".n16.ptx" && f != variants[0])
          variants.push_back(f);
      }
      closedir(dir);
      std::sort(variants.begin() + 1, variants.end());
    }
    ref::Buffer x(c.type, c.n), y(c.type, c.n), out(c.type, c.n);
    fillRandom(x, ec->lo, ec->hi, ++seed);
    fillRandom(y, ec->lo, ec->hi, ++seed);
    Device dx(x.data.size()), dy(y.data.size()), dout(out.data.size());
    CHECK_CU(D->cuMemcpyHtoD(dx.ptr, x.data.data(), x.data.size()));
    CHECK_CU(D->cuMemcpyHtoD(dy.ptr, y.data.data(), y.data.size()));
    for (const std::string &variant : variants) {
      Result r{std::string(c.file) + "/blk", c.shape, ref::name(c.type), "ok"};
      std::unique_ptr<rt::Module> mod;
      rt::Kernel k;
      s = rt::Module::loadFile(ptxDir + "/" + variant, mod);
      if (s.ok())
        s = mod->kernel(c.kernel, k);
      if (!s.ok()) {
        r.status = "FAIL (" + s.message + ")";
        results.push_back(r);
        continue;
      }
      if (variant != variants[0])
        r.name += "[BLOCK=" + k.signature().constant("BLOCK") + ",warps=" + std::to_string(k.signature().numWarps) + "]";
      out.poison();
      CHECK_CU(D->cuMemcpyHtoD(dout.ptr, out.data.data(), out.data.size()));
      int64_t block = std::stoll(k.signature().constant("BLOCK"));
      rt::Grid grid{unsigned((c.n + block - 1) / block)};
      rt::Arg nArg = k.signature().args[3] == rt::ArgType::I64 ? rt::Arg::i64(int64_t(c.n)) : rt::Arg::i32(int32_t(c.n));
      std::vector<rt::Arg> args{rt::Arg::devicePtr(dx.ptr), rt::Arg::devicePtr(dy.ptr), rt::Arg::devicePtr(dout.ptr), nArg};
      s = k.launch(grid, nullptr, args);
      if (s.ok() && D->cuCtxSynchronize() != CUDA_SUCCESS)
        s = rt::Status::error("kernel failed");
      if (!s.ok()) {
        r.status = "FAIL (" + s.message + ")";
        results.push_back(r);
        continue;
      }
      CHECK_CU(D->cuMemcpyDtoH(out.data.data(), dout.ptr, out.data.size()));
      r.relErr = checkElementwise(x, y, out, ec->fn);
      if (!(r.relErr < ref::tolerance(c.type))) {
        r.status = "FAIL (rel err " + std::to_string(r.relErr) + ")";
        results.push_back(r);
        continue;
      }
      r.us = medianMicros([&] { k.launch(grid, nullptr, args); }, reps);
      double bytes = 3.0 * c.n * ref::bytes(c.type);
      r.gbps = bytes / r.us / 1e3;
      r.pctOfCopy = 100.0 * r.gbps / copyGBps;
      results.push_back(r);
    }
  }

  std::printf("\nblk-bench on %s (median of %d runs, CUDA events)\n\n", devName, reps);
  std::printf("| case | shape | dtype | time (us) | GB/s | %% of copy | rel. error | status |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---|\n");
  for (const Result &r : results)
    std::printf("| %s | %s | %s | %.1f | %.0f | %.1f | %.1e | %s |\n", r.name.c_str(), r.shape.c_str(),
                r.dtype.c_str(), r.us, r.gbps, r.pctOfCopy, r.relErr, r.status.c_str());
  if (!jsonPath.empty()) {
    std::ofstream js(jsonPath);
    js << "{\"device\": \"" << devName << "\", \"reps\": " << reps << ", \"results\": [\n";
    for (size_t i = 0; i < results.size(); ++i) {
      const Result &r = results[i];
      js << "  {\"case\": \"" << r.name << "\", \"shape\": \"" << r.shape << "\", \"dtype\": \"" << r.dtype
         << "\", \"us\": " << r.us << ", \"gbps\": " << r.gbps << ", \"pct_of_copy\": " << r.pctOfCopy
         << ", \"rel_err\": " << r.relErr << ", \"status\": \"" << r.status << "\"}"
         << (i + 1 < results.size() ? ",\n" : "\n");
    }
    js << "]}\n";
  }
  bool failed = std::any_of(results.begin(), results.end(), [](const Result &r) { return r.status != "ok"; });
  return failed ? 1 : 0;
}
