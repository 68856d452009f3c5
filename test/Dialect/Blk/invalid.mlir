// RUN: blk-opt %s -split-input-file -verify-diagnostics

func.func @arange_not_pow2() {
  // expected-error @+1 {{size (end - start) must be a power of two, got 100}}
  %r = blk.arange 0, 100 : tensor<100xi32>
  return
}

// -----

func.func @arange_size_mismatch() {
  // expected-error @+1 {{result size 64 does not match end - start = 128}}
  %r = blk.arange 0, 128 : tensor<64xi32>
  return
}

// -----

func.func @splat_type(%x: f32) {
  // expected-error @+1 {{element type of the result must be the source type}}
  %b = blk.splat %x : f32 -> tensor<128xi32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<128x!blk.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{offset must have the shape of the pointer}}
  %q = blk.addptr %p, %o : tensor<128x!blk.ptr<f32>>, tensor<64xi32>
  return
}

// -----

func.func @load_type(%p: !blk.ptr<f32>) {
  // expected-error @+1 {{result element type must be the pointee type 'f32'}}
  %x = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<f32>) -> f16
  return
}

// -----

func.func @store_type(%p: !blk.ptr<f32>, %v: f16) {
  // expected-error @+1 {{stored element type must be the pointee type 'f32'}}
  blk.store %p, %v : (!blk.ptr<f32>, f16) -> ()
  return
}

// -----

func.func @store_vec(%p: !blk.ptr<f32>, %v: f32) {
  // expected-error @+1 {{vec must be a power of two}}
  blk.store %p, %v {vec = 3 : i32} : (!blk.ptr<f32>, f32) -> ()
  return
}

// -----

func.func @load_vec_dim(%p: tensor<4x!blk.ptr<f32>>) {
  // expected-error @+1 {{vec_dim must be a dimension of the pointer block}}
  %x = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>, vec_dim = 1 : i32} : (tensor<4x!blk.ptr<f32>>) -> tensor<4xf32>
  return
}

// -----

func.func @assume_empty(%x: i32) {
  // expected-error @+1 {{needs a divisibility, a contiguity or a constancy}}
  %y = blk.assume %x : i32
  return
}

// -----

func.func @assume_constancy(%x: tensor<16xi32>) {
  // expected-error @+1 {{constancy must be a power of two}}
  %y = blk.assume %x {constancy = 6 : i64} : tensor<16xi32>
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
func.func @bad_layout(%x: tensor<128xi32, #blk.blocked<sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]>>) {
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<16xi32>) {
  // expected-error @+1 {{result must be the source with a dimension of size 1 inserted at 0}}
  %y = blk.expand_dims %x {axis = 0 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  return
}

// -----

func.func @broadcast_shape(%x: tensor<16x2xi32>) {
  // expected-error @+1 {{dimension 1 of size 2 cannot broadcast to 8}}
  %y = blk.broadcast %x : tensor<16x2xi32> -> tensor<16x8xi32>
  return
}

// -----

func.func @atomic_kind_type(%p: !blk.ptr<f16>, %v: f16) {
  // expected-error @+1 {{atomic max does not apply to 'f16'}}
  %o = blk.atomic_rmw max, acq_rel, gpu %p, %v : (!blk.ptr<f16>, f16) -> f16
  return
}

// -----

func.func @atomic_pointee(%p: !blk.ptr<f32>, %v: i32) {
  // expected-error @+1 {{operands must have the pointee type 'f32'}}
  %o = blk.atomic_rmw add, acq_rel, gpu %p, %v : (!blk.ptr<f32>, i32) -> i32
  return
}

// -----

func.func @atomic_load_release(%p: !blk.ptr<i32>) {
  // expected-error @+1 {{orders as acquire or relaxed, got release}}
  %o = blk.atomic_load release, gpu %p : (!blk.ptr<i32>) -> i32
  return
}

// -----

func.func @atomic_store_acquire(%p: !blk.ptr<i32>, %v: i32) {
  // expected-error @+1 {{orders as release or relaxed, got acquire}}
  blk.atomic_store acquire, gpu %p, %v : (!blk.ptr<i32>, i32) -> ()
  return
}

// -----

func.func @atomic_load_width(%p: !blk.ptr<i8>) {
  // expected-error @+1 {{needs 16-, 32- or 64-bit elements}}
  %o = blk.atomic_load relaxed, gpu %p : (!blk.ptr<i8>) -> i8
  return
}

// -----

func.func @atomic_store_pointee(%p: !blk.ptr<f32>, %v: i32) {
  // expected-error @+1 {{operands must have the pointee type 'f32'}}
  blk.atomic_store relaxed, gpu %p, %v : (!blk.ptr<f32>, i32) -> ()
  return
}

// -----

func.func @cas_width(%p: !blk.ptr<i16>, %v: i16) {
  // expected-error @+1 {{compare-and-swap needs 32- or 64-bit elements}}
  %o = blk.atomic_cas relaxed, sys %p, %v, %v : (!blk.ptr<i16>, i16, i16) -> i16
  return
}

// -----

func.func @reshape_count(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{cannot reshape 64 elements into 32}}
  %y = blk.reshape %x : tensor<16x4xf32> -> tensor<32xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{result must be the 2-D source with its dimensions swapped}}
  %y = blk.trans %x : tensor<16x4xf32> -> tensor<16x4xf32>
  return
}

