// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

#p = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#b = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// expand_dims and broadcast only rename registers: no shared memory, no
// barrier, no data movement.
// CHECK-LABEL: func.func @renames
// CHECK-NOT: nvvm.barrier0
// CHECK-NOT: !llvm.ptr<3>
// CHECK: return
func.func @renames(%v: f32) {
  %x = blk.splat %v : f32 -> tensor<32xf32, #blk.slice<dim = 1, parent = #p>>
  %e = blk.expand_dims %x {axis = 1 : i32} : tensor<32xf32, #blk.slice<dim = 1, parent = #p>> -> tensor<32x1xf32, #p>
  %r = blk.broadcast %e : tensor<32x1xf32, #p> -> tensor<32x32xf32, #p>
  blk.print "r" %r : tensor<32x32xf32, #p>
  return
}

// A conversion that moves elements between threads goes through shared
// memory: both registers stored (by the thread that owns them: the slice's
// copies in the other lanes skip the write, a predicated st.shared), one
// barrier, the register loaded; booleans travel as bytes.
// CHECK-LABEL: func.func @through_shared
// CHECK: %[[P:.+]] = llvm.zext %{{.+}} : i1 to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $2, 0;\0A@p st.shared.b8 [$0], $1;\0A}", "r,h,r" %{{.+}}, %{{.+}}, %[[P]]
// CHECK: @p st.shared.b8 [$0], $1;
// CHECK-NOT: llvm.store
// CHECK-NOT: st.shared
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i8
// CHECK: llvm.trunc {{.*}} : i8 to i1
func.func @through_shared(%n: i32) {
  %r = blk.arange 0, 32 : tensor<32xi32, #blk.slice<dim = 1, parent = #p>>
  %s = blk.splat %n : i32 -> tensor<32xi32, #blk.slice<dim = 1, parent = #p>>
  %x = arith.cmpi slt, %r, %s : tensor<32xi32, #blk.slice<dim = 1, parent = #p>>
  %y = blk.convert_layout %x : tensor<32xi1, #blk.slice<dim = 1, parent = #p>> -> tensor<32xi1, #b>
  blk.print "y" %y : tensor<32xi1, #b>
  return
}
// A transpose writes each element at its transposed row-major position and
// reads back under the result's layout: eight stores (this thread's eight
// registers; lanes 16-31 hold copies of lanes 0-15's columns and skip
// theirs), one barrier, eight loads. The rows of 64 are padded by one
// element each (index + index >> 6) so that columns spread over the banks.
// CHECK-LABEL: func.func @transpose
// CHECK: %[[SIX:.+]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[PAD:.+]] = llvm.lshr %[[IDX:.+]], %[[SIX]] : i32
// CHECK-NEXT: llvm.add %[[IDX]], %[[PAD]] : i32
// CHECK-COUNT-8: @p st.shared.b32 [$0], $1;
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: return
func.func @transpose(%v: f32) {
  %x = blk.splat %v : f32 -> tensor<64x16xf32, #p>
  %t = blk.trans %x {blk.smem_offset = 0 : i64} : tensor<64x16xf32, #p> -> tensor<16x64xf32, #p>
  blk.print "t" %t : tensor<16x64xf32, #p>
  return
}

// A reshape keeps row-major order: stored at the source's row-major index.
// CHECK-LABEL: func.func @reshape
// CHECK: llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load {{.*}} : !llvm.ptr<3> -> i32
func.func @reshape() {
  %r = blk.arange 0, 128 : tensor<128xi32, #b>
  %y = blk.reshape %r {blk.smem_offset = 0 : i64} : tensor<128xi32, #b> -> tensor<4x32xi32, #p>
  blk.print "y" %y : tensor<4x32xi32, #p>
  return
}

// A permutation of a [4, 8, 32] tile into [32, 4, 8] (order 2, 0, 1) across
// warps goes through shared memory in the result's row-major shape, rows of
// 32 padded by one element: a thread's next elements along the source's
// last dimension land one result row (33 slots) apart, its next repetition
// along the source's dimension 1 four slots on; the result reads rows of 4.
// CHECK-LABEL: func.func @permute_through_shared
// CHECK: llvm.getelementptr %[[BASE:[0-9]+]][33] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK: llvm.getelementptr %[[BASE]][66]
// CHECK: llvm.getelementptr %[[BASE]][99]
// CHECK: llvm.getelementptr %[[BASE]][4]
// CHECK: nvvm.barrier0
// CHECK-COUNT-8: llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK: return
func.func @permute_through_shared(%v: f32) {
  %x = blk.splat %v : f32 -> tensor<4x8x32xf32, #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>>
  %t = blk.permute %x {order = array<i64: 2, 0, 1>, blk.smem_offset = 0 : i64} : tensor<4x8x32xf32, #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>> -> tensor<32x4x8xf32, #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [4, 4, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>>
  blk.print "t" %t : tensor<32x4x8xf32, #blk.blocked<sizePerThread = [1, 1, 4], threadsPerWarp = [4, 4, 2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>>
  return
}

// Where the warps hold the same rows of the source and the result (warps
// along the source's dimension 0, which permute (1, 0, 2) makes dimension 1),
// a permutation is warp shuffles: no shared memory.
// CHECK-LABEL: func.func @permute_in_warps
// CHECK-NOT: nvvm.barrier0
// CHECK: nvvm.shfl.sync idx
// CHECK-NOT: nvvm.barrier0
// CHECK: return
func.func @permute_in_warps(%v: f32) {
  %x = blk.splat %v : f32 -> tensor<8x4x8xf32, #blk.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>>
  %t = blk.permute %x {order = array<i64: 1, 0, 2>} : tensor<8x4x8xf32, #blk.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>> -> tensor<4x8x8xf32, #blk.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [4, 2, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>>
  blk.print "t" %t : tensor<4x8x8xf32, #blk.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [4, 2, 4], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]>>
  return
}

// Pointers move through shared memory as 64-bit integers: the copies of a
// broadcast slice leave their writes to the owning thread, each a
// predicated 64-bit store.
// CHECK-LABEL: func.func @pointers_through_shared
// CHECK: llvm.ptrtoint %{{.+}} : !llvm.ptr<1> to i64
// CHECK: @p st.shared.b64 [$0], $1;
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.+}} : !llvm.ptr<3> -> !llvm.ptr<1>
func.func @pointers_through_shared(%ptr: !blk.ptr<f32>) {
  %s = blk.splat %ptr : !blk.ptr<f32> -> tensor<16x!blk.ptr<f32>, #blk.slice<dim = 1, parent = #p>>
  %r = blk.arange 0, 16 : tensor<16xi32, #blk.slice<dim = 1, parent = #p>>
  %a = blk.addptr %s, %r : tensor<16x!blk.ptr<f32>, #blk.slice<dim = 1, parent = #p>>, tensor<16xi32, #blk.slice<dim = 1, parent = #p>>
  %q = blk.convert_layout %a {blk.smem_offset = 0 : i64} : tensor<16x!blk.ptr<f32>, #blk.slice<dim = 1, parent = #p>> -> tensor<16x!blk.ptr<f32>, #b>
  %v = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x!blk.ptr<f32>, #b>) -> tensor<16xf32, #b>
  blk.print "v" %v : tensor<16xf32, #b>
  return
}
}
