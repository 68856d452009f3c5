// RUN: blk-opt %s --blk-vectorize-memory | FileCheck %s

// Aligned pointers and a bound that is a multiple of 16: 16-byte accesses.
// CHECK-LABEL: func.func @aligned_f32
// CHECK: blk.load {{.*}}vec = 4 : i32
// CHECK: blk.store {{.*}}vec = 4 : i32
func.func @aligned_f32(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) {
  %r = blk.arange 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %q = blk.addptr %ps, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %x = blk.load %q, %m {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!blk.ptr<f32>>, tensor<256xi1>) -> tensor<256xf32>
  blk.store %q, %x, %m : (tensor<256x!blk.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> ()
  return
}

// 16 bytes of bf16 are 8 elements.
// CHECK-LABEL: func.func @aligned_bf16_unmasked
// CHECK: blk.load {{.*}}vec = 8 : i32
func.func @aligned_bf16_unmasked(%p: !blk.ptr<bf16> {blk.divisibility = 16 : i64}) {
  %r = blk.arange 0, 256 : tensor<256xi32>
  %ps = blk.splat %p : !blk.ptr<bf16> -> tensor<256x!blk.ptr<bf16>>
  %q = blk.addptr %ps, %r : tensor<256x!blk.ptr<bf16>>, tensor<256xi32>
  %x = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!blk.ptr<bf16>>) -> tensor<256xbf16>
  return
}

// A bound that may fall anywhere forces one element per access.
// CHECK-LABEL: func.func @ragged_bound
// CHECK: blk.load {{.*}}{operandSegmentSizes = array<i32: 1, 1, 0>} :
func.func @ragged_bound(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %n: i32) {
  %r = blk.arange 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %q = blk.addptr %ps, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %x = blk.load %q, %m {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<256x!blk.ptr<f32>>, tensor<256xi1>) -> tensor<256xf32>
  return
}

// An unaligned base pointer forces one element per access.
// CHECK-LABEL: func.func @unaligned_pointer
// CHECK: blk.load {{.*}}{operandSegmentSizes = array<i32: 1, 0, 0>} :
func.func @unaligned_pointer(%p: !blk.ptr<f32>) {
  %r = blk.arange 0, 256 : tensor<256xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %q = blk.addptr %ps, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %x = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!blk.ptr<f32>>) -> tensor<256xf32>
  return
}

// A promise through multiple_of / max_contiguous restores the width.
// CHECK-LABEL: func.func @hinted
// CHECK: blk.load {{.*}}vec = 2 : i32
func.func @hinted(%p: !blk.ptr<f64> {blk.divisibility = 16 : i64}, %o: tensor<128xi32>) {
  %h = blk.assume %o {divisibility = 2 : i64, contiguity = 2 : i64} : tensor<128xi32>
  %ps = blk.splat %p : !blk.ptr<f64> -> tensor<128x!blk.ptr<f64>>
  %q = blk.addptr %ps, %h : tensor<128x!blk.ptr<f64>>, tensor<128xi32>
  %x = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x!blk.ptr<f64>>) -> tensor<128xf64>
  return
}