// -----

func.func @scan_combiner(%x: tensor<16xf32>) {
  // expected-error @+1 {{the combiner must return one value of the element type}}
  %s = blk.scan %x {axis = 0 : i32} : tensor<16xf32> -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    blk.reduce.return %c : i1
  }
  return
}

// -----

func.func @scan_shapes(%x: tensor<16xf32>, %i: tensor<32xi32>) {
  // expected-error @+1 {{operands must have the same shape and layout}}
  %s:2 = blk.scan %x, %i {axis = 0 : i32} : tensor<16xf32>, tensor<32xi32> -> tensor<16xf32>, tensor<32xi32> {
  ^bb0(%a0: f32, %a1: i32, %b0: f32, %b1: i32):
    blk.reduce.return %a0, %a1 : f32, i32
  }
  return
}

// -----

func.func @scan_results(%x: tensor<16xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{needs one result per operand}}
  %s = blk.scan %x, %i {axis = 0 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32> {
  ^bb0(%a0: f32, %a1: i32, %b0: f32, %b1: i32):
    blk.reduce.return %a0, %a1 : f32, i32
  }
  return
}

// -----

func.func @scan_tuple_combiner_args(%x: tensor<16xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{the combiner takes two arguments of each operand's element type}}
  %s:2 = blk.scan %x, %i {axis = 0 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>, tensor<16xi32> {
  ^bb0(%a0: f32, %b0: f32, %a1: i32, %b1: i32):
    blk.reduce.return %a0, %a1 : f32, i32
  }
  return
}

// -----

func.func @scan_tuple_combiner_results(%x: tensor<16xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{the combiner must return one value of each operand's element type}}
  %s:2 = blk.scan %x, %i {axis = 0 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>, tensor<16xi32> {
  ^bb0(%a0: f32, %a1: i32, %b0: f32, %b1: i32):
    blk.reduce.return %a1, %a0 : i32, f32
  }
  return
}

// -----

func.func @dot_inner(%a: tensor<32x16xf32>, %b: tensor<32x32xf32>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{inner dimensions differ: 16 and 32}}
  %d = blk.dot %a, %b, %c : tensor<32x16xf32>, tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<16x32xf32>) {
  // expected-error @+1 {{accumulator must be 32x32}}
  %d = blk.dot %a, %b, %c : tensor<32x16xf32>, tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @dot_types(%a: tensor<32x16xf16>, %b: tensor<16x32xbf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{a and b must have one element type, got 'f16' and 'bf16'}}
  %d = blk.dot %a, %b, %c : tensor<32x16xf16>, tensor<16x32xbf16>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @dot_acc_type(%a: tensor<32x16xi8>, %b: tensor<16x32xi8>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{multiplies f32/f16/bf16/f8 into f32 or i8 into i32, got 'i8' into 'f32'}}
  %d = blk.dot %a, %b, %c : tensor<32x16xi8>, tensor<16x32xi8>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @dot_f8_with_f16(%a: tensor<32x16xf8E4M3FN>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{a and b must have one element type, got 'f8E4M3FN' and 'f16'}}
  %d = blk.dot %a, %b, %c : tensor<32x16xf8E4M3FN>, tensor<16x32xf16>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @dot_f8_acc(%a: tensor<32x16xf8E4M3FN>, %b: tensor<16x32xf8E5M2>, %c: tensor<32x32xi32>) {
  // expected-error @+1 {{multiplies f32/f16/bf16/f8 into f32 or i8 into i32, got 'f8E4M3FN' into 'i32'}}
  %d = blk.dot %a, %b, %c : tensor<32x16xf8E4M3FN>, tensor<16x32xf8E5M2>, tensor<32x32xi32> -> tensor<32x32xi32>
  return
}

// -----

func.func @dot_result(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{result must have the accumulator's type}}
  %d = blk.dot %a, %b, %c : tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x32xf32> -> tensor<32x32xf16>
  return
}

// -----

// A 16-element bf16 line is 32 bytes but 8 lines do not fill a 1024-byte atom.
// expected-error @+1 {{a chunk of 8 lines of 32 bytes does not fill whole 1024-byte swizzle atoms}}
func.func @ring_atoms(%r: !blk.smem<[2, 8, 16], bf16, contig = 1>) {
  return
}

// -----

// expected-error @+1 {{a line along the contiguous dimension must be 32, 64 or a multiple of 128 bytes, got 16}}
func.func @ring_line(%r: !blk.smem<[2, 64, 8], bf16, contig = 1>) {
  return
}

// -----

// expected-error @+1 {{wgmma needs warpsPerCTA [4 * warpgroups, 1]}}
func.func @wgmma_warps(%c: tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [2, 2], instrShape = [64, 64, 16]>>) {
  return
}

// -----

// expected-error @+1 {{mma layout version must be 2 (mma.sync) or 3 (wgmma), got 1}}
func.func @mma_version(%c: tensor<64x64xf32, #blk.mma<version = 1, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>) {
  return
}

// -----

#l = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @copy_shape(%p: tensor<64x32x!blk.ptr<bf16>, #l>, %s: i32) {
  %r = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{the pointers must match a slot of '!blk.smem<[2, 32, 64], bf16, contig = 1>'}}
  blk.async_copy %p into %r[%s] {vec = 8 : i32} : tensor<64x32x!blk.ptr<bf16>, #l> -> !blk.smem<[2, 32, 64], bf16, contig = 1>
  return
}

// -----

#l = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @copy_width(%p: tensor<64x32x!blk.ptr<bf16>, #l>, %s: i32) {
  %r = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  // expected-error @+1 {{copies 4, 8 or 16 bytes per access, got 2}}
  blk.async_copy %p into %r[%s] : tensor<64x32x!blk.ptr<bf16>, #l> -> !blk.smem<[2, 64, 32], bf16, contig = 1>
  return
}

// -----

#mma = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>
func.func @wgmma_layout(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{the accumulator needs a version 3 (wgmma) mma layout}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 32], bf16, contig = 1>, !blk.smem<[2, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>
func.func @wgmma_fp8_mn_major(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 64], f8E4M3FN, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 64, 64], f8E4M3FN, contig = 1>
  // expected-error @+1 {{reads 8-bit operands only K-major (A's lines along K, B's along K)}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 64], f8E4M3FN, contig = 1>, !blk.smem<[2, 64, 64], f8E4M3FN, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>
func.func @wgmma_fp8_k_step(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 48], f8E4M3FN, contig = 0>
  %b = blk.local_alloc : !blk.smem<[2, 48, 64], f8E4M3FN, contig = 1>
  // expected-error @+1 {{needs rows in slabs of 64 and K in steps of 32}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 48], f8E4M3FN, contig = 0>, !blk.smem<[2, 48, 64], f8E4M3FN, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_shapes(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 64, 64], bf16, contig = 1>
  // expected-error @+1 {{tiles 64x32 and 64x64 do not multiply into 64x64}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 32], bf16, contig = 1>, !blk.smem<[2, 64, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @wgmma_register_a_layout(%a: tensor<64x32xbf16, #blocked>, %c: tensor<64x64xf32, #mma>, %s: i32) {
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{a register operand A needs a #blk.dot_op layout with opIdx 0 and kWidth 2}}
  %d = blk.warp_group_dot %a, %b[%s], %c : tensor<64x32xbf16, #blocked>, !blk.smem<[2, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#mma8 = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#dot = #blk.dot_op<opIdx = 0, parent = #mma8, kWidth = 2>
func.func @wgmma_register_a_warps(%a: tensor<64x32xbf16, #dot>, %c: tensor<64x64xf32, #mma>, %s: i32) {
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{a register operand A must be laid out for the accumulator's warps (a version 3 parent)}}
  %d = blk.warp_group_dot %a, %b[%s], %c : tensor<64x32xbf16, #dot>, !blk.smem<[2, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#dot = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
func.func @wgmma_register_a_slot(%a: tensor<64x32xbf16, #dot>, %c: tensor<64x64xf32, #mma>, %s: i32) {
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{a register operand A takes no slot}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : tensor<64x32xbf16, #dot>, !blk.smem<[2, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_ring_a_slot(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{operand A in shared memory needs a slot}}
  %d = blk.warp_group_dot %a, %b[%s], %c : !blk.smem<[2, 64, 32], bf16, contig = 1>, !blk.smem<[2, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

func.func @dot_precision(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{input_precision must be "ieee" or "tf32", got "tf32x3"}}
  %d = blk.dot %a, %b, %c {input_precision = "tf32x3"} : tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @dot_tf32_f16(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{input_precision "tf32" needs f32 operands, got 'f16'}}
  %d = blk.dot %a, %b, %c {input_precision = "tf32"} : tensor<32x16xf16>, tensor<16x32xf16>, tensor<32x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @descriptor_rank(%p: !blk.ptr<f32>, %m: i32, %s: i64) {
  // expected-error @+1 {{takes 2 sizes and strides for blocks of rank 2, got 1}}
  %d = blk.make_tensor_descriptor %p, [%m], [%s] : !blk.ptr<f32> -> !blk.tensordesc<[16, 16], f32>
  return
}

// -----

func.func @descriptor_element(%p: !blk.ptr<f16>, %m: i32, %s: i64) {
  // expected-error @+1 {{the base must point to the descriptor's element type}}
  %d = blk.make_tensor_descriptor %p, [%m, %m], [%s, %s] : !blk.ptr<f16> -> !blk.tensordesc<[16, 16], f32>
  return
}

// -----

func.func @descriptor_block(%d: !blk.tensordesc<[16, 16], f32>, %o: i32) {
  // expected-error @+1 {{the block must be 'tensor<16x16xf32>' (without a layout, leading 1s optional), got 'tensor<16x8xf32>'}}
  %x = blk.descriptor_load %d[%o, %o] : !blk.tensordesc<[16, 16], f32> -> tensor<16x8xf32>
  return
}

// -----

// Only leading dimensions of size 1 may be left out of the loaded block.
func.func @descriptor_batched_block(%d: !blk.tensordesc<[2, 16, 16], f32>, %o: i32) {
  // expected-error @+1 {{the block must be 'tensor<2x16x16xf32>' (without a layout, leading 1s optional), got 'tensor<16x16xf32>'}}
  %x = blk.descriptor_load %d[%o, %o, %o] : !blk.tensordesc<[2, 16, 16], f32> -> tensor<16x16xf32>
  return
}

// -----

// expected-error @+1 {{a tensor descriptor's blocks have 1 to 5 dimensions, got 6}}
func.func @descriptor_rank(%d: !blk.tensordesc<[1, 1, 1, 1, 16, 16], f32>) {
  return
}

// -----

func.func @descriptor_offsets(%d: !blk.tensordesc<[16, 16], f32>, %o: i32, %v: tensor<16x16xf32>) {
  // expected-error @+1 {{takes 2 offsets, got 1}}
  blk.descriptor_store %d[%o], %v : !blk.tensordesc<[16, 16], f32>, tensor<16x16xf32>
  return
}

// -----

// expected-error @+1 {{a tensor descriptor's block dimensions must be powers of two}}
func.func @descriptor_type(%d: !blk.tensordesc<[16, 12], f32>) {
  return
}

// -----

func.func @tma_ring(%d: !blk.tensordesc<[64, 64], bf16>, %o: i32, %p: i1,
                    %r: !blk.smem<[2, 64, 32], bf16, contig = 1>, %b: !blk.mbarriers<2>) {
  // expected-error @+1 {{the ring's slots must be the descriptor's 2-D blocks (after leading 1s), rows contiguous}}
  blk.async_tma_copy %d[%o, %o] into %r[%o], %b if %p : !blk.tensordesc<[64, 64], bf16>, !blk.smem<[2, 64, 32], bf16, contig = 1>, !blk.mbarriers<2>
  return
}

// -----

func.func @tma_store_buffer(%d: !blk.tensordesc<[64, 64], bf16>, %o: i32,
                            %r: !blk.smem<[1, 64, 64], bf16, contig = 0>) {
  // expected-error @+1 {{the buffer's slots must be the descriptor's 2-D blocks (after leading 1s), rows contiguous}}
  blk.async_tma_store %r[%o] into %d[%o, %o] : !blk.smem<[1, 64, 64], bf16, contig = 0>, !blk.tensordesc<[64, 64], bf16>
  return
}

// -----

func.func @tma_store_offsets(%d: !blk.tensordesc<[64, 64], bf16>, %o: i32,
                             %r: !blk.smem<[1, 64, 64], bf16, contig = 1>) {
  // expected-error @+1 {{takes 2 offsets, got 1}}
  blk.async_tma_store %r[%o] into %d[%o] : !blk.smem<[1, 64, 64], bf16, contig = 1>, !blk.tensordesc<[64, 64], bf16>
  return
}

// -----

func.func @tma_barriers(%d: !blk.tensordesc<[64, 64], bf16>, %o: i32, %p: i1,
                        %r: !blk.smem<[2, 64, 64], bf16, contig = 1>, %b: !blk.mbarriers<3>) {
  // expected-error @+1 {{needs one mbarrier per slot of the ring}}
  blk.async_tma_copy %d[%o, %o] into %r[%o], %b if %p : !blk.tensordesc<[64, 64], bf16>, !blk.smem<[2, 64, 64], bf16, contig = 1>, !blk.mbarriers<3>
  return
}

// -----

func.func @wgmma_wait_nothing() {
  // expected-error @+1 {{waits for at least one accumulator}}
  "blk.warp_group_dot_wait"() <{pending = 0 : i32}> : () -> ()
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_wait_types(%c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{results must have the accumulators' types, in order}}
  %d = "blk.warp_group_dot_wait"(%c) <{pending = 0 : i32}> : (tensor<64x64xf32, #mma>) -> tensor<64x32xf32, #mma>
  return
}

// -----

#b = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @local_store_shape(%x: tensor<64x32xbf16, #b>, %s: i32) {
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
  // expected-error @+1 {{the value must match a slot of '!blk.smem<[1, 64, 64], bf16, contig = 1>'}}
  blk.local_store %x, %buf[%s] : tensor<64x32xbf16, #b>, !blk.smem<[1, 64, 64], bf16, contig = 1>
  return
}

// -----

func.func @local_store_layout(%x: tensor<64x64xbf16>, %s: i32) {
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
  // expected-error @+1 {{the value needs a layout}}
  blk.local_store %x, %buf[%s] : tensor<64x64xbf16>, !blk.smem<[1, 64, 64], bf16, contig = 1>
  return
}

// -----

func.func @local_trans_shape() {
  %buf = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  // expected-error @+1 {{result must be '!blk.smem<[2, 32, 64], bf16, contig = 0>' (the tile's dimensions swapped, the other one contiguous), got '!blk.smem<[2, 32, 64], bf16, contig = 1>'}}
  %t = blk.local_trans %buf : !blk.smem<[2, 64, 32], bf16, contig = 1> -> !blk.smem<[2, 32, 64], bf16, contig = 1>
  return
}

// -----

func.func @permute_2d(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{permutes blocks of 3 or more dimensions (a 2-D transpose is blk.trans)}}
  %y = blk.permute %x {order = array<i64: 1, 0>} : tensor<16x4xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @permute_order(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{order must name each of the source's 3 dimensions once}}
  %y = blk.permute %x {order = array<i64: 0, 0, 1>} : tensor<2x4x8xf32> -> tensor<2x2x4xf32>
  return
}

// -----

func.func @permute_shape(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{result must be the source with its dimensions permuted}}
  %y = blk.permute %x {order = array<i64: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x4x2xf32>
  return
}

// -----

func.func @gather_index_type(%x: tensor<16xf32>, %i: tensor<16xf32>) {
  // expected-error @+1 {{index must hold integers, got 'f32'}}
  %y = blk.gather %x[%i] {axis = 0 : i32} : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<16x4xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{index must have the source's rank (2), got 1}}
  %y = blk.gather %x[%i] {axis = 0 : i32} : tensor<16x4xf32>, tensor<16xi32> -> tensor<16xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<16x4xf32>, %i: tensor<16x4xi32>) {
  // expected-error @+1 {{axis 2 is out of range for a block of rank 2}}
  %y = blk.gather %x[%i] {axis = 2 : i32} : tensor<16x4xf32>, tensor<16x4xi32> -> tensor<16x4xf32>
  return
}

// -----

func.func @gather_other_dims(%x: tensor<16x4xf32>, %i: tensor<8x8xi32>) {
  // expected-error @+1 {{index must match the source in every dimension but the axis}}
  %y = blk.gather %x[%i] {axis = 1 : i32} : tensor<16x4xf32>, tensor<8x8xi32> -> tensor<8x8xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<16x4xf32>, %i: tensor<16x8xi32>) {
  // expected-error @+1 {{result must have the index's shape and the source's element type}}
  %y = blk.gather %x[%i] {axis = 1 : i32} : tensor<16x4xf32>, tensor<16x8xi32> -> tensor<16x8xf16>
  return
}

// -----

func.func @gather_pointers(%x: tensor<16x!blk.ptr<f32>>, %i: tensor<16xi32>) {
  // expected-error @+1 {{gathers numbers, got '!blk.ptr<f32>'}}
  %y = blk.gather %x[%i] {axis = 0 : i32} : tensor<16x!blk.ptr<f32>>, tensor<16xi32> -> tensor<16x!blk.ptr<f32>>
  return
}

// -----

#a = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @gather_layout(%x: tensor<512xf32, #a>, %i: tensor<512xi32, #a>) {
  // expected-error @+1 {{index and result must have one layout}}
  %y = blk.gather %x[%i] {axis = 0 : i32} : tensor<512xf32, #a>, tensor<512xi32, #a> -> tensor<512xf32, #b>
  return
}

// -----

func.func @sort_not_pow2(%x: tensor<4x12xf32>) {
  // expected-error @+1 {{sorts along a last dimension whose size is a power of two, got 12}}
  %y = blk.sort %x : tensor<4x12xf32> -> tensor<4x12xf32>
  return
}

// -----

func.func @sort_fp8(%x: tensor<16xf8E4M3FN>) {
  // expected-error @+1 {{sorts integers or f16, bf16, f32 and f64 numbers, got 'f8E4M3FN'}}
  %y = blk.sort %x : tensor<16xf8E4M3FN> -> tensor<16xf8E4M3FN>
  return
}

// -----

func.func @sort_keeps_too_many(%x: tensor<16xi32>) {
  // expected-error @+1 {{keeps a power of two of elements, at most the source's 16, got 32}}
  %y = blk.sort %x : tensor<16xi32> -> tensor<32xi32>
  return
}

// -----

func.func @sort_rows_differ(%x: tensor<4x16xi32>) {
  // expected-error @+1 {{result must match the source in every dimension but the last}}
  %y = blk.sort %x : tensor<4x16xi32> -> tensor<2x16xi32>
  return
}

// -----

func.func @sort_merge_cut(%x: tensor<16xi32>) {
  // expected-error @+1 {{merge_only keeps every element}}
  %y = blk.sort %x {merge_only} : tensor<16xi32> -> tensor<8xi32>
  return
}

// -----

func.func @sort_unsigned_float(%x: tensor<16xf32>) {
  // expected-error @+1 {{is_unsigned needs integers, got 'f32'}}
  %y = blk.sort %x {is_unsigned} : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

#a = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @sort_layouts(%x: tensor<256xf32, #a>) {
  // expected-error @+1 {{source and result of one shape must have one layout}}
  %y = blk.sort %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return
}

// -----

func.func @print_unsigned_count(%x: tensor<16xi32>) {
  // expected-error @+1 {{unsigned_args needs one flag per argument (1), got 2}}
  blk.print "x" %x : tensor<16xi32> {unsigned_args = array<i1: true, false>}
  return
}

// -----

func.func @print_unsigned_float(%x: tensor<16xf32>) {
  // expected-error @+1 {{unsigned_args marks argument 0 of 'tensor<16xf32>', not integers}}
  blk.print "x" %x : tensor<16xf32> {unsigned_args = array<i1: true>}
  return
}

// -----

// Three slices of a 2-D layout: the outer one slices a block of no dimension.
func.func @slice_of_slice_rank(
  // expected-error @+1 {{a slice of a slice must keep a dimension of its blocked or mma parent}}
    %x: tensor<4xi32, #blk.slice<dim = 0, parent = #blk.slice<dim = 0, parent = #blk.slice<dim = 0, parent = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>>>>>) {
  return
}

// -----

func.func @slice_of_slice_dim(
  // expected-error @+1 {{slice dimension 2 is out of range for a parent of rank 2}}
    %x: tensor<4xi32, #blk.slice<dim = 2, parent = #blk.slice<dim = 0, parent = #blk.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>>>>) {
  return
}

// -----

func.func @slice_of_dot_operand_dim(
  // expected-error @+1 {{slice dimension 2 is out of range for a parent of rank 2}}
    %x: tensor<16xf16, #blk.slice<dim = 2, parent = #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>, kWidth = 2>>>) {
  return
}

// -----

func.func @producer_warp_without_producer() attributes {blk.kernel} {
  // expected-error @+1 {{needs a kernel with producer warps (blk.producer_warps)}}
  %p = blk.producer_warp
  return
}

// -----

func.func @set_max_registers_not_multiple_of_8() {
  // expected-error @+1 {{registers must be a multiple of 8, got 100}}
  blk.set_max_registers 100 increase
  return
}

// -----

func.func @set_max_registers_too_many() {
  // expected-error @+1 {{attribute 'registers' failed to satisfy constraint}}
  blk.set_max_registers 264 increase
  return
}

// -----

// A ring arranged for threads swizzles bits of a slot's element index: a
// tile of 96 rows has no such index.
// expected-error @+1 {{a ring arranged for threads has tiles of powers of two, got 96x64}}
func.func @thread_ring_shape(%r: !blk.smem<[2, 96, 64], f32, contig = 1, xor = [4, 7]>) {
  return
}

// -----

// After `contig`, only a thread arrangement's `xor` list may follow.
// expected-error @+1 {{expected 'xor'}}
func.func @ring_unknown_arrangement(%r: !blk.smem<[2, 64, 64], f32, contig = 1, swizzle = [4, 7]>) {
  return
}

// -----

// Nothing flipped is still the thread arrangement: lines of a power of two.
// expected-error @+1 {{a ring arranged for threads has tiles of powers of two, got 96x64}}
func.func @thread_ring_unswizzled_shape(%r: !blk.smem<[2, 96, 64], f32, contig = 1, xor = []>) {
  return
}

// -----

// expected-error @+1 {{xor holds pairs (flipped bit, source bit), got 3 numbers}}
func.func @thread_ring_pairs(%r: !blk.smem<[2, 64, 64], f32, contig = 1, xor = [4, 7, 5]>) {
  return
}

// -----

// expected-error @+1 {{xor pair (7, 4) must flip a bit below its source, the source below bit 12 of a slot's element index}}
func.func @thread_ring_order(%r: !blk.smem<[2, 64, 64], f32, contig = 1, xor = [7, 4]>) {
  return
}

// -----

// expected-error @+1 {{xor pair (4, 12) must flip a bit below its source, the source below bit 12 of a slot's element index}}
func.func @thread_ring_source(%r: !blk.smem<[2, 64, 64], f32, contig = 1, xor = [4, 12]>) {
  return
}

// -----

#l = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @thread_ring_vector(%p: tensor<64x64x!blk.ptr<f32>, #l>, %s: i32) {
  %r = blk.local_alloc : !blk.smem<[2, 64, 64], f32, contig = 1, xor = [1, 7]>
  // expected-error @+1 {{copies 4 elements per access, more than '!blk.smem<[2, 64, 64], f32, contig = 1, xor = [1, 7]>' keeps next to each other}}
  blk.async_copy %p into %r[%s] {vec = 4 : i32} : tensor<64x64x!blk.ptr<f32>, #l> -> !blk.smem<[2, 64, 64], f32, contig = 1, xor = [1, 7]>
  return
}

// -----

// A ring with lines one after another (`xor = []`) is no wgmma operand
// either: the descriptors describe the 128B, 64B and 32B swizzles only.
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_unswizzled_ring(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1, xor = []>
  // expected-error @+1 {{reads operand B only from the tensor-core arrangement, not from '!blk.smem<[2, 32, 64], bf16, contig = 1, xor = []>'}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 32], bf16, contig = 1>, !blk.smem<[2, 32, 64], bf16, contig = 1, xor = []>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_thread_ring(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1, xor = [3, 6]>
  // expected-error @+1 {{reads operand B only from the tensor-core arrangement, not from '!blk.smem<[2, 32, 64], bf16, contig = 1, xor = [3, 6]>'}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 32], bf16, contig = 1>, !blk.smem<[2, 32, 64], bf16, contig = 1, xor = [3, 6]>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_thread_ring_a(%c: tensor<64x64xf32, #mma>, %s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1, xor = [3, 5]>
  %b = blk.local_alloc : !blk.smem<[2, 32, 64], bf16, contig = 1>
  // expected-error @+1 {{reads operand A only from the tensor-core arrangement, not from '!blk.smem<[2, 64, 32], bf16, contig = 1, xor = [3, 5]>'}}
  %d = blk.warp_group_dot %a[%s], %b[%s], %c : !blk.smem<[2, 64, 32], bf16, contig = 1, xor = [3, 5]>, !blk.smem<[2, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>
func.func @ldmatrix_thread_ring(%s: i32) {
  %a = blk.local_alloc : !blk.smem<[2, 64, 32], bf16, contig = 1, xor = [3, 5]>
  // expected-error @+1 {{reads mma.sync operands (ldmatrix) only from the tensor-core arrangement, not from '!blk.smem<[2, 64, 32], bf16, contig = 1, xor = [3, 5]>'}}
  %t = blk.local_load %a[%s] : !blk.smem<[2, 64, 32], bf16, contig = 1, xor = [3, 5]> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>>
  return
}

// -----

func.func @tma_thread_ring(%d: !blk.tensordesc<[64, 64], bf16>, %o: i32, %p: i1,
                           %r: !blk.smem<[2, 64, 64], bf16, contig = 1, xor = [3, 6]>, %b: !blk.mbarriers<2>) {
  // expected-error @+1 {{TMA copies only the tensor-core arrangement, not '!blk.smem<[2, 64, 64], bf16, contig = 1, xor = [3, 6]>'}}
  blk.async_tma_copy %d[%o, %o] into %r[%o], %b if %p : !blk.tensordesc<[64, 64], bf16>, !blk.smem<[2, 64, 64], bf16, contig = 1, xor = [3, 6]>, !blk.mbarriers<2>
  return
}

// -----

func.func @address_width(%p: !blk.ptr<f32>) {
  // expected-error @+1 {{addresses are 64-bit integers, got 'i32'}}
  %a = blk.ptr_to_int %p : !blk.ptr<f32> -> i32
  return
}

// -----

#lanes = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#pairs = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @address_layout(%a: tensor<256xi64, #lanes>) {
  // expected-error @+1 {{pointer and address must have the same shape and layout}}
  %p = blk.int_to_ptr %a : tensor<256xi64, #lanes> -> tensor<256x!blk.ptr<f32>, #pairs>
  return
}

// -----

func.func @address_of_block(%p: tensor<64x!blk.ptr<f32>>) {
  // expected-error @+1 {{if an operand is non-scalar, then there must be at least one non-scalar result}}
  %a = blk.ptr_to_int %p : tensor<64x!blk.ptr<f32>> -> i64
  return
}
