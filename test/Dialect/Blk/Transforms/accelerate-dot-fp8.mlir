// RUN: blk-opt %s --blk-accelerate-dot="compute-capability=90 num-warps=8 wgmma=true" | FileCheck %s
// RUN: blk-opt %s --blk-accelerate-dot="compute-capability=90 num-warps=4 wgmma=true" | FileCheck %s --check-prefix=W4

// 8-bit floats go to wgmma (m64nNk32) whichever way their operands are
// loaded: wgmma reads 8-bit tiles K-major only, and blk-pipeline-dot writes
// a B loaded along N into a K-major buffer (A loaded along M would be
// converted into registers).
// CHECK-LABEL: func.func @kmajor
// CHECK: mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 32]>
// CHECK-LABEL: func.func @nmajor
// CHECK: mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 32]>
// CHECK-LABEL: func.func @transposed
// CHECK: mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 32]>
// W4-LABEL: func.func @kmajor
// W4: mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>
module {
  func.func @kmajor(%arg0: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 128 : tensor<128xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %3 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32>
    %4 = arith.muli %2, %3 : tensor<128x1xi32>
    %5 = blk.splat %arg0 : !blk.ptr<f8E4M3FN> -> tensor<128x1x!blk.ptr<f8E4M3FN>>
    %6 = blk.addptr %5, %4 : tensor<128x1x!blk.ptr<f8E4M3FN>>, tensor<128x1xi32>
    %7 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %8 = blk.broadcast %6 : tensor<128x1x!blk.ptr<f8E4M3FN>> -> tensor<128x64x!blk.ptr<f8E4M3FN>>
    %9 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<128x64xi32>
    %10 = blk.addptr %8, %9 : tensor<128x64x!blk.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x64x!blk.ptr<f8E4M3FN>>) -> tensor<128x64xf8E4M3FN>
    %12 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = blk.splat %arg1 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>>
    %14 = blk.addptr %13, %12 : tensor<64x1x!blk.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %15 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32>
    %16 = arith.muli %7, %15 : tensor<1x64xi32>
    %17 = blk.broadcast %14 : tensor<64x1x!blk.ptr<f8E4M3FN>> -> tensor<64x64x!blk.ptr<f8E4M3FN>>
    %18 = blk.broadcast %16 : tensor<1x64xi32> -> tensor<64x64xi32>
    %19 = blk.addptr %17, %18 : tensor<64x64x!blk.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %20 = blk.load %19 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f8E4M3FN>>) -> tensor<64x64xf8E4M3FN>
    %21 = blk.splat %cst : f32 -> tensor<128x64xf32>
    %22 = blk.dot %11, %20, %21 : tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32> -> tensor<128x64xf32>
    %23 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
    %24 = blk.addptr %23, %4 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
    %25 = blk.broadcast %24 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x64x!blk.ptr<f32>>
    %26 = blk.addptr %25, %9 : tensor<128x64x!blk.ptr<f32>>, tensor<128x64xi32>
    blk.store %26, %22 : (tensor<128x64x!blk.ptr<f32>>, tensor<128x64xf32>) -> ()
    return
  }
  func.func @nmajor(%arg0: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 128 : tensor<128xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %3 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32>
    %4 = arith.muli %2, %3 : tensor<128x1xi32>
    %5 = blk.splat %arg0 : !blk.ptr<f8E4M3FN> -> tensor<128x1x!blk.ptr<f8E4M3FN>>
    %6 = blk.addptr %5, %4 : tensor<128x1x!blk.ptr<f8E4M3FN>>, tensor<128x1xi32>
    %7 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %8 = blk.broadcast %6 : tensor<128x1x!blk.ptr<f8E4M3FN>> -> tensor<128x64x!blk.ptr<f8E4M3FN>>
    %9 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<128x64xi32>
    %10 = blk.addptr %8, %9 : tensor<128x64x!blk.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x64x!blk.ptr<f8E4M3FN>>) -> tensor<128x64xf8E4M3FN>
    %12 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = blk.splat %arg1 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>>
    %16 = blk.addptr %15, %14 : tensor<64x1x!blk.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %17 = blk.broadcast %16 : tensor<64x1x!blk.ptr<f8E4M3FN>> -> tensor<64x64x!blk.ptr<f8E4M3FN>>
    %18 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<64x64xi32>
    %19 = blk.addptr %17, %18 : tensor<64x64x!blk.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %20 = blk.load %19 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f8E4M3FN>>) -> tensor<64x64xf8E4M3FN>
    %21 = blk.splat %cst : f32 -> tensor<128x64xf32>
    %22 = blk.dot %11, %20, %21 : tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32> -> tensor<128x64xf32>
    %23 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
    %24 = blk.addptr %23, %4 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
    %25 = blk.broadcast %24 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x64x!blk.ptr<f32>>
    %26 = blk.addptr %25, %9 : tensor<128x64x!blk.ptr<f32>>, tensor<128x64xi32>
    blk.store %26, %22 : (tensor<128x64x!blk.ptr<f32>>, tensor<128x64xf32>) -> ()
    return
  }
  func.func @transposed(%arg0: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 128 : tensor<128xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %3 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32>
    %4 = arith.muli %2, %3 : tensor<128x1xi32>
    %5 = blk.splat %arg0 : !blk.ptr<f8E4M3FN> -> tensor<128x1x!blk.ptr<f8E4M3FN>>
    %6 = blk.addptr %5, %4 : tensor<128x1x!blk.ptr<f8E4M3FN>>, tensor<128x1xi32>
    %7 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %8 = blk.broadcast %6 : tensor<128x1x!blk.ptr<f8E4M3FN>> -> tensor<128x64x!blk.ptr<f8E4M3FN>>
    %9 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<128x64xi32>
    %10 = blk.addptr %8, %9 : tensor<128x64x!blk.ptr<f8E4M3FN>>, tensor<128x64xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x64x!blk.ptr<f8E4M3FN>>) -> tensor<128x64xf8E4M3FN>
    %12 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = blk.splat %arg1 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>>
    %16 = blk.addptr %15, %14 : tensor<64x1x!blk.ptr<f8E4M3FN>>, tensor<64x1xi32>
    %17 = blk.broadcast %16 : tensor<64x1x!blk.ptr<f8E4M3FN>> -> tensor<64x64x!blk.ptr<f8E4M3FN>>
    %18 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<64x64xi32>
    %19 = blk.addptr %17, %18 : tensor<64x64x!blk.ptr<f8E4M3FN>>, tensor<64x64xi32>
    %20 = blk.load %19 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f8E4M3FN>>) -> tensor<64x64xf8E4M3FN>
    %21 = blk.trans %20 : tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
    %22 = blk.splat %cst : f32 -> tensor<128x64xf32>
    %23 = blk.dot %11, %21, %22 : tensor<128x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<128x64xf32> -> tensor<128x64xf32>
    %24 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
    %25 = blk.addptr %24, %4 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
    %26 = blk.broadcast %25 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x64x!blk.ptr<f32>>
    %27 = blk.addptr %26, %9 : tensor<128x64x!blk.ptr<f32>>, tensor<128x64xi32>
    blk.store %27, %23 : (tensor<128x64x!blk.ptr<f32>>, tensor<128x64xf32>) -> ()
    return
  }
}

