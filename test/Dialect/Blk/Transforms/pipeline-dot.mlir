// RUN: blk-opt %s --split-input-file --blk-pipeline-dot=num-stages=3 | FileCheck %s

// wgmma (a version 3 accumulator): two tiles copied ahead; each iteration
// waits for its tiles, fences them for the async proxy and synchronizes,
// issues wgmma on its slot and leaves one group in flight, then copies the
// tiles two iterations on. Small tiles: three slots let more programs share
// an SM than four, so the copies go to the slot of the previous iteration
// after a barrier (every warpgroup's wgmma of that iteration is done). After
// the loop: the last wgmma and the stray copies finish before the memory is
// reused.
// CHECK-LABEL: func.func @wgmma
// CHECK: %[[A:.+]] = blk.local_alloc : <[3, 64, 32], bf16, contig = 1>
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 32, 64], bf16, contig = 1>
// CHECK: blk.async_copy {{.*}} into %[[A]][%c0_i32{{.*}}] {vec = 8 : i32}
// CHECK: blk.async_copy {{.*}} into %[[B]][%c0_i32{{.*}}] {vec = 8 : i32}
// CHECK-NEXT: blk.async_commit_group
// CHECK: blk.async_copy {{.*}} into %[[A]][%c1_i32]
// CHECK: blk.async_copy {{.*}} into %[[B]][%c1_i32]
// CHECK-NEXT: blk.async_commit_group
// CHECK: scf.for
// Iteration n reads slot n % 3 and copies tile n + 2 into slot (n + 2) % 3.
// CHECK: %[[N:.+]] = arith.divsi %{{.+}}, %c32_i32
// CHECK: %[[SLOT:.+]] = arith.remui %[[N]], %c3_i32
// CHECK: %[[AHEAD:.+]] = arith.addi %[[N]], %c2_i32
// CHECK-NEXT: %[[NEXT:.+]] = arith.remui %[[AHEAD]], %c3_i32
// CHECK-NEXT: blk.async_wait {pending = 1 : i32}
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK: %[[D:.+]] = blk.warp_group_dot %[[A]][%[[SLOT]]], %[[B]][%[[SLOT]]], %arg5
// CHECK-NEXT: %[[W:.+]] = blk.warp_group_dot_wait %[[D]] {pending = 1 : i32}
// CHECK-NEXT: blk.barrier
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

