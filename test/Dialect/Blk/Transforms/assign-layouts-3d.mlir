// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Blocks of three dimensions. The [4, 8, 32] tile that a load reads and a
// store writes along its last dimension takes its own blocked layout (16-byte
// vectors along dimension 2, lanes then warps toward dimension 0). Its sum
// along axis 1 keeps the reduction's slice, the pointers of its store
// following it. A loaded [8, 32] block keeps the layout its own load
// anchors; where it is expanded to [1, 8, 32], a conversion into the slice of
// the 3-D layout goes in front of the expansion.
// CHECK-DAG: #[[TILE:.+]] = #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-DAG: #[[PLANE:.+]] = #blk.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[SUM1:.+]] = #blk.slice<dim = 1, parent = #[[TILE]]>
// CHECK-DAG: #[[ROW0:.+]] = #blk.slice<dim = 0, parent = #[[TILE]]>
// CHECK-DAG: #[[OUTER:.+]] = #blk.slice<dim = 2, parent = #[[TILE]]>
// CHECK-LABEL: func.func @k
// CHECK: blk.expand_dims %{{.+}} {axis = 2 : i32} : tensor<4x1xi32, #[[OUTER]]> -> tensor<4x1x1xi32, #[[TILE]]>
// CHECK: %[[X:.+]] = blk.load %{{.+}} -> tensor<4x8x32xf32, #[[TILE]]>
// CHECK: %[[S:.+]] = blk.reduce %[[X]] {axis = 1 : i32} : (tensor<4x8x32xf32, #[[TILE]]>) -> tensor<4x32xf32, #[[SUM1]]>
// CHECK: %[[P:.+]] = blk.convert_layout %{{.+}} : tensor<4x32x!blk.ptr<f32>, #[[PLANE]]> -> tensor<4x32x!blk.ptr<f32>, #[[SUM1]]>
// CHECK: blk.store %[[P]], %[[S]]
// CHECK: %[[T:.+]] = blk.load %{{.+}} -> tensor<8x32xf32, #[[PLANE]]>
// CHECK: %[[TS:.+]] = blk.convert_layout %[[T]] : tensor<8x32xf32, #[[PLANE]]> -> tensor<8x32xf32, #[[ROW0]]>
// CHECK: blk.expand_dims %[[TS]] {axis = 0 : i32} : tensor<8x32xf32, #[[ROW0]]> -> tensor<1x8x32xf32, #[[TILE]]>
// CHECK: arith.addf %[[X]], %{{.+}} : tensor<4x8x32xf32, #[[TILE]]>
module {
  func.func @k(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = blk.arange 0, 4 : tensor<4xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = blk.expand_dims %1 {axis = 2 : i32} : tensor<4x1xi32> -> tensor<4x1x1xi32>
    %3 = blk.arange 0, 8 : tensor<8xi32>
    %4 = blk.expand_dims %3 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %5 = blk.expand_dims %4 {axis = 2 : i32} : tensor<1x8xi32> -> tensor<1x8x1xi32>
    %6 = blk.arange 0, 32 : tensor<32xi32>
    %7 = blk.expand_dims %6 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %8 = blk.expand_dims %7 {axis = 1 : i32} : tensor<1x32xi32> -> tensor<1x1x32xi32>
    %9 = blk.splat %c256_i32 : i32 -> tensor<4x1x1xi32>
    %10 = arith.muli %2, %9 : tensor<4x1x1xi32>
    %11 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x1x1x!blk.ptr<f32>>
    %12 = blk.addptr %11, %10 : tensor<4x1x1x!blk.ptr<f32>>, tensor<4x1x1xi32>
    %13 = blk.splat %c32_i32 : i32 -> tensor<1x8x1xi32>
    %14 = arith.muli %5, %13 : tensor<1x8x1xi32>
    %15 = blk.broadcast %12 : tensor<4x1x1x!blk.ptr<f32>> -> tensor<4x8x1x!blk.ptr<f32>>
    %16 = blk.broadcast %14 : tensor<1x8x1xi32> -> tensor<4x8x1xi32>
    %17 = blk.addptr %15, %16 : tensor<4x8x1x!blk.ptr<f32>>, tensor<4x8x1xi32>
    %18 = blk.broadcast %17 : tensor<4x8x1x!blk.ptr<f32>> -> tensor<4x8x32x!blk.ptr<f32>>
    %19 = blk.broadcast %8 : tensor<1x1x32xi32> -> tensor<4x8x32xi32>
    %20 = blk.addptr %18, %19 : tensor<4x8x32x!blk.ptr<f32>>, tensor<4x8x32xi32>
    %21 = blk.load %20 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<4x8x32x!blk.ptr<f32>>) -> tensor<4x8x32xf32>
    %22 = blk.expand_dims %3 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %23 = blk.splat %c32_i32 : i32 -> tensor<8x1xi32>
    %24 = arith.muli %22, %23 : tensor<8x1xi32>
    %25 = blk.broadcast %24 : tensor<8x1xi32> -> tensor<8x32xi32>
    %26 = blk.broadcast %7 : tensor<1x32xi32> -> tensor<8x32xi32>
    %27 = arith.addi %25, %26 : tensor<8x32xi32>
    %28 = blk.splat %c32_i32 : i32 -> tensor<4x1xi32>
    %29 = arith.muli %1, %28 : tensor<4x1xi32>
    %30 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %31 = blk.addptr %30, %29 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %32 = blk.broadcast %31 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x32x!blk.ptr<f32>>
    %33 = blk.broadcast %7 : tensor<1x32xi32> -> tensor<4x32xi32>
    %34 = blk.addptr %32, %33 : tensor<4x32x!blk.ptr<f32>>, tensor<4x32xi32>
    %35 = blk.reduce %21 {axis = 1 : i32} : (tensor<4x8x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%arg4: f32, %arg5: f32):
      %48 = arith.addf %arg4, %arg5 : f32
      blk.reduce.return %48 : f32
    }
    blk.store %34, %35 {vec = 4 : i32} : (tensor<4x32x!blk.ptr<f32>>, tensor<4x32xf32>) -> ()
    %36 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<8x32x!blk.ptr<f32>>
    %37 = blk.addptr %36, %27 : tensor<8x32x!blk.ptr<f32>>, tensor<8x32xi32>
    %38 = blk.load %37 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<8x32x!blk.ptr<f32>>) -> tensor<8x32xf32>
    %39 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<4x1x1x!blk.ptr<f32>>
    %40 = blk.addptr %39, %10 : tensor<4x1x1x!blk.ptr<f32>>, tensor<4x1x1xi32>
    %41 = blk.broadcast %40 : tensor<4x1x1x!blk.ptr<f32>> -> tensor<4x8x1x!blk.ptr<f32>>
    %42 = blk.addptr %41, %16 : tensor<4x8x1x!blk.ptr<f32>>, tensor<4x8x1xi32>
    %43 = blk.broadcast %42 : tensor<4x8x1x!blk.ptr<f32>> -> tensor<4x8x32x!blk.ptr<f32>>
    %44 = blk.addptr %43, %19 : tensor<4x8x32x!blk.ptr<f32>>, tensor<4x8x32xi32>
    %45 = blk.expand_dims %38 {axis = 0 : i32} : tensor<8x32xf32> -> tensor<1x8x32xf32>
    %46 = blk.broadcast %45 : tensor<1x8x32xf32> -> tensor<4x8x32xf32>
    %47 = arith.addf %21, %46 : tensor<4x8x32xf32>
    blk.store %44, %47 {vec = 4 : i32} : (tensor<4x8x32x!blk.ptr<f32>>, tensor<4x8x32xf32>) -> ()
    return
  }
}

