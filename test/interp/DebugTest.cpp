// device_print and device_assert (test/kernels/debug.blk) on the interpreter,
// as the frontend makes the kernels and after the blk passes: the lines the
// GPU test expects, each printed once; an assert that holds, and one that
// stops the run with the program, the index and the message.
#include "../common/DebugCases.h"
#include "../common/RowTestSupport.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

ref::Launch afterPasses(const std::string &arch) {
  return [=](const std::string &f, const ref::Bindings &b, const std::string &k, ref::LaunchGrid g,
             std::vector<ref::KArg> a) { return interpLaunchAt(arch, f, b, k, g, std::move(a)); };
}

TEST(Debug, DevicePrintLines) {
  llvm::outs().flush(); // the interpreter prints through llvm::outs(): nothing older may reach the capture
  ref::expectChecks(ref::printedOnce(ref::devicePrintRun(interpLaunch)));
  for (const char *arch : {"sm_90a", "sm_80"}) {
    SCOPED_TRACE(arch);
    ref::expectChecks(ref::printedOnce(ref::devicePrintRun(afterPasses(arch))));
  }
}

TEST(Debug, DeviceAssertHolds) {
  ref::AssertRun run = ref::deviceAssertRun(interpLaunch);
  EXPECT_EQ(run.error, "");
  ref::expectChecks(run.checks);
}

TEST(Debug, DeviceAssertFails) {
  // X[200] = 999: program 1, element 72.
  for (const auto &L : {ref::Launch(interpLaunch), afterPasses("sm_90a")}) {
    ref::AssertRun run = ref::deviceAssertRun(L, 200);
    EXPECT_NE(run.error.find("device_assert failed in program (1, 0, 0) at index (72): x below limit"),
              std::string::npos)
        << run.error;
  }
}

} // namespace
