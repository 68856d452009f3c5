// RUN: blk-opt %s --split-input-file --blk-pipeline-loads=num-stages=3 --canonicalize | FileCheck %s

// A 2-D load beside a tensor-core dot that cp.async can copy (16 bytes of
// int8 per access) is left to blk-pipeline-dot's rings: the loop carries
// no loaded block, the load stays in its iteration.
// CHECK-LABEL: func.func @dequant
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32>, tensor<64x64x!blk.ptr<bf16>>, tensor<64x64x!blk.ptr<i8>>)
// CHECK: blk.load %{{.+}} : (tensor<64x64x!blk.ptr<i8>>
// CHECK: scf.yield
module {
  func.func @dequant(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<i8> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {BLOCK_K = 64 : i64}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c0_i8 = arith.constant 0 : i8
    %cst = arith.constant 0.000000e+00 : bf16
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %4 = blk.splat %arg4 : i32 -> tensor<64x1xi32>
    %5 = arith.muli %3, %4 : tensor<64x1xi32>
    %6 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %7 = blk.addptr %6, %5 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi32>
    %8 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %9 = blk.broadcast %7 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
    %10 = blk.broadcast %8 : tensor<1x64xi32> -> tensor<64x64xi32>
    %11 = blk.addptr %9, %10 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
    %12 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = blk.splat %arg1 : !blk.ptr<i8> -> tensor<64x1x!blk.ptr<i8>>
    %16 = blk.addptr %15, %14 : tensor<64x1x!blk.ptr<i8>>, tensor<64x1xi32>
    %17 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %18 = blk.broadcast %16 : tensor<64x1x!blk.ptr<i8>> -> tensor<64x64x!blk.ptr<i8>>
    %19 = blk.broadcast %17 : tensor<1x64xi32> -> tensor<64x64xi32>
    %20 = blk.addptr %18, %19 : tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi32>
    %21 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
    %22 = blk.addptr %21, %1 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
    %23 = blk.load %22 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x!blk.ptr<f32>>) -> tensor<64xf32>
    %24 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
    %25:3 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %24, %arg7 = %11, %arg8 = %20) -> (tensor<64x64xf32>, tensor<64x64x!blk.ptr<bf16>>, tensor<64x64x!blk.ptr<i8>>)  : i32 {
      %35 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %36 = arith.subi %arg4, %arg5 : i32
      %37 = blk.splat %36 : i32 -> tensor<1x64xi32>
      %38 = arith.cmpi slt, %35, %37 : tensor<1x64xi32>
      %39 = blk.broadcast %38 : tensor<1x64xi1> -> tensor<64x64xi1>
      %40 = blk.splat %cst : bf16 -> tensor<64x64xbf16>
      %41 = blk.load %arg7, %39, %40 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi1>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
      %42 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %43 = arith.subi %arg4, %arg5 : i32
      %44 = blk.splat %43 : i32 -> tensor<64x1xi32>
      %45 = arith.cmpi slt, %42, %44 : tensor<64x1xi32>
      %46 = blk.broadcast %45 : tensor<64x1xi1> -> tensor<64x64xi1>
      %47 = blk.splat %c0_i8 : i8 -> tensor<64x64xi8>
      %48 = blk.load %arg8, %46, %47 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi1>, tensor<64x64xi8>) -> tensor<64x64xi8>
      %49 = arith.sitofp %48 : tensor<64x64xi8> to tensor<64x64xf32>
      %50 = blk.expand_dims %23 {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
      %51 = blk.broadcast %50 : tensor<1x64xf32> -> tensor<64x64xf32>
      %52 = arith.mulf %49, %51 : tensor<64x64xf32>
      %53 = arith.truncf %52 : tensor<64x64xf32> to tensor<64x64xbf16>
      %54 = blk.dot %41, %53, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %55 = blk.splat %c64_i32 : i32 -> tensor<64x64xi32>
      %56 = blk.addptr %arg7, %55 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
      %57 = blk.splat %c4096_i32 : i32 -> tensor<64x64xi32>
      %58 = blk.addptr %arg8, %57 : tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi32>
      scf.yield %54, %56, %58 : tensor<64x64xf32>, tensor<64x64x!blk.ptr<bf16>>, tensor<64x64x!blk.ptr<i8>>
    }
    %26 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %27 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %28 = arith.muli %26, %27 : tensor<64x1xi32>
    %29 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %30 = blk.addptr %29, %28 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %31 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %32 = blk.broadcast %30 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %33 = blk.broadcast %31 : tensor<1x64xi32> -> tensor<64x64xi32>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    blk.store %34, %25#0 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}


