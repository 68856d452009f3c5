// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm=scan-lane-bits=0 | FileCheck %s
// scan-lane-bits=0: lane bits take the xor butterflies pinned here (scan-lane-scan.mlir pins the shfl.up scan).

// Scans: which partial each step combines with which. Every register keeps
// a prefix (its scan so far) and a total (its group's); per lane bit along
// the axis, the total is shuffled with that bit as the delta and the upper
// lane (bit set) puts the partner's total IN FRONT of its prefix, the lower
// one keeps its prefix (a reverse scan: the lower lane puts it AFTER, the
// upper one keeps); the new total is other+total in the upper lane and
// total+other in the lower. No --cse here: the combiners are commutative,
// and CSE would merge a+b with b+a, hiding the operand order. Constants are
// matched with CHECK-DAG where they are made right before their use.

// 128 elements, 2 per thread, 2 warps, forward: the thread's run (one
// add), five lane steps (deltas 1, 2, 4, 8, 16; both registers share one
// total, so one shuffle per step), one warp step through shared memory.
#w2 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// The run: prefix1 = x0 + x1, which is also the run's total.
// CHECK: %[[SEQ:[0-9]+]] = arith.addf %[[X0]], %[[X1]] : f32
// Lane bit 0.
// CHECK-DAG: %[[D1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[S1:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[SEQ]], %[[D1]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK-DAG: %[[Z1:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[M1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[LB1:[0-9]+]] = llvm.and %[[LANE]], %[[M1]] : i32
// CHECK-NEXT: %[[UP1:[0-9]+]] = llvm.icmp "ne" %[[LB1]], %[[Z1]] : i32
// CHECK-NEXT: %[[A01:[0-9]+]] = arith.addf %[[S1]], %[[X0]] : f32
// CHECK-NEXT: %[[P01:[0-9]+]] = llvm.select %[[UP1]], %[[A01]], %[[X0]] : i1, f32
// CHECK-DAG: %[[TL1:[0-9]+]] = arith.addf %[[SEQ]], %[[S1]] : f32
// CHECK-DAG: %[[TU1:[0-9]+]] = arith.addf %[[S1]], %[[SEQ]] : f32
// CHECK: %[[T1:[0-9]+]] = llvm.select %[[UP1]], %[[TU1]], %[[TL1]] : i1, f32
// CHECK-NEXT: %[[A11:[0-9]+]] = arith.addf %[[S1]], %[[SEQ]] : f32
// CHECK-NEXT: %[[P11:[0-9]+]] = llvm.select %[[UP1]], %[[A11]], %[[SEQ]] : i1, f32
// Lane bit 1: the new total is shuffled, delta 2.
// CHECK-DAG: %[[D2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[S2:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T1]], %[[D2]], %{{[0-9]+}} : f32 -> f32
// CHECK-DAG: %[[M2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[LB2:[0-9]+]] = llvm.and %[[LANE]], %[[M2]] : i32
// CHECK-NEXT: %[[UP2:[0-9]+]] = llvm.icmp "ne" %[[LB2]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[A02:[0-9]+]] = arith.addf %[[S2]], %[[P01]] : f32
// CHECK-NEXT: %[[P02:[0-9]+]] = llvm.select %[[UP2]], %[[A02]], %[[P01]] : i1, f32
// CHECK-DAG: %[[TL2:[0-9]+]] = arith.addf %[[T1]], %[[S2]] : f32
// CHECK-DAG: %[[TU2:[0-9]+]] = arith.addf %[[S2]], %[[T1]] : f32
// CHECK: %[[T2:[0-9]+]] = llvm.select %[[UP2]], %[[TU2]], %[[TL2]] : i1, f32
// CHECK-NEXT: %[[A12:[0-9]+]] = arith.addf %[[S2]], %[[P11]] : f32
// CHECK-NEXT: %[[P12:[0-9]+]] = llvm.select %[[UP2]], %[[A12]], %[[P11]] : i1, f32
// Lane bits 2, 3, 4: deltas 4, 8, 16, each shuffling the total the step before made.
// CHECK-DAG: %[[D4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[S4:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T2]], %[[D4]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP4:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A04:[0-9]+]] = arith.addf %[[S4]], %[[P02]] : f32
// CHECK-NEXT: %[[P04:[0-9]+]] = llvm.select %[[UP4]], %[[A04]], %[[P02]] : i1, f32
// CHECK: %[[T4:[0-9]+]] = llvm.select %[[UP4]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK-NEXT: %[[A14:[0-9]+]] = arith.addf %[[S4]], %[[P12]] : f32
// CHECK-NEXT: %[[P14:[0-9]+]] = llvm.select %[[UP4]], %[[A14]], %[[P12]] : i1, f32
// CHECK-DAG: %[[D8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[S8:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T4]], %[[D8]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP8:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A08:[0-9]+]] = arith.addf %[[S8]], %[[P04]] : f32
// CHECK-NEXT: %[[P08:[0-9]+]] = llvm.select %[[UP8]], %[[A08]], %[[P04]] : i1, f32
// CHECK: %[[T8:[0-9]+]] = llvm.select %[[UP8]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK-NEXT: %[[A18:[0-9]+]] = arith.addf %[[S8]], %[[P14]] : f32
// CHECK-NEXT: %[[P18:[0-9]+]] = llvm.select %[[UP8]], %[[A18]], %[[P14]] : i1, f32
// CHECK-DAG: %[[D16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[S16:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T8]], %[[D16]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP16:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A016:[0-9]+]] = arith.addf %[[S16]], %[[P08]] : f32
// CHECK-NEXT: %[[P016:[0-9]+]] = llvm.select %[[UP16]], %[[A016]], %[[P08]] : i1, f32
// CHECK-DAG: %[[TL16:[0-9]+]] = arith.addf %[[T8]], %[[S16]] : f32
// CHECK-DAG: %[[TU16:[0-9]+]] = arith.addf %[[S16]], %[[T8]] : f32
// CHECK: %[[T16:[0-9]+]] = llvm.select %[[UP16]], %[[TU16]], %[[TL16]] : i1, f32
// CHECK-NEXT: %[[A116:[0-9]+]] = arith.addf %[[S16]], %[[P18]] : f32
// CHECK-NEXT: %[[P116:[0-9]+]] = llvm.select %[[UP16]], %[[A116]], %[[P18]] : i1, f32
// CHECK-NOT: nvvm.shfl.sync
// The warp step: the warp's total at slot warp * 32 + lane, the partner
// warp's (warp ^ 1) read back, warp bit 0 set puts it in front.
// CHECK: %[[WARP:[0-9]+]] = llvm.lshr %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %[[C32:[0-9]+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[WOFF:[0-9]+]] = llvm.mul %[[WARP]], %[[C32]] : i32
// CHECK-NEXT: %[[THREAD:[0-9]+]] = llvm.add %[[WOFF]], %[[LANE]] : i32
// CHECK-DAG: %[[SLOT0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[SLOTS:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[TS:[0-9]+]] = llvm.mul %[[THREAD]], %[[SLOTS]] : i32
// CHECK-NEXT: %[[MINE:[0-9]+]] = llvm.add %[[TS]], %[[SLOT0]] : i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[AT:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[MINE]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[T16]], %[[AT]] : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-NEXT: %[[WB:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[PARTNER:[0-9]+]] = llvm.xor %[[WARP]], %[[WB]] : i32
// CHECK-NEXT: %[[C32B:[0-9]+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[POFF:[0-9]+]] = llvm.mul %[[PARTNER]], %[[C32B]] : i32
// CHECK-NEXT: %[[PTHREAD:[0-9]+]] = llvm.add %[[POFF]], %[[LANE]] : i32
// CHECK: %[[PS:[0-9]+]] = llvm.mul %[[PTHREAD]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[THEIRS:[0-9]+]] = llvm.add %[[PS]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[BASE2:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[AT2:[0-9]+]] = llvm.getelementptr %[[BASE2]][%[[THEIRS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[OTHER:[0-9]+]] = llvm.load %[[AT2]] : !llvm.ptr<3> -> f32
// CHECK-DAG: %[[WZ:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[WM:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[WBIT:[0-9]+]] = llvm.and %[[WARP]], %[[WM]] : i32
// CHECK-NEXT: %[[UPW:[0-9]+]] = llvm.icmp "ne" %[[WBIT]], %[[WZ]] : i32
// CHECK-NEXT: %[[AW0:[0-9]+]] = arith.addf %[[OTHER]], %[[P016]] : f32
// CHECK-NEXT: %[[R0:[0-9]+]] = llvm.select %[[UPW]], %[[AW0]], %[[P016]] : i1, f32
// CHECK: %[[AW1:[0-9]+]] = arith.addf %[[OTHER]], %[[P116]] : f32
// CHECK-NEXT: %[[R1:[0-9]+]] = llvm.select %[[UPW]], %[[AW1]], %[[P116]] : i1, f32
// CHECK: %[[G0:[0-9]+]] = llvm.bitcast %[[R0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[G0]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[R1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[G1]]
func.func @cumsum(%x: tensor<128xf32, #w2>, %p: tensor<128x!blk.ptr<f32>, #w2>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<128xf32, #w2> -> tensor<128xf32, #w2> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %p, %s {vec = 1 : i32} : (tensor<128x!blk.ptr<f32>, #w2>, tensor<128xf32, #w2>) -> ()
  return
}
}

