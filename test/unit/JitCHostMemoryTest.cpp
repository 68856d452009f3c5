// Runs JitCHostMemoryTest.c: the C API's functions for language bindings.
#include <gtest/gtest.h>

#include <cstddef>

extern "C" int blk_jit_c_host_memory_test(char *message, size_t size);

namespace {
TEST(JitC, HostMemoryNamesSpecializationFromC) {
  char message[1024] = "";
  EXPECT_EQ(blk_jit_c_host_memory_test(message, sizeof message), 0) << message;
}
} // namespace