// A load whose masked-off elements are not zero is no operand ring (cp.async
// can only fill with zeros): it goes through a ring of its own, copied with
// the operand's tiles and read back in its blocked layout, its `other`
// selected where the mask is off; the dot converts it from registers. Only
// threads touch that ring: it is arranged for their 16-byte accesses, four
// lanes to a 128-byte row (bit 5 of the element index flips with the row's
// lowest, bit 6), where the tensor-core swizzle would put two rows of one
// access phase on the same banks.
// CHECK-LABEL: func.func @nonzero_other
// CHECK: %[[A:.+]] = blk.local_alloc : <[3, 64, 32], bf16, contig = 1>
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 32, 64], bf16, contig = 1, xor = [5, 6]>
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[A]][%c0_i32{{.*}}]
// CHECK-NEXT: %{{.+}} = arith.subi
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[B]][%c0_i32{{.*}}]
// CHECK-NEXT: blk.async_commit_group
// CHECK: scf.for
// CHECK: %[[SLOT:.+]] = arith.remui %{{.+}}, %c3_i32
// CHECK: blk.async_wait {pending = 1 : i32}
// CHECK-NEXT: blk.barrier
// CHECK-NOT: blk.load
// CHECK: %[[LB:.+]] = blk.local_load %[[B]][%[[SLOT]]] : <[3, 32, 64], bf16, contig = 1, xor = [5, 6]> -> tensor<32x64xbf16, #blocked>
// CHECK-NEXT: %[[SB:.+]] = arith.select %{{.+}}, %[[LB]], %{{.+}} : tensor<32x64xi1, #blocked>, tensor<32x64xbf16, #blocked>
// CHECK-NEXT: %[[FB:.+]] = blk.convert_layout %[[SB]]
// CHECK: %[[FA:.+]] = blk.local_load %[[A]][%[[SLOT]]]
// CHECK-NEXT: blk.dot %[[FA]], %[[FB]], %arg5
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[A]]
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[B]]
// CHECK-NEXT: blk.async_commit_group
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
// both barriers are waited on at phase (n / 3) & 1, no cp.async group or
// proxy fence, the barrier (slot reuse), wgmma, the copies two iterations
// ahead; after the loop the barriers are retired.
// CHECK-LABEL: func.func @tma_operands
// CHECK: %[[BA:.*]] = blk.mbarrier_alloc : !blk.mbarriers<3>
// CHECK: %[[BB:.*]] = blk.mbarrier_alloc : !blk.mbarriers<3>
// CHECK-NOT: blk.async_commit_group
// CHECK: blk.async_tma_copy %arg8[{{.*}}] into %{{.*}}[%c0{{.*}}], %[[BA]] if
// CHECK: blk.async_tma_copy %arg9[{{.*}}] into %{{.*}}[%c0{{.*}}], %[[BB]] if
// CHECK: blk.async_tma_copy %arg8[{{.*}}] into %{{.*}}[%c1{{.*}}], %[[BA]] if
// CHECK: scf.for
// CHECK: %[[Q:.*]] = arith.divui %{{.*}}, %c3
// CHECK: %[[PHASE:.*]] = arith.andi %[[Q]], %c1
// CHECK: blk.mbarrier_wait %[[BA]][%[[SLOT:.*]]], %[[PHASE]]
// CHECK: blk.mbarrier_wait %[[BB]][%[[SLOT]]], %[[PHASE]]
// CHECK-NOT: blk.async_wait
// CHECK-NOT: blk.fence_async_shared
// CHECK: blk.barrier
// CHECK: blk.warp_group_dot
// CHECK: blk.barrier
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

// -----

