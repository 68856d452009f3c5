// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// A loop-carried sum of products over a broadcast [16, 8, 16] block
// (acc += sum(x[:, :, None] * y[None, :, :], axis=1)): the carried [16, 16]
// accumulator takes the slice of the 3-D layout that its reduction along
// axis 1 produces, so the loop adds and yields it with no conversion (the
// product keeps axis 1 in each thread's registers: assign-layouts-cost.mlir); each
// loaded tile keeps the layout its load anchors and moves into the slice it is
// expanded from; the store after the loop writes in the accumulator's slice.
// CHECK-DAG: #[[PRODUCT:.+]] = #blk.blocked<sizePerThread = [1, 8, 1], threadsPerWarp = [2, 1, 16], warpsPerCTA = [4, 1, 1], order = [2, 0, 1]>
// CHECK-DAG: #[[SUM1:.+]] = #blk.slice<dim = 1, parent = #[[PRODUCT]]>
// CHECK-DAG: #[[XS:.+]] = #blk.slice<dim = 2, parent = #[[PRODUCT]]>
// CHECK-DAG: #[[YS:.+]] = #blk.slice<dim = 0, parent = #[[PRODUCT]]>
// CHECK-LABEL: func.func @k
// CHECK: %[[LOOP:.+]] = scf.for {{.+}} iter_args(%[[ACC:[^ ]+]] = %{{.+}}) -> (tensor<16x16xf32, #[[SUM1]]>)
// CHECK: blk.convert_layout %{{.+}} : tensor<16x8xf32, #{{.+}}> -> tensor<16x8xf32, #[[XS]]>
// CHECK: blk.convert_layout %{{.+}} : tensor<8x16xf32, #{{.+}}> -> tensor<8x16xf32, #[[YS]]>
// CHECK: %[[S:.+]] = blk.reduce %{{.+}} {axis = 1 : i32} : (tensor<16x8x16xf32, #[[PRODUCT]]>) -> tensor<16x16xf32, #[[SUM1]]>
// CHECK: %[[NEXT:.+]] = arith.addf %[[ACC]], %[[S]] : tensor<16x16xf32, #[[SUM1]]>
// CHECK-NEXT: scf.yield %[[NEXT]] : tensor<16x16xf32, #[[SUM1]]>
// CHECK: blk.store %{{.+}}, %[[LOOP]] {vec = 4 : i32} : (tensor<16x16x!blk.ptr<f32>, #[[SUM1]]>, tensor<16x16xf32, #[[SUM1]]>)
module {
  func.func @k(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32) attributes {blk.constants = {}, blk.kernel} {
    %c16_i32 = arith.constant 16 : i32
    %c8_i32 = arith.constant 8 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.splat %cst : f32 -> tensor<16x16xf32>
    %1 = scf.for %arg4 = %c0_i32 to %arg3 step %c8_i32 iter_args(%arg5 = %0) -> (tensor<16x16xf32>)  : i32 {
      %12 = blk.arange 0, 8 : tensor<8xi32>
      %13 = blk.splat %arg4 : i32 -> tensor<8xi32>
      %14 = arith.addi %13, %12 : tensor<8xi32>
      %15 = blk.arange 0, 16 : tensor<16xi32>
      %16 = blk.expand_dims %15 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %17 = blk.splat %arg3 : i32 -> tensor<16x1xi32>
      %18 = arith.muli %16, %17 : tensor<16x1xi32>
      %19 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>>
      %20 = blk.addptr %19, %18 : tensor<16x1x!blk.ptr<f32>>, tensor<16x1xi32>
      %21 = blk.expand_dims %14 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
      %22 = blk.broadcast %20 : tensor<16x1x!blk.ptr<f32>> -> tensor<16x8x!blk.ptr<f32>>
      %23 = blk.broadcast %21 : tensor<1x8xi32> -> tensor<16x8xi32>
      %24 = blk.addptr %22, %23 : tensor<16x8x!blk.ptr<f32>>, tensor<16x8xi32>
      %25 = blk.load %24 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<16x8x!blk.ptr<f32>>) -> tensor<16x8xf32>
      %26 = blk.expand_dims %14 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
      %27 = blk.splat %c16_i32 : i32 -> tensor<8x1xi32>
      %28 = arith.muli %26, %27 : tensor<8x1xi32>
      %29 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<8x1x!blk.ptr<f32>>
      %30 = blk.addptr %29, %28 : tensor<8x1x!blk.ptr<f32>>, tensor<8x1xi32>
      %31 = blk.expand_dims %15 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %32 = blk.broadcast %30 : tensor<8x1x!blk.ptr<f32>> -> tensor<8x16x!blk.ptr<f32>>
      %33 = blk.broadcast %31 : tensor<1x16xi32> -> tensor<8x16xi32>
      %34 = blk.addptr %32, %33 : tensor<8x16x!blk.ptr<f32>>, tensor<8x16xi32>
      %35 = blk.load %34 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<8x16x!blk.ptr<f32>>) -> tensor<8x16xf32>
      %36 = blk.expand_dims %25 {axis = 2 : i32} : tensor<16x8xf32> -> tensor<16x8x1xf32>
      %37 = blk.expand_dims %35 {axis = 0 : i32} : tensor<8x16xf32> -> tensor<1x8x16xf32>
      %38 = blk.broadcast %36 : tensor<16x8x1xf32> -> tensor<16x8x16xf32>
      %39 = blk.broadcast %37 : tensor<1x8x16xf32> -> tensor<16x8x16xf32>
      %40 = arith.mulf %38, %39 : tensor<16x8x16xf32>
      %41 = blk.reduce %40 {axis = 1 : i32} : (tensor<16x8x16xf32>) -> tensor<16x16xf32> {
      ^bb0(%arg6: f32, %arg7: f32):
        %43 = arith.addf %arg6, %arg7 : f32
        blk.reduce.return %43 : f32
      }
      %42 = arith.addf %arg5, %41 : tensor<16x16xf32>
      scf.yield %42 : tensor<16x16xf32>
    }
    %2 = blk.arange 0, 16 : tensor<16xi32>
    %3 = blk.expand_dims %2 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %4 = blk.splat %c16_i32 : i32 -> tensor<16x1xi32>
    %5 = arith.muli %3, %4 : tensor<16x1xi32>
    %6 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>>
    %7 = blk.addptr %6, %5 : tensor<16x1x!blk.ptr<f32>>, tensor<16x1xi32>
    %8 = blk.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %9 = blk.broadcast %7 : tensor<16x1x!blk.ptr<f32>> -> tensor<16x16x!blk.ptr<f32>>
    %10 = blk.broadcast %8 : tensor<1x16xi32> -> tensor<16x16xi32>
    %11 = blk.addptr %9, %10 : tensor<16x16x!blk.ptr<f32>>, tensor<16x16xi32>
    blk.store %11, %1 {vec = 4 : i32} : (tensor<16x16x!blk.ptr<f32>>, tensor<16x16xf32>) -> ()
    return
  }
}

