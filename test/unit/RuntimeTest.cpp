#include "blk/Runtime/Runtime.h"

#include <gtest/gtest.h>

using namespace blk::rt;

namespace {

TEST(Runtime, ParsesSignatureLines) {
  auto sigs = parseSignatures("// blk.kernel vadd num_warps=8 args=ptr,ptr,i32,f32 constants=BLOCK=512,T=bf16 spec=0:16,2:16\n"
                              "//\n.version 8.0\n// blk.kernel other num_warps=4 args= constants= spec=\n");
  ASSERT_EQ(sigs.size(), 2u);
  EXPECT_EQ(sigs[0].name, "vadd");
  EXPECT_EQ(sigs[0].numWarps, 8u);
  ASSERT_EQ(sigs[0].args.size(), 4u);
  EXPECT_EQ(sigs[0].args[0], ArgType::Ptr);
  EXPECT_EQ(sigs[0].args[2], ArgType::I32);
  EXPECT_EQ(sigs[0].args[3], ArgType::F32);
  EXPECT_EQ(sigs[0].constant("BLOCK"), "512");
  EXPECT_EQ(sigs[0].constant("T"), "bf16");
  EXPECT_EQ(sigs[0].constant("X", "none"), "none");
  ASSERT_EQ(sigs[0].divisibility.size(), 2u);
  EXPECT_EQ(sigs[0].divisibility[1].first, 2u);
  EXPECT_TRUE(sigs[1].args.empty());
  EXPECT_EQ(sigs[0].producerWarps, 0u);
}

TEST(Runtime, ParsesProducerWarps) {
  // A warp-specialized kernel launches its producer warpgroup after the
  // num_warps consumer warps: (8 + 4) * 32 threads.
  auto sigs = parseSignatures("// blk.kernel mm num_warps=8 producer_warps=4 shared=1024 args=ptr constants= spec=\n");
  ASSERT_EQ(sigs.size(), 1u);
  EXPECT_EQ(sigs[0].numWarps, 8u);
  EXPECT_EQ(sigs[0].producerWarps, 4u);
  EXPECT_EQ(sigs[0].sharedBytes, 1024u);
}

TEST(Runtime, ArgTypeNamesRoundTrip) {
  for (ArgType t : {ArgType::Ptr, ArgType::I32, ArgType::I64, ArgType::F16, ArgType::BF16, ArgType::F64}) {
    ArgType back;
    ASSERT_TRUE(parseArgType(toString(t), back));
    EXPECT_EQ(back, t);
  }
  ArgType ignored;
  EXPECT_FALSE(parseArgType("i7", ignored));
}

TEST(Runtime, LaunchOfUnloadedKernelIsAnError) {
  Kernel k;
  Status s = k.launch(Grid{1}, nullptr, {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("unloaded"), std::string::npos);
}

TEST(Runtime, ScalarArgumentsKeepTheirBits) {
  EXPECT_EQ(Arg::i32(-1).bits, 0xffffffffu);
  EXPECT_EQ(Arg::f32(1.0f).bits, 0x3f800000u);
  EXPECT_EQ(Arg::i64(-2).bits, ~uint64_t(1));
}

} // namespace

#include "blk/Runtime/blk_runtime.h"

namespace {

TEST(RuntimeC, ErrorsAreReportedAsText) {
  char error[256] = {0};
  blk_module *m = nullptr;
  EXPECT_EQ(blk_module_load_file(nullptr, &m, error, sizeof error), -1);
  EXPECT_STREQ(error, "blk_module_load_file: null argument");
  EXPECT_EQ(blk_module_load_file("/nonexistent.ptx", &m, error, sizeof error), -1);
  EXPECT_NE(std::string(error), ""); // no driver here, or no file
  EXPECT_EQ(blk_kernel_launch(nullptr, 1, 1, 1, nullptr, nullptr, nullptr, 0, error, sizeof error), -1);
  EXPECT_STREQ(error, "blk_kernel_launch: null or negative argument");
  // A tiny buffer still gets a terminated message.
  char tiny[8];
  EXPECT_EQ(blk_module_load_file(nullptr, &m, tiny, sizeof tiny), -1);
  EXPECT_EQ(std::string(tiny), "blk_mod");
}

} // namespace