// -----

// The same load through a pointer not known to be aligned: one byte per
// access, which cp.async cannot copy, so the loop carries the tiles of the
// next two iterations in registers.
// CHECK-LABEL: func.func @unaligned
// CHECK-COUNT-2: blk.load %{{.+}} : (tensor<64x64x!blk.ptr<i8>>
// CHECK: scf.for {{.*}} -> (tensor<64x64xf32>, tensor<64x64x!blk.ptr<bf16>>, tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi8>, tensor<64x64xi8>)
module {
  func.func @unaligned(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<i8>, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {BLOCK_K = 64 : i64}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c0_i8 = arith.constant 0 : i8
    %cst = arith.constant 0.000000e+00 : bf16
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %4 = blk.splat %arg4 : i32 -> tensor<64x1xi32>
    %5 = arith.muli %3, %4 : tensor<64x1xi32>
    %6 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %7 = blk.addptr %6, %5 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi32>
    %8 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %9 = blk.broadcast %7 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
    %10 = blk.broadcast %8 : tensor<1x64xi32> -> tensor<64x64xi32>
    %11 = blk.addptr %9, %10 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
    %12 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %13 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %14 = arith.muli %12, %13 : tensor<64x1xi32>
    %15 = blk.splat %arg1 : !blk.ptr<i8> -> tensor<64x1x!blk.ptr<i8>>
    %16 = blk.addptr %15, %14 : tensor<64x1x!blk.ptr<i8>>, tensor<64x1xi32>
    %17 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %18 = blk.broadcast %16 : tensor<64x1x!blk.ptr<i8>> -> tensor<64x64x!blk.ptr<i8>>
    %19 = blk.broadcast %17 : tensor<1x64xi32> -> tensor<64x64xi32>
    %20 = blk.addptr %18, %19 : tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi32>
    %21 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
    %22 = blk.addptr %21, %1 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
    %23 = blk.load %22 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x!blk.ptr<f32>>) -> tensor<64xf32>
    %24 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
    %25:3 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %24, %arg7 = %11, %arg8 = %20) -> (tensor<64x64xf32>, tensor<64x64x!blk.ptr<bf16>>, tensor<64x64x!blk.ptr<i8>>)  : i32 {
      %35 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %36 = arith.subi %arg4, %arg5 : i32
      %37 = blk.splat %36 : i32 -> tensor<1x64xi32>
      %38 = arith.cmpi slt, %35, %37 : tensor<1x64xi32>
      %39 = blk.broadcast %38 : tensor<1x64xi1> -> tensor<64x64xi1>
      %40 = blk.splat %cst : bf16 -> tensor<64x64xbf16>
      %41 = blk.load %arg7, %39, %40 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi1>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
      %42 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %43 = arith.subi %arg4, %arg5 : i32
      %44 = blk.splat %43 : i32 -> tensor<64x1xi32>
      %45 = arith.cmpi slt, %42, %44 : tensor<64x1xi32>
      %46 = blk.broadcast %45 : tensor<64x1xi1> -> tensor<64x64xi1>
      %47 = blk.splat %c0_i8 : i8 -> tensor<64x64xi8>
      %48 = blk.load %arg8, %46, %47 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi1>, tensor<64x64xi8>) -> tensor<64x64xi8>
      %49 = arith.sitofp %48 : tensor<64x64xi8> to tensor<64x64xf32>
      %50 = blk.expand_dims %23 {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
      %51 = blk.broadcast %50 : tensor<1x64xf32> -> tensor<64x64xf32>
      %52 = arith.mulf %49, %51 : tensor<64x64xf32>
      %53 = arith.truncf %52 : tensor<64x64xf32> to tensor<64x64xbf16>
      %54 = blk.dot %41, %53, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %55 = blk.splat %c64_i32 : i32 -> tensor<64x64xi32>
      %56 = blk.addptr %arg7, %55 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
      %57 = blk.splat %c4096_i32 : i32 -> tensor<64x64xi32>
      %58 = blk.addptr %arg8, %57 : tensor<64x64x!blk.ptr<i8>>, tensor<64x64xi32>
      scf.yield %54, %56, %58 : tensor<64x64xf32>, tensor<64x64x!blk.ptr<bf16>>, tensor<64x64x!blk.ptr<i8>>
    }
    %26 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %27 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %28 = arith.muli %26, %27 : tensor<64x1xi32>
    %29 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %30 = blk.addptr %29, %28 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %31 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %32 = blk.broadcast %30 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %33 = blk.broadcast %31 : tensor<1x64xi32> -> tensor<64x64xi32>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    blk.store %34, %25#0 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}


