// RUN: blk-opt %s --blk-pipeline-dot="num-stages=3" | FileCheck %s
// RUN: sed 's/ {blk.warp_specialize}//' %s | blk-opt --blk-pipeline-dot="num-stages=3 warp-specialize=true" | FileCheck %s
// RUN: sed 's/ {blk.warp_specialize}//' %s | blk-opt --blk-pipeline-dot="num-stages=3" | FileCheck %s --check-prefix=ONEROLE

// A loop marked blk.warp_specialize (range(..., warp_specialize=True)), or
// any loop with the pass's warp-specialize, whose dot operands all come
// through TMA rings read by wgmma: the rings and their mbarriers move to the
// kernel's start, then the body splits on blk.producer_warp. The producer
// warpgroup (40 registers; the 8 consumer warps take 232) computes the
// tiles' offsets again and, in its own loop, waits for each slot's release
// ({issuer}: one warp) and copies the tile into it; the first 3 slots are
// free from the start (parity 1 of a fresh barrier). The consumers' loop
// waits for its tiles, runs the dot and releases the previous tile's slot,
// issuing no copy and keeping no barrier of all threads.
// CHECK-LABEL: func.func @ws
// CHECK-SAME: blk.producer_warps = 4 : i32
// CHECK: %[[AR:.+]] = blk.local_alloc : <[3, 128, 64], f16, contig = 1>
// CHECK-NEXT: %[[AF:.+]] = blk.mbarrier_alloc : !blk.mbarriers<3>
// CHECK-NEXT: %[[BR:.+]] = blk.local_alloc : <[3, 64, 64], f16, contig = 1>
// CHECK-NEXT: %[[BF:.+]] = blk.mbarrier_alloc : !blk.mbarriers<3>
// CHECK-NEXT: %[[EMPTY:.+]] = blk.mbarrier_alloc {arrivals = 8 : i64} : !blk.mbarriers<3>
// CHECK-NEXT: %[[ROLE:.+]] = blk.producer_warp
// CHECK-NEXT: scf.if %[[ROLE]] {
// CHECK-NEXT: blk.set_max_registers 40
// CHECK: %[[ROW:.+]] = arith.muli
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %arg5 step
// CHECK: %[[SLOT:.+]] = arith.remui %{{.+}}, %c3_i32
// CHECK: %[[ROUND:.+]] = arith.divui %{{.+}}, %c3_i32
// CHECK: %[[LOW:.+]] = arith.andi %[[ROUND]], %c1_i32
// CHECK: %[[PARITY:.+]] = arith.xori %[[LOW]], %c1_i32
// CHECK: blk.mbarrier_wait %[[EMPTY]][%[[SLOT]]], %[[PARITY]] {issuer}
// CHECK: blk.async_tma_copy %arg6[%[[ROW]], %[[K]]] into %[[AR]][%[[SLOT]]], %[[AF]] if %true
// CHECK-NEXT: blk.async_tma_copy %arg7[%[[K]], %{{.+}}] into %[[BR]][%[[SLOT]]], %[[BF]] if %true
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NEXT: blk.set_max_registers 232 increase
// CHECK-NOT: blk.async_tma_copy
// CHECK: scf.for
// CHECK-NOT: blk.barrier
// CHECK: blk.mbarrier_wait %[[AF]]
// CHECK-NEXT: blk.mbarrier_wait %[[BF]]
// CHECK-NOT: blk.barrier
// CHECK: blk.warp_group_dot
// CHECK: blk.mbarrier_arrive %[[EMPTY]]
// CHECK-NOT: blk.async_tma_copy
// CHECK-NOT: blk.mbarrier_wait
// CHECK: scf.yield
// CHECK: blk.barrier
// CHECK: blk.mbarrier_inval %[[EMPTY]]
// CHECK: blk.store {{.*}} -> ()
// CHECK-NEXT: } {blk.producer_branch}
// CHECK-NEXT: return
// ONEROLE-LABEL: func.func @ws
// ONEROLE-NOT: blk.producer_warps
// ONEROLE-NOT: blk.producer_warp
// ONEROLE: scf.for
// ONEROLE: blk.barrier
// ONEROLE: blk.async_tma_copy

