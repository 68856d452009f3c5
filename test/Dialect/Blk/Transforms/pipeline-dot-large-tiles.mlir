// RUN: blk-opt %s --blk-pipeline-dot=num-stages=3 | FileCheck %s
// RUN: blk-opt %s --blk-pipeline-dot=num-stages=1 | FileCheck %s --check-prefix=ONE

// A loop without dots whose [128, 64] f32 tile would take 128 registers per
// thread two iterations ahead: the tile goes through a ring of three slots
// (arranged for its threads, lines one after another: neither the copies
// nor the reads, in one layout, meet in banks), copied two iterations ahead in front of the loop and, in the loop, right
// after the barrier that ends every thread's reads of the slot refilled;
// read back in the load's layout where the load was, `other` (-inf) put
// where the mask is off (cp.async wrote zeros there).
// CHECK-LABEL: func.func @column_maxes
// CHECK: %[[RING:.+]] = blk.local_alloc : <[3, 128, 64], f32, contig = 1, xor = []>
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[RING]][%c0_i32{{.*}}] {vec = 4 : i32}
// CHECK-NEXT: blk.async_commit_group
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[RING]][%c1_i32] {vec = 4 : i32}
// CHECK-NEXT: blk.async_commit_group
// CHECK: scf.for
// CHECK: %[[SLOT:.+]] = arith.remui %{{.+}}, %c3_i32
// CHECK: blk.async_wait {pending = 1 : i32}
// CHECK-NEXT: blk.barrier
// CHECK-NOT: blk.reduce
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[RING]]
// CHECK-NEXT: blk.async_commit_group
// CHECK-NOT: blk.load
// CHECK: %[[TILE:.+]] = blk.local_load %[[RING]][%[[SLOT]]] : <[3, 128, 64], f32, contig = 1, xor = []> -> tensor<128x64xf32, #blocked>
// CHECK-NEXT: %[[X:.+]] = arith.select %{{.+}}, %[[TILE]], %{{.+}}
// CHECK-NEXT: blk.reduce %[[X]]
// CHECK: scf.yield
// CHECK: blk.async_wait {pending = 0 : i32}
// CHECK-NEXT: blk.barrier
// One stage: nothing goes ahead.
// ONE-LABEL: func.func @column_maxes
// ONE-NOT: blk.local_alloc
// ONE: blk.load

// A loop that stores: no load goes ahead of its iteration.
// CHECK-LABEL: func.func @scaled_copy
// CHECK-NOT: blk.local_alloc
// CHECK: scf.for
// CHECK: blk.load
// CHECK: blk.store

