// RUN: blk-opt %s --split-input-file --blk-loads-to-tensor-descriptors | FileCheck %s

// The tutorial form (kernels/matmul.blk's matmul): A's pointers
// A + rm[:, None] * sa + rk[None, :] advanced by 32 along K, B's
// B + rk[:, None] * sb + rn[None, :] advanced by 32 * sb, masked by
// rm < M, rk < K - k, rn < N: descriptors (A, [M, K], [sa, 1]) and
// (B, [K, N], [sb, 1]) read at [pid * 64, 0 + k] and [0 + k, 0].
// CHECK-LABEL: func.func @tutorial
// CHECK: %[[DA:.*]] = blk.make_tensor_descriptor %arg0, [%arg3, %arg5], [%arg6, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
// CHECK: %[[DB:.*]] = blk.make_tensor_descriptor %arg1, [%arg5, %arg4], [%arg7, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[32, 64], bf16>
// CHECK: scf.for %[[K:.*]] = %c0_i32
// CHECK: %[[KA:.*]] = arith.addi %{{.*}}, %[[K]] : i32
// CHECK: %[[A:.*]] = blk.descriptor_load %[[DA]][%1, %[[KA]]]
// CHECK: %[[KB:.*]] = arith.addi %{{.*}}, %[[K]] : i32
// CHECK: %[[B:.*]] = blk.descriptor_load %[[DB]][%[[KB]], %{{.*}}]
// CHECK-NOT: blk.load
// CHECK: blk.dot %[[A]], %[[B]]
  func.func @tutorial(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i64 {blk.divisibility = 16 : i64}, %arg7: i64 {blk.divisibility = 16 : i64}) attributes {blk.kernel} {
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : bf16
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = blk.arange 0, 32 : tensor<32xi32>
    %6 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %7 = arith.extsi %6 : tensor<64x1xi32> to tensor<64x1xi64>
    %8 = blk.splat %arg6 : i64 -> tensor<64x1xi64>
    %9 = arith.muli %7, %8 : tensor<64x1xi64>
    %10 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %11 = blk.addptr %10, %9 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %12 = blk.expand_dims %5 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %13 = blk.broadcast %11 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x32x!blk.ptr<bf16>>
    %14 = blk.broadcast %12 : tensor<1x32xi32> -> tensor<64x32xi32>
    %15 = blk.addptr %13, %14 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
    %16 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %17 = arith.extsi %16 : tensor<32x1xi32> to tensor<32x1xi64>
    %18 = blk.splat %arg7 : i64 -> tensor<32x1xi64>
    %19 = arith.muli %17, %18 : tensor<32x1xi64>
    %20 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>>
    %21 = blk.addptr %20, %19 : tensor<32x1x!blk.ptr<bf16>>, tensor<32x1xi64>
    %22 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %23 = blk.broadcast %21 : tensor<32x1x!blk.ptr<bf16>> -> tensor<32x64x!blk.ptr<bf16>>
    %24 = blk.broadcast %22 : tensor<1x64xi32> -> tensor<32x64xi32>
    %25 = blk.addptr %23, %24 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi32>
    %26 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
    %27:3 = scf.for %arg8 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg9 = %26, %arg10 = %15, %arg11 = %25) -> (tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>)  : i32 {
      %35 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
      %36 = arith.cmpi slt, %6, %35 : tensor<64x1xi32>
      %37 = arith.subi %arg5, %arg8 : i32
      %38 = blk.splat %37 : i32 -> tensor<1x32xi32>
      %39 = arith.cmpi slt, %12, %38 : tensor<1x32xi32>
      %40 = blk.broadcast %36 : tensor<64x1xi1> -> tensor<64x32xi1>
      %41 = blk.broadcast %39 : tensor<1x32xi1> -> tensor<64x32xi1>
      %42 = arith.andi %40, %41 : tensor<64x32xi1>
      %43 = blk.splat %cst : bf16 -> tensor<64x32xbf16>
      %44 = blk.load %arg10, %42, %43 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi1>, tensor<64x32xbf16>) -> tensor<64x32xbf16>
      %45 = blk.splat %37 : i32 -> tensor<32x1xi32>
      %46 = arith.cmpi slt, %16, %45 : tensor<32x1xi32>
      %47 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
      %48 = arith.cmpi slt, %22, %47 : tensor<1x64xi32>
      %49 = blk.broadcast %46 : tensor<32x1xi1> -> tensor<32x64xi1>
      %50 = blk.broadcast %48 : tensor<1x64xi1> -> tensor<32x64xi1>
      %51 = arith.andi %49, %50 : tensor<32x64xi1>
      %52 = blk.splat %cst : bf16 -> tensor<32x64xbf16>
      %53 = blk.load %arg11, %51, %52 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi1>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
      %54 = blk.dot %44, %53, %arg9 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %55 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32>
      %56 = blk.addptr %arg10, %55 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
      %57 = arith.muli %arg7, %c32_i64 : i64
      %58 = blk.splat %57 : i64 -> tensor<32x64xi64>
      %59 = blk.addptr %arg11, %58 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi64>
      scf.yield %54, %56, %59 : tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>
    }
    %28 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %29 = arith.muli %6, %28 : tensor<64x1xi32>
    %30 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %31 = blk.addptr %30, %29 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %32 = blk.broadcast %31 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %33 = blk.broadcast %22 : tensor<1x64xi32> -> tensor<64x64xi32>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    blk.store %34, %27#0 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }

// -----

// The same with A's row stride not known to span 16-byte multiples: TMA
// could refuse a launch the kernel accepts, so the loads stay.
// CHECK-LABEL: func.func @unaligned_stride
// CHECK-NOT: blk.make_tensor_descriptor
// CHECK: blk.load
// CHECK: blk.load
  func.func @unaligned_stride(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i64, %arg7: i64 {blk.divisibility = 16 : i64}) attributes {blk.kernel} {
    %c32_i64 = arith.constant 32 : i64
    %cst = arith.constant 0.000000e+00 : bf16
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.program_id 0 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = blk.arange 0, 32 : tensor<32xi32>
    %6 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %7 = arith.extsi %6 : tensor<64x1xi32> to tensor<64x1xi64>
    %8 = blk.splat %arg6 : i64 -> tensor<64x1xi64>
    %9 = arith.muli %7, %8 : tensor<64x1xi64>
    %10 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %11 = blk.addptr %10, %9 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %12 = blk.expand_dims %5 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %13 = blk.broadcast %11 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x32x!blk.ptr<bf16>>
    %14 = blk.broadcast %12 : tensor<1x32xi32> -> tensor<64x32xi32>
    %15 = blk.addptr %13, %14 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
    %16 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %17 = arith.extsi %16 : tensor<32x1xi32> to tensor<32x1xi64>
    %18 = blk.splat %arg7 : i64 -> tensor<32x1xi64>
    %19 = arith.muli %17, %18 : tensor<32x1xi64>
    %20 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>>
    %21 = blk.addptr %20, %19 : tensor<32x1x!blk.ptr<bf16>>, tensor<32x1xi64>
    %22 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %23 = blk.broadcast %21 : tensor<32x1x!blk.ptr<bf16>> -> tensor<32x64x!blk.ptr<bf16>>
    %24 = blk.broadcast %22 : tensor<1x64xi32> -> tensor<32x64xi32>
    %25 = blk.addptr %23, %24 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi32>
    %26 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
    %27:3 = scf.for %arg8 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg9 = %26, %arg10 = %15, %arg11 = %25) -> (tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>)  : i32 {
      %35 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
      %36 = arith.cmpi slt, %6, %35 : tensor<64x1xi32>
      %37 = arith.subi %arg5, %arg8 : i32
      %38 = blk.splat %37 : i32 -> tensor<1x32xi32>
      %39 = arith.cmpi slt, %12, %38 : tensor<1x32xi32>
      %40 = blk.broadcast %36 : tensor<64x1xi1> -> tensor<64x32xi1>
      %41 = blk.broadcast %39 : tensor<1x32xi1> -> tensor<64x32xi1>
      %42 = arith.andi %40, %41 : tensor<64x32xi1>
      %43 = blk.splat %cst : bf16 -> tensor<64x32xbf16>
      %44 = blk.load %arg10, %42, %43 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi1>, tensor<64x32xbf16>) -> tensor<64x32xbf16>
      %45 = blk.splat %37 : i32 -> tensor<32x1xi32>
      %46 = arith.cmpi slt, %16, %45 : tensor<32x1xi32>
      %47 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
      %48 = arith.cmpi slt, %22, %47 : tensor<1x64xi32>
      %49 = blk.broadcast %46 : tensor<32x1xi1> -> tensor<32x64xi1>
      %50 = blk.broadcast %48 : tensor<1x64xi1> -> tensor<32x64xi1>
      %51 = arith.andi %49, %50 : tensor<32x64xi1>
      %52 = blk.splat %cst : bf16 -> tensor<32x64xbf16>
      %53 = blk.load %arg11, %51, %52 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi1>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
      %54 = blk.dot %44, %53, %arg9 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %55 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32>
      %56 = blk.addptr %arg10, %55 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
      %57 = arith.muli %arg7, %c32_i64 : i64
      %58 = blk.splat %57 : i64 -> tensor<32x64xi64>
      %59 = blk.addptr %arg11, %58 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi64>
      scf.yield %54, %56, %59 : tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>
    }
    %28 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %29 = arith.muli %6, %28 : tensor<64x1xi32>
    %30 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %31 = blk.addptr %30, %29 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %32 = blk.broadcast %31 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %33 = blk.broadcast %22 : tensor<1x64xi32> -> tensor<64x64xi32>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    blk.store %34, %27#0 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }

// -----