// Attention's chain on wgmma: the second dot accumulates into acc * 0.5, so
// its result is not its own iter arg; the loop only carries it, and every
// reader of the iter arg comes after the first dot's complete wait. That
// wait carries it (the second dot stays in flight across the loop edge), the
// rescale reads the waited value, the loop yields the issued dot, and one
// wait follows the loop. The first dot's A, loaded before the loop, is
// written once into a one-slot buffer (then the async-proxy fence and a
// barrier) and read by wgmma from there.
// CHECK-LABEL: func.func @in_flight_pv
// CHECK: %[[ABUF:.+]] = blk.local_alloc : <[1, 64, 64], f16, contig = 1>
// CHECK-NEXT: blk.local_store %{{.+}}, %[[ABUF]][%[[ZERO:.+]]] : tensor<64x64xf16, #{{.+}}>, <[1, 64, 64], f16, contig = 1>
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}})
// CHECK: %[[S:.+]] = blk.warp_group_dot %[[ABUF]][%[[ZERO]]], %{{.+}}[%{{.+}}], %{{.+}} : !blk.smem<[1, 64, 64], f16
// CHECK-NEXT: %[[W:.+]]:2 = blk.warp_group_dot_wait %[[S]], %[[ACC]] {pending = 0 : i32}
// CHECK: arith.mulf %[[W]]#1
// CHECK: %[[PV:.+]] = blk.warp_group_dot
// CHECK-NOT: blk.warp_group_dot_wait
// CHECK: scf.yield %[[PV]]
// CHECK: blk.warp_group_dot_wait %{{[^ ]+}} {pending = 0 : i32}
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#blocked2 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 1, parent = #blocked>
#slice2 = #blk.slice<dim = 1, parent = #blocked1>
#slice3 = #blk.slice<dim = 1, parent = #blocked2>
#slice4 = #blk.slice<dim = 0, parent = #blocked>
#slice5 = #blk.slice<dim = 0, parent = #blocked1>
#slice6 = #blk.slice<dim = 0, parent = #blocked2>
module attributes {blk.num_warps = 4 : i32} {
  func.func @in_flight_pv(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32, %arg5: i64 {blk.divisibility = 16 : i64}, %arg6: i64 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 0.000000e+00 : f16
    %c0_i32 = arith.constant 0 : i32
    %cst_2 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %6 = blk.arange 0, 64 : tensor<64xi32, #slice6>
    %7 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked>
    %8 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked1>
    %9 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked2>
    %10 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
    %11 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked2>
    %12 = arith.muli %7, %10 : tensor<64x1xi32, #blocked>
    %13 = arith.muli %9, %11 : tensor<64x1xi32, #blocked2>
    %14 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
    %15 = blk.addptr %14, %13 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %16 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked>
    %17 = blk.expand_dims %6 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked2>
    %18 = blk.broadcast %15 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
    %19 = blk.broadcast %16 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %20 = blk.broadcast %17 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %21 = blk.addptr %18, %20 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %22 = blk.load %21 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>) -> tensor<64x64xf16, #blocked2>
    %23 = blk.splat %cst_2 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %24 = scf.for %arg7 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg8 = %23) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %30 = blk.splat %arg7 : i32 -> tensor<64xi32, #slice3>
      %31 = blk.splat %arg7 : i32 -> tensor<64xi32, #slice>
      %32 = blk.splat %arg7 : i32 -> tensor<64xi32, #slice5>
      %33 = arith.addi %30, %2 : tensor<64xi32, #slice3>
      %34 = arith.addi %31, %3 : tensor<64xi32, #slice>
      %35 = arith.addi %32, %5 : tensor<64xi32, #slice5>
      %36 = blk.expand_dims %34 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %37 = blk.expand_dims %35 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked1>
      %38 = arith.extsi %37 : tensor<1x64xi32, #blocked1> to tensor<1x64xi64, #blocked1>
      %39 = blk.splat %arg5 : i64 -> tensor<1x64xi64, #blocked1>
      %40 = arith.muli %38, %39 : tensor<1x64xi64, #blocked1>
      %41 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<1x64x!blk.ptr<f16>, #blocked1>
      %42 = blk.addptr %41, %40 : tensor<1x64x!blk.ptr<f16>, #blocked1>, tensor<1x64xi64, #blocked1>
      %43 = blk.broadcast %42 : tensor<1x64x!blk.ptr<f16>, #blocked1> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
      %44 = blk.broadcast %8 : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %45 = blk.addptr %43, %44 : tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      %46 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %47 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blocked1>
      %48 = arith.cmpi slt, %36, %46 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %49 = arith.cmpi slt, %37, %47 : tensor<1x64xi32, #blocked1>
      %50 = blk.broadcast %48 : tensor<1x64xi1, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi1, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %51 = blk.broadcast %49 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %52 = blk.splat %cst_1 : f16 -> tensor<64x64xf16, #blocked2>
      %53 = blk.splat %cst_1 : f16 -> tensor<64x64xf16, #blocked1>
      %54 = blk.load %45, %51, %53 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi1, #blocked1>, tensor<64x64xf16, #blocked1>) -> tensor<64x64xf16, #blocked1>
      %55 = blk.convert_layout %22 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %56 = blk.convert_layout %54 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %57 = blk.dot %55, %56, %23 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %58 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %59 = arith.negf %57 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %60 = math.exp %59 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %61 = arith.addf %58, %60 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %62 = arith.divf %58, %61 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %63 = arith.select %50, %62, %23 : tensor<64x64xi1, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %64 = blk.expand_dims %33 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked2>
      %65 = arith.extsi %64 : tensor<64x1xi32, #blocked2> to tensor<64x1xi64, #blocked2>
      %66 = blk.splat %arg6 : i64 -> tensor<64x1xi64, #blocked2>
      %67 = arith.muli %65, %66 : tensor<64x1xi64, #blocked2>
      %68 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
      %69 = blk.addptr %68, %67 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi64, #blocked2>
      %70 = blk.broadcast %69 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
      %71 = blk.addptr %70, %20 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
      %72 = blk.splat %arg4 : i32 -> tensor<64x1xi32, #blocked2>
      %73 = arith.cmpi slt, %64, %72 : tensor<64x1xi32, #blocked2>
      %74 = blk.broadcast %73 : tensor<64x1xi1, #blocked2> -> tensor<64x64xi1, #blocked2>
      %75 = blk.load %71, %74, %52 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi1, #blocked2>, tensor<64x64xf16, #blocked2>) -> tensor<64x64xf16, #blocked2>
      %76 = arith.truncf %63 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> to tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %77 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %78 = arith.mulf %arg8, %77 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %79 = blk.convert_layout %76 : tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %80 = blk.convert_layout %75 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %81 = blk.dot %79, %80, %78 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      scf.yield %81 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    }
    %25 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked>
    %26 = blk.addptr %25, %12 : tensor<64x1x!blk.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %27 = blk.broadcast %26 : tensor<64x1x!blk.ptr<f32>, #blocked> -> tensor<64x64x!blk.ptr<f32>, #blocked>
    %28 = blk.addptr %27, %19 : tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %29 = blk.convert_layout %24 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blocked>
    blk.store %28, %29 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>) -> ()
    return
  }
}

