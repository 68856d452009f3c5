// RUN: blk-opt %s | blk-opt | FileCheck %s
// CHECK: #[[ROWS:.+]] = #blk.slice<dim = 1, parent = #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3

// CHECK-LABEL: func.func @roundtrip
func.func @roundtrip(%p: !blk.ptr<f32>, %n: i32) {
  // CHECK: blk.program_id 0 : i32
  %pid = blk.program_id 0 : i32
  // CHECK: blk.num_programs 1 : i32
  %np = blk.num_programs 1 : i32
  // CHECK: blk.arange 0, 128 : tensor<128xi32>
  %r = blk.arange 0, 128 : tensor<128xi32>
  // CHECK: blk.splat %{{.*}} : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  // CHECK: blk.addptr %{{.*}}, %{{.*}} : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  %q = blk.addptr %ps, %r : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  // CHECK: blk.ptr_to_int %{{.*}} : tensor<128x!blk.ptr<f32>> -> tensor<128xi64>
  %addrs = blk.ptr_to_int %q : tensor<128x!blk.ptr<f32>> -> tensor<128xi64>
  // CHECK: blk.int_to_ptr %{{.*}} : tensor<128xi64> -> tensor<128x!blk.ptr<f16>>
  %halves = blk.int_to_ptr %addrs : tensor<128xi64> -> tensor<128x!blk.ptr<f16>>
  // CHECK: blk.ptr_to_int %{{.*}} : !blk.ptr<f32> -> i64
  %base = blk.ptr_to_int %p : !blk.ptr<f32> -> i64
  %ns = blk.splat %n : i32 -> tensor<128xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
  %o = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: blk.load %{{.*}}, %{{.*}}, %{{.*}} {{.*}}vec = 4 : i32{{.*}} : (tensor<128x!blk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  %x = blk.load %q, %m, %o {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 4 : i32} : (tensor<128x!blk.ptr<f32>>, tensor<128xi1>, tensor<128xf32>) -> tensor<128xf32>
  // CHECK: blk.store %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!blk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  blk.store %q, %x, %m : (tensor<128x!blk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> ()
  // CHECK: blk.assume %{{.*}} {divisibility = 16 : i64} : tensor<128xi32>
  %a = blk.assume %r {divisibility = 16 : i64} : tensor<128xi32>
  // CHECK: blk.print "x = " %{{.*}} : tensor<128xf32>
  blk.print "x = " %x : tensor<128xf32>
  // CHECK: blk.assert %{{.*}}, "in range" : tensor<128xi1>
  blk.assert %m, "in range" : tensor<128xi1>
  return
}

// CHECK-LABEL: func.func @with_layout
// CHECK: tensor<256xi32, #blocked>
func.func @with_layout() {
  %r = blk.arange 0, 256 : tensor<256xi32, #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
  return
}

// A row scale in a wgmma register-A operand's layout: a slice of it,
// expanded back into it.
// CHECK-LABEL: func.func @slice_of_dot_operand
// CHECK: blk.expand_dims %{{.+}} {axis = 1 : i32} : tensor<128xf32, #[[ROWS]]> -> tensor<128x1xf32, #blk.dot_op<opIdx = 0
func.func @slice_of_dot_operand(%s: tensor<128xf32, #blk.slice<dim = 1, parent = #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 32]>, kWidth = 4>>>) {
  %e = blk.expand_dims %s {axis = 1 : i32} : tensor<128xf32, #blk.slice<dim = 1, parent = #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 32]>, kWidth = 4>>> -> tensor<128x1xf32, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 32]>, kWidth = 4>>
  return
}

// CHECK-LABEL: func.func @atomics
// CHECK: blk.atomic_rmw umax, release, sys %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!blk.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> tensor<128xi32>
// CHECK: blk.atomic_cas acquire, cta %{{.*}}, %{{.*}}, %{{.*}} : (!blk.ptr<f32>, f32, f32) -> f32
func.func @atomics(%p: tensor<128x!blk.ptr<i32>>, %v: tensor<128xi32>, %m: tensor<128xi1>, %q: !blk.ptr<f32>, %f: f32) {
  %a = blk.atomic_rmw umax, release, sys %p, %v, %m : (tensor<128x!blk.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> tensor<128xi32>
  %b = blk.atomic_cas acquire, cta %q, %f, %f : (!blk.ptr<f32>, f32, f32) -> f32
  return
}

// Atomic loads and stores: an ordering, a scope, an optional mask.
// CHECK-LABEL: func.func @atomic_load_store
// CHECK: %[[F:.+]] = blk.atomic_load acquire, gpu %{{.*}} : (!blk.ptr<i32>) -> i32
// CHECK: blk.atomic_load relaxed, cta %{{.*}}, %{{.*}} : (tensor<128x!blk.ptr<i32>>, tensor<128xi1>) -> tensor<128xi32>
// CHECK: blk.atomic_store release, sys %{{.*}}, %[[F]] : (!blk.ptr<i32>, i32) -> ()
// CHECK: blk.atomic_store relaxed, gpu %{{.*}}, %{{.*}}, %{{.*}} : (tensor<128x!blk.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
func.func @atomic_load_store(%p: tensor<128x!blk.ptr<i32>>, %v: tensor<128xi32>, %m: tensor<128xi1>, %q: !blk.ptr<i32>) {
  %f = blk.atomic_load acquire, gpu %q : (!blk.ptr<i32>) -> i32
  %b = blk.atomic_load relaxed, cta %p, %m : (tensor<128x!blk.ptr<i32>>, tensor<128xi1>) -> tensor<128xi32>
  blk.atomic_store release, sys %q, %f : (!blk.ptr<i32>, i32) -> ()
  blk.atomic_store relaxed, gpu %p, %v, %m : (tensor<128x!blk.ptr<i32>>, tensor<128xi32>, tensor<128xi1>) -> ()
  return
}

// CHECK-LABEL: func.func @dot
// CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16xbf16>, tensor<16x32xbf16>, tensor<32x32xf32> -> tensor<32x32xf32>
func.func @dot(%a: tensor<32x16xbf16>, %b: tensor<16x32xbf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %d = blk.dot %a, %b, %c : tensor<32x16xbf16>, tensor<16x32xbf16>, tensor<32x32xf32> -> tensor<32x32xf32>
  return %d : tensor<32x32xf32>
}

// One wgmma wait carries several accumulators: a dot's and one still in
// flight from an earlier dot; each result has its accumulator's type.
// CHECK-LABEL: func.func @wgmma_wait
// CHECK: %[[W:.+]]:2 = blk.warp_group_dot_wait %{{.*}}, %{{.*}} {pending = 0 : i32} : tensor<64x32xf32, #blk.mma<{{.*}}instrShape = [64, 32, 16]>>, tensor<64x64xf32, #blk.mma<{{.*}}instrShape = [64, 64, 16]>>
// CHECK: return %[[W]]#1
#mma32 = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>
#mma64 = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wgmma_wait(%s: tensor<64x32xf32, #mma32>, %o: tensor<64x64xf32, #mma64>) -> tensor<64x64xf32, #mma64> {
  %w:2 = blk.warp_group_dot_wait %s, %o {pending = 0 : i32} : tensor<64x32xf32, #mma32>, tensor<64x64xf32, #mma64>
  return %w#1 : tensor<64x64xf32, #mma64>
}

// CHECK-LABEL: func.func @local_trans
// CHECK: blk.local_trans %{{.*}} : <[3, 64, 128], bf16, contig = 1> -> <[3, 128, 64], bf16, contig = 0>
func.func @local_trans() {
  %buf = blk.local_alloc : !blk.smem<[3, 64, 128], bf16, contig = 1>
  %t = blk.local_trans %buf : !blk.smem<[3, 64, 128], bf16, contig = 1> -> !blk.smem<[3, 128, 64], bf16, contig = 0>
  return
}

// A ring arranged for threads keeps its swizzle through a transposed view
// (its index runs along the lines either way).
// CHECK-LABEL: func.func @thread_ring
// CHECK: blk.local_alloc : <[2, 128, 128], f32, contig = 1, xor = [4, 7]>
// CHECK: blk.local_trans %{{.*}} : <[2, 128, 128], f32, contig = 1, xor = [4, 7]> -> <[2, 128, 128], f32, contig = 0, xor = [4, 7]>
func.func @thread_ring() {
  %buf = blk.local_alloc : !blk.smem<[2, 128, 128], f32, contig = 1, xor = [4, 7]>
  %t = blk.local_trans %buf : !blk.smem<[2, 128, 128], f32, contig = 1, xor = [4, 7]> -> !blk.smem<[2, 128, 128], f32, contig = 0, xor = [4, 7]>
  return
}

// `xor = []`: arranged for threads with nothing flipped, which is not the
// tensor-core arrangement (no `xor`) and prints as written.
// CHECK-LABEL: func.func @thread_ring_unswizzled
// CHECK: blk.local_alloc : <[3, 1024, 16], i32, contig = 0, xor = []>
// CHECK: blk.local_alloc : <[3, 1024, 16], i32, contig = 0>
func.func @thread_ring_unswizzled() {
  %threads = blk.local_alloc : !blk.smem<[3, 1024, 16], i32, contig = 0, xor = []>
  %cores = blk.local_alloc : !blk.smem<[3, 1024, 16], i32, contig = 0>
  return
}

// A scan of a tuple: several operands, one region over an element of each from each side.
// CHECK-LABEL: func.func @tuple_scan
// CHECK: %{{.*}}:2 = blk.scan %{{.*}}, %{{.*}} {axis = 0 : i32, reverse} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>, tensor<16xi32> {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
// CHECK: blk.reduce.return %{{.*}}, %{{.*}} : f32, i32
func.func @tuple_scan(%x: tensor<16xf32>, %i: tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  %s:2 = blk.scan %x, %i {axis = 0 : i32, reverse} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>, tensor<16xi32> {
  ^bb0(%a0: f32, %a1: i32, %b0: f32, %b1: i32):
    %c0 = arith.addf %a0, %b0 : f32
    %c1 = arith.muli %a1, %b1 : i32
    blk.reduce.return %c0, %c1 : f32, i32
  }
  return %s#0, %s#1 : tensor<16xf32>, tensor<16xi32>
}

// CHECK-LABEL: func.func @shape_ops
// CHECK: blk.permute %{{.*}} {order = array<i64: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK: blk.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<4x2xf32>
func.func @shape_ops(%x: tensor<2x4x8xf32>, %s: tensor<4x8xf32>, %i: tensor<4x2xi32>) {
  %p = blk.permute %x {order = array<i64: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %g = blk.gather %s[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xi32> -> tensor<4x2xf32>
  return
}

// CHECK-LABEL: func.func @sorts
// CHECK: blk.sort %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK: blk.sort %{{.*}} {descending, is_unsigned} : tensor<4x8xi32> -> tensor<4x2xi32>
// CHECK: blk.sort %{{.*}} {merge_only} : tensor<4x8xf32> -> tensor<4x8xf32>
func.func @sorts(%s: tensor<4x8xf32>, %i: tensor<4x8xi32>) {
  %a = blk.sort %s : tensor<4x8xf32> -> tensor<4x8xf32>
  %b = blk.sort %i {descending, is_unsigned} : tensor<4x8xi32> -> tensor<4x2xi32>
  %c = blk.sort %s {merge_only} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}
