// RUN: blk-opt %s --split-input-file --blk-tma-stores --verify-diagnostics | FileCheck %s

// A store through a hidden tensor map, outside loops: the block goes to a
// one-slot buffer in the swizzled arrangement of a TMA ring, fenced for the
// async proxy and synchronized, one thread copies it out, and the wait for
// its reads follows before the memory can hold anything else.
// CHECK-LABEL: func.func @top_level
// CHECK: %[[BUF:.*]] = blk.local_alloc : <[1, 64, 128], bf16, contig = 1>
// CHECK-NOT: blk.tma_store_wait
// CHECK: blk.local_store %{{.*}}, %[[BUF]][%[[SLOT:.*]]] :
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.async_tma_store %[[BUF]][%[[SLOT]]] into %arg1[%arg2, %arg3] : !blk.smem<[1, 64, 128], bf16, contig = 1>, !blk.tensordesc<[64, 128], bf16>
// CHECK-NEXT: blk.tma_store_wait %[[BUF]]
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: return
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @top_level(%arg0: !blk.ptr<bf16>, %arg1: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: -64, -128>, blk.tma_strides = array<i64: -128, -1>}, %arg2: i32, %arg3: i32) attributes {blk.kernel} {
    %cst = arith.constant 1.000000e+00 : bf16
    %0 = blk.splat %cst : bf16 -> tensor<64x128xbf16, #blocked>
    blk.descriptor_store %arg1[%arg2, %arg3], %0 : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16, #blocked>
    return
  }
}

// -----

// In a loop over tiles (a persistent kernel), inside an `if`: the buffer is
// made in front of the outermost loop, so that it keeps its memory for
// every trip; each trip waits for the previous trip's store to have read it
// before writing it again, and one more wait follows the loop.
// CHECK-LABEL: func.func @in_loops
// CHECK: %[[BUF:.*]] = blk.local_alloc : <[1, 64, 128], f32, contig = 1>
// CHECK-NEXT: scf.for
// CHECK: scf.for
// CHECK: scf.if
// CHECK: blk.tma_store_wait %[[BUF]]
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.local_store %{{.*}}, %[[BUF]]
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.async_tma_store %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: blk.tma_store_wait %[[BUF]]
// CHECK-NEXT: blk.barrier
// CHECK-NOT: blk.descriptor_store
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @in_loops(%arg0: !blk.ptr<f32>, %arg1: i32, %arg2: !blk.tensordesc<[64, 128], f32> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: 1, 1>, blk.tma_strides = array<i64: -128, -1>}) attributes {blk.kernel} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %cst = arith.constant 1.000000e+00 : f32
    %0 = blk.splat %cst : f32 -> tensor<64x128xf32, #mma>
    scf.for %t = %c0 to %arg1 step %c1 : i32 {
      scf.for %u = %c0 to %arg1 step %c1 : i32 {
        %p = arith.cmpi slt, %u, %t : i32
        scf.if %p {
          blk.descriptor_store %arg2[%t, %u], %0 : !blk.tensordesc<[64, 128], f32>, tensor<64x128xf32, #mma>
        }
      }
    }
    return
  }
}

// -----

