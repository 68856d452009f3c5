// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm --cse | FileCheck %s

// cp.async into a ring: each vector's source size is its mask register's
// choice between the full size and 0 (cp.async zero-fills the rest, so a
// masked-off element reads as 0 and is never fetched); the destination is
// the element's swizzled place in the slot, a 32-bit address: the ring's
// base converted once, each vector's offset added to it; the group waits
// keep their counts. --cse leaves one SSA value per constant and per shared term.

// A 16x64 bf16 tile over 2 warps, 8 consecutive elements per thread and
// register bit 3 eight rows further: row = lane bits 3-4 ^ warp bit 0 << 2
// (+8), column = lane bits 0-2 << 3. The ring's lines are the tile's rows
// (128 bytes, 128-byte swizzle): byte offset = slot * 2048 + row * 128 +
// ((column * 2 >> 4) ^ (row & 7)) << 4 + (column * 2 & 15).
#cp = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @zero_fill
// CHECK-SAME: (%[[P0:[0-9a-z_]+]]: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %[[P4:[0-9a-z_]+]]: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %[[P8:[0-9a-z_]+]]: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %[[P12:[0-9a-z_]+]]: !llvm.ptr<1>,
// CHECK-SAME: %[[M0:[0-9a-z_]+]]: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %[[M4:[0-9a-z_]+]]: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %[[M8:[0-9a-z_]+]]: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %[[M12:[0-9a-z_]+]]: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %[[SLOT:[0-9a-z_]+]]: i32)
// CHECK: %[[ZERO:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[SHARED:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[RING:[0-9]+]] = llvm.getelementptr %[[SHARED]][%[[ZERO]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: %[[TWO:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[ROW:[0-9]+]] = llvm.xor %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: %[[COL:[0-9]+]] = llvm.xor %{{[0-9]+}}, %[[ZERO]] : i32
// Register 0 (row, col): the 16-byte unit col * 2 >> 4, XOR-ed with row & 7.
// CHECK-NEXT: %[[FULL:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.ptrtoint %[[RING]] : !llvm.ptr<3> to i32
// CHECK-NEXT: %[[C6:[0-9]+]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[CHUNK:[0-9]+]] = llvm.lshr %[[COL]], %[[C6]] : i32
// CHECK-NEXT: %[[C63:[0-9]+]] = llvm.mlir.constant(63 : i32) : i32
// CHECK-NEXT: %[[INLINE:[0-9]+]] = llvm.and %[[COL]], %[[C63]] : i32
// CHECK-NEXT: %[[WITHIN:[0-9]+]] = llvm.mul %[[INLINE]], %[[TWO]] : i32
// CHECK-NEXT: %[[C128:[0-9]+]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[LINE:[0-9]+]] = llvm.mul %[[ROW]], %[[C128]] : i32
// CHECK-NEXT: %[[LSH:[0-9]+]] = llvm.lshr %[[LINE]], %[[C7]] : i32
// CHECK-NEXT: %[[PHASE:[0-9]+]] = llvm.and %[[LSH]], %[[C7]] : i32
// CHECK-NEXT: %[[C4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[UNIT0:[0-9]+]] = llvm.lshr %[[WITHIN]], %[[C4]] : i32
// CHECK-NEXT: %[[SWZ:[0-9]+]] = llvm.xor %[[UNIT0]], %[[PHASE]] : i32
// CHECK-NEXT: %[[C2048:[0-9]+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT: %[[CHUNKOFF:[0-9]+]] = llvm.mul %[[CHUNK]], %[[C2048]] : i32
// CHECK-NEXT: %[[O1:[0-9]+]] = llvm.add %[[CHUNKOFF]], %[[LINE]] : i32
// CHECK-NEXT: %[[SLOTOFF:[0-9]+]] = llvm.mul %[[SLOT]], %[[C2048]] : i32
// CHECK-NEXT: %[[O2:[0-9]+]] = llvm.add %[[O1]], %[[SLOTOFF]] : i32
// CHECK-NEXT: %[[UNITOFF:[0-9]+]] = llvm.shl %[[SWZ]], %[[C4]] : i32
// CHECK-NEXT: %[[O3:[0-9]+]] = llvm.add %[[O2]], %[[UNITOFF]] : i32
// CHECK-NEXT: %[[C15:[0-9]+]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT: %[[BYTE:[0-9]+]] = llvm.and %[[WITHIN]], %[[C15]] : i32
// CHECK-NEXT: %[[OFF0:[0-9]+]] = llvm.add %[[O3]], %[[BYTE]] : i32
// CHECK-NEXT: %[[A0:[0-9]+]] = llvm.add %[[BASE]], %[[OFF0]] : i32
// The source size: 16 where mask register 0 holds, 0 where it does not.
// CHECK-NEXT: %[[SZ0:[0-9]+]] = llvm.select %[[M0]], %[[FULL]], %[[ZERO]] : i1, i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r" %[[A0]], %[[P0]], %[[SZ0]] :
// Register 8 (row + 8, col): its own line and phase, mask register 8.
// CHECK-NEXT: %[[C8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[ROW8:[0-9]+]] = llvm.add %[[ROW]], %[[C8]] : i32
// CHECK-NEXT: %[[LINE8:[0-9]+]] = llvm.mul %[[ROW8]], %[[C128]] : i32
// CHECK-NEXT: %[[LSH8:[0-9]+]] = llvm.lshr %[[LINE8]], %[[C7]] : i32
// CHECK-NEXT: %[[PHASE8:[0-9]+]] = llvm.and %[[LSH8]], %[[C7]] : i32
// CHECK-NEXT: %[[SWZ8:[0-9]+]] = llvm.xor %[[UNIT0]], %[[PHASE8]] : i32
// CHECK-NEXT: %[[O18:[0-9]+]] = llvm.add %[[CHUNKOFF]], %[[LINE8]] : i32
// CHECK-NEXT: %[[O28:[0-9]+]] = llvm.add %[[O18]], %[[SLOTOFF]] : i32
// CHECK-NEXT: %[[UNITOFF8:[0-9]+]] = llvm.shl %[[SWZ8]], %[[C4]] : i32
// CHECK-NEXT: %[[O38:[0-9]+]] = llvm.add %[[O28]], %[[UNITOFF8]] : i32
// CHECK-NEXT: %[[OFF8:[0-9]+]] = llvm.add %[[O38]], %[[BYTE]] : i32
// CHECK-NEXT: %[[A8:[0-9]+]] = llvm.add %[[BASE]], %[[OFF8]] : i32
// CHECK-NEXT: %[[SZ8:[0-9]+]] = llvm.select %[[M8]], %[[FULL]], %[[ZERO]] : i1, i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r" %[[A8]], %[[P8]], %[[SZ8]] :
// CHECK-NOT: cp.async
// CHECK: nvvm.cp.async.commit.group
// Vectors of 4 (8 bytes, .ca): mask registers 0, 4, 8, 12 choose between 8 and 0.
// CHECK-NEXT: %[[SZB0:[0-9]+]] = llvm.select %[[M0]], %[[C8]], %[[ZERO]] : i1, i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.ca.shared.global [$0], [$1], 8, $2;", "r,l,r" %[[A0]], %[[P0]], %[[SZB0]] :
// Register 4: column + 4, the second half of the same 16-byte unit.
// CHECK-NEXT: %[[COL4:[0-9]+]] = llvm.add %[[COL]], %[[C4]] : i32
// CHECK: %[[A4:[0-9]+]] = llvm.add %[[BASE]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[SZB4:[0-9]+]] = llvm.select %[[M4]], %[[C8]], %[[ZERO]] : i1, i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.ca.shared.global [$0], [$1], 8, $2;", "r,l,r" %[[A4]], %[[P4]], %[[SZB4]] :
// CHECK-NEXT: %[[SZB8:[0-9]+]] = llvm.select %[[M8]], %[[C8]], %[[ZERO]] : i1, i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.ca.shared.global [$0], [$1], 8, $2;", "r,l,r" %[[A8]], %[[P8]], %[[SZB8]] :
// CHECK: %[[SZB12:[0-9]+]] = llvm.select %[[M12]], %[[C8]], %[[ZERO]] : i1, i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.ca.shared.global [$0], [$1], 8, $2;", "r,l,r" %{{[0-9]+}}, %[[P12]], %[[SZB12]] :
// CHECK-NOT: cp.async.ca
// The waits: one group left in flight, then none.
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK-NEXT: return
func.func @zero_fill(%p: tensor<16x64x!blk.ptr<bf16>, #cp>, %m: tensor<16x64xi1, #cp>, %slot: i32) {
  %ring = blk.local_alloc : !blk.smem<[2, 16, 64], bf16, contig = 1>
  blk.async_copy %p, %m into %ring[%slot] {vec = 8 : i32} : tensor<16x64x!blk.ptr<bf16>, #cp>, tensor<16x64xi1, #cp> -> <[2, 16, 64], bf16, contig = 1>
  blk.async_commit_group
  blk.async_copy %p, %m into %ring[%slot] {vec = 4 : i32} : tensor<16x64x!blk.ptr<bf16>, #cp>, tensor<16x64xi1, #cp> -> <[2, 16, 64], bf16, contig = 1>
  blk.async_commit_group
  blk.async_wait {pending = 1 : i32}
  blk.async_wait {pending = 0 : i32}
  return
}
}
