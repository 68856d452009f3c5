// Autotuning on the CPU backend (the same code times with CUDA events on a GPU).
#include "../common/Reference.h"
#include "blk/blk.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

namespace {

TEST(Autotune, SearchesOncePerKeyAndReusesTheTuningFile) {
  llvm::SmallString<128> file;
  llvm::sys::fs::createTemporaryFile("blk-tuning", "txt", file);
  llvm::sys::fs::remove(file);
  std::string path = std::string(BLK_SOURCE_DIR) + "/kernels/vector_add.blk";
  std::vector<blk::TuningConfig> configs{{{{"BLOCK", "256"}}, 4}, {{{"BLOCK", "1024"}}, 4}, {{{"BLOCK", "512"}}, 8}};
  auto grid = [](size_t n) {
    return [n](const blk::TuningConfig &c) { return blk::Grid{blk::cdiv(n, std::stoul(c.constants.at("BLOCK")))}; };
  };
  const size_t n = 3000;
  blk::ref::Buffer x(blk::ref::DType::F32, n), y(blk::ref::DType::F32, n), out(blk::ref::DType::F32, n);
  std::mt19937_64 rng(1);
  x.fillUniform(rng, -1, 1);
  y.fillUniform(rng, -1, 1);
  std::string chosen;
  {
    blk::Jit jit(blk::Backend::CPU);
    jit.setTuningFile(std::string(file));
    blk::TunedKernel add;
    blk::Status s = jit.autotune(path, "vector_add", {{{"T", "f32"}}}, configs, {"n"}, add);
    ASSERT_TRUE(s.ok()) << s.message;
    void *dx, *dy, *dout;
    jit.alloc(n * 4, &dx);
    jit.alloc(n * 4, &dy);
    jit.alloc(n * 4, &dout);
    jit.upload(dx, x.data.data(), n * 4);
    jit.upload(dy, y.data.data(), n * 4);
    std::vector<blk::KernelArg> args{dx, dy, dout, int32_t(n)};
    EXPECT_EQ(add.chosen(args), nullptr);
    ASSERT_TRUE(add.launch(grid(n), args).ok());
    ASSERT_TRUE(add.launch(grid(n), args).ok());
    EXPECT_EQ(add.searches(), 1u); // the second launch reused the choice
    ASSERT_NE(add.chosen(args), nullptr);
    chosen = add.chosen(args)->str();
    jit.download(out.data.data(), dout, n * 4);
    std::vector<double> expect(n);
    for (size_t i = 0; i < n; ++i)
      expect[i] = x.get(i) + y.get(i);
    EXPECT_LT(blk::ref::relativeError(out, expect), 1e-6);
    // Another key value searches again.
    std::vector<blk::KernelArg> smaller{dx, dy, dout, int32_t(100)};
    ASSERT_TRUE(add.launch(grid(100), smaller).ok());
    EXPECT_EQ(add.searches(), 2u);
  }
  auto text = llvm::MemoryBuffer::getFile(file);
  ASSERT_TRUE(bool(text));
  EXPECT_NE((*text)->getBuffer().find("vector_add|cpu-interpreter|3000,\t" + chosen), llvm::StringRef::npos)
      << (*text)->getBuffer().str();
  {
    // A new process (here: a new Jit) with the same file does not retune.
    blk::Jit jit(blk::Backend::CPU);
    jit.setTuningFile(std::string(file));
    blk::TunedKernel add;
    ASSERT_TRUE(jit.autotune(path, "vector_add", {{{"T", "f32"}}}, configs, {"n"}, add).ok());
    void *p;
    jit.alloc(n * 4, &p);
    std::vector<blk::KernelArg> args{p, p, p, int32_t(n)};
    ASSERT_NE(add.chosen(args), nullptr);
    EXPECT_EQ(add.chosen(args)->str(), chosen);
    ASSERT_TRUE(add.launch(grid(n), args).ok());
    EXPECT_EQ(add.searches(), 0u);
  }
  llvm::sys::fs::remove(file);
}

/// The config vector_add's autotuning over `configs` takes for n = 3000 when
/// its tuning file holds `line` (so that nothing is timed).
blk::TuningConfig chosenFromTuningFile(const std::string &line, const std::vector<blk::TuningConfig> &configs) {
  llvm::SmallString<128> file;
  llvm::sys::fs::createTemporaryFile("blk-tuning", "txt", file);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << line << "\n";
  }
  blk::Jit jit(blk::Backend::CPU);
  jit.setTuningFile(std::string(file));
  blk::TunedKernel add;
  std::string path = std::string(BLK_SOURCE_DIR) + "/kernels/vector_add.blk";
  blk::TuningConfig chosen;
  if (jit.autotune(path, "vector_add", {{{"T", "f32"}}}, configs, {"n"}, add).ok()) {
    void *p;
    jit.alloc(3000 * 4, &p);
    std::vector<blk::KernelArg> args{p, p, p, int32_t(3000)};
    if (const blk::TuningConfig *c = add.chosen(args))
      chosen = *c;
    jit.free(p);
  }
  llvm::sys::fs::remove(file);
  return chosen;
}