// -----

// The same loop with the iter arg read before the first dot: no complete
// wait of the iteration precedes every reader, so the second dot stays in
// flight across the loop edge and is waited for in front of its first
// reader, at the top of the next iteration, where no dot of that iteration
// has been issued yet (pending 0); that is before the copies ahead (with
// one slot fewer they refill the slot it read after a barrier).
// CHECK-LABEL: func.func @read_early
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}})
// CHECK: blk.barrier
// CHECK-NEXT: %[[W:.+]] = blk.warp_group_dot_wait %[[ACC]] {pending = 0 : i32}
// CHECK-NEXT: arith.negf %[[W]]
// CHECK: blk.warp_group_dot_wait %{{[^ ,]+}} {pending = 0 : i32}
// CHECK: arith.mulf %[[W]]
// CHECK: %[[PV:.+]] = blk.warp_group_dot
// CHECK-NOT: blk.warp_group_dot_wait
// CHECK: blk.async_commit_group
// CHECK-NEXT: scf.yield %[[PV]]
// CHECK: blk.warp_group_dot_wait %{{[^ ]+}} {pending = 0 : i32}
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#blocked2 = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 1, parent = #blocked>
#slice2 = #blk.slice<dim = 1, parent = #blocked1>
#slice3 = #blk.slice<dim = 1, parent = #blocked2>
#slice4 = #blk.slice<dim = 0, parent = #blocked>
#slice5 = #blk.slice<dim = 0, parent = #blocked1>
#slice6 = #blk.slice<dim = 0, parent = #blocked2>
module attributes {blk.num_warps = 4 : i32} {
  func.func @read_early(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32, %arg5: i64 {blk.divisibility = 16 : i64}, %arg6: i64 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 0.000000e+00 : f16
    %c0_i32 = arith.constant 0 : i32
    %cst_2 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %6 = blk.arange 0, 64 : tensor<64xi32, #slice6>
    %7 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked>
    %8 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked1>
    %9 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked2>
    %10 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
    %11 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked2>
    %12 = arith.muli %7, %10 : tensor<64x1xi32, #blocked>
    %13 = arith.muli %9, %11 : tensor<64x1xi32, #blocked2>
    %14 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
    %15 = blk.addptr %14, %13 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %16 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked>
    %17 = blk.expand_dims %6 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked2>
    %18 = blk.broadcast %15 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
    %19 = blk.broadcast %16 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %20 = blk.broadcast %17 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
    %21 = blk.addptr %18, %20 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %22 = blk.load %21 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>) -> tensor<64x64xf16, #blocked2>
    %23 = blk.splat %cst_2 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %24 = scf.for %arg7 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg8 = %23) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %early = arith.negf %arg8 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %30 = blk.splat %arg7 : i32 -> tensor<64xi32, #slice3>
      %31 = blk.splat %arg7 : i32 -> tensor<64xi32, #slice>
      %32 = blk.splat %arg7 : i32 -> tensor<64xi32, #slice5>
      %33 = arith.addi %30, %2 : tensor<64xi32, #slice3>
      %34 = arith.addi %31, %3 : tensor<64xi32, #slice>
      %35 = arith.addi %32, %5 : tensor<64xi32, #slice5>
      %36 = blk.expand_dims %34 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %37 = blk.expand_dims %35 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked1>
      %38 = arith.extsi %37 : tensor<1x64xi32, #blocked1> to tensor<1x64xi64, #blocked1>
      %39 = blk.splat %arg5 : i64 -> tensor<1x64xi64, #blocked1>
      %40 = arith.muli %38, %39 : tensor<1x64xi64, #blocked1>
      %41 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<1x64x!blk.ptr<f16>, #blocked1>
      %42 = blk.addptr %41, %40 : tensor<1x64x!blk.ptr<f16>, #blocked1>, tensor<1x64xi64, #blocked1>
      %43 = blk.broadcast %42 : tensor<1x64x!blk.ptr<f16>, #blocked1> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
      %44 = blk.broadcast %8 : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %45 = blk.addptr %43, %44 : tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      %46 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %47 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blocked1>
      %48 = arith.cmpi slt, %36, %46 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %49 = arith.cmpi slt, %37, %47 : tensor<1x64xi32, #blocked1>
      %50 = blk.broadcast %48 : tensor<1x64xi1, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi1, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %51 = blk.broadcast %49 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %52 = blk.splat %cst_1 : f16 -> tensor<64x64xf16, #blocked2>
      %53 = blk.splat %cst_1 : f16 -> tensor<64x64xf16, #blocked1>
      %54 = blk.load %45, %51, %53 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi1, #blocked1>, tensor<64x64xf16, #blocked1>) -> tensor<64x64xf16, #blocked1>
      %55 = blk.convert_layout %22 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %56 = blk.convert_layout %54 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %57 = blk.dot %55, %56, %23 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %58 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %59 = arith.negf %57 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %60 = math.exp %59 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %61 = arith.addf %58, %60 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %62 = arith.divf %58, %61 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %63 = arith.select %50, %62, %23 : tensor<64x64xi1, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %64 = blk.expand_dims %33 {axis = 1 : i32} : tensor<64xi32, #slice3> -> tensor<64x1xi32, #blocked2>
      %65 = arith.extsi %64 : tensor<64x1xi32, #blocked2> to tensor<64x1xi64, #blocked2>
      %66 = blk.splat %arg6 : i64 -> tensor<64x1xi64, #blocked2>
      %67 = arith.muli %65, %66 : tensor<64x1xi64, #blocked2>
      %68 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
      %69 = blk.addptr %68, %67 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi64, #blocked2>
      %70 = blk.broadcast %69 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
      %71 = blk.addptr %70, %20 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
      %72 = blk.splat %arg4 : i32 -> tensor<64x1xi32, #blocked2>
      %73 = arith.cmpi slt, %64, %72 : tensor<64x1xi32, #blocked2>
      %74 = blk.broadcast %73 : tensor<64x1xi1, #blocked2> -> tensor<64x64xi1, #blocked2>
      %75 = blk.load %71, %74, %52 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi1, #blocked2>, tensor<64x64xf16, #blocked2>) -> tensor<64x64xf16, #blocked2>
      %76 = arith.truncf %63 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> to tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %77 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %78 = arith.mulf %arg8, %77 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %79 = blk.convert_layout %76 : tensor<64x64xf16, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %80 = blk.convert_layout %75 : tensor<64x64xf16, #blocked2> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %81 = blk.dot %79, %80, %78 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      scf.yield %81 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    }
    %25 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked>
    %26 = blk.addptr %25, %12 : tensor<64x1x!blk.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
    %27 = blk.broadcast %26 : tensor<64x1x!blk.ptr<f32>, #blocked> -> tensor<64x64x!blk.ptr<f32>, #blocked>
    %28 = blk.addptr %27, %19 : tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
    %29 = blk.convert_layout %24 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blocked>
    blk.store %28, %29 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xf32, #blocked>) -> ()
    return
  }
}

