// RUN: blk-opt %s --blk-pipeline-dot=num-stages=3 | FileCheck %s

// A loop-invariant wgmma A read by two loops nested in a third: written into
// its one-slot buffer once, where it is loaded (outside the outer loop), and
// read from there by both inner loops' dots, so that its registers die at
// once instead of living across the outer loop.
// CHECK-LABEL: func.func @two_passes
// CHECK: %[[Q:.+]] = blk.load
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[BUF:.+]] = blk.local_alloc : <[1, 64, 64], bf16, contig = 1>
// CHECK-NEXT: blk.local_store %[[Q]], %[[BUF]][%[[ZERO]]]
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK: scf.for
// CHECK-NOT: blk.local_store
// CHECK: scf.for
// CHECK: blk.warp_group_dot %[[BUF]][%[[ZERO]]]
// CHECK-NOT: blk.local_store
// CHECK: scf.for
// CHECK: blk.warp_group_dot %[[BUF]][%[[ZERO]]]
// CHECK-NOT: blk.local_alloc : <[1, 64, 64]
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 1, parent = #blocked2>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
#slice4 = #blk.slice<dim = 0, parent = #blocked>
#slice5 = #blk.slice<dim = 0, parent = #blocked2>
module attributes {blk.num_warps = 4 : i32} {
  func.func @two_passes(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 5.000000e-01 : f32
    %c32_i32 = arith.constant 32 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice4>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice5>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %7 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %8 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked2>
    %9 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %10 = arith.muli %7, %9 : tensor<64x1xi32, #blocked1>
    %11 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked1>
    %12 = blk.addptr %11, %10 : tensor<64x1x!blk.ptr<bf16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %13 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
    %14 = blk.broadcast %12 : tensor<64x1x!blk.ptr<bf16>, #blocked1> -> tensor<64x64x!blk.ptr<bf16>, #blocked1>
    %15 = blk.broadcast %13 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %16 = blk.addptr %14, %15 : tensor<64x64x!blk.ptr<bf16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %17 = blk.load %16 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>, #blocked1>) -> tensor<64x64xbf16, #blocked1>
    %18 = blk.splat %cst_0 : f32 -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %19 = blk.convert_layout %17 : tensor<64x64xbf16, #blocked1> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
    %20 = scf.for %arg5 = %c0_i32 to %arg4 step %c1_i32 iter_args(%arg6 = %18) -> (tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>)  : i32 {
      %30 = scf.for %arg7 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg8 = %arg6) -> (tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>)  : i32 {
        %32 = arith.muli %arg5, %arg3 : i32
        %33 = arith.muli %32, %c64_i32 : i32
        %34 = blk.addptr %arg1, %33 : !blk.ptr<bf16>, i32
        %35 = blk.splat %34 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked2>
        %36 = blk.addptr %35, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked2>, tensor<64x1xi32, #blocked2>
        %37 = blk.splat %arg7 : i32 -> tensor<32xi32, #slice5>
        %38 = arith.addi %37, %5 : tensor<32xi32, #slice5>
        %39 = blk.expand_dims %38 {axis = 0 : i32} : tensor<32xi32, #slice5> -> tensor<1x32xi32, #blocked2>
        %40 = blk.splat %c64_i32 : i32 -> tensor<1x32xi32, #blocked2>
        %41 = arith.muli %39, %40 : tensor<1x32xi32, #blocked2>
        %42 = blk.broadcast %36 : tensor<64x1x!blk.ptr<bf16>, #blocked2> -> tensor<64x32x!blk.ptr<bf16>, #blocked2>
        %43 = blk.broadcast %41 : tensor<1x32xi32, #blocked2> -> tensor<64x32xi32, #blocked2>
        %44 = blk.addptr %42, %43 : tensor<64x32x!blk.ptr<bf16>, #blocked2>, tensor<64x32xi32, #blocked2>
        %45 = blk.load %44 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked2>) -> tensor<64x32xbf16, #blocked2>
        %46 = blk.convert_layout %45 : tensor<64x32xbf16, #blocked2> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
        %47 = blk.dot %19, %46, %arg8 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
        scf.yield %47 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      }
      %31 = scf.for %arg7 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg8 = %30) -> (tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>)  : i32 {
        %32 = arith.muli %arg5, %arg3 : i32
        %33 = arith.muli %32, %c64_i32 : i32
        %34 = blk.addptr %arg1, %33 : !blk.ptr<bf16>, i32
        %35 = blk.splat %34 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked2>
        %36 = blk.addptr %35, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked2>, tensor<64x1xi32, #blocked2>
        %37 = blk.splat %arg7 : i32 -> tensor<32xi32, #slice5>
        %38 = arith.addi %37, %5 : tensor<32xi32, #slice5>
        %39 = blk.expand_dims %38 {axis = 0 : i32} : tensor<32xi32, #slice5> -> tensor<1x32xi32, #blocked2>
        %40 = blk.splat %c64_i32 : i32 -> tensor<1x32xi32, #blocked2>
        %41 = arith.muli %39, %40 : tensor<1x32xi32, #blocked2>
        %42 = blk.broadcast %36 : tensor<64x1x!blk.ptr<bf16>, #blocked2> -> tensor<64x32x!blk.ptr<bf16>, #blocked2>
        %43 = blk.broadcast %41 : tensor<1x32xi32, #blocked2> -> tensor<64x32xi32, #blocked2>
        %44 = blk.addptr %42, %43 : tensor<64x32x!blk.ptr<bf16>, #blocked2>, tensor<64x32xi32, #blocked2>
        %45 = blk.load %44 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked2>) -> tensor<64x32xbf16, #blocked2>
        %46 = blk.convert_layout %45 : tensor<64x32xbf16, #blocked2> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
        %47 = blk.dot %19, %46, %arg8 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
        %48 = blk.splat %cst : f32 -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
        %49 = arith.mulf %47, %48 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
        scf.yield %49 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      }
      scf.yield %31 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    }
    %21 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked>
    %22 = arith.muli %6, %21 : tensor<64x1xi32, #blocked>
    %23 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked>
    %24 = blk.addptr %23, %22 : tensor<64x1x!blk.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %25 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice4> -> tensor<1x32xi32, #blocked>
    %26 = blk.broadcast %24 : tensor<64x1x!blk.ptr<f32>, #blocked> -> tensor<64x32x!blk.ptr<f32>, #blocked>
    %27 = blk.broadcast %25 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %28 = blk.addptr %26, %27 : tensor<64x32x!blk.ptr<f32>, #blocked>, tensor<64x32xi32, #blocked>
    %29 = blk.convert_layout %20 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blocked>
    blk.store %28, %29 {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #blocked>, tensor<64x32xf32, #blocked>) -> ()
    return
  }
}