// X @ W^T with W's tile transposed through its strides (W + rk[:, None] +
// rn[None, :] * sw, contiguous down its columns): the descriptor is over W
// as it lies in memory, (W, [N, K], [sw, 1]) with [64, 32] boxes read at
// [0, 0 + k], and `trans` gives the dot its [32, 64] operand.
// CHECK-LABEL: func.func @x_wt
// CHECK: %[[DX:.*]] = blk.make_tensor_descriptor %arg0, [%arg3, %arg5], [%arg6, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
// CHECK: %[[DW:.*]] = blk.make_tensor_descriptor %arg1, [%arg4, %arg5], [%arg7, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
// CHECK: scf.for %[[K:.*]] = %c0_i32
// CHECK: %[[X:.*]] = blk.descriptor_load %[[DX]][%{{.*}}, %{{.*}}] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
// CHECK: %[[KW:.*]] = arith.addi %{{.*}}, %[[K]] : i32
// CHECK: %[[W:.*]] = blk.descriptor_load %[[DW]][%{{.*}}, %[[KW]]] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
// CHECK-NEXT: %[[WT:.*]] = blk.trans %[[W]] : tensor<64x32xbf16> -> tensor<32x64xbf16>
// CHECK-NEXT: blk.dot %[[X]], %[[WT]]
module {
  func.func @x_wt(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}, %arg6: i64 {blk.divisibility = 16 : i64}, %arg7: i64 {blk.divisibility = 16 : i64}, %arg8: i64 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.program_id 0 : i32
    %c64_i32 = arith.constant 64 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = blk.arange 0, 64 : tensor<64xi32>
    %3 = blk.splat %1 : i32 -> tensor<64xi32>
    %4 = arith.addi %3, %2 : tensor<64xi32>
    %5 = blk.arange 0, 64 : tensor<64xi32>
    %6 = blk.arange 0, 32 : tensor<32xi32>
    %7 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %8 = arith.extsi %7 : tensor<64x1xi32> to tensor<64x1xi64>
    %9 = blk.splat %arg6 : i64 -> tensor<64x1xi64>
    %10 = arith.muli %8, %9 : tensor<64x1xi64>
    %11 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %12 = blk.addptr %11, %10 : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %13 = blk.expand_dims %6 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %14 = blk.broadcast %12 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x32x!blk.ptr<bf16>>
    %15 = blk.broadcast %13 : tensor<1x32xi32> -> tensor<64x32xi32>
    %16 = blk.addptr %14, %15 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
    %17 = blk.expand_dims %6 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>>, tensor<32x1xi32>
    %20 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %21 = arith.extsi %20 : tensor<1x64xi32> to tensor<1x64xi64>
    %22 = blk.splat %arg7 : i64 -> tensor<1x64xi64>
    %23 = arith.muli %21, %22 : tensor<1x64xi64>
    %24 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>> -> tensor<32x64x!blk.ptr<bf16>>
    %25 = blk.broadcast %23 : tensor<1x64xi64> -> tensor<32x64xi64>
    %26 = blk.addptr %24, %25 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi64>
    %cst = arith.constant 0.000000e+00 : f32
    %27 = blk.splat %cst : f32 -> tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %28:3 = scf.for %arg9 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg10 = %27, %arg11 = %16, %arg12 = %26) -> (tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>)  : i32 {
      %48 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %49 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
      %50 = arith.cmpi slt, %48, %49 : tensor<64x1xi32>
      %51 = blk.expand_dims %6 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %52 = arith.subi %arg5, %arg9 : i32
      %53 = blk.splat %52 : i32 -> tensor<1x32xi32>
      %54 = arith.cmpi slt, %51, %53 : tensor<1x32xi32>
      %55 = blk.broadcast %50 : tensor<64x1xi1> -> tensor<64x32xi1>
      %56 = blk.broadcast %54 : tensor<1x32xi1> -> tensor<64x32xi1>
      %57 = arith.andi %55, %56 : tensor<64x32xi1>
      %cst_0 = arith.constant 0.000000e+00 : bf16
      %58 = blk.splat %cst_0 : bf16 -> tensor<64x32xbf16>
      %59 = blk.load %arg11, %57, %58 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi1>, tensor<64x32xbf16>) -> tensor<64x32xbf16>
      %60 = blk.expand_dims %6 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %61 = arith.subi %arg5, %arg9 : i32
      %62 = blk.splat %61 : i32 -> tensor<32x1xi32>
      %63 = arith.cmpi slt, %60, %62 : tensor<32x1xi32>
      %64 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %65 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
      %66 = arith.cmpi slt, %64, %65 : tensor<1x64xi32>
      %67 = blk.broadcast %63 : tensor<32x1xi1> -> tensor<32x64xi1>
      %68 = blk.broadcast %66 : tensor<1x64xi1> -> tensor<32x64xi1>
      %69 = arith.andi %67, %68 : tensor<32x64xi1>
      %cst_1 = arith.constant 0.000000e+00 : bf16
      %70 = blk.splat %cst_1 : bf16 -> tensor<32x64xbf16>
      %71 = blk.load %arg12, %69, %70 {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi1>, tensor<32x64xbf16>) -> tensor<32x64xbf16>
      %72 = blk.dot %59, %71, %arg10 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %c32_i32_2 = arith.constant 32 : i32
      %73 = blk.splat %c32_i32_2 : i32 -> tensor<64x32xi32>
      %74 = blk.addptr %arg11, %73 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
      %c32_i32_3 = arith.constant 32 : i32
      %75 = blk.splat %c32_i32_3 : i32 -> tensor<32x64xi32>
      %76 = blk.addptr %arg12, %75 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi32>
      scf.yield %72, %74, %76 : tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>
    }
    %29 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %30 = arith.extsi %29 : tensor<64x1xi32> to tensor<64x1xi64>
    %31 = blk.splat %arg8 : i64 -> tensor<64x1xi64>
    %32 = arith.muli %30, %31 : tensor<64x1xi64>
    %33 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %34 = blk.addptr %33, %32 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi64>
    %35 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %36 = blk.broadcast %34 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %37 = blk.broadcast %35 : tensor<1x64xi32> -> tensor<64x64xi32>
    %38 = blk.addptr %36, %37 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    %39 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %40 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
    %41 = arith.cmpi slt, %39, %40 : tensor<64x1xi32>
    %42 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %43 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
    %44 = arith.cmpi slt, %42, %43 : tensor<1x64xi32>
    %45 = blk.broadcast %41 : tensor<64x1xi1> -> tensor<64x64xi1>
    %46 = blk.broadcast %44 : tensor<1x64xi1> -> tensor<64x64xi1>
    %47 = arith.andi %45, %46 : tensor<64x64xi1>
    blk.store %38, %28#0, %47 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
    return
  }
}

