// RUN: blk-opt %s --blk-pipeline-dot="num-stages=3 release-slots=true ping-pong=true" | FileCheck %s
// RUN: blk-opt %s --blk-pipeline-dot="num-stages=3 release-slots=true" | FileCheck %s --check-prefix=NOTURNS
// RUN: blk-opt %s --blk-pipeline-dot="num-stages=3 ping-pong=true" | FileCheck %s --check-prefix=NOTURNS

// Two warpgroups (8 warps) issuing block n's scores and block n - 1's P V
// back to back (FlashAttention-3's order), every ring a TMA ring: with
// release-slots no barrier of all threads is left in the loop, and with
// ping-pong the warpgroups take turns at the two dots: `take` in front of
// the scores (after the tiles' mbarrier waits), `pass` right after P V
// (before the slot's release and the copies ahead), `open` in front of the
// loop and `close` after it. Without release-slots the loop keeps its
// barriers (which hold the warpgroups in step) and takes no turns.
// CHECK-LABEL: func.func @turns
// CHECK: blk.warp_group_turn "open"
// CHECK-NEXT: scf.for
// CHECK: blk.mbarrier_wait
// CHECK-NOT: blk.barrier
// CHECK: blk.warp_group_turn "take"
// CHECK-NEXT: blk.warp_group_dot
// CHECK: blk.warp_group_dot
// CHECK-NEXT: blk.warp_group_turn "pass"
// CHECK: blk.mbarrier_arrive
// CHECK: blk.mbarrier_wait %{{.*}} {issuer}
// CHECK: scf.yield
// CHECK: blk.warp_group_turn "close"
// NOTURNS-LABEL: func.func @turns
// NOTURNS-NOT: blk.warp_group_turn
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 1, parent = #blocked>
#slice2 = #blk.slice<dim = 1, parent = #blocked1>
#slice3 = #blk.slice<dim = 0, parent = #blocked2>
#slice4 = #blk.slice<dim = 1, parent = #blocked2>
#slice5 = #blk.slice<dim = 0, parent = #blocked>
#slice6 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 8 : i32} {
  func.func @turns(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32, %arg5: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 4, -64>, blk.tma_strides = array<i64: -64, -1>}, %arg6: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 2 : i64, blk.tma_shape = array<i64: 4, -64>, blk.tma_strides = array<i64: -64, -1>}) attributes {blk.constants = {}, blk.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 128 : tensor<128xi32, #slice1>
    %1 = blk.arange 0, 128 : tensor<128xi32, #slice2>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice6>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked>
    %7 = blk.expand_dims %1 {axis = 1 : i32} : tensor<128xi32, #slice2> -> tensor<128x1xi32, #blocked1>
    %8 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32, #blocked>
    %9 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32, #blocked1>
    %10 = arith.muli %6, %8 : tensor<128x1xi32, #blocked>
    %11 = arith.muli %7, %9 : tensor<128x1xi32, #blocked1>
    %12 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked1>
    %13 = blk.addptr %12, %11 : tensor<128x1x!blk.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
    %14 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked2>
    %15 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked>
    %16 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked1>
    %17 = blk.broadcast %13 : tensor<128x1x!blk.ptr<f16>, #blocked1> -> tensor<128x64x!blk.ptr<f16>, #blocked1>
    %18 = blk.broadcast %15 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %19 = blk.broadcast %16 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
    %20 = blk.addptr %17, %19 : tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    %21 = blk.load %20 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<128x64x!blk.ptr<f16>, #blocked1>) -> tensor<128x64xf16, #blocked1>
    %22 = blk.expand_dims %3 {axis = 1 : i32} : tensor<64xi32, #slice4> -> tensor<64x1xi32, #blocked2>
    %23 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
    %24 = blk.addptr %23, %22 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %25 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32, #blocked2>
    %26 = arith.muli %14, %25 : tensor<1x64xi32, #blocked2>
    %27 = blk.broadcast %24 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
    %28 = blk.broadcast %26 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %29 = blk.addptr %27, %28 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %30 = blk.load %29 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>) -> tensor<64x64xf16, #blocked2>
    %31 = blk.splat %cst_0 : f32 -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %32 = blk.convert_layout %21 : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
    %33 = blk.convert_layout %30 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
    %34 = blk.dot %32, %33, %31 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>} : tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %35 = blk.reduce %34 {axis = 1 : i32} : (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>) -> tensor<128xf32, #slice> {
    ^bb0(%arg7: f32, %arg8: f32):
      %46 = arith.maxnumf %arg7, %arg8 : f32
      blk.reduce.return %46 : f32
    }
    %36 = blk.expand_dims %35 {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %37 = blk.broadcast %36 : tensor<128x1xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %38 = arith.subf %34, %37 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %39 = math.exp %38 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %40:2 = scf.for %arg7 = %c64_i32 to %arg4 step %c64_i32 iter_args(%arg8 = %31, %arg9 = %39) -> (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %46 = blk.descriptor_load %arg5[%arg7, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked1>
      %47 = blk.trans %46 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked1>
      %48 = blk.convert_layout %47 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %49 = blk.dot %32, %48, %31 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>} : tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %50 = arith.subi %arg7, %c64_i32 : i32
      %51 = arith.truncf %arg9 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> to tensor<128x64xf16, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %52 = blk.descriptor_load %arg6[%50, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked1>
      %53 = blk.convert_layout %51 : tensor<128x64xf16, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %54 = blk.convert_layout %52 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %55 = blk.dot %53, %54, %arg8 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>} : tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %56 = blk.reduce %49 {axis = 1 : i32} : (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>) -> tensor<128xf32, #slice> {
      ^bb0(%arg10: f32, %arg11: f32):
        %63 = arith.maxnumf %arg10, %arg11 : f32
        blk.reduce.return %63 : f32
      }
      %57 = blk.expand_dims %56 {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %58 = blk.broadcast %57 : tensor<128x1xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %59 = arith.subf %49, %58 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %60 = math.exp %59 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %61 = blk.splat %cst : f32 -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %62 = arith.mulf %55, %61 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      scf.yield %62, %60 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    }
    %41 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>, #blocked>
    %42 = blk.addptr %41, %10 : tensor<128x1x!blk.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %43 = blk.broadcast %42 : tensor<128x1x!blk.ptr<f32>, #blocked> -> tensor<128x64x!blk.ptr<f32>, #blocked>
    %44 = blk.addptr %43, %18 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %45 = blk.convert_layout %40#0 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blocked>
    blk.store %44, %45 {vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xf32, #blocked>) -> ()
    return
  }
}
