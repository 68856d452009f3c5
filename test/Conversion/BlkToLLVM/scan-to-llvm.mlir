// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

#w2 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
#rows = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]>
module attributes {blk.num_warps = 2 : i32} {
// 128 elements, 2 per thread, 2 warps: one in-thread step, five xor
// shuffles (lanes 1..16; the two registers share one running total, so one
// shuffle each), then one exchange through shared memory between the two
// warps (store, barrier, load from warp ^ 1).
// CHECK-LABEL: func.func @cumsum_1d
// CHECK: arith.addf
// CHECK-COUNT-5: nvvm.shfl.sync {{ *}}bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.xor
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @cumsum_1d(%x: tensor<128xf32, #w2>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<128xf32, #w2> -> tensor<128xf32, #w2> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.print "s" %s : tensor<128xf32, #w2>
  return
}

// Along rows that one warp holds (4 registers, 32 lanes): in-thread steps and
// shuffles only, no shared memory.
// CHECK-LABEL: func.func @cumprod_rows
// CHECK: arith.muli
// CHECK: nvvm.shfl.sync {{ *}}bfly
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @cumprod_rows(%x: tensor<2x128xi32, #rows>) {
  %s = blk.scan %x {axis = 1 : i32} : tensor<2x128xi32, #rows> -> tensor<2x128xi32, #rows> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.muli %a, %b : i32
    blk.reduce.return %c : i32
  }
  blk.print "s" %s : tensor<2x128xi32, #rows>
  return
}
}
