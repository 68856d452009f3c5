// RUN: blk-opt %s --convert-blk-to-llvm | FileCheck %s

// fp8 from and to f16 and bf16 (the canonicalizer folds the frontend's chain
// through f32 into one truncf or extf): bf16 and f16 widen to f32 (exact),
// then pair into cvt.rn.satfinite; fp8 to bf16 unpacks to f16, widens to
// f32 and rounds to bf16 (exact: every fp8 value is a bf16 value).
#l = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @from_16_bit
// CHECK-SAME: (%[[B0:[^:]*]]: bf16, %[[B1:[^:]*]]: bf16,
// CHECK-DAG: %[[W0:.+]] = llvm.fpext %[[B0]] : bf16 to f32
// CHECK-DAG: %[[W1:.+]] = llvm.fpext %[[B1]] : bf16 to f32
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f" %[[W1]], %[[W0]] : (f32, f32) -> i16
// CHECK: llvm.fpext %{{.+}} : f16 to f32
// CHECK: llvm.fpext %{{.+}} : f16 to f32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: llvm.inline_asm "cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h"
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK-COUNT-2: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK: return
func.func @from_16_bit(%b: tensor<256xbf16, #l>, %h: tensor<256xf16, #l>) {
  %q = arith.truncf %b : tensor<256xbf16, #l> to tensor<256xf8E5M2, #l>
  %r = arith.truncf %h : tensor<256xf16, #l> to tensor<256xf8E4M3FN, #l>
  %back = arith.extf %q : tensor<256xf8E5M2, #l> to tensor<256xbf16, #l>
  blk.print "r" %r : tensor<256xf8E4M3FN, #l>
  blk.print "back" %back : tensor<256xbf16, #l>
  return
}
}
