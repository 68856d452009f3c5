// RUN: blk-opt %s --blk-pipeline-dot=num-stages=3 | FileCheck %s

// A wgmma B computed in registers each iteration (int8 weights scaled per
// column, then rounded to bf16) is written into one of three slots (n % 3),
// fenced for the async proxy and published by a barrier, then read by the
// wgmma from there; A, a load that cp.async cannot copy (no alignment
// known), stays in registers. The barrier at the top of each iteration
// keeps a slot from being rewritten while a warpgroup's wgmma of three
// iterations before may still read it. wgmma reads register A
// asynchronously and the next iteration loads A again before any complete
// wait: the dot is complete by the end of its iteration.
// CHECK-LABEL: func.func @dequant
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 32, 64], bf16, contig = 1>
// CHECK: scf.for
// CHECK: %[[N:.+]] = arith.divsi
// CHECK: %[[THREE:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[SLOT:.+]] = arith.remui %[[N]], %[[THREE]] : i32
// CHECK-NEXT: blk.barrier
// CHECK: %[[W:.+]] = arith.truncf %{{.+}} : tensor<32x64xf32, #{{.+}}> to tensor<32x64xbf16
// CHECK: blk.local_store %[[W]], %[[B]][%[[SLOT]]]
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: %[[D:.+]] = blk.warp_group_dot %{{.+}}, %[[B]][%[[SLOT]]], %{{.+}} : tensor<64x32xbf16, #blk.dot_op
// CHECK-NOT: pending = 1
// CHECK: blk.warp_group_dot_wait %[[D]] {pending = 0 : i32}
// CHECK-NOT: blk.dot
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice2 = #blk.slice<dim = 1, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @dequant(%arg0: !blk.ptr<bf16>, %arg1: !blk.ptr<i8>, %arg2: !blk.ptr<f32>, %arg3: !blk.ptr<f32>, %arg4: i32) attributes {blk.constants = {}, blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %6 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #slice3>
    %7 = blk.addptr %6, %3 : tensor<64x!blk.ptr<f32>, #slice3>, tensor<64xi32, #slice3>
    %8 = blk.load %7 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x!blk.ptr<f32>, #slice3>) -> tensor<64xf32, #slice3>
    %9 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %10 = blk.splat %c0_i32 : i32 -> tensor<32xi32, #slice2>
    %11 = arith.addi %10, %4 : tensor<32xi32, #slice2>
    %12 = blk.expand_dims %11 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %13 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32, #blocked>
    %14 = arith.muli %12, %13 : tensor<32x1xi32, #blocked>
    %15 = blk.splat %arg1 : !blk.ptr<i8> -> tensor<32x1x!blk.ptr<i8>, #blocked>
    %16 = blk.addptr %15, %14 : tensor<32x1x!blk.ptr<i8>, #blocked>, tensor<32x1xi32, #blocked>
    %17 = blk.expand_dims %0 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %18 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
    %19 = blk.broadcast %16 : tensor<32x1x!blk.ptr<i8>, #blocked> -> tensor<32x64x!blk.ptr<i8>, #blocked>
    %20 = blk.broadcast %18 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %21 = blk.addptr %19, %20 : tensor<32x64x!blk.ptr<i8>, #blocked>, tensor<32x64xi32, #blocked>
    %22 = arith.cmpi sgt, %arg4, %c0_i32 : i32
    %23 = blk.splat %22 : i1 -> tensor<32x64xi1, #blocked>
    %24 = blk.load %21, %23 {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!blk.ptr<i8>, #blocked>, tensor<32x64xi1, #blocked>) -> tensor<32x64xi8, #blocked>
    %25 = blk.splat %c32_i32 : i32 -> tensor<32xi32, #slice2>
    %26 = arith.addi %25, %4 : tensor<32xi32, #slice2>
    %27 = blk.expand_dims %26 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %28 = arith.muli %27, %13 : tensor<32x1xi32, #blocked>
    %29 = blk.addptr %15, %28 : tensor<32x1x!blk.ptr<i8>, #blocked>, tensor<32x1xi32, #blocked>
    %30 = blk.broadcast %29 : tensor<32x1x!blk.ptr<i8>, #blocked> -> tensor<32x64x!blk.ptr<i8>, #blocked>
    %31 = blk.addptr %30, %20 : tensor<32x64x!blk.ptr<i8>, #blocked>, tensor<32x64xi32, #blocked>
    %32 = arith.cmpi sgt, %arg4, %c32_i32 : i32
    %33 = blk.splat %32 : i1 -> tensor<32x64xi1, #blocked>
    %34 = blk.load %31, %33 {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!blk.ptr<i8>, #blocked>, tensor<32x64xi1, #blocked>) -> tensor<32x64xi8, #blocked>
    %35:3 = scf.for %arg5 = %c0_i32 to %arg4 step %c32_i32 iter_args(%arg6 = %9, %arg7 = %24, %arg8 = %34) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<32x64xi8, #blocked>, tensor<32x64xi8, #blocked>)  : i32 {
      %44 = arith.addi %arg5, %c64_i32 : i32
      %45 = blk.splat %44 : i32 -> tensor<32xi32, #slice2>
      %46 = arith.addi %45, %4 : tensor<32xi32, #slice2>
      %47 = blk.expand_dims %46 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
      %48 = arith.muli %47, %13 : tensor<32x1xi32, #blocked>
      %49 = blk.addptr %15, %48 : tensor<32x1x!blk.ptr<i8>, #blocked>, tensor<32x1xi32, #blocked>
      %50 = blk.broadcast %49 : tensor<32x1x!blk.ptr<i8>, #blocked> -> tensor<32x64x!blk.ptr<i8>, #blocked>
      %51 = blk.addptr %50, %20 : tensor<32x64x!blk.ptr<i8>, #blocked>, tensor<32x64xi32, #blocked>
      %52 = arith.cmpi slt, %44, %arg4 : i32
      %53 = arith.cmpi sgt, %44, %arg5 : i32
      %54 = arith.andi %52, %53 : i1
      %55 = blk.splat %54 : i1 -> tensor<32x64xi1, #blocked>
      %56 = blk.load %51, %55 {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<32x64x!blk.ptr<i8>, #blocked>, tensor<32x64xi1, #blocked>) -> tensor<32x64xi8, #blocked>
      %57 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
      %58 = blk.splat %arg4 : i32 -> tensor<64x1xi32, #blocked>
      %59 = arith.muli %57, %58 : tensor<64x1xi32, #blocked>
      %60 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %61 = blk.addptr %60, %59 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
      %62 = blk.splat %arg5 : i32 -> tensor<32xi32, #slice3>
      %63 = arith.addi %62, %5 : tensor<32xi32, #slice3>
      %64 = blk.expand_dims %63 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked>
      %65 = blk.broadcast %61 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
      %66 = blk.broadcast %64 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
      %67 = blk.addptr %65, %66 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %68 = blk.load %67 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %69 = arith.sitofp %arg7 : tensor<32x64xi8, #blocked> to tensor<32x64xf32, #blocked>
      %70 = blk.expand_dims %8 {axis = 0 : i32} : tensor<64xf32, #slice3> -> tensor<1x64xf32, #blocked>
      %71 = blk.broadcast %70 : tensor<1x64xf32, #blocked> -> tensor<32x64xf32, #blocked>
      %72 = arith.mulf %69, %71 : tensor<32x64xf32, #blocked>
      %73 = arith.truncf %72 : tensor<32x64xf32, #blocked> to tensor<32x64xbf16, #blocked>
      %74 = blk.convert_layout %68 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %75 = blk.convert_layout %73 : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %76 = blk.dot %74, %75, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      scf.yield %76, %arg8, %56 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<32x64xi8, #blocked>, tensor<32x64xi8, #blocked>
    }
    %36 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %37 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %38 = arith.muli %36, %37 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %39 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %40 = blk.addptr %39, %38 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %41 = blk.broadcast %40 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %42 = blk.broadcast %17 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %43 = blk.addptr %41, %42 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    blk.store %43, %35#0 : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> ()
    return
  }
}


