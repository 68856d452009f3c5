// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s
// RUN: not blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm=compute-capability=80 2>&1 | FileCheck %s --check-prefix=SM80

#b = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// One element per thread, no copies: each thread issues its own atom under
// its mask only; the old values stay in registers (no shared memory).
// CHECK-LABEL: func.func @block_add
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.f32 $0, [$1], $2;", "=r,l,r,b"
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @block_add(%p: tensor<128x!blk.ptr<f32>, #b>, %v: tensor<128xf32, #b>, %m: tensor<128xi1, #b>) {
  %old = blk.atomic_rmw add, acq_rel, gpu %p, %v, %m : (tensor<128x!blk.ptr<f32>, #b>, tensor<128xf32, #b>, tensor<128xi1, #b>) -> tensor<128xf32, #b>
  blk.store %p, %old : (tensor<128x!blk.ptr<f32>, #b>, tensor<128xf32, #b>) -> ()
  return
}

// A float max: a signed max where the value is not negative, an unsigned min
// where it is, each under its own predicate; the scope and ordering asked for.
// CHECK-LABEL: func.func @float_max
// CHECK: llvm.icmp "sge"
// CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.relaxed.cta.global.max.s32 $0, [$1], $2;\0A\09@$4 atom.relaxed.cta.global.min.u32 $0, [$1], $2;", "=r,l,r,b,b"
func.func @float_max(%p: tensor<128x!blk.ptr<f32>, #b>, %v: tensor<128xf32, #b>) {
  %old = blk.atomic_rmw max, relaxed, cta %p, %v : (tensor<128x!blk.ptr<f32>, #b>, tensor<128xf32, #b>) -> tensor<128xf32, #b>
  return
}

// A scalar atomic whose old value is used: thread 0 issues it and writes the
// old value to shared memory (the other threads write to the spare slot),
// then a barrier, then every thread reads it.
// CHECK-LABEL: func.func @scalar_ticket
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: atom.acq_rel.gpu.global.add.u32
// CHECK: llvm.select
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
func.func @scalar_ticket(%p: !blk.ptr<i32>, %v: i32) -> i32 {
  %old = blk.atomic_rmw add, acq_rel, gpu %p, %v : (!blk.ptr<i32>, i32) -> i32
  return %old : i32
}

// Compare-and-swap of 64-bit values; its old value unused, so no shared memory.
// CHECK-LABEL: func.func @cas64
// CHECK: "mov.b64 $0, 0;\0A\09@$4 atom.acq_rel.gpu.global.cas.b64 $0, [$1], $2, $3;", "=l,l,l,l,b"
// CHECK-NOT: nvvm.barrier0
func.func @cas64(%p: !blk.ptr<i64>, %c: i64, %v: i64) {
  %old = blk.atomic_cas acq_rel, gpu %p, %c, %v : (!blk.ptr<i64>, i64, i64) -> i64
  return
}

// An acquire load of a block without copies: each thread loads its own
// elements under its mask, then a barrier orders the program's later
// accesses after it in every thread.
// CHECK-LABEL: func.func @acquire_block
// CHECK: "mov.b32 $0, 0;\0A\09@$2 ld.acquire.gpu.global.b32 $0, [$1];", "=r,l,b"
// CHECK: nvvm.barrier0
func.func @acquire_block(%p: tensor<128x!blk.ptr<i32>, #b>, %m: tensor<128xi1, #b>) {
  %v = blk.atomic_load acquire, gpu %p, %m : (tensor<128x!blk.ptr<i32>, #b>, tensor<128xi1, #b>) -> tensor<128xi32, #b>
  blk.store %p, %v : (tensor<128x!blk.ptr<i32>, #b>, tensor<128xi32, #b>) -> ()
  return
}

// A scalar load (a flag): thread 0 loads it, every thread takes its value
// through shared memory, so all see the same one.
// CHECK-LABEL: func.func @relaxed_scalar
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: "mov.b64 $0, 0;\0A\09@$2 ld.relaxed.sys.global.b64 $0, [$1];", "=l,l,b"
// CHECK: llvm.store {{.*}} : i64, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i64
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @relaxed_scalar(%p: !blk.ptr<i64>) -> i64 {
  %v = blk.atomic_load relaxed, sys %p : (!blk.ptr<i64>) -> i64
  return %v : i64
}

// A release store: a barrier first (what every thread wrote comes before
// it), then thread 0's store; a relaxed store of a block under its mask,
// no barrier.
// CHECK-LABEL: func.func @stores
// CHECK: nvvm.barrier0
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: "@$2 st.release.gpu.global.b32 [$0], $1;", "l,r,b"
// CHECK-NOT: nvvm.barrier0
// CHECK: "@$2 st.relaxed.cta.global.b16 [$0], $1;", "l,h,b"
func.func @stores(%q: !blk.ptr<f32>, %f: f32, %p: tensor<128x!blk.ptr<f16>, #b>, %v: tensor<128xf16, #b>, %m: tensor<128xi1, #b>) {
  blk.atomic_store release, gpu %q, %f : (!blk.ptr<f32>, f32) -> ()
  blk.atomic_store relaxed, cta %p, %v, %m : (tensor<128x!blk.ptr<f16>, #b>, tensor<128xf16, #b>, tensor<128xi1, #b>) -> ()
  return
}

// bf16 adds exist from sm_90 on.
// CHECK-LABEL: func.func @bf16_add
// CHECK: "mov.b16 $0, 0;\0A\09atom.acq_rel.gpu.global.add.noftz.bf16 $0, [$1], $2;", "=h,l,h"
// SM80: error: atomic_add on bf16 needs sm_90 or newer (compiling for sm_80)
func.func @bf16_add(%p: tensor<128x!blk.ptr<bf16>, #b>, %v: tensor<128xbf16, #b>) {
  %old = blk.atomic_rmw add, acq_rel, gpu %p, %v : (tensor<128x!blk.ptr<bf16>, #b>, tensor<128xbf16, #b>) -> tensor<128xbf16, #b>
  return
}
}
