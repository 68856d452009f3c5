// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Index arithmetic does not tie data to its other uses: the offsets are
// first asked for as rows (offs[:, None]), but the load of a statistic
// broadcast along columns (stat[None, :]) takes the column slice its reader
// wants; its pointer is converted instead (blk-remove-layout-conversions
// computes it again in that layout), not the loaded data.
// CHECK-DAG: #[[ROWS:.+]] = #blk.slice<dim = 1, parent = #[[TILE:.+]]>
// CHECK-DAG: #[[COLS:.+]] = #blk.slice<dim = 0, parent = #[[TILE]]>
// CHECK-LABEL: func.func @row_scale
// CHECK: blk.arange 0, 32 : tensor<32xi32, #[[ROWS]]>
// CHECK: %[[PTR:.+]] = blk.convert_layout %{{.+}} : tensor<32x!blk.ptr<f32>, #[[ROWS]]> -> tensor<32x!blk.ptr<f32>, #[[COLS]]>
// CHECK-NEXT: %[[STAT:.+]] = blk.load %[[PTR]] {{.*}} -> tensor<32xf32, #[[COLS]]>
// CHECK-NOT: blk.convert_layout %[[STAT]]
// CHECK: blk.expand_dims %[[STAT]] {axis = 0 : i32} : tensor<32xf32, #[[COLS]]>
// A store of data takes the data's layout: the column sums keep their
// reduction's column slice, though the offsets they are stored at come from
// an arange first asked for as rows; the pointer is converted, not the sums.
// CHECK-LABEL: func.func @column_sums_store
// CHECK: %[[SUMS:.+]] = blk.reduce %{{.+}} {axis = 0 : i32} : (tensor<32x32xf32, #[[TILE]]>) -> tensor<32xf32, #[[COLS]]>
// CHECK: %[[PTR:.+]] = blk.convert_layout %{{.+}} : tensor<32x!blk.ptr<f32>, #[[ROWS]]> -> tensor<32x!blk.ptr<f32>, #[[COLS]]>
// CHECK-NEXT: blk.store %[[PTR]], %[[SUMS]]{{.*}}: (tensor<32x!blk.ptr<f32>, #[[COLS]]>, tensor<32xf32, #[[COLS]]>)
module {
  func.func @row_scale(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32>
    %3 = arith.muli %1, %2 : tensor<32x1xi32>
    %4 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %5 = blk.addptr %4, %3 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %6 = blk.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %7 = blk.broadcast %5 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %8 = blk.broadcast %6 : tensor<1x32xi32> -> tensor<32x32xi32>
    %9 = blk.addptr %7, %8 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %10 = blk.load %9 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x32x!blk.ptr<f32>>) -> tensor<32x32xf32>
    %11 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
    %12 = blk.addptr %11, %0 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
    %13 = blk.load %12 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x!blk.ptr<f32>>) -> tensor<32xf32>
    %14 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %15 = blk.addptr %14, %3 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %16 = blk.broadcast %15 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %17 = blk.addptr %16, %8 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %18 = blk.expand_dims %13 {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    %19 = blk.broadcast %18 : tensor<1x32xf32> -> tensor<32x32xf32>
    %20 = arith.mulf %10, %19 : tensor<32x32xf32>
    blk.store %17, %20 {vec = 4 : i32} : (tensor<32x32x!blk.ptr<f32>>, tensor<32x32xf32>) -> ()
    return
  }
  func.func @column_sums_store(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32>
    %3 = arith.muli %1, %2 : tensor<32x1xi32>
    %4 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %5 = blk.addptr %4, %3 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %6 = blk.expand_dims %0 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %7 = blk.broadcast %5 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %8 = blk.broadcast %6 : tensor<1x32xi32> -> tensor<32x32xi32>
    %9 = blk.addptr %7, %8 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %10 = blk.load %9 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x32x!blk.ptr<f32>>) -> tensor<32x32xf32>
    %11 = blk.reduce %10 {axis = 0 : i32} : (tensor<32x32xf32>) -> tensor<32xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      blk.reduce.return %s : f32
    }
    %12 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
    %13 = blk.addptr %12, %0 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
    blk.store %13, %11 {vec = 1 : i32} : (tensor<32x!blk.ptr<f32>>, tensor<32xf32>) -> ()
    return
  }
}