// A load through a hidden tensor map of the stored block before the store
// (the old tile of C += A @ B in a persistent kernel): TMA brings it into the
// store's buffer. Its copy is issued where its offsets are known, once the
// previous trip's store has read the buffer; where the load was, the trip
// waits for the copy (the mbarrier's phase parity is the trip's), reads the
// tile and synchronizes before the store writes the buffer. The mbarrier is
// retired after the loop.
// CHECK-LABEL: func.func @load_through_the_buffer
// CHECK: %[[BUF:.*]] = blk.local_alloc : <[1, 64, 128], bf16, contig = 1>
// CHECK-NEXT: %[[BARS:.*]] = blk.mbarrier_alloc : !blk.mbarriers<1>
// CHECK-NEXT: scf.for %[[T:.*]] = %[[LB:.*]] to %{{.*}} step %[[STEP:.*]] : i32 {
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[T]]
// CHECK-NEXT: %[[SLOT:.*]] = arith.constant 0 : i32
// CHECK-NEXT: blk.tma_store_wait %[[BUF]]
// CHECK-NEXT: blk.barrier
// CHECK: blk.async_tma_copy %arg1[%[[ROW]], %{{.*}}] into %[[BUF]][%[[SLOT]]], %[[BARS]] if
// CHECK: arith.mulf
// CHECK: %[[TRIP:.*]] = arith.divsi %{{.*}}, %[[STEP]]
// CHECK: %[[PARITY:.*]] = arith.andi %[[TRIP]]
// CHECK-NEXT: blk.mbarrier_wait %[[BARS]][%[[SLOT]]], %[[PARITY]]
// CHECK-NEXT: %[[OLD:.*]] = blk.local_load %[[BUF]][%[[SLOT]]]
// CHECK-NEXT: blk.barrier
// CHECK: arith.addf %{{.*}}, %[[OLD]]
// CHECK-NOT: blk.tma_store_wait
// CHECK: blk.local_store %{{.*}}, %[[BUF]]
// CHECK-NEXT: blk.fence_async_shared
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.async_tma_store %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: blk.tma_store_wait %[[BUF]]
// CHECK-NEXT: blk.barrier
// CHECK-NEXT: blk.mbarrier_inval %[[BARS]]
// CHECK-NOT: blk.descriptor_load
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @load_through_the_buffer(%arg0: !blk.ptr<bf16>, %arg1: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: -64, -128>, blk.tma_strides = array<i64: -128, -1>}, %arg2: i32, %arg3: i32) attributes {blk.kernel} {
    %c64 = arith.constant 64 : i32
    %c0 = arith.constant 0 : i32
    %cst = arith.constant 1.000000e+00 : bf16
    %one = blk.splat %cst : bf16 -> tensor<64x128xbf16, #blocked>
    scf.for %t = %arg2 to %arg3 step %c64 : i32 {
      %row = arith.muli %t, %c64 : i32
      %sum = arith.mulf %one, %one : tensor<64x128xbf16, #blocked>
      %old = blk.descriptor_load %arg1[%row, %c0] : !blk.tensordesc<[64, 128], bf16> -> tensor<64x128xbf16, #blocked>
      %new = arith.addf %sum, %old : tensor<64x128xbf16, #blocked>
      blk.descriptor_store %arg1[%row, %c0], %new : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16, #blocked>
    }
    return
  }
}

// -----

// A store to global memory between the offsets and the load (it may write
// the tile): the copy is issued after it.
// CHECK-LABEL: func.func @copy_after_a_store
// CHECK: scf.for
// CHECK: blk.store
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: blk.tma_store_wait
// CHECK-NEXT: blk.barrier
// CHECK: blk.async_tma_copy
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @copy_after_a_store(%arg0: !blk.ptr<bf16>, %arg1: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: -64, -128>, blk.tma_strides = array<i64: -128, -1>}, %arg2: i32, %arg3: i32) attributes {blk.kernel} {
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    %cst = arith.constant 1.000000e+00 : bf16
    %one = blk.splat %cst : bf16 -> tensor<64x128xbf16, #blocked>
    %p = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x128x!blk.ptr<bf16>, #blocked>
    scf.for %t = %arg2 to %arg3 step %c1 : i32 {
      blk.store %p, %one : (tensor<64x128x!blk.ptr<bf16>, #blocked>, tensor<64x128xbf16, #blocked>) -> ()
      %old = blk.descriptor_load %arg1[%t, %c0] : !blk.tensordesc<[64, 128], bf16> -> tensor<64x128xbf16, #blocked>
      %new = arith.addf %one, %old : tensor<64x128xbf16, #blocked>
      blk.descriptor_store %arg1[%t, %c0], %new : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16, #blocked>
    }
    return
  }
}

// -----

