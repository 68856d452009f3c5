// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Where a block's accesses run along different dimensions, its layout runs
// along the one that costs least: each access along another dimension moves
// the block through shared memory (blk-coalesce gives it its own layout),
// counted once per loop around it. A [32, 64] tile read through strides
// (contiguous down its columns) in a loop, summed, and stored row-major
// after the loop: the sum runs down the columns, and only the store moves.
// CHECK-DAG: #[[ROWS:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COLUMNS:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @transposed_sum
// CHECK: scf.for {{.+}} -> (tensor<32x64xf32, #[[COLUMNS]]>)
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<32x64xf32
// CHECK: blk.load %{{.+}} -> tensor<32x64xf32, #[[COLUMNS]]>
// CHECK-NEXT: arith.addf %{{.+}}, %{{.+}} : tensor<32x64xf32, #[[COLUMNS]]>
// CHECK: blk.store %{{.+}}, %{{.+}} {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>, #[[COLUMNS]]>, tensor<32x64xf32, #[[COLUMNS]]>)

// The same two accesses with no loop cost the same either way: the block
// runs along its last dimension, and the load moves.
// CHECK-LABEL: func.func @transposed_copy
// CHECK: blk.load %{{.+}} -> tensor<32x64xf32, #[[ROWS]]>
// CHECK: blk.store %{{.+}}, %{{.+}} {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>, #[[ROWS]]>, tensor<32x64xf32, #[[ROWS]]>)
module {
  func.func @transposed_sum(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = blk.splat %cst : f32 -> tensor<32x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %3 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %2) -> (tensor<32x64xf32>)  : i32 {
      %c2048_i32 = arith.constant 2048 : i32
      %13 = arith.muli %arg3, %c2048_i32 : i32
      %14 = blk.addptr %arg0, %13 : !blk.ptr<f32>, i32
      %15 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %16 = blk.splat %14 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
      %17 = blk.addptr %16, %15 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
      %18 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %c32_i32 = arith.constant 32 : i32
      %19 = blk.splat %c32_i32 : i32 -> tensor<1x64xi32>
      %20 = arith.muli %18, %19 : tensor<1x64xi32>
      %21 = blk.broadcast %17 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x64x!blk.ptr<f32>>
      %22 = blk.broadcast %20 : tensor<1x64xi32> -> tensor<32x64xi32>
      %23 = blk.addptr %21, %22 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
      %24 = blk.load %23 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<32x64x!blk.ptr<f32>>) -> tensor<32x64xf32>
      %25 = arith.addf %arg4, %24 : tensor<32x64xf32>
      scf.yield %25 : tensor<32x64xf32>
    }
    %4 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c64_i32 = arith.constant 64 : i32
    %5 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %6 = arith.muli %4, %5 : tensor<32x1xi32>
    %7 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %8 = blk.addptr %7, %6 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %9 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %10 = blk.broadcast %8 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x64x!blk.ptr<f32>>
    %11 = blk.broadcast %9 : tensor<1x64xi32> -> tensor<32x64xi32>
    %12 = blk.addptr %10, %11 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
    blk.store %12, %3 {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>, tensor<32x64xf32>) -> ()
    return
  }
  func.func @transposed_copy(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %3 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %4 = blk.addptr %3, %2 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %5 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c32_i32 = arith.constant 32 : i32
    %6 = blk.splat %c32_i32 : i32 -> tensor<1x64xi32>
    %7 = arith.muli %5, %6 : tensor<1x64xi32>
    %8 = blk.broadcast %4 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x64x!blk.ptr<f32>>
    %9 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<32x64xi32>
    %10 = blk.addptr %8, %9 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<32x64x!blk.ptr<f32>>) -> tensor<32x64xf32>
    %12 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c64_i32 = arith.constant 64 : i32
    %13 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %14 = arith.muli %12, %13 : tensor<32x1xi32>
    %15 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %16 = blk.addptr %15, %14 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %17 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %18 = blk.broadcast %16 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x64x!blk.ptr<f32>>
    %19 = blk.broadcast %17 : tensor<1x64xi32> -> tensor<32x64xi32>
    %20 = blk.addptr %18, %19 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
    blk.store %20, %11 {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>, tensor<32x64xf32>) -> ()
    return
  }
}

