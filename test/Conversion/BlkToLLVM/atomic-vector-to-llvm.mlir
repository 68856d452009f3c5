// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s
// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm=compute-capability=80 | FileCheck %s --check-prefix=SM80

// Float adds of a thread's consecutive elements under one mask are one vector
// atomic each on sm_90 (PTX ISA 8.1, which the module then asks for); sm_80
// has none and adds one element at a time.
#b4 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b8 = #blk.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {{.*}}blk.min_ptx_version = 81
// SM80-NOT: blk.min_ptx_version
module attributes {blk.num_warps = 4 : i32} {
// Four f32 per thread, one mask value each: one predicated v4 atom, its old
// values unpacked from the result.
// CHECK-LABEL: func.func @f32_v4
// CHECK: "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$9 atom.acq_rel.gpu.global.add.v4.f32 {$0, $1, $2, $3}, [$4], {$5, $6, $7, $8};", "=r,=r,=r,=r,l,r,r,r,r,b"
// CHECK-COUNT-4: llvm.extractvalue
// CHECK-NOT: atom.
// CHECK: return
// SM80-LABEL: func.func @f32_v4
// SM80-COUNT-4: atom.acq_rel.gpu.global.add.f32 $0, [$1], $2;
// SM80-NOT: atom.
// SM80: return
func.func @f32_v4(%p: tensor<512x!blk.ptr<f32>, #b4>, %v: tensor<512xf32, #b4>, %m: tensor<512xi1, #b4>) {
  %old = blk.atomic_rmw add, acq_rel, gpu %p, %v, %m {vec = 4 : i32} : (tensor<512x!blk.ptr<f32>, #b4>, tensor<512xf32, #b4>, tensor<512xi1, #b4>) -> tensor<512xf32, #b4>
  blk.store %p, %old : (tensor<512x!blk.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> ()
  return
}

// Eight f16 in 16-bit registers, `.noftz` as PTX asks of half adds; no
// mask: only the owner predicate (no copies here, so none).
// CHECK-LABEL: func.func @f16_v8
// CHECK: atom.relaxed.gpu.global.add.noftz.v8.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, [$8], {$9, $10, $11, $12, $13, $14, $15, $16};", "=h,=h,=h,=h,=h,=h,=h,=h,l,h,h,h,h,h,h,h,h"
// CHECK-NOT: atom.
// CHECK: return
func.func @f16_v8(%p: tensor<1024x!blk.ptr<f16>, #b8>, %v: tensor<1024xf16, #b8>) {
  %old = blk.atomic_rmw add, relaxed, gpu %p, %v {vec = 8 : i32} : (tensor<1024x!blk.ptr<f16>, #b8>, tensor<1024xf16, #b8>) -> tensor<1024xf16, #b8>
  return
}

// A proven width of 2 splits each thread's run of 4 into two v2 atoms; an
// integer add has no vector form and stays one element per atom.
// CHECK-LABEL: func.func @narrower
// CHECK-COUNT-2: atom.acq_rel.gpu.global.add.v2.f32
// CHECK-COUNT-4: atom.acq_rel.gpu.global.add.u32 $0, [$1], $2;
// CHECK-NOT: atom.
// CHECK: return
func.func @narrower(%p: tensor<512x!blk.ptr<f32>, #b4>, %v: tensor<512xf32, #b4>, %q: tensor<512x!blk.ptr<i32>, #b4>, %w: tensor<512xi32, #b4>) {
  %old = blk.atomic_rmw add, acq_rel, gpu %p, %v {vec = 2 : i32} : (tensor<512x!blk.ptr<f32>, #b4>, tensor<512xf32, #b4>) -> tensor<512xf32, #b4>
  %iold = blk.atomic_rmw add, acq_rel, gpu %q, %w {vec = 4 : i32} : (tensor<512x!blk.ptr<i32>, #b4>, tensor<512xi32, #b4>) -> tensor<512xi32, #b4>
  return
}
}
