// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm=scan-lane-bits=0 | FileCheck %s
// scan-lane-bits=0: lane bits take the xor butterflies pinned here (scan-lane-scan.mlir pins the shfl.up scan).

// A register bit between a scan's lane bits and its warp bits: an mma
// accumulator scanned down its rows holds rows g and g + 8 (register bit 1)
// of lanes g = lane / 4 (lane bits 2, 3, 4), with the next 16 rows in the
// other warp. After the three lane steps each register has a prefix and a
// total that differ; the register step then puts the TOTAL of row g in
// front of the prefix of row g + 8, and makes both totals total(g) +
// total(g + 8) (scripts/mutate.py low-scan-partial: the prefix of row g
// instead of its total). No --cse, as in scan-steps.mlir.

#mma = #blk.mma<version = 2, warpsPerCTA = [2, 1], instrShape = [16, 8, 16]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @rows
// Three lane steps, one shuffle per register each.
// CHECK-COUNT-12: nvvm.shfl.sync
// The last lane step: prefix and total of registers 0 to 3 (register 0:
// row g, column 2t; 1: column 2t + 1; 2 and 3: row g + 8).
// CHECK: %[[P0:[0-9]+]] = llvm.select %[[UP:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[T0:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[P1:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[T1:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[P2:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[T2:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[P3:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// CHECK: %[[T3:[0-9]+]] = llvm.select %[[UP]], %{{[0-9]+}}, %{{[0-9]+}} : i1, f32
// The register step.
// CHECK-NEXT: %{{[0-9]+}} = arith.addf %[[T0]], %[[P2]] : f32
// CHECK-NEXT: %{{[0-9]+}} = arith.addf %[[T0]], %[[T2]] : f32
// CHECK-NEXT: %{{[0-9]+}} = arith.addf %[[T1]], %[[P3]] : f32
// CHECK-NEXT: %{{[0-9]+}} = arith.addf %[[T1]], %[[T3]] : f32
func.func @rows(%x: tensor<32x8xf32, #mma>, %p: tensor<32x8x!blk.ptr<f32>, #mma>) {
  %s = blk.scan %x {axis = 0 : i32} : tensor<32x8xf32, #mma> -> tensor<32x8xf32, #mma> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %p, %s {vec = 1 : i32} : (tensor<32x8x!blk.ptr<f32>, #mma>, tensor<32x8xf32, #mma>) -> ()
  return
}
}
