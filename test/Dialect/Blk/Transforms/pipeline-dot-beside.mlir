// RUN: blk-opt %s --split-input-file --blk-pipeline-dot=num-stages=3 | FileCheck %s
// RUN: blk-opt %s --split-input-file --blk-pipeline-dot=num-stages=1 | FileCheck %s --check-prefix=ONE

// A load beside a wgmma dot that is no operand (int8 weights dequantized in
// registers): its tile goes through a ring of its own, copied in the same
// groups as the operand's tiles (two ahead), and read back in its blocked
// layout where the load was; the loop carries no loaded block. One fence
// for the async proxy per iteration: the one after B is written, which
// follows the wait for the copies and precedes the wgmma. Three slots for
// the operand's ring, refilled after a barrier, and two for B: so two
// programs fit in an SM's shared memory where four and three would let one.
// The other load's ring, read into registers before the dot, takes two,
// arranged for its threads (`xor = []`: its copies and reads in one layout
// meet in no bank with lines one after another):
// tile n + 2 goes to tile n's slot, after the barrier that follows every
// thread's read of it.
// CHECK-LABEL: func.func @dequant
// CHECK: %[[X:.+]] = blk.local_alloc : <[3, 64, 64], bf16, contig = 1>
// CHECK-NEXT: %[[W:.+]] = blk.local_alloc : <[2, 64, 64], i8, contig = 1, xor = []>
// CHECK-NEXT: %[[B:.+]] = blk.local_alloc : <[2, 64, 64], bf16, contig = 1>
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[X]][%[[S0:.+]]] {vec = 8 : i32}
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[W]][%[[S0]]] {vec = 16 : i32}
// CHECK-NEXT: blk.async_commit_group
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[X]][%c1_i32]
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[W]][%c1_i32]
// CHECK-NEXT: blk.async_commit_group
// CHECK: scf.for {{.*}} iter_args(%{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}, %{{[a-z0-9]+}} = %{{[0-9]+}}) -> (tensor<64x64xf32, {{.*}}>, tensor<64x64x!blk.ptr<bf16>, {{.*}}>, tensor<64x64x!blk.ptr<i8>, {{.*}}>)
// CHECK: %[[SLOT:.+]] = arith.remui %[[N:.+]], %c3_i32
// CHECK: %[[WSLOT:.+]] = arith.remui %[[N]], %c2_i32
// CHECK: %[[WAHEAD:.+]] = arith.addi %[[N]], %c2_i32
// CHECK-NEXT: %[[WNEXT:.+]] = arith.remui %[[WAHEAD]], %c2_i32
// CHECK: blk.async_wait {pending = 1 : i32}
// CHECK-NEXT: blk.barrier
// CHECK-NOT: blk.load
// CHECK: %[[WQ:.+]] = blk.local_load %[[W]][%[[WSLOT]]] : <[2, 64, 64], i8, contig = 1, xor = []> -> tensor<64x64xi8, #blocked>
// CHECK-NEXT: arith.sitofp %[[WQ]]
// CHECK: blk.local_store %{{.+}}, %[[B]]
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.warp_group_dot %[[X]][%[[SLOT]]], %[[B]]
// CHECK: blk.warp_group_dot_wait %{{.+}} {pending = 1 : i32}
// CHECK-NEXT: blk.barrier
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[X]]
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[W]][%[[WNEXT]]]
// CHECK-NEXT: blk.async_commit_group
// CHECK-NOT: blk.load
// CHECK: scf.yield
// One stage: the operand still goes through a ring (one ahead), the other
// load stays a load.
// ONE-LABEL: func.func @dequant
// ONE-COUNT-2: blk.local_alloc
// ONE-NOT: blk.local_alloc
// ONE: scf.for
// ONE: blk.load %{{.+}} : (tensor<64x64x!blk.ptr<i8>
#blocked = #blk.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @dequant(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<i8> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {BLOCK_K = 64 : i64}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c0_i8 = arith.constant 0 : i8
    %cst = arith.constant 0.000000e+00 : bf16
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %4 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
    %5 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %6 = blk.splat %arg4 : i32 -> tensor<64x1xi32, #blocked>
    %7 = arith.muli %4, %6 : tensor<64x1xi32, #blocked>
    %8 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %9 = blk.addptr %8, %7 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
    %10 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #blocked>
    %11 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
    %12 = blk.broadcast %9 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x64x!blk.ptr<bf16>, #blocked>
    %13 = blk.broadcast %10 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %14 = blk.broadcast %11 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %15 = blk.addptr %12, %13 : tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64xi32, #blocked>
    %16 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
    %17 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %18 = arith.muli %4, %16 : tensor<64x1xi32, #blocked>
    %19 = arith.muli %5, %17 : tensor<64x1xi32, #blocked1>
    %20 = blk.splat %arg1 : !blk.ptr<i8> -> tensor<64x1x!blk.ptr<i8>, #blocked>
    %21 = blk.addptr %20, %18 : tensor<64x1x!blk.ptr<i8>, #blocked>, tensor<64x1xi32, #blocked>
    %22 = blk.broadcast %21 : tensor<64x1x!blk.ptr<i8>, #blocked> -> tensor<64x64x!blk.ptr<i8>, #blocked>
    %23 = blk.addptr %22, %13 : tensor<64x64x!blk.ptr<i8>, #blocked>, tensor<64x64xi32, #blocked>
    %24 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #slice2>
    %25 = blk.addptr %24, %2 : tensor<64x!blk.ptr<f32>, #slice2>, tensor<64xi32, #slice2>
    %26 = blk.load %25 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<64x!blk.ptr<f32>, #slice2>) -> tensor<64xf32, #slice2>
    %27 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %28:3 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %27, %arg7 = %15, %arg8 = %23) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64x!blk.ptr<i8>, #blocked>)  : i32 {
      %34 = arith.subi %arg4, %arg5 : i32
      %35 = blk.splat %34 : i32 -> tensor<1x64xi32, #blocked>
      %36 = arith.cmpi slt, %10, %35 : tensor<1x64xi32, #blocked>
      %37 = blk.broadcast %36 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %38 = blk.splat %cst : bf16 -> tensor<64x64xbf16, #blocked>
      %39 = blk.load %arg7, %37, %38 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xbf16, #blocked>) -> tensor<64x64xbf16, #blocked>
      %40 = blk.splat %34 : i32 -> tensor<64x1xi32, #blocked>
      %41 = arith.cmpi slt, %4, %40 : tensor<64x1xi32, #blocked>
      %42 = blk.broadcast %41 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %43 = blk.splat %c0_i8 : i8 -> tensor<64x64xi8, #blocked>
      %44 = blk.load %arg8, %42, %43 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 16 : i32} : (tensor<64x64x!blk.ptr<i8>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xi8, #blocked>) -> tensor<64x64xi8, #blocked>
      %45 = arith.sitofp %44 : tensor<64x64xi8, #blocked> to tensor<64x64xf32, #blocked>
      %46 = blk.expand_dims %26 {axis = 0 : i32} : tensor<64xf32, #slice2> -> tensor<1x64xf32, #blocked>
      %47 = blk.broadcast %46 : tensor<1x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
      %48 = arith.mulf %45, %47 : tensor<64x64xf32, #blocked>
      %49 = arith.truncf %48 : tensor<64x64xf32, #blocked> to tensor<64x64xbf16, #blocked>
      %50 = blk.convert_layout %39 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %51 = blk.convert_layout %49 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %52 = blk.dot %50, %51, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %53 = blk.splat %c64_i32 : i32 -> tensor<64x64xi32, #blocked>
      %54 = blk.addptr %arg7, %53 : tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64xi32, #blocked>
      %55 = blk.splat %c4096_i32 : i32 -> tensor<64x64xi32, #blocked>
      %56 = blk.addptr %arg8, %55 : tensor<64x64x!blk.ptr<i8>, #blocked>, tensor<64x64xi32, #blocked>
      scf.yield %52, %54, %56 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64x!blk.ptr<i8>, #blocked>
    }
    %29 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %30 = blk.addptr %29, %19 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %31 = blk.broadcast %30 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
    %32 = blk.addptr %31, %14 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %33 = blk.convert_layout %28#0 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blocked1>
    blk.store %32, %33 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xf32, #blocked1>) -> ()
    return
  }
}


