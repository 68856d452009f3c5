// RUN: blk-opt %s --split-input-file --blk-pipeline-dot=num-stages=3 | FileCheck %s

// Block n's scores issued before block n - 1's P V, then the softmax of
// block n (FlashAttention-3's order; test/kernels/attention_overlapped.blk):
// each wait moves down to its result's first reader, leaving the dots
// issued since in flight. The scores' wait leaves P V pending (one group)
// and sits in front of the row max; P V's wait passes the reduction, whose
// combine region issues no wgmma, and the exponentials, to the rescale.
// CHECK-LABEL: func.func @overlapped
// CHECK: scf.for
// CHECK: %[[S:.+]] = blk.warp_group_dot %{{.+}}[%{{.+}}], %{{.+}}[%{{.+}}], %{{.+}} : !blk.smem<[1, 64, 64], f16
// CHECK: %[[PV:.+]] = blk.warp_group_dot %{{.+}}, %{{.+}}[%{{.+}}], %arg8 : tensor<64x64xf16
// CHECK-NOT: blk.warp_group_dot_wait
// CHECK: blk.async_tma_copy
// CHECK: %[[SW:.+]] = blk.warp_group_dot_wait %[[S]] {pending = 1 : i32}
// CHECK-NEXT: blk.reduce %[[SW]]
// CHECK: math.exp
// CHECK-NOT: blk.warp_group_dot
// CHECK: %[[PVW:.+]] = blk.warp_group_dot_wait %[[PV]] {pending = 0 : i32}
// CHECK-NEXT: arith.mulf %[[PVW]]
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 1, parent = #blocked>
#slice2 = #blk.slice<dim = 1, parent = #blocked1>
#slice3 = #blk.slice<dim = 1, parent = #blocked2>
#slice4 = #blk.slice<dim = 0, parent = #blocked2>
#slice5 = #blk.slice<dim = 0, parent = #blocked>
#slice6 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @overlapped(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32, %arg5: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: -2147483647, -64>, blk.tma_strides = array<i64: -64, -1>}, %arg6: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 2 : i64, blk.tma_shape = array<i64: -2147483647, -64>, blk.tma_strides = array<i64: -64, -1>}) attributes {blk.constants = {}, blk.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice6>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked>
    %7 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked1>
    %8 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked2>
    %9 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
    %10 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %11 = arith.muli %6, %9 : tensor<64x1xi32, #blocked>
    %12 = arith.muli %7, %10 : tensor<64x1xi32, #blocked1>
    %13 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked1>
    %14 = blk.addptr %13, %12 : tensor<64x1x!blk.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %15 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked2>
    %16 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked>
    %17 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked1>
    %18 = blk.broadcast %14 : tensor<64x1x!blk.ptr<f16>, #blocked1> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
    %19 = blk.broadcast %16 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %20 = blk.broadcast %17 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %21 = blk.addptr %18, %20 : tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %22 = blk.load %21 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked1>) -> tensor<64x64xf16, #blocked1>
    %23 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
    %24 = blk.addptr %23, %8 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %25 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32, #blocked2>
    %26 = arith.muli %15, %25 : tensor<1x64xi32, #blocked2>
    %27 = blk.broadcast %24 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
    %28 = blk.broadcast %26 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %29 = blk.addptr %27, %28 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %30 = blk.load %29 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>) -> tensor<64x64xf16, #blocked2>
    %31 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %32 = blk.convert_layout %22 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
    %33 = blk.convert_layout %30 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
    %34 = blk.dot %32, %33, %31 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %35 = blk.reduce %34 {axis = 1 : i32} : (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> tensor<64xf32, #slice> {
    ^bb0(%arg7: f32, %arg8: f32):
      %46 = arith.maxnumf %arg7, %arg8 : f32
      blk.reduce.return %46 : f32
    }
    %36 = blk.expand_dims %35 {axis = 1 : i32} : tensor<64xf32, #slice> -> tensor<64x1xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %37 = blk.broadcast %36 : tensor<64x1xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %38 = arith.subf %34, %37 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %39 = math.exp %38 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %40:2 = scf.for %arg7 = %c64_i32 to %arg4 step %c64_i32 iter_args(%arg8 = %31, %arg9 = %39) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %46 = blk.descriptor_load %arg5[%arg7, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked1>
      %47 = blk.trans %46 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
      %48 = blk.convert_layout %47 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %49 = blk.dot %32, %48, %31 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %50 = arith.subi %arg7, %c64_i32 : i32
      %51 = arith.truncf %arg9 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> to tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %52 = blk.descriptor_load %arg6[%50, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked1>
      %53 = blk.convert_layout %51 : tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %54 = blk.convert_layout %52 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %55 = blk.dot %53, %54, %arg8 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %56 = blk.reduce %49 {axis = 1 : i32} : (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> tensor<64xf32, #slice> {
      ^bb0(%arg10: f32, %arg11: f32):
        %63 = arith.maxnumf %arg10, %arg11 : f32
        blk.reduce.return %63 : f32
      }
      %57 = blk.expand_dims %56 {axis = 1 : i32} : tensor<64xf32, #slice> -> tensor<64x1xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %58 = blk.broadcast %57 : tensor<64x1xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %59 = arith.subf %49, %58 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %60 = math.exp %59 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %61 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %62 = arith.mulf %55, %61 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      scf.yield %62, %60 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    }
    %41 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked>
    %42 = blk.addptr %41, %11 : tensor<64x1x!blk.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %43 = blk.broadcast %42 : tensor<64x1x!blk.ptr<f32>, #blocked> -> tensor<64x64x!blk.ptr<f32>, #blocked>
    %44 = blk.addptr %43, %19 : tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %45 = blk.convert_layout %40#0 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blocked>
    blk.store %44, %45 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>) -> ()
    return
  }
}

