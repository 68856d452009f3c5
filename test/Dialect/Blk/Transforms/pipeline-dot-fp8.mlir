// RUN: blk-opt %s --blk-pipeline-dot=num-stages=3 | FileCheck %s

// The layout @n_major_b reads its B tile back in (below).
// CHECK: #[[PACKED:blocked[0-9]*]] = #blk.blocked<sizePerThread = [4, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [1, 0]>

// 8-bit float operands of a wgmma dot go through rings only K-major (A's
// lines along K, contig 1; B's along K, contig 0): loads contiguous along K
// are copied there by cp.async.
// CHECK-LABEL: func.func @kmajor_loop
// CHECK: %[[A:.+]] = blk.local_alloc : <[3, 64, 64], f8E4M3FN, contig = 1>
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 64, 64], f8E4M3FN, contig = 0>
// CHECK: scf.for
// CHECK: blk.warp_group_dot %[[A]][%{{.+}}], %[[B]][%{{.+}}], %{{.+}} : !blk.smem<[3, 64, 64], f8E4M3FN, contig = 1>, <[3, 64, 64], f8E4M3FN, contig = 0>
// CHECK-NEXT: blk.warp_group_dot_wait %{{.+}} {pending = 1 : i32}
// CHECK: blk.async_copy %{{.+}} into %[[A]]
// CHECK: blk.async_copy %{{.+}} into %[[B]]

// An A quantized in registers (f32 scaled, rounded to e4m3) is read from
// registers, four e4m3 to a register (kWidth 4); its f32 source goes through
// a ring of its own, read back straight in A's layout, where it is scaled
// and rounded: no move into that layout each iteration. The ring is
// arranged for its threads (xor): a read of A's layout holds rows r and
// r + 1 in one access phase, which the tensor-core swizzle maps onto one
// set of banks; bit 4 of the element index (the 16-byte unit's upper half
// of a 128-byte line) flips with the row's lowest bit (6: 64 per row). The ring is read
// into registers before the dot: two slots, the copies of tile n + 2 into
// tile n's after the barrier that follows the reads. wgmma reads register
// A asynchronously and the next iteration writes A again before any
// complete wait: no group stays pending across the loop edge (with A in
// shared memory, one does).
// CHECK-LABEL: func.func @computed_a
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 64, 64], f8E4M3FN, contig = 0>
// CHECK: %[[X:.+]] = blk.local_alloc : <[2, 64, 64], f32, contig = 1, xor = [4, 6]>
// CHECK: scf.for {{.*}} iter_args(%[[ACCARG:[a-z0-9]+]] =
// CHECK-NOT: blk.convert_layout
// CHECK: %[[XSLOT:.+]] = arith.remui %[[N:.+]], %c2_i32
// CHECK: %[[XAHEAD:.+]] = arith.addi %[[N]], %c2_i32
// CHECK-NEXT: %[[XNEXT:.+]] = arith.remui %[[XAHEAD]], %c2_i32
// CHECK: blk.async_wait {pending = 1 : i32}
// CHECK: blk.barrier
// CHECK: %[[T:.+]] = blk.local_load %[[X]][%[[XSLOT]]] : <[2, 64, 64], f32, contig = 1, xor = [4, 6]> -> tensor<64x64xf32, #[[A:blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = \[4, 1\], instrShape = \[64, 64, 32\]>, kWidth = 4>]]>
// CHECK-NOT: blk.convert_layout
// CHECK: %[[S:.+]] = arith.mulf %[[T]], %{{.+}} : tensor<64x64xf32, #[[A]]>
// CHECK-NEXT: %[[Q:.+]] = arith.truncf %[[S]] : tensor<64x64xf32, #[[A]]> to tensor<64x64xf8E4M3FN, #[[A]]>
// CHECK-NEXT: %[[D:.+]] = blk.warp_group_dot %[[Q]], %[[B]][%{{.+}}], %[[ACCARG]] : tensor<64x64xf8E4M3FN, #blk.dot_op
// CHECK-NEXT: blk.barrier
// CHECK: blk.async_copy %{{.+}}, %{{.+}} into %[[X]][%[[XNEXT]]]
// CHECK-NOT: pending = 1
// CHECK: blk.warp_group_dot_wait %[[D]] {pending = 0 : i32}
// CHECK-NEXT: scf.yield

