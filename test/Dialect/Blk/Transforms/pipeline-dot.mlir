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

// A load whose masked-off elements are not zero stays a load: cp.async can
// only fill with zeros.
// CHECK-LABEL: func.func @nonzero_other
// CHECK-NOT: blk.local_alloc
// CHECK: blk.load
// CHECK: blk.dot
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

