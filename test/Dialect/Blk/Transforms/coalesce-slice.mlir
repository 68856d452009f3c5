// RUN: blk-opt %s --blk-coalesce | FileCheck %s

// A 1-D load in a slice of a tensor-core layout (a row statistic read along
// the accumulator's columns) keeps that layout: moving it to a blocked one
// would convert it back through shared memory every iteration. Its vector
// is the run each thread holds (2 columns).
// CHECK-DAG: #[[COLS:.+]] = #blk.slice<dim = 0, parent = #blk.mma<version = 3
// CHECK-LABEL: func.func @scaled_scores
// CHECK: scf.for
// CHECK: blk.load %{{[^ ]+}} {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 2 : i32} : (tensor<32x!blk.ptr<f32>, #[[COLS]]>) -> tensor<32xf32, #[[COLS]]>
// CHECK-NOT: blk.convert_layout {{.*}} tensor<32xf32
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @scaled_scores(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %3 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %4 = arith.muli %2, %3 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %5 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %6 = blk.addptr %5, %4 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %7 = blk.convert_layout %0 : tensor<64xi32, #slice> -> tensor<64xi32, #slice2>
    %8 = blk.expand_dims %7 {axis = 0 : i32} : tensor<64xi32, #slice2> -> tensor<1x64xi32, #blocked>
    %9 = blk.convert_layout %6 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.broadcast %9 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x64x!blk.ptr<bf16>, #blocked>
    %11 = blk.broadcast %8 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %12 = blk.addptr %10, %11 : tensor<64x64x!blk.ptr<bf16>, #blocked>, tensor<64x64xi32, #blocked>
    %13 = blk.load %12 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>, #blocked>) -> tensor<64x64xbf16, #blocked>
    %14 = blk.splat %cst : f32 -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %15 = blk.splat %cst : f32 -> tensor<32xf32, #slice1>
    %16 = blk.addptr %arg3, %c0_i32 : !blk.ptr<f32>, i32
    %17 = blk.splat %16 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>, #slice2>
    %18 = blk.addptr %17, %1 : tensor<32x!blk.ptr<f32>, #slice2>, tensor<32xi32, #slice2>
    %19 = arith.cmpi sgt, %arg5, %c0_i32 : i32
    %20 = blk.splat %19 : i1 -> tensor<32xi1, #blocked1>
    %21 = blk.convert_layout %18 : tensor<32x!blk.ptr<f32>, #slice2> -> tensor<32x!blk.ptr<f32>, #slice1>
    %22 = blk.convert_layout %20 : tensor<32xi1, #blocked1> -> tensor<32xi1, #slice1>
    %23 = blk.load %21, %22 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 4 : i32} : (tensor<32x!blk.ptr<f32>, #slice1>, tensor<32xi1, #slice1>) -> tensor<32xf32, #slice1>
    %24 = blk.addptr %arg3, %c32_i32 : !blk.ptr<f32>, i32
    %25 = blk.splat %24 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>, #slice2>
    %26 = blk.addptr %25, %1 : tensor<32x!blk.ptr<f32>, #slice2>, tensor<32xi32, #slice2>
    %27 = arith.cmpi sgt, %arg5, %c32_i32 : i32
    %28 = blk.splat %27 : i1 -> tensor<32xi1, #blocked1>
    %29 = blk.convert_layout %26 : tensor<32x!blk.ptr<f32>, #slice2> -> tensor<32x!blk.ptr<f32>, #slice1>
    %30 = blk.convert_layout %28 : tensor<32xi1, #blocked1> -> tensor<32xi1, #slice1>
    %31 = blk.load %29, %30 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 4 : i32} : (tensor<32x!blk.ptr<f32>, #slice1>, tensor<32xi1, #slice1>) -> tensor<32xf32, #slice1>
    %32:4 = scf.for %arg6 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg7 = %14, %arg8 = %15, %arg9 = %23, %arg10 = %31) -> (tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<32xf32, #slice1>, tensor<32xf32, #slice1>, tensor<32xf32, #slice1>)  : i32 {
      %45 = arith.addi %arg6, %c64_i32 : i32
      %46 = blk.addptr %arg3, %45 : !blk.ptr<f32>, i32
      %47 = blk.splat %46 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>, #slice2>
      %48 = blk.addptr %47, %1 : tensor<32x!blk.ptr<f32>, #slice2>, tensor<32xi32, #slice2>
      %49 = arith.cmpi slt, %45, %arg5 : i32
      %50 = arith.cmpi sgt, %45, %arg6 : i32
      %51 = arith.andi %49, %50 : i1
      %52 = blk.splat %51 : i1 -> tensor<32xi1, #blocked1>
      %53 = blk.convert_layout %48 : tensor<32x!blk.ptr<f32>, #slice2> -> tensor<32x!blk.ptr<f32>, #slice1>
      %54 = blk.convert_layout %52 : tensor<32xi1, #blocked1> -> tensor<32xi1, #slice1>
      %55 = blk.load %53, %54 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 4 : i32} : (tensor<32x!blk.ptr<f32>, #slice1>, tensor<32xi1, #slice1>) -> tensor<32xf32, #slice1>
      %56 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %57 = blk.addptr %56, %2 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %58 = blk.splat %arg6 : i32 -> tensor<32xi32, #slice2>
      %59 = arith.addi %58, %1 : tensor<32xi32, #slice2>
      %60 = blk.expand_dims %59 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
      %61 = blk.splat %c64_i32 : i32 -> tensor<1x32xi32, #blocked>
      %62 = arith.muli %60, %61 : tensor<1x32xi32, #blocked>
      %63 = blk.convert_layout %57 : tensor<64x1x!blk.ptr<bf16>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
      %64 = blk.broadcast %63 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
      %65 = blk.broadcast %62 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
      %66 = blk.addptr %64, %65 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %67 = blk.load %66 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked>) -> tensor<64x32xbf16, #blocked>
      %68 = blk.addptr %arg2, %arg6 : !blk.ptr<f32>, i32
      %69 = blk.splat %68 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>, #slice2>
      %70 = blk.addptr %69, %1 : tensor<32x!blk.ptr<f32>, #slice2>, tensor<32xi32, #slice2>
      %71 = blk.convert_layout %70 : tensor<32x!blk.ptr<f32>, #slice2> -> tensor<32x!blk.ptr<f32>, #slice1>
      %72 = blk.load %71 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x!blk.ptr<f32>, #slice1>) -> tensor<32xf32, #slice1>
      %73 = blk.convert_layout %13 : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %74 = blk.convert_layout %67 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>
      %75 = blk.dot %73, %74, %14 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>} : tensor<64x64xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>, kWidth = 2>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %76 = blk.expand_dims %72 {axis = 0 : i32} : tensor<32xf32, #slice1> -> tensor<1x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %77 = blk.broadcast %76 : tensor<1x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %78 = arith.subf %75, %77 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %79 = arith.addf %arg7, %78 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
      %80 = arith.addf %arg8, %arg9 : tensor<32xf32, #slice1>
      scf.yield %79, %80, %arg10, %55 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<32xf32, #slice1>, tensor<32xf32, #slice1>, tensor<32xf32, #slice1>
    }
    %33 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %34 = arith.muli %2, %33 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %35 = blk.splat %arg4 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %36 = blk.addptr %35, %34 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %37 = blk.convert_layout %1 : tensor<32xi32, #slice2> -> tensor<32xi32, #slice1>
    %38 = blk.expand_dims %37 {axis = 0 : i32} : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %39 = blk.broadcast %36 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %40 = blk.broadcast %38 : tensor<1x32xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %41 = blk.addptr %39, %40 : tensor<64x32x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x32xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %42 = blk.expand_dims %32#1 {axis = 0 : i32} : tensor<32xf32, #slice1> -> tensor<1x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %43 = blk.broadcast %42 : tensor<1x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>> -> tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    %44 = arith.addf %32#0, %43 : tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>
    blk.store %41, %44 {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>, tensor<64x32xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>>) -> ()
    return
  }
}


