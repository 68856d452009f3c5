// RUN: blk-opt %s --blk-accelerate-dot="compute-capability=80 num-warps=4" | FileCheck %s --check-prefix=SM80
// RUN: blk-opt %s --blk-accelerate-dot="compute-capability=90 num-warps=8 wgmma=true" | FileCheck %s --check-prefix=WG
// RUN: blk-opt %s --blk-accelerate-dot="compute-capability=75 num-warps=4" | FileCheck %s --check-prefix=OLD

// mma.sync splits 4 warps 2 x 2 over 128x256 (each warp 64x128); with
// wgmma, 8 warps are two warpgroups along M, each 64 rows by all 256
// columns (m64n256k16). Before sm_80 the dot stays on CUDA cores.
// SM80-LABEL: func.func @bf16
// SM80: mma = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>
// WG-LABEL: func.func @bf16
// WG: mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>
// OLD-LABEL: func.func @bf16
// OLD-NOT: mma =
func.func @bf16(%a: tensor<128x64xbf16>, %b: tensor<64x256xbf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32> {
  %d = blk.dot %a, %b, %c : tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<128x256xf32> -> tensor<128x256xf32>
  return %d : tensor<128x256xf32>
}

// 32 rows cannot give 8 warps 16 rows each: mma.sync, warps along N too.
// WG-LABEL: func.func @short
// WG: mma = #blk.mma<version = 2, warpsPerCTA = [2, 4], instrShape = [16, 8, 16]>
func.func @short(%a: tensor<32x32xf16>, %b: tensor<32x64xf16>, %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %d = blk.dot %a, %b, %c : tensor<32x32xf16>, tensor<32x64xf16>, tensor<32x64xf32> -> tensor<32x64xf32>
  return %d : tensor<32x64xf32>
}

// i8 runs on mma.sync m16n8k32 (wgmma for i8 is not used); f32 ("ieee")
// stays on CUDA cores.
// SM80-LABEL: func.func @int8
// SM80: instrShape = [16, 8, 32]
// WG-LABEL: func.func @int8
// WG: mma = #blk.mma<version = 2,
// WG-LABEL: func.func @f32
// WG-NOT: mma =
func.func @int8(%a: tensor<64x64xi8>, %b: tensor<64x64xi8>, %c: tensor<64x64xi32>) -> tensor<64x64xi32> {
  %d = blk.dot %a, %b, %c : tensor<64x64xi8>, tensor<64x64xi8>, tensor<64x64xi32> -> tensor<64x64xi32>
  return %d : tensor<64x64xi32>
}
func.func @f32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = blk.dot %a, %b, %c : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// f32 as tf32 runs on mma.sync m16n8k8 on every target from sm_80 (wgmma
// would need both operands K-major in shared memory).
// SM80-LABEL: func.func @tf32
// SM80: mma = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 8]>
// WG-LABEL: func.func @tf32
// WG: mma = #blk.mma<version = 2, {{.*}}instrShape = [16, 8, 8]>
// OLD-LABEL: func.func @tf32
// OLD-NOT: mma =
func.func @tf32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = blk.dot %a, %b, %c {input_precision = "tf32"} : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// fp8 (either format with either) runs on mma.sync m16n8k32 from sm_89 (Ada)
// on; sm_80 has no fp8 tensor cores, so the dot stays on CUDA cores.
// SM80-LABEL: func.func @fp8
// SM80-NOT: mma =
// WG-LABEL: func.func @fp8
// WG: mma = #blk.mma<version = 2, warpsPerCTA = [4, 2], instrShape = [16, 8, 32]>
func.func @fp8(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E5M2>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = blk.dot %a, %b, %c : tensor<64x64xf8E4M3FN>, tensor<64x64xf8E5M2>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
