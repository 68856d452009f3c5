// RUN: blk-opt %s --split-input-file --blk-pipeline-dot=num-stages=3 | FileCheck %s

// wgmma (a version 3 accumulator): two tiles copied ahead, so four slots (a
// wgmma may still read the previous slot while the next copy starts); each
// iteration waits for its tiles, fences them for the async proxy and
// synchronizes, issues wgmma on its slot and leaves one group in flight,
// then copies the tiles two iterations on. After the loop: the last wgmma
// and the stray copies finish before the memory is reused.
// CHECK-LABEL: func.func @wgmma
// CHECK: %[[A:.+]] = blk.local_alloc : <[4, 64, 32], bf16, contig = 1>
// CHECK: %[[B:.+]] = blk.local_alloc : <[4, 32, 64], bf16, contig = 1>
// CHECK: blk.async_copy {{.*}} into %[[A]][%c0_i32{{.*}}] {vec = 8 : i32}
// CHECK: blk.async_copy {{.*}} into %[[B]][%c0_i32{{.*}}] {vec = 8 : i32}
// CHECK-NEXT: blk.async_commit_group
// CHECK: blk.async_copy {{.*}} into %[[A]][%c1_i32]
// CHECK: blk.async_copy {{.*}} into %[[B]][%c1_i32]
// CHECK-NEXT: blk.async_commit_group
// CHECK: scf.for
// CHECK: %[[SLOT:.+]] = arith.remui %{{.+}}, %c4_i32
// CHECK: %[[NEXT:.+]] = arith.remui %{{.+}}, %c4_i32
// CHECK-NEXT: blk.async_wait {pending = 1 : i32}
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK: %[[D:.+]] = blk.warp_group_dot %[[A]][%[[SLOT]]], %[[B]][%[[SLOT]]], %arg5
// CHECK-NEXT: %[[W:.+]] = blk.warp_group_dot_wait %[[D]] {pending = 1 : i32}
// CHECK: blk.async_copy {{.*}} into %[[A]][%[[NEXT]]]
// CHECK: blk.async_copy {{.*}} into %[[B]][%[[NEXT]]]
// CHECK-NEXT: blk.async_commit_group
// CHECK-NOT: blk.load
// CHECK: scf.yield %[[W]]
// CHECK: %[[DONE:.+]] = blk.warp_group_dot_wait %{{.+}}#0 {pending = 0 : i32}
// CHECK-NEXT: blk.async_wait {pending = 0 : i32}
// CHECK-NEXT: blk.barrier
// CHECK: blk.store %{{.+}}, %[[DONE]]
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice2 = #blk.slice<dim = 1, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @wgmma(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32) attributes {blk.constants = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %c32_i32 = arith.constant 32 : i32
    %7 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked>
    %9 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
    %11 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
    %13 = blk.broadcast %11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %14 = blk.addptr %12, %13 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %15 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %16 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32, #blocked>
    %17 = arith.muli %15, %16 : tensor<32x1xi32, #blocked>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
    %20 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
    %21 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x64x!blk.ptr<bf16>, #blocked>
    %22 = blk.broadcast %20 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %23 = blk.addptr %21, %22 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %cst = arith.constant 0.000000e+00 : f32
    %24 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %c0_i32 = arith.constant 0 : i32
    %25:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %24, %arg6 = %14, %arg7 = %23) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>)  : i32 {
      %35 = blk.load %arg6 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %36 = arith.subi %arg3, %arg4 : i32
      %37 = blk.splat %36 : i32 -> tensor<32x1xi32, #blocked>
      %38 = arith.cmpi slt, %15, %37 : tensor<32x1xi32, #blocked>
      %39 = blk.broadcast %38 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %cst_0 = arith.constant 0.000000e+00 : bf16
      %40 = blk.splat %cst_0 : bf16 -> tensor<32x64xbf16, #blocked>
      %41 = blk.load %arg7, %39, %40 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32} : (tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked>, tensor<32x64xbf16, #blocked>) -> tensor<32x64xbf16, #blocked>
      %42 = blk.convert_layout %35 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %43 = blk.convert_layout %41 : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %44 = blk.dot %42, %43, %arg5 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %45 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32, #blocked>
      %46 = blk.addptr %arg6, %45 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %c2048_i32 = arith.constant 2048 : i32
      %47 = blk.splat %c2048_i32 : i32 -> tensor<32x64xi32, #blocked>
      %48 = blk.addptr %arg7, %47 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %44, %46, %48 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>
    }
    %26 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %27 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %28 = arith.muli %26, %27 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %29 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %30 = blk.addptr %29, %28 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %31 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %32 = blk.broadcast %30 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %33 = blk.broadcast %31 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    blk.store %34, %25#0 {vec = 2 : i32} : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> ()
    return
  }
}


// -----

