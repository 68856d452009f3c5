// The C++ JIT on the GPU: a second process's (here: a second Jit's) launch
// served by the disk cache, specialization chosen from the arguments, and
// launch errors that come back as text, never as a fault.
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "JitLaunch.h"

#include "llvm/Support/FileSystem.h"

using namespace blk;

namespace {

struct VectorAdd {
  Jit &jit;
  int n;
  std::vector<float> x, y;
  void *dx = nullptr, *dy = nullptr, *dout = nullptr;
  VectorAdd(Jit &j, int n) : jit(j), n(n), x(n), y(n) {
    std::mt19937_64 rng(ref::testSeed()); // exact sums: any inputs do
    std::uniform_real_distribution<float> dist(-4, 4);
    for (int i = 0; i < n; ++i) {
      x[i] = dist(rng);
      y[i] = dist(rng);
    }
    jit.alloc(size_t(n) * 4, &dx);
    jit.alloc(size_t(n) * 4, &dy);
    jit.alloc(size_t(n) * 4, &dout);
    jit.upload(dx, x.data(), size_t(n) * 4);
    jit.upload(dy, y.data(), size_t(n) * 4);
    std::vector<uint8_t> poison(size_t(n) * 4, 0xff);
    jit.upload(dout, poison.data(), poison.size());
  }
  ~VectorAdd() {
    for (void *p : {dx, dy, dout})
      jit.free(p);
  }
  std::vector<KernelArg> args() const { return {dx, dy, dout, int32_t(n)}; }
  /// Launches `k` and returns the number of wrong elements (NaN counts).
  int run(Kernel &k) {
    Status s = k.launch({cdiv(n, std::stoul(k.constant("BLOCK")))}, args());
    EXPECT_TRUE(s.ok()) << s.message;
    EXPECT_TRUE(jit.synchronize().ok());
    std::vector<float> out(n);
    jit.download(out.data(), dout, size_t(n) * 4);
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      wrong += !(out[i] == x[i] + y[i]);
    return wrong;
  }
};

TEST(Jit, DiskCacheServesASecondJit) {
  BLK_REQUIRE_GPU();
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory("blk-jit-gpu-test", dir);
  std::string path = kernelSourcePath("vector_add");
  for (int round = 0; round < 2; ++round) {
    Jit jit(Backend::CUDA);
    jit.setCacheDirectory(std::string(dir));
    Kernel k;
    Status s = jit.compileFile(path, "vector_add", {{{"T", "f32"}}}, k);
    ASSERT_TRUE(s.ok()) << s.message;
    VectorAdd va(jit, 100003);
    EXPECT_EQ(va.run(k), 0);
    Jit::CacheStats stats = jit.cacheStats();
    EXPECT_EQ(stats.diskHits, round == 0 ? 0u : 1u) << "round " << round;
    EXPECT_EQ(stats.compiles, round == 0 ? 1u : 0u) << "round " << round;
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST(Jit, SpecializationFollowsTheArguments) {
  BLK_REQUIRE_GPU();
  Jit &jit = testJit();
  Kernel k;
  Status s = jit.compileFile(kernelSourcePath("vector_add"), "vector_add", {{{"T", "f32"}}}, k);
  ASSERT_TRUE(s.ok()) << s.message;
  for (int n : {4096, 4099}) { // a multiple of 16 selects the n:16 variant
    VectorAdd va(jit, n);
    EXPECT_EQ(va.run(k), 0) << n;
    std::string spec = k.specialization(va.args());
    EXPECT_NE(spec.find("X:16"), std::string::npos) << spec;
    EXPECT_EQ(spec.find("n:16") != std::string::npos, n % 16 == 0) << spec;
  }
}

TEST(Jit, LaunchErrorsAreReadable) {
  BLK_REQUIRE_GPU();
  Jit &jit = testJit();
  Kernel k;
  ASSERT_TRUE(jit.compileFile(kernelSourcePath("vector_add"), "vector_add", {{{"T", "f32"}}}, k).ok());
  VectorAdd va(jit, 1000);
  Status s = k.launch({1}, {va.dx, va.dy, va.dout});
  EXPECT_NE(s.message.find("takes 4 arguments, got 3"), std::string::npos) << s.message;
  s = k.launch({1}, {va.dx, va.dy, 2.5f, int32_t(1000)});
  EXPECT_NE(s.message.find("must be a pointer, got a float"), std::string::npos) << s.message;
  s = k.launch({1}, {va.dx, va.dy, static_cast<void *>(nullptr), int32_t(1000)});
  EXPECT_NE(s.message.find("null pointer"), std::string::npos) << s.message;
  s = k.launch({1}, {va.dx, va.dy, va.dout, int64_t(1) << 40});
  EXPECT_NE(s.message.find("does not fit in i32"), std::string::npos) << s.message;
  EXPECT_EQ(va.run(k), 0); // the kernel still runs after refused launches
}

} // namespace