// -----

// K^T's pages gathered through a block table read in the loop: the table
// load is part of the tile's pointer computation, issued for iteration
// n + 2 with the copy and masked off past the loop's bound (the table has
// no entry there); the body's own table load, no longer read, is gone.
// CHECK-LABEL: func.func @paged
// CHECK: %[[K:.+]] = blk.local_alloc : <[3, 64, 64], bf16, contig = 0>
// CHECK: %[[G0:.+]] = arith.cmpi slt, %c0_i32, %arg4 : i32
// CHECK: blk.load %{{.+}}, %[[G0]] {{.*}} : (!blk.ptr<i32>, i1) -> i32
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[K]][%c0_i32{{.*}}]
// CHECK: scf.for %[[J:[a-z0-9]+]] =
// CHECK-NOT: blk.load
// CHECK: blk.local_load %[[K]]
// CHECK: blk.dot
// CHECK: %[[NEXT:.+]] = arith.addi %[[J]], %c2_i32
// CHECK-NEXT: %[[IN:.+]] = arith.cmpi slt, %[[NEXT]], %arg4 : i32
// CHECK-NEXT: %[[NOWRAP:.+]] = arith.cmpi sgt, %[[NEXT]], %[[J]] : i32
// CHECK-NEXT: %[[G:.+]] = arith.andi %[[IN]], %[[NOWRAP]] : i1
// CHECK: blk.load %{{.+}}, %[[G]] {{.*}} : (!blk.ptr<i32>, i1) -> i32
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[K]]
// CHECK-NEXT: blk.async_commit_group
// CHECK-NEXT: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
#slice4 = #blk.slice<dim = 0, parent = #blocked2>
#slice5 = #blk.slice<dim = 1, parent = #blocked2>
module attributes {blk.num_warps = 4 : i32} {
  func.func @paged(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<i32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32) attributes {blk.constants = {}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 16 : tensor<16xi32, #slice>
    %1 = blk.arange 0, 16 : tensor<16xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32, #slice> -> tensor<16x1xi32, #blocked>
    %7 = blk.expand_dims %1 {axis = 1 : i32} : tensor<16xi32, #slice1> -> tensor<16x1xi32, #blocked1>
    %8 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32, #blocked>
    %9 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32, #blocked1>
    %10 = arith.muli %6, %8 : tensor<16x1xi32, #blocked>
    %11 = arith.muli %7, %9 : tensor<16x1xi32, #blocked1>
    %12 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<16x1x!blk.ptr<bf16>, #blocked>
    %13 = blk.addptr %12, %10 : tensor<16x1x!blk.ptr<bf16>, #blocked>, tensor<16x1xi32, #blocked>
    %14 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #blocked>
    %15 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
    %16 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked2>
    %17 = blk.broadcast %13 : tensor<16x1x!blk.ptr<bf16>, #blocked> -> tensor<16x64x!blk.ptr<bf16>, #blocked>
    %18 = blk.broadcast %14 : tensor<1x64xi32, #blocked> -> tensor<16x64xi32, #blocked>
    %19 = blk.broadcast %15 : tensor<1x64xi32, #blocked1> -> tensor<16x64xi32, #blocked1>
    %20 = blk.addptr %17, %18 : tensor<16x64x!blk.ptr<bf16>, #blocked>, tensor<16x64xi32, #blocked>
    %21 = blk.load %20 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<16x64x!blk.ptr<bf16>, #blocked>) -> tensor<16x64xbf16, #blocked>
    %22 = blk.splat %cst : f32 -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
    %23 = scf.for %arg5 = %c0_i32 to %arg4 step %c1_i32 iter_args(%arg6 = %22) -> (tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>)  : i32 {
      %29 = blk.addptr %arg2, %arg5 : !blk.ptr<i32>, i32
      %30 = blk.load %29 {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<i32>) -> i32
      %31 = arith.muli %30, %c4096_i32 : i32
      %32 = blk.addptr %arg1, %31 : !blk.ptr<bf16>, i32
      %33 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32, #blocked2>
      %34 = arith.muli %16, %33 : tensor<1x64xi32, #blocked2>
      %35 = blk.splat %32 : !blk.ptr<bf16> -> tensor<1x64x!blk.ptr<bf16>, #blocked2>
      %36 = blk.addptr %35, %34 : tensor<1x64x!blk.ptr<bf16>, #blocked2>, tensor<1x64xi32, #blocked2>
      %37 = blk.expand_dims %5 {axis = 1 : i32} : tensor<64xi32, #slice5> -> tensor<64x1xi32, #blocked2>
      %38 = blk.broadcast %36 : tensor<1x64x!blk.ptr<bf16>, #blocked2> -> tensor<64x64x!blk.ptr<bf16>, #blocked2>
      %39 = blk.broadcast %37 : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
      %40 = blk.addptr %38, %39 : tensor<64x64x!blk.ptr<bf16>, #blocked2>, tensor<64x64xi32, #blocked2>
      %41 = blk.load %40 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<bf16>, #blocked2>) -> tensor<64x64xbf16, #blocked2>
      %42 = blk.convert_layout %21 : tensor<16x64xbf16, #blocked> -> tensor<16x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>
      %43 = blk.convert_layout %41 : tensor<64x64xbf16, #blocked2> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>
      %44 = blk.dot %42, %43, %arg6 {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>} : tensor<16x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
      scf.yield %44 : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
    }
    %24 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>, #blocked1>
    %25 = blk.addptr %24, %11 : tensor<16x1x!blk.ptr<f32>, #blocked1>, tensor<16x1xi32, #blocked1>
    %26 = blk.broadcast %25 : tensor<16x1x!blk.ptr<f32>, #blocked1> -> tensor<16x64x!blk.ptr<f32>, #blocked1>
    %27 = blk.addptr %26, %19 : tensor<16x64x!blk.ptr<f32>, #blocked1>, tensor<16x64xi32, #blocked1>
    %28 = blk.convert_layout %23 : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> -> tensor<16x64xf32, #blocked1>
    blk.store %27, %28 {vec = 4 : i32} : (tensor<16x64x!blk.ptr<f32>, #blocked1>, tensor<16x64xf32, #blocked1>) -> ()
    return
  }
}


// -----

// K^T and V both addressed through the page table: the copies of one
// iteration read one index load between them.
// CHECK-LABEL: func.func @paged_kv
// CHECK: %[[K:.+]] = blk.local_alloc : <[3, 64, 64], bf16, contig = 0>
// CHECK-NEXT: %[[V:.+]] = blk.local_alloc : <[3, 64, 64], bf16, contig = 1>
// CHECK: scf.for
// CHECK-NOT: blk.load
// CHECK: blk.dot
// CHECK: blk.dot
// CHECK: blk.load %{{.+}}, %{{.+}} {{.*}} : (!blk.ptr<i32>, i1) -> i32
// CHECK-NOT: blk.load
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[K]]
// CHECK-NOT: blk.load
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[V]]
// CHECK-NEXT: blk.async_commit_group
// CHECK-NEXT: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
#slice4 = #blk.slice<dim = 0, parent = #blocked2>
#slice5 = #blk.slice<dim = 1, parent = #blocked2>
module attributes {blk.num_warps = 4 : i32} {
  func.func @paged_kv(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<i32> {blk.divisibility = 16 : i64}, %arg4: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg5: i32) attributes {blk.constants = {}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 16 : tensor<16xi32, #slice>
    %1 = blk.arange 0, 16 : tensor<16xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %6 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %7 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32, #slice> -> tensor<16x1xi32, #blocked>
    %8 = blk.expand_dims %1 {axis = 1 : i32} : tensor<16xi32, #slice1> -> tensor<16x1xi32, #blocked1>
    %9 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32, #blocked>
    %10 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32, #blocked1>
    %11 = arith.muli %7, %9 : tensor<16x1xi32, #blocked>
    %12 = arith.muli %8, %10 : tensor<16x1xi32, #blocked1>
    %13 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<16x1x!blk.ptr<bf16>, #blocked>
    %14 = blk.addptr %13, %11 : tensor<16x1x!blk.ptr<bf16>, #blocked>, tensor<16x1xi32, #blocked>
    %15 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #blocked>
    %16 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked1>
    %17 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked2>
    %18 = blk.broadcast %14 : tensor<16x1x!blk.ptr<bf16>, #blocked> -> tensor<16x64x!blk.ptr<bf16>, #blocked>
    %19 = blk.broadcast %15 : tensor<1x64xi32, #blocked> -> tensor<16x64xi32, #blocked>
    %20 = blk.broadcast %16 : tensor<1x64xi32, #blocked1> -> tensor<16x64xi32, #blocked1>
    %21 = blk.addptr %18, %19 : tensor<16x64x!blk.ptr<bf16>, #blocked>, tensor<16x64xi32, #blocked>
    %22 = blk.load %21 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<16x64x!blk.ptr<bf16>, #blocked>) -> tensor<16x64xbf16, #blocked>
    %23 = blk.splat %cst : f32 -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
    %24 = scf.for %arg6 = %c0_i32 to %arg5 step %c1_i32 iter_args(%arg7 = %23) -> (tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>)  : i32 {
      %30 = blk.addptr %arg3, %arg6 : !blk.ptr<i32>, i32
      %31 = blk.load %30 {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<i32>) -> i32
      %32 = arith.muli %31, %c4096_i32 : i32
      %33 = blk.addptr %arg1, %32 : !blk.ptr<bf16>, i32
      %34 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32, #blocked2>
      %35 = arith.muli %17, %34 : tensor<1x64xi32, #blocked2>
      %36 = blk.splat %33 : !blk.ptr<bf16> -> tensor<1x64x!blk.ptr<bf16>, #blocked2>
      %37 = blk.addptr %36, %35 : tensor<1x64x!blk.ptr<bf16>, #blocked2>, tensor<1x64xi32, #blocked2>
      %38 = blk.expand_dims %5 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %39 = blk.expand_dims %6 {axis = 1 : i32} : tensor<64xi32, #slice5> -> tensor<64x1xi32, #blocked2>
      %40 = blk.broadcast %37 : tensor<1x64x!blk.ptr<bf16>, #blocked2> -> tensor<64x64x!blk.ptr<bf16>, #blocked2>
      %41 = blk.broadcast %39 : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
      %42 = blk.addptr %40, %41 : tensor<64x64x!blk.ptr<bf16>, #blocked2>, tensor<64x64xi32, #blocked2>
      %43 = blk.load %42 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<bf16>, #blocked2>) -> tensor<64x64xbf16, #blocked2>
      %44 = blk.convert_layout %22 : tensor<16x64xbf16, #blocked> -> tensor<16x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>
      %45 = blk.convert_layout %43 : tensor<64x64xbf16, #blocked2> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>
      %46 = blk.dot %44, %45, %23 {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>} : tensor<16x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
      %47 = blk.addptr %arg2, %32 : !blk.ptr<bf16>, i32
      %48 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
      %49 = arith.muli %38, %48 : tensor<64x1xi32, #blocked>
      %50 = blk.splat %47 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %51 = blk.addptr %50, %49 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
      %52 = blk.broadcast %51 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x64x!blk.ptr<bf16>, #blocked>
      %53 = blk.broadcast %15 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %54 = blk.addptr %52, %53 : tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64xi32, #blocked>
      %55 = blk.load %54 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>, #blocked>) -> tensor<64x64xbf16, #blocked>
      %56 = arith.truncf %46 : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> to tensor<16x64xbf16, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
      %57 = blk.convert_layout %56 : tensor<16x64xbf16, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> -> tensor<16x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>
      %58 = blk.convert_layout %55 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>
      %59 = blk.dot %57, %58, %arg7 {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>} : tensor<16x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
      scf.yield %59 : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>>
    }
    %25 = blk.splat %arg4 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>, #blocked1>
    %26 = blk.addptr %25, %12 : tensor<16x1x!blk.ptr<f32>, #blocked1>, tensor<16x1xi32, #blocked1>
    %27 = blk.broadcast %26 : tensor<16x1x!blk.ptr<f32>, #blocked1> -> tensor<16x64x!blk.ptr<f32>, #blocked1>
    %28 = blk.addptr %27, %20 : tensor<16x64x!blk.ptr<f32>, #blocked1>, tensor<16x64xi32, #blocked1>
    %29 = blk.convert_layout %24 : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>> -> tensor<16x64xf32, #blocked1>
    blk.store %28, %29 {vec = 4 : i32} : (tensor<16x64x!blk.ptr<f32>, #blocked1>, tensor<16x64xf32, #blocked1>) -> ()
    return
  }
}

