// The C++ API on the CPU backend (the CUDA backend is the same code with
// another launcher; it runs where a GPU is).
#include "../common/Reference.h"
#include "../common/TestSeed.h"
#include "blk/blk.h"

#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <gtest/gtest.h>

namespace {

std::string kernelPath(const char *file) { return std::string(BLK_SOURCE_DIR) + "/kernels/" + file + ".blk"; }

TEST(Jit, CompilesSpecializesAndRunsOnTheCPU) {
  blk::Jit jit(blk::Backend::CPU);
  blk::Kernel add;
  blk::Status s = jit.compileFile(kernelPath("vector_add"), "vector_add", {{{"T", "f32"}}}, add);
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(add.constant("BLOCK"), "1024");
  BLK_SEEDED_RNG(rng);
  for (size_t n : {size_t(1000), size_t(4096), size_t(8192)}) {
    blk::ref::Buffer x(blk::ref::DType::F32, n), y(blk::ref::DType::F32, n), out(blk::ref::DType::F32, n);
    x.fillUniform(rng, -1, 1);
    y.fillUniform(rng, -1, 1);
    void *dx, *dy, *dout;
    ASSERT_TRUE(jit.alloc(n * 4, &dx).ok());
    ASSERT_TRUE(jit.alloc(n * 4, &dy).ok());
    ASSERT_TRUE(jit.alloc(n * 4, &dout).ok());
    jit.upload(dx, x.data.data(), n * 4);
    jit.upload(dy, y.data.data(), n * 4);
    s = add.launch({blk::cdiv(n, 1024)}, {dx, dy, dout, int32_t(n)});
    ASSERT_TRUE(s.ok()) << s.message;
    jit.download(out.data.data(), dout, n * 4);
    std::vector<double> expect(n);
    for (size_t i = 0; i < n; ++i)
      expect[i] = x.get(i) + y.get(i);
    EXPECT_LT(blk::ref::relativeError(out, expect), 1e-6);
    EXPECT_EQ(add.specialization({dx, dy, dout, int32_t(n)}),
              n % 16 ? "X:16,Y:16,Out:16" : "X:16,Y:16,Out:16,n:16");
    jit.free(dx);
    jit.free(dy);
    jit.free(dout);
  }
  // 1000 and {4096, 8192} need two variants: n is a multiple of 16 or not.
  EXPECT_EQ(add.numVariants(), 2u);
}

TEST(Jit, SpecializationCanBeTurnedOff) {
  blk::Jit jit(blk::Backend::CPU);
  blk::Kernel add;
  blk::KernelOptions options{{{"T", "f32"}}};
  options.doNotSpecialize = {"n", "X"};
  ASSERT_TRUE(jit.compileFile(kernelPath("vector_add"), "vector_add", options, add).ok());
  int dummy;
  EXPECT_EQ(add.specialization({&dummy, &dummy, &dummy, int32_t(16)}),
            (uintptr_t(&dummy) % 16 ? "" : "Y:16,Out:16"));
  EXPECT_EQ(add.specialization({(void *)0x1000, (void *)0x1008, (void *)0x1010, int32_t(1)}), "Out:16");
}

TEST(Jit, LaunchArgumentsAreChecked) {
  blk::Jit jit(blk::Backend::CPU);
  blk::Kernel add;
  ASSERT_TRUE(jit.compileFile(kernelPath("vector_add"), "vector_add", {{{"T", "f32"}}}, add).ok());
  void *p;
  ASSERT_TRUE(jit.alloc(64, &p).ok());
  auto message = [&](const std::vector<blk::KernelArg> &args) { return add.launch({1}, args).message; };
  EXPECT_EQ(message({p, p}), "kernel 'vector_add' takes 4 arguments, got 2");
  EXPECT_EQ(message({p, p, 1.5f, int32_t(4)}), "argument 2 ('Out') of kernel 'vector_add' must be a pointer, got a float");
  EXPECT_EQ(message({p, p, (void *)nullptr, int32_t(4)}), "argument 2 ('Out') of kernel 'vector_add' is a null pointer");
  EXPECT_EQ(message({p, p, p, int64_t(1) << 40}), "argument 3 ('n') = 1099511627776 does not fit in i32");
  // Reaching past the allocation is caught by the CPU backend, with the op's location.
  std::string oob = message({p, p, p, int32_t(32)});
  EXPECT_NE(oob.find("vector_add.blk:7:9: error: out-of-bounds load"), std::string::npos) << oob;
}

// A tensor descriptor passes its base, sizes and outer strides; blocks past
// its sizes read as zero. X is 10 x 5 in rows of 8 (columns 5..7 padding);
// [4, 8] blocks over 3 programs copy it into a 12 x 8 Y.
TEST(Jit, TensorDescriptorArguments) {
  blk::Jit jit(blk::Backend::CPU);
  blk::Kernel copy;
  const char *source = R"(
@kernel
def copy_blocks(xd: tensor_descriptor(f32, [4, 8]), Y: *f32):
    rows = program_id(0) * 4 + arange(0, 4)
    cols = arange(0, 8)
    store(Y + rows[:, None] * 8 + cols[None, :], xd.load([program_id(0) * 4, 0]))
)";
  blk::Status s = jit.compileSource(source, "copy_blocks", {}, copy);
  ASSERT_TRUE(s.ok()) << s.message;
  std::vector<float> x(10 * 8), y(12 * 8, -1.0f);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i);
  void *dx, *dy;
  ASSERT_TRUE(jit.alloc(x.size() * 4, &dx).ok());
  ASSERT_TRUE(jit.alloc(y.size() * 4, &dy).ok());
  jit.upload(dx, x.data(), x.size() * 4);
  jit.upload(dy, y.data(), y.size() * 4);
  std::vector<blk::KernelArg> args;
  ASSERT_TRUE((blk::TensorDescriptor{dx, {10, 5}, {8, 1}}.appendArgs(args)).ok());
  EXPECT_EQ(args.size(), 4u); // base, two sizes, the outer stride
  args.emplace_back(dy);
  s = copy.launch({3}, args);
  ASSERT_TRUE(s.ok()) << s.message;
  jit.download(y.data(), dy, y.size() * 4);
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 8; ++c)
      EXPECT_EQ(y[r * 8 + c], r < 10 && c < 5 ? float(r * 8 + c) : 0.0f) << r << ", " << c;
  std::vector<blk::KernelArg> bad;
  EXPECT_EQ((blk::TensorDescriptor{dx, {5, 10}, {1, 5}}.appendArgs(bad)).message,
            "a tensor descriptor's last stride must be 1, got 5");
  EXPECT_EQ((blk::TensorDescriptor{dx, {10, 5}, {8}}.appendArgs(bad)).message,
            "a tensor descriptor needs as many strides as sizes (one or more), got 2 sizes and 1 strides");
  EXPECT_EQ((blk::TensorDescriptor{dx, {int64_t(1) << 31, 5}, {8, 1}}.appendArgs(bad)).message,
            "a tensor descriptor's sizes are 32-bit: 2147483648 is out of range");
  EXPECT_TRUE(bad.empty());
  jit.free(dx);
  jit.free(dy);
}

