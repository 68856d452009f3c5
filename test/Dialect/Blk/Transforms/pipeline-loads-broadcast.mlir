// RUN: blk-opt %s --blk-pipeline-loads=num-stages=3 | FileCheck %s

// In a loop with a dot, a load whose value is broadcast (l[None, :]) is not
// carried ahead: in the broadcast's layout every thread holds copies of its
// elements, two iterations of them beside the accumulator. It is issued in
// its own iteration, where the dot covers its latency. The load that is
// only summed (w) is issued two iterations ahead as before.
// CHECK-LABEL: func.func @scaled_scores
// CHECK: scf.for {{.*}} -> (tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
// CHECK: %[[L:.+]] = blk.load %{{[^ ]+}} {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x!blk.ptr<f32>>) -> tensor<32xf32>
// CHECK: blk.dot
// CHECK-NEXT: blk.expand_dims %[[L]] {axis = 0 : i32}
// CHECK: scf.yield
module {
  func.func @scaled_scores(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32>
    %1 = blk.arange 0, 32 : tensor<32xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64_i32 = arith.constant 64 : i32
    %3 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %4 = arith.muli %2, %3 : tensor<64x1xi32>
    %5 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %6 = blk.addptr %5, %4 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi32>
    %7 = blk.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %8 = blk.broadcast %6 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
    %9 = blk.broadcast %7 : tensor<1x64xi32> -> tensor<64x64xi32>
    %10 = blk.addptr %8, %9 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
    %cst = arith.constant 0.000000e+00 : f32
    %12 = blk.splat %cst : f32 -> tensor<64x32xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %13 = blk.splat %cst_0 : f32 -> tensor<32xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %14:2 = scf.for %arg6 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg7 = %12, %arg8 = %13) -> (tensor<64x32xf32>, tensor<32xf32>)  : i32 {
      %27 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %28 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
      %29 = blk.addptr %28, %27 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi32>
      %30 = blk.splat %arg6 : i32 -> tensor<32xi32>
      %31 = arith.addi %30, %1 : tensor<32xi32>
      %32 = blk.expand_dims %31 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %c64_i32_2 = arith.constant 64 : i32
      %33 = blk.splat %c64_i32_2 : i32 -> tensor<1x32xi32>
      %34 = arith.muli %32, %33 : tensor<1x32xi32>
      %35 = blk.broadcast %29 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x32x!blk.ptr<bf16>>
      %36 = blk.broadcast %34 : tensor<1x32xi32> -> tensor<64x32xi32>
      %37 = blk.addptr %35, %36 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
      %38 = blk.load %37 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x32x!blk.ptr<bf16>>) -> tensor<64x32xbf16>
      %39 = blk.addptr %arg2, %arg6 : !blk.ptr<f32>, i32
      %40 = blk.splat %39 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
      %41 = blk.addptr %40, %1 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
      %42 = blk.load %41 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x!blk.ptr<f32>>) -> tensor<32xf32>
      %43 = blk.addptr %arg3, %arg6 : !blk.ptr<f32>, i32
      %44 = blk.splat %43 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
      %45 = blk.addptr %44, %1 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
      %46 = blk.load %45 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<32x!blk.ptr<f32>>) -> tensor<32xf32>
      %cst_3 = arith.constant 0.000000e+00 : f32
      %47 = blk.splat %cst_3 : f32 -> tensor<64x32xf32>
      %48 = blk.dot %11, %38, %47 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x64xbf16>, tensor<64x32xbf16>, tensor<64x32xf32> -> tensor<64x32xf32>
      %49 = blk.expand_dims %42 {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
      %50 = blk.broadcast %49 : tensor<1x32xf32> -> tensor<64x32xf32>
      %51 = arith.subf %48, %50 : tensor<64x32xf32>
      %52 = arith.addf %arg7, %51 : tensor<64x32xf32>
      %53 = arith.addf %arg8, %46 : tensor<32xf32>
      scf.yield %52, %53 : tensor<64x32xf32>, tensor<32xf32>
    }
    %15 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c32_i32_1 = arith.constant 32 : i32
    %16 = blk.splat %c32_i32_1 : i32 -> tensor<64x1xi32>
    %17 = arith.muli %15, %16 : tensor<64x1xi32>
    %18 = blk.splat %arg4 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %19 = blk.addptr %18, %17 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %20 = blk.expand_dims %1 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %21 = blk.broadcast %19 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x32x!blk.ptr<f32>>
    %22 = blk.broadcast %20 : tensor<1x32xi32> -> tensor<64x32xi32>
    %23 = blk.addptr %21, %22 : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
    %24 = blk.expand_dims %14#1 {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    %25 = blk.broadcast %24 : tensor<1x32xf32> -> tensor<64x32xf32>
    %26 = arith.addf %14#0, %25 : tensor<64x32xf32>
    blk.store %23, %26 : (tensor<64x32x!blk.ptr<f32>>, tensor<64x32xf32>) -> ()
    return
  }
}