// -----

// The next block's scores issued in this iteration and carried into the
// next (`s = s_next`), P V accumulating into `acc * 0.5`:
// - The scores' iter arg is still read (the softmax) after the next scores
//   are issued, so the two live in different registers and the loop edge
//   copies one into the other; ptxas serializes every wgmma when such a
//   copy reads an accumulator in flight (C7514). So the scores are waited
//   for in front of the yield, with the P V issued since pending.
// - P V reads P from registers, which the next iteration writes again
//   before any complete wait; wgmma reads register A asynchronously, so
//   P V is complete before the loop edge (a complete wait in front of the
//   yield, which completes the scores issued before it too); after the
//   loop, a complete wait.
// CHECK-LABEL: func.func @next_carried
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[SARG:[^ ]+]] = %{{[^ ]+}})
// CHECK: %[[S:.+]] = blk.warp_group_dot %{{.+}}[%{{.+}}], %{{.+}}[%{{.+}}], %{{.+}} : !blk.smem<[1, 64, 64], f16
// CHECK-NEXT: blk.reduce %[[SARG]]
// CHECK: %[[SCALED:.+]] = arith.mulf %[[ACC]]
// CHECK: %[[PV:.+]] = blk.warp_group_dot %{{.+}}, %{{.+}}[%{{.+}}], %[[SCALED]]
// CHECK: %[[PVW:.+]] = blk.warp_group_dot_wait %[[PV]] {pending = 0 : i32}
// CHECK-NEXT: %[[SW:.+]] = blk.warp_group_dot_wait %[[S]] {pending = 1 : i32}
// CHECK-NEXT: scf.yield %[[PVW]], %[[SW]]
// CHECK: blk.warp_group_dot_wait %{{.+}}#0 {pending = 0 : i32}
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 1, parent = #blocked>
#slice2 = #blk.slice<dim = 1, parent = #blocked1>
#slice3 = #blk.slice<dim = 1, parent = #blocked2>
#slice4 = #blk.slice<dim = 0, parent = #blocked2>
#slice5 = #blk.slice<dim = 0, parent = #blocked>
#slice6 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @next_carried(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32, %arg5: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: -2147483647, -64>, blk.tma_strides = array<i64: -64, -1>}, %arg6: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 2 : i64, blk.tma_shape = array<i64: -2147483647, -64>, blk.tma_strides = array<i64: -64, -1>}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 5.000000e-01 : f32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice6>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked>
    %7 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked1>
    %8 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked2>
    %9 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
    %10 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %11 = arith.muli %6, %9 : tensor<64x1xi32, #blocked>
    %12 = arith.muli %7, %10 : tensor<64x1xi32, #blocked1>
    %13 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked1>
    %14 = blk.addptr %13, %12 : tensor<64x1x!blk.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %15 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked2>
    %16 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked>
    %17 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked1>
    %18 = blk.broadcast %14 : tensor<64x1x!blk.ptr<f16>, #blocked1> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
    %19 = blk.broadcast %16 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %20 = blk.broadcast %17 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %21 = blk.addptr %18, %20 : tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    %22 = blk.load %21 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked1>) -> tensor<64x64xf16, #blocked1>
    %23 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
    %24 = blk.addptr %23, %8 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %25 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32, #blocked2>
    %26 = arith.muli %15, %25 : tensor<1x64xi32, #blocked2>
    %27 = blk.broadcast %24 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
    %28 = blk.broadcast %26 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %29 = blk.addptr %27, %28 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %30 = blk.load %29 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>) -> tensor<64x64xf16, #blocked2>
    %31 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %32 = blk.convert_layout %22 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
    %33 = blk.convert_layout %30 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
    %34 = blk.dot %32, %33, %31 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %35:2 = scf.for %arg7 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg8 = %31, %arg9 = %34) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %41 = arith.addi %arg7, %c64_i32 : i32
      %42 = blk.descriptor_load %arg5[%41, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked1>
      %43 = blk.trans %42 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
      %44 = blk.convert_layout %43 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %45 = blk.dot %32, %44, %31 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %46 = blk.reduce %arg9 {axis = 1 : i32} : (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> tensor<64xf32, #slice> {
      ^bb0(%arg10: f32, %arg11: f32):
        %58 = arith.maxnumf %arg10, %arg11 : f32
        blk.reduce.return %58 : f32
      }
      %47 = blk.expand_dims %46 {axis = 1 : i32} : tensor<64xf32, #slice> -> tensor<64x1xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %48 = blk.broadcast %47 : tensor<64x1xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %49 = arith.subf %arg9, %48 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %50 = math.exp %49 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %51 = arith.truncf %50 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> to tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %52 = blk.descriptor_load %arg6[%arg7, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked1>
      %53 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %54 = arith.mulf %arg8, %53 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %55 = blk.convert_layout %51 : tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %56 = blk.convert_layout %52 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %57 = blk.dot %55, %56, %54 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      scf.yield %57, %45 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    }
    %36 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked>
    %37 = blk.addptr %36, %11 : tensor<64x1x!blk.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %38 = blk.broadcast %37 : tensor<64x1x!blk.ptr<f32>, #blocked> -> tensor<64x64x!blk.ptr<f32>, #blocked>
    %39 = blk.addptr %38, %19 : tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %40 = blk.convert_layout %35#0 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blocked>
    blk.store %39, %40 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>) -> ()
    return
  }
}
