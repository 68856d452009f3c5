// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// The layouts (printed before the functions).
// CHECK-DAG: #[[ROWS:.+]] = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[LONG:.+]] = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[SORTED:.+]] = #blk.blocked<sizePerThread = [1, 32], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>

// A sort keeps its source's layout: here the kernel's, which puts warps
// along the rows, lanes and registers along the axis.
// CHECK-LABEL: func.func @rows_over_warps
// CHECK: %[[X:.+]] = blk.load %{{.+}} -> tensor<4x512xf32, #[[ROWS]]>
// CHECK-NEXT: %[[Y:.+]] = blk.sort %[[X]] : tensor<4x512xf32, #[[ROWS]]> -> tensor<4x512xf32, #[[ROWS]]>
// CHECK-NEXT: blk.store %{{.+}}, %[[Y]] : (tensor<4x512x!blk.ptr<f32>, #[[ROWS]]>, tensor<4x512xf32, #[[ROWS]]>) -> ()
module {
  func.func @rows_over_warps(%arg0: !blk.ptr<f32>) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 4 : tensor<4xi32>
    %1 = blk.arange 0, 512 : tensor<512xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %c512 = arith.constant 512 : i32
    %3 = blk.splat %c512 : i32 -> tensor<4x1xi32>
    %4 = arith.muli %2, %3 : tensor<4x1xi32>
    %5 = blk.expand_dims %1 {axis = 0 : i32} : tensor<512xi32> -> tensor<1x512xi32>
    %6 = blk.broadcast %4 : tensor<4x1xi32> -> tensor<4x512xi32>
    %7 = blk.broadcast %5 : tensor<1x512xi32> -> tensor<4x512xi32>
    %8 = arith.addi %6, %7 : tensor<4x512xi32>
    %9 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x512x!blk.ptr<f32>>
    %10 = blk.addptr %9, %8 : tensor<4x512x!blk.ptr<f32>>, tensor<4x512xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x512x!blk.ptr<f32>>) -> tensor<4x512xf32>
    %12 = blk.sort %11 : tensor<4x512xf32> -> tensor<4x512xf32>
    blk.store %10, %12 : (tensor<4x512x!blk.ptr<f32>>, tensor<4x512xf32>) -> ()
    return
  }

// A 1-D topk: the source keeps the load's layout, the four results get the
// layout of their own shape (here the same attribute), with no conversion.
// CHECK-LABEL: func.func @topk_1d
// CHECK: %[[V:.+]] = blk.load %{{.+}} -> tensor<1024xi32, #[[LONG]]>
// CHECK-NEXT: %[[T:.+]] = blk.sort %[[V]] {descending} : tensor<1024xi32, #[[LONG]]> -> tensor<4xi32, #[[LONG]]>
// CHECK-NOT: blk.convert_layout
  func.func @topk_1d(%arg0: !blk.ptr<i32>, %arg1: !blk.ptr<i32>) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 1024 : tensor<1024xi32>
    %1 = blk.splat %arg0 : !blk.ptr<i32> -> tensor<1024x!blk.ptr<i32>>
    %2 = blk.addptr %1, %0 : tensor<1024x!blk.ptr<i32>>, tensor<1024xi32>
    %3 = blk.load %2 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!blk.ptr<i32>>) -> tensor<1024xi32>
    %4 = blk.sort %3 {descending} : tensor<1024xi32> -> tensor<4xi32>
    %5 = blk.arange 0, 4 : tensor<4xi32>
    %6 = blk.splat %arg1 : !blk.ptr<i32> -> tensor<4x!blk.ptr<i32>>
    %7 = blk.addptr %6, %5 : tensor<4x!blk.ptr<i32>>, tensor<4xi32>
    blk.store %7, %4 : (tensor<4x!blk.ptr<i32>>, tensor<4xi32>) -> ()
    return
  }

// Each accessed block takes a layout fitted to its own shape: the [8, 256]
// block puts its warps along its rows whatever the [2, 2048] block beside it
// takes, so its sort asks for nothing. The [2, 2048] block's own layout
// spreads each row over two warps, so its sort asks for warps along the
// rows as far as they reach, lanes and 32 registers along them.
// CHECK-LABEL: func.func @sorted_rows_over_warps
// CHECK: %[[X:.+]] = blk.load %{{.+}} -> tensor<2x2048xf32, #[[SORTED]]>
// CHECK-NEXT: blk.sort %[[X]] : tensor<2x2048xf32, #[[SORTED]]> -> tensor<2x2048xf32, #[[SORTED]]>
// CHECK: %[[Y:.+]] = blk.load %{{.+}} -> tensor<8x256xf32, #[[ROWS]]>
// CHECK-NEXT: blk.sort %[[Y]] : tensor<8x256xf32, #[[ROWS]]> -> tensor<8x256xf32, #[[ROWS]]>
  func.func @sorted_rows_over_warps(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>) attributes {blk.constants = {}, blk.kernel} {
    %a0 = blk.arange 0, 2 : tensor<2xi32>
    %a1 = blk.arange 0, 2048 : tensor<2048xi32>
    %a2 = blk.expand_dims %a0 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %a3 = arith.constant 2048 : i32
    %a4 = blk.splat %a3 : i32 -> tensor<2x1xi32>
    %a5 = arith.muli %a2, %a4 : tensor<2x1xi32>
    %a6 = blk.expand_dims %a1 {axis = 0 : i32} : tensor<2048xi32> -> tensor<1x2048xi32>
    %a7 = blk.broadcast %a5 : tensor<2x1xi32> -> tensor<2x2048xi32>
    %a8 = blk.broadcast %a6 : tensor<1x2048xi32> -> tensor<2x2048xi32>
    %a9 = arith.addi %a7, %a8 : tensor<2x2048xi32>
    %a10 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<2x2048x!blk.ptr<f32>>
    %a11 = blk.addptr %a10, %a9 : tensor<2x2048x!blk.ptr<f32>>, tensor<2x2048xi32>
    %x = blk.load %a11 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<2x2048x!blk.ptr<f32>>) -> tensor<2x2048xf32>
    %xs = blk.sort %x : tensor<2x2048xf32> -> tensor<2x2048xf32>
    blk.store %a11, %xs : (tensor<2x2048x!blk.ptr<f32>>, tensor<2x2048xf32>) -> ()
    %b0 = blk.arange 0, 8 : tensor<8xi32>
    %b1 = blk.arange 0, 256 : tensor<256xi32>
    %b2 = blk.expand_dims %b0 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %b3 = arith.constant 256 : i32
    %b4 = blk.splat %b3 : i32 -> tensor<8x1xi32>
    %b5 = arith.muli %b2, %b4 : tensor<8x1xi32>
    %b6 = blk.expand_dims %b1 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %b7 = blk.broadcast %b5 : tensor<8x1xi32> -> tensor<8x256xi32>
    %b8 = blk.broadcast %b6 : tensor<1x256xi32> -> tensor<8x256xi32>
    %b9 = arith.addi %b7, %b8 : tensor<8x256xi32>
    %b10 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<8x256x!blk.ptr<f32>>
    %b11 = blk.addptr %b10, %b9 : tensor<8x256x!blk.ptr<f32>>, tensor<8x256xi32>
    %y = blk.load %b11 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x256x!blk.ptr<f32>>) -> tensor<8x256xf32>
    %z = blk.sort %y : tensor<8x256xf32> -> tensor<8x256xf32>
    blk.store %b11, %z : (tensor<8x256x!blk.ptr<f32>>, tensor<8x256xf32>) -> ()
    return
  }
}
