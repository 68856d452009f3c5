// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// A gather's indices share its result's layout; its source keeps the layout
// its own readers ask for (the lowering moves it through shared memory).
// Here the result is broadcast along rows (g[:, None]) and the source along
// columns (x[None, :]): the index load takes the row slice with the result,
// the source the column slice, and no conversion is put on either.
// CHECK-DAG: #[[ROWS:.+]] = #blk.slice<dim = 1, parent = #[[TILE:.+]]>
// CHECK-DAG: #[[COLS:.+]] = #blk.slice<dim = 0, parent = #[[TILE]]>
// CHECK-LABEL: func.func @k
// CHECK: %[[X:.+]] = blk.load %{{.+}} -> tensor<32xf32, #[[COLS]]>
// CHECK: %[[I:.+]] = blk.load %{{.+}} -> tensor<32xi32, #[[ROWS]]>
// CHECK-NEXT: blk.gather %[[X]][%[[I]]] {axis = 0 : i32} : tensor<32xf32, #[[COLS]]>, tensor<32xi32, #[[ROWS]]> -> tensor<32xf32, #[[ROWS]]>
module {
  func.func @k(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<i32>, %arg2: !blk.ptr<f32>) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
    %2 = blk.addptr %1, %0 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
    %3 = blk.load %2 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x!blk.ptr<f32>>) -> tensor<32xf32>
    %4 = blk.splat %arg1 : !blk.ptr<i32> -> tensor<32x!blk.ptr<i32>>
    %5 = blk.addptr %4, %0 : tensor<32x!blk.ptr<i32>>, tensor<32xi32>
    %6 = blk.load %5 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x!blk.ptr<i32>>) -> tensor<32xi32>
    %7 = blk.gather %3[%6] {axis = 0 : i32} : tensor<32xf32>, tensor<32xi32> -> tensor<32xf32>
    %8 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c32_i32 = arith.constant 32 : i32
    %9 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32>
    %10 = arith.muli %8, %9 : tensor<32x1xi32>
    %11 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %12 = blk.addptr %11, %10 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %13 = blk.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %14 = blk.broadcast %12 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %15 = blk.broadcast %13 : tensor<1x32xi32> -> tensor<32x32xi32>
    %16 = blk.addptr %14, %15 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %17 = blk.expand_dims %7 {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
    %18 = blk.expand_dims %3 {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    %19 = blk.broadcast %17 : tensor<32x1xf32> -> tensor<32x32xf32>
    %20 = blk.broadcast %18 : tensor<1x32xf32> -> tensor<32x32xf32>
    %21 = arith.addf %19, %20 : tensor<32x32xf32>
    blk.store %16, %21 : (tensor<32x32x!blk.ptr<f32>>, tensor<32x32xf32>) -> ()
    return
  }
}
