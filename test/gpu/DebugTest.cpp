// device_print and device_assert (test/kernels/debug.blk) on the GPU. The
// kernel's printf buffer reaches standard output at the launch's
// synchronization, where the test captures it: the distinct lines must be
// those the interpreter prints (test/interp/DebugTest.cpp). A failing assert
// (__assertfail) leaves the CUDA context unusable, so it runs in a child
// process: gtest's "threadsafe" death test re-executes this binary, and the
// child, with a context of its own, reports the launch's error and exits.
#include "../common/DebugCases.h"
#include "../common/RowTestSupport.h"
#include "GpuLaunch.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace blk;

namespace {

TEST(Debug, DevicePrintLines) {
  BLK_REQUIRE_GPU();
  ref::expectChecks(ref::printedByEveryHolder(ref::devicePrintRun(gpuLaunch)));
}

TEST(Debug, DeviceAssertHolds) {
  BLK_REQUIRE_GPU();
  ref::AssertRun run = ref::deviceAssertRun(gpuLaunch);
  EXPECT_EQ(run.error, "");
  ref::expectChecks(run.checks);
}

// The child's exit status when the launch failed, and when it did not.
constexpr int kLaunchFailed = 3, kLaunchPassed = 4;

// X[200] = 999 fails the assert in program 1; the driver reports it at the
// synchronization (CUDA_ERROR_ASSERT, "device-side assert triggered").
TEST(DebugDeathTest, DeviceAssertFails) {
  BLK_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe"); // a fresh process, not a fork of this one's CUDA context
  EXPECT_EXIT(
      {
        dup2(2, 1); // whatever the driver prints of the assert goes with the stderr gtest shows on failure
        ref::AssertRun run = ref::deviceAssertRun(gpuLaunch, 200);
        std::fprintf(stderr, "launch: %s\n", run.error.empty() ? "no error" : run.error.c_str());
        std::fflush(nullptr);
        std::_Exit(run.error.empty() ? kLaunchPassed : kLaunchFailed);
      },
      testing::ExitedWithCode(kLaunchFailed), "launch: kernel failed: CUDA_ERROR_ASSERT");
}

} // namespace
