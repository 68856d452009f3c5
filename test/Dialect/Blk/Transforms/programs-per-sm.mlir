// RUN: blk-opt %s --split-input-file --blk-programs-per-sm | FileCheck %s

// 8 warps, a 128x128 f32 wgmma accumulator (64 values per thread) and 104
// KiB of shared memory: two programs fit in an SM's shared memory, and
// their cap of 128 registers per thread leaves 64 beside the accumulators.
// CHECK-LABEL: func.func @two_programs
// CHECK-SAME: blk.programs_per_sm = 2 : i32
// More shared memory than two programs may share: no request.
// CHECK-LABEL: func.func @shared_memory_for_one
// CHECK-NOT: blk.programs_per_sm
// A 128x256 accumulator (128 values per thread) leaves no room at 128.
// CHECK-LABEL: func.func @accumulators_too_large
// CHECK-NOT: blk.programs_per_sm
// Producer warps set their registers with setmaxnreg.
// CHECK-LABEL: func.func @producer_warps
// CHECK-NOT: blk.programs_per_sm
// No wgmma: no request.
// CHECK-LABEL: func.func @no_wgmma
// CHECK-NOT: blk.programs_per_sm
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
#mma256 = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>
module attributes {blk.num_warps = 8 : i32} {
  func.func @two_programs(%acc: tensor<128x128xf32, #mma>) attributes {blk.kernel, blk.shared = 106496 : i64} {
    %c0 = arith.constant 0 : i32
    %a = blk.local_alloc : !blk.smem<[3, 128, 64], bf16, contig = 1>
    %b = blk.local_alloc : !blk.smem<[2, 64, 128], bf16, contig = 1>
    %d = blk.warp_group_dot %a[%c0], %b[%c0], %acc : !blk.smem<[3, 128, 64], bf16, contig = 1>, <[2, 64, 128], bf16, contig = 1>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    return
  }
  func.func @shared_memory_for_one(%acc: tensor<128x128xf32, #mma>) attributes {blk.kernel, blk.shared = 147456 : i64} {
    %c0 = arith.constant 0 : i32
    %a = blk.local_alloc : !blk.smem<[4, 128, 64], bf16, contig = 1>
    %b = blk.local_alloc : !blk.smem<[3, 64, 128], bf16, contig = 1>
    %d = blk.warp_group_dot %a[%c0], %b[%c0], %acc : !blk.smem<[4, 128, 64], bf16, contig = 1>, <[3, 64, 128], bf16, contig = 1>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    return
  }
  func.func @accumulators_too_large(%acc: tensor<128x256xf32, #mma256>) attributes {blk.kernel, blk.shared = 98304 : i64} {
    %c0 = arith.constant 0 : i32
    %a = blk.local_alloc : !blk.smem<[2, 128, 64], bf16, contig = 1>
    %b = blk.local_alloc : !blk.smem<[2, 64, 256], bf16, contig = 1>
    %d = blk.warp_group_dot %a[%c0], %b[%c0], %acc : !blk.smem<[2, 128, 64], bf16, contig = 1>, <[2, 64, 256], bf16, contig = 1>, tensor<128x256xf32, #mma256> -> tensor<128x256xf32, #mma256>
    return
  }
  func.func @producer_warps(%acc: tensor<128x128xf32, #mma>) attributes {blk.kernel, blk.shared = 106496 : i64, blk.producer_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %a = blk.local_alloc : !blk.smem<[3, 128, 64], bf16, contig = 1>
    %b = blk.local_alloc : !blk.smem<[2, 64, 128], bf16, contig = 1>
    %d = blk.warp_group_dot %a[%c0], %b[%c0], %acc : !blk.smem<[3, 128, 64], bf16, contig = 1>, <[2, 64, 128], bf16, contig = 1>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    return
  }
  func.func @no_wgmma() attributes {blk.kernel, blk.shared = 1024 : i64} {
    return
  }
}

// -----

// 4 warps: two programs leave 256 registers per thread, a cap that binds
// nothing (a thread has 255).
// CHECK-LABEL: func.func @four_warps
// CHECK-NOT: blk.programs_per_sm
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @four_warps(%acc: tensor<64x128xf32, #mma>) attributes {blk.kernel, blk.shared = 49152 : i64} {
    %c0 = arith.constant 0 : i32
    %a = blk.local_alloc : !blk.smem<[3, 64, 64], bf16, contig = 1>
    %b = blk.local_alloc : !blk.smem<[2, 64, 128], bf16, contig = 1>
    %d = blk.warp_group_dot %a[%c0], %b[%c0], %acc : !blk.smem<[3, 64, 64], bf16, contig = 1>, <[2, 64, 128], bf16, contig = 1>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
    return
  }
}
