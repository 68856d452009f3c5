// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm=scan-lane-bits=0 | FileCheck %s
// scan-lane-bits=0: lane bits take the xor butterflies pinned here (scan-lane-scan.mlir pins the shfl.up scan).

// A scan of two operands (f32 and i32, as associative_scan of a tuple): every
// step moves both parts of each total, and combines them in one application
// of the region with the lower partial's parts first. The combiner subtracts
// (not commutative) so that the operand order shows. 64 elements, one per
// thread, 2 warps: five lane steps, then one warp step through scratch, where
// each operand has a part of its own: f32 at byte 0, i32 at byte 256 (32
// lanes x 2 warps x 4 bytes each; scripts/mutate.py low-scan-part).
#w2 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @pairs
// CHECK-SAME: (%[[X:[0-9a-z_]+]]: f32, %[[I:[0-9a-z_]+]]: i32,
// CHECK-SAME: blk.shared = 512
// Lane bit 0: both parts shuffled, then the upper lane takes partner - own.
// CHECK: %[[SX:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[X]], %{{[0-9]+}}, %{{[0-9]+}} : f32 -> f32
// CHECK: %[[SI:[0-9]+]] = nvvm.shfl.sync bfly %{{[0-9]+}}, %[[I]], %{{[0-9]+}}, %{{[0-9]+}} : i32 -> i32
// CHECK: %[[UP:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[AX:[0-9]+]] = arith.subf %[[SX]], %[[X]] : f32
// CHECK-NEXT: %[[AI:[0-9]+]] = arith.subi %[[SI]], %[[I]] : i32
// CHECK-NEXT: llvm.select %[[UP]], %[[AX]], %[[X]] : i1, f32
// CHECK-NEXT: llvm.select %[[UP]], %[[AI]], %[[I]] : i1, i32
// The new totals: own - partner in the lower lane, partner - own in the upper.
// CHECK-NEXT: %[[LX:[0-9]+]] = arith.subf %[[X]], %[[SX]] : f32
// CHECK-NEXT: %[[LI:[0-9]+]] = arith.subi %[[I]], %[[SI]] : i32
// CHECK-NEXT: %[[HX:[0-9]+]] = arith.subf %[[SX]], %[[X]] : f32
// CHECK-NEXT: %[[HI:[0-9]+]] = arith.subi %[[SI]], %[[I]] : i32
// CHECK-NEXT: %[[TX:[0-9]+]] = llvm.select %[[UP]], %[[HX]], %[[LX]] : i1, f32
// CHECK-NEXT: %[[TI:[0-9]+]] = llvm.select %[[UP]], %[[HI]], %[[LI]] : i1, i32
// Lane bit 1 shuffles both new totals.
// CHECK: nvvm.shfl.sync bfly %{{[0-9]+}}, %[[TX]], %{{[0-9]+}}, %{{[0-9]+}} : f32 -> f32
// CHECK: nvvm.shfl.sync bfly %{{[0-9]+}}, %[[TI]], %{{[0-9]+}}, %{{[0-9]+}} : i32 -> i32
// After lane bit 4, the warp step: each part stored at slot warp * 32 + lane of its own part.
// CHECK: %[[PX:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%[[SLOT:[0-9]+]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.mlir.addressof @blk_shared
// CHECK-NEXT: %[[PART1:[0-9]+]] = llvm.getelementptr %[[B1]][256] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[PI:[0-9]+]] = llvm.getelementptr %[[PART1]][%[[SLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[PX]] : f32, !llvm.ptr<3>
// CHECK-NEXT: llvm.store %{{[0-9]+}}, %[[PI]] : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// The partner warp's parts, from the same two parts.
// CHECK: %[[QX:[0-9]+]] = llvm.getelementptr %{{[0-9]+}}[%[[QSLOT:[0-9]+]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.addressof @blk_shared
// CHECK-NEXT: %[[QPART1:[0-9]+]] = llvm.getelementptr %[[C1]][256] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[QI:[0-9]+]] = llvm.getelementptr %[[QPART1]][%[[QSLOT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT: %[[OX:[0-9]+]] = llvm.load %[[QX]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[OI:[0-9]+]] = llvm.load %[[QI]] : !llvm.ptr<3> -> i32
// The upper warp puts the lower warp's total in front of its prefix.
// CHECK: %[[WUP:[0-9]+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[FX:[0-9]+]] = arith.subf %[[OX]], %[[PREFX:[0-9]+]] : f32
// CHECK-NEXT: %[[FI:[0-9]+]] = arith.subi %[[OI]], %[[PREFI:[0-9]+]] : i32
// CHECK-NEXT: llvm.select %[[WUP]], %[[FX]], %[[PREFX]] : i1, f32
// CHECK-NEXT: llvm.select %[[WUP]], %[[FI]], %[[PREFI]] : i1, i32
func.func @pairs(%x: tensor<64xf32, #w2>, %i: tensor<64xi32, #w2>, %px: tensor<64x!blk.ptr<f32>, #w2>,
                 %pi: tensor<64x!blk.ptr<i32>, #w2>) attributes {blk.kernel} {
  %s:2 = blk.scan %x, %i {axis = 0 : i32} : tensor<64xf32, #w2>, tensor<64xi32, #w2> -> tensor<64xf32, #w2>, tensor<64xi32, #w2> {
  ^bb0(%a0: f32, %a1: i32, %b0: f32, %b1: i32):
    %c0 = arith.subf %a0, %b0 : f32
    %c1 = arith.subi %a1, %b1 : i32
    blk.reduce.return %c0, %c1 : f32, i32
  }
  blk.store %px, %s#0 : (tensor<64x!blk.ptr<f32>, #w2>, tensor<64xf32, #w2>) -> ()
  blk.store %pi, %s#1 : (tensor<64x!blk.ptr<i32>, #w2>, tensor<64xi32, #w2>) -> ()
  return
}
}