// -----

// An index read through a table in the loop (a page number) that addresses
// a dot operand's tile: left for blk-pipeline-dot, which issues it ahead
// with the tile; the loop carries nothing but the accumulator.
// CHECK-LABEL: func.func @paged
// CHECK: scf.for {{.*}} iter_args(%{{[a-z0-9]+}} = %{{[0-9]+}}) -> (tensor<16x64xf32>)
// CHECK: blk.load %{{.+}} : (!blk.ptr<i32>) -> i32
module {
  func.func @paged(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<i32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32) attributes {blk.constants = {}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 16 : tensor<16xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %4 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32>
    %5 = arith.muli %3, %4 : tensor<16x1xi32>
    %6 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<16x1x!blk.ptr<bf16>>
    %7 = blk.addptr %6, %5 : tensor<16x1x!blk.ptr<bf16>>, tensor<16x1xi32>
    %8 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %9 = blk.broadcast %7 : tensor<16x1x!blk.ptr<bf16>> -> tensor<16x64x!blk.ptr<bf16>>
    %10 = blk.broadcast %8 : tensor<1x64xi32> -> tensor<16x64xi32>
    %11 = blk.addptr %9, %10 : tensor<16x64x!blk.ptr<bf16>>, tensor<16x64xi32>
    %12 = blk.load %11 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x64x!blk.ptr<bf16>>) -> tensor<16x64xbf16>
    %13 = blk.splat %cst : f32 -> tensor<16x64xf32>
    %14 = scf.for %arg5 = %c0_i32 to %arg4 step %c1_i32 iter_args(%arg6 = %13) -> (tensor<16x64xf32>)  : i32 {
      %24 = blk.addptr %arg2, %arg5 : !blk.ptr<i32>, i32
      %25 = blk.load %24 {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<i32>) -> i32
      %26 = arith.muli %25, %c4096_i32 : i32
      %27 = blk.addptr %arg1, %26 : !blk.ptr<bf16>, i32
      %28 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %29 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32>
      %30 = arith.muli %28, %29 : tensor<1x64xi32>
      %31 = blk.splat %27 : !blk.ptr<bf16> -> tensor<1x64x!blk.ptr<bf16>>
      %32 = blk.addptr %31, %30 : tensor<1x64x!blk.ptr<bf16>>, tensor<1x64xi32>
      %33 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %34 = blk.broadcast %32 : tensor<1x64x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
      %35 = blk.broadcast %33 : tensor<64x1xi32> -> tensor<64x64xi32>
      %36 = blk.addptr %34, %35 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
      %37 = blk.load %36 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
      %38 = blk.dot %12, %37, %arg6 {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>} : tensor<16x64xbf16>, tensor<64x64xbf16>, tensor<16x64xf32> -> tensor<16x64xf32>
      scf.yield %38 : tensor<16x64xf32>
    }
    %15 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %16 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32>
    %17 = arith.muli %15, %16 : tensor<16x1xi32>
    %18 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>>
    %19 = blk.addptr %18, %17 : tensor<16x1x!blk.ptr<f32>>, tensor<16x1xi32>
    %20 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %21 = blk.broadcast %19 : tensor<16x1x!blk.ptr<f32>> -> tensor<16x64x!blk.ptr<f32>>
    %22 = blk.broadcast %20 : tensor<1x64xi32> -> tensor<16x64xi32>
    %23 = blk.addptr %21, %22 : tensor<16x64x!blk.ptr<f32>>, tensor<16x64xi32>
    blk.store %23, %14 : (tensor<16x64x!blk.ptr<f32>>, tensor<16x64xf32>) -> ()
    return
  }
}


