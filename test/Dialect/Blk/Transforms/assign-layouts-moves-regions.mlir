// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Layouts across moves, carried by loops and joined by `if` results.
// CHECK-DAG: #[[COLUMNS:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[GROUPS:.+]] = #blk.blocked<sizePerThread = [4, 4, 1], threadsPerWarp = [8, 1, 4], warpsPerCTA = [1, 1, 4], order = [1, 0, 2]>
// CHECK-DAG: #[[ROWS:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>

// A [32, 128] tile read down its columns, reshaped into groups of 32 and
// summed into a loop-carried accumulator: the accumulator (initial value,
// iteration argument, yield, result) takes the reshaped layout of the load,
// so the loop moves nothing between threads; the groups' maxima after the
// loop take its slice.
// CHECK-LABEL: func.func @carried_groups
// CHECK: scf.for {{.*}} -> (tensor<32x4x32xf32, #[[GROUPS]]>)
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<32x4x32xf32
// CHECK: blk.load %{{.+}} -> tensor<32x128xf32, #[[COLUMNS]]>
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<32x4x32xf32
// CHECK: blk.reshape %{{.+}} : tensor<32x128xf32, #[[COLUMNS]]> -> tensor<32x4x32xf32, #[[GROUPS]]>
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<32x4x32xf32
// CHECK: scf.yield %{{.+}} : tensor<32x4x32xf32, #[[GROUPS]]>
// CHECK: blk.reduce %{{.+}} {axis = 2 : i32} : (tensor<32x4x32xf32, #[[GROUPS]]>)

