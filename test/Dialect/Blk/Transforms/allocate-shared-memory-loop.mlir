// RUN: blk-opt %s --blk-allocate-shared-memory | FileCheck %s

// A ring lives until the end of the loop that uses it, not only until the
// loop op's own position: a conversion's scratch inside the loop, after the
// copy into the ring, must not take the ring's bytes (scripts/mutate.py
// alloc-ring-lifetime). The ring (8 KiB) is placed first at 0, the
// conversion's 4 KiB (swizzled, unpadded) after it.

#r = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#c = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]>
module attributes {blk.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @scratch_in_ring_loop
  // CHECK-SAME: blk.shared = 12288
  // CHECK: blk.local_alloc {blk.smem_offset = 0 : i64}
  // CHECK: scf.for
  // CHECK: blk.async_copy
  // CHECK: blk.convert_layout %{{.+}} {blk.smem_offset = 8192 : i64}
  func.func @scratch_in_ring_loop(%p: tensor<64x32x!blk.ptr<f16>, #r>, %n: i32, %x: tensor<64x32xf16, #r>) {
    %a = blk.local_alloc : !blk.smem<[2, 64, 32], f16, contig = 1>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      blk.async_copy %p into %a[%i] {vec = 8 : i32} : tensor<64x32x!blk.ptr<f16>, #r> -> !blk.smem<[2, 64, 32], f16, contig = 1>
      %y = blk.convert_layout %x : tensor<64x32xf16, #r> -> tensor<64x32xf16, #c>
      blk.print "y" %y : tensor<64x32xf16, #c>
    }
    return
  }
}
