// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

// A warp-specialized kernel of 8 consumer warps: its producer warpgroup is
// the threads from 256 on. The barriers initialized before the split
// synchronize every thread (barrier 0); the consumers' barrier is named
// barrier 15 of their 256 threads. The producer's first thread (256) issues
// the copies, its first warp (8) waits for the slot's release; each branch
// starts by resizing its registers. A copy of the consumers' own (a second
// loop they pipeline themselves) is issued by one lane of warp 0 that
// elect.sync picks (ptxas would otherwise loop over the warp's lanes).
// CHECK-LABEL: func.func @roles
// CHECK: mbarrier.init.shared::cta.b64
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0
// CHECK: %[[C256:.+]] = llvm.mlir.constant(256 : i32)
// CHECK: %[[PRODUCER:.+]] = llvm.icmp "uge" %{{.+}}, %[[C256]]
// CHECK: scf.if %[[PRODUCER]] {
// CHECK-NEXT: nvvm.setmaxregister  decrease 40
// CHECK: %[[WARP:.+]] = llvm.lshr
// CHECK: %[[C8:.+]] = llvm.mlir.constant(8 : i32)
// CHECK: llvm.icmp "eq" %[[WARP]], %[[C8]]
// CHECK: mbarrier.try_wait.parity
// CHECK: %[[FIRST:.+]] = llvm.mlir.constant(256 : i32)
// CHECK: llvm.icmp "eq" %{{.+}}, %[[FIRST]]
// CHECK-NOT: elect.sync
// CHECK: cp.async.bulk.tensor.2d
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// CHECK: %[[CWARP:.+]] = llvm.lshr
// CHECK: %[[ZERO:.+]] = llvm.mlir.constant(0 : i32)
// CHECK: llvm.icmp "eq" %[[CWARP]], %[[ZERO]]
// CHECK: elect.sync _|e, 0xffffffff; and.pred p, p, e; {{.*}}cp.async.bulk.tensor.2d
// CHECK-DAG: %[[ID:.+]] = llvm.mlir.constant(15 : i32)
// CHECK-DAG: %[[COUNT:.+]] = llvm.mlir.constant(256 : i32)
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
// CHECK-NOT: nvvm.barrier0
// CHECK: mbarrier.inval
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.barrier id
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {blk.num_warps = 8 : i32} {
  func.func @roles(%d: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 1, 2>,
                                                        blk.tma_strides = array<i64: 3, -1>},
                   %s: i32, %phase: i32) attributes {blk.kernel, blk.producer_warps = 4 : i32} {
    %ring = blk.local_alloc : !blk.smem<[2, 64, 128], bf16, contig = 1>
    %bars = blk.mbarrier_alloc : !blk.mbarriers<2>
    %empty = blk.mbarrier_alloc {arrivals = 8 : i64} : !blk.mbarriers<2>
    %role = blk.producer_warp
    scf.if %role {
      blk.set_max_registers 40
      %true = arith.constant true
      blk.mbarrier_wait %empty[%s], %phase {issuer} : !blk.mbarriers<2>
      blk.async_tma_copy %d[%s, %s] into %ring[%s], %bars if %true : !blk.tensordesc<[64, 128], bf16>, !blk.smem<[2, 64, 128], bf16, contig = 1>, !blk.mbarriers<2>
    } else {
      blk.set_max_registers 232 increase
      %true = arith.constant true
      blk.async_tma_copy %d[%s, %s] into %ring[%s], %bars if %true : !blk.tensordesc<[64, 128], bf16>, !blk.smem<[2, 64, 128], bf16, contig = 1>, !blk.mbarriers<2>
      blk.mbarrier_wait %bars[%s], %phase : !blk.mbarriers<2>
      blk.barrier
      blk.mbarrier_inval %bars : !blk.mbarriers<2>
    } {blk.producer_branch}
    return
  }
}
