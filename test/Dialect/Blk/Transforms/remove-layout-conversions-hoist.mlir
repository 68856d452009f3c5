// RUN: blk-opt %s --blk-remove-layout-conversions | FileCheck %s

// A loop-invariant dot operand (computed before the loop) converts to the
// operand layout once, in front of the loop, not every iteration; the
// operand layout holds as many values per thread as the source.
// CHECK-LABEL: func.func @invariant_operand
// CHECK: %[[A:.+]] = blk.convert_layout %{{.+}} : tensor<64x64xbf16, #{{.+}}> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 0
// CHECK-NEXT: scf.for
// CHECK-NOT: blk.convert_layout {{.*}} -> tensor<64x64xbf16
// CHECK: blk.dot %[[A]],
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @invariant_operand(%arg0: !blk.ptr<bf16>, %arg1: !blk.ptr<bf16>, %arg2: !blk.ptr<f32>, %arg3: i32) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : bf16
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %3 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %4 = arith.muli %2, %3 : tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %5 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %6 = blk.addptr %5, %4 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>, tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %7 = blk.convert_layout %0 : tensor<64xi32, #slice> -> tensor<64xi32, #slice2>
    %8 = blk.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #blocked>
    %9 = blk.convert_layout %6 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.broadcast %9 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x64x!blk.ptr<bf16>, #blocked>
    %11 = blk.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %12 = blk.addptr %10, %11 : tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64xi32, #blocked>
    %13 = blk.load %12 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>, #blocked>) -> tensor<64x64xbf16, #blocked>
    %14 = blk.splat %cst_0 : bf16 -> tensor<64x64xbf16, #blocked>
    %15 = arith.mulf %13, %14 : tensor<64x64xbf16, #blocked>
    %16 = blk.splat %cst : f32 -> tensor<64x32xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %17 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %16) -> (tensor<64x32xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>)  : i32 {
      %27 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
      %28 = blk.addptr %27, %2 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>, tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
      %29 = blk.splat %arg4 : i32 -> tensor<32xi32, #slice2>
      %30 = arith.addi %29, %1 : tensor<32xi32, #slice2>
      %31 = blk.expand_dims %30 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
      %32 = blk.splat %c64_i32 : i32 -> tensor<1x32xi32, #blocked>
      %33 = arith.muli %31, %32 : tensor<1x32xi32, #blocked>
      %34 = blk.convert_layout %28 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %35 = blk.broadcast %34 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
      %36 = blk.broadcast %33 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
      %37 = blk.addptr %35, %36 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %38 = blk.convert_layout %37 : tensor<64x32x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked1>
      %39 = blk.load %38 {operandSegmentSizes = array<i32: 1, 0, 0>, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked1>) -> tensor<64x32xbf16, #blocked1>
      %40 = blk.convert_layout %39 : tensor<64x32xbf16, #blocked1> -> tensor<64x32xbf16, #blocked>
      %41 = blk.convert_layout %15 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>, kWidth = 2>>
      %42 = blk.convert_layout %40 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>, kWidth = 2>>
      %43 = blk.dot %41, %42, %arg5 {mma = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>} : tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>> -> tensor<64x32xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
      scf.yield %43 : tensor<64x32xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    }
    %18 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %19 = arith.muli %2, %18 : tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %20 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %21 = blk.addptr %20, %19 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>, tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %22 = blk.convert_layout %1 : tensor<32xi32, #slice2> -> tensor<32xi32, #slice1>
    %23 = blk.expand_dims %22 {axis = 0 : i32} : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %24 = blk.broadcast %21 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>> -> tensor<64x32x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %25 = blk.broadcast %23 : tensor<1x32xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>> -> tensor<64x32xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    %26 = blk.addptr %24, %25 : tensor<64x32x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>, tensor<64x32xi32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>
    blk.store %26, %17 : (tensor<64x32x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>, tensor<64x32xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>) -> ()
    return
  }
}


