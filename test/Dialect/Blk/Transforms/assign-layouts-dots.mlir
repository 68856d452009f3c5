// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Two dots of different tensor-core shapes whose results an add ties: the
// group takes the first dot's layout (m16n8k16); the e4m3 dot reads its
// operands in its own shape (m16n8k32, 4 elements per register pair: kWidth
// 4) and writes its result in it, converted into the group's after it.
// CHECK-LABEL: func.func @tied_dots
// CHECK: %[[P:.+]] = blk.dot {{.+}} -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 16]>>
// CHECK: blk.convert_layout {{.+}} -> tensor<16x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 32]>, kWidth = 4>>
// CHECK: blk.convert_layout {{.+}} -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 32]>, kWidth = 4>>
// CHECK: %[[Q:.+]] = blk.dot {{.+}} -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 32]>>
// CHECK-NEXT: %[[QG:.+]] = blk.convert_layout %[[Q]] : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 32]>> -> tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 16]>>
// CHECK-NEXT: arith.addf %[[P]], %[[QG]] : tensor<16x64xf32, #blk.mma<version = 2, warpsPerCTA = {{\[}}1, 4], instrShape = {{\[}}16, 8, 16]>>
func.func @tied_dots(%pa: !blk.ptr<bf16>, %pb: !blk.ptr<bf16>, %pc: !blk.ptr<f8E4M3FN>, %po: !blk.ptr<f32>) {
  %r16 = blk.arange 0, 16 : tensor<16xi32>
  %r64 = blk.arange 0, 64 : tensor<64xi32>
  %c64 = arith.constant 64 : i32
  %rows16 = blk.expand_dims %r16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rows64 = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %s16 = blk.splat %c64 : i32 -> tensor<16x1xi32>
  %s64 = blk.splat %c64 : i32 -> tensor<64x1xi32>
  %o16 = arith.muli %rows16, %s16 : tensor<16x1xi32>
  %o64 = arith.muli %rows64, %s64 : tensor<64x1xi32>
  %b16 = blk.broadcast %o16 : tensor<16x1xi32> -> tensor<16x64xi32>
  %b64 = blk.broadcast %o64 : tensor<64x1xi32> -> tensor<64x64xi32>
  %c16x = blk.broadcast %cols : tensor<1x64xi32> -> tensor<16x64xi32>
  %c64x = blk.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %i16 = arith.addi %b16, %c16x : tensor<16x64xi32>
  %i64 = arith.addi %b64, %c64x : tensor<64x64xi32>
  %pa1 = blk.splat %pa : !blk.ptr<bf16> -> tensor<16x64x!blk.ptr<bf16>>
  %pa2 = blk.addptr %pa1, %i16 : tensor<16x64x!blk.ptr<bf16>>, tensor<16x64xi32>
  %a = blk.load %pa2 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x64x!blk.ptr<bf16>>) -> tensor<16x64xbf16>
  %pb1 = blk.splat %pb : !blk.ptr<bf16> -> tensor<64x64x!blk.ptr<bf16>>
  %pb2 = blk.addptr %pb1, %i64 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
  %b = blk.load %pb2 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %p = blk.dot %a, %b, %zero {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 16]>} : tensor<16x64xbf16>, tensor<64x64xbf16>, tensor<16x64xf32> -> tensor<16x64xf32>
  %pc1 = blk.splat %pc : !blk.ptr<f8E4M3FN> -> tensor<64x64x!blk.ptr<f8E4M3FN>>
  %pc2 = blk.addptr %pc1, %i64 : tensor<64x64x!blk.ptr<f8E4M3FN>>, tensor<64x64xi32>
  %c = blk.load %pc2 {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x64x!blk.ptr<f8E4M3FN>>) -> tensor<64x64xf8E4M3FN>
  %p8 = arith.truncf %p : tensor<16x64xf32> to tensor<16x64xf8E4M3FN>
  %q = blk.dot %p8, %c, %zero {mma = #blk.mma<version = 2, warpsPerCTA = [1, 4], instrShape = [16, 8, 32]>} : tensor<16x64xf8E4M3FN>, tensor<64x64xf8E4M3FN>, tensor<16x64xf32> -> tensor<16x64xf32>
  %sum = arith.addf %p, %q : tensor<16x64xf32>
  %po1 = blk.splat %po : !blk.ptr<f32> -> tensor<16x64x!blk.ptr<f32>>
  %po2 = blk.addptr %po1, %i16 : tensor<16x64x!blk.ptr<f32>>, tensor<16x64xi32>
  blk.store %po2, %sum : (tensor<16x64x!blk.ptr<f32>>, tensor<16x64xf32>) -> ()
  return
}