// A loop inside an `if` keeps one role (the producer would have to take
// the same branch): the copies are the consumers' own, ahead of the dots.
// CHECK-LABEL: func.func @nested
// CHECK-NOT: blk.producer_warps
// CHECK-NOT: blk.producer_warp
// CHECK: scf.if
// CHECK: blk.async_tma_copy
// CHECK: scf.for
// CHECK: blk.barrier
// CHECK: blk.async_tma_copy
// A loop in a loop over tiles (a persistent kernel): the producer mirrors
// the loop over tiles and counts the K tiles of its trips; so do the
// consumers, whose loop over tiles carries the count, so that slots and
// phases run on across tiles. The mbarriers are retired after that loop.
// CHECK-LABEL: func.func @persistent
// CHECK-SAME: blk.producer_warps = 4 : i32
// CHECK: scf.if
// CHECK: blk.set_max_registers 40
// CHECK: scf.for {{.*}} iter_args(%[[BEFORE:.+]] = %{{.+}}) -> (i32)
// CHECK: scf.for %[[K:[a-z0-9_]+]] =
// CHECK: %[[N:.+]] = arith.addi %[[BEFORE]],
// CHECK: arith.remui %[[N]], %c3_i32
// CHECK: blk.mbarrier_wait {{.*}} {issuer}
// CHECK: blk.async_tma_copy
// CHECK: %[[TOTAL:.+]] = arith.addi %[[BEFORE]],
// CHECK-NEXT: scf.yield %[[TOTAL]] : i32
// CHECK: } else {
// CHECK: scf.for {{.*}} iter_args(%[[CBEFORE:.+]] = %{{.+}}) -> (i32)
// CHECK: scf.for
// CHECK: arith.addi %[[CBEFORE]],
// CHECK: blk.mbarrier_arrive
// CHECK: scf.yield %{{.+}} : tensor<128x64xf32
// CHECK: blk.barrier
// CHECK: scf.yield %{{.+}} : i32
// CHECK: blk.barrier
// CHECK-NEXT: blk.mbarrier_inval

