// RUN: blk-opt %s --blk-pipeline-loads=num-stages=3 --canonicalize | FileCheck %s
// RUN: blk-opt %s --blk-pipeline-loads="num-stages=3 num-warps=16" --canonicalize | FileCheck %s --check-prefix=WIDE

// In a loop without dots, a [128, 64] f32 tile two iterations ahead would
// take 128 registers in each thread of 4 warps: it is left to
// blk-pipeline-dot's ring (the loop carries no tile, the load stays in its
// iteration). Over 16 warps it takes 32, and the loop carries it.
// CHECK-LABEL: func.func @column_maxes
// CHECK: scf.for {{.*}} -> (tensor<64xf32>)
// CHECK: blk.load %{{.+}} : (tensor<128x64x!blk.ptr<f32>>
// CHECK: scf.yield
// WIDE-LABEL: func.func @column_maxes
// WIDE: scf.for {{.*}} -> (tensor<64xf32>, tensor<128x64xf32>, tensor<128x64xf32>)

// A [32, 32] tile takes 8 registers per iteration ahead: carried.
// CHECK-LABEL: func.func @small_column_maxes
// CHECK: scf.for {{.*}} -> (tensor<32xf32>, tensor<32x32xf32>, tensor<32x32xf32>)
// WIDE-LABEL: func.func @small_column_maxes
// WIDE: scf.for {{.*}} -> (tensor<32xf32>, tensor<32x32xf32>, tensor<32x32xf32>)
module {
  func.func @column_maxes(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {C = 64 : i64, R = 128 : i64}, blk.kernel} {
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0xFF800000 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = blk.splat %cst : f32 -> tensor<64xf32>
    %6 = scf.for %arg3 = %c0_i32 to %arg2 step %c128_i32 iter_args(%arg4 = %5) -> (tensor<64xf32>)  : i32 {
      %9 = blk.arange 0, 128 : tensor<128xi32>
      %10 = blk.splat %arg3 : i32 -> tensor<128xi32>
      %11 = arith.addi %10, %9 : tensor<128xi32>
      %12 = blk.expand_dims %11 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
      %13 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32>
      %14 = arith.muli %12, %13 : tensor<128x1xi32>
      %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
      %16 = blk.addptr %15, %14 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
      %17 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %18 = blk.broadcast %16 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x64x!blk.ptr<f32>>
      %19 = blk.broadcast %17 : tensor<1x64xi32> -> tensor<128x64xi32>
      %20 = blk.addptr %18, %19 : tensor<128x64x!blk.ptr<f32>>, tensor<128x64xi32>
      %21 = blk.expand_dims %11 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
      %22 = blk.splat %arg2 : i32 -> tensor<128x1xi32>
      %23 = arith.cmpi slt, %21, %22 : tensor<128x1xi32>
      %24 = blk.broadcast %23 : tensor<128x1xi1> -> tensor<128x64xi1>
      %25 = blk.splat %cst : f32 -> tensor<128x64xf32>
      %26 = blk.load %20, %24, %25 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x64x!blk.ptr<f32>>, tensor<128x64xi1>, tensor<128x64xf32>) -> tensor<128x64xf32>
      %27 = blk.reduce %26 {axis = 0 : i32} : (tensor<128x64xf32>) -> tensor<64xf32> {
      ^bb0(%arg5: f32, %arg6: f32):
        %29 = arith.maxnumf %arg5, %arg6 : f32
        blk.reduce.return %29 : f32
      }
      %28 = arith.maxnumf %arg4, %27 : tensor<64xf32>
      scf.yield %28 : tensor<64xf32>
    }
    %7 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
    blk.store %8, %6 : (tensor<64x!blk.ptr<f32>>, tensor<64xf32>) -> ()
    return
  }
  func.func @small_column_maxes(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {C = 32 : i64, R = 32 : i64}, blk.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0xFF800000 : f32
    %c32_i32 = arith.constant 32 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c32_i32 : i32
    %2 = blk.arange 0, 32 : tensor<32xi32>
    %3 = blk.splat %1 : i32 -> tensor<32xi32>
    %4 = arith.addi %3, %2 : tensor<32xi32>
    %5 = blk.splat %cst : f32 -> tensor<32xf32>
    %6 = scf.for %arg3 = %c0_i32 to %arg2 step %c32_i32 iter_args(%arg4 = %5) -> (tensor<32xf32>)  : i32 {
      %9 = blk.arange 0, 32 : tensor<32xi32>
      %10 = blk.splat %arg3 : i32 -> tensor<32xi32>
      %11 = arith.addi %10, %9 : tensor<32xi32>
      %12 = blk.expand_dims %11 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %13 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32>
      %14 = arith.muli %12, %13 : tensor<32x1xi32>
      %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
      %16 = blk.addptr %15, %14 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
      %17 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %18 = blk.broadcast %16 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
      %19 = blk.broadcast %17 : tensor<1x32xi32> -> tensor<32x32xi32>
      %20 = blk.addptr %18, %19 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
      %21 = blk.expand_dims %11 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %22 = blk.splat %arg2 : i32 -> tensor<32x1xi32>
      %23 = arith.cmpi slt, %21, %22 : tensor<32x1xi32>
      %24 = blk.broadcast %23 : tensor<32x1xi1> -> tensor<32x32xi1>
      %25 = blk.splat %cst : f32 -> tensor<32x32xf32>
      %26 = blk.load %20, %24, %25 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi1>, tensor<32x32xf32>) -> tensor<32x32xf32>
      %27 = blk.reduce %26 {axis = 0 : i32} : (tensor<32x32xf32>) -> tensor<32xf32> {
      ^bb0(%arg5: f32, %arg6: f32):
        %29 = arith.maxnumf %arg5, %arg6 : f32
        blk.reduce.return %29 : f32
      }
      %28 = arith.maxnumf %arg4, %27 : tensor<32xf32>
      scf.yield %28 : tensor<32xf32>
    }
    %7 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
    blk.store %8, %6 : (tensor<32x!blk.ptr<f32>>, tensor<32xf32>) -> ()
    return
  }
}