// Which launch arguments are tensor descriptor parameters' bases (not a
// pointer the body makes a descriptor of) and their block shapes, as compiled
// and as read back from the disk cache's description of the kernel (Python
// checks a TensorDescriptor's block_shape against them).
TEST(Jit, TensorDescriptorBlockShapes) {
  std::string dir = testing::TempDir() + "blk-jit-descriptor-blocks-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  const char *source = R"(
@kernel
def k(xd: tensor_descriptor(f32, [BM, 8]), Y: *f32, yd: tensor_descriptor(f32, [2, 4, 16]), BM: constexpr = 4):
    yd.store([0, 0, 0], zeros([2, 4, 16], f32) + sum(sum(xd.load([0, 0]), axis=1), axis=0))
    make_tensor_descriptor(Y, [8, 8], [8, 1], [4, 4]).store([0, 0], zeros([4, 4], f32))
)";
  for (bool cached : {false, true}) {
    blk::Jit jit(blk::Backend::CPU);
    jit.setCacheDirectory(dir);
    blk::Kernel k;
    blk::Status s = jit.compileSource(source, "k", {{{"BM", "32"}}}, k);
    ASSERT_TRUE(s.ok()) << s.message;
    EXPECT_EQ(jit.cacheStats().descriptionHits, cached ? 1u : 0u);
    // xd: base, 2 sizes, 1 stride; Y; yd: base, 3 sizes, 2 strides.
    EXPECT_EQ(k.descriptorBlock(0), (std::vector<int64_t>{32, 8})) << cached;
    for (size_t i : {1, 2, 3, 4, 6, 11, 12})
      EXPECT_TRUE(k.descriptorBlock(i).empty()) << i << " " << cached;
    EXPECT_EQ(k.descriptorBlock(5), (std::vector<int64_t>{2, 4, 16})) << cached;
  }
  std::filesystem::remove_all(dir);
}

TEST(Jit, CompileErrorsCarryLocationAndCaret) {
  blk::Jit jit(blk::Backend::CPU);
  blk::Kernel k;
  blk::Status s = jit.compileSource("@kernel\ndef k(X: *f32):\n    store(X, foo)\n", "k", {}, k, "inline.blk");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message.find("inline.blk:3:14: error: unknown name 'foo'"), std::string::npos) << s.message;
  EXPECT_NE(s.message.find("             ^"), std::string::npos) << s.message;
}

TEST(Jit, CudaBackendSaysWhyItIsUnavailable) {
  blk::Jit jit(blk::Backend::CUDA);
  if (jit.available().ok())
    GTEST_SKIP() << "a GPU is present";
  blk::Kernel k;
  ASSERT_TRUE(jit.compileFile(kernelPath("vector_add"), "vector_add", {{{"T", "f32"}}}, k).ok());
  blk::Status s = k.launch({1}, {(void *)0x1000, (void *)0x1000, (void *)0x1000, int32_t(16)});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("CUDA driver"), std::string::npos) << s.message;
}

} // namespace

extern "C" int blk_jit_c_test(const char *kernelPath, char *message, size_t size);

