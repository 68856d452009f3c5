#include "blk/Jit/DiskCache.h"
#include "blk/blk.h"

#include "llvm/Support/FileSystem.h"
#include <fstream>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string tempDir() {
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory("blk-cache-test", dir);
  return std::string(dir);
}

TEST(DiskCache, HitMissAndKeys) {
  blk::DiskCache cache(tempDir());
  std::string k1 = blk::DiskCache::key({"a", "bc"}), k2 = blk::DiskCache::key({"ab", "c"});
  EXPECT_NE(k1, k2); // parts are length-prefixed
  EXPECT_EQ(k1.size(), 64u);
  EXPECT_FALSE(cache.lookup(k1));
  ASSERT_TRUE(cache.store(k1, std::string("payload\0with nul", 16)));
  auto hit = cache.lookup(k1);
  ASSERT_TRUE(hit);
  EXPECT_EQ(*hit, std::string("payload\0with nul", 16));
  EXPECT_FALSE(cache.lookup(k2));
}

TEST(DiskCache, CorruptOrTruncatedEntriesAreMisses) {
  blk::DiskCache cache(tempDir());
  std::string key = blk::DiskCache::key({"x"});
  ASSERT_TRUE(cache.store(key, std::string(10000, 'p')));
  {
    std::fstream f(cache.pathOf(key), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(200);
    f.put('q'); // flip one payload byte
  }
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_FALSE(llvm::sys::fs::exists(cache.pathOf(key))); // removed, to be rebuilt
  ASSERT_TRUE(cache.store(key, std::string(10000, 'p')));
  ASSERT_EQ(truncate(cache.pathOf(key).c_str(), 5000), 0); // truncated
  EXPECT_FALSE(cache.lookup(key));
  ASSERT_TRUE(cache.store(key, "ok"));
  EXPECT_EQ(*cache.lookup(key), "ok");
}

TEST(DiskCache, EntriesOfAnotherFormatAreMisses) {
  blk::DiskCache cache(tempDir());
  std::string key = blk::DiskCache::key({"old"});
  ASSERT_TRUE(cache.store(key, "payload"));
  {
    // A version-1 entry (SHA-256 checksum) where this version's would be.
    std::ofstream f(cache.pathOf(key), std::ios::binary | std::ios::trunc);
    f << "BLKCACHE1\n" << std::string(64, '0') << '\n' << "payload";
  }
  EXPECT_FALSE(cache.lookup(key));
  EXPECT_FALSE(llvm::sys::fs::exists(cache.pathOf(key)));
}

TEST(DiskCache, ConcurrentWritersLeaveOneValidEntry) {
  blk::DiskCache cache(tempDir());
  std::string key = blk::DiskCache::key({"shared"});
  std::vector<pid_t> children;
  for (int c = 0; c < 8; ++c) {
    pid_t pid = fork();
    if (pid == 0) {
      std::string payload(1 << 20, char('a' + c)); // each writer its own (valid) payload
      for (int i = 0; i < 20; ++i)
        if (!cache.store(key, payload))
          _exit(1);
      _exit(0);
    }
    children.push_back(pid);
  }
  // Read while they write: every read is a miss or a whole payload.
  for (int i = 0; i < 200; ++i)
    if (auto p = cache.lookup(key)) {
      ASSERT_EQ(p->size(), size_t(1) << 20);
      ASSERT_EQ(p->find_first_not_of((*p)[0]), std::string::npos);
    }
  for (pid_t pid : children) {
    int status;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto final = cache.lookup(key);
  ASSERT_TRUE(final);
  EXPECT_EQ(final->size(), size_t(1) << 20);
  std::error_code ec;
  int leftovers = 0;
  for (llvm::sys::fs::recursive_directory_iterator it(cache.directory(), ec), end; it != end && !ec; it.increment(ec))
    leftovers += llvm::StringRef(it->path()).contains(".tmp-");
  EXPECT_EQ(leftovers, 0);
}

TEST(DiskCache, DirectoryFromEnvironment) {
  setenv("BLK_CACHE_DIR", "/tmp/blk-env-cache", 1);
  EXPECT_EQ(blk::DiskCache::defaultDirectory(), "/tmp/blk-env-cache");
  setenv("BLK_CACHE_DIR", "off", 1);
  EXPECT_EQ(blk::DiskCache::defaultDirectory(), "");
  unsetenv("BLK_CACHE_DIR");
}

// The JIT stores the PTX it compiles and finds it again in a new process
// (here: a new Jit); no GPU is needed to reach the point of loading it.
TEST(DiskCache, JitCompilesOnceAcrossInstances) {
  std::string dir = tempDir();
  std::string path = std::string(BLK_SOURCE_DIR) + "/kernels/vector_add.blk";
  std::vector<blk::KernelArg> args{(void *)0x1000, (void *)0x2000, (void *)0x3000, int32_t(64)};
  auto launchOnce = [&]() {
    blk::Jit jit(blk::Backend::CUDA);
    jit.setCacheDirectory(dir);
    blk::Kernel k;
    EXPECT_TRUE(jit.compileFile(path, "vector_add", {{{"T", "f32"}}}, k).ok());
    blk::Status s = k.launch({1}, args);
    if (!jit.available().ok()) {
      EXPECT_FALSE(s.ok());
    }
    return jit.cacheStats();
  };
  auto first = launchOnce();
  EXPECT_EQ(first.compiles, 1u);
  EXPECT_EQ(first.diskHits, 0u);
  EXPECT_EQ(first.descriptionHits, 0u);
  auto second = launchOnce();
  EXPECT_EQ(second.compiles, 0u);
  EXPECT_EQ(second.diskHits, 1u);
  EXPECT_EQ(second.descriptionHits, 1u); // the source was not parsed again
}

} // namespace