// -----

// The same with K's pointer not known to be aligned: its 2-byte accesses
// cannot be copied by cp.async, so the table load is carried ahead in
// registers as any other.
// CHECK-LABEL: func.func @paged_unaligned
// CHECK: scf.for {{.*}} -> (tensor<16x64xf32>, i32, i32)
module {
  func.func @paged_unaligned(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16>, %arg2: !blk.ptr<i32> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32) attributes {blk.constants = {}, blk.kernel} {
    %c4096_i32 = arith.constant 4096 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 16 : tensor<16xi32>
    %1 = blk.arange 0, 64 : tensor<64xi32>
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %4 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32>
    %5 = arith.muli %3, %4 : tensor<16x1xi32>
    %6 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<16x1x!blk.ptr<bf16>>
    %7 = blk.addptr %6, %5 : tensor<16x1x!blk.ptr<bf16>>, tensor<16x1xi32>
    %8 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %9 = blk.broadcast %7 : tensor<16x1x!blk.ptr<bf16>> -> tensor<16x64x!blk.ptr<bf16>>
    %10 = blk.broadcast %8 : tensor<1x64xi32> -> tensor<16x64xi32>
    %11 = blk.addptr %9, %10 : tensor<16x64x!blk.ptr<bf16>>, tensor<16x64xi32>
    %12 = blk.load %11 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x64x!blk.ptr<bf16>>) -> tensor<16x64xbf16>
    %13 = blk.splat %cst : f32 -> tensor<16x64xf32>
    %14 = scf.for %arg5 = %c0_i32 to %arg4 step %c1_i32 iter_args(%arg6 = %13) -> (tensor<16x64xf32>)  : i32 {
      %24 = blk.addptr %arg2, %arg5 : !blk.ptr<i32>, i32
      %25 = blk.load %24 {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<i32>) -> i32
      %26 = arith.muli %25, %c4096_i32 : i32
      %27 = blk.addptr %arg1, %26 : !blk.ptr<bf16>, i32
      %28 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %29 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32>
      %30 = arith.muli %28, %29 : tensor<1x64xi32>
      %31 = blk.splat %27 : !blk.ptr<bf16> -> tensor<1x64x!blk.ptr<bf16>>
      %32 = blk.addptr %31, %30 : tensor<1x64x!blk.ptr<bf16>>, tensor<1x64xi32>
      %33 = blk.expand_dims %2 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %34 = blk.broadcast %32 : tensor<1x64x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
      %35 = blk.broadcast %33 : tensor<64x1xi32> -> tensor<64x64xi32>
      %36 = blk.addptr %34, %35 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
      %37 = blk.load %36 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
      %38 = blk.dot %12, %37, %arg6 {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>} : tensor<16x64xbf16>, tensor<64x64xbf16>, tensor<16x64xf32> -> tensor<16x64xf32>
      scf.yield %38 : tensor<16x64xf32>
    }
    %15 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %16 = blk.splat %c64_i32 : i32 -> tensor<16x1xi32>
    %17 = arith.muli %15, %16 : tensor<16x1xi32>
    %18 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>>
    %19 = blk.addptr %18, %17 : tensor<16x1x!blk.ptr<f32>>, tensor<16x1xi32>
    %20 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %21 = blk.broadcast %19 : tensor<16x1x!blk.ptr<f32>> -> tensor<16x64x!blk.ptr<f32>>
    %22 = blk.broadcast %20 : tensor<1x64xi32> -> tensor<16x64xi32>
    %23 = blk.addptr %21, %22 : tensor<16x64x!blk.ptr<f32>>, tensor<16x64xi32>
    blk.store %23, %14 : (tensor<16x64x!blk.ptr<f32>>, tensor<16x64xf32>) -> ()
    return
  }
}

