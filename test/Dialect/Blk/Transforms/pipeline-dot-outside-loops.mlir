// RUN: blk-opt %s --blk-pipeline-dot=num-stages=3 | FileCheck %s
// RUN: blk-opt %s --blk-pipeline-dot="num-stages=3 shared-memory-limit=4096" | FileCheck %s --check-prefix=FULL

// A version 3 dot in no loop: B (computed in registers) is written into a
// one-slot buffer where it is made, published by a fence and a barrier, and
// the dot becomes a warp_group_dot with A from registers, completed right
// after; B's conversion to the operand layout is gone.
// CHECK-LABEL: func.func @product
// CHECK: %[[B:.+]] = arith.truncf
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[BUF:.+]] = blk.local_alloc : <[1, 64, 64], bf16, contig = 1>
// CHECK-NEXT: blk.local_store %[[B]], %[[BUF]][%[[ZERO]]]
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK-NOT: opIdx = 1
// CHECK: %[[D:.+]] = blk.warp_group_dot %{{.+}}, %[[BUF]][%[[ZERO]]], %{{.+}} : tensor<128x64xbf16
// CHECK-NEXT: %[[W:.+]] = blk.warp_group_dot_wait %[[D]] {pending = 0 : i32}
// CHECK-NEXT: return %[[W]]
// Where B's buffer would not fit beside the buffers live at the dot, the
// dot stays.
// FULL-LABEL: func.func @product
// FULL-NOT: blk.local_alloc
// FULL: blk.dot
// FULL-NOT: blk.warp_group_dot
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#dota = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#dotb = #blk.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
module attributes {blk.num_warps = 8 : i32} {
  func.func @product(%a: tensor<128x64xbf16, #dota>, %x: tensor<64x64xf32, #blocked>, %acc: tensor<128x64xf32, #mma>) -> tensor<128x64xf32, #mma> attributes {blk.kernel} {
    %b = arith.truncf %x : tensor<64x64xf32, #blocked> to tensor<64x64xbf16, #blocked>
    %bc = blk.convert_layout %b : tensor<64x64xbf16, #blocked> -> tensor<64x64xbf16, #dotb>
    %d = blk.dot %a, %bc, %acc {mma = #mma} : tensor<128x64xbf16, #dota>, tensor<64x64xbf16, #dotb>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}
