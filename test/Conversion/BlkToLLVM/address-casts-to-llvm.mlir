// RUN: blk-opt %s --convert-blk-to-llvm | FileCheck %s

#l2 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// A pointer's address and back: once for a scalar, once per element a
// thread holds for a block; the stores go through the rebuilt pointers.
// CHECK-LABEL: func.func @addresses
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>)
// CHECK: %[[S:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK: %[[Q:.*]] = llvm.inttoptr %[[S]] : i64 to !llvm.ptr<1>
// CHECK: st.global.b16 {{.*}} %[[Q]]
// CHECK: %[[A0:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: %[[A1:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK: llvm.inttoptr %[[A0]] : i64 to !llvm.ptr<1>
// CHECK: llvm.inttoptr %[[A1]] : i64 to !llvm.ptr<1>
// CHECK-NOT: blk.
func.func @addresses(%p: !blk.ptr<f32>) attributes {blk.kernel} {
  %s = blk.ptr_to_int %p : !blk.ptr<f32> -> i64
  %q = blk.int_to_ptr %s : i64 -> !blk.ptr<f16>
  %one = arith.constant 1.0 : f16
  blk.store %q, %one : (!blk.ptr<f16>, f16) -> ()
  %r = blk.arange 0, 256 : tensor<256xi32, #l2>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>, #l2>
  %pr = blk.addptr %ps, %r : tensor<256x!blk.ptr<f32>, #l2>, tensor<256xi32, #l2>
  %ar = blk.ptr_to_int %pr : tensor<256x!blk.ptr<f32>, #l2> -> tensor<256xi64, #l2>
  %qr = blk.int_to_ptr %ar : tensor<256xi64, #l2> -> tensor<256x!blk.ptr<f16>, #l2>
  %c = arith.constant dense<2.0> : tensor<256xf16, #l2>
  blk.store %qr, %c : (tensor<256x!blk.ptr<f16>, #l2>, tensor<256xf16, #l2>) -> ()
  return
}

// A scalar pointer chosen at run time (a branch that assigns one of two
// pointers, folded into a select) selects between the two addresses.
// CHECK-LABEL: func.func @chosen_pointer
// CHECK-SAME: (%[[X:.*]]: !llvm.ptr<1>, %[[Y:.*]]: !llvm.ptr<1>, %[[C:.*]]: i1)
// CHECK: %[[P:.*]] = llvm.select %[[C]], %[[X]], %[[Y]] : i1, !llvm.ptr<1>
// CHECK: st.global.b32 {{.*}} %[[P]]
// CHECK-NOT: arith.select
func.func @chosen_pointer(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %c: i1) attributes {blk.kernel} {
  %p = arith.select %c, %x, %y : !blk.ptr<f32>
  %one = arith.constant 1.0 : f32
  blk.store %p, %one : (!blk.ptr<f32>, f32) -> ()
  return
}
}