// -----

// Attention's K^T tile as attention_forward writes it: the pointers
// computed in the loop, k_base + cols[None, :].to(i64) * stride_kn +
// offs_d[:, None] with cols = start_n + arange(0, 64), masked by
// cols[None, :] < seq_k; k_base = K + b.to(i64) * stride_kb +
// kvh.to(i64) * stride_kh. The [128, 64] tile runs contiguously down its
// columns: the descriptor is over K as it lies, [b, kvh, seq_k, D] with
// strides [stride_kb, stride_kh, stride_kn, 1] and [1, 1, 64, 128] boxes,
// read at [b, kvh, start_n, 0] as 64x128 and transposed. The batch
// dimensions are unbounded (2147483647); D, not masked and starting at 0,
// is the block's 128. Q, loaded before the loop, stays as it is.
// CHECK-LABEL: func.func @attention_kt
// CHECK: %[[Q:.*]] = blk.load
// CHECK: %[[B:.*]] = arith.divsi %{{.*}}, %arg3 : i32
// CHECK: %[[H:.*]] = arith.remsi
// CHECK-NEXT: %[[KVH:.*]] = arith.divsi %[[H]], %arg4 : i32
// CHECK: %[[DK:.*]] = blk.make_tensor_descriptor %arg0, [%c2147483647_i32{{.*}}, %c2147483647_i32{{.*}}, %arg2, %c128_i32], [%arg5, %arg6, %arg7, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[1, 1, 64, 128], bf16>
// CHECK: scf.for %[[N:.*]] = %c0_i32
// CHECK-NOT: blk.load
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[KD:.*]] = blk.descriptor_load %[[DK]][%[[B]], %[[KVH]], %[[N]], %[[Z]]] : !blk.tensordesc<[1, 1, 64, 128], bf16> -> tensor<64x128xbf16>
// CHECK-NEXT: %[[KT:.*]] = blk.trans %[[KD]] : tensor<64x128xbf16> -> tensor<128x64xbf16>
// CHECK-NEXT: blk.dot %[[Q]], %[[KT]]
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
func.func @attention_kt(%K: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %Q: !blk.ptr<bf16>, %seq_k: i32,
                        %heads: i32, %group: i32, %sb: i64 {blk.divisibility = 16 : i64},
                        %sh: i64 {blk.divisibility = 16 : i64}, %sn: i64 {blk.divisibility = 16 : i64}) -> tensor<128x64xf32> {
  %qp = blk.splat %Q : !blk.ptr<bf16> -> tensor<128x128x!blk.ptr<bf16>>
  %q = blk.load %qp {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<128x128x!blk.ptr<bf16>>) -> tensor<128x128xbf16>
  %bh = blk.program_id 1 : i32
  %b = arith.divsi %bh, %heads : i32
  %b64 = arith.extsi %b : i32 to i64
  %h = arith.remsi %bh, %heads : i32
  %kvh = arith.divsi %h, %group : i32
  %kvh64 = arith.extsi %kvh : i32 to i64
  %tb = arith.muli %b64, %sb : i64
  %k0 = blk.addptr %K, %tb : !blk.ptr<bf16>, i64
  %th = arith.muli %kvh64, %sh : i64
  %kbase = blk.addptr %k0, %th : !blk.ptr<bf16>, i64
  %offs_n = blk.arange 0, 64 : tensor<64xi32>
  %offs_d = blk.arange 0, 128 : tensor<128xi32>
  %f0 = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %f0 : f32 -> tensor<128x64xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %n = %c0 to %seq_k step %c64 iter_args(%acc = %acc0) -> (tensor<128x64xf32>) : i32 {
    %ns = blk.splat %n : i32 -> tensor<64xi32>
    %cols = arith.addi %ns, %offs_n : tensor<64xi32>
    %c2 = blk.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %c2w = arith.extsi %c2 : tensor<1x64xi32> to tensor<1x64xi64>
    %sns = blk.splat %sn : i64 -> tensor<1x64xi64>
    %coff = arith.muli %c2w, %sns : tensor<1x64xi64>
    %bs = blk.splat %kbase : !blk.ptr<bf16> -> tensor<1x64x!blk.ptr<bf16>>
    %p0 = blk.addptr %bs, %coff : tensor<1x64x!blk.ptr<bf16>>, tensor<1x64xi64>
    %d2 = blk.expand_dims %offs_d {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %p0b = blk.broadcast %p0 : tensor<1x64x!blk.ptr<bf16>> -> tensor<128x64x!blk.ptr<bf16>>
    %d2b = blk.broadcast %d2 : tensor<128x1xi32> -> tensor<128x64xi32>
    %ptrs = blk.addptr %p0b, %d2b : tensor<128x64x!blk.ptr<bf16>>, tensor<128x64xi32>
    %bound = blk.splat %seq_k : i32 -> tensor<1x64xi32>
    %ok = arith.cmpi slt, %c2, %bound : tensor<1x64xi32>
    %okb = blk.broadcast %ok : tensor<1x64xi1> -> tensor<128x64xi1>
    %z = arith.constant 0.000000e+00 : bf16
    %other = blk.splat %z : bf16 -> tensor<128x64xbf16>
    %kt = blk.load %ptrs, %okb, %other {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<128x64x!blk.ptr<bf16>>, tensor<128x64xi1>, tensor<128x64xbf16>) -> tensor<128x64xbf16>
    %d = blk.dot %q, %kt, %acc {mma = #mma} : tensor<128x128xbf16>, tensor<128x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    scf.yield %d : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}

// -----

// Attention's V tile with one batch term (v_base = V + b.to(i64) *
// stride_vb), its rows an i64 line (rows = cols.to(i64), rows[:, None] *
// stride_vn + offs_d[None, :]) and its mask a 1-D compare expanded
// (ok = cols < seq_k, ok[:, None]); P, the dot's A, is computed in
// registers. The descriptor is [b, seq_k, D] with strides [stride_vb,
// stride_vn, 1] and [1, 64, 128] boxes read at [b, start_n, 0] as 64x128.
// CHECK-LABEL: func.func @attention_v
// CHECK: %[[B:.*]] = arith.divsi %{{.*}}, %arg3 : i32
// CHECK: %[[DV:.*]] = blk.make_tensor_descriptor %arg0, [%c2147483647_i32, %arg2, %c128_i32], [%arg4, %arg5, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[1, 64, 128], bf16>
// CHECK: scf.for %[[N:.*]] = %c0_i32
// CHECK-NOT: blk.load
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[V:.*]] = blk.descriptor_load %[[DV]][%[[B]], %[[N]], %[[Z]]] : !blk.tensordesc<[1, 64, 128], bf16> -> tensor<64x128xbf16>
// CHECK-NOT: blk.load
// CHECK: blk.dot %{{.*}}, %[[V]]
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
func.func @attention_v(%V: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %s: tensor<128x64xf32>, %seq_k: i32, %heads: i32,
                       %sb: i64 {blk.divisibility = 16 : i64}, %sn: i64 {blk.divisibility = 16 : i64}) -> tensor<128x128xf32> {
  %bh = blk.program_id 1 : i32
  %b = arith.divsi %bh, %heads : i32
  %b64 = arith.extsi %b : i32 to i64
  %tb = arith.muli %b64, %sb : i64
  %vbase = blk.addptr %V, %tb : !blk.ptr<bf16>, i64
  %offs_n = blk.arange 0, 64 : tensor<64xi32>
  %offs_d = blk.arange 0, 128 : tensor<128xi32>
  %f0 = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %f0 : f32 -> tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %n = %c0 to %seq_k step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %ns = blk.splat %n : i32 -> tensor<64xi32>
    %cols = arith.addi %ns, %offs_n : tensor<64xi32>
    %rows = arith.extsi %cols : tensor<64xi32> to tensor<64xi64>
    %r2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    %sns = blk.splat %sn : i64 -> tensor<64x1xi64>
    %roff = arith.muli %r2, %sns : tensor<64x1xi64>
    %bs = blk.splat %vbase : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %p0 = blk.addptr %bs, %roff : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %d2 = blk.expand_dims %offs_d {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %p0b = blk.broadcast %p0 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x128x!blk.ptr<bf16>>
    %d2b = blk.broadcast %d2 : tensor<1x128xi32> -> tensor<64x128xi32>
    %ptrs = blk.addptr %p0b, %d2b : tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi32>
    %bound = blk.splat %seq_k : i32 -> tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %bound : tensor<64xi32>
    %ok2 = blk.expand_dims %ok {axis = 1 : i32} : tensor<64xi1> -> tensor<64x1xi1>
    %okb = blk.broadcast %ok2 : tensor<64x1xi1> -> tensor<64x128xi1>
    %v = blk.load %ptrs, %okb {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi1>) -> tensor<64x128xbf16>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %d = blk.dot %p, %v, %acc {mma = #mma} : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// -----

// A computed in registers, B a computed load without a mask: B alone is
// rewritten. Its dimensions are read whole: the rows, starting at the loop
// index, unbounded (2147483647); the columns, starting at 0, the block's 64.
// CHECK-LABEL: func.func @register_a
// CHECK: %[[DB:.*]] = blk.make_tensor_descriptor %arg0, [%c2147483647_i32{{(_[0-9]+)?}}, %c64_i32{{(_[0-9]+)?}}], [%arg2, %{{.*}}] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 64], bf16>
// CHECK: scf.for %[[K:.*]] = %c0_i32
// CHECK: %[[A:.*]] = arith.truncf
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[B:.*]] = blk.descriptor_load %[[DB]][%[[K]], %[[Z]]] : !blk.tensordesc<[64, 64], bf16> -> tensor<64x64xbf16>
// CHECK-NOT: blk.load
// CHECK: blk.dot %[[A]], %[[B]]
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @register_a(%B: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %x: tensor<64x64xf32>, %sb: i64 {blk.divisibility = 16 : i64},
                      %n: i32) -> tensor<64x64xf32> {
  %ar = blk.arange 0, 64 : tensor<64xi32>
  %f0 = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %f0 : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %a = arith.truncf %x : tensor<64x64xf32> to tensor<64x64xbf16>
    %ks = blk.splat %k : i32 -> tensor<64xi32>
    %rows = arith.addi %ks, %ar : tensor<64xi32>
    %r2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %r2w = arith.extsi %r2 : tensor<64x1xi32> to tensor<64x1xi64>
    %sbs = blk.splat %sb : i64 -> tensor<64x1xi64>
    %roff = arith.muli %r2w, %sbs : tensor<64x1xi64>
    %bs = blk.splat %B : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %p0 = blk.addptr %bs, %roff : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %c2 = blk.expand_dims %ar {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %p0b = blk.broadcast %p0 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
    %c2b = blk.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
    %ptrs = blk.addptr %p0b, %c2b : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
    %b = blk.load %ptrs {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// -----

// Not rewritten: V's base moved by an i64 argument times a stride (not a
// sign-extended i32 index, so no dimension of a tensor map holds it).
// CHECK-LABEL: func.func @base_not_batch_index
// CHECK-NOT: blk.make_tensor_descriptor
// CHECK-NOT: blk.descriptor_load
// CHECK: blk.load
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
func.func @base_not_batch_index(%V: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %s: tensor<128x64xf32>, %seq_k: i32,
                                %b64: i64, %sb: i64 {blk.divisibility = 16 : i64}, %sn: i64 {blk.divisibility = 16 : i64}) -> tensor<128x128xf32> {
  %tb = arith.muli %b64, %sb : i64
  %vbase = blk.addptr %V, %tb : !blk.ptr<bf16>, i64
  %offs_n = blk.arange 0, 64 : tensor<64xi32>
  %offs_d = blk.arange 0, 128 : tensor<128xi32>
  %f0 = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %f0 : f32 -> tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %n = %c0 to %seq_k step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %ns = blk.splat %n : i32 -> tensor<64xi32>
    %cols = arith.addi %ns, %offs_n : tensor<64xi32>
    %r2 = blk.expand_dims %cols {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %r2w = arith.extsi %r2 : tensor<64x1xi32> to tensor<64x1xi64>
    %sns = blk.splat %sn : i64 -> tensor<64x1xi64>
    %roff = arith.muli %r2w, %sns : tensor<64x1xi64>
    %bs = blk.splat %vbase : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %p0 = blk.addptr %bs, %roff : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %d2 = blk.expand_dims %offs_d {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %p0b = blk.broadcast %p0 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x128x!blk.ptr<bf16>>
    %d2b = blk.broadcast %d2 : tensor<1x128xi32> -> tensor<64x128xi32>
    %ptrs = blk.addptr %p0b, %d2b : tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi32>
    %bound = blk.splat %seq_k : i32 -> tensor<64x1xi32>
    %ok = arith.cmpi slt, %r2, %bound : tensor<64x1xi32>
    %okb = blk.broadcast %ok : tensor<64x1xi1> -> tensor<64x128xi1>
    %v = blk.load %ptrs, %okb {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi1>) -> tensor<64x128xbf16>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %d = blk.dot %p, %v, %acc {mma = #mma} : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// -----

// Not rewritten: a mask `cols[:, None] <= seq_k` (only `<` bounds a
// dimension of the tensor).
// CHECK-LABEL: func.func @mask_not_slt
// CHECK-NOT: blk.make_tensor_descriptor
// CHECK-NOT: blk.descriptor_load
// CHECK: blk.load
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
func.func @mask_not_slt(%V: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %s: tensor<128x64xf32>, %seq_k: i32,
                        %sn: i64 {blk.divisibility = 16 : i64}) -> tensor<128x128xf32> {
  %offs_n = blk.arange 0, 64 : tensor<64xi32>
  %offs_d = blk.arange 0, 128 : tensor<128xi32>
  %f0 = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %f0 : f32 -> tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %n = %c0 to %seq_k step %c64 iter_args(%acc = %acc0) -> (tensor<128x128xf32>) : i32 {
    %ns = blk.splat %n : i32 -> tensor<64xi32>
    %cols = arith.addi %ns, %offs_n : tensor<64xi32>
    %r2 = blk.expand_dims %cols {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %r2w = arith.extsi %r2 : tensor<64x1xi32> to tensor<64x1xi64>
    %sns = blk.splat %sn : i64 -> tensor<64x1xi64>
    %roff = arith.muli %r2w, %sns : tensor<64x1xi64>
    %bs = blk.splat %V : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %p0 = blk.addptr %bs, %roff : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %d2 = blk.expand_dims %offs_d {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %p0b = blk.broadcast %p0 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x128x!blk.ptr<bf16>>
    %d2b = blk.broadcast %d2 : tensor<1x128xi32> -> tensor<64x128xi32>
    %ptrs = blk.addptr %p0b, %d2b : tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi32>
    %bound = blk.splat %seq_k : i32 -> tensor<64x1xi32>
    %ok = arith.cmpi sle, %r2, %bound : tensor<64x1xi32>
    %okb = blk.broadcast %ok : tensor<64x1xi1> -> tensor<64x128xi1>
    %v = blk.load %ptrs, %okb {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi1>) -> tensor<64x128xbf16>
    %p = arith.truncf %s : tensor<128x64xf32> to tensor<128x64xbf16>
    %d = blk.dot %p, %v, %acc {mma = #mma} : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// -----

// Not rewritten, either operand: B is a box (as in @register_a), but A
// gathers rows through indices loaded in the loop; a dot's in-loop loads
// become descriptor loads all or none.
// CHECK-LABEL: func.func @gathered_a
// CHECK-NOT: blk.make_tensor_descriptor
// CHECK-NOT: blk.descriptor_load
// CHECK: scf.for
// CHECK-COUNT-3: blk.load
// CHECK: blk.dot
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @gathered_a(%X: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %I: !blk.ptr<i32>, %B: !blk.ptr<bf16> {blk.divisibility = 16 : i64},
                      %sx: i64 {blk.divisibility = 16 : i64}, %sb: i64 {blk.divisibility = 16 : i64}, %n: i32) -> tensor<64x64xf32> {
  %ar = blk.arange 0, 64 : tensor<64xi32>
  %f0 = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %f0 : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %r = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %ks = blk.splat %k : i32 -> tensor<64xi32>
    %rows = arith.addi %ks, %ar : tensor<64xi32>
    // A: X + idx[:, None].to(i64) * sx + ar[None, :], idx = I[k + ar].
    %is = blk.splat %I : !blk.ptr<i32> -> tensor<64x!blk.ptr<i32>>
    %ip = blk.addptr %is, %rows : tensor<64x!blk.ptr<i32>>, tensor<64xi32>
    %idx = blk.load %ip {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x!blk.ptr<i32>>) -> tensor<64xi32>
    %i2 = blk.expand_dims %idx {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %i2w = arith.extsi %i2 : tensor<64x1xi32> to tensor<64x1xi64>
    %sxs = blk.splat %sx : i64 -> tensor<64x1xi64>
    %xoff = arith.muli %i2w, %sxs : tensor<64x1xi64>
    %xs = blk.splat %X : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %xp0 = blk.addptr %xs, %xoff : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %c2 = blk.expand_dims %ar {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %xp0b = blk.broadcast %xp0 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
    %c2b = blk.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
    %xp = blk.addptr %xp0b, %c2b : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
    %a = blk.load %xp {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
    // B: B + (k + ar)[:, None].to(i64) * sb + ar[None, :].
    %r2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %r2w = arith.extsi %r2 : tensor<64x1xi32> to tensor<64x1xi64>
    %sbs = blk.splat %sb : i64 -> tensor<64x1xi64>
    %roff = arith.muli %r2w, %sbs : tensor<64x1xi64>
    %bs = blk.splat %B : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>>
    %bp0 = blk.addptr %bs, %roff : tensor<64x1x!blk.ptr<bf16>>, tensor<64x1xi64>
    %bp0b = blk.broadcast %bp0 : tensor<64x1x!blk.ptr<bf16>> -> tensor<64x64x!blk.ptr<bf16>>
    %bp = blk.addptr %bp0b, %c2b : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
    %b = blk.load %bp {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}

// -----

// A line shifted by a block, `cols - 64` with cols = start + arange(0, 64)
// (the previous block's rows of V, in FlashAttention-3's order), is folded
// into one line `splat(start - 64) + arange(0, 64)`: the box starts at
// start - 64. Its neighbour at `cols` starts at start.
// CHECK-LABEL: func.func @shifted_line
// CHECK: %[[DK:.*]] = blk.make_tensor_descriptor %arg1
// CHECK: %[[DV:.*]] = blk.make_tensor_descriptor %arg2
// CHECK: scf.for %[[N:.*]] = %c64_i32
// CHECK: blk.descriptor_load %[[DK]][%[[N]], %{{.*}}]
// CHECK: %[[PREV:.*]] = arith.subi %[[N]], %c64_i32 : i32
// CHECK: blk.descriptor_load %[[DV]][%[[PREV]], %{{.*}}]
// CHECK-NOT: blk.load
// CHECK: scf.yield
module {
  func.func @shifted_line(%arg0: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f16> {blk.divisibility = 16 : i64}, %arg3: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg4: i32) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 5.000000e-01 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %0 = blk.arange 0, 64 : tensor<64xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %2 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %3 = arith.muli %1, %2 : tensor<64x1xi32>
    %4 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>>
    %5 = blk.addptr %4, %3 : tensor<64x1x!blk.ptr<f16>>, tensor<64x1xi32>
    %6 = blk.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %7 = blk.broadcast %5 : tensor<64x1x!blk.ptr<f16>> -> tensor<64x64x!blk.ptr<f16>>
    %8 = blk.broadcast %6 : tensor<1x64xi32> -> tensor<64x64xi32>
    %9 = blk.addptr %7, %8 : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
    %10 = blk.load %9 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f16>>) -> tensor<64x64xf16>
    %11 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %12 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>>
    %13 = blk.addptr %12, %11 : tensor<64x1x!blk.ptr<f16>>, tensor<64x1xi32>
    %14 = blk.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %15 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32>
    %16 = arith.muli %14, %15 : tensor<1x64xi32>
    %17 = blk.broadcast %13 : tensor<64x1x!blk.ptr<f16>> -> tensor<64x64x!blk.ptr<f16>>
    %18 = blk.broadcast %16 : tensor<1x64xi32> -> tensor<64x64xi32>
    %19 = blk.addptr %17, %18 : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
    %20 = blk.load %19 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f16>>) -> tensor<64x64xf16>
    %21 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
    %22 = blk.dot %10, %20, %21 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    %23 = blk.reduce %22 {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
    ^bb0(%arg5: f32, %arg6: f32):
      %39 = arith.maxnumf %arg5, %arg6 : f32
      blk.reduce.return %39 : f32
    }
    %24 = blk.expand_dims %23 {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %25 = blk.broadcast %24 : tensor<64x1xf32> -> tensor<64x64xf32>
    %26 = arith.subf %22, %25 : tensor<64x64xf32>
    %27 = math.exp %26 : tensor<64x64xf32>
    %28 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
    %29:2 = scf.for %arg5 = %c64_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %28, %arg7 = %27) -> (tensor<64x64xf32>, tensor<64x64xf32>)  : i32 {
      %39 = blk.splat %arg5 : i32 -> tensor<64xi32>
      %40 = arith.addi %39, %0 : tensor<64xi32>
      %41 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %42 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>>
      %43 = blk.addptr %42, %41 : tensor<64x1x!blk.ptr<f16>>, tensor<64x1xi32>
      %44 = blk.expand_dims %40 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %45 = blk.splat %c64_i32 : i32 -> tensor<1x64xi32>
      %46 = arith.muli %44, %45 : tensor<1x64xi32>
      %47 = blk.broadcast %43 : tensor<64x1x!blk.ptr<f16>> -> tensor<64x64x!blk.ptr<f16>>
      %48 = blk.broadcast %46 : tensor<1x64xi32> -> tensor<64x64xi32>
      %49 = blk.addptr %47, %48 : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
      %50 = blk.load %49 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f16>>) -> tensor<64x64xf16>
      %51 = blk.splat %cst_0 : f32 -> tensor<64x64xf32>
      %52 = blk.dot %10, %50, %51 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %53 = blk.splat %c64_i32 : i32 -> tensor<64xi32>
      %54 = arith.subi %40, %53 : tensor<64xi32>
      %55 = arith.truncf %arg7 : tensor<64x64xf32> to tensor<64x64xf16>
      %56 = blk.expand_dims %54 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %57 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
      %58 = arith.muli %56, %57 : tensor<64x1xi32>
      %59 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>>
      %60 = blk.addptr %59, %58 : tensor<64x1x!blk.ptr<f16>>, tensor<64x1xi32>
      %61 = blk.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %62 = blk.broadcast %60 : tensor<64x1x!blk.ptr<f16>> -> tensor<64x64x!blk.ptr<f16>>
      %63 = blk.broadcast %61 : tensor<1x64xi32> -> tensor<64x64xi32>
      %64 = blk.addptr %62, %63 : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
      %65 = blk.load %64 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f16>>) -> tensor<64x64xf16>
      %66 = blk.dot %55, %65, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %67 = blk.reduce %52 {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
      ^bb0(%arg8: f32, %arg9: f32):
        %74 = arith.maxnumf %arg8, %arg9 : f32
        blk.reduce.return %74 : f32
      }
      %68 = blk.expand_dims %67 {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
      %69 = blk.broadcast %68 : tensor<64x1xf32> -> tensor<64x64xf32>
      %70 = arith.subf %52, %69 : tensor<64x64xf32>
      %71 = math.exp %70 : tensor<64x64xf32>
      %72 = blk.splat %cst : f32 -> tensor<64x64xf32>
      %73 = arith.mulf %66, %72 : tensor<64x64xf32>
      scf.yield %73, %71 : tensor<64x64xf32>, tensor<64x64xf32>
    }
    %30 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %31 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32>
    %32 = arith.muli %30, %31 : tensor<64x1xi32>
    %33 = blk.splat %arg3 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %34 = blk.addptr %33, %32 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %35 = blk.expand_dims %0 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %36 = blk.broadcast %34 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %37 = blk.broadcast %35 : tensor<1x64xi32> -> tensor<64x64xi32>
    %38 = blk.addptr %36, %37 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    blk.store %38, %29#0 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
    return
  }
}
