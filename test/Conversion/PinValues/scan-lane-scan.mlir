// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

// Scans over three or more consecutive lane bits: one running value per
// register, shuffled up (down, reversed) by 2^k lanes at step k and combined
// where the lane 2^k positions before (after) is in the group, the partner's
// value IN FRONT (reversed: AFTER); then the exclusive part from the lane
// before, put in front of the prefix except in the group's first lane (an
// integer sum: the lane's result less its own value, no shuffle), and,
// where a later step needs it, the group's total from its last lane. No
// --cse: the combiners are commutative, and CSE would hide the operand order.

// 64 elements, one per thread, 2 warps: five lane steps (deltas 1 to 16),
// then the total from lane 31 for the step between the warps.
#w2 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:[0-9a-z_]+]]: f32)
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %{{[0-9]+}} : i32
// CHECK: %[[SHIFTED:[0-9]+]] = llvm.lshr %[[LANE]], %{{[0-9]+}} : i32
// CHECK: %[[POS:[0-9]+]] = llvm.and %[[SHIFTED]], %{{[0-9]+}} : i32
// CHECK: %[[FIRST:[0-9]+]] = llvm.icmp "eq" %[[POS]], %{{[0-9]+}} : i32
// CHECK: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LAST:[0-9]+]] = llvm.or %[[LANE]], %[[C31]] : i32
// Step 0: from the lane before, where the position is at least 1.
// CHECK: %[[D1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[M1:[0-9]+]] = nvvm.shfl.sync up %{{[0-9]+}}, %[[X]], %[[D1]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[K1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[IN1:[0-9]+]] = llvm.icmp "sge" %[[POS]], %[[K1]] : i32
// CHECK-NEXT: %[[A1:[0-9]+]] = arith.addf %[[M1]], %[[X]] : f32
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.select %[[IN1]], %[[A1]], %[[X]] : i1, f32
// Step 1: two lanes before, from step 0's result.
// CHECK: %[[D2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[M2:[0-9]+]] = nvvm.shfl.sync up %{{[0-9]+}}, %[[S1]], %[[D2]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[IN2:[0-9]+]] = llvm.icmp "sge" %[[POS]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[A2:[0-9]+]] = arith.addf %[[M2]], %[[S1]] : f32
// CHECK-NEXT: %[[S2:[0-9]+]] = llvm.select %[[IN2]], %[[A2]], %[[S1]] : i1, f32
// CHECK: nvvm.shfl.sync up %{{[0-9]+}}, %[[S2]]
// CHECK: nvvm.shfl.sync up
// CHECK: %[[M5:[0-9]+]] = nvvm.shfl.sync up
// CHECK: %[[A5:[0-9]+]] = arith.addf %[[M5]], %[[S4:[0-9]+]] : f32
// CHECK-NEXT: %[[S5:[0-9]+]] = llvm.select %{{[0-9]+}}, %[[A5]], %[[S4]] : i1, f32
// The lane before's result, and the total from the group's last lane.
// CHECK: %[[BEFORE:[0-9]+]] = nvvm.shfl.sync up %{{[0-9]+}}, %[[S5]], %{{[0-9]+}}, %{{[0-9]+}} : f32 -> f32
// CHECK: %[[TOTAL:[0-9]+]] = nvvm.shfl.sync idx %{{[0-9]+}}, %[[S5]], %[[LAST]], %{{[0-9]+}} : f32 -> f32
// CHECK-NEXT: %[[AP:[0-9]+]] = arith.addf %[[BEFORE]], %[[X]] : f32
// CHECK-NEXT: %[[P:[0-9]+]] = llvm.select %[[FIRST]], %[[X]], %[[AP]] : i1, f32
// The step between the warps moves the total.
// CHECK: llvm.store %[[TOTAL]], %{{[0-9]+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.shfl.sync
// CHECK: return
func.func @cumsum(%x: tensor<64xf32, #w2>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<64xf32, #w2> -> tensor<64xf32, #w2> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.print "s" %s : tensor<64xf32, #w2>
  return
}
}

// -----

