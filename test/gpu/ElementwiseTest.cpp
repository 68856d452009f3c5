// Each elementwise kernel of kernels/, every dtype, on the GPU against a
// float64 reference: fresh random inputs every run, outputs poisoned first,
// sizes that are not multiples of the block. Skips (saying why) without a GPU.
#include "../common/Reference.h"
#include "GpuEnv.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

struct Param {
  size_t caseIndex;
  ref::DType type;
  size_t n;
};

std::string paramName(const testing::TestParamInfo<Param> &info) {
  const auto &c = ref::elementwiseCases()[info.param.caseIndex];
  return std::string(c.file) + "_" + ref::name(info.param.type) + "_n" + std::to_string(info.param.n);
}

class Elementwise : public testing::TestWithParam<Param> {};

TEST_P(Elementwise, MatchesFloat64Reference) {
  BLK_REQUIRE_GPU();
  const Param &p = GetParam();
  const auto &c = ref::elementwiseCases()[p.caseIndex];
  // Sizes that are multiples of 16 run the specialized (vectorized) variant.
  bool aligned = p.n % 16 == 0;
  std::string ptx = std::string(c.file) + "." + ref::name(p.type) + (aligned ? ".n16" : "") + ".ptx";
  gpu::LoadedKernel k;
  ASSERT_TRUE(gpu::load(ptx, c.kernel, k)) << gpu::lastError();

  std::mt19937_64 rng(std::random_device{}());
  ref::Buffer x(p.type, p.n), y(p.type, p.n), out(p.type, p.n);
  x.fillUniform(rng, c.lo, c.hi);
  y.fillUniform(rng, c.lo, c.hi);
  out.poison();
  gpu::DeviceBuffer dx(x), dy(y), dout(out);

  int64_t block = std::stoll(k.kernel.signature().constant("BLOCK"));
  rt::Grid grid{unsigned((p.n + block - 1) / block)};
  std::vector<rt::Arg> args{rt::Arg::devicePtr(dx.ptr), rt::Arg::devicePtr(dy.ptr), rt::Arg::devicePtr(dout.ptr),
                            gpu::sizeArg(k.kernel, 3, p.n)};
  rt::Status s = k.kernel.launch(grid, nullptr, args);
  ASSERT_TRUE(s.ok()) << s.message;
  ASSERT_TRUE(gpu::synchronize()) << gpu::lastError();
  dout.download(out);

  std::vector<double> expect(p.n);
  for (size_t i = 0; i < p.n; ++i)
    expect[i] = c.fn(x.get(i), y.get(i));
  double err = ref::relativeError(out, expect);
  EXPECT_LT(err, ref::tolerance(p.type)) << c.kernel << " " << ref::name(p.type) << " n=" << p.n;
}

std::vector<Param> allParams() {
  std::vector<Param> ps;
  for (size_t c = 0; c < ref::elementwiseCases().size(); ++c)
    for (ref::DType t : {ref::DType::F32, ref::DType::F16, ref::DType::BF16})
      for (size_t n : {size_t(1), size_t(1000), size_t(4097), size_t(1) << 16, (size_t(1) << 20) + 3, size_t(3) << 20})
        ps.push_back({c, t, n});
  return ps;
}

INSTANTIATE_TEST_SUITE_P(Kernels, Elementwise, testing::ValuesIn(allParams()), paramName);

// The runtime refuses bad launches with a message, never a fault.
TEST(Launch, ChecksArguments) {
  BLK_REQUIRE_GPU();
  gpu::LoadedKernel k;
  ASSERT_TRUE(gpu::load("vector_add.f32.n16.ptx", "vector_add", k)) << gpu::lastError();
  ref::Buffer host(ref::DType::F32, 64);
  std::mt19937_64 rng(1);
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

} // namespace
