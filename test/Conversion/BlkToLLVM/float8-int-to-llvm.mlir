// RUN: blk-opt %s --convert-blk-to-llvm | FileCheck %s

// fp8 from and to integers (the canonicalizer folds the frontend's chain
// through f32 into one uitofp or sitofp): each integer, a bool included,
// becomes an f32 first, then pairs into cvt.rn.satfinite; fp8 unpacks to f16,
// widens to f32 (exact), then converts to the integer.
#l = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @integers
// CHECK-SAME: (%[[M0:[^:]*]]: i1, %[[M1:[^:]*]]: i1,
// CHECK-DAG: %[[F0:.+]] = llvm.uitofp %[[M0]] : i1 to f32
// CHECK-DAG: %[[F1:.+]] = llvm.uitofp %[[M1]] : i1 to f32
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $2;", "=h,f,f" %[[F1]], %[[F0]] : (f32, f32) -> i16
// CHECK-COUNT-2: llvm.sitofp %{{.*}} : i64 to f32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK-COUNT-2: llvm.fptosi %{{.*}} : f32 to i32
// CHECK: cvt.rn.f16x2.e5m2x2
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK-COUNT-2: llvm.fptoui %{{.*}} : f32 to i8
// CHECK: return
func.func @integers(%m: tensor<256xi1, #l>, %n: tensor<256xi64, #l>) {
  %q = arith.uitofp %m : tensor<256xi1, #l> to tensor<256xf8E5M2, #l>
  %r = arith.sitofp %n : tensor<256xi64, #l> to tensor<256xf8E4M3FN, #l>
  %i = arith.fptosi %r : tensor<256xf8E4M3FN, #l> to tensor<256xi32, #l>
  %u = arith.fptoui %q : tensor<256xf8E5M2, #l> to tensor<256xi8, #l>
  blk.print "i" %i : tensor<256xi32, #l>
  blk.print "u" %u : tensor<256xi8, #l>
  return
}
}
