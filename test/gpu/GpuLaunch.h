// The GPU's Launch for the shared kernel cases (test/common): loads
// <file>.<binding values>.ptx, copies host buffers in between poisoned guard
// bands (Guards.h), launches, copies out and checks the bands.
#ifndef BLK_TEST_GPU_GPULAUNCH_H
#define BLK_TEST_GPU_GPULAUNCH_H

#ifdef BLK_GPU_TESTS_THROUGH_JIT
#include "JitLaunch.h"
#else
#include "../common/Guards.h"
#include "../common/RowCases.h"
#include "GpuEnv.h"

namespace blk {

inline std::string gpuLaunch(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                      ref::LaunchGrid grid, std::vector<ref::KArg> args) {
  std::string ptx = file;
  for (auto &[k, v] : bindings) // names as scripts/kernel-variants.sh gives them
    ptx += k == "num_warps" ? ".w" + v : k == "num_stages" ? ".st" + v : k == "release_slots" ? ".rel"
           : k == "ping_pong"   ? ".pp"
           : k == "warp_specialize" ? ".ws"
                                : "." + v;
  gpu::LoadedKernel k;
  if (!gpu::load(ptx + ".ptx", kernel, k))
    return gpu::lastError();
  const auto &sig = k.kernel.signature();
  if (sig.args.size() != args.size())
    return "argument count mismatch for " + kernel;
  std::vector<std::unique_ptr<gpu::DeviceBuffer>> buffers;
  std::vector<rt::Arg> launchArgs;
  for (size_t i = 0; i < args.size(); ++i) {
    const ref::KArg &a = args[i];
    if (a.kind == ref::KArg::Buf) {
      buffers.push_back(std::make_unique<gpu::DeviceBuffer>(ref::guardedImage(*a.buf, i)));
      launchArgs.push_back(rt::Arg::devicePtr(buffers.back()->ptr + ref::kGuardBytes));
    } else if (a.kind == ref::KArg::Int) {
      launchArgs.push_back(gpu::sizeArg(k.kernel, unsigned(i), a.i));
    } else {
      launchArgs.push_back(rt::Arg::f32(float(a.f)));
    }
  }
  rt::Status s = k.kernel.launch(rt::Grid{grid.x, grid.y, grid.z}, nullptr, launchArgs);
  if (!s.ok())
    return s.message;
  if (!gpu::synchronize())
    return gpu::lastError();
  std::string damaged;
  size_t next = 0;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == ref::KArg::Buf) {
      std::vector<uint8_t> image(buffers[next]->bytes);
      buffers[next++]->download(image);
      std::string e = ref::takeGuardedImage(image, *args[i].buf, i, kernel);
      if (damaged.empty())
        damaged = e;
    }
  return damaged;
}

} // namespace blk
#endif // BLK_GPU_TESTS_THROUGH_JIT

#endif