TEST(Autotune, TuningFilesCarryNumStages) {
  blk::TuningConfig piped{{{"BLOCK", "512"}}, 8, 2};
  EXPECT_EQ(piped.str(), "BLOCK=512,num_warps=8,num_stages=2");
  EXPECT_EQ((blk::TuningConfig{{{"BLOCK", "512"}}, 8}).str(), "BLOCK=512,num_warps=8"); // 1 stage: unchanged spelling
  blk::TuningConfig chosen = chosenFromTuningFile("vector_add|cpu-interpreter|3000,\tBLOCK=512,num_warps=8,num_stages=2",
                                                  {piped, {{{"BLOCK", "1024"}}, 4}});
  EXPECT_EQ(chosen.numStages, 2u);
  EXPECT_EQ(chosen.str(), piped.str());
}

// The slots' release and the warpgroups' turns are searched like warps and
// stages: a tuning file's choice with them comes back with them set.
TEST(Autotune, TuningFilesCarryReleaseSlotsAndPingPong) {
  blk::TuningConfig turns{{{"BLOCK", "512"}}, 8, 3, true, true};
  EXPECT_EQ(turns.str(), "BLOCK=512,num_warps=8,num_stages=3,release_slots=1,ping_pong=1");
  blk::TuningConfig chosen = chosenFromTuningFile(
      "vector_add|cpu-interpreter|3000,\tBLOCK=512,num_warps=8,num_stages=3,release_slots=1,ping_pong=1",
      {{{{"BLOCK", "1024"}}, 4}, turns});
  EXPECT_TRUE(chosen.releaseSlots);
  EXPECT_TRUE(chosen.pingPong);
  EXPECT_EQ(chosen.str(), turns.str());
}

TEST(Autotune, ReportsBadKeysAndConfigs) {
  blk::Jit jit(blk::Backend::CPU);
  blk::TunedKernel k;
  std::string path = std::string(BLK_SOURCE_DIR) + "/kernels/vector_add.blk";
  EXPECT_EQ(jit.autotune(path, "vector_add", {{{"T", "f32"}}}, {}, {"n"}, k).message, "autotune: no configs");
  EXPECT_EQ(jit.autotune(path, "vector_add", {{{"T", "f32"}}}, {{{{"BLOCK", "256"}}, 4}}, {"m"}, k).message,
            "autotune: kernel 'vector_add' has no runtime parameter 'm'");
  blk::Status s = jit.autotune(path, "vector_add", {{{"T", "f32"}}}, {{{{"BLOCK", "100"}}, 4}}, {"n"}, k);
  EXPECT_NE(s.message.find("arange's size (end - start) must be a power of two, got 100"), std::string::npos)
      << s.message;
}

} // namespace
