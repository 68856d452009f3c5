// SwiGLU and GeGLU (tanh and erf) forward and backward on the GPU against
// float64 (test/common/GluCases.h): every variant, the unspecialized build at
// sizes that are not multiples of 16 or of the block, the .n16 build at
// multiples of 16, and the backward in place. Skips (saying why) without a
// GPU.
#include "../common/GluCases.h"
#include "../common/Guards.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

// No single element (see test/interp/GluTest.cpp): the exact GeGLU's f32
// 1 + erf(a / sqrt(2)) loses its digits where a < -4.
TEST(Glu, ForwardAndBackwardEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  const size_t mib = size_t(1) << 20;
  for (const ref::GluKind &k : ref::gluKinds())
    for (ref::DType t : ref::kAllTypes) {
      SCOPED_TRACE(std::string(k.name) + " " + ref::name(t));
      for (size_t n : {size_t(7), size_t(15), size_t(1000), size_t(4097), mib + 3})
        ref::expectChecks(ref::gluCase(gpuLaunch, k, t, n, false, rng));
      for (size_t n : {size_t(16), size_t(1008), size_t(4112), mib + 16, 3 * mib})
        ref::expectChecks(ref::gluCase(gpuLaunch, k, t, n, true, rng));
    }
}

/// The backward with dA and dB written over A and B (one device buffer
/// each, between guard bands).
std::string gpuInPlace(const std::string &file, const ref::Bindings &bindings, const std::string &kernel, unsigned grid,
                       ref::Buffer &dc, ref::Buffer &a, ref::Buffer &b, int64_t n) {
  std::string ptx = file;
  for (auto &[key, value] : bindings)
    ptx += "." + value;
  gpu::LoadedKernel k;
  if (!gpu::load(ptx + ".ptx", kernel, k))
    return gpu::lastError();
  std::vector<ref::Buffer *> host{&dc, &a, &b};
  std::vector<std::unique_ptr<gpu::DeviceBuffer>> device;
  for (size_t i = 0; i < host.size(); ++i)
    device.push_back(std::make_unique<gpu::DeviceBuffer>(ref::guardedImage(*host[i], i)));
  auto at = [&](size_t i) { return rt::Arg::devicePtr(device[i]->ptr + ref::kGuardBytes); };
  rt::Status s =
      k.kernel.launch(rt::Grid{grid, 1, 1}, nullptr, {at(0), at(1), at(2), at(1), at(2), gpu::sizeArg(k.kernel, 5, n)});
  if (!s.ok())
    return s.message;
  if (!gpu::synchronize())
    return gpu::lastError();
  std::string damaged;
  for (size_t i = 0; i < host.size(); ++i) {
    std::vector<uint8_t> image(device[i]->bytes);
    device[i]->download(image);
    std::string e = ref::takeGuardedImage(image, *host[i], i, kernel);
    if (damaged.empty())
      damaged = e;
  }
  return damaged;
}

TEST(Glu, BackwardInPlace) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  for (const ref::GluKind &k : ref::gluKinds())
    for (ref::DType t : ref::kAllTypes)
      for (size_t n : {size_t(7), size_t(4097), (size_t(1) << 20) + 5}) {
        SCOPED_TRACE(std::string(k.name) + " " + ref::name(t) + " n=" + std::to_string(n));
        ref::expectChecks(ref::gluInPlaceCase(gpuInPlace, k, t, n, rng));
      }
}

} // namespace