// Reversed along rows whose 8 elements lie in lane bits 2 to 4 (position
// (lane >> 2) & 7): shuffles down by 4, 8 and 16 lanes, combined where the
// position is below 7, 6 and 4, the partner's value after; the group's
// first lane along the scan is position 7. One warp and nothing after the
// lanes: no total. An integer sum: the lanes after are the lane's result
// less its own value, no shuffle.
#cols = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @reverse_rows
// CHECK-SAME: (%[[X:[0-9a-z_]+]]: i32)
// CHECK-DAG: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[SHIFTED:[0-9]+]] = llvm.lshr %{{[0-9]+}}, %[[C2]] : i32
// CHECK-NEXT: %[[POS:[0-9]+]] = llvm.and %[[SHIFTED]], %[[C7]] : i32
// CHECK-NOT: llvm.icmp "eq"
// CHECK: %[[D4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[M1:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[X]], %[[D4]], %{{[0-9]+}} : i32 -> i32
// CHECK: %[[B1:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[IN1:[0-9]+]] = llvm.icmp "slt" %[[POS]], %[[B1]] : i32
// CHECK-NEXT: %[[A1:[0-9]+]] = arith.addi %[[X]], %[[M1]] : i32
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.select %[[IN1]], %[[A1]], %[[X]] : i1, i32
// CHECK: %[[D8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[M2:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[S1]], %[[D8]], %{{[0-9]+}} : i32 -> i32
// CHECK: %[[B2:[0-9]+]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[IN2:[0-9]+]] = llvm.icmp "slt" %[[POS]], %[[B2]] : i32
// CHECK-NEXT: %[[A2:[0-9]+]] = arith.addi %[[S1]], %[[M2]] : i32
// CHECK-NEXT: %[[S2:[0-9]+]] = llvm.select %[[IN2]], %[[A2]], %[[S1]] : i1, i32
// CHECK: %[[D16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[M3:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[S2]], %[[D16]], %{{[0-9]+}} : i32 -> i32
// CHECK: %[[B3:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[IN3:[0-9]+]] = llvm.icmp "slt" %[[POS]], %[[B3]] : i32
// CHECK-NEXT: %[[A3:[0-9]+]] = arith.addi %[[S2]], %[[M3]] : i32
// CHECK-NEXT: %[[S3:[0-9]+]] = llvm.select %[[IN3]], %[[A3]], %[[S2]] : i1, i32
// The lanes after: the lane's result less its own value, no shuffle (zero
// in the group's first lane, position 7).
// CHECK-NEXT: %[[AFTER:[0-9]+]] = arith.subi %[[S3]], %[[X]] : i32
// CHECK-NEXT: %[[P:[0-9]+]] = arith.addi %[[X]], %[[AFTER]] : i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.printf {{.*}}, %[[P]] : i32, i32, i32, i32, i32, i32
func.func @reverse_rows(%x: tensor<4x8xi32, #cols>) {
  %s = blk.scan %x {axis = 1 : i32, reverse} : tensor<4x8xi32, #cols> -> tensor<4x8xi32, #cols> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    blk.reduce.return %c : i32
  }
  blk.print "s" %s : tensor<4x8xi32, #cols>
  return
}
}

// -----

// Reversed along rows whose 8 elements lie in lane bits 2 to 4 (position
// (lane >> 2) & 7): shuffles down by 4, 8 and 16 lanes, combined where the
// position is below 7, 6 and 4, the partner's value after; the group's
// first lane along the scan is position 7. One warp and nothing after the
// lanes: no total. A running maximum: the lanes after come by one more
// shuffle down.
#cols = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @reverse_rows_max
// CHECK-SAME: (%[[X:[0-9a-z_]+]]: i32)
// CHECK-DAG: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-DAG: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[SHIFTED:[0-9]+]] = llvm.lshr %{{[0-9]+}}, %[[C2]] : i32
// CHECK-NEXT: %[[POS:[0-9]+]] = llvm.and %[[SHIFTED]], %[[C7]] : i32
// CHECK: %[[FIRST:[0-9]+]] = llvm.icmp "eq" %[[POS]], %{{[0-9]+}} : i32
// CHECK: %[[D4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[M1:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[X]], %[[D4]], %{{[0-9]+}} : i32 -> i32
// CHECK: %[[B1:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[IN1:[0-9]+]] = llvm.icmp "slt" %[[POS]], %[[B1]] : i32
// CHECK-NEXT: %[[A1:[0-9]+]] = arith.maxsi %[[X]], %[[M1]] : i32
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.select %[[IN1]], %[[A1]], %[[X]] : i1, i32
// CHECK: %[[D8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[M2:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[S1]], %[[D8]], %{{[0-9]+}} : i32 -> i32
// CHECK: %[[B2:[0-9]+]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[IN2:[0-9]+]] = llvm.icmp "slt" %[[POS]], %[[B2]] : i32
// CHECK-NEXT: %[[A2:[0-9]+]] = arith.maxsi %[[S1]], %[[M2]] : i32
// CHECK-NEXT: %[[S2:[0-9]+]] = llvm.select %[[IN2]], %[[A2]], %[[S1]] : i1, i32
// CHECK: %[[D16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[M3:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[S2]], %[[D16]], %{{[0-9]+}} : i32 -> i32
// CHECK: %[[B3:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[IN3:[0-9]+]] = llvm.icmp "slt" %[[POS]], %[[B3]] : i32
// CHECK-NEXT: %[[A3:[0-9]+]] = arith.maxsi %[[S2]], %[[M3]] : i32
// CHECK-NEXT: %[[S3:[0-9]+]] = llvm.select %[[IN3]], %[[A3]], %[[S2]] : i1, i32
// CHECK: %[[DB:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[AFTER:[0-9]+]] = nvvm.shfl.sync down %{{[0-9]+}}, %[[S3]], %[[DB]], %{{[0-9]+}} : i32 -> i32
// CHECK-NEXT: %[[AP:[0-9]+]] = arith.maxsi %[[X]], %[[AFTER]] : i32
// CHECK-NEXT: %[[P:[0-9]+]] = llvm.select %[[FIRST]], %[[X]], %[[AP]] : i1, i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.printf {{.*}}, %[[P]] : i32, i32, i32, i32, i32, i32
func.func @reverse_rows_max(%x: tensor<4x8xi32, #cols>) {
  %s = blk.scan %x {axis = 1 : i32, reverse} : tensor<4x8xi32, #cols> -> tensor<4x8xi32, #cols> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.maxsi %a, %b : i32
    blk.reduce.return %c : i32
  }
  blk.print "s" %s : tensor<4x8xi32, #cols>
  return
}
}