// mma.sync (version 2): three slots; the operands come from the slot through
// blk.local_load (ldmatrix) into the same dot; no proxy fence.
// CHECK-LABEL: func.func @mma_sync
// CHECK: %[[A:.+]] = blk.local_alloc : <[3, 64, 32], bf16, contig = 1>
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 32, 64], bf16, contig = 1>
// CHECK: scf.for
// CHECK: %[[SLOT:.+]] = arith.remui %{{.+}}, %c3_i32
// CHECK: blk.async_wait {pending = 1 : i32}
// CHECK-NEXT: blk.barrier
// CHECK: %[[FA:.+]] = blk.local_load %[[A]][%[[SLOT]]] {{.*}} -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0
// CHECK-NEXT: %[[FB:.+]] = blk.local_load %[[B]][%[[SLOT]]] {{.*}} -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1
// CHECK-NEXT: blk.dot %[[FA]], %[[FB]], %arg5
// CHECK-NOT: blk.warp_group_dot
// CHECK: blk.async_wait {pending = 0 : i32}
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
#slice2 = #blk.slice<dim = 1, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @mma_sync(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32) attributes {blk.constants = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %c32_i32 = arith.constant 32 : i32
    %7 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked>
    %9 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
    %11 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
    %13 = blk.broadcast %11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %14 = blk.addptr %12, %13 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %15 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %16 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32, #blocked>
    %17 = arith.muli %15, %16 : tensor<32x1xi32, #blocked>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
    %20 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
    %21 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x64x!blk.ptr<bf16>, #blocked>
    %22 = blk.broadcast %20 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %23 = blk.addptr %21, %22 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %cst = arith.constant 0.000000e+00 : f32
    %24 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %c0_i32 = arith.constant 0 : i32
    %25:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %24, %arg6 = %14, %arg7 = %23) -> (tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>)  : i32 {
      %35 = blk.load %arg6 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %36 = arith.subi %arg3, %arg4 : i32
      %37 = blk.splat %36 : i32 -> tensor<32x1xi32, #blocked>
      %38 = arith.cmpi slt, %15, %37 : tensor<32x1xi32, #blocked>
      %39 = blk.broadcast %38 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %cst_0 = arith.constant 0.000000e+00 : bf16
      %40 = blk.splat %cst_0 : bf16 -> tensor<32x64xbf16, #blocked>
      %41 = blk.load %arg7, %39, %40 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32} : (tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked>, tensor<32x64xbf16, #blocked>) -> tensor<32x64xbf16, #blocked>
      %42 = blk.convert_layout %35 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>
      %43 = blk.convert_layout %41 : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>
      %44 = blk.dot %42, %43, %arg5 {mma = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
      %45 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32, #blocked>
      %46 = blk.addptr %arg6, %45 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %c2048_i32 = arith.constant 2048 : i32
      %47 = blk.splat %c2048_i32 : i32 -> tensor<32x64xi32, #blocked>
      %48 = blk.addptr %arg7, %47 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %44, %46, %48 : tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>
    }
    %26 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %27 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %28 = arith.muli %26, %27 : tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %29 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %30 = blk.addptr %29, %28 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %31 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %32 = blk.broadcast %30 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %33 = blk.broadcast %31 : tensor<1x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    blk.store %34, %25#0 {vec = 2 : i32} : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>) -> ()
    return
  }
}


// -----

// A load whose masked-off elements are not zero stays a load (cp.async can
// only fill with zeros) and keeps the register path; the other operand still
// gets its ring.
// CHECK-LABEL: func.func @nonzero_other
// CHECK: %[[A:.+]] = blk.local_alloc : <[3, 64, 32], bf16, contig = 1>
// CHECK-NOT: blk.local_alloc
// CHECK: scf.for
// CHECK: %[[SLOT:.+]] = arith.remui %{{.+}}, %c3_i32
// CHECK: %[[LB:.+]] = blk.load %{{.+}}, %{{.+}}, %{{.+}} {{.*}} -> tensor<32x64xbf16
// CHECK: %[[FB:.+]] = blk.convert_layout %[[LB]]
// CHECK: %[[FA:.+]] = blk.local_load %[[A]][%[[SLOT]]]
// CHECK-NEXT: blk.dot %[[FA]], %[[FB]], %arg5
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
#slice2 = #blk.slice<dim = 1, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @nonzero_other(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32) attributes {blk.constants = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %c32_i32 = arith.constant 32 : i32
    %7 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked>
    %9 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
    %11 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
    %13 = blk.broadcast %11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %14 = blk.addptr %12, %13 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %15 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %16 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32, #blocked>
    %17 = arith.muli %15, %16 : tensor<32x1xi32, #blocked>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
    %20 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
    %21 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x64x!blk.ptr<bf16>, #blocked>
    %22 = blk.broadcast %20 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %23 = blk.addptr %21, %22 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %cst = arith.constant 0.000000e+00 : f32
    %24 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %c0_i32 = arith.constant 0 : i32
    %25:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %24, %arg6 = %14, %arg7 = %23) -> (tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>)  : i32 {
      %35 = blk.load %arg6 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %36 = arith.subi %arg3, %arg4 : i32
      %37 = blk.splat %36 : i32 -> tensor<32x1xi32, #blocked>
      %38 = arith.cmpi slt, %15, %37 : tensor<32x1xi32, #blocked>
      %39 = blk.broadcast %38 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %cst_0 = arith.constant 1.000000e+00 : bf16
      %40 = blk.splat %cst_0 : bf16 -> tensor<32x64xbf16, #blocked>
      %41 = blk.load %arg7, %39, %40 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32} : (tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked>, tensor<32x64xbf16, #blocked>) -> tensor<32x64xbf16, #blocked>
      %42 = blk.convert_layout %35 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>
      %43 = blk.convert_layout %41 : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>
      %44 = blk.dot %42, %43, %arg5 {mma = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
      %45 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32, #blocked>
      %46 = blk.addptr %arg6, %45 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %c2048_i32 = arith.constant 2048 : i32
      %47 = blk.splat %c2048_i32 : i32 -> tensor<32x64xi32, #blocked>
      %48 = blk.addptr %arg7, %47 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %44, %46, %48 : tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>
    }
    %26 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %27 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %28 = arith.muli %26, %27 : tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %29 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %30 = blk.addptr %29, %28 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %31 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %32 = blk.broadcast %30 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %33 = blk.broadcast %31 : tensor<1x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    blk.store %34, %25#0 {vec = 2 : i32} : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>) -> ()
    return
  }
}