// -----

// A reverse scan, 64 elements, 2 per thread, one warp: the run combines
// x0 + x1 into register 0 (register 1 keeps x1), and each lane step adds
// the partner's total AFTER the prefix in the lower lane.
#w1 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @reverse_cumsum
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK: %[[SEQ:[0-9]+]] = arith.addf %[[X0]], %[[X1]] : f32
// CHECK-DAG: %[[D1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[S1:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[SEQ]], %[[D1]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP1:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A01:[0-9]+]] = arith.addf %[[SEQ]], %[[S1]] : f32
// CHECK-NEXT: %[[P01:[0-9]+]] = llvm.select %[[UP1]], %[[SEQ]], %[[A01]] : i1, f32
// CHECK-DAG: %[[TL1:[0-9]+]] = arith.addf %[[SEQ]], %[[S1]] : f32
// CHECK-DAG: %[[TU1:[0-9]+]] = arith.addf %[[S1]], %[[SEQ]] : f32
// CHECK: %[[T1:[0-9]+]] = llvm.select %[[UP1]], %[[TU1]], %[[TL1]] : i1, f32
// CHECK-NEXT: %[[A11:[0-9]+]] = arith.addf %[[X1]], %[[S1]] : f32
// CHECK-NEXT: %[[P11:[0-9]+]] = llvm.select %[[UP1]], %[[X1]], %[[A11]] : i1, f32
// CHECK-DAG: %[[D2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[S2:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T1]], %[[D2]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP2:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A02:[0-9]+]] = arith.addf %[[P01]], %[[S2]] : f32
// CHECK-NEXT: %[[P02:[0-9]+]] = llvm.select %[[UP2]], %[[P01]], %[[A02]] : i1, f32
// CHECK-DAG: %[[TL2:[0-9]+]] = arith.addf %[[T1]], %[[S2]] : f32
// CHECK-DAG: %[[TU2:[0-9]+]] = arith.addf %[[S2]], %[[T1]] : f32
// CHECK: %[[T2:[0-9]+]] = llvm.select %[[UP2]], %[[TU2]], %[[TL2]] : i1, f32
// CHECK-NEXT: %[[A12:[0-9]+]] = arith.addf %[[P11]], %[[S2]] : f32
// CHECK-NEXT: %[[P12:[0-9]+]] = llvm.select %[[UP2]], %[[P11]], %[[A12]] : i1, f32
// CHECK-DAG: %[[D4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[S4:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T2]], %[[D4]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP4:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A04:[0-9]+]] = arith.addf %[[P02]], %[[S4]] : f32
// CHECK-NEXT: %[[P04:[0-9]+]] = llvm.select %[[UP4]], %[[P02]], %[[A04]] : i1, f32
// CHECK-DAG: %[[TL4:[0-9]+]] = arith.addf %[[T2]], %[[S4]] : f32
// CHECK-DAG: %[[TU4:[0-9]+]] = arith.addf %[[S4]], %[[T2]] : f32
// CHECK: %[[T4:[0-9]+]] = llvm.select %[[UP4]], %[[TU4]], %[[TL4]] : i1, f32
// CHECK-NEXT: %[[A14:[0-9]+]] = arith.addf %[[P12]], %[[S4]] : f32
// CHECK-NEXT: %[[P14:[0-9]+]] = llvm.select %[[UP4]], %[[P12]], %[[A14]] : i1, f32
// CHECK-DAG: %[[D8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[S8:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T4]], %[[D8]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP8:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A08:[0-9]+]] = arith.addf %[[P04]], %[[S8]] : f32
// CHECK-NEXT: %[[P08:[0-9]+]] = llvm.select %[[UP8]], %[[P04]], %[[A08]] : i1, f32
// CHECK-DAG: %[[TL8:[0-9]+]] = arith.addf %[[T4]], %[[S8]] : f32
// CHECK-DAG: %[[TU8:[0-9]+]] = arith.addf %[[S8]], %[[T4]] : f32
// CHECK: %[[T8:[0-9]+]] = llvm.select %[[UP8]], %[[TU8]], %[[TL8]] : i1, f32
// CHECK-NEXT: %[[A18:[0-9]+]] = arith.addf %[[P14]], %[[S8]] : f32
// CHECK-NEXT: %[[P18:[0-9]+]] = llvm.select %[[UP8]], %[[P14]], %[[A18]] : i1, f32
// CHECK-DAG: %[[D16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: %[[S16:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T8]], %[[D16]], %{{[0-9]+}} : f32 -> f32
// CHECK: %[[UP16:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A016:[0-9]+]] = arith.addf %[[P08]], %[[S16]] : f32
// CHECK-NEXT: %[[P016:[0-9]+]] = llvm.select %[[UP16]], %[[P08]], %[[A016]] : i1, f32
// CHECK-DAG: %[[TL16:[0-9]+]] = arith.addf %[[T8]], %[[S16]] : f32
// CHECK-DAG: %[[TU16:[0-9]+]] = arith.addf %[[S16]], %[[T8]] : f32
// CHECK: %[[T16:[0-9]+]] = llvm.select %[[UP16]], %[[TU16]], %[[TL16]] : i1, f32
// CHECK-NEXT: %[[A116:[0-9]+]] = arith.addf %[[P18]], %[[S16]] : f32
// CHECK-NEXT: %[[P116:[0-9]+]] = llvm.select %[[UP16]], %[[P18]], %[[A116]] : i1, f32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: %[[G0:[0-9]+]] = llvm.bitcast %[[P016]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[G0]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[P116]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[G1]]
func.func @reverse_cumsum(%x: tensor<64xf32, #w1>, %p: tensor<64x!blk.ptr<f32>, #w1>) {
  %s = blk.scan %x {axis = 0 : i32, reverse} : tensor<64xf32, #w1> -> tensor<64xf32, #w1> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %p, %s {vec = 1 : i32} : (tensor<64x!blk.ptr<f32>, #w1>, tensor<64xf32, #w1>) -> ()
  return
}
}

