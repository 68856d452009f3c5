// RUN: blk-opt %s --convert-blk-to-llvm | FileCheck %s

#l4 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#l1 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// A thread holds 4 consecutive f32; the masked load takes `other` through
// movs, then one predicated 16-byte access; the arithmetic is per element.
// CHECK-LABEL: func.func @masked_vector
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[N:.*]]: i32)
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK-COUNT-4: arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK: %[[PTR:.*]] = llvm.getelementptr inbounds %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b,r,r,r,r"
// CHECK-COUNT-4: arith.addf %{{.*}} : f32
// CHECK: llvm.inline_asm has_side_effects "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b" %[[PTR]]
// CHECK-NOT: blk.
func.func @masked_vector(%p: !blk.ptr<f32>, %n: i32) attributes {blk.kernel} {
  %r = blk.arange 0, 512 : tensor<512xi32, #l4>
  %ns = blk.splat %n : i32 -> tensor<512xi32, #l4>
  %m = arith.cmpi slt, %r, %ns : tensor<512xi32, #l4>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #l4>
  %q = blk.addptr %ps, %r : tensor<512x!blk.ptr<f32>, #l4>, tensor<512xi32, #l4>
  %o = arith.constant dense<2.0> : tensor<512xf32, #l4>
  %x = blk.load %q, %m, %o {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 4 : i32} : (tensor<512x!blk.ptr<f32>, #l4>, tensor<512xi1, #l4>, tensor<512xf32, #l4>) -> tensor<512xf32, #l4>
  %y = arith.addf %x, %x : tensor<512xf32, #l4>
  blk.store %q, %y, %m {vec = 4 : i32} : (tensor<512x!blk.ptr<f32>, #l4>, tensor<512xf32, #l4>, tensor<512xi1, #l4>) -> ()
  return
}
// 64 elements over 128 threads: threads 64..127 hold copies and must not
// store, so the store is predicated on being the first copy.
// CHECK-LABEL: func.func @replicated
// CHECK: arith.constant 1.000000e+00 : f16
// CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.b16 [ $0 + 0 ], $1;", "l,h,b" %{{.*}}, %{{.*}}, %[[OWNER]]
func.func @replicated(%p: !blk.ptr<f16>) attributes {blk.kernel} {
  %r = blk.arange 0, 64 : tensor<64xi32, #l1>
  %ps = blk.splat %p : !blk.ptr<f16> -> tensor<64x!blk.ptr<f16>, #l1>
  %q = blk.addptr %ps, %r : tensor<64x!blk.ptr<f16>, #l1>, tensor<64xi32, #l1>
  %c = arith.constant dense<1.0> : tensor<64xf16, #l1>
  blk.store %q, %c : (tensor<64x!blk.ptr<f16>, #l1>, tensor<64xf16, #l1>) -> ()
  return
}
// An eviction policy becomes an L2 cache policy attached to the access; the
// default adds nothing.
// CHECK-LABEL: func.func @eviction
// CHECK: "{\0A\09.reg .b64 %policy;\0A\09createpolicy.fractional.L2::evict_last.b64 %policy, 1.0;\0A\09ld.global.L2::cache_hint.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ], %policy;\0A\09}"
// CHECK: createpolicy.fractional.L2::evict_first.b64 %policy, 1.0;\0A\09st.global.L2::cache_hint.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 }, %policy;
// CHECK: "st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };"
func.func @eviction(%p: tensor<512x!blk.ptr<f32>, #l4>) {
  %x = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, evict = 2 : i32} : (tensor<512x!blk.ptr<f32>, #l4>) -> tensor<512xf32, #l4>
  blk.store %p, %x {vec = 4 : i32, evict = 1 : i32} : (tensor<512x!blk.ptr<f32>, #l4>, tensor<512xf32, #l4>) -> ()
  blk.store %p, %x {vec = 4 : i32} : (tensor<512x!blk.ptr<f32>, #l4>, tensor<512xf32, #l4>) -> ()
  return
}
}