#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 8 : i32} {
  func.func @ws(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}, %arg6: !blk.tensordesc<[128, 64], f16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 5, -1>}, %arg7: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 4, -1>}) attributes {blk.constants = {WS = true}, blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c128_i32 = arith.constant 128 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c128_i32 : i32
    %2 = blk.splat %cst : f32 -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %3 = scf.for %arg8 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg9 = %2) -> (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>)  : i32 {
      %18 = blk.descriptor_load %arg6[%1, %arg8] : !blk.tensordesc<[128, 64], f16> -> tensor<128x64xf16, #blocked>
      %19 = blk.descriptor_load %arg7[%arg8, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked>
      %20 = blk.convert_layout %18 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %21 = blk.convert_layout %19 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %22 = blk.dot %20, %21, %arg9 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>} : tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      scf.yield %22 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    } {blk.warp_specialize}
    %4 = blk.arange 0, 128 : tensor<128xi32, #slice>
    %5 = blk.splat %1 : i32 -> tensor<128xi32, #slice>
    %6 = arith.addi %5, %4 : tensor<128xi32, #slice>
    %7 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %8 = blk.expand_dims %6 {axis = 1 : i32} : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %9 = blk.splat %arg4 : i32 -> tensor<128x1xi32, #blocked>
    %10 = arith.muli %8, %9 : tensor<128x1xi32, #blocked>
    %11 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>, #blocked>
    %12 = blk.addptr %11, %10 : tensor<128x1x!blk.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %13 = blk.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %14 = blk.broadcast %12 : tensor<128x1x!blk.ptr<f32>, #blocked> -> tensor<128x64x!blk.ptr<f32>, #blocked>
    %15 = blk.broadcast %13 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %16 = blk.addptr %14, %15 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %17 = blk.convert_layout %3 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blocked>
    blk.store %16, %17 {vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xf32, #blocked>) -> ()
    return
  }
  func.func @nested(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}, %arg6: i32, %arg7: !blk.tensordesc<[128, 64], f16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 5, -1>}, %arg8: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 4, -1>}) attributes {blk.constants = {}, blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c128_i32 = arith.constant 128 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c128_i32 : i32
    %2 = blk.splat %cst : f32 -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    %3 = arith.cmpi sgt, %arg6, %c0_i32 : i32
    %4 = scf.if %3 -> (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>) {
      %19 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %2) -> (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>)  : i32 {
        %20 = blk.descriptor_load %arg7[%1, %arg9] : !blk.tensordesc<[128, 64], f16> -> tensor<128x64xf16, #blocked>
        %21 = blk.descriptor_load %arg8[%arg9, %c0_i32] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked>
        %22 = blk.convert_layout %20 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
        %23 = blk.convert_layout %21 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
        %24 = blk.dot %22, %23, %arg10 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>} : tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
        scf.yield %24 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      } {blk.warp_specialize}
      scf.yield %19 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    } else {
      scf.yield %2 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
    }
    %5 = blk.arange 0, 128 : tensor<128xi32, #slice>
    %6 = blk.splat %1 : i32 -> tensor<128xi32, #slice>
    %7 = arith.addi %6, %5 : tensor<128xi32, #slice>
    %8 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %9 = blk.expand_dims %7 {axis = 1 : i32} : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
    %10 = blk.splat %arg4 : i32 -> tensor<128x1xi32, #blocked>
    %11 = arith.muli %9, %10 : tensor<128x1xi32, #blocked>
    %12 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>, #blocked>
    %13 = blk.addptr %12, %11 : tensor<128x1x!blk.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
    %14 = blk.expand_dims %8 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
    %15 = blk.broadcast %13 : tensor<128x1x!blk.ptr<f32>, #blocked> -> tensor<128x64x!blk.ptr<f32>, #blocked>
    %16 = blk.broadcast %14 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %17 = blk.addptr %15, %16 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
    %18 = blk.convert_layout %4 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blocked>
    blk.store %17, %18 {vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xf32, #blocked>) -> ()
    return
  }
  func.func @persistent(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}, %arg6: !blk.tensordesc<[128, 64], f16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 5, -1>}, %arg7: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 4, -1>}) attributes {blk.constants = {NUM_SMS = 4 : i64}, blk.kernel} {
    %c127_i32 = arith.constant 127 : i32
    %c63_i32 = arith.constant 63 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c4_i32 = arith.constant 4 : i32
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = arith.addi %arg4, %c63_i32 : i32
    %1 = arith.divsi %0, %c64_i32 : i32
    %2 = arith.addi %arg3, %c127_i32 : i32
    %3 = arith.divsi %2, %c128_i32 : i32
    %4 = arith.muli %3, %1 : i32
    %5 = blk.program_id 0 : i32
    scf.for %arg8 = %5 to %4 step %c4_i32  : i32 {
      %6 = arith.divsi %arg8, %1 : i32
      %7 = arith.muli %6, %c128_i32 : i32
      %8 = arith.remsi %arg8, %1 : i32
      %9 = arith.muli %8, %c64_i32 : i32
      %10 = blk.splat %cst : f32 -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      %11 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %10) -> (tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>)  : i32 {
        %35 = blk.descriptor_load %arg6[%7, %arg9] : !blk.tensordesc<[128, 64], f16> -> tensor<128x64xf16, #blocked>
        %36 = blk.descriptor_load %arg7[%arg9, %9] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked>
        %37 = blk.convert_layout %35 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
        %38 = blk.convert_layout %36 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
        %39 = blk.dot %37, %38, %arg10 {mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>} : tensor<128x64xf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
        scf.yield %39 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>>
      } {blk.warp_specialize}
      %12 = blk.arange 0, 128 : tensor<128xi32, #slice>
      %13 = blk.splat %7 : i32 -> tensor<128xi32, #slice>
      %14 = arith.addi %13, %12 : tensor<128xi32, #slice>
      %15 = blk.arange 0, 64 : tensor<64xi32, #slice1>
      %16 = blk.splat %9 : i32 -> tensor<64xi32, #slice1>
      %17 = arith.addi %16, %15 : tensor<64xi32, #slice1>
      %18 = blk.expand_dims %14 {axis = 1 : i32} : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
      %19 = blk.splat %arg4 : i32 -> tensor<128x1xi32, #blocked>
      %20 = arith.muli %18, %19 : tensor<128x1xi32, #blocked>
      %21 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>, #blocked>
      %22 = blk.addptr %21, %20 : tensor<128x1x!blk.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
      %23 = blk.expand_dims %17 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked>
      %24 = blk.broadcast %22 : tensor<128x1x!blk.ptr<f32>, #blocked> -> tensor<128x64x!blk.ptr<f32>, #blocked>
      %25 = blk.broadcast %23 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
      %26 = blk.addptr %24, %25 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
      %27 = blk.splat %arg3 : i32 -> tensor<128x1xi32, #blocked>
      %28 = arith.cmpi slt, %18, %27 : tensor<128x1xi32, #blocked>
      %29 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blocked>
      %30 = arith.cmpi slt, %23, %29 : tensor<1x64xi32, #blocked>
      %31 = blk.broadcast %28 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
      %32 = blk.broadcast %30 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
      %33 = arith.andi %31, %32 : tensor<128x64xi1, #blocked>
      %34 = blk.convert_layout %11 : tensor<128x64xf32, #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>> -> tensor<128x64xf32, #blocked>
      blk.store %26, %34, %33 {vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xf32, #blocked>, tensor<128x64xi1, #blocked>) -> ()
    }
    return
  }
}