// -----

// 64 elements over 32 threads, one each, the block repeated: register 1
// holds element lane + 32, so the block is two chunks. Each chunk is scanned
// over the lanes on its own (chunk 0 shuffles register 0's totals, chunk 1
// register 1's), then chunk 1's prefix takes chunk 0's total in front: the
// carry.
#c1 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @chunks
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: i32, %[[X1:[0-9a-z_]+]]: i32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// Chunk 0, lane bit 0, on x0.
// CHECK: %[[S01:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[X0]], %{{[0-9]+}}, %{{[0-9]+}} : i32 -> i32
// CHECK: %[[UP01:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A01:[0-9]+]] = arith.addi %[[S01]], %[[X0]] : i32
// CHECK-NEXT: %[[P01:[0-9]+]] = llvm.select %[[UP01]], %[[A01]], %[[X0]] : i1, i32
// CHECK-DAG: arith.addi %[[X0]], %[[S01]] : i32
// CHECK-DAG: arith.addi %[[S01]], %[[X0]] : i32
// CHECK: %[[T01:[0-9]+]] = llvm.select %[[UP01]], %{{[0-9]+}}, %{{[0-9]+}} : i1, i32
// CHECK: nvvm.shfl.sync bfly %{{[0-9]+}}, %[[T01]], %{{[0-9]+}}, %{{[0-9]+}} : i32 -> i32
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// Chunk 0, lane bit 4: its final prefix and total.
// CHECK: %[[S016:[0-9]+]] = nvvm.shfl.sync bfly
// CHECK: %[[UP016:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A016:[0-9]+]] = arith.addi %[[S016]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[R0:[0-9]+]] = llvm.select %[[UP016]], %[[A016]], %{{[0-9]+}} : i1, i32
// CHECK: %[[TOTAL0:[0-9]+]] = llvm.select %[[UP016]], %{{[0-9]+}}, %{{[0-9]+}} : i1, i32
// Chunk 1 starts over from x1: it does not see chunk 0's lanes.
// CHECK-NEXT: llvm.mlir.constant
// CHECK: %[[S11:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[X1]], %{{[0-9]+}}, %{{[0-9]+}} : i32 -> i32
// CHECK: %[[UP11:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A11:[0-9]+]] = arith.addi %[[S11]], %[[X1]] : i32
// CHECK-NEXT: llvm.select %[[UP11]], %[[A11]], %[[X1]] : i1, i32
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: nvvm.shfl.sync bfly
// CHECK: %[[S116:[0-9]+]] = nvvm.shfl.sync bfly
// CHECK: %[[UP116:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[A116:[0-9]+]] = arith.addi %[[S116]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[PRE1:[0-9]+]] = llvm.select %[[UP116]], %[[A116]], %{{[0-9]+}} : i1, i32
// CHECK: %[[TOTAL1:[0-9]+]] = llvm.select %[[UP116]], %{{[0-9]+}}, %{{[0-9]+}} : i1, i32
// The carry: chunk 0's total in front of chunk 1's prefix.
// CHECK-NEXT: %[[R1:[0-9]+]] = arith.addi %[[TOTAL0]], %[[PRE1]] : i32
// CHECK-NOT: nvvm.shfl.sync
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[R0]]
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[R1]]
func.func @chunks(%x: tensor<64xi32, #c1>, %p: tensor<64x!blk.ptr<i32>, #c1>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<64xi32, #c1> -> tensor<64xi32, #c1> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    blk.reduce.return %c : i32
  }
  blk.store %p, %s {vec = 1 : i32} : (tensor<64x!blk.ptr<i32>, #c1>, tensor<64xi32, #c1>) -> ()
  return
}
}
