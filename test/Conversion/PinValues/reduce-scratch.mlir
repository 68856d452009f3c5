// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm --cse | FileCheck %s

// Reductions: which partials each step combines, and where the partials of
// each warp go in the scratch buffer. A thread first folds its registers
// along the axis in order; then, per lane bit along the axis, a butterfly
// shuffle with that bit as the lane delta, the lower lane's value always the
// left operand; then every warp stores its partial at
// slot = warpAlongAxis * (result elements) + (result element), and every
// thread folds the partials of warps 0, 1, ... in order. Each operand of a
// multi-operand reduction has a part of the buffer of its own.

// A column sum: 32x16 f32, each thread two adjacent columns (+8 repeated),
// rows over lane bits 2-4 and both warp bits: three shuffle steps (lane
// deltas 4, 8, 16), then four partials per column through shared memory.
#c = #blk.blocked<sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#cols = #blk.slice<dim = 0, parent = #c>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @sum_columns
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[X2:[0-9a-z_]+]]: f32, %[[X3:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q2:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q3:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// Lane bit 2: delta 4, the upper lane (bit set) takes the shuffled value as the left operand.
// CHECK-NEXT: %[[C4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[B4:[0-9]+]] = llvm.and %[[LANE]], %[[C4]] : i32
// CHECK-NEXT: %[[UP4:[0-9]+]] = llvm.icmp "ne" %[[B4]], %[[C0]] : i32
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[S0:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[X0]], %[[C4]], %[[C31]] : f32 -> f32
// CHECK-NEXT: %[[L0:[0-9]+]] = llvm.select %[[UP4]], %[[S0]], %[[X0]] : i1, f32
// CHECK-NEXT: %[[R0:[0-9]+]] = llvm.select %[[UP4]], %[[X0]], %[[S0]] : i1, f32
// CHECK-NEXT: %[[T0:[0-9]+]] = arith.addf %[[L0]], %[[R0]] : f32
// CHECK-NEXT: %[[S1:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[X1]], %[[C4]], %[[C31]] : f32 -> f32
// CHECK-NEXT: %[[L1:[0-9]+]] = llvm.select %[[UP4]], %[[S1]], %[[X1]] : i1, f32
// CHECK-NEXT: %[[R1:[0-9]+]] = llvm.select %[[UP4]], %[[X1]], %[[S1]] : i1, f32
// CHECK-NEXT: %[[T1:[0-9]+]] = arith.addf %[[L1]], %[[R1]] : f32
// CHECK: nvvm.shfl.sync bfly %[[ALL]], %[[X2]], %[[C4]], %[[C31]]
// CHECK: nvvm.shfl.sync bfly %[[ALL]], %[[X3]], %[[C4]], %[[C31]]
// Lane bit 3: delta 8, on the results of the first step.
// CHECK: %[[C8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[B8:[0-9]+]] = llvm.and %[[LANE]], %[[C8]] : i32
// CHECK-NEXT: %[[UP8:[0-9]+]] = llvm.icmp "ne" %[[B8]], %[[C0]] : i32
// CHECK-NEXT: %[[S0B:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[T0]], %[[C8]], %[[C31]] : f32 -> f32
// CHECK-NEXT: %[[L0B:[0-9]+]] = llvm.select %[[UP8]], %[[S0B]], %[[T0]] : i1, f32
// CHECK-NEXT: %[[R0B:[0-9]+]] = llvm.select %[[UP8]], %[[T0]], %[[S0B]] : i1, f32
// CHECK-NEXT: %[[T0B:[0-9]+]] = arith.addf %[[L0B]], %[[R0B]] : f32
// CHECK-NEXT: nvvm.shfl.sync bfly %[[ALL]], %[[T1]], %[[C8]], %[[C31]]
// Lane bit 4: delta 16.
// CHECK: %[[C16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[B16:[0-9]+]] = llvm.and %[[LANE]], %[[C16]] : i32
// CHECK-NEXT: %[[UP16:[0-9]+]] = llvm.icmp "ne" %[[B16]], %[[C0]] : i32
// CHECK-NEXT: %[[S0C:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[T0B]], %[[C16]], %[[C31]] : f32 -> f32
// CHECK-NEXT: %[[L0C:[0-9]+]] = llvm.select %[[UP16]], %[[S0C]], %[[T0B]] : i1, f32
// CHECK-NEXT: %[[R0C:[0-9]+]] = llvm.select %[[UP16]], %[[T0B]], %[[S0C]] : i1, f32
// CHECK-NEXT: %[[W0:[0-9]+]] = arith.addf %[[L0C]], %[[R0C]] : f32
// CHECK-NEXT: nvvm.shfl.sync bfly
// CHECK-NEXT: llvm.select
// CHECK-NEXT: llvm.select
// CHECK-NEXT: %[[W1:[0-9]+]] = arith.addf
// CHECK-NEXT: nvvm.shfl.sync bfly
// CHECK-NEXT: llvm.select
// CHECK-NEXT: llvm.select
// CHECK-NEXT: %[[W2:[0-9]+]] = arith.addf
// CHECK-NEXT: nvvm.shfl.sync bfly
// CHECK-NEXT: llvm.select
// CHECK-NEXT: llvm.select
// CHECK-NEXT: %[[W3:[0-9]+]] = arith.addf
// CHECK-NOT: nvvm.shfl.sync
// The warp's index along the axis: warp bits 0-1. The result element of
// register r: column (lane bits 0-1) * 2 + {0, 1, 8, 9}.
// CHECK: %[[WARP:[0-9]+]] = llvm.lshr %[[TID]], %{{[0-9]+}} : i32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[WSH:[0-9]+]] = llvm.lshr %[[WARP]], %[[C0]] : i32
// CHECK-NEXT: %[[WALONG:[0-9]+]] = llvm.and %[[WSH]], %[[C3]] : i32
// CHECK-NEXT: %[[LSH:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[LB:[0-9]+]] = llvm.and %[[LSH]], %[[C3]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[LB2:[0-9]+]] = llvm.shl %[[LB]], %[[C1]] : i32
// CHECK-NEXT: %[[COL:[0-9]+]] = llvm.xor %[[LB2]], %[[C0]] : i32
// CHECK: %[[COL1:[0-9]+]] = llvm.add %[[COL]], %[[C1]] : i32
// CHECK-NEXT: %[[COL8:[0-9]+]] = llvm.add %[[COL]], %[[C8]] : i32
// CHECK-NEXT: %[[C9:[0-9]+]] = llvm.mlir.constant(9 : i32) : i32
// CHECK-NEXT: %[[COL9:[0-9]+]] = llvm.add %[[COL]], %[[C9]] : i32
// Stores: partial of register r at warpAlong * 16 + column(r).
// CHECK-NEXT: %[[MINE:[0-9]+]] = llvm.mul %[[WALONG]], %[[C16]] : i32
// CHECK-NEXT: %[[I0:[0-9]+]] = llvm.add %[[MINE]], %[[COL]] : i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[A0:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[I0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[W0]], %[[A0]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[I1:[0-9]+]] = llvm.add %[[MINE]], %[[COL1]] : i32
// CHECK-NEXT: %[[A1:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[I1]]]
// CHECK-NEXT: llvm.store %[[W1]], %[[A1]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[I2:[0-9]+]] = llvm.add %[[MINE]], %[[COL8]] : i32
// CHECK-NEXT: %[[A2:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[I2]]]
// CHECK-NEXT: llvm.store %[[W2]], %[[A2]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[I3:[0-9]+]] = llvm.add %[[MINE]], %[[COL9]] : i32
// CHECK-NEXT: %[[A3:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[I3]]]
// CHECK-NEXT: llvm.store %[[W3]], %[[A3]] : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// Register 0 folds the partials of warps 0, 1, 2, 3 of its column, in order.
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.mul %[[C0]], %[[C16]] : i32
// CHECK-NEXT: %[[J00:[0-9]+]] = llvm.add %[[P0]], %[[COL]] : i32
// CHECK-NEXT: %[[B00:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[J00]]]
// CHECK-NEXT: %[[V00:[0-9]+]] = llvm.load %[[B00]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.mul %[[C1]], %[[C16]] : i32
// CHECK-NEXT: %[[J01:[0-9]+]] = llvm.add %[[P1]], %[[COL]] : i32
// CHECK-NEXT: %[[B01:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[J01]]]
// CHECK-NEXT: %[[V01:[0-9]+]] = llvm.load %[[B01]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F01:[0-9]+]] = arith.addf %[[V00]], %[[V01]] : f32
// CHECK-NEXT: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[P2:[0-9]+]] = llvm.mul %[[C2]], %[[C16]] : i32
// CHECK-NEXT: %[[J02:[0-9]+]] = llvm.add %[[P2]], %[[COL]] : i32
// CHECK-NEXT: %[[B02:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[J02]]]
// CHECK-NEXT: %[[V02:[0-9]+]] = llvm.load %[[B02]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F02:[0-9]+]] = arith.addf %[[F01]], %[[V02]] : f32
// CHECK-NEXT: %[[P3:[0-9]+]] = llvm.mul %[[C3]], %[[C16]] : i32
// CHECK-NEXT: %[[J03:[0-9]+]] = llvm.add %[[P3]], %[[COL]] : i32
// CHECK-NEXT: %[[B03:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[J03]]]
// CHECK-NEXT: %[[V03:[0-9]+]] = llvm.load %[[B03]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[SUM0:[0-9]+]] = arith.addf %[[F02]], %[[V03]] : f32
// Register 1 (column + 1) the same.
// CHECK-NEXT: %[[J10:[0-9]+]] = llvm.add %[[P0]], %[[COL1]] : i32
// CHECK-NEXT: %[[B10:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[J10]]]
// CHECK-NEXT: %[[V10:[0-9]+]] = llvm.load %[[B10]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[J11:[0-9]+]] = llvm.add %[[P1]], %[[COL1]] : i32
// CHECK-NEXT: %[[B11:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[J11]]]
// CHECK-NEXT: %[[V11:[0-9]+]] = llvm.load %[[B11]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F11:[0-9]+]] = arith.addf %[[V10]], %[[V11]] : f32
// CHECK-NEXT: %[[J12:[0-9]+]] = llvm.add %[[P2]], %[[COL1]] : i32
// CHECK: %[[J13:[0-9]+]] = llvm.add %[[P3]], %[[COL1]] : i32
// CHECK: %[[SUM1:[0-9]+]] = arith.addf %{{[0-9]+}}, %{{[0-9]+}} : f32
// Registers 2 and 3 (columns + 8, + 9).
// CHECK-NEXT: llvm.add %[[P0]], %[[COL8]] : i32
// CHECK: llvm.add %[[P3]], %[[COL8]] : i32
// CHECK: %[[SUM2:[0-9]+]] = arith.addf
// CHECK-NEXT: llvm.add %[[P0]], %[[COL9]] : i32
// CHECK: llvm.add %[[P3]], %[[COL9]] : i32
// CHECK: %[[SUM3:[0-9]+]] = arith.addf
// One thread per column stores: lane bits 2-4 and both warp bits clear.
// CHECK: %[[OWN:[0-9]+]] = llvm.and %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT: %[[G0:[0-9]+]] = llvm.bitcast %[[SUM0]] : f32 to i32
// CHECK-NEXT: "l,r,b" %[[Q0]], %[[G0]], %[[OWN]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[SUM1]] : f32 to i32
// CHECK-NEXT: "l,r,b" %[[Q1]], %[[G1]], %[[OWN]]
// CHECK-NEXT: %[[G2:[0-9]+]] = llvm.bitcast %[[SUM2]] : f32 to i32
// CHECK-NEXT: "l,r,b" %[[Q2]], %[[G2]], %[[OWN]]
// CHECK-NEXT: %[[G3:[0-9]+]] = llvm.bitcast %[[SUM3]] : f32 to i32
// CHECK-NEXT: "l,r,b" %[[Q3]], %[[G3]], %[[OWN]]
func.func @sum_columns(%x: tensor<32x16xf32, #c>, %p: tensor<16x!blk.ptr<f32>, #cols>) {
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<32x16xf32, #c>) -> tensor<16xf32, #cols> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    blk.reduce.return %t : f32
  }
  blk.store %p, %s {vec = 1 : i32} : (tensor<16x!blk.ptr<f32>, #cols>, tensor<16xf32, #cols>) -> ()
  return
}
}

// -----

// A two-operand reduction (max with its index, ties to the lower index)
// along the rows of 8x64: four registers along the row, lane deltas 1, 2, 4
// (lane bits 0-2 run along the row), warp bit 0 along the row. The values
// take bytes 0-63 of the buffer (2 partials x 8 rows x 4 bytes) and the
// indices bytes 64-127: one slot per operand, never shared.
#k = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]>
#rows = #blk.slice<dim = 1, parent = #k>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @argmax_rows
// CHECK-SAME: blk.shared = 128
// In-thread, registers in order: combine(combine(combine(r0, r1), r2), r3),
// the accumulated pair as the left operand.
// CHECK: %[[GT1:[0-9]+]] = arith.cmpf ogt, %arg1, %arg0 : f32
// CHECK-NEXT: %[[EQ1:[0-9]+]] = arith.cmpf oeq, %arg1, %arg0 : f32
// CHECK-NEXT: %[[LT1:[0-9]+]] = arith.cmpi slt, %arg5, %arg4 : i32
// CHECK-NEXT: %[[TIE1:[0-9]+]] = arith.andi %[[EQ1]], %[[LT1]] : i1
// CHECK-NEXT: %[[TAKE1:[0-9]+]] = arith.ori %[[GT1]], %[[TIE1]] : i1
// CHECK-NEXT: %[[V01:[0-9]+]] = arith.select %[[TAKE1]], %arg1, %arg0 : f32
// CHECK-NEXT: %[[I01:[0-9]+]] = arith.select %[[TAKE1]], %arg5, %arg4 : i32
// CHECK-NEXT: arith.cmpf ogt, %arg2, %[[V01]] : f32
// CHECK-NEXT: arith.cmpf oeq, %arg2, %[[V01]] : f32
// CHECK-NEXT: arith.cmpi slt, %arg6, %[[I01]] : i32
// CHECK: %[[V02:[0-9]+]] = arith.select %{{[0-9]+}}, %arg2, %[[V01]] : f32
// CHECK-NEXT: %[[I02:[0-9]+]] = arith.select %{{[0-9]+}}, %arg6, %[[I01]] : i32
// CHECK-NEXT: arith.cmpf ogt, %arg3, %[[V02]] : f32
// CHECK: %[[V03:[0-9]+]] = arith.select %{{[0-9]+}}, %arg3, %[[V02]] : f32
// CHECK-NEXT: %[[I03:[0-9]+]] = arith.select %{{[0-9]+}}, %arg7, %[[I02]] : i32
// Lane bit 0: both operands shuffled with delta 1 under one predicate.
// CHECK: %[[LANE:[0-9]+]] = llvm.and %{{[0-9]+}}, %[[C31:[0-9]+]] : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.and %[[LANE]], %[[C1]] : i32
// CHECK-NEXT: %[[UP1:[0-9]+]] = llvm.icmp "ne" %[[B1]], %[[C0]] : i32
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[SV:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[V03]], %[[C1]], %[[C31]] : f32 -> f32
// CHECK-NEXT: %[[LV:[0-9]+]] = llvm.select %[[UP1]], %[[SV]], %[[V03]] : i1, f32
// CHECK-NEXT: %[[RV:[0-9]+]] = llvm.select %[[UP1]], %[[V03]], %[[SV]] : i1, f32
// CHECK-NEXT: %[[SI:[0-9]+]] = nvvm.shfl.sync bfly %[[ALL]], %[[I03]], %[[C1]], %[[C31]] : i32 -> i32
// CHECK-NEXT: %[[LI:[0-9]+]] = llvm.select %[[UP1]], %[[SI]], %[[I03]] : i1, i32
// CHECK-NEXT: %[[RI:[0-9]+]] = llvm.select %[[UP1]], %[[I03]], %[[SI]] : i1, i32
// CHECK-NEXT: arith.cmpf ogt, %[[RV]], %[[LV]] : f32
// CHECK-NEXT: arith.cmpf oeq, %[[RV]], %[[LV]] : f32
// CHECK-NEXT: arith.cmpi slt, %[[RI]], %[[LI]] : i32
// Lane bits 1 and 2: deltas 2 and 4.
// CHECK: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: llvm.and %[[LANE]], %[[C2]] : i32
// CHECK-NEXT: %[[UP2:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: nvvm.shfl.sync bfly %[[ALL]], %{{[0-9]+}}, %[[C2]], %[[C31]] : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %[[ALL]], %{{[0-9]+}}, %[[C2]], %[[C31]] : i32 -> i32
// CHECK: %[[C4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.and %[[LANE]], %[[C4]] : i32
// CHECK-NEXT: llvm.icmp "ne"
// CHECK-NEXT: nvvm.shfl.sync bfly %[[ALL]], %{{[0-9]+}}, %[[C4]], %[[C31]] : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %[[ALL]], %{{[0-9]+}}, %[[C4]], %[[C31]] : i32 -> i32
// CHECK: %[[WV:[0-9]+]] = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT: %[[WI:[0-9]+]] = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NOT: nvvm.shfl.sync
// Warp bit 0 is the warp's index along the row; the row is lane bits 3-4
// ^ warp bit 1 << 2.
// CHECK: %[[WARP:[0-9]+]] = llvm.lshr %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %[[WSH0:[0-9]+]] = llvm.lshr %[[WARP]], %[[C0]] : i32
// CHECK-NEXT: %[[WALONG:[0-9]+]] = llvm.and %[[WSH0]], %[[C1]] : i32
// CHECK-NEXT: %[[WSH1:[0-9]+]] = llvm.lshr %[[WARP]], %[[C1]] : i32
// CHECK-NEXT: %[[WB1:[0-9]+]] = llvm.and %[[WSH1]], %[[C1]] : i32
// CHECK-NEXT: %[[W4:[0-9]+]] = llvm.shl %[[WB1]], %[[C2]] : i32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[LSH3:[0-9]+]] = llvm.lshr %[[LANE]], %[[C3]] : i32
// CHECK-NEXT: %[[LB:[0-9]+]] = llvm.and %[[LSH3]], %[[C3]] : i32
// CHECK-NEXT: %[[ROW:[0-9]+]] = llvm.xor %[[LB]], %[[W4]] : i32
// Value partial at [warpAlong * 8 + row] in part 0, index partial at the
// same slot of part 1, 64 bytes on.
// CHECK: %[[C8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[MINE:[0-9]+]] = llvm.mul %[[WALONG]], %[[C8]] : i32
// CHECK-NEXT: %[[SLOT:[0-9]+]] = llvm.add %[[MINE]], %[[ROW]] : i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[AV:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[WV]], %[[AV]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[PART1:[0-9]+]] = llvm.getelementptr %[[BASE]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[AI:[0-9]+]] = llvm.getelementptr %[[PART1]][%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT: llvm.store %[[WI]], %[[AI]] : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// Partials of warps 0 and 1, each pair from its own part, combined in order.
// CHECK-NEXT: %[[O0:[0-9]+]] = llvm.mul %[[C0]], %[[C8]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = llvm.add %[[O0]], %[[ROW]] : i32
// CHECK-NEXT: %[[PV0:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[K0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[LV0:[0-9]+]] = llvm.load %[[PV0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[PI0:[0-9]+]] = llvm.getelementptr %[[PART1]][%[[K0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT: %[[LI0:[0-9]+]] = llvm.load %[[PI0]] : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[O1:[0-9]+]] = llvm.mul %[[C1]], %[[C8]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = llvm.add %[[O1]], %[[ROW]] : i32
// CHECK-NEXT: %[[PV1:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[K1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[LV1:[0-9]+]] = llvm.load %[[PV1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[PI1:[0-9]+]] = llvm.getelementptr %[[PART1]][%[[K1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT: %[[LI1:[0-9]+]] = llvm.load %[[PI1]] : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[GTW:[0-9]+]] = arith.cmpf ogt, %[[LV1]], %[[LV0]] : f32
// CHECK-NEXT: %[[EQW:[0-9]+]] = arith.cmpf oeq, %[[LV1]], %[[LV0]] : f32
// CHECK-NEXT: %[[LTW:[0-9]+]] = arith.cmpi slt, %[[LI1]], %[[LI0]] : i32
// CHECK-NEXT: %[[TIEW:[0-9]+]] = arith.andi %[[EQW]], %[[LTW]] : i1
// CHECK-NEXT: %[[TAKEW:[0-9]+]] = arith.ori %[[GTW]], %[[TIEW]] : i1
// CHECK-NEXT: %[[MAXV:[0-9]+]] = arith.select %[[TAKEW]], %[[LV1]], %[[LV0]] : f32
// CHECK-NEXT: %[[MAXI:[0-9]+]] = arith.select %[[TAKEW]], %[[LI1]], %[[LI0]] : i32
// CHECK-NEXT: %[[OWN:[0-9]+]] = llvm.and %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT: %[[G:[0-9]+]] = llvm.bitcast %[[MAXV]] : f32 to i32
// CHECK-NEXT: "l,r,b" %arg8, %[[G]], %[[OWN]]
// CHECK-NEXT: "l,r,b" %arg9, %[[MAXI]], %[[OWN]]
func.func @argmax_rows(%x: tensor<8x64xf32, #k>, %i: tensor<8x64xi32, #k>, %pv: tensor<8x!blk.ptr<f32>, #rows>, %pi: tensor<8x!blk.ptr<i32>, #rows>) {
  %r:2 = blk.reduce %x, %i {axis = 1 : i32} : (tensor<8x64xf32, #k>, tensor<8x64xi32, #k>) -> (tensor<8xf32, #rows>, tensor<8xi32, #rows>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %b, %a : f32
    %eq = arith.cmpf oeq, %b, %a : f32
    %lt = arith.cmpi slt, %bi, %ai : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %v = arith.select %take, %b, %a : f32
    %vi = arith.select %take, %bi, %ai : i32
    blk.reduce.return %v, %vi : f32, i32
  }
  blk.store %pv, %r#0 : (tensor<8x!blk.ptr<f32>, #rows>, tensor<8xf32, #rows>) -> ()
  blk.store %pi, %r#1 : (tensor<8x!blk.ptr<i32>, #rows>, tensor<8xi32, #rows>) -> ()
  return
}
}