// A B quantized in registers is written K-major into one of two slots each
// iteration, whatever layout it has in registers: the rings take one slot
// less, refilled after a barrier, which lets more programs share an SM
// (the accumulators leave their registers room), and before that barrier
// every warpgroup's wgmma of iteration n - 1 is done, so the B slot
// written in iteration n + 1 is free.
// CHECK-LABEL: func.func @computed_b
// CHECK: %[[A:.+]] = blk.local_alloc : <[3, 64, 64], f8E4M3FN, contig = 1>
// CHECK: %[[B:.+]] = blk.local_alloc : <[2, 64, 64], f8E4M3FN, contig = 0>
// CHECK: scf.for
// CHECK: blk.local_store %{{.+}}, %[[B]][%[[SLOT:.+]]] : tensor<64x64xf8E4M3FN, #{{.+}}>, <[2, 64, 64], f8E4M3FN, contig = 0>
// CHECK: blk.warp_group_dot %[[A]][%{{.+}}], %[[B]][%[[SLOT]]]

// A B loaded along N (the tutorial's B stored [K, N]): wgmma cannot read
// its ring K-major, so it is a ring of its own, read back into registers
// and written into a K-major buffer each iteration. Its layout had one
// element along K per thread (a byte store each); it is read back in the
// blocked layout whose three moves take the fewest shared-memory
// wavefronts, the ring arranged for its threads where that takes fewer:
// 4 x 8 elements per thread, 16 lanes along K (8 wavefronts a warp for the
// copies, 8 for the reads, 16 for the writes; on the tensor-core
// arrangement the best, 2 x 16 with 32 lanes along K, takes 8, 16 and 16:
// test/unit/RingReadBackTest.cpp). The loop needs the tile in no other
// layout. Four slots for A's ring and three for B's, which only registers
// read (a slot fewer for each would let shared memory hold more programs
// than the accumulators' registers let share an SM; blk.num_warps = 4: 5
// at most).
// CHECK-LABEL: func.func @n_major_b
// CHECK: %[[A:.+]] = blk.local_alloc : <[4, 64, 64], f8E4M3FN, contig = 1>
// CHECK: %[[RING:.+]] = blk.local_alloc : <[3, 64, 64], f8E4M3FN, contig = 1, xor = [4, 8, 5, 9, 6, 10]>
// CHECK: %[[B:.+]] = blk.local_alloc : <[3, 64, 64], f8E4M3FN, contig = 0>
// CHECK: scf.for
// CHECK: %[[T:.+]] = blk.local_load %[[RING]][%{{.+}}] : <[3, 64, 64], f8E4M3FN, contig = 1, xor = [4, 8, 5, 9, 6, 10]> -> tensor<64x64xf8E4M3FN, #[[PACKED]]>
// CHECK-NOT: blk.convert_layout %[[T]]
// CHECK: blk.local_store %[[T]], %[[B]]
// CHECK: blk.warp_group_dot %[[A]][%{{.+}}], %[[B]]
#blocked = #blk.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked2 = #blk.blocked<sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 1, parent = #blocked1>
#slice2 = #blk.slice<dim = 1, parent = #blocked2>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
#slice4 = #blk.slice<dim = 0, parent = #blocked1>
#slice5 = #blk.slice<dim = 0, parent = #blocked2>
module attributes {blk.num_warps = 4 : i32} {
  func.func @kmajor_loop(%arg0: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %4 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %5 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %6 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    %7 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %6) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>)  : i32 {
      %18 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %19 = blk.splat %arg3 : i32 -> tensor<64x1xi32, #blocked>
      %20 = arith.muli %18, %19 : tensor<64x1xi32, #blocked>
      %21 = blk.splat %arg0 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>
      %22 = blk.addptr %21, %20 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x1xi32, #blocked>
      %23 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice2>
      %24 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice3>
      %25 = arith.addi %23, %2 : tensor<64xi32, #slice2>
      %26 = arith.addi %24, %3 : tensor<64xi32, #slice3>
      %27 = blk.expand_dims %26 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
      %28 = blk.broadcast %22 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked> -> tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>
      %29 = blk.broadcast %27 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %30 = blk.addptr %28, %29 : tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x64xi32, #blocked>
      %31 = blk.load %30 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32} : (tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>) -> tensor<64x64xf8E4M3FN, #blocked>
      %32 = blk.expand_dims %25 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked2>
      %33 = blk.splat %arg1 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked2>
      %34 = blk.addptr %33, %32 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked2>, tensor<64x1xi32, #blocked2>
      %35 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked2>
      %36 = blk.splat %arg3 : i32 -> tensor<1x64xi32, #blocked2>
      %37 = arith.muli %35, %36 : tensor<1x64xi32, #blocked2>
      %38 = blk.broadcast %34 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked2> -> tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked2>
      %39 = blk.broadcast %37 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
      %40 = blk.addptr %38, %39 : tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked2>, tensor<64x64xi32, #blocked2>
      %41 = blk.load %40 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked2>) -> tensor<64x64xf8E4M3FN, #blocked2>
      %42 = blk.convert_layout %31 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %43 = blk.convert_layout %41 : tensor<64x64xf8E4M3FN, #blocked2> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %44 = blk.dot %42, %43, %arg5 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>} : tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
      scf.yield %44 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    }
    %8 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %9 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %10 = arith.muli %8, %9 : tensor<64x1xi32, #blocked1>
    %11 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %12 = blk.addptr %11, %10 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %13 = blk.expand_dims %4 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked1>
    %14 = blk.broadcast %12 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
    %15 = blk.broadcast %13 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %16 = blk.addptr %14, %15 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %17 = blk.convert_layout %7 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blocked1>
    blk.store %16, %17 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xf32, #blocked1>) -> ()
    return
  }
  func.func @computed_a(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 5.000000e-01 : f32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice5>
    %4 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    %5 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %4) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>)  : i32 {
      %16 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
      %17 = blk.splat %arg3 : i32 -> tensor<64x1xi32, #blocked1>
      %18 = arith.muli %16, %17 : tensor<64x1xi32, #blocked1>
      %19 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
      %20 = blk.addptr %19, %18 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
      %21 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice2>
      %22 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice4>
      %23 = arith.addi %21, %1 : tensor<64xi32, #slice2>
      %24 = arith.addi %22, %2 : tensor<64xi32, #slice4>
      %25 = blk.expand_dims %24 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked1>
      %26 = blk.broadcast %20 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
      %27 = blk.broadcast %25 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %28 = blk.addptr %26, %27 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
      %29 = blk.load %28 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>) -> tensor<64x64xf32, #blocked1>
      %30 = blk.expand_dims %23 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked2>
      %31 = blk.splat %arg1 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked2>
      %32 = blk.addptr %31, %30 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked2>, tensor<64x1xi32, #blocked2>
      %33 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice5> -> tensor<1x64xi32, #blocked2>
      %34 = blk.splat %arg3 : i32 -> tensor<1x64xi32, #blocked2>
      %35 = arith.muli %33, %34 : tensor<1x64xi32, #blocked2>
      %36 = blk.broadcast %32 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked2> -> tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked2>
      %37 = blk.broadcast %35 : tensor<1x64xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
      %38 = blk.addptr %36, %37 : tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked2>, tensor<64x64xi32, #blocked2>
      %39 = blk.load %38 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32, vec_dim = 0 : i32} : (tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked2>) -> tensor<64x64xf8E4M3FN, #blocked2>
      %40 = blk.splat %cst : f32 -> tensor<64x64xf32, #blocked1>
      %41 = arith.mulf %29, %40 : tensor<64x64xf32, #blocked1>
      %42 = arith.truncf %41 : tensor<64x64xf32, #blocked1> to tensor<64x64xf8E4M3FN, #blocked1>
      %43 = blk.convert_layout %42 : tensor<64x64xf8E4M3FN, #blocked1> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %44 = blk.convert_layout %39 : tensor<64x64xf8E4M3FN, #blocked2> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %45 = blk.dot %43, %44, %arg5 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>} : tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
      scf.yield %45 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    }
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %7 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked1>
    %9 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %11 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked1>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
    %13 = blk.broadcast %11 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %14 = blk.addptr %12, %13 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %15 = blk.convert_layout %5 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blocked1>
    blk.store %14, %15 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xf32, #blocked1>) -> ()
    return
  }
  func.func @computed_b(%arg0: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %cst = arith.constant 2.000000e+00 : f32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %4 = blk.splat %cst_0 : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    %5 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %4) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>)  : i32 {
      %16 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %17 = blk.splat %arg3 : i32 -> tensor<64x1xi32, #blocked>
      %18 = arith.muli %16, %17 : tensor<64x1xi32, #blocked>
      %19 = blk.splat %arg0 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>
      %20 = blk.addptr %19, %18 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x1xi32, #blocked>
      %21 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice1>
      %22 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice3>
      %23 = arith.addi %21, %1 : tensor<64xi32, #slice1>
      %24 = arith.addi %22, %2 : tensor<64xi32, #slice3>
      %25 = blk.expand_dims %24 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
      %26 = blk.broadcast %20 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked> -> tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>
      %27 = blk.broadcast %25 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %28 = blk.addptr %26, %27 : tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x64xi32, #blocked>
      %29 = blk.load %28 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32} : (tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>) -> tensor<64x64xf8E4M3FN, #blocked>
      %30 = blk.expand_dims %23 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
      %31 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
      %32 = arith.muli %30, %31 : tensor<64x1xi32, #blocked1>
      %33 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
      %34 = blk.addptr %33, %32 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
      %35 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked1>
      %36 = blk.broadcast %34 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
      %37 = blk.broadcast %35 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %38 = blk.addptr %36, %37 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
      %39 = blk.load %38 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>) -> tensor<64x64xf32, #blocked1>
      %40 = blk.splat %cst : f32 -> tensor<64x64xf32, #blocked1>
      %41 = arith.mulf %39, %40 : tensor<64x64xf32, #blocked1>
      %42 = arith.truncf %41 : tensor<64x64xf32, #blocked1> to tensor<64x64xf8E4M3FN, #blocked1>
      %43 = blk.convert_layout %29 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %44 = blk.convert_layout %42 : tensor<64x64xf8E4M3FN, #blocked1> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %45 = blk.dot %43, %44, %arg5 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>} : tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
      scf.yield %45 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    }
    %6 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %7 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked1>
    %9 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %11 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked1>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
    %13 = blk.broadcast %11 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %14 = blk.addptr %12, %13 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %15 = blk.convert_layout %5 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blocked1>
    blk.store %14, %15 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xf32, #blocked1>) -> ()
    return
  }
  func.func @n_major_b(%arg0: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f8E4M3FN> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice4>
    %4 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    %5 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %4) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>)  : i32 {
      %16 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %17 = blk.splat %arg3 : i32 -> tensor<64x1xi32, #blocked>
      %18 = arith.muli %16, %17 : tensor<64x1xi32, #blocked>
      %19 = blk.splat %arg0 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>
      %20 = blk.addptr %19, %18 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x1xi32, #blocked>
      %21 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice>
      %22 = blk.splat %arg4 : i32 -> tensor<64xi32, #slice3>
      %23 = arith.addi %21, %0 : tensor<64xi32, #slice>
      %24 = arith.addi %22, %2 : tensor<64xi32, #slice3>
      %25 = blk.expand_dims %24 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
      %26 = blk.broadcast %20 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked> -> tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>
      %27 = blk.broadcast %25 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %28 = blk.addptr %26, %27 : tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x64xi32, #blocked>
      %29 = blk.load %28 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32} : (tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>) -> tensor<64x64xf8E4M3FN, #blocked>
      %30 = blk.expand_dims %23 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
      %31 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked>
      %32 = arith.muli %30, %31 : tensor<64x1xi32, #blocked>
      %33 = blk.splat %arg1 : !blk.ptr<f8E4M3FN> -> tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>
      %34 = blk.addptr %33, %32 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x1xi32, #blocked>
      %35 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
      %36 = blk.broadcast %34 : tensor<64x1x!blk.ptr<f8E4M3FN>, #blocked> -> tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>
      %37 = blk.broadcast %35 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %38 = blk.addptr %36, %37 : tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>, tensor<64x64xi32, #blocked>
      %39 = blk.load %38 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32} : (tensor<64x64x!blk.ptr<f8E4M3FN>, #blocked>) -> tensor<64x64xf8E4M3FN, #blocked>
      %40 = blk.convert_layout %29 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %41 = blk.convert_layout %39 : tensor<64x64xf8E4M3FN, #blocked> -> tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>
      %42 = blk.dot %40, %41, %arg5 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>} : tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf8E4M3FN, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>, kWidth = 4>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
      scf.yield %42 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>>
    }
    %6 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice1> -> tensor<64x1xi32, #blocked1>
    %7 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blocked1>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked1>
    %9 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked1>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %11 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice4> -> tensor<1x64xi32, #blocked1>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<f32>, #blocked1> -> tensor<64x64x!blk.ptr<f32>, #blocked1>
    %13 = blk.broadcast %11 : tensor<1x64xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
    %14 = blk.addptr %12, %13 : tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xi32, #blocked1>
    %15 = blk.convert_layout %5 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>> -> tensor<64x64xf32, #blocked1>
    blk.store %14, %15 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked1>, tensor<64x64xf32, #blocked1>) -> ()
    return
  }
}