// A [32, 32] tile takes 8 registers per thread for each iteration ahead:
// blk-pipeline-loads carries it in registers, this pass leaves it alone.
// CHECK-LABEL: func.func @small_column_maxes
// CHECK-NOT: blk.local_alloc
// CHECK: scf.for
// CHECK: blk.load
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 0, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked>
#slice2 = #blk.slice<dim = 1, parent = #blocked1>
#slice3 = #blk.slice<dim = 0, parent = #blocked1>
module attributes {blk.num_warps = 4 : i32} {
  func.func @column_maxes(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {C = 64 : i64, R = 128 : i64}, blk.kernel} {
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0xFF800000 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %3 = blk.splat %1 : i32 -> tensor<64xi32, #slice>
    %4 = arith.addi %3, %2 : tensor<64xi32, #slice>
    %5 = blk.splat %cst : f32 -> tensor<64xf32, #slice>
    %6 = scf.for %arg3 = %c0_i32 to %arg2 step %c128_i32 iter_args(%arg4 = %5) -> (tensor<64xf32, #slice>)  : i32 {
      %9 = blk.arange 0, 128 : tensor<128xi32, #slice1>
      %10 = blk.splat %arg3 : i32 -> tensor<128xi32, #slice1>
      %11 = arith.addi %10, %9 : tensor<128xi32, #slice1>
      %12 = blk.expand_dims %11 {axis = 1 : i32} : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked>
      %13 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32, #blocked>
      %14 = arith.muli %12, %13 : tensor<128x1xi32, #blocked>
      %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>, #blocked>
      %16 = blk.addptr %15, %14 : tensor<128x1x!blk.ptr<f32>, #blocked>, tensor<128x1xi32, #blocked>
      %17 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
      %18 = blk.broadcast %16 : tensor<128x1x!blk.ptr<f32>, #blocked> -> tensor<128x64x!blk.ptr<f32>, #blocked>
      %19 = blk.broadcast %17 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
      %20 = blk.addptr %18, %19 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
      %21 = blk.splat %arg2 : i32 -> tensor<128x1xi32, #blocked>
      %22 = arith.cmpi slt, %12, %21 : tensor<128x1xi32, #blocked>
      %23 = blk.broadcast %22 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
      %24 = blk.splat %cst : f32 -> tensor<128x64xf32, #blocked>
      %25 = blk.load %20, %23, %24 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
      %26 = blk.reduce %25 {axis = 0 : i32} : (tensor<128x64xf32, #blocked>) -> tensor<64xf32, #slice> {
      ^bb0(%arg5: f32, %arg6: f32):
        %28 = arith.maxnumf %arg5, %arg6 : f32
        blk.reduce.return %28 : f32
      }
      %27 = arith.maxnumf %arg4, %26 : tensor<64xf32, #slice>
      scf.yield %27 : tensor<64xf32, #slice>
    }
    %7 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #slice>
    %8 = blk.addptr %7, %4 : tensor<64x!blk.ptr<f32>, #slice>, tensor<64xi32, #slice>
    blk.store %8, %6 {vec = 4 : i32} : (tensor<64x!blk.ptr<f32>, #slice>, tensor<64xf32, #slice>) -> ()
    return
  }
  func.func @scaled_copy(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {C = 64 : i64, R = 128 : i64}, blk.kernel} {
    %cst = arith.constant 2.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c128_i32 = arith.constant 128 : i32
    %c0_i32 = arith.constant 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %3 = blk.splat %1 : i32 -> tensor<64xi32, #slice>
    %4 = arith.addi %3, %2 : tensor<64xi32, #slice>
    scf.for %arg3 = %c0_i32 to %arg2 step %c128_i32  : i32 {
      %5 = blk.arange 0, 128 : tensor<128xi32, #slice1>
      %6 = blk.splat %arg3 : i32 -> tensor<128xi32, #slice1>
      %7 = arith.addi %6, %5 : tensor<128xi32, #slice1>
      %8 = blk.expand_dims %7 {axis = 1 : i32} : tensor<128xi32, #slice1> -> tensor<128x1xi32, #blocked>
      %9 = blk.splat %c64_i32 : i32 -> tensor<128x1xi32, #blocked>
      %10 = arith.muli %8, %9 : tensor<128x1xi32, #blocked>
      %11 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
      %12 = blk.broadcast %10 : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
      %13 = blk.broadcast %11 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
      %14 = arith.addi %12, %13 : tensor<128x64xi32, #blocked>
      %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x64x!blk.ptr<f32>, #blocked>
      %16 = blk.addptr %15, %14 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
      %17 = blk.splat %arg2 : i32 -> tensor<128x1xi32, #blocked>
      %18 = arith.cmpi slt, %8, %17 : tensor<128x1xi32, #blocked>
      %19 = blk.broadcast %18 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
      %20 = blk.splat %cst_0 : f32 -> tensor<128x64xf32, #blocked>
      %21 = blk.load %16, %19, %20 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf32, #blocked>) -> tensor<128x64xf32, #blocked>
      %22 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<128x64x!blk.ptr<f32>, #blocked>
      %23 = blk.addptr %22, %14 : tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xi32, #blocked>
      %24 = blk.splat %cst : f32 -> tensor<128x64xf32, #blocked>
      %25 = arith.mulf %21, %24 : tensor<128x64xf32, #blocked>
      blk.store %23, %25, %19 {vec = 4 : i32} : (tensor<128x64x!blk.ptr<f32>, #blocked>, tensor<128x64xf32, #blocked>, tensor<128x64xi1, #blocked>) -> ()
    }
    return
  }
  func.func @small_column_maxes(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32) attributes {blk.constants = {C = 32 : i64, R = 32 : i64}, blk.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0xFF800000 : f32
    %c32_i32 = arith.constant 32 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c32_i32 : i32
    %2 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %3 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %4 = blk.splat %1 : i32 -> tensor<32xi32, #slice3>
    %5 = arith.addi %4, %3 : tensor<32xi32, #slice3>
    %6 = blk.splat %cst : f32 -> tensor<32xf32, #slice3>
    %7 = scf.for %arg3 = %c0_i32 to %arg2 step %c32_i32 iter_args(%arg4 = %6) -> (tensor<32xf32, #slice3>)  : i32 {
      %10 = blk.splat %arg3 : i32 -> tensor<32xi32, #slice2>
      %11 = arith.addi %10, %2 : tensor<32xi32, #slice2>
      %12 = blk.expand_dims %11 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked1>
      %13 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32, #blocked1>
      %14 = arith.muli %12, %13 : tensor<32x1xi32, #blocked1>
      %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>, #blocked1>
      %16 = blk.addptr %15, %14 : tensor<32x1x!blk.ptr<f32>, #blocked1>, tensor<32x1xi32, #blocked1>
      %17 = blk.expand_dims %5 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked1>
      %18 = blk.broadcast %16 : tensor<32x1x!blk.ptr<f32>, #blocked1> -> tensor<32x32x!blk.ptr<f32>, #blocked1>
      %19 = blk.broadcast %17 : tensor<1x32xi32, #blocked1> -> tensor<32x32xi32, #blocked1>
      %20 = blk.addptr %18, %19 : tensor<32x32x!blk.ptr<f32>, #blocked1>, tensor<32x32xi32, #blocked1>
      %21 = blk.splat %arg2 : i32 -> tensor<32x1xi32, #blocked1>
      %22 = arith.cmpi slt, %12, %21 : tensor<32x1xi32, #blocked1>
      %23 = blk.broadcast %22 : tensor<32x1xi1, #blocked1> -> tensor<32x32xi1, #blocked1>
      %24 = blk.splat %cst : f32 -> tensor<32x32xf32, #blocked1>
      %25 = blk.load %20, %23, %24 {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 4 : i32} : (tensor<32x32x!blk.ptr<f32>, #blocked1>, tensor<32x32xi1, #blocked1>, tensor<32x32xf32, #blocked1>) -> tensor<32x32xf32, #blocked1>
      %26 = blk.reduce %25 {axis = 0 : i32} : (tensor<32x32xf32, #blocked1>) -> tensor<32xf32, #slice3> {
      ^bb0(%arg5: f32, %arg6: f32):
        %28 = arith.maxnumf %arg5, %arg6 : f32
        blk.reduce.return %28 : f32
      }
      %27 = arith.maxnumf %arg4, %26 : tensor<32xf32, #slice3>
      scf.yield %27 : tensor<32xf32, #slice3>
    }
    %8 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>, #slice3>
    %9 = blk.addptr %8, %5 : tensor<32x!blk.ptr<f32>, #slice3>, tensor<32xi32, #slice3>
    blk.store %9, %7 {vec = 4 : i32} : (tensor<32x!blk.ptr<f32>, #slice3>, tensor<32xf32, #slice3>) -> ()
    return
  }
}

