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
