// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm --cse --canonicalize | FileCheck %s

// blk.sort runs the bitonic network on the source's layout: a pair in one
// thread's registers is compared and selected in place, a pair across lanes
// meets by a butterfly shuffle, a pair across warps through shared memory.
#a = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#w = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {blk.num_warps = 2 : i32} {
// Four f32, two per thread (lanes 2..31 hold copies): no shared memory.
// Stage 1 pairs the registers, ascending where bit 1 of the position (lane
// bit 0) is clear; stage 2 pairs lanes 0 and 1, then the registers again,
// ascending: the last compare needs no flip.
// CHECK-LABEL: func.func @registers_and_lanes
// CHECK-SAME: (%[[X0:.+]]: f32, %[[X1:.+]]: f32) attributes {blk.shared = 0 : i64}
// CHECK: %[[LANE1:.+]] = llvm.icmp "ne"
// CHECK-NEXT: %[[GT:.+]] = llvm.fcmp "ogt" %[[X0]], %[[X1]] : f32
// CHECK-NEXT: %[[SWAP:.+]] = llvm.xor %[[GT]], %[[LANE1]] : i1
// CHECK-NEXT: %[[A0:.+]] = llvm.select %[[SWAP]], %[[X1]], %[[X0]] : i1, f32
// CHECK-NEXT: %[[A1:.+]] = llvm.select %[[SWAP]], %[[X0]], %[[X1]] : i1, f32
// CHECK-NEXT: %[[P0:.+]] = nvvm.shfl.sync bfly %{{.+}}, %[[A0]], %{{.+}}, %{{.+}} : f32 -> f32
// CHECK-NEXT: %[[P1:.+]] = nvvm.shfl.sync bfly %{{.+}}, %[[A1]], %{{.+}}, %{{.+}} : f32 -> f32
// CHECK-NEXT: %[[LO0:.+]] = llvm.select %[[LANE1]], %[[P0]], %[[A0]] : i1, f32
// CHECK-NEXT: %[[UP0:.+]] = llvm.select %[[LANE1]], %[[A0]], %[[P0]] : i1, f32
// CHECK-NEXT: %[[GT0:.+]] = llvm.fcmp "ogt" %[[LO0]], %[[UP0]] : f32
// CHECK-NEXT: %[[B0:.+]] = llvm.select %[[GT0]], %[[P0]], %[[A0]] : i1, f32
// CHECK: %[[GT1:.+]] = llvm.fcmp "ogt" %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: %[[B1:.+]] = llvm.select %[[GT1]], %[[P1]], %[[A1]] : i1, f32
// CHECK-NEXT: %[[GTL:.+]] = llvm.fcmp "ogt" %[[B0]], %[[B1]] : f32
// CHECK-NEXT: %[[Y0:.+]] = llvm.select %[[GTL]], %[[B1]], %[[B0]] : i1, f32
// CHECK-NEXT: %[[Y1:.+]] = llvm.select %[[GTL]], %[[B0]], %[[B1]] : i1, f32
// CHECK-NOT: barrier
// CHECK: gpu.printf {{.+}} %[[Y0]]
// CHECK: gpu.printf {{.+}} %[[Y1]]
func.func @registers_and_lanes(%x: tensor<4xf32, #a>) {
  %y = blk.sort %x : tensor<4xf32, #a> -> tensor<4xf32, #a>
  blk.print "y" %y : tensor<4xf32, #a>
  return
}

// 64 u32 over two warps, descending, cut to the top 4: the distance-32
// exchanges go through a 256-byte buffer (each element at its position, the
// partner read at position ^ 32), every compare unsigned; the last stage
// flips every compare (descending); the sorted rows go through the buffer
// once more and each result register reads its position.
// CHECK-LABEL: func.func @warps_and_topk
// CHECK-SAME: attributes {blk.shared = 256 : i64}
// CHECK-NOT: llvm.icmp "sgt"
// CHECK: llvm.store %[[V:.+]], %[[SLOT:.+]] : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[OTHER:.+]] = llvm.xor %[[POS:.+]], %{{.+}} : i32
// CHECK-NEXT: %[[AT:.+]] = llvm.getelementptr %{{.+}}[%[[OTHER]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT: %[[P:.+]] = llvm.load %[[AT]] : !llvm.ptr<3> -> i32
// CHECK: %[[GT:.+]] = llvm.icmp "ugt"
// CHECK-NEXT: %[[SWAP:.+]] = llvm.xor %[[GT]], %[[TRUE:.+]] : i1
// CHECK-NEXT: llvm.select %[[SWAP]], %[[P]], %[[V]] : i1, i32
// CHECK: nvvm.barrier0
// CHECK-NEXT: llvm.store %[[LAST:.+]], %[[SLOT]] : i32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK: %[[Y:.+]] = llvm.load %{{.+}} : !llvm.ptr<3> -> i32
// CHECK-NOT: barrier
// CHECK: gpu.printf {{.+}} %[[Y]]
func.func @warps_and_topk(%x: tensor<64xi32, #w>) {
  %y = blk.sort %x {descending, is_unsigned} : tensor<64xi32, #w> -> tensor<4xi32, #w>
  blk.print "y" %y : tensor<4xi32, #w>
  return
}

// A sort along lanes and registers only needs no buffer even for i64 (two
// shuffles per exchange, of the halves).
// CHECK-LABEL: func.func @wide_elements
// CHECK-SAME: attributes {blk.shared = 0 : i64}
// CHECK: llvm.icmp "sgt" %{{.+}}, %{{.+}} : i64
// CHECK-COUNT-2: nvvm.shfl.sync bfly
func.func @wide_elements(%x: tensor<4xi64, #a>) {
  %y = blk.sort %x : tensor<4xi64, #a> -> tensor<4xi64, #a>
  blk.print "y" %y : tensor<4xi64, #a>
  return
}
}
