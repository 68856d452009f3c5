// Each elementwise kernel of kernels/, every dtype, on the GPU against a
// float64 reference (test/common/ElementwiseCases.h, through gpuLaunch: guard
// bands, per-element check): the unspecialized variant at sizes that are not
// multiples of 16 or of the block, the .n16 variant at multiples of 16 that
// are not multiples of the block (and at some that are). Skips (saying why)
// without a GPU.
#include "../common/ElementwiseCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

#include <thread>

#include <gtest/gtest.h>

using namespace blk;

namespace {

struct Param {
  size_t caseIndex;
  ref::DType type;
  size_t n;
  bool n16;
};

std::string paramName(const testing::TestParamInfo<Param> &info) {
  const auto &c = ref::elementwiseCases()[info.param.caseIndex];
  return std::string(c.file) + "_" + ref::name(info.param.type) + "_n" + std::to_string(info.param.n) +
         (info.param.n16 ? "_n16" : "");
}

class Elementwise : public testing::TestWithParam<Param> {};

TEST_P(Elementwise, MatchesFloat64Reference) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  const Param &p = GetParam();
  ref::expectChecks(ref::elementwiseCase(gpuLaunch, ref::elementwiseCases()[p.caseIndex], p.type, p.n, p.n16, rng));
}

std::vector<Param> allParams() {
  const size_t mib = size_t(1) << 20;
  std::vector<Param> ps;
  for (size_t c = 0; c < ref::elementwiseCases().size(); ++c)
    for (ref::DType t : {ref::DType::F32, ref::DType::F16, ref::DType::BF16}) {
      for (size_t n : {size_t(1), size_t(15), size_t(1000), size_t(1008), size_t(4097), mib + 3})
        ps.push_back({c, t, n, false});
      for (size_t n : {size_t(16), size_t(1008), size_t(4112), size_t(1) << 16, mib + 16, 3 * mib})
        ps.push_back({c, t, n, true});
    }
  return ps;
}

INSTANTIATE_TEST_SUITE_P(Kernels, Elementwise, testing::ValuesIn(allParams()), paramName);

// The runtime refuses bad launches with a message, never a fault.
TEST(Launch, ChecksArguments) {
  BLK_REQUIRE_GPU();
  gpu::LoadedKernel k;
  ASSERT_TRUE(gpu::load("vector_add.f32.n16.ptx", "vector_add", k)) << gpu::lastError();
  ref::Buffer host(ref::DType::F32, 64);
  std::mt19937_64 rng(1); // any values: only the launch checks matter
  host.fillUniform(rng, 0, 1);
  gpu::DeviceBuffer d(host);
  rt::Grid grid{1};
  rt::Status s = k.kernel.launch(grid, nullptr, {rt::Arg::devicePtr(d.ptr)});
  EXPECT_NE(s.message.find("takes 4 arguments, got 1"), std::string::npos) << s.message;
  s = k.kernel.launch(grid, nullptr, {rt::Arg::devicePtr(d.ptr), rt::Arg::devicePtr(d.ptr), rt::Arg::devicePtr(d.ptr),
                                      rt::Arg::f32(1.0f)});
  EXPECT_NE(s.message.find("must be i32, got f32"), std::string::npos) << s.message;
  s = k.kernel.launch(grid, nullptr, {rt::Arg::devicePtr(d.ptr), rt::Arg::devicePtr(d.ptr), rt::Arg::devicePtr(d.ptr),
                                      rt::Arg::i32(63)});
  EXPECT_NE(s.message.find("must be a multiple of 16"), std::string::npos) << s.message;
  s = k.kernel.launch(grid, nullptr, {rt::Arg::devicePtr(d.ptr + 4), rt::Arg::devicePtr(d.ptr), rt::Arg::devicePtr(d.ptr),
                                      rt::Arg::i32(48)});
  EXPECT_NE(s.message.find("must be aligned to 16"), std::string::npos) << s.message;
  s = k.kernel.launch(grid, nullptr, {rt::Arg::devicePtr(0), rt::Arg::devicePtr(d.ptr), rt::Arg::devicePtr(d.ptr),
                                      rt::Arg::i32(48)});
  EXPECT_NE(s.message.find("null pointer"), std::string::npos) << s.message;
}

// A thread that never touched CUDA (PyTorch's autograd device threads run
// backward ops) loads and launches: the runtime makes the primary context
// current there first instead of failing with CUDA_ERROR_INVALID_CONTEXT.
TEST(Launch, FromAThreadWithoutAContext) {
  BLK_REQUIRE_GPU();
  ref::Buffer x(ref::DType::F32, 64), out(ref::DType::F32, 64);
  std::mt19937_64 rng(1); // exact sums: any values do
  x.fillUniform(rng, -4, 4);
  out.fillUniform(rng, 100, 101); // poison
  gpu::DeviceBuffer dx(x), dout(out);
  std::string error;
  std::thread worker([&] {
    gpu::LoadedKernel k;
    if (!gpu::load("vector_add.f32.n16.ptx", "vector_add", k)) {
      error = gpu::lastError();
      return;
    }
    rt::Status s = k.kernel.launch(rt::Grid{1}, nullptr, {rt::Arg::devicePtr(dx.ptr), rt::Arg::devicePtr(dx.ptr),
                                                          rt::Arg::devicePtr(dout.ptr), rt::Arg::i32(64)});
    if (!s.ok())
      error = s.message;
  });
  worker.join();
  ASSERT_EQ(error, "");
  ASSERT_TRUE(gpu::synchronize()) << gpu::lastError();
  dout.download(out);
  for (size_t i = 0; i < 64; ++i)
    EXPECT_EQ(out.get(i), 2 * x.get(i)) << i;
}

} // namespace
