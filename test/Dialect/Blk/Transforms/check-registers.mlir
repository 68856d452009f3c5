// RUN: blk-opt %s --split-input-file --blk-check-registers --verify-diagnostics -o /dev/null

// A [1024, 16] block over one warp: 512 values per thread, one warning at
// the kernel's largest block (the pointers beside it do not count).
#b = #blk.blocked<sizePerThread = [32, 16], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]>
module attributes {blk.num_warps = 1 : i32} {
func.func @one_warp(%p: tensor<1024x16x!blk.ptr<i32>, #b>) {
  // expected-warning @+1 {{a block of 16384 elements holds 512 values per thread with 1 warps, more than the 255 registers a thread has: expect register spills (slow loads and stores of local memory); use a smaller block or more warps}}
  %x = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #b>) -> tensor<1024x16xi32, #b>
  %y = arith.addi %x, %x : tensor<1024x16xi32, #b>
  blk.store %p, %y : (tensor<1024x16x!blk.ptr<i32>, #b>, tensor<1024x16xi32, #b>) -> ()
  return
}
}

// -----

// The same block over 4 warps: 128 values per thread, no warning; nor for
// a block of 512 pointers per thread.
#b = #blk.blocked<sizePerThread = [8, 16], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#p = #blk.blocked<sizePerThread = [1, 512], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
func.func @four_warps(%p: tensor<1024x16x!blk.ptr<i32>, #b>, %q: !blk.ptr<f32>) {
  %x = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #b>) -> tensor<1024x16xi32, #b>
  %y = arith.addi %x, %x : tensor<1024x16xi32, #b>
  blk.store %p, %y : (tensor<1024x16x!blk.ptr<i32>, #b>, tensor<1024x16xi32, #b>) -> ()
  %qs = blk.splat %q : !blk.ptr<f32> -> tensor<128x512x!blk.ptr<f32>, #p>
  return
}
}
