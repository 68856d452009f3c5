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

// A column of a row-major [64, 32] f32 matrix: addresses run down dimension
// 0 (32 rows here, aligned to 16 bytes), so the access is 4 wide along it and
// records `vec_dim = 0`; the row-major access next to it records no dimension.
// CHECK-LABEL: func.func @column_access
// CHECK: blk.load {{.*}}vec = 4 : i32, vec_dim = 0 : i32}
// CHECK: blk.store {{.*}}{vec = 4 : i32} :
func.func @column_access(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %ld: i32 {blk.divisibility = 16 : i64}) {
  %r = blk.arange 0, 64 : tensor<64xi32>
  %c = blk.arange 0, 32 : tensor<32xi32>
  %rows = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = blk.expand_dims %c {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %lds = blk.splat %ld : i32 -> tensor<1x32xi32>
  %colStart = arith.muli %cols, %lds : tensor<1x32xi32>
  %a = blk.broadcast %rows : tensor<64x1xi32> -> tensor<64x32xi32>
  %b = blk.broadcast %colStart : tensor<1x32xi32> -> tensor<64x32xi32>
  %offs = arith.addi %a, %b : tensor<64x32xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>>
  %q = blk.addptr %ps, %offs : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
  %x = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x32x!blk.ptr<f32>>) -> tensor<64x32xf32>
  %ld2 = blk.splat %ld : i32 -> tensor<64x32xi32>
  %rowStart = arith.muli %a, %ld2 : tensor<64x32xi32>
  %c2 = blk.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %offs2 = arith.addi %rowStart, %c2 : tensor<64x32xi32>
  %q2 = blk.addptr %ps, %offs2 : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
  blk.store %q2, %x : (tensor<64x32x!blk.ptr<f32>>, tensor<64x32xf32>) -> ()
  return
}

// Float atomic adds get the widest vector too (vector atomics on sm_90);
// other atomics, which have no vector form, keep none.
// CHECK-LABEL: func.func @atomic_adds
// CHECK: blk.atomic_rmw add, acq_rel, gpu {{.*}}vec = 4 : i32
// CHECK: blk.atomic_rmw add, relaxed, gpu {{.*}}vec = 8 : i32
// CHECK: blk.atomic_rmw add, acq_rel, gpu {{[^{]*}} : (
// CHECK: blk.atomic_rmw max, acq_rel, gpu {{[^{]*}} : (
// CHECK: return
func.func @atomic_adds(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %h: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                       %n: i32 {blk.divisibility = 16 : i64}, %k: i32) {
  %r = blk.arange 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %ks = blk.splat %k : i32 -> tensor<256xi32>
  %ragged = arith.cmpi slt, %r, %ks : tensor<256xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %q = blk.addptr %ps, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %hs = blk.splat %h : !blk.ptr<bf16> -> tensor<256x!blk.ptr<bf16>>
  %hq = blk.addptr %hs, %r : tensor<256x!blk.ptr<bf16>>, tensor<256xi32>
  %v = arith.constant dense<1.0> : tensor<256xf32>
  %hv = arith.constant dense<1.0> : tensor<256xbf16>
  %a = blk.atomic_rmw add, acq_rel, gpu %q, %v, %m : (tensor<256x!blk.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  %b = blk.atomic_rmw add, relaxed, gpu %hq, %hv : (tensor<256x!blk.ptr<bf16>>, tensor<256xbf16>) -> tensor<256xbf16>
  %c = blk.atomic_rmw add, acq_rel, gpu %q, %v, %ragged : (tensor<256x!blk.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  %d = blk.atomic_rmw max, acq_rel, gpu %q, %v, %m : (tensor<256x!blk.ptr<f32>>, tensor<256xf32>, tensor<256xi1>) -> tensor<256xf32>
  return
}
