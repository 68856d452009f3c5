// RUN: blk-opt %s --blk-allocate-shared-memory | FileCheck %s
// RUN: not blk-opt %s --blk-allocate-shared-memory=limit=16 2>&1 | FileCheck %s --check-prefix=LIMIT

#w8 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
#small = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
#r = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#c = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]>
#rows = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#dota = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
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
// Old values of atomics go through shared memory only when other threads need
// them: a used scalar result (one slot and a spare: 8 bytes, 16 aligned), a
// block whose elements have copies in several warps (32 + 1 slots); not an
// unused result, not a block every thread owns alone.
// CHECK-LABEL: func.func @atomics
// CHECK-SAME: blk.shared = 144
// CHECK: blk.atomic_rmw add, acq_rel, gpu %arg0, %arg1 {blk.smem_offset = 0 : i64}
// CHECK: blk.atomic_rmw add, acq_rel, gpu %arg0, %arg1 :
// CHECK: blk.atomic_cas acq_rel, gpu %arg2, %arg3, %arg3 {blk.smem_offset = 0 : i64}
// CHECK: blk.atomic_rmw xchg, acq_rel, gpu %arg4, %arg5 :
func.func @atomics(%p: !blk.ptr<i32>, %v: i32, %q: tensor<32x!blk.ptr<i32>, #small>, %w: tensor<32xi32, #small>,
                   %r: tensor<1024x!blk.ptr<i32>, #w8>, %x: tensor<1024xi32, #w8>) -> (i32, tensor<32xi32, #small>, tensor<1024xi32, #w8>) {
  %a = blk.atomic_rmw add, acq_rel, gpu %p, %v : (!blk.ptr<i32>, i32) -> i32
  %unused = blk.atomic_rmw add, acq_rel, gpu %p, %v : (!blk.ptr<i32>, i32) -> i32
  %b = blk.atomic_cas acq_rel, gpu %q, %w, %w : (tensor<32x!blk.ptr<i32>, #small>, tensor<32xi32, #small>, tensor<32xi32, #small>) -> tensor<32xi32, #small>
  %c = blk.atomic_rmw xchg, acq_rel, gpu %r, %x : (tensor<1024x!blk.ptr<i32>, #w8>, tensor<1024xi32, #w8>) -> tensor<1024xi32, #w8>
  return %a, %b, %c : i32, tensor<32xi32, #small>, tensor<1024xi32, #w8>
}

// A 2-D conversion whose writes (lanes four elements apart along a row)
// would hit banks four times in row-major order and padded alike: its
// buffer is XOR-swizzled instead, 64x64 f32 in 16384 bytes, unpadded.
// CHECK-LABEL: func.func @swizzled_conversion
// CHECK-SAME: blk.shared = 16384
func.func @swizzled_conversion(%x: tensor<64x64xf32, #rows>) -> tensor<64x64xf32, #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [0, 1]>> attributes {blk.kernel} {
  %y = blk.convert_layout %x : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [0, 1]>>
  return %y : tensor<64x64xf32, #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [0, 1]>>
}

// Rows written 16 bytes at a time and read 16 bytes at a time down a column
// of rows: row-major, the eight lanes of a read phase hit the same banks;
// padded by one vector per row of 64 they do not, and the padding (16384
// bytes of elements, 1024 of padding) is kept.
// CHECK-LABEL: func.func @padded_conversion
// CHECK-SAME: blk.shared = 17408
func.func @padded_conversion(%x: tensor<64x64xf32, #rows>) -> tensor<64x64xf32, #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]>> attributes {blk.kernel} {
  %y = blk.convert_layout %x : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]>>
  return %y : tensor<64x64xf32, #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]>>
}

// A CUDA-core dot stages both operands, each padded by one element per row:
// A (64x64 f16, 8192 bytes and 128 of padding) then B (64x32 f16, 4096 and
// 128), each part 16-byte aligned.
// CHECK-LABEL: func.func @dot_operands
// CHECK-SAME: blk.shared = 12544
func.func @dot_operands(%a: tensor<64x64xf16, #rows>, %b: tensor<64x32xf16, #rows>, %c: tensor<64x32xf32, #rows>) -> tensor<64x32xf32, #rows> attributes {blk.kernel} {
  %d = blk.dot %a, %b, %c : tensor<64x64xf16, #rows>, tensor<64x32xf16, #rows>, tensor<64x32xf32, #rows> -> tensor<64x32xf32, #rows>
  return %d : tensor<64x32xf32, #rows>
}

  // A ring lives until the end of the loop that uses it: the two rings (8 KiB
  // each) take disjoint 1024-aligned ranges, and the conversion after the
  // loop reuses offset 0.
  // CHECK-LABEL: func.func @rings
  // CHECK-SAME: blk.shared = 16384
  // CHECK: blk.local_alloc {blk.smem_offset = 0 : i64}
  // CHECK: blk.local_alloc {blk.smem_offset = 8192 : i64}
  // CHECK: scf.for
  // CHECK: blk.convert_layout %{{.+}} {blk.smem_offset = 0 : i64}
  func.func @rings(%p: tensor<64x32x!blk.ptr<f16>, #r>, %n: i32, %x: tensor<64x32xf16, #r>) {
    %a = blk.local_alloc : !blk.smem<[2, 64, 32], f16, contig = 1>
    %b = blk.local_alloc : !blk.smem<[2, 64, 32], f16, contig = 1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      blk.async_copy %p into %a[%i] {vec = 8 : i32} : tensor<64x32x!blk.ptr<f16>, #r> -> !blk.smem<[2, 64, 32], f16, contig = 1>
      blk.async_copy %p into %b[%i] {vec = 8 : i32} : tensor<64x32x!blk.ptr<f16>, #r> -> !blk.smem<[2, 64, 32], f16, contig = 1>
    }
    %y = blk.convert_layout %x : tensor<64x32xf16, #r> -> tensor<64x32xf16, #c>
    blk.print "y" %y : tensor<64x32xf16, #c>
    return
  }

  // A wgmma reads its B buffer until the wait that completes it: the
  // reduction between the two takes other bytes, the one after the wait
  // reuses the buffer's.
  // CHECK-LABEL: func.func @wgmma_until_wait
  // CHECK: blk.local_alloc {blk.smem_offset = 0 : i64}
  // CHECK: blk.reduce {{.*}}blk.smem_offset = 8192 : i64
  // CHECK: blk.warp_group_dot_wait
  // CHECK: blk.reduce {{.*}}blk.smem_offset = 0 : i64
  func.func @wgmma_until_wait(%a: tensor<128x64xbf16, #dota>, %acc: tensor<128x64xf32, #mma>, %x: tensor<4096xf32, #w8>) -> f32 attributes {blk.kernel} {
    %c0 = arith.constant 0 : i32
    %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
    %d = blk.warp_group_dot %a, %buf[%c0], %acc : tensor<128x64xbf16, #dota>, !blk.smem<[1, 64, 64], bf16, contig = 1>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %s = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %c = arith.addf %l, %r : f32
      blk.reduce.return %c : f32
    }
    %w = blk.warp_group_dot_wait %d {pending = 0 : i32} : tensor<128x64xf32, #mma>
    %m = blk.reduce %x {axis = 0 : i32} : (tensor<4096xf32, #w8>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %c = arith.maxnumf %l, %r : f32
      blk.reduce.return %c : f32
    }
    blk.print "w" %w : tensor<128x64xf32, #mma>
    %t = arith.addf %s, %m : f32
    return %t : f32
  }
}