namespace {
TEST(JitC, CompilesAndLaunchesFromC) {
  char message[1024] = "";
  EXPECT_EQ(blk_jit_c_test((std::string(BLK_SOURCE_DIR) + "/kernels/vector_add.blk").c_str(), message, sizeof message), 0)
      << message;
}

/// Compiles k.blk of `dir` through a Jit caching in `dir`/cache and returns
/// what k makes of 1.5 (and whether its description came from the cache).
float importedScale(const std::string &dir, bool &descriptionHit) {
  blk::Jit jit(blk::Backend::CPU);
  jit.setCacheDirectory(dir + "/cache");
  blk::Kernel k;
  blk::Status s = jit.compileFile(dir + "/k.blk", "k", {}, k);
  EXPECT_TRUE(s.ok()) << s.message;
  descriptionHit = jit.cacheStats().descriptionHits == 1;
  float x = 1.5f;
  void *dx;
  if (!s.ok() || !jit.alloc(4, &dx).ok())
    return NAN;
  jit.upload(dx, &x, 4);
  s = k.launch({1}, {dx});
  EXPECT_TRUE(s.ok()) << s.message;
  jit.download(&x, dx, 4);
  jit.free(dx);
  return x;
}

// A file a kernel imports is part of it: after an edit of the imported file
// the disk cache's entries of the importing file are not hits.
TEST(Jit, ImportedFilesArePartOfTheCacheKey) {
  std::string dir = testing::TempDir() + "blk-jit-imports-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/k.blk") << "from helpers import scale\n@kernel\ndef k(X: *f32):\n    store(X, scale(load(X)))\n";
  std::ofstream(dir + "/helpers.blk") << "def scale(x):\n    return x * 2.0\n";
  bool hit;
  EXPECT_EQ(importedScale(dir, hit), 3.0f);
  EXPECT_FALSE(hit);
  EXPECT_EQ(importedScale(dir, hit), 3.0f);
  EXPECT_TRUE(hit);
  std::ofstream(dir + "/helpers.blk") << "def scale(x):\n    return x * 3.0\n";
  EXPECT_EQ(importedScale(dir, hit), 4.5f);
  EXPECT_FALSE(hit);
  std::filesystem::remove_all(dir);
}
} // namespace

namespace {
// static_print prints as a variant compiles (on the first launch of each
// specialization), not when compileSource describes the kernel, and not on a
// launch that reuses a variant.
TEST(Jit, StaticPrintOncePerCompiledVariant) {
  blk::Jit jit(blk::Backend::CPU);
  jit.setCacheDirectory(""); // a disk hit would compile (and print) nothing
  const char *src = "@kernel\n"
                    "def k(X: *f32, n: i32, BLOCK: constexpr = 4):\n"
                    "    static_print(\"compiling k: BLOCK =\", BLOCK, \"n:\", n)\n"
                    "    offs = arange(0, BLOCK)\n"
                    "    store(X + offs, load(X + offs, mask=offs < n) + 1.0, mask=offs < n)\n";
  blk::Kernel k;
  testing::internal::CaptureStderr();
  blk::Status s = jit.compileSource(src, "k", {}, k);
  std::string printed = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(s.ok()) << s.message;
  EXPECT_EQ(printed, "");
  void *dx;
  ASSERT_TRUE(jit.alloc(64, &dx).ok());
  const std::string line = "compiling k: BLOCK = 4 n: i32\n";
  // n = 16 selects the n:16 variant; 3 and 5 share the unspecialized one.
  for (auto [n, expected] : {std::pair{3, line}, {3, ""}, {16, line}, {5, ""}}) {
    testing::internal::CaptureStderr();
    s = k.launch({1}, {dx, int32_t(n)});
    printed = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(s.ok()) << s.message;
    EXPECT_EQ(printed, expected) << "n = " << n;
  }
  EXPECT_EQ(k.numVariants(), 2u);
  jit.free(dx);
}

// target_info's cuda_capability_geq answers for KernelOptions::arch, on the
// CPU backend as on the GPU.
TEST(Jit, TargetQueriesFollowTheArch) {
  blk::Jit jit(blk::Backend::CPU);
  const char *src = "@kernel\n"
                    "def k(X: *i32):\n"
                    "    if cuda_capability_geq(9):\n"
                    "        store(X, 90)\n"
                    "    else:\n"
                    "        store(X, 80)\n";
  int32_t *dx;
  ASSERT_TRUE(jit.alloc(4, reinterpret_cast<void **>(&dx)).ok());
  for (auto [arch, expected] : {std::pair{"sm_80", 80}, {"sm_90a", 90}}) {
    blk::KernelOptions options;
    options.arch = arch;
    blk::Kernel k;
    ASSERT_TRUE(jit.compileSource(src, "k", options, k).ok());
    ASSERT_TRUE(k.launch({1}, {static_cast<void *>(dx)}).ok());
    int32_t got = 0;
    ASSERT_TRUE(jit.download(&got, dx, 4).ok());
    EXPECT_EQ(got, expected) << arch;
  }
  jit.free(dx);
}
} // namespace
