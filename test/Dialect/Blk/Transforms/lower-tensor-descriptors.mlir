// RUN: blk-opt %s --split-input-file --blk-lower-tensor-descriptors | FileCheck %s --check-prefixes=CHECK,PTR
// RUN: blk-opt %s --split-input-file --blk-lower-tensor-descriptors=tma=1 | FileCheck %s --check-prefixes=CHECK,TMA

// A wgmma dot's descriptor operands in a loop: without TMA, masked loads of
// base + (offset_d + arange_d) * stride_d with zeros outside [0, size_d);
// with TMA they stay, reading hidden arguments whose attributes say where
// the host finds base, shape and strides (argument indices; -1: the
// constant 1).
// CHECK-LABEL: func.func @wgmma_operands
// TMA-SAME: %arg8: !blk.tensordesc<[64, 32], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 6, -1>}
// TMA-SAME: %arg9: !blk.tensordesc<[32, 64], bf16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 7, -1>}
// TMA-NOT: blk.make_tensor_descriptor
// TMA: scf.for
// TMA: blk.descriptor_load %arg8[
// TMA: blk.descriptor_load %arg9[
// PTR-NOT: blk.make_tensor_descriptor
// PTR: scf.for
// PTR-COUNT-2: blk.arange
// PTR: arith.cmpi sge
// PTR: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<64x32xbf16>
// PTR: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<32x64xbf16>
// PTR-NOT: blk.descriptor_load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_operands(%arg0: !blk.ptr<bf16>, %arg1: !blk.ptr<bf16>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32,
                          %arg5: i32, %arg6: i64, %arg7: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %0 = blk.make_tensor_descriptor %arg0, [%arg3, %arg5], [%arg6, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
  %1 = blk.make_tensor_descriptor %arg1, [%arg5, %arg4], [%arg7, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[32, 64], bf16>
  %cst = arith.constant 0.000000e+00 : f32
  %2 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %3 = scf.for %k = %c0 to %arg5 step %c32 iter_args(%acc = %2) -> (tensor<64x64xf32>) : i32 {
    %a = blk.descriptor_load %0[%c0, %k] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
    %b = blk.descriptor_load %1[%k, %c0] : !blk.tensordesc<[32, 64], bf16> -> tensor<32x64xbf16>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %p = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  blk.store %p, %3 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}

// -----

// A descriptor whose base is computed in the kernel cannot be built on the
// host: its loads become pointer accesses even with TMA. The store's
// descriptor can: with TMA the store stays, through a hidden argument, for
// blk-tma-stores.
// CHECK-LABEL: func.func @computed_base
// TMA-SAME: %arg8: !blk.tensordesc<[64, 64], f32> {blk.tma_base = 2 : i64, blk.tma_shape = array<i64: 3, 4>, blk.tma_strides = array<i64: -64, -1>}
// CHECK-NOT: blk.tensordesc<[64, 32], bf16> {blk.tma_base
// CHECK-NOT: blk.descriptor_load
// PTR: blk.store %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
// PTR-NOT: blk.descriptor_store
// TMA: blk.descriptor_store %arg8[%{{.*}}, %{{.*}}], %{{.*}} : !blk.tensordesc<[64, 64], f32>, tensor<64x64xf32>
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @computed_base(%arg0: !blk.ptr<bf16>, %arg1: !blk.ptr<bf16>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32,
                         %arg5: i32, %arg6: i64, %arg7: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %pid = blk.program_id 0 : i32
  %off = arith.extsi %pid : i32 to i64
  %base = blk.addptr %arg0, %off : !blk.ptr<bf16>, i64
  %0 = blk.make_tensor_descriptor %base, [%arg3, %arg5], [%arg6, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
  %1 = blk.make_tensor_descriptor %arg1, [%arg5, %arg4], [%arg7, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[32, 64], bf16>
  %2 = blk.make_tensor_descriptor %arg2, [%arg3, %arg4], [%c64, %c1] : !blk.ptr<f32> -> !blk.tensordesc<[64, 64], f32>
  %cst = arith.constant 0.000000e+00 : f32
  %3 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %4 = scf.for %k = %c0 to %arg5 step %c32 iter_args(%acc = %3) -> (tensor<64x64xf32>) : i32 {
    %a = blk.descriptor_load %0[%c0, %k] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
    %b = blk.descriptor_load %1[%k, %c0] : !blk.tensordesc<[32, 64], bf16> -> tensor<32x64xbf16>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  blk.descriptor_store %2[%c0, %c0], %4 : !blk.tensordesc<[64, 64], f32>, tensor<64x64xf32>
  return
}

// -----

// An operand read through `trans` (X @ W^T, W's boxes loaded as they lie):
// TMA copies it too; the transpose stays for the ring's transposed view.
// CHECK-LABEL: func.func @x_wt
// TMA-SAME: !blk.tensordesc<[64, 32], bf16> {blk.tma_base = 0 : i64
// TMA-SAME: !blk.tensordesc<[64, 32], bf16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 4, 5>, blk.tma_strides = array<i64: 7, -1>}
// TMA: scf.for
// TMA: blk.descriptor_load %arg9[
// TMA: %[[W:.*]] = blk.descriptor_load %arg10[
// TMA-NEXT: blk.trans %[[W]] : tensor<64x32xbf16> -> tensor<32x64xbf16>
// PTR-NOT: blk.descriptor_load
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
    %c1_i64 = arith.constant 1 : i64
    %28 = blk.make_tensor_descriptor %arg0, [%arg3, %arg5], [%arg6, %c1_i64] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
    %c1_i64_0 = arith.constant 1 : i64
    %29 = blk.make_tensor_descriptor %arg1, [%arg4, %arg5], [%arg7, %c1_i64_0] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
    %30:3 = scf.for %arg9 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg10 = %27, %arg11 = %16, %arg12 = %26) -> (tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>)  : i32 {
      %50 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %51 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
      %52 = arith.cmpi slt, %50, %51 : tensor<64x1xi32>
      %53 = blk.expand_dims %6 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %54 = arith.subi %arg5, %arg9 : i32
      %55 = blk.splat %54 : i32 -> tensor<1x32xi32>
      %56 = arith.cmpi slt, %53, %55 : tensor<1x32xi32>
      %57 = blk.broadcast %52 : tensor<64x1xi1> -> tensor<64x32xi1>
      %58 = blk.broadcast %56 : tensor<1x32xi1> -> tensor<64x32xi1>
      %59 = arith.andi %57, %58 : tensor<64x32xi1>
      %cst_1 = arith.constant 0.000000e+00 : bf16
      %60 = blk.splat %cst_1 : bf16 -> tensor<64x32xbf16>
      %c0_i32_2 = arith.constant 0 : i32
      %61 = arith.addi %c0_i32_2, %arg9 : i32
      %62 = blk.descriptor_load %28[%1, %61] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
      %63 = blk.expand_dims %6 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %64 = arith.subi %arg5, %arg9 : i32
      %65 = blk.splat %64 : i32 -> tensor<32x1xi32>
      %66 = arith.cmpi slt, %63, %65 : tensor<32x1xi32>
      %67 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %68 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
      %69 = arith.cmpi slt, %67, %68 : tensor<1x64xi32>
      %70 = blk.broadcast %66 : tensor<32x1xi1> -> tensor<32x64xi1>
      %71 = blk.broadcast %69 : tensor<1x64xi1> -> tensor<32x64xi1>
      %72 = arith.andi %70, %71 : tensor<32x64xi1>
      %cst_3 = arith.constant 0.000000e+00 : bf16
      %73 = blk.splat %cst_3 : bf16 -> tensor<32x64xbf16>
      %c0_i32_4 = arith.constant 0 : i32
      %c0_i32_5 = arith.constant 0 : i32
      %74 = arith.addi %c0_i32_5, %arg9 : i32
      %75 = blk.descriptor_load %29[%c0_i32_4, %74] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
      %76 = blk.trans %75 : tensor<64x32xbf16> -> tensor<32x64xbf16>
      %77 = blk.dot %62, %76, %arg10 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
      %c32_i32_6 = arith.constant 32 : i32
      %78 = blk.splat %c32_i32_6 : i32 -> tensor<64x32xi32>
      %79 = blk.addptr %arg11, %78 : tensor<64x32x!blk.ptr<bf16>>, tensor<64x32xi32>
      %c32_i32_7 = arith.constant 32 : i32
      %80 = blk.splat %c32_i32_7 : i32 -> tensor<32x64xi32>
      %81 = blk.addptr %arg12, %80 : tensor<32x64x!blk.ptr<bf16>>, tensor<32x64xi32>
      scf.yield %77, %79, %81 : tensor<64x64xf32>, tensor<64x32x!blk.ptr<bf16>>, tensor<32x64x!blk.ptr<bf16>>
    }
    %31 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %32 = arith.extsi %31 : tensor<64x1xi32> to tensor<64x1xi64>
    %33 = blk.splat %arg8 : i64 -> tensor<64x1xi64>
    %34 = arith.muli %32, %33 : tensor<64x1xi64>
    %35 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %36 = blk.addptr %35, %34 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi64>
    %37 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %38 = blk.broadcast %36 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %39 = blk.broadcast %37 : tensor<1x64xi32> -> tensor<64x64xi32>
    %40 = blk.addptr %38, %39 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    %41 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %42 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
    %43 = arith.cmpi slt, %41, %42 : tensor<64x1xi32>
    %44 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %45 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
    %46 = arith.cmpi slt, %44, %45 : tensor<1x64xi32>
    %47 = blk.broadcast %43 : tensor<64x1xi1> -> tensor<64x64xi1>
    %48 = blk.broadcast %46 : tensor<1x64xi1> -> tensor<64x64xi1>
    %49 = arith.andi %47, %48 : tensor<64x64xi1>
    blk.store %40, %30#0, %49 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
    return
  }
}

// -----

// B the only descriptor load of a wgmma dot in a loop, A computed in
// registers: with TMA, B's descriptor becomes a hidden argument (base
// %arg0, shape [%arg3, %arg4], strides [%arg2, 1]) and its load stays.
// CHECK-LABEL: func.func @register_a
// TMA-SAME: %arg5: !blk.tensordesc<[32, 64], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 4>, blk.tma_strides = array<i64: 2, -1>}
// TMA-NOT: blk.make_tensor_descriptor
// TMA: scf.for
// TMA: %[[B:.*]] = blk.descriptor_load %arg5[
// TMA: blk.dot %{{.*}}, %[[B]]
// PTR-NOT: blk.tensordesc<[32, 64], bf16> {blk.tma_base
// PTR: scf.for
// PTR: %[[B:.*]] = blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<32x64xbf16>
// PTR: blk.dot %{{.*}}, %[[B]]
// PTR-NOT: blk.descriptor_load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @register_a(%arg0: !blk.ptr<bf16>, %arg1: tensor<64x32xf32>, %arg2: i64, %arg3: i32, %arg4: i32) -> tensor<64x64xf32> attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %0 = blk.make_tensor_descriptor %arg0, [%arg3, %arg4], [%arg2, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[32, 64], bf16>
  %cst = arith.constant 0.000000e+00 : f32
  %1 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %2 = scf.for %k = %c0 to %arg3 step %c32 iter_args(%acc = %1) -> (tensor<64x64xf32>) : i32 {
    %a = arith.truncf %arg1 : tensor<64x32xf32> to tensor<64x32xbf16>
    %b = blk.descriptor_load %0[%k, %c0] : !blk.tensordesc<[32, 64], bf16> -> tensor<32x64xbf16>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %2 : tensor<64x64xf32>
}

// -----

// Attention's first dot: Q, a descriptor load before the loop, and K^T
// read from a batched descriptor ([1, 64, 64] boxes of [batch, seq_k, D],
// loaded as 64x64 at [b, start_n, 0]) in it. With TMA, K's descriptor
// becomes a hidden argument and its load stays; Q's becomes pointers.
// CHECK-LABEL: func.func @batched_k
// TMA-SAME: %arg8: !blk.tensordesc<[1, 64, 64], bf16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 7, 4, -64>, blk.tma_strides = array<i64: 5, 6, -1>}
// TMA-NOT: blk.descriptor_load
// TMA: %[[Q:.*]] = blk.load
// TMA: scf.for %[[N:[^ ]*]] =
// TMA: %[[K:.*]] = blk.descriptor_load %arg8[%arg3, %[[N]], %{{.*}}] : !blk.tensordesc<[1, 64, 64], bf16> -> tensor<64x64xbf16>
// TMA-NEXT: %[[KT:.*]] = blk.trans %[[K]]
// TMA-NEXT: blk.dot %[[Q]], %[[KT]]
// PTR-NOT: {blk.tma_base
// PTR: scf.for
// PTR: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<64x64xbf16>
// PTR-NOT: blk.descriptor_load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @batched_k(%Q: !blk.ptr<bf16>, %K: !blk.ptr<bf16>, %m: i32, %b: i32, %seq: i32, %sb: i64, %sn: i64, %batch: i32) -> tensor<64x64xf32> attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i32
  %dq = blk.make_tensor_descriptor %Q, [%seq, %c64], [%sn, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 64], bf16>
  %dk = blk.make_tensor_descriptor %K, [%batch, %seq, %c64], [%sb, %sn, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[1, 64, 64], bf16>
  %c0 = arith.constant 0 : i32
  %q = blk.descriptor_load %dq[%m, %c0] : !blk.tensordesc<[64, 64], bf16> -> tensor<64x64xbf16>
  %cst = arith.constant 0.000000e+00 : f32
  %1 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %2 = scf.for %n = %c0 to %seq step %c64 iter_args(%acc = %1) -> (tensor<64x64xf32>) : i32 {
    %k = blk.descriptor_load %dk[%b, %n, %c0] : !blk.tensordesc<[1, 64, 64], bf16> -> tensor<64x64xbf16>
    %kt = blk.trans %k : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %d = blk.dot %q, %kt, %acc {mma = #mma} : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  return %2 : tensor<64x64xf32>
}

// -----

// A batched descriptor's block ([1, 64, 64] of a [batch, rows, cols]
// tensor) loaded as 64x64 outside a loop, which TMA does not copy: the
// leading offset moves the base by offset * stride and bounds the whole block
// (0 <= offset < batch); rows and columns as for a 2-D block, from the
// tensor's dimensions 1 and 2.
// CHECK-LABEL: func.func @batched_pointers
// CHECK: %[[E:.*]] = arith.extsi %arg1 : i32 to i64
// CHECK-NEXT: %[[O:.*]] = arith.muli %[[E]], %arg5 : i64
// CHECK-NEXT: %[[BASE:.*]] = blk.addptr %arg0, %[[O]] : !blk.ptr<bf16>, i64
// CHECK-DAG: %[[LT:.*]] = arith.cmpi slt, %arg1, %arg4 : i32
// CHECK-DAG: %[[GE:.*]] = arith.cmpi sge, %arg1, %c0_i32 : i32
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: %[[P:.*]] = blk.splat %[[BASE]] : !blk.ptr<bf16> -> tensor<64x64x!blk.ptr<bf16>>
// CHECK-NEXT: %[[M:.*]] = blk.splat %[[IN]] : i1 -> tensor<64x64xi1>
// CHECK: blk.splat %arg2 : i32 -> tensor<64xi32>
// CHECK: blk.splat %arg6 : i64 -> tensor<64x64xi64>
// CHECK: %[[P1:.*]] = blk.addptr %[[P]], %{{.*}} : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi64>
// CHECK: %[[M1:.*]] = arith.andi %[[M]], %{{.*}} : tensor<64x64xi1>
// CHECK: blk.splat %arg3 : i32 -> tensor<64xi32>
// CHECK: %[[P2:.*]] = blk.addptr %[[P1]], %{{.*}} : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi64>
// CHECK: %[[M2:.*]] = arith.andi %[[M1]], %{{.*}} : tensor<64x64xi1>
// CHECK: blk.load %[[P2]], %[[M2]], %{{.*}} {{.*}}-> tensor<64x64xbf16>
// CHECK-NOT: blk.descriptor_load
func.func @batched_pointers(%arg0: !blk.ptr<bf16>, %b: i32, %r: i32, %c: i32, %batch: i32, %sb: i64, %sr: i64) -> tensor<64x64xbf16> attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c128 = arith.constant 128 : i32
  %d = blk.make_tensor_descriptor %arg0, [%batch, %c128, %c128], [%sb, %sr, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[1, 64, 64], bf16>
  %x = blk.descriptor_load %d[%b, %r, %c] : !blk.tensordesc<[1, 64, 64], bf16> -> tensor<64x64xbf16>
  return %x : tensor<64x64xbf16>
}

// -----

// The dot's in-loop descriptor loads go through TMA all or none: A's
// offsets follow a value the loop carries (no iteration slice computes
// them), so B, which TMA could copy, becomes pointers with A.
// CHECK-LABEL: func.func @partial_tma
// CHECK-NOT: {blk.tma_base
// CHECK: scf.for
// CHECK: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<64x32xbf16>
// CHECK: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<32x64xbf16>
// CHECK-NOT: blk.descriptor_load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @partial_tma(%arg0: !blk.ptr<bf16>, %arg1: !blk.ptr<bf16>, %arg2: i32, %arg3: i32, %arg4: i64) -> tensor<64x64xf32> attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %0 = blk.make_tensor_descriptor %arg0, [%arg2, %arg3], [%arg4, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 32], bf16>
  %1 = blk.make_tensor_descriptor %arg1, [%arg3, %arg2], [%arg4, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[32, 64], bf16>
  %cst = arith.constant 0.000000e+00 : f32
  %2 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %3:2 = scf.for %k = %c0 to %arg3 step %c32 iter_args(%acc = %2, %m = %c0) -> (tensor<64x64xf32>, i32) : i32 {
    %a = blk.descriptor_load %0[%m, %k] : !blk.tensordesc<[64, 32], bf16> -> tensor<64x32xbf16>
    %b = blk.descriptor_load %1[%k, %c0] : !blk.tensordesc<[32, 64], bf16> -> tensor<32x64xbf16>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
    %next = arith.addi %m, %c32 : i32
    scf.yield %d, %next : tensor<64x64xf32>, i32
  }
  return %3#0 : tensor<64x64xf32>
}

// -----

// 8-bit floats: a wgmma dot's descriptor operands stay for TMA too (its
// boxes K-major: A [64, 128] and W [64, 128] read through a `trans`);
// without TMA, masked loads.
// CHECK-LABEL: func.func @fp8_operands
// TMA-SAME: !blk.tensordesc<[64, 128], f8E4M3FN> {blk.tma_base = 0 : i64
// TMA-SAME: !blk.tensordesc<[64, 128], f8E4M3FN> {blk.tma_base = 1 : i64
// TMA: scf.for
// TMA-COUNT-2: blk.descriptor_load
// PTR: scf.for
// PTR-COUNT-2: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<64x128xf8E4M3FN>
// PTR-NOT: blk.descriptor_load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>
func.func @fp8_operands(%arg0: !blk.ptr<f8E4M3FN>, %arg1: !blk.ptr<f8E4M3FN>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32,
                        %arg5: i32, %arg6: i64, %arg7: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %0 = blk.make_tensor_descriptor %arg0, [%arg3, %arg5], [%arg6, %c1] : !blk.ptr<f8E4M3FN> -> !blk.tensordesc<[64, 128], f8E4M3FN>
  %1 = blk.make_tensor_descriptor %arg1, [%arg4, %arg5], [%arg7, %c1] : !blk.ptr<f8E4M3FN> -> !blk.tensordesc<[64, 128], f8E4M3FN>
  %cst = arith.constant 0.000000e+00 : f32
  %2 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %3 = scf.for %k = %c0 to %arg5 step %c128 iter_args(%acc = %2) -> (tensor<64x64xf32>) : i32 {
    %a = blk.descriptor_load %0[%c0, %k] : !blk.tensordesc<[64, 128], f8E4M3FN> -> tensor<64x128xf8E4M3FN>
    %w = blk.descriptor_load %1[%c0, %k] : !blk.tensordesc<[64, 128], f8E4M3FN> -> tensor<64x128xf8E4M3FN>
    %b = blk.trans %w : tensor<64x128xf8E4M3FN> -> tensor<128x64xf8E4M3FN>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %p = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  blk.store %p, %3 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}

// -----

// 8-bit B stored [K, N] (boxes N-major, which wgmma cannot read): with TMA
// too, B becomes masked loads (blk-pipeline-dot writes it K-major into
// shared memory), and so does A, since the dot keeps none of its loads for
// TMA unless it keeps all.
// CHECK-LABEL: func.func @fp8_n_major_b
// CHECK-NOT: blk.tma_base
// CHECK: scf.for
// CHECK-COUNT-2: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}-> tensor<{{64x128|128x64}}xf8E4M3FN>
// CHECK-NOT: blk.descriptor_load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>
func.func @fp8_n_major_b(%arg0: !blk.ptr<f8E4M3FN>, %arg1: !blk.ptr<f8E4M3FN>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32,
                         %arg5: i32, %arg6: i64, %arg7: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %0 = blk.make_tensor_descriptor %arg0, [%arg3, %arg5], [%arg6, %c1] : !blk.ptr<f8E4M3FN> -> !blk.tensordesc<[64, 128], f8E4M3FN>
  %1 = blk.make_tensor_descriptor %arg1, [%arg5, %arg4], [%arg7, %c1] : !blk.ptr<f8E4M3FN> -> !blk.tensordesc<[128, 64], f8E4M3FN>
  %cst = arith.constant 0.000000e+00 : f32
  %2 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %3 = scf.for %k = %c0 to %arg5 step %c128 iter_args(%acc = %2) -> (tensor<64x64xf32>) : i32 {
    %a = blk.descriptor_load %0[%c0, %k] : !blk.tensordesc<[64, 128], f8E4M3FN> -> tensor<64x128xf8E4M3FN>
    %b = blk.descriptor_load %1[%k, %c0] : !blk.tensordesc<[128, 64], f8E4M3FN> -> tensor<128x64xf8E4M3FN>
    %d = blk.dot %a, %b, %acc {mma = #mma} : tensor<64x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<64x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %p = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  blk.store %p, %3 : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>) -> ()
  return
}

// -----

// Stores TMA does not take: a descriptor whose base is computed in the
// kernel, and a block larger than the 64 KiB a store may stage in shared
// memory (128x256 f32). Both become masked pointer stores.
// CHECK-LABEL: func.func @stores_not_kept
// CHECK-NOT: blk.tma_base
// CHECK-COUNT-2: blk.store %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK-NOT: blk.descriptor_store
func.func @stores_not_kept(%arg0: !blk.ptr<f32>, %arg1: i32, %arg2: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %pid = blk.program_id 0 : i32
  %off = arith.extsi %pid : i32 to i64
  %base = blk.addptr %arg0, %off : !blk.ptr<f32>, i64
  %0 = blk.make_tensor_descriptor %base, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<f32> -> !blk.tensordesc<[64, 64], f32>
  %1 = blk.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<f32> -> !blk.tensordesc<[128, 256], f32>
  %cst = arith.constant 1.000000e+00 : f32
  %2 = blk.splat %cst : f32 -> tensor<64x64xf32>
  %3 = blk.splat %cst : f32 -> tensor<128x256xf32>
  blk.descriptor_store %0[%c0, %c0], %2 : !blk.tensordesc<[64, 64], f32>, tensor<64x64xf32>
  blk.descriptor_store %1[%c0, %c0], %3 : !blk.tensordesc<[128, 256], f32>, tensor<128x256xf32>
  return
}

// -----

// Two 32 KiB stores in one loop nest fit together (64 KiB), a third does
// not: it stores through pointers. Outside loops each store's buffer is its
// own for a moment only, so each may take 64 KiB.
// CHECK-LABEL: func.func @stores_in_a_loop
// TMA-SAME: %arg3: !blk.tensordesc<[64, 128], f32> {blk.tma_base = 0
// TMA-SAME: %arg4: !blk.tensordesc<[128, 128], f32> {blk.tma_base = 0
// TMA: scf.for
// TMA-COUNT-2: blk.descriptor_store %arg3[
// TMA: blk.store
// TMA: }
// TMA: blk.descriptor_store %arg4[
// TMA: blk.descriptor_store %arg4[
func.func @stores_in_a_loop(%arg0: !blk.ptr<f32>, %arg1: i32, %arg2: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %0 = blk.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<f32> -> !blk.tensordesc<[64, 128], f32>
  %1 = blk.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<f32> -> !blk.tensordesc<[128, 128], f32>
  %cst = arith.constant 1.000000e+00 : f32
  %2 = blk.splat %cst : f32 -> tensor<64x128xf32>
  %3 = blk.splat %cst : f32 -> tensor<128x128xf32>
  scf.for %i = %c0 to %arg1 step %c1_i32 : i32 {
    blk.descriptor_store %0[%i, %c0], %2 : !blk.tensordesc<[64, 128], f32>, tensor<64x128xf32>
    blk.descriptor_store %0[%c0, %i], %2 : !blk.tensordesc<[64, 128], f32>, tensor<64x128xf32>
    blk.descriptor_store %0[%i, %i], %2 : !blk.tensordesc<[64, 128], f32>, tensor<64x128xf32>
  }
  blk.descriptor_store %1[%c0, %c0], %3 : !blk.tensordesc<[128, 128], f32>, tensor<128x128xf32>
  blk.descriptor_store %1[%c0, %arg1], %3 : !blk.tensordesc<[128, 128], f32>, tensor<128x128xf32>
  return
}

// -----

// A load of a TMA store's block before the store, in the body of one loop
// (C += A @ B's old tile): TMA brings it in through the store's buffer, so
// it keeps the hidden tensor map. One in an `if` (another block than its
// store's), and one two loops deep (whose trips no single loop counts),
// become pointer loads.
// CHECK-LABEL: func.func @load_before_store
// TMA-SAME: %arg3: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0
// TMA: scf.for
// TMA: %[[OLD:.*]] = blk.descriptor_load %arg3[
// TMA: blk.descriptor_store %arg3[
// PTR: blk.load
// PTR-NOT: blk.descriptor_load
func.func @load_before_store(%arg0: !blk.ptr<bf16>, %arg1: i32, %arg2: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %d = blk.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 128], bf16>
  scf.for %i = %c0 to %arg1 step %c1_i32 : i32 {
    %old = blk.descriptor_load %d[%i, %c0] : !blk.tensordesc<[64, 128], bf16> -> tensor<64x128xbf16>
    %new = arith.addf %old, %old : tensor<64x128xbf16>
    blk.descriptor_store %d[%i, %c0], %new : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16>
  }
  return
}

// -----

// CHECK-LABEL: func.func @loads_not_through_the_buffer
// TMA-COUNT-2: blk.load
// TMA-NOT: blk.descriptor_load
func.func @loads_not_through_the_buffer(%arg0: !blk.ptr<bf16>, %arg1: i32, %arg2: i64) attributes {blk.kernel} {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %d = blk.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 128], bf16>
  scf.for %i = %c0 to %arg1 step %c1_i32 : i32 {
    %p = arith.cmpi slt, %i, %arg1 : i32
    %old = scf.if %p -> tensor<64x128xbf16> {
      %l = blk.descriptor_load %d[%i, %c0] : !blk.tensordesc<[64, 128], bf16> -> tensor<64x128xbf16>
      scf.yield %l : tensor<64x128xbf16>
    } else {
      %cst = arith.constant 0.000000e+00 : bf16
      %z = blk.splat %cst : bf16 -> tensor<64x128xbf16>
      scf.yield %z : tensor<64x128xbf16>
    }
    blk.descriptor_store %d[%i, %c0], %old : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16>
    scf.for %j = %c0 to %arg1 step %c1_i32 : i32 {
      %o2 = blk.descriptor_load %d[%i, %j] : !blk.tensordesc<[64, 128], bf16> -> tensor<64x128xbf16>
      blk.descriptor_store %d[%j, %i], %o2 : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16>
    }
  }
  return
}
