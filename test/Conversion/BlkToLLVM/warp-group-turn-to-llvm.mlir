// RUN: blk-opt %s --convert-blk-to-llvm | FileCheck %s

// Three warpgroups (12 warps) taking turns on named barriers 1..3, warpgroup
// w = tid / 128: `open` is the last warpgroup's arrival on barrier 1 (the
// first turn, warpgroup 0's); `take` waits on barrier 1 + w; `pass` arrives
// on barrier 1 + (w + 1) % 3; `close` is warpgroup 0's wait on barrier 1 for
// the last hand-over. 256 threads each: one warpgroup waits, one arrives.
// CHECK-LABEL: func.func @turns
// CHECK: %[[C128:.*]] = llvm.mlir.constant(128 : i32)
// CHECK: %[[W:.*]] = llvm.udiv %{{.*}}, %[[C128]]
// CHECK: %[[LAST:.*]] = llvm.mlir.constant(2 : i32)
// CHECK: llvm.icmp "eq" %[[W]], %[[LAST]]
// CHECK: @p bar.arrive 1, 256;
// CHECK: %[[W1:.*]] = llvm.udiv
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[TAKE:.*]] = llvm.add %[[W1]], %[[ONE]]
// CHECK: llvm.inline_asm has_side_effects "bar.sync $0, 256;", "r" %[[TAKE]]
// CHECK: %[[W2:.*]] = llvm.udiv
// CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i32)
// CHECK: %[[NEXT:.*]] = llvm.add %[[W2]], %{{.*}}
// CHECK: %[[MOD:.*]] = llvm.urem %[[NEXT]], %[[THREE]]
// CHECK: %[[PASS:.*]] = llvm.add %[[MOD]], %{{.*}}
// CHECK: llvm.inline_asm has_side_effects "bar.arrive $0, 256;", "r" %[[PASS]]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: llvm.icmp "eq" %{{.*}}, %[[ZERO]]
// CHECK: @p bar.sync 1, 256;
module attributes {blk.num_warps = 12 : i32} {
  func.func @turns() attributes {blk.kernel} {
    blk.warp_group_turn "open"
    blk.warp_group_turn "take"
    blk.warp_group_turn "pass"
    blk.warp_group_turn "close"
    return
  }
}
