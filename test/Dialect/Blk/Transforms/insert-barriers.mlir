// RUN: blk-opt %s --blk-allocate-shared-memory --blk-insert-barriers | FileCheck %s

#w8 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
#b2 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#b2t = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#dota = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
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

// Loops in loops: the innermost body races with itself (a barrier at its
// top) and nothing else does. Each loop is walked again only when entered
// with accesses it has not seen (at most twice here, not 2^depth times).
// CHECK-LABEL: func.func @nested
// CHECK-NOT: blk.barrier
// CHECK: scf.for
// CHECK-NOT: blk.barrier
// CHECK: scf.for
// CHECK-NOT: blk.barrier
// CHECK: scf.for
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.reduce
// CHECK-NOT: blk.barrier
// CHECK: return
func.func @nested(%x: tensor<4096xf32, #w8>, %n: index) -> f32 attributes {blk.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%a0 = %zero) -> f32 {
    %u = scf.for %j = %c0 to %n step %c1 iter_args(%a1 = %a0) -> f32 {
      %v = scf.for %k = %c0 to %n step %c1 iter_args(%a2 = %a1) -> f32 {
        %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
        ^bb0(%a: f32, %b: f32):
          %c = arith.addf %a, %b : f32
          blk.reduce.return %c : f32
        }
        %next = arith.addf %a2, %s : f32
        scf.yield %next : f32
      }
      scf.yield %v : f32
    }
    scf.yield %u : f32
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

// A ring placed where a conversion's scratch was: every thread has read the
// conversion's tile before the ring's asynchronous copies may write there.
// CHECK-LABEL: func.func @ring_after_scratch
// CHECK: blk.convert_layout
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.local_alloc
func.func @ring_after_scratch(%x: tensor<64x64xbf16, #b2>) -> tensor<64x64xbf16, #b2t> attributes {blk.kernel} {
  %y = blk.convert_layout %x : tensor<64x64xbf16, #b2> -> tensor<64x64xbf16, #b2t>
  %r = blk.local_alloc : !blk.smem<[2, 64, 64], bf16, contig = 1>
  return %y : tensor<64x64xbf16, #b2t>
}

// A wgmma reads its staged B until its wait; the reduction after reuses the
// buffer's bytes: a barrier after the wait (the other warpgroup may still be
// reading), none between the barrier that published B and the wgmma.
// CHECK-LABEL: func.func @wgmma_reads_until_wait
// CHECK: blk.local_alloc {blk.smem_offset = 0 : i64}
// CHECK: blk.barrier
// CHECK-NEXT: blk.warp_group_dot
// CHECK-NEXT: blk.warp_group_dot_wait
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.reduce {{.*}}blk.smem_offset = 0 : i64
func.func @wgmma_reads_until_wait(%a: tensor<128x64xbf16, #dota>, %b: tensor<64x64xbf16, #b2>, %acc: tensor<128x64xf32, #mma>, %x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
  blk.local_store %b, %buf[%c0] : tensor<64x64xbf16, #b2>, !blk.smem<[1, 64, 64], bf16, contig = 1>
  blk.fence_async_shared
  blk.barrier
  %d = blk.warp_group_dot %a, %buf[%c0], %acc : tensor<128x64xbf16, #dota>, !blk.smem<[1, 64, 64], bf16, contig = 1>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
  %w = blk.warp_group_dot_wait %d {pending = 0 : i32} : tensor<128x64xf32, #mma>
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %c = arith.addf %l, %r : f32
    blk.reduce.return %c : f32
  }
  blk.print "w" %w : tensor<128x64xf32, #mma>
  return %s : f32
}

// A barrier between the wgmma and its wait does not end its reads: the
// reduction after the wait still needs one.
// CHECK-LABEL: func.func @barrier_before_wait
// CHECK: blk.warp_group_dot_wait
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.reduce
func.func @barrier_before_wait(%a: tensor<128x64xbf16, #dota>, %b: tensor<64x64xbf16, #b2>, %acc: tensor<128x64xf32, #mma>, %x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
  blk.local_store %b, %buf[%c0] : tensor<64x64xbf16, #b2>, !blk.smem<[1, 64, 64], bf16, contig = 1>
  blk.fence_async_shared
  blk.barrier
  %d = blk.warp_group_dot %a, %buf[%c0], %acc : tensor<128x64xbf16, #dota>, !blk.smem<[1, 64, 64], bf16, contig = 1>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
  blk.barrier
  %w = blk.warp_group_dot_wait %d {pending = 0 : i32} : tensor<128x64xf32, #mma>
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %c = arith.addf %l, %r : f32
    blk.reduce.return %c : f32
  }
  blk.print "w" %w : tensor<128x64xf32, #mma>
  return %s : f32
}
}
