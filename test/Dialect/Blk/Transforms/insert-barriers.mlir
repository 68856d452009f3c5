// RUN: blk-opt %s --blk-allocate-shared-memory --blk-insert-barriers | FileCheck %s

#w8 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
module attributes {blk.num_warps = 8 : i32} {
// The second reduction reuses the first one's bytes: one barrier between
// them, none before the first.
// CHECK-LABEL: func.func @reuse
// CHECK-NOT: blk.barrier
// CHECK: blk.reduce
// CHECK: blk.barrier
// CHECK-NEXT: blk.reduce
// CHECK-NOT: blk.barrier
// CHECK: return
func.func @reuse(%x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
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

// A reduction in a loop races with itself from the previous iteration: a
// barrier at the top of the body (and none before the loop).
// CHECK-LABEL: func.func @loop
// CHECK-NOT: blk.barrier
// CHECK: scf.for
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.reduce
func.func @loop(%x: tensor<4096xf32, #w8>, %n: index) -> f32 attributes {blk.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      blk.reduce.return %c : f32
    }
    %next = arith.addf %acc, %s : f32
    scf.yield %next : f32
  }
  return %t : f32
}

// One reduction alone needs no barrier at all.
// CHECK-LABEL: func.func @single
// CHECK-NOT: blk.barrier
// CHECK: return
func.func @single(%x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  return %s : f32
}
}
