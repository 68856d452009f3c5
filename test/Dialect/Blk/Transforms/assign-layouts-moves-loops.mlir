// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// The cost of a layout counts each op once per iteration of the loops
// around it (8 per loop). Pairs summed into a loop-carried [32, 16, 2]
// accumulator from a tile read one element a thread, then split after the
// loop: carried across the reshape, the tile's layout puts each pair across
// two lanes, so the two reductions of the split shuffle once after the loop
// (cost 24); the layout that keeps pairs in registers would move the tile
// by shuffles in every iteration (16 per iteration, counted 128). The
// accumulator takes the reshaped layout and the reshape renames registers.
// CHECK-DAG: #[[TILE:.+]] = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[PAIRS:.+]] = #blk.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-LABEL: func.func @pairs_after_loop
// CHECK: scf.for {{.*}} -> (tensor<32x16x2xf32, #[[PAIRS]]>)
// CHECK: blk.reshape %{{.+}} : tensor<32x32xf32, #[[TILE]]> -> tensor<32x16x2xf32, #[[PAIRS]]>
// CHECK: blk.reduce %{{.+}} {axis = 2 : i32} : (tensor<32x16x2xf32, #[[PAIRS]]>
module {
  func.func @pairs_after_loop(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>, %arg3: i32) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c32_i32 = arith.constant 32 : i32
    %2 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32>
    %3 = arith.muli %1, %2 : tensor<32x1xi32>
    %4 = blk.arange 0, 32 : tensor<32xi32>
    %5 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = blk.broadcast %3 : tensor<32x1xi32> -> tensor<32x32xi32>
    %7 = blk.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = arith.addi %6, %7 : tensor<32x32xi32>
    %cst = arith.constant 0.000000e+00 : f32
    %9 = blk.splat %cst : f32 -> tensor<32x16x2xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %10 = scf.for %arg4 = %c0_i32 to %arg3 step %c1_i32 iter_args(%arg5 = %9) -> (tensor<32x16x2xf32>)  : i32 {
      %c1024_i32 = arith.constant 1024 : i32
      %30 = arith.muli %arg4, %c1024_i32 : i32
      %31 = blk.addptr %arg0, %30 : !blk.ptr<f32>, i32
      %32 = blk.splat %31 : !blk.ptr<f32> -> tensor<32x32x!blk.ptr<f32>>
      %33 = blk.addptr %32, %8 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
      %34 = blk.load %33 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x32x!blk.ptr<f32>>) -> tensor<32x32xf32>
      %35 = blk.reshape %34 : tensor<32x32xf32> -> tensor<32x16x2xf32>
      %36 = arith.addf %arg5, %35 : tensor<32x16x2xf32>
      scf.yield %36 : tensor<32x16x2xf32>
    }
    %11 = blk.arange 0, 2 : tensor<2xi32>
    %12 = blk.expand_dims %11 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %13 = blk.expand_dims %12 {axis = 0 : i32} : tensor<1x2xi32> -> tensor<1x1x2xi32>
    %14 = blk.broadcast %13 : tensor<1x1x2xi32> -> tensor<32x16x2xi32>
    %15:2 = blk.reduce %10, %14 {axis = 2 : i32} : (tensor<32x16x2xf32>, tensor<32x16x2xi32>) -> (tensor<32x16xf32>, tensor<32x16xi32>) {
    ^bb0(%arg4: f32, %arg5: i32, %arg6: f32, %arg7: i32):
      %c0_i32_0 = arith.constant 0 : i32
      %30 = arith.cmpi eq, %arg5, %c0_i32_0 : i32
      %31 = arith.select %30, %arg4, %arg6 : f32
      %32 = arith.select %30, %arg5, %arg7 : i32
      blk.reduce.return %31, %32 : f32, i32
    }
    %16:2 = blk.reduce %10, %14 {axis = 2 : i32} : (tensor<32x16x2xf32>, tensor<32x16x2xi32>) -> (tensor<32x16xf32>, tensor<32x16xi32>) {
    ^bb0(%arg4: f32, %arg5: i32, %arg6: f32, %arg7: i32):
      %c1_i32_0 = arith.constant 1 : i32
      %30 = arith.cmpi eq, %arg5, %c1_i32_0 : i32
      %31 = arith.select %30, %arg4, %arg6 : f32
      %32 = arith.select %30, %arg5, %arg7 : i32
      blk.reduce.return %31, %32 : f32, i32
    }
    %17 = blk.arange 0, 32 : tensor<32xi32>
    %18 = blk.expand_dims %17 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %19 = blk.splat %c16_i32 : i32 -> tensor<32x1xi32>
    %20 = arith.muli %18, %19 : tensor<32x1xi32>
    %21 = blk.arange 0, 16 : tensor<16xi32>
    %22 = blk.expand_dims %21 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %23 = blk.broadcast %20 : tensor<32x1xi32> -> tensor<32x16xi32>
    %24 = blk.broadcast %22 : tensor<1x16xi32> -> tensor<32x16xi32>
    %25 = arith.addi %23, %24 : tensor<32x16xi32>
    %26 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x16x!blk.ptr<f32>>
    %27 = blk.addptr %26, %25 : tensor<32x16x!blk.ptr<f32>>, tensor<32x16xi32>
    blk.store %27, %15#0 : (tensor<32x16x!blk.ptr<f32>>, tensor<32x16xf32>) -> ()
    %28 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<32x16x!blk.ptr<f32>>
    %29 = blk.addptr %28, %25 : tensor<32x16x!blk.ptr<f32>>, tensor<32x16xi32>
    blk.store %29, %16#0 : (tensor<32x16x!blk.ptr<f32>>, tensor<32x16xf32>) -> ()
    return
  }
}

