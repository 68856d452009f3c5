// RUN: blk-opt %s --split-input-file --blk-pipeline-dot="num-stages=4 shared-memory-limit=143360" | FileCheck %s

// A persistent kernel's K loop whose loop over tiles also holds a 64 KiB
// buffer (a TMA store's, made in front of it): the buffer lives while the
// rings do, so the rings take one tile ahead less than num-stages asks
// (three slots of 24 KiB, 136 KiB in all, under the 140 KiB limit) and the
// producer warpgroup still fits beside them.
// CHECK-LABEL: func.func @live_buffer
// CHECK-DAG: blk.local_alloc : <[3, 128, 64], f16, contig = 1>
// CHECK-DAG: blk.local_alloc : <[3, 64, 64], f16, contig = 1>
// CHECK: blk.producer_warp

#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#opa = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#opb = #blk.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
module attributes {blk.num_warps = 8 : i32} {
  func.func @live_buffer(%arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}, %arg6: !blk.tensordesc<[128, 64], f16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 5, -1>}, %arg7: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 4, -1>}) attributes {blk.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %buf = blk.local_alloc : <[1, 128, 256], f16, contig = 1>
    %5 = blk.program_id 0 : i32
    scf.for %arg8 = %5 to %arg4 step %c4_i32  : i32 {
      %7 = arith.muli %arg8, %c64_i32 : i32
      %10 = blk.splat %cst : f32 -> tensor<128x64xf32, #mma>
      %11 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %10) -> (tensor<128x64xf32, #mma>)  : i32 {
        %35 = blk.descriptor_load %arg6[%7, %arg9] : !blk.tensordesc<[128, 64], f16> -> tensor<128x64xf16, #blocked>
        %36 = blk.descriptor_load %arg7[%arg9, %7] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked>
        %37 = blk.convert_layout %35 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #opa>
        %38 = blk.convert_layout %36 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #opb>
        %39 = blk.dot %37, %38, %arg10 {mma = #mma} : tensor<128x64xf16, #opa>, tensor<64x64xf16, #opb>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
        scf.yield %39 : tensor<128x64xf32, #mma>
      } {blk.warp_specialize}
      blk.tma_store_wait %buf : !blk.smem<[1, 128, 256], f16, contig = 1>
    }
    return
  }
}

// -----

// The same buffer used only before the loop over tiles: the rings take
// num-stages - 1 tiles ahead and two slots more (five).
// CHECK-LABEL: func.func @dead_buffer
// CHECK-DAG: blk.local_alloc : <[5, 128, 64], f16, contig = 1>
// CHECK-DAG: blk.local_alloc : <[5, 64, 64], f16, contig = 1>

#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#opa = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#opb = #blk.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
module attributes {blk.num_warps = 8 : i32} {
  func.func @dead_buffer(%arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}, %arg6: !blk.tensordesc<[128, 64], f16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 3, 5>, blk.tma_strides = array<i64: 5, -1>}, %arg7: !blk.tensordesc<[64, 64], f16> {blk.tma_base = 1 : i64, blk.tma_shape = array<i64: 5, 4>, blk.tma_strides = array<i64: 4, -1>}) attributes {blk.kernel} {
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c4_i32 = arith.constant 4 : i32
    %c64_i32 = arith.constant 64 : i32
    %buf = blk.local_alloc : <[1, 128, 256], f16, contig = 1>
    blk.tma_store_wait %buf : !blk.smem<[1, 128, 256], f16, contig = 1>
    %5 = blk.program_id 0 : i32
    scf.for %arg8 = %5 to %arg4 step %c4_i32  : i32 {
      %7 = arith.muli %arg8, %c64_i32 : i32
      %10 = blk.splat %cst : f32 -> tensor<128x64xf32, #mma>
      %11 = scf.for %arg9 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg10 = %10) -> (tensor<128x64xf32, #mma>)  : i32 {
        %35 = blk.descriptor_load %arg6[%7, %arg9] : !blk.tensordesc<[128, 64], f16> -> tensor<128x64xf16, #blocked>
        %36 = blk.descriptor_load %arg7[%arg9, %7] : !blk.tensordesc<[64, 64], f16> -> tensor<64x64xf16, #blocked>
        %37 = blk.convert_layout %35 : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #opa>
        %38 = blk.convert_layout %36 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #opb>
        %39 = blk.dot %37, %38, %arg10 {mma = #mma} : tensor<128x64xf16, #opa>, tensor<64x64xf16, #opb>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
        scf.yield %39 : tensor<128x64xf32, #mma>
      } {blk.warp_specialize}
      
    }
    return
  }
}
