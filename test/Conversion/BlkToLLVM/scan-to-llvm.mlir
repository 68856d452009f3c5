// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

#w2 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
#rows = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]>
module attributes {blk.num_warps = 2 : i32} {
// 128 elements, 2 per thread, 2 warps: one in-thread step, a scan over the
// five lane bits by shuffles up (lanes 1..16 before; the two registers share
// one running total, so one shuffle each), one up for the lane before's result
// and one for the warp's total from lane 31, then one exchange through shared
// memory between the two warps (one store of the shared total, barrier, one
// load from warp ^ 1).
// CHECK-LABEL: func.func @cumsum_1d
// CHECK: arith.addf
// CHECK-COUNT-6: nvvm.shfl.sync {{ *}}up
// CHECK: nvvm.shfl.sync {{ *}}idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK: llvm.xor
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @cumsum_1d(%x: tensor<128xf32, #w2>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<128xf32, #w2> -> tensor<128xf32, #w2> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.print "s" %s : tensor<128xf32, #w2>
  return
}

// 512 elements over 128 threads: each thread's runs of two (register bit 0)
// are scanned in order, one add; its runs repeat every 128 elements
// (register bits 1 and 2 reach farther than the threads), so the block is
// four chunks: shuffles per chunk (5 steps up and one for the total from
// lane 31; an integer sum takes the lanes before as the lane's result less
// its own, no shuffle), one exchange of the four chunk
// totals between the warps (four stores, one barrier, four loads), then the
// carry of the chunks before: one add per register of chunks 1 to 3, and
// one per chunk for the carry itself.
// CHECK-LABEL: func.func @cumsum_chunks
// CHECK-COUNT-5: nvvm.shfl.sync {{ *}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: arith.subi
// CHECK: nvvm.shfl.sync {{ *}}idx
// CHECK-COUNT-5: nvvm.shfl.sync {{ *}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: arith.subi
// CHECK: nvvm.shfl.sync {{ *}}idx
// CHECK-COUNT-5: nvvm.shfl.sync {{ *}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: arith.subi
// CHECK: nvvm.shfl.sync {{ *}}idx
// CHECK-COUNT-5: nvvm.shfl.sync {{ *}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: arith.subi
// CHECK: nvvm.shfl.sync {{ *}}idx
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-4: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK-COUNT-4: llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NOT: llvm.load
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @cumsum_chunks(%x: tensor<512xi32, #w2>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<512xi32, #w2> -> tensor<512xi32, #w2> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    blk.reduce.return %c : i32
  }
  blk.print "s" %s : tensor<512xi32, #w2>
  return
}

// Along rows that one warp holds (4 registers, 32 lanes): in-thread steps and
// shuffles only (up, no total needed), no shared memory.
// CHECK-LABEL: func.func @cumprod_rows
// CHECK: arith.muli
// CHECK-COUNT-6: nvvm.shfl.sync {{ *}}up
// CHECK-NOT: nvvm.shfl.sync
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @cumprod_rows(%x: tensor<2x128xi32, #rows>) {
  %s = blk.scan %x {axis = 1 : i32} : tensor<2x128xi32, #rows> -> tensor<2x128xi32, #rows> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.muli %a, %b : i32
    blk.reduce.return %c : i32
  }
  blk.print "s" %s : tensor<2x128xi32, #rows>
  return
}
}
