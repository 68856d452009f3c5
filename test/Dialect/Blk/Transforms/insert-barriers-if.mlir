// RUN: blk-opt %s --blk-allocate-shared-memory --blk-insert-barriers | FileCheck %s

// Each branch of an scf.if starts from the shared-memory uses before the if:
// a reduction in either branch reuses the bytes of the reduction in front of
// it, so both branches begin with a barrier (scripts/mutate.py bar-if-branch).

#w8 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
module attributes {blk.num_warps = 8 : i32} {
// CHECK-LABEL: func.func @branches
// CHECK-NOT: blk.barrier
// CHECK: blk.reduce
// CHECK: scf.if
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.reduce
// CHECK: } else {
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.reduce
func.func @branches(%x: tensor<4096xf32, #w8>, %c: i1) -> f32 attributes {blk.kernel} {
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    blk.reduce.return %t : f32
  }
  %r = scf.if %c -> f32 {
    %m = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      blk.reduce.return %t : f32
    }
    scf.yield %m : f32
  } else {
    %m = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %t = arith.minnumf %a, %b : f32
      blk.reduce.return %t : f32
    }
    scf.yield %m : f32
  }
  %y = arith.addf %s, %r : f32
  return %y : f32
}
}
