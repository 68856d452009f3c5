// RUN: blk-opt %s --blk-coalesce | FileCheck %s

// A store of a tensor-core accumulator goes through a blocked layout whose
// fastest dimension is the access's (here the last): each thread then holds
// a run of 8 f16 along the row and stores it as one 16-byte vector
// (scripts/mutate.py coalesce-acc-order: the order reversed leaves runs of 1
// along the row, and the store falls back to single elements).

#mma = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-DAG: #[[B:.+]] = #blk.blocked<sizePerThread = [1, 8], {{.*}}order = [1, 0]>
// CHECK-DAG: #[[A:.+]] = #blk.blocked<sizePerThread = [1, 4], {{.*}}order = [1, 0]>
// CHECK-LABEL: func.func @accumulator_store
// CHECK: %[[P:.+]] = blk.convert_layout %arg0 {{.*}} -> tensor<64x64x!blk.ptr<f16>, #[[B]]>
// CHECK: %[[V:.+]] = blk.convert_layout %arg1 {{.*}} -> tensor<64x64xf16, #[[B]]>
// CHECK: blk.store %[[P]], %[[V]] {vec = 8 : i32}
func.func @accumulator_store(%p: tensor<64x64x!blk.ptr<f16>, #mma>, %v: tensor<64x64xf16, #mma>) {
  blk.store %p, %v {vec = 8 : i32} : (tensor<64x64x!blk.ptr<f16>, #mma>, tensor<64x64xf16, #mma>) -> ()
  return
}

// A float atomic add of an accumulator (split-K's partial tile) is written as
// a store of one is: each thread adds runs of 4 f32 along the row, so that
// the adds can go as vector atomics.
// CHECK-LABEL: func.func @accumulator_atomic_add
// CHECK: %[[P:.+]] = blk.convert_layout %arg0 {{.*}} -> tensor<64x64x!blk.ptr<f32>, #[[A]]>
// CHECK: %[[V:.+]] = blk.convert_layout %arg1 {{.*}} -> tensor<64x64xf32, #[[A]]>
// CHECK: blk.atomic_rmw add, acq_rel, gpu %[[P]], %[[V]] {vec = 4 : i32}
func.func @accumulator_atomic_add(%p: tensor<64x64x!blk.ptr<f32>, #mma>, %v: tensor<64x64xf32, #mma>) {
  %old = blk.atomic_rmw add, acq_rel, gpu %p, %v {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #mma>, tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma>
  return
}
}
