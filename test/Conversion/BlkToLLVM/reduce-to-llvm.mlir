// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

#w8 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
module attributes {blk.num_warps = 8 : i32} {
// In-thread adds, five butterfly shuffles over the lanes, then the 8 warps'
// partial sums through dynamic shared memory with one barrier.
// CHECK: llvm.mlir.global external @blk_shared() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: func.func @sum
// CHECK-COUNT-3: arith.addf
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: llvm.store {{.*}} !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} !llvm.ptr<3>
func.func @sum(%x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  return %s : f32
}
}