// -----

// Descriptor loads kept for TMA (hidden tensor-map arguments): one mbarrier
// array per operand, initialized before the loop; TMA copies of the first
// two tiles (slots 0 and 1), each guarded by the trip count; in the loop
// both barriers are waited on at phase (n / 4) & 1, no cp.async group or
// proxy fence, the barrier (slot reuse), wgmma, the copies two iterations
// ahead; after the loop the barriers are retired.
// CHECK-LABEL: func.func @tma_operands
// CHECK: %[[BA:.*]] = blk.mbarrier_alloc : !blk.mbarriers<4>
// CHECK: %[[BB:.*]] = blk.mbarrier_alloc : !blk.mbarriers<4>
// CHECK-NOT: blk.async_commit_group
// CHECK: blk.async_tma_copy %arg8[{{.*}}] into %{{.*}}[%c0{{.*}}], %[[BA]] if
// CHECK: blk.async_tma_copy %arg9[{{.*}}] into %{{.*}}[%c0{{.*}}], %[[BB]] if
// CHECK: blk.async_tma_copy %arg8[{{.*}}] into %{{.*}}[%c1{{.*}}], %[[BA]] if
// CHECK: scf.for
// CHECK: %[[Q:.*]] = arith.divui %{{.*}}, %c4
// CHECK: %[[PHASE:.*]] = arith.andi %[[Q]], %c1
// CHECK: blk.mbarrier_wait %[[BA]][%[[SLOT:.*]]], %[[PHASE]]
// CHECK: blk.mbarrier_wait %[[BB]][%[[SLOT]]], %[[PHASE]]
// CHECK-NOT: blk.async_wait
// CHECK-NOT: blk.fence_async_shared
// CHECK: blk.barrier
// CHECK: blk.warp_group_dot
// CHECK: blk.async_tma_copy %arg8
// CHECK: blk.async_tma_copy %arg9
// CHECK: scf.yield
// CHECK: blk.warp_group_dot_wait %{{.*}} {pending = 0 : i32}
// CHECK: blk.barrier
// CHECK: blk.mbarrier_inval %[[BA]]
// CHECK: blk.mbarrier_inval %[[BB]]
#blocked = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
  func.func @tma_operands(%arg0: !blk.ptr<bf16>, %arg1: !blk.ptr<bf16>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i64, %arg7: i64, %arg8: !blk.tensordesc<[64, 32], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 6, -1>}, %arg9: !blk.tensordesc<[32, 64], bf16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 7, -1>}) attributes {blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %1 = scf.for %arg10 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg11 = %0) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %13 = blk.descriptor_load %arg8[%c0_i32, %arg10] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16, #blocked>
      %14 = blk.descriptor_load %arg9[%arg10, %c0_i32] : !blk.tensordesc<[32, 64], bf16> -> tensor<32x64xbf16, #blocked>
      %15 = blk.convert_layout %13 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %16 = blk.convert_layout %14 : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %17 = blk.dot %15, %16, %arg11 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      scf.yield %17 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    }
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %4 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %5 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %6 = arith.muli %4, %5 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %7 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %8 = blk.addptr %7, %6 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %9 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %10 = blk.broadcast %8 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %11 = blk.broadcast %9 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %12 = blk.addptr %10, %11 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    blk.store %12, %1 : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> ()
    return
  }

