// RUN: blk-opt %s --blk-allocate-shared-memory | FileCheck %s
// RUN: not blk-opt %s --blk-allocate-shared-memory=limit=16 2>&1 | FileCheck %s --check-prefix=LIMIT

#w8 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
#rows = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 8 : i32} {
// A sum over 8 warps needs 8 partial f32 results (32 bytes); the max after it
// reuses the same bytes (the two never run at once).
// CHECK-LABEL: func.func @two_reductions
// CHECK-SAME: blk.shared = 32
// CHECK: blk.reduce {{.*}}blk.smem_offset = 0
// CHECK: blk.reduce {{.*}}blk.smem_offset = 0
// LIMIT: error: kernel 'two_reductions' needs 32 bytes of shared memory, more than the target's 16; this op needs the most (32 bytes)
func.func @two_reductions(%x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  %m = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    blk.reduce.return %c : f32
  }
  %r = arith.addf %s, %m : f32
  return %r : f32
}

// Reducing along the dimension the warps do not split needs no shared memory.
// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: blk.shared = 0
// CHECK-NOT: blk.smem_offset
func.func @row_sums(%x: tensor<4x128xf32, #rows>) -> tensor<4xf32, #blk.slice<dim = 1, parent = #rows>> {
  %s = blk.reduce %x {axis = 1 : i32} : (tensor<4x128xf32, #rows>) -> tensor<4xf32, #blk.slice<dim = 1, parent = #rows>> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  return %s : tensor<4xf32, #blk.slice<dim = 1, parent = #rows>>
}
}
