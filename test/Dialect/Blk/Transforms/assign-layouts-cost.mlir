// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// A group that no access or move binds takes, of the kernel's layout for
// its rank and the layouts that keep the axis of one of its reductions in
// each thread's registers, the one that costs least at its moves, combines
// and the conversions of loaded blocks broadcast into it (each times the
// loops around it). The product of a [16, 8] tile of x and an [8, 16] tile
// of y, broadcast to [16, 8, 16] and summed along the middle axis in a loop:
// in the kernel's 3-D layout that axis crosses 8 lanes, and the sum would
// shuffle in every iteration; both tiles are converted either way. The
// product takes the 8 values of its middle axis in each thread's registers
// (lanes and warps over the other two), the sum runs in registers, and each
// tile is converted into that layout's slice in front of its expansion.
// CHECK-DAG: #[[X:.+]] = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[Y:.+]] = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[PRODUCT:.+]] = #blk.blocked<sizePerThread = [1, 8, 1], threadsPerWarp = [2, 1, 16], warpsPerCTA = [4, 1, 1], order = [2, 0, 1]>
// CHECK-DAG: #[[XS:.+]] = #blk.slice<dim = 2, parent = #[[PRODUCT]]>
// CHECK-DAG: #[[YS:.+]] = #blk.slice<dim = 0, parent = #[[PRODUCT]]>
// CHECK-LABEL: func.func @broadcast_product
// CHECK: scf.for
// CHECK: blk.convert_layout %{{.+}} : tensor<16x8xf32, #[[X]]> -> tensor<16x8xf32, #[[XS]]>
// CHECK: blk.convert_layout %{{.+}} : tensor<8x16xf32, #[[Y]]> -> tensor<8x16xf32, #[[YS]]>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<16x8x16xf32, #[[PRODUCT]]>
// CHECK-NEXT: blk.reduce %{{.+}} {axis = 1 : i32} : (tensor<16x8x16xf32, #[[PRODUCT]]>)
module {
  func.func @broadcast_product(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>, %arg3: i32) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 16 : tensor<16xi32>
    %1 = blk.arange 0, 16 : tensor<16xi32>
    %cst = arith.constant 0.000000e+00 : f32
    %2 = blk.splat %cst : f32 -> tensor<16x16xf32>
    %c0_i32 = arith.constant 0 : i32
    %c8_i32 = arith.constant 8 : i32
    %3 = scf.for %arg4 = %c0_i32 to %arg3 step %c8_i32 iter_args(%arg5 = %2) -> (tensor<16x16xf32>)  : i32 {
      %13 = blk.arange 0, 8 : tensor<8xi32>
      %14 = blk.splat %arg4 : i32 -> tensor<8xi32>
      %15 = arith.addi %14, %13 : tensor<8xi32>
      %16 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %17 = blk.splat %arg3 : i32 -> tensor<16x1xi32>
      %18 = arith.muli %16, %17 : tensor<16x1xi32>
      %19 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>>
      %20 = blk.addptr %19, %18 : tensor<16x1x!blk.ptr<f32>>, tensor<16x1xi32>
      %21 = blk.expand_dims %15 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
      %22 = blk.broadcast %20 : tensor<16x1x!blk.ptr<f32>> -> tensor<16x8x!blk.ptr<f32>>
      %23 = blk.broadcast %21 : tensor<1x8xi32> -> tensor<16x8xi32>
      %24 = blk.addptr %22, %23 : tensor<16x8x!blk.ptr<f32>>, tensor<16x8xi32>
      %25 = blk.load %24 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x8x!blk.ptr<f32>>) -> tensor<16x8xf32>
      %26 = blk.expand_dims %15 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
      %c16_i32_0 = arith.constant 16 : i32
      %27 = blk.splat %c16_i32_0 : i32 -> tensor<8x1xi32>
      %28 = arith.muli %26, %27 : tensor<8x1xi32>
      %29 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<8x1x!blk.ptr<f32>>
      %30 = blk.addptr %29, %28 : tensor<8x1x!blk.ptr<f32>>, tensor<8x1xi32>
      %31 = blk.expand_dims %1 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %32 = blk.broadcast %30 : tensor<8x1x!blk.ptr<f32>> -> tensor<8x16x!blk.ptr<f32>>
      %33 = blk.broadcast %31 : tensor<1x16xi32> -> tensor<8x16xi32>
      %34 = blk.addptr %32, %33 : tensor<8x16x!blk.ptr<f32>>, tensor<8x16xi32>
      %35 = blk.load %34 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<8x16x!blk.ptr<f32>>) -> tensor<8x16xf32>
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
    %4 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %5 = blk.splat %c16_i32 : i32 -> tensor<16x1xi32>
    %6 = arith.muli %4, %5 : tensor<16x1xi32>
    %7 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>>
    %8 = blk.addptr %7, %6 : tensor<16x1x!blk.ptr<f32>>, tensor<16x1xi32>
    %9 = blk.expand_dims %1 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %10 = blk.broadcast %8 : tensor<16x1x!blk.ptr<f32>> -> tensor<16x16x!blk.ptr<f32>>
    %11 = blk.broadcast %9 : tensor<1x16xi32> -> tensor<16x16xi32>
    %12 = blk.addptr %10, %11 : tensor<16x16x!blk.ptr<f32>>, tensor<16x16xi32>
    blk.store %12, %3 : (tensor<16x16x!blk.ptr<f32>>, tensor<16x16xf32>) -> ()
    return
  }
}