// -----

// One load read by two dots, once as is and once transposed: one ring, the
// second dot reading it through a transposed view (no trans through shared
// memory, no second copy).
// CHECK-LABEL: func.func @shared_x
// CHECK: %[[X:.*]] = blk.local_alloc : <[3, 32, 32], bf16, contig = 1>
// CHECK-COUNT-2: blk.async_copy %{{.*}}, %{{.*}} into %[[X]]
// CHECK: scf.for
// CHECK: %[[XT:.*]] = blk.local_trans %[[X]] : <[3, 32, 32], bf16, contig = 1> -> <[3, 32, 32], bf16, contig = 0>
// CHECK-NEXT: blk.warp_group_dot %{{.*}}[%[[S:.*]]], %[[XT]][%[[S]]], %{{.*}} : !blk.smem<[3, 64, 32], bf16, contig = 1>, <[3, 32, 32], bf16, contig = 0>
// CHECK: blk.warp_group_dot %{{.*}}[%{{.*}}], %[[X]][%[[S]]], %{{.*}} : !blk.smem<[1, 64, 32], bf16, contig = 1>, <[3, 32, 32], bf16, contig = 1>
// CHECK: blk.async_copy %{{.*}}, %{{.*}} into %[[X]]
// CHECK-NOT: blk.trans
// CHECK-NOT: blk.load %{{.*}} tensor<32x32x!blk.ptr<bf16>
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @shared_x(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %3 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice>
    %5 = blk.splat %cst_0 : f32 -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %6 = blk.splat %cst : bf16 -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
    %7:2 = scf.for %arg5 = %c0_i32 to %arg4 step %c32_i32 iter_args(%arg6 = %5, %arg7 = %5) -> (tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>)  : i32 {
      %23 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %24 = blk.splat %arg4 : i32 -> tensor<64x1xi32, #blocked>
      %25 = arith.muli %23, %24 : tensor<64x1xi32, #blocked>
      %26 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %27 = blk.addptr %26, %25 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
      %28 = blk.splat %arg5 : i32 -> tensor<32xi32, #slice2>
      %29 = arith.addi %28, %2 : tensor<32xi32, #slice2>
      %30 = blk.expand_dims %29 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
      %31 = blk.broadcast %27 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
      %32 = blk.broadcast %30 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
      %33 = blk.addptr %31, %32 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %34 = blk.load %33 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %35 = blk.expand_dims %4 {axis = 1 : i32} : tensor<32xi32, #slice> -> tensor<32x1xi32, #blocked>
      %36 = blk.splat %arg4 : i32 -> tensor<32x1xi32, #blocked>
      %37 = arith.muli %35, %36 : tensor<32x1xi32, #blocked>
      %38 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
      %39 = blk.addptr %38, %37 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
      %40 = blk.broadcast %39 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x32x!blk.ptr<bf16>, #blocked>
      %41 = blk.broadcast %30 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
      %42 = blk.addptr %40, %41 : tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi32, #blocked>
      %43 = blk.load %42 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<32x32x!blk.ptr<bf16>, #blocked>) -> tensor<32x32xbf16, #blocked>
      %44 = blk.trans %43 : tensor<32x32xbf16, #blocked> -> tensor<32x32xbf16, #blocked>
      %45 = blk.convert_layout %34 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %46 = blk.convert_layout %44 : tensor<32x32xbf16, #blocked> -> tensor<32x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %47 = blk.dot %45, %46, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<32x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %48 = blk.convert_layout %43 : tensor<32x32xbf16, #blocked> -> tensor<32x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %49 = blk.dot %6, %48, %arg7 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<32x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      scf.yield %47, %49 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    }
    %8 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %9 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %10 = arith.muli %8, %9 : tensor<64x1xi32, #blocked1>
    %11 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %12 = blk.addptr %11, %10 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %13 = blk.expand_dims %3 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked1>
    %14 = blk.broadcast %12 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x32x!blk.ptr<f32>, #blocked1>
    %15 = blk.broadcast %13 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %16 = blk.addptr %14, %15 : tensor<64x32x!blk.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %17 = blk.convert_layout %7#0 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blocked1>
    blk.store %16, %17 {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #blocked1>, tensor<64x32xf32, #blocked1>) -> ()
    %18 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %19 = blk.addptr %18, %10 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %20 = blk.broadcast %19 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x32x!blk.ptr<f32>, #blocked1>
    %21 = blk.addptr %20, %15 : tensor<64x32x!blk.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %22 = blk.convert_layout %7#1 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blocked1>
    blk.store %21, %22 {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #blocked1>, tensor<64x32xf32, #blocked1>) -> ()
    return
  }
}


// -----

// The same load also read by something other than a dot: it keeps its
// registers (no ring), and the dot reading it transposed writes the
// transposed block into a slot of its own each iteration for wgmma.
// CHECK-LABEL: func.func @x_also_read
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 32, 32], bf16, contig = 1>
// CHECK-NOT: blk.local_trans
// CHECK: %[[T:.+]] = blk.trans
// CHECK-NEXT: blk.local_store %[[T]], %[[B]][%{{.+}}]
// CHECK: blk.warp_group_dot %{{.+}}, %[[B]][%{{.+}}]
// CHECK-NOT: blk.dot
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @x_also_read(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %true = arith.constant true
    %c64_i32 = arith.constant 64 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 32 : tensor<32xi32, #slice>
    %3 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %5 = blk.splat %cst : f32 -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %6 = blk.splat %cst : f32 -> tensor<32x32xf32, #blocked>
    %7 = blk.expand_dims %2 {axis = 1 : i32} : tensor<32xi32, #slice> -> tensor<32x1xi32, #blocked>
    %8 = blk.splat %arg4 : i32 -> tensor<32x1xi32, #blocked>
    %9 = arith.muli %7, %8 : tensor<32x1xi32, #blocked>
    %10 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %11 = blk.addptr %10, %9 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
    %12 = blk.splat %c0_i32 : i32 -> tensor<32xi32, #slice2>
    %13 = arith.addi %12, %3 : tensor<32xi32, #slice2>
    %14 = blk.expand_dims %13 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
    %15 = blk.broadcast %11 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x32x!blk.ptr<bf16>, #blocked>
    %16 = blk.broadcast %14 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %17 = blk.addptr %15, %16 : tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi32, #blocked>
    %18 = blk.splat %true : i1 -> tensor<32x32xi1, #blocked>
    %19 = blk.load %17, %18 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 8 : i32} : (tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi1, #blocked>) -> tensor<32x32xbf16, #blocked>
    %20 = blk.splat %c32_i32 : i32 -> tensor<32xi32, #slice2>
    %21 = arith.addi %20, %3 : tensor<32xi32, #slice2>
    %22 = blk.expand_dims %21 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
    %23 = blk.broadcast %22 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %24 = blk.addptr %15, %23 : tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi32, #blocked>
    %25 = blk.load %24, %18 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 8 : i32} : (tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi1, #blocked>) -> tensor<32x32xbf16, #blocked>
    %26:4 = scf.for %arg5 = %c0_i32 to %arg4 step %c32_i32 iter_args(%arg6 = %5, %arg7 = %6, %arg8 = %19, %arg9 = %25) -> (tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<32x32xf32, #blocked>, tensor<32x32xbf16, #blocked>, tensor<32x32xbf16, #blocked>)  : i32 {
      %45 = arith.addi %arg5, %c64_i32 : i32
      %46 = blk.splat %45 : i32 -> tensor<32xi32, #slice2>
      %47 = arith.addi %46, %3 : tensor<32xi32, #slice2>
      %48 = blk.expand_dims %47 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
      %49 = blk.broadcast %48 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
      %50 = blk.addptr %15, %49 : tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi32, #blocked>
      %51 = arith.cmpi sgt, %45, %arg5 : i32
      %52 = blk.splat %51 : i1 -> tensor<32x32xi1, #blocked>
      %53 = blk.load %50, %52 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 8 : i32} : (tensor<32x32x!blk.ptr<bf16>, #blocked>, tensor<32x32xi1, #blocked>) -> tensor<32x32xbf16, #blocked>
      %54 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %55 = blk.splat %arg4 : i32 -> tensor<64x1xi32, #blocked>
      %56 = arith.muli %54, %55 : tensor<64x1xi32, #blocked>
      %57 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %58 = blk.addptr %57, %56 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
      %59 = blk.splat %arg5 : i32 -> tensor<32xi32, #slice2>
      %60 = arith.addi %59, %3 : tensor<32xi32, #slice2>
      %61 = blk.expand_dims %60 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
      %62 = blk.broadcast %58 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
      %63 = blk.broadcast %61 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
      %64 = blk.addptr %62, %63 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %65 = blk.load %64 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %66 = blk.trans %arg8 : tensor<32x32xbf16, #blocked> -> tensor<32x32xbf16, #blocked>
      %67 = blk.convert_layout %65 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %68 = blk.convert_layout %66 : tensor<32x32xbf16, #blocked> -> tensor<32x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %69 = blk.dot %67, %68, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<32x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %70 = arith.extf %arg8 : tensor<32x32xbf16, #blocked> to tensor<32x32xf32, #blocked>
      %71 = arith.addf %arg7, %70 : tensor<32x32xf32, #blocked>
      scf.yield %69, %71, %arg9, %53 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<32x32xf32, #blocked>, tensor<32x32xbf16, #blocked>, tensor<32x32xbf16, #blocked>
    }
    %27 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %28 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %29 = arith.muli %27, %28 : tensor<64x1xi32, #blocked1>
    %30 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %31 = blk.addptr %30, %29 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %32 = blk.expand_dims %3 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
    %33 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked1>
    %34 = blk.broadcast %31 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x32x!blk.ptr<f32>, #blocked1>
    %35 = blk.broadcast %33 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %36 = blk.addptr %34, %35 : tensor<64x32x!blk.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %37 = blk.convert_layout %26#0 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blocked1>
    blk.store %36, %37 {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #blocked1>, tensor<64x32xf32, #blocked1>) -> ()
    %38 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32, #blocked>
    %39 = arith.muli %7, %38 : tensor<32x1xi32, #blocked>
    %40 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>, #blocked>
    %41 = blk.addptr %40, %39 : tensor<32x1x!blk.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %42 = blk.broadcast %41 : tensor<32x1x!blk.ptr<f32>, #blocked> -> tensor<32x32x!blk.ptr<f32>, #blocked>
    %43 = blk.broadcast %32 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %44 = blk.addptr %42, %43 : tensor<32x32x!blk.ptr<f32>, #blocked>, tensor<32x32xi32, #blocked>
    blk.store %44, %26#1 {vec = 4 : i32} : (tensor<32x32x!blk.ptr<f32>, #blocked>, tensor<32x32xf32, #blocked>) -> ()
    return
  }
}