// The old tile read after the tile's products (C += A @ B), its offsets
// computed where the source reads it: the offsets move up to where their
// operands are known, and the copy is issued in the products' middle trip
// by the thread that issues the stores, once they have read the buffer
// (`after_stores`: no wait that would hold up the products); a loop of no
// trips issues it after the loop.
// CHECK-LABEL: func.func @copy_during_the_products
// CHECK: %[[BUF:.*]] = blk.local_alloc : <[1, 64, 128], bf16, contig = 1>
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[T]]
// CHECK-NEXT: %[[SLOT:.*]] = arith.constant 0 : i32
// CHECK-NOT: blk.tma_store_wait
// CHECK: %[[TRIPS:.*]] = arith.maxsi
// CHECK: %[[MIDDLE:.*]] = arith.divsi %[[TRIPS]], %{{.*}}
// CHECK: scf.for %[[K:.*]] = %[[KLB:.*]] to %{{.*}} step %[[KSTEP:.*]] iter_args
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[K]], %[[KLB]]
// CHECK-NEXT: %[[TRIP:.*]] = arith.divsi %[[SPAN]], %[[KSTEP]]
// CHECK-NEXT: %[[NOW:.*]] = arith.cmpi eq, %[[TRIP]], %[[MIDDLE]]
// CHECK-NEXT: blk.async_tma_copy %arg1[%[[ROW]], %{{.*}}] into %[[BUF]][%[[SLOT]]], %{{.*}} if %[[NOW]] {after_stores}
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[TRIPS]], %{{.*}}
// CHECK-NEXT: blk.async_tma_copy %arg1[%[[ROW]], %{{.*}}] into %[[BUF]][%[[SLOT]]], %{{.*}} if %[[NONE]] {after_stores}
// CHECK-NOT: blk.tma_store_wait
// CHECK: blk.mbarrier_wait
// CHECK-NEXT: blk.local_load %[[BUF]]
// CHECK-NOT: blk.tma_store_wait
// CHECK: blk.async_tma_store %[[BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: blk.tma_store_wait %[[BUF]]
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @copy_during_the_products(%arg0: !blk.ptr<bf16>, %arg1: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: -64, -128>, blk.tma_strides = array<i64: -128, -1>}, %arg2: i32, %arg3: i32, %arg4: i32) attributes {blk.kernel} {
    %c64 = arith.constant 64 : i32
    %c0 = arith.constant 0 : i32
    %cst = arith.constant 1.000000e+00 : bf16
    %one = blk.splat %cst : bf16 -> tensor<64x128xbf16, #blocked>
    scf.for %t = %arg2 to %arg3 step %c64 : i32 {
      %acc = scf.for %k = %c0 to %arg4 step %c64 iter_args(%a = %one) -> (tensor<64x128xbf16, #blocked>) : i32 {
        %next = arith.addf %a, %one : tensor<64x128xbf16, #blocked>
        scf.yield %next : tensor<64x128xbf16, #blocked>
      }
      %row = arith.muli %t, %c64 : i32
      %old = blk.descriptor_load %arg1[%row, %c0] : !blk.tensordesc<[64, 128], bf16> -> tensor<64x128xbf16, #blocked>
      %new = arith.addf %acc, %old : tensor<64x128xbf16, #blocked>
      blk.descriptor_store %arg1[%row, %c0], %new : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16, #blocked>
    }
    return
  }
}

// -----

// A descriptor the host does not build (no hidden argument) is not this
// pass's: blk-lower-tensor-descriptors made its accesses pointer accesses.
// CHECK-LABEL: func.func @made_in_kernel
// CHECK-NOT: blk.local_alloc
// CHECK: blk.descriptor_store
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @made_in_kernel(%arg0: !blk.ptr<bf16>, %arg1: i32, %arg2: i64) attributes {blk.kernel} {
    %c1 = arith.constant 1 : i64
    %c0 = arith.constant 0 : i32
    %d = blk.make_tensor_descriptor %arg0, [%arg1, %arg1], [%arg2, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[64, 128], bf16>
    %cst = arith.constant 1.000000e+00 : bf16
    %0 = blk.splat %cst : bf16 -> tensor<64x128xbf16, #blocked>
    blk.descriptor_store %d[%c0, %c0], %0 : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16, #blocked>
    return
  }
}

// -----

// The stored block must have its layout (the pass runs after
// blk-assign-layouts).
func.func @no_layout(%arg0: !blk.ptr<bf16>, %arg1: !blk.tensordesc<[64, 128], bf16> {blk.tma_base = 0 : i64, blk.tma_shape = array<i64: -64, -128>, blk.tma_strides = array<i64: -128, -1>}) attributes {blk.kernel} {
  %c0 = arith.constant 0 : i32
  %cst = arith.constant 1.000000e+00 : bf16
  %0 = blk.splat %cst : bf16 -> tensor<64x128xbf16>
  // expected-error @+1 {{needs a layout on the stored block (run blk-assign-layouts first)}}
  blk.descriptor_store %arg1[%c0, %c0], %0 : !blk.tensordesc<[64, 128], bf16>, tensor<64x128xbf16>
  return
}
