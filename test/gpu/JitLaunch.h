// The JIT's Launch for the shared kernel cases (test/common): compiles the
// kernel from its .blk source in process (blk::Jit, CUDA backend), with the
// specialization the actual arguments select, and runs it on buffers between
// poisoned guard bands (Guards.h), checked after the run. Included by
// GpuLaunch.h in blk-jit-gpu-tests, so that the GPU tests run a second time
// through the C++ API instead of precompiled PTX.
#ifndef BLK_TEST_GPU_JITLAUNCH_H
#define BLK_TEST_GPU_JITLAUNCH_H

#include "../common/Guards.h"
#include "../common/RowCases.h"
#include "GpuEnv.h"
#include "blk/blk.h"

#include <cstdlib>
#include <fstream>

namespace blk {

/// One Jit for the whole binary: variants compiled once are reused.
inline Jit &testJit() {
  static Jit jit(Backend::CUDA);
  static bool once = (jit.setCacheDirectory(""), true); // compile every variant here, not from an earlier run's cache
  (void)once;
  return jit;
}

/// kernels/<file>.blk, or test/kernels/<file>.blk (BLK_SOURCE_DIR overrides the root).
inline std::string kernelSourcePath(const std::string &file) {
  const char *root = std::getenv("BLK_SOURCE_DIR");
  std::string base = root ? root : BLK_DEFAULT_SOURCE_DIR;
  std::string shipped = base + "/kernels/" + file + ".blk";
  return std::ifstream(shipped).good() ? shipped : base + "/test/kernels/" + file + ".blk";
}

inline std::string gpuLaunch(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                             ref::LaunchGrid grid, std::vector<ref::KArg> args) {
  Jit &jit = testJit();
  KernelOptions options;
  // BLK_TEST_NUM_STAGES=3 runs every kernel with its loop loads pipelined.
  if (const char *stages = std::getenv("BLK_TEST_NUM_STAGES"))
    options.numStages = unsigned(std::atoi(stages));
  for (auto &[key, value] : bindings) {
    if (key == "num_warps")
      options.numWarps = unsigned(std::stoi(value));
    else if (key == "num_stages")
      options.numStages = unsigned(std::stoi(value));
    else if (key == "release_slots")
      options.releaseSlots = value == "True";
    else if (key == "ping_pong")
      options.pingPong = value == "True";
    else if (key == "warp_specialize")
      options.warpSpecialize = value == "True";
    else if (key != "spec") // the JIT specializes on the arguments itself
      options.constants[key] = value;
  }
  Kernel k;
  Status s = jit.compileFile(kernelSourcePath(file), kernel, options, k);
  if (!s.ok())
    return s.message;
  std::vector<void *> buffers;
  std::vector<KernelArg> launchArgs;
  auto release = [&] {
    for (void *p : buffers)
      jit.free(p);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const ref::KArg &a = args[i];
    if (a.kind == ref::KArg::Buf) {
      std::vector<uint8_t> image = ref::guardedImage(*a.buf, i);
      void *p = nullptr;
      if (!(s = jit.alloc(image.size(), &p)).ok() || !(s = jit.upload(p, image.data(), image.size())).ok()) {
        release();
        return s.message;
      }
      buffers.push_back(p);
      launchArgs.emplace_back(static_cast<void *>(static_cast<char *>(p) + ref::kGuardBytes));
    } else if (a.kind == ref::KArg::Int) {
      launchArgs.emplace_back(int64_t(a.i));
    } else {
      launchArgs.emplace_back(double(a.f));
    }
  }
  s = k.launch({grid.x, grid.y, grid.z}, launchArgs);
  if (s.ok())
    s = jit.synchronize();
  std::string damaged;
  size_t next = 0;
  for (size_t i = 0; i < args.size() && s.ok(); ++i)
    if (args[i].kind == ref::KArg::Buf) {
      std::vector<uint8_t> image(args[i].buf->data.size() + 2 * ref::kGuardBytes);
      s = jit.download(image.data(), buffers[next++], image.size());
      std::string e = ref::takeGuardedImage(image, *args[i].buf, i, kernel);
      if (damaged.empty())
        damaged = e;
    }
  release();
  return s.ok() ? damaged : s.message;
}

} // namespace blk

#endif
