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
// host: its loads become pointer accesses even with TMA; so does a store.
// CHECK-LABEL: func.func @computed_base
// CHECK-NOT: blk.tensordesc<[64, 32], bf16> {blk.tma_base
// CHECK-NOT: blk.descriptor_load
// CHECK: blk.store %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x64x!blk.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>) -> ()
// CHECK-NOT: blk.descriptor_store
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
