// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

// Two mbarriers after the 32 KiB ring, initialized by thread 0 (one
// arrival each), fenced and synchronized. The copies: one lane
// (elect.sync) of the issuing warp, so that ptxas issues them without a
// loop over lanes. A [64, 128] bf16 slot (16 KiB,
// lines of 256 bytes) is two 128-byte-swizzle chunks of 8 KiB: one armed
// barrier for 16384 bytes and two boxes, the second 64 columns on and 8192
// bytes further. Waiting spins on try_wait.parity; retiring invalidates
// both barriers, then synchronizes.
// CHECK-LABEL: func.func @tma
// CHECK-SAME: blk.shared = 32784
// CHECK-COUNT-2: @p mbarrier.init.shared::cta.b64 [$1], 1;
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: fence.proxy.async.shared::cta;
// CHECK: nvvm.barrier0
// CHECK: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32)
// CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32)
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p, e; setp.ne.b32 p, $0, 0; elect.sync _|e, 0xffffffff; and.pred p, p, e; @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 16384; @p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$3], [$2, {$4, $5}], [$1]; @p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$6], [$2, {$7, $8}], [$1]; }", "r,r,l,r,r,r,r,r,r"
// CHECK: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1; @!done bra blk_wait;
// CHECK-COUNT-2: @p mbarrier.inval.shared::cta.b64 [$1];
// CHECK: nvvm.barrier0
func.func @tma(%d: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 1, 2>,
                                                    blk.tma_strides = array<i64: 3, -1>},
               %p: i1, %s: i32, %phase: i32) attributes {blk.kernel} {
  %ring = blk.local_alloc : !blk.smem<[2, 64, 128], bf16, contig = 1>
  %bars = blk.mbarrier_alloc : !blk.mbarriers<2>
  blk.async_tma_copy %d[%s, %s] into %ring[%s], %bars if %p : !blk.tensordesc<[64, 128], bf16>, !blk.smem<[2, 64, 128], bf16, contig = 1>, !blk.mbarriers<2>
  blk.mbarrier_wait %bars[%s], %phase : !blk.mbarriers<2>
  blk.mbarrier_inval %bars : !blk.mbarriers<2>
  return
}

// A box of a batched tensor ([1, 1, 64, 64] of [batch, heads, rows, cols])
// into a ring of 64x64 slots: one 128-byte line a row, so one armed barrier
// for 8192 bytes and one 4-d box, its coordinates innermost first: the
// column, the row, then the head and the batch.
// CHECK-LABEL: func.func @tma_batched
// CHECK: %[[COL:.*]] = llvm.add %arg6, %{{.*}} : i32
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p, e; setp.ne.b32 p, $0, 0; elect.sync _|e, 0xffffffff; and.pred p, p, e; @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 8192; @p cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$3], [$2, {$4, $5, $6, $7}], [$1]; }", "r,r,l,r,r,r,r,r" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[COL]], %arg5, %arg4, %arg3 : (i32, i32, i64, i32, i32, i32, i32, i32) -> ()
func.func @tma_batched(%d: !blk.tensordesc<[1, 1, 64, 64], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 1, 2, 3, 4>,
                                                                  blk.tma_strides = array<i64: 5, 6, 7, -1>},
                       %p: i1, %s: i32, %b: i32, %h: i32, %row: i32, %col: i32) attributes {blk.kernel} {
  %ring = blk.local_alloc : !blk.smem<[3, 64, 64], bf16, contig = 1>
  %bars = blk.mbarrier_alloc : !blk.mbarriers<3>
  blk.async_tma_copy %d[%b, %h, %row, %col] into %ring[%s], %bars if %p : !blk.tensordesc<[1, 1, 64, 64], bf16>, !blk.smem<[3, 64, 64], bf16, contig = 1>, !blk.mbarriers<3>
  return
}

// A [64, 128] bf16 slot copied out by TMA: two boxes of 64 columns, the
// second 8192 bytes and 64 columns on, by the issuing thread (thread 0),
// committed as one bulk group; the wait for the group's reads by the same
// thread.
// CHECK-LABEL: func.func @tma_store
// CHECK: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32)
// CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32)
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$3, $4}], [$2]; @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$6, $7}], [$5]; @p cp.async.bulk.commit_group; }", "r,l,r,r,r,r,r,r"
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p cp.async.bulk.wait_group.read 0; }", "r"
func.func @tma_store(%d: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 1, 2>,
                                                          blk.tma_strides = array<i64: 3, -1>},
                     %row: i32, %col: i32) attributes {blk.kernel} {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 128], bf16, contig = 1>
  blk.async_tma_store %buf[%c0] into %d[%row, %col] : !blk.smem<[1, 64, 128], bf16, contig = 1>, !blk.tensordesc<[64, 128], bf16>
  blk.tma_store_wait %buf : !blk.smem<[1, 64, 128], bf16, contig = 1>
  return
}

// A copy into a buffer that TMA stores read (`after_stores`): the thread
// that issues the stores (thread 0, no elected lane) waits for their reads,
// then arms the barrier and issues the boxes, all under the copy's
// predicate.
// CHECK-LABEL: func.func @tma_copy_after_stores
// CHECK: cp.async.bulk.commit_group;
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK-NEXT: %[[ISSUE:.*]] = llvm.and %arg1, %[[FIRST]]
// CHECK: %[[P:.*]] = llvm.zext %[[ISSUE]]
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p cp.async.bulk.wait_group.read 0; @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 16384; @p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$3], [$2, {$4, $5}], [$1]; @p cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$6], [$2, {$7, $8}], [$1]; }", "r,r,l,r,r,r,r,r,r" %[[P]]
func.func @tma_copy_after_stores(%d: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 1, 2>,
                                                                      blk.tma_strides = array<i64: 3, -1>},
                                 %p: i1, %row: i32, %col: i32) attributes {blk.kernel} {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 128], bf16, contig = 1>
  %bars = blk.mbarrier_alloc : !blk.mbarriers<1>
  blk.async_tma_store %buf[%c0] into %d[%row, %col] : !blk.smem<[1, 64, 128], bf16, contig = 1>, !blk.tensordesc<[64, 128], bf16>
  blk.async_tma_copy %d[%row, %col] into %buf[%c0], %bars if %p {after_stores} : !blk.tensordesc<[64, 128], bf16>, !blk.smem<[1, 64, 128], bf16, contig = 1>, !blk.mbarriers<1>
  blk.tma_store_wait %buf : !blk.smem<[1, 64, 128], bf16, contig = 1>
  return
}
