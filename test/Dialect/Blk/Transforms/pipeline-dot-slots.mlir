// RUN: blk-opt %s --blk-pipeline-dot=num-stages=3 | FileCheck %s

// Large tiles (128x64 and 64x256, 48 KB a slot): three slots leave room for
// no more programs per SM than four do, so each ring keeps a slot for the
// copies ahead (a wgmma of the previous iteration may still read its slot)
// and the loop has no barrier but the one at its top.
// CHECK-LABEL: func.func @big_tiles
// CHECK: blk.local_alloc : <[4, 128, 64], bf16, contig = 1>
// CHECK: blk.local_alloc : <[4, 64, 256], bf16, contig = 1>
// CHECK: scf.for
// CHECK: blk.barrier
// CHECK-NOT: blk.barrier
// CHECK: blk.warp_group_dot
// CHECK-NOT: blk.barrier
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 8 : i32} {
  func.func @big_tiles(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c256_i32 = arith.constant 256 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 128 : tensor<128xi32, #slice>
    %1 = blk.arange 0, 128 : tensor<128xi32, #slice1>
    %2 = blk.arange 0, 256 : tensor<256xi32, #slice2>
    %3 = blk.arange 0, 256 : tensor<256xi32, #slice3>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %6 = blk.splat %cst : f32 -> tensor<128x256xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>>
    %7 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %6) -> (tensor<128x256xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>>)  : i32 {
      %18 = blk.expand_dims %0 {axis = 1 : i32} : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
      %19 = blk.splat %arg3 : i32 -> tensor<128x1xi32, #blocked>
      %20 = arith.muli %18, %19 : tensor<128x1xi32, #blocked>
      %21 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<128x1x!blk.ptr<bf16>, #blocked>
      %22 = blk.addptr %21, %20 : tensor<128x1x!blk.ptr<bf16>, #blocked>, tensor<128x1xi32, #blocked>
      %23 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice2>
      %24 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice>
      %25 = arith.addi %23, %4 : tensor<64xi32, #slice2>
      %26 = arith.addi %24, %5 : tensor<64xi32, #slice>
      %27 = blk.expand_dims %25 {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #blocked>
      %28 = blk.broadcast %22 : tensor<128x1x!blk.ptr<bf16>, #blocked> -> tensor<128x64x!blk.ptr<bf16>, #blocked>
      %29 = blk.broadcast %27 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
      %30 = blk.addptr %28, %29 : tensor<128x64x!blk.ptr<bf16>, #blocked>, tensor<128x64xi32, #blocked>
      %31 = blk.load %30 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<128x64x!blk.ptr<bf16>, #blocked>) -> tensor<128x64xbf16, #blocked>
      %32 = blk.expand_dims %26 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %33 = blk.splat %c256_i32 : i32 -> tensor<64x1xi32, #blocked>
      %34 = arith.muli %32, %33 : tensor<64x1xi32, #blocked>
      %35 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %36 = blk.addptr %35, %34 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
      %37 = blk.expand_dims %2 {axis = 0 : i32} : tensor<256xi32, #slice2> -> tensor<1x256xi32, #blocked>
      %38 = blk.broadcast %36 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x256x!blk.ptr<bf16>, #blocked>
      %39 = blk.broadcast %37 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
      %40 = blk.addptr %38, %39 : tensor<64x256x!blk.ptr<bf16>, #blocked>, tensor<64x256xi32, #blocked>
      %41 = blk.load %40 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x256x!blk.ptr<bf16>, #blocked>) -> tensor<64x256xbf16, #blocked>
      %42 = blk.convert_layout %31 : tensor<128x64xbf16, #blocked> -> tensor<128x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>, kWidth = 2>>
      %43 = blk.convert_layout %41 : tensor<64x256xbf16, #blocked> -> tensor<64x256xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>, kWidth = 2>>
      %44 = blk.dot %42, %43, %arg5 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>} : tensor<128x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>, kWidth = 2>>, tensor<64x256xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>, kWidth = 2>>, tensor<128x256xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>> -> tensor<128x256xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>>
      scf.yield %44 : tensor<128x256xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>>
    }
    %8 = blk.expand_dims %1 {axis = 1 : i32} : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked1>
    %9 = blk.splat %c256_i32 : i32 -> tensor<128x1xi32, #blocked1>
    %10 = arith.muli %8, %9 : tensor<128x1xi32, #blocked1>
    %11 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>, #blocked1>
    %12 = blk.addptr %11, %10 : tensor<128x1x!blk.ptr<f32>, #blocked1>, tensor<128x1xi32, #blocked1>
    %13 = blk.expand_dims %3 {axis = 0 : i32} : tensor<256xi32, #slice3> -> tensor<1x256xi32, #blocked1>
    %14 = blk.broadcast %12 : tensor<128x1x!blk.ptr<f32>, #blocked1> -> tensor<128x256x!blk.ptr<f32>, #blocked1>
    %15 = blk.broadcast %13 : tensor<1x256xi32, #blocked1> -> tensor<128x256xi32, #blocked1>
    %16 = blk.addptr %14, %15 : tensor<128x256x!blk.ptr<f32>, #blocked1>, tensor<128x256xi32, #blocked1>
    %17 = blk.convert_layout %7 : tensor<128x256xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>> -> tensor<128x256xf32, #blocked1>
    blk.store %16, %17 {vec = 4 : i32} : (tensor<128x256x!blk.ptr<f32>, #blocked1>, tensor<128x256xf32, #blocked1>) -> ()
    return
  }
}