// The transposes of a loaded tile on both branches of an `if`: the result
// (and both yields) take the transpose of the tile's layout, the columns
// fastest, and neither transpose moves data.
// CHECK-LABEL: func.func @chosen_transpose
// CHECK: blk.load %{{.+}} -> tensor<64x32xf32, #[[ROWS]]>
// CHECK: scf.if %{{.+}} -> (tensor<32x64xf32, #[[COLUMNS]]>)
// CHECK: blk.trans %{{.+}} : tensor<64x32xf32, #[[ROWS]]> -> tensor<32x64xf32, #[[COLUMNS]]>
// CHECK: scf.yield %{{.+}} : tensor<32x64xf32, #[[COLUMNS]]>
// CHECK: blk.trans %{{.+}} : tensor<64x32xf32, #[[ROWS]]> -> tensor<32x64xf32, #[[COLUMNS]]>
// CHECK-NEXT: scf.yield %{{.+}} : tensor<32x64xf32, #[[COLUMNS]]>
// CHECK: blk.reduce %{{.+}} {axis = 1 : i32} : (tensor<32x64xf32, #[[COLUMNS]]>)
module {
  func.func @carried_groups(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %2 = blk.arange 0, 128 : tensor<128xi32>
    %3 = blk.expand_dims %2 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %c32_i32 = arith.constant 32 : i32
    %4 = blk.splat %c32_i32 : i32 -> tensor<1x128xi32>
    %5 = arith.muli %3, %4 : tensor<1x128xi32>
    %6 = blk.broadcast %1 : tensor<32x1xi32> -> tensor<32x128xi32>
    %7 = blk.broadcast %5 : tensor<1x128xi32> -> tensor<32x128xi32>
    %8 = arith.addi %6, %7 : tensor<32x128xi32>
    %cst = arith.constant 0.000000e+00 : f32
    %9 = blk.splat %cst : f32 -> tensor<32x4x32xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %10 = scf.for %arg3 = %c0_i32 to %arg2 step %c1_i32 iter_args(%arg4 = %9) -> (tensor<32x4x32xf32>)  : i32 {
      %c4096_i32 = arith.constant 4096 : i32
      %23 = arith.muli %arg3, %c4096_i32 : i32
      %24 = blk.addptr %arg0, %23 : !blk.ptr<f32>, i32
      %25 = blk.splat %24 : !blk.ptr<f32> -> tensor<32x128x!blk.ptr<f32>>
      %26 = blk.addptr %25, %8 : tensor<32x128x!blk.ptr<f32>>, tensor<32x128xi32>
      %27 = blk.load %26 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<32x128x!blk.ptr<f32>>) -> tensor<32x128xf32>
      %28 = arith.mulf %27, %27 : tensor<32x128xf32>
      %29 = blk.reshape %28 : tensor<32x128xf32> -> tensor<32x4x32xf32>
      %30 = arith.addf %arg4, %29 : tensor<32x4x32xf32>
      scf.yield %30 : tensor<32x4x32xf32>
    }
    %11 = blk.arange 0, 32 : tensor<32xi32>
    %12 = blk.expand_dims %11 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c4_i32 = arith.constant 4 : i32
    %13 = blk.splat %c4_i32 : i32 -> tensor<32x1xi32>
    %14 = arith.muli %12, %13 : tensor<32x1xi32>
    %15 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %16 = blk.addptr %15, %14 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %17 = blk.arange 0, 4 : tensor<4xi32>
    %18 = blk.expand_dims %17 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %19 = blk.broadcast %16 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x4x!blk.ptr<f32>>
    %20 = blk.broadcast %18 : tensor<1x4xi32> -> tensor<32x4xi32>
    %21 = blk.addptr %19, %20 : tensor<32x4x!blk.ptr<f32>>, tensor<32x4xi32>
    %22 = blk.reduce %10 {axis = 2 : i32} : (tensor<32x4x32xf32>) -> tensor<32x4xf32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %23 = arith.maxnumf %arg3, %arg4 : f32
      blk.reduce.return %23 : f32
    }
    blk.store %21, %22 {vec = 4 : i32} : (tensor<32x4x!blk.ptr<f32>>, tensor<32x4xf32>) -> ()
    return
  }
  func.func @chosen_transpose(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c32_i32 = arith.constant 32 : i32
    %2 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32>
    %3 = arith.muli %1, %2 : tensor<64x1xi32>
    %4 = blk.arange 0, 32 : tensor<32xi32>
    %5 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = blk.broadcast %3 : tensor<64x1xi32> -> tensor<64x32xi32>
    %7 = blk.broadcast %5 : tensor<1x32xi32> -> tensor<64x32xi32>
    %8 = arith.addi %6, %7 : tensor<64x32xi32>
    %9 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>>
    %10 = blk.addptr %9, %8 : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>>) -> tensor<64x32xf32>
    %c0_i32 = arith.constant 0 : i32
    %12 = arith.cmpi sgt, %arg2, %c0_i32 : i32
    %13 = scf.if %12 -> (tensor<32x64xf32>) {
      %18 = blk.trans %11 : tensor<64x32xf32> -> tensor<32x64xf32>
      %cst = arith.constant 2.000000e+00 : f32
      %19 = blk.splat %cst : f32 -> tensor<32x64xf32>
      %20 = arith.mulf %18, %19 : tensor<32x64xf32>
      scf.yield %20 : tensor<32x64xf32>
    } else {
      %18 = blk.trans %11 : tensor<64x32xf32> -> tensor<32x64xf32>
      scf.yield %18 : tensor<32x64xf32>
    }
    %14 = blk.arange 0, 32 : tensor<32xi32>
    %15 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
    %16 = blk.addptr %15, %14 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
    %17 = blk.reduce %13 {axis = 1 : i32} : (tensor<32x64xf32>) -> tensor<32xf32> {
    ^bb0(%arg3: f32, %arg4: f32):
      %18 = arith.addf %arg3, %arg4 : f32
      blk.reduce.return %18 : f32
    }
    blk.store %16, %17 {vec = 4 : i32} : (tensor<32x!blk.ptr<f32>>, tensor<32xf32>) -> ()
    return
  }
}

