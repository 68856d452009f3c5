// RUN: blk-opt %s --blk-allocate-shared-memory | FileCheck %s

// A scan across warps moves each warp's running totals through scratch: one
// slot per lane of every warp for each distinct total a thread holds. Here a
// thread's 8 registers fold into one total, so 32 lanes x 4 warps x 1 slot x
// 4 bytes = 512 bytes (scripts/mutate.py alloc-scan-scratch: with half of
// it, the lowering's slots run past the scratch into the next buffer).

#w4 = #blk.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#one = #blk.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @scan_over_warps
// CHECK-SAME: blk.shared = 512
// CHECK: blk.scan {{.*}}blk.smem_offset = 0
func.func @scan_over_warps(%x: tensor<1024xf32, #w4>) -> tensor<1024xf32, #w4> attributes {blk.kernel} {
  %s = blk.scan %x {axis = 0 : i32} : tensor<1024xf32, #w4> -> tensor<1024xf32, #w4> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  return %s : tensor<1024xf32, #w4>
}

// Within one warp a scan needs no scratch.
// CHECK-LABEL: func.func @scan_in_one_warp
// CHECK-SAME: blk.shared = 0
func.func @scan_in_one_warp(%x: tensor<256xf32, #one>) -> tensor<256xf32, #one> attributes {blk.kernel} {
  %s = blk.scan %x {axis = 0 : i32} : tensor<256xf32, #one> -> tensor<256xf32, #one> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  return %s : tensor<256xf32, #one>
}

// A scan of several operands (associative_scan of a tuple) keeps one part of
// the scratch per operand, each 16-byte aligned: f32 512 bytes, i8 128, i64
// 1024 (the slots of the first example at each element size).
// CHECK-LABEL: func.func @tuple_scan_over_warps
// CHECK-SAME: blk.shared = 1664
func.func @tuple_scan_over_warps(%x: tensor<1024xf32, #w4>, %b: tensor<1024xi8, #w4>, %l: tensor<1024xi64, #w4>)
    attributes {blk.kernel} {
  %s:3 = blk.scan %x, %b, %l {axis = 0 : i32} : tensor<1024xf32, #w4>, tensor<1024xi8, #w4>, tensor<1024xi64, #w4>
      -> tensor<1024xf32, #w4>, tensor<1024xi8, #w4>, tensor<1024xi64, #w4> {
  ^bb0(%a0: f32, %a1: i8, %a2: i64, %b0: f32, %b1: i8, %b2: i64):
    %c0 = arith.addf %a0, %b0 : f32
    %c1 = arith.addi %a1, %b1 : i8
    %c2 = arith.addi %a2, %b2 : i64
    blk.reduce.return %c0, %c1, %c2 : f32, i8, i64
  }
  return
}
}
