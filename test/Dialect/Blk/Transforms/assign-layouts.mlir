// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s
// RUN: blk-opt %s --blk-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=WARPS8

// The widest access (vec 4) sets the elements per thread; 1024 elements over
// 128 threads of 4 repeat twice.
// CHECK: #[[L4:.+]] = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: #[[L1:.+]] = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: #[[COLMAJOR:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK: module attributes {blk.num_warps = 4 : i32}
// WARPS8: #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
// WARPS8: module attributes {blk.num_warps = 8 : i32}

// CHECK-LABEL: func.func @vectorized
// CHECK: blk.arange 0, 1024 : tensor<1024xi32, #[[L4]]>
// CHECK: blk.load {{.*}}vec = 4 : i32{{.*}} -> tensor<1024xf32, #[[L4]]>
func.func @vectorized(%p: !blk.ptr<f32>) {
  %r = blk.arange 0, 1024 : tensor<1024xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %q = blk.addptr %ps, %r : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %x = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<1024x!blk.ptr<f32>>) -> tensor<1024xf32>
  return
}

// A block smaller than the threads: one element each, copies in the rest
// (blk-coalesce clamps the vector width to what a thread holds).
// CHECK-LABEL: func.func @small_block
// CHECK: blk.store %{{[0-9]+}}, %{{[a-z0-9_]+}} {vec = 4 : i32} : (tensor<64x!blk.ptr<f32>, #[[L1]]>, tensor<64xf32, #[[L1]]>)
func.func @small_block(%p: !blk.ptr<f32>) {
  %r = blk.arange 0, 64 : tensor<64xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
  %q = blk.addptr %ps, %r : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
  %c = arith.constant dense<1.0> : tensor<64xf32>
  blk.store %q, %c {vec = 4 : i32} : (tensor<64x!blk.ptr<f32>>, tensor<64xf32>) -> ()
  return
}

// Every 2-D access of this kernel runs down dimension 0: the kernel's 2-D
// layout is column-major (no conversion needed anywhere).
// CHECK-LABEL: func.func @column_major_kernel
// CHECK: blk.load {{.*}} -> tensor<64x32xf32, #[[COLMAJOR]]>
// CHECK: blk.store {{.*}}, #[[COLMAJOR]]>
// CHECK-NOT: blk.convert_layout
func.func @column_major_kernel(%s: !blk.ptr<f32>) {
  %p = blk.splat %s : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>>
  %q = blk.splat %s : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>>
  %x = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<f32>>) -> tensor<64x32xf32>
  %y = arith.addf %x, %x : tensor<64x32xf32>
  blk.store %q, %y {vec = 4 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<f32>>, tensor<64x32xf32>) -> ()
  return
}
