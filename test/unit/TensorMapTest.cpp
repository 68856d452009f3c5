// The hidden TMA tensor-map parameters: the signature's recipes and the
// checks a launch makes before the driver builds a map (no GPU needed).
#include "../../lib/Runtime/TensorMaps.h"

#include <gtest/gtest.h>

using namespace blk::rt;

namespace {

KernelSignature matmulTma() {
  auto sigs = parseSignatures("// blk.kernel matmul_tma num_warps=8 shared=196672 args=ptr,ptr,ptr,i32,i32,i32,i64,i64,i64 "
                              "constants=T=bf16 spec= tma=bf16:a0:a3|a5:a6|c1:128|64:128;bf16:a1:a5|a4:a7|c1:64|64:128\n");
  return sigs.at(0);
}

std::vector<Arg> args(uint64_t a, int64_t lda) {
  return {Arg::devicePtr(a), Arg::devicePtr(0x20000), Arg::devicePtr(0x30000), Arg::i32(300), Arg::i32(400),
          Arg::i32(200), Arg::i64(lda), Arg::i64(400), Arg::i64(400)};
}

TEST(TensorMaps, SignatureListsTheRecipes) {
  KernelSignature sig = matmulTma();
  ASSERT_EQ(sig.tensorMaps.size(), 2u);
  const TensorMapRecipe &a = sig.tensorMaps[0];
  EXPECT_EQ(a.elem, ArgType::BF16);
  EXPECT_EQ(a.base, 0u);
  ASSERT_EQ(a.shape.size(), 2u);
  EXPECT_TRUE(a.shape[0].isArg);
  EXPECT_EQ(a.shape[1].value, 5u);
  EXPECT_FALSE(a.strides[1].isArg);
  EXPECT_EQ(a.strides[1].value, 1u);
  EXPECT_EQ(a.box, (std::vector<uint32_t>{128, 64}));
  EXPECT_EQ(a.swizzle, 128u);
  TensorMapRecipe bad;
  EXPECT_FALSE(parseTensorMapRecipe("bf16:c0:a3|a5:a6|c1:128|64:128", bad)); // base must be an argument
  EXPECT_FALSE(parseTensorMapRecipe("bf16:a0:a3:a6|c1:128|64:128", bad));    // a field missing
  EXPECT_FALSE(parseTensorMapRecipe("bf16:a0:a3|a5:a6|c1:128|64:100", bad)); // no such swizzle
}

TEST(TensorMaps, GeometryIsInnermostFirstInBytes) {
  KernelSignature sig = matmulTma();
  std::vector<Arg> a = args(0x10000, 200);
  TensorMapGeometry g;
  ASSERT_TRUE(tensorMapGeometry(sig, sig.tensorMaps[0], a.data(), a.size(), g).ok());
  EXPECT_EQ(g.rank, 2u);
  EXPECT_EQ(g.base, 0x10000u);
  EXPECT_EQ(g.dims[0], 200u); // K
  EXPECT_EQ(g.dims[1], 300u); // M
  EXPECT_EQ(g.strides[0], 400u); // 200 bf16
  EXPECT_EQ(g.box[0], 64u);
  EXPECT_EQ(g.box[1], 128u);
}

TEST(TensorMaps, MisalignedTensorsAreRefusedByName) {
  KernelSignature sig = matmulTma();
  TensorMapGeometry g;
  std::vector<Arg> a = args(0x10008, 200);
  EXPECT_EQ(tensorMapGeometry(sig, sig.tensorMaps[0], a.data(), a.size(), g).message,
            "argument 0 of kernel 'matmul_tma' (a TMA tensor's base) must be 16-byte aligned");
  a = args(0x10000, 45);
  EXPECT_EQ(tensorMapGeometry(sig, sig.tensorMaps[0], a.data(), a.size(), g).message,
            "argument 6 of kernel 'matmul_tma' (a TMA tensor's row stride) must span a multiple of 16 bytes, got 90 bytes");
  a = args(0x10000, 200);
  a[3] = Arg::i32(-5);
  EXPECT_EQ(tensorMapGeometry(sig, sig.tensorMaps[0], a.data(), a.size(), g).message,
            "argument 3 of kernel 'matmul_tma' (a TMA tensor's size) must not be negative, got -5");
}

} // namespace
