// RUN: blk-opt %s --blk-remove-layout-conversions | FileCheck %s

// Index arithmetic of a 3-D tile is computed again in the layout each use
// needs, through slices of slices: arange(0, 4)[:, None, None] becomes an
// arange in the slice of the slice of the tile's layout, expanded twice, and
// the store's pointers of the axis-1 sum are computed in that sum's slice.
// The loaded [8, 32] block's conversion moves data and stays.
// CHECK-DAG: #[[TILE:.+]] = #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-DAG: #[[OUTER:.+]] = #blk.slice<dim = 2, parent = #[[TILE]]>
// CHECK-DAG: #[[SUM1:.+]] = #blk.slice<dim = 1, parent = #[[TILE]]>
// CHECK-DAG: #[[ROWS:.+]] = #blk.slice<dim = 1, parent = #[[OUTER]]>
// CHECK-DAG: #[[ROWS_OF_SUM:.+]] = #blk.slice<dim = 1, parent = #[[SUM1]]>
// CHECK-DAG: #[[ROW0:.+]] = #blk.slice<dim = 0, parent = #[[TILE]]>
// CHECK-LABEL: func.func @k
// CHECK-DAG: %[[R:.+]] = blk.arange 0, 4 : tensor<4xi32, #[[ROWS]]>
// CHECK-DAG: %[[RS:.+]] = blk.arange 0, 4 : tensor<4xi32, #[[ROWS_OF_SUM]]>
// CHECK-DAG: %[[R2:.+]] = blk.expand_dims %[[R]] {axis = 1 : i32} : tensor<4xi32, #[[ROWS]]> -> tensor<4x1xi32, #[[OUTER]]>
// CHECK-DAG: blk.expand_dims %[[R2]] {axis = 2 : i32} : tensor<4x1xi32, #[[OUTER]]> -> tensor<4x1x1xi32, #[[TILE]]>
// CHECK-DAG: blk.expand_dims %[[RS]] {axis = 1 : i32} : tensor<4xi32, #[[ROWS_OF_SUM]]> -> tensor<4x1xi32, #[[SUM1]]>
// CHECK: blk.store %{{.+}}, %{{.+}} {vec = 4 : i32} : (tensor<4x32x!blk.ptr<f32>, #[[SUM1]]>, tensor<4x32xf32, #[[SUM1]]>)
// CHECK: blk.convert_layout %{{.+}} : tensor<8x32xf32, #{{.+}}> -> tensor<8x32xf32, #[[ROW0]]>
// CHECK-NOT: blk.convert_layout
#blocked = #blk.blocked<sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 2, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 1, parent = #blocked1>
#slice4 = #blk.slice<dim = 0, parent = #blocked1>
#slice5 = #blk.slice<dim = 0, parent = #slice1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @k(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %c256_i32 = arith.constant 256 : i32
    %0 = blk.arange 0, 4 : tensor<4xi32, #slice>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32, #slice> -> tensor<4x1xi32, #blocked>
    %2 = blk.convert_layout %1 : tensor<4x1xi32, #blocked> -> tensor<4x1xi32, #slice1>
    %3 = blk.expand_dims %2 {axis = 2 : i32} : tensor<4x1xi32, #slice1> -> tensor<4x1x1xi32, #blocked1>
    %4 = blk.arange 0, 8 : tensor<8xi32, #slice2>
    %5 = blk.convert_layout %4 : tensor<8xi32, #slice2> -> tensor<8xi32, #slice5>
    %6 = blk.expand_dims %5 {axis = 0 : i32} : tensor<8xi32, #slice5> -> tensor<1x8xi32, #slice1>
    %7 = blk.expand_dims %6 {axis = 2 : i32} : tensor<1x8xi32, #slice1> -> tensor<1x8x1xi32, #blocked1>
    %8 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %9 = blk.expand_dims %8 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
    %10 = blk.convert_layout %9 : tensor<1x32xi32, #blocked> -> tensor<1x32xi32, #slice3>
    %11 = blk.expand_dims %10 {axis = 1 : i32} : tensor<1x32xi32, #slice3> -> tensor<1x1x32xi32, #blocked1>
    %12 = blk.splat %c256_i32 : i32 -> tensor<4x1x1xi32, #blocked1>
    %13 = arith.muli %3, %12 : tensor<4x1x1xi32, #blocked1>
    %14 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x1x1x!blk.ptr<f32>, #blocked1>
    %15 = blk.addptr %14, %13 : tensor<4x1x1x!blk.ptr<f32>, #blocked1>, tensor<4x1x1xi32, #blocked1>
    %16 = blk.splat %c32_i32 : i32 -> tensor<1x8x1xi32, #blocked1>
    %17 = arith.muli %7, %16 : tensor<1x8x1xi32, #blocked1>
    %18 = blk.broadcast %15 : tensor<4x1x1x!blk.ptr<f32>, #blocked1> -> tensor<4x8x1x!blk.ptr<f32>, #blocked1>
    %19 = blk.broadcast %17 : tensor<1x8x1xi32, #blocked1> -> tensor<4x8x1xi32, #blocked1>
    %20 = blk.addptr %18, %19 : tensor<4x8x1x!blk.ptr<f32>, #blocked1>, tensor<4x8x1xi32, #blocked1>
    %21 = blk.broadcast %20 : tensor<4x8x1x!blk.ptr<f32>, #blocked1> -> tensor<4x8x32x!blk.ptr<f32>, #blocked1>
    %22 = blk.broadcast %11 : tensor<1x1x32xi32, #blocked1> -> tensor<4x8x32xi32, #blocked1>
    %23 = blk.addptr %21, %22 : tensor<4x8x32x!blk.ptr<f32>, #blocked1>, tensor<4x8x32xi32, #blocked1>
    %24 = blk.load %23 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<4x8x32x!blk.ptr<f32>, #blocked1>) -> tensor<4x8x32xf32, #blocked1>
    %25 = blk.convert_layout %4 : tensor<8xi32, #slice2> -> tensor<8xi32, #slice>
    %26 = blk.expand_dims %25 {axis = 1 : i32} : tensor<8xi32, #slice> -> tensor<8x1xi32, #blocked>
    %27 = blk.splat %c32_i32 : i32 -> tensor<8x1xi32, #blocked>
    %28 = arith.muli %26, %27 : tensor<8x1xi32, #blocked>
    %29 = blk.broadcast %28 : tensor<8x1xi32, #blocked> -> tensor<8x32xi32, #blocked>
    %30 = blk.broadcast %9 : tensor<1x32xi32, #blocked> -> tensor<8x32xi32, #blocked>
    %31 = arith.addi %29, %30 : tensor<8x32xi32, #blocked>
    %32 = blk.splat %c32_i32 : i32 -> tensor<4x1xi32, #blocked>
    %33 = arith.muli %1, %32 : tensor<4x1xi32, #blocked>
    %34 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>, #blocked>
    %35 = blk.addptr %34, %33 : tensor<4x1x!blk.ptr<f32>, #blocked>, tensor<4x1xi32, #blocked>
    %36 = blk.broadcast %35 : tensor<4x1x!blk.ptr<f32>, #blocked> -> tensor<4x32x!blk.ptr<f32>, #blocked>
    %37 = blk.broadcast %9 : tensor<1x32xi32, #blocked> -> tensor<4x32xi32, #blocked>
    %38 = blk.addptr %36, %37 : tensor<4x32x!blk.ptr<f32>, #blocked>, tensor<4x32xi32, #blocked>
    %39 = blk.reduce %24 {axis = 1 : i32} : (tensor<4x8x32xf32, #blocked1>) -> tensor<4x32xf32, #slice3> {
    ^bb0(%arg4: f32, %arg5: f32):
      %54 = arith.addf %arg4, %arg5 : f32
      blk.reduce.return %54 : f32
    }
    %40 = blk.convert_layout %38 : tensor<4x32x!blk.ptr<f32>, #blocked> -> tensor<4x32x!blk.ptr<f32>, #slice3>
    blk.store %40, %39 {vec = 4 : i32} : (tensor<4x32x!blk.ptr<f32>, #slice3>, tensor<4x32xf32, #slice3>) -> ()
    %41 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<8x32x!blk.ptr<f32>, #blocked>
    %42 = blk.addptr %41, %31 : tensor<8x32x!blk.ptr<f32>, #blocked>, tensor<8x32xi32, #blocked>
    %43 = blk.load %42 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<8x32x!blk.ptr<f32>, #blocked>) -> tensor<8x32xf32, #blocked>
    %44 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<4x1x1x!blk.ptr<f32>, #blocked1>
    %45 = blk.addptr %44, %13 : tensor<4x1x1x!blk.ptr<f32>, #blocked1>, tensor<4x1x1xi32, #blocked1>
    %46 = blk.broadcast %45 : tensor<4x1x1x!blk.ptr<f32>, #blocked1> -> tensor<4x8x1x!blk.ptr<f32>, #blocked1>
    %47 = blk.addptr %46, %19 : tensor<4x8x1x!blk.ptr<f32>, #blocked1>, tensor<4x8x1xi32, #blocked1>
    %48 = blk.broadcast %47 : tensor<4x8x1x!blk.ptr<f32>, #blocked1> -> tensor<4x8x32x!blk.ptr<f32>, #blocked1>
    %49 = blk.addptr %48, %22 : tensor<4x8x32x!blk.ptr<f32>, #blocked1>, tensor<4x8x32xi32, #blocked1>
    %50 = blk.convert_layout %43 : tensor<8x32xf32, #blocked> -> tensor<8x32xf32, #slice4>
    %51 = blk.expand_dims %50 {axis = 0 : i32} : tensor<8x32xf32, #slice4> -> tensor<1x8x32xf32, #blocked1>
    %52 = blk.broadcast %51 : tensor<1x8x32xf32, #blocked1> -> tensor<4x8x32xf32, #blocked1>
    %53 = arith.addf %24, %52 : tensor<4x8x32xf32, #blocked1>
    blk.store %49, %53 {vec = 4 : i32} : (tensor<4x8x32x!blk.ptr<f32>, #blocked1>, tensor<4x8x32xf32, #blocked1>) -> ()
    return
  }
}

