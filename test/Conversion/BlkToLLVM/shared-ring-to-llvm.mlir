// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s

// The rings (4 slots of 4 KiB each) start at 1024-byte boundaries. Each
// thread's copies are 16-byte cp.async with a zero fill when masked off: 2
// per tile (64x32 and 32x64 bf16 over 128 threads), 2 tiles per stage. The
// loop waits for one group, fences for the async proxy, synchronizes, then
// wgmma m64n64k16 twice (K = 32), A K-major (trans-a 0) and B N-major
// (trans-b 1), commits and waits with one group left in flight. B's
// descriptor: 128-byte swizzle (mode 1 at bit 62), 8-line groups 1024 bytes
// apart (64 << 32), N chunks 4096 bytes apart (256 << 16). Every
// descriptor is computed before the fence, so nothing but the wgmma
// instructions sits between the fence and the commit.
// CHECK: llvm.mlir.global external @blk_shared() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK-LABEL: func.func @wgmma
// CHECK-SAME: blk.shared = 32768
// CHECK-COUNT-4: cp.async.cg.shared.global [$0], [$1], 16, $2;
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: fence.proxy.async.shared::cta
// CHECK: nvvm.barrier0
// The descriptors of k 0, then those of k 16 stepped from them: A 32 bytes
// on along its K-major lines (2 units), B 16 lines of 128 bytes (128 units).
// CHECK: %[[DA:[0-9]+]] = llvm.or %{{[0-9]+}}, %{{[0-9]+}} : i64
// CHECK: llvm.mlir.constant(4611686293322072064 : i64)
// CHECK-NEXT: llvm.zext
// CHECK-NEXT: %[[DB:[0-9]+]] = llvm.or %{{[0-9]+}}, %{{[0-9]+}} : i64
// CHECK-NEXT: %[[TWO:[0-9]+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: llvm.add %[[DA]], %[[TWO]] : i64
// CHECK-NEXT: %[[UNITS:[0-9]+]] = llvm.mlir.constant(128 : i64) : i64
// CHECK-NEXT: llvm.add %[[DB]], %[[UNITS]] : i64
// CHECK: wgmma.fence.sync.aligned
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// CHECK-NOT: llvm.{{(add|or|and|lshr|zext|mul|mlir.constant)}}
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// CHECK-NOT: wgmma.mma_async
// CHECK-NOT: llvm.{{(add|or|and|lshr|zext|mul|mlir.constant)}}
// CHECK: wgmma.commit_group.sync.aligned
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-COUNT-4: cp.async.cg.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.yield
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.barrier0
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice2 = #blk.slice<dim = 1, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @wgmma(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32) attributes {blk.constants = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %c32_i32 = arith.constant 32 : i32
    %7 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked>
    %9 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
    %11 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
    %13 = blk.broadcast %11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %14 = blk.addptr %12, %13 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %15 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %16 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32, #blocked>
    %17 = arith.muli %15, %16 : tensor<32x1xi32, #blocked>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
    %20 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
    %21 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x64x!blk.ptr<bf16>, #blocked>
    %22 = blk.broadcast %20 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %23 = blk.addptr %21, %22 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %cst = arith.constant 0.000000e+00 : f32
    %24 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %c0_i32 = arith.constant 0 : i32
    %25 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32, #blocked>
    %c2048_i32 = arith.constant 2048 : i32
    %26 = blk.splat %c2048_i32 : i32 -> tensor<32x64xi32, #blocked>
    %27 = blk.local_alloc : <[4, 64, 32], bf16, contig = 1>
    %28 = blk.local_alloc : <[4, 32, 64], bf16, contig = 1>
    %29 = arith.cmpi slt, %c0_i32, %arg3 : i32
    %30 = blk.splat %29 : i1 -> tensor<64x32xi1, #blocked>
    blk.async_copy %14, %30 into %27[%c0_i32] {vec = 8 : i32} : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi1, #blocked> -> <[4, 64, 32], bf16, contig = 1>
    %31 = arith.subi %arg3, %c0_i32 : i32
    %32 = blk.splat %31 : i32 -> tensor<32x1xi32, #blocked>
    %33 = arith.cmpi slt, %15, %32 : tensor<32x1xi32, #blocked>
    %34 = blk.broadcast %33 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
    %35 = blk.splat %29 : i1 -> tensor<32x64xi1, #blocked>
    %36 = arith.andi %34, %35 : tensor<32x64xi1, #blocked>
    blk.async_copy %23, %36 into %28[%c0_i32] {vec = 8 : i32} : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked> -> <[4, 32, 64], bf16, contig = 1>
    blk.async_commit_group
    %37 = arith.addi %c0_i32, %c32_i32 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_0 = arith.constant dense<1> : tensor<64x32xi32, #blocked>
    %38 = arith.muli %25, %cst_0 : tensor<64x32xi32, #blocked>
    %39 = blk.addptr %14, %38 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %40 = arith.cmpi slt, %37, %arg3 : i32
    %41 = arith.cmpi sgt, %37, %c0_i32 : i32
    %42 = arith.andi %40, %41 : i1
    %43 = blk.splat %42 : i1 -> tensor<64x32xi1, #blocked>
    blk.async_copy %39, %43 into %27[%c1_i32] {vec = 8 : i32} : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi1, #blocked> -> <[4, 64, 32], bf16, contig = 1>
    %cst_1 = arith.constant dense<1> : tensor<32x64xi32, #blocked>
    %44 = arith.muli %26, %cst_1 : tensor<32x64xi32, #blocked>
    %45 = blk.addptr %23, %44 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %46 = arith.subi %arg3, %37 : i32
    %47 = blk.splat %46 : i32 -> tensor<32x1xi32, #blocked>
    %48 = arith.cmpi slt, %15, %47 : tensor<32x1xi32, #blocked>
    %49 = blk.broadcast %48 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
    %50 = blk.splat %42 : i1 -> tensor<32x64xi1, #blocked>
    %51 = arith.andi %49, %50 : tensor<32x64xi1, #blocked>
    blk.async_copy %45, %51 into %28[%c1_i32] {vec = 8 : i32} : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked> -> <[4, 32, 64], bf16, contig = 1>
    blk.async_commit_group
    %cst_2 = arith.constant dense<2> : tensor<64x32xi32, #blocked>
    %52 = arith.muli %25, %cst_2 : tensor<64x32xi32, #blocked>
    %cst_3 = arith.constant dense<2> : tensor<32x64xi32, #blocked>
    %53 = arith.muli %26, %cst_3 : tensor<32x64xi32, #blocked>
    %54:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %24, %arg6 = %14, %arg7 = %23) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>)  : i32 {
      %65 = arith.subi %arg4, %c0_i32 : i32
      %66 = arith.divsi %65, %c32_i32 : i32
      %c4_i32 = arith.constant 4 : i32
      %67 = arith.remui %66, %c4_i32 : i32
      %c2_i32 = arith.constant 2 : i32
      %68 = arith.addi %66, %c2_i32 : i32
      %69 = arith.remui %68, %c4_i32 : i32
      blk.async_wait {pending = 1 : i32}
      blk.fence_async_shared
      blk.barrier
      %70 = arith.subi %arg3, %arg4 : i32
      %71 = blk.splat %70 : i32 -> tensor<32x1xi32, #blocked>
      %72 = arith.cmpi slt, %15, %71 : tensor<32x1xi32, #blocked>
      %cst_4 = arith.constant 0.000000e+00 : bf16
      %73 = blk.warp_group_dot %27[%67], %28[%67], %arg5 : !blk.smem<[4, 64, 32], bf16, contig = 1>, <[4, 32, 64], bf16, contig = 1>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %74 = blk.warp_group_dot_wait %73 {pending = 1 : i32} : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %75 = arith.addi %arg4, %c64_i32 : i32
      %76 = blk.addptr %arg6, %52 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %77 = arith.cmpi slt, %75, %arg3 : i32
      %78 = arith.cmpi sgt, %75, %arg4 : i32
      %79 = arith.andi %77, %78 : i1
      %80 = blk.splat %79 : i1 -> tensor<64x32xi1, #blocked>
      blk.async_copy %76, %80 into %27[%69] {vec = 8 : i32} : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi1, #blocked> -> <[4, 64, 32], bf16, contig = 1>
      %81 = blk.addptr %arg7, %53 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      %82 = arith.subi %arg3, %75 : i32
      %83 = blk.splat %82 : i32 -> tensor<32x1xi32, #blocked>
      %84 = arith.cmpi slt, %15, %83 : tensor<32x1xi32, #blocked>
      %85 = blk.broadcast %84 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %86 = blk.splat %79 : i1 -> tensor<32x64xi1, #blocked>
      %87 = arith.andi %85, %86 : tensor<32x64xi1, #blocked>
      blk.async_copy %81, %87 into %28[%69] {vec = 8 : i32} : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked> -> <[4, 32, 64], bf16, contig = 1>
      blk.async_commit_group
      %88 = blk.addptr %arg6, %25 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %89 = blk.addptr %arg7, %26 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %74, %88, %89 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>
    }
    %55 = blk.warp_group_dot_wait %54#0 {pending = 0 : i32} : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    blk.async_wait {pending = 0 : i32}
    blk.barrier
    %56 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %57 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %58 = arith.muli %56, %57 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %59 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %60 = blk.addptr %59, %58 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %61 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %62 = blk.broadcast %60 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %63 = blk.broadcast %61 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %64 = blk.addptr %62, %63 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    blk.store %64, %55 {vec = 2 : i32} : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>) -> ()
    return
  }
}


// -----

// mma.sync from rings: each iteration reads its slot with ldmatrix, A
// (K along its lines) plain and B (N along its lines) transposed, four 8x8
// matrices per instruction, then 16 mma.sync (64x64 over 4 warps, K = 32).
// CHECK-LABEL: func.func @mma_sync
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: nvvm.barrier0
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: ldmatrix
// CHECK: scf.yield
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
#slice2 = #blk.slice<dim = 1, parent = #blocked>
#slice3 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @mma_sync(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32) attributes {blk.constants = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice2>
    %1 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %2 = blk.arange 0, 64 : tensor<64xi32, #slice3>
    %3 = blk.arange 0, 64 : tensor<64xi32, #slice1>
    %4 = blk.arange 0, 32 : tensor<32xi32, #slice3>
    %5 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %6 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked>
    %c32_i32 = arith.constant 32 : i32
    %7 = blk.splat %c32_i32 : i32 -> tensor<64x1xi32, #blocked>
    %8 = arith.muli %6, %7 : tensor<64x1xi32, #blocked>
    %9 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<64x1x!blk.ptr<bf16>, #blocked>
    %10 = blk.addptr %9, %8 : tensor<64x1x!blk.ptr<bf16>, #blocked>, tensor<64x1xi32, #blocked>
    %11 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32, #slice3> -> tensor<1x32xi32, #blocked>
    %12 = blk.broadcast %10 : tensor<64x1x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
    %13 = blk.broadcast %11 : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %14 = blk.addptr %12, %13 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %15 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32, #slice2> -> tensor<32x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %16 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32, #blocked>
    %17 = arith.muli %15, %16 : tensor<32x1xi32, #blocked>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi32, #blocked>
    %20 = blk.expand_dims %2 {axis = 0 : i32} : tensor<64xi32, #slice3> -> tensor<1x64xi32, #blocked>
    %21 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x64x!blk.ptr<bf16>, #blocked>
    %22 = blk.broadcast %20 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %23 = blk.addptr %21, %22 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %cst = arith.constant 0.000000e+00 : f32
    %24 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %c0_i32 = arith.constant 0 : i32
    %25 = blk.splat %c32_i32 : i32 -> tensor<64x32xi32, #blocked>
    %c2048_i32 = arith.constant 2048 : i32
    %26 = blk.splat %c2048_i32 : i32 -> tensor<32x64xi32, #blocked>
    %27 = blk.local_alloc : <[2, 64, 32], bf16, contig = 1>
    %28 = blk.local_alloc : <[2, 32, 64], bf16, contig = 1>
    %29 = arith.cmpi slt, %c0_i32, %arg3 : i32
    %30 = blk.splat %29 : i1 -> tensor<64x32xi1, #blocked>
    blk.async_copy %14, %30 into %27[%c0_i32] {vec = 8 : i32} : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi1, #blocked> -> <[2, 64, 32], bf16, contig = 1>
    %31 = arith.subi %arg3, %c0_i32 : i32
    %32 = blk.splat %31 : i32 -> tensor<32x1xi32, #blocked>
    %33 = arith.cmpi slt, %15, %32 : tensor<32x1xi32, #blocked>
    %34 = blk.broadcast %33 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
    %35 = blk.splat %29 : i1 -> tensor<32x64xi1, #blocked>
    %36 = arith.andi %34, %35 : tensor<32x64xi1, #blocked>
    blk.async_copy %23, %36 into %28[%c0_i32] {vec = 8 : i32} : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked> -> <[2, 32, 64], bf16, contig = 1>
    blk.async_commit_group
    %cst_0 = arith.constant dense<1> : tensor<64x32xi32, #blocked>
    %37 = arith.muli %25, %cst_0 : tensor<64x32xi32, #blocked>
    %cst_1 = arith.constant dense<1> : tensor<32x64xi32, #blocked>
    %38 = arith.muli %26, %cst_1 : tensor<32x64xi32, #blocked>
    %39:3 = scf.for %arg4 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg5 = %24, %arg6 = %14, %arg7 = %23) -> (tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>)  : i32 {
      %49 = arith.subi %arg4, %c0_i32 : i32
      %50 = arith.divsi %49, %c32_i32 : i32
      %c2_i32 = arith.constant 2 : i32
      %51 = arith.remui %50, %c2_i32 : i32
      %c1_i32 = arith.constant 1 : i32
      %52 = arith.addi %50, %c1_i32 : i32
      %53 = arith.remui %52, %c2_i32 : i32
      blk.async_wait {pending = 0 : i32}
      blk.barrier
      %54 = arith.subi %arg3, %arg4 : i32
      %55 = blk.splat %54 : i32 -> tensor<32x1xi32, #blocked>
      %56 = arith.cmpi slt, %15, %55 : tensor<32x1xi32, #blocked>
      %cst_2 = arith.constant 0.000000e+00 : bf16
      %57 = blk.local_load %27[%51] : <[2, 64, 32], bf16, contig = 1> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>
      %58 = blk.local_load %28[%51] : <[2, 32, 64], bf16, contig = 1> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>
      %59 = blk.dot %57, %58, %arg5 {mma = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
      %60 = arith.addi %arg4, %c32_i32 : i32
      %61 = blk.addptr %arg6, %37 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %62 = arith.cmpi slt, %60, %arg3 : i32
      %63 = arith.cmpi sgt, %60, %arg4 : i32
      %64 = arith.andi %62, %63 : i1
      %65 = blk.splat %64 : i1 -> tensor<64x32xi1, #blocked>
      blk.async_copy %61, %65 into %27[%53] {vec = 8 : i32} : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi1, #blocked> -> <[2, 64, 32], bf16, contig = 1>
      %66 = blk.addptr %arg7, %38 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      %67 = arith.subi %arg3, %60 : i32
      %68 = blk.splat %67 : i32 -> tensor<32x1xi32, #blocked>
      %69 = arith.cmpi slt, %15, %68 : tensor<32x1xi32, #blocked>
      %70 = blk.broadcast %69 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %71 = blk.splat %64 : i1 -> tensor<32x64xi1, #blocked>
      %72 = arith.andi %70, %71 : tensor<32x64xi1, #blocked>
      blk.async_copy %66, %72 into %28[%53] {vec = 8 : i32} : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi1, #blocked> -> <[2, 32, 64], bf16, contig = 1>
      blk.async_commit_group
      %73 = blk.addptr %arg6, %25 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
      %74 = blk.addptr %arg7, %26 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %59, %73, %74 : tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>
    }
    blk.async_wait {pending = 0 : i32}
    blk.barrier
    %40 = blk.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %41 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %42 = arith.muli %40, %41 : tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %43 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %44 = blk.addptr %43, %42 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x1xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %45 = blk.expand_dims %3 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %46 = blk.broadcast %44 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %47 = blk.broadcast %45 : tensor<1x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>> -> tensor<64x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    %48 = blk.addptr %46, %47 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x64xi32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>
    blk.store %48, %39#0 {vec = 2 : i32} : (tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>, tensor<64x64xf32, #blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>>) -> ()
    return
  }
}


// -----

// A block written into a one-slot buffer: each thread's 8 bf16 along a
// line go as one 16-byte store into the line's swizzled 16-byte unit (the
// unit XOR-ed with bits 7.. of the line's offset), 4 stores for the thread's
// 4 rows of the 64x64 tile over 128 threads.
#b = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @stage
// CHECK-COUNT-4: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: return
func.func @stage(%x: tensor<64x64xbf16, #b>) {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
  blk.local_store %x, %buf[%c0] : tensor<64x64xbf16, #b>, !blk.smem<[1, 64, 64], bf16, contig = 1>
  return
}
}

// -----

// An 8-bit tile moved from an N-major ring into a K-major buffer (a B stored
// [K, N] on its way to wgmma), 4 x 4 bytes per thread, the 4 along K first:
// each thread reads its 4 rows of the ring as 4-byte words (register bits
// 2 and 3 run along the ring's lines, not bits 0 and 1) and writes its 4
// columns into the buffer as 4-byte words; 32 bytes each way, 8 accesses.
#p = #blk.blocked<sizePerThread = [4, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @transpose_bytes
// CHECK-COUNT-8: llvm.load %{{.+}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<1xi32>
// CHECK-NOT: llvm.load
// CHECK-COUNT-8: llvm.store %{{.+}}, %{{.+}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: return
func.func @transpose_bytes(%slot: i32) {
  %ring = blk.local_alloc : !blk.smem<[3, 64, 64], f8E4M3FN, contig = 1>
  %buf = blk.local_alloc : !blk.smem<[3, 64, 64], f8E4M3FN, contig = 0>
  %t = blk.local_load %ring[%slot] : !blk.smem<[3, 64, 64], f8E4M3FN, contig = 1> -> tensor<64x64xf8E4M3FN, #p>
  blk.local_store %t, %buf[%slot] : tensor<64x64xf8E4M3FN, #p>, !blk.smem<[3, 64, 64], f8E4M3FN, contig = 0>
  return
}
}

// -----

// A tile smaller than the threads' reach: an 8x64 bf16 tile over 4 warps in
// vectors of 8 (16 rows' reach), so warps 2 and 3 hold copies of warps 0
// and 1's rows. Only the owners issue cp.async (predicated on the warp bit that
// makes the copies); two writes of one address would race.
#r = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @replicated_copy
// CHECK: %[[OWNER:.+]] = llvm.zext %{{.+}} : i1 to i32
// CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $3, 0;\0A@p cp.async.cg.shared.global [$0], [$1], 16, $2;\0A}", "r,l,r,r" %{{.+}}, %{{.+}}, %{{.+}}, %[[OWNER]]
// CHECK-NOT: cp.async.cg
// CHECK: return
func.func @replicated_copy(%p: tensor<8x64x!blk.ptr<bf16>, #r>) {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[2, 8, 64], bf16, contig = 1>
  blk.async_copy %p into %buf[%c0] {vec = 8 : i32} : tensor<8x64x!blk.ptr<bf16>, #r> -> <[2, 8, 64], bf16, contig = 1>
  return
}
}

// -----

// The same tile written into a buffer (a TMA store's staging): the owners
// alone store their 16-byte vectors, predicated on the warp bit that makes
// the copies.
#r = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @replicated_stage
// CHECK: %[[OWNER:.+]] = llvm.zext %{{.+}} : i1 to i32
// CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $5, 0;\0A@p st.shared.v4.b32 [$0], {$1, $2, $3, $4};\0A}", "r,r,r,r,r,r" %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[OWNER]]
// CHECK-NOT: st.shared
// CHECK: return
func.func @replicated_stage(%x: tensor<8x64xbf16, #r>) {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 8, 64], bf16, contig = 1>
  blk.local_store %x, %buf[%c0] : tensor<8x64xbf16, #r>, !blk.smem<[1, 8, 64], bf16, contig = 1>
  return
}
}

// -----

// A wgmma accumulator's 16-bit block written into a buffer (a TMA store's
// staging): each lane holds 8x8 matrix fragments as stmatrix takes them,
// 16 matrices per thread of a 64x64 tile over 4 warps, four per
// instruction. Each lane gives the address of one matrix row (lane % 8 on
// from the matrix's first row). Into a buffer whose lines run along the
// tile's rows, the same fragments go .trans.
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @accumulator_stage
// CHECK: %[[ROW:.+]] = llvm.and %{{.+}}, %{{.+}} : i32
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};", "r,r,r,r,r"
// CHECK-NOT: st.shared
// CHECK: return
func.func @accumulator_stage(%x: tensor<64x64xbf16, #mma>) {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 1>
  blk.local_store %x, %buf[%c0] : tensor<64x64xbf16, #mma>, !blk.smem<[1, 64, 64], bf16, contig = 1>
  return
}
// CHECK-LABEL: func.func @accumulator_stage_transposed
// CHECK-COUNT-4: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: st.shared
// CHECK: return
func.func @accumulator_stage_transposed(%x: tensor<64x64xbf16, #mma>) {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], bf16, contig = 0>
  blk.local_store %x, %buf[%c0] : tensor<64x64xbf16, #mma>, !blk.smem<[1, 64, 64], bf16, contig = 0>
  return
}
// An f32 accumulator has no 16-bit fragments: 8-byte vectors.
// CHECK-LABEL: func.func @accumulator_stage_f32
// CHECK-NOT: stmatrix
// CHECK: llvm.store %{{.+}}, %{{.+}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
// CHECK: return
func.func @accumulator_stage_f32(%x: tensor<64x64xf32, #mma>) {
  %c0 = arith.constant 0 : i32
  %buf = blk.local_alloc : !blk.smem<[1, 64, 64], f32, contig = 1>
  blk.local_store %x, %buf[%c0] : tensor<64x64xf32, #mma>, !blk.smem<[1, 64, 64], f32, contig = 1>
  return
}
}

// -----

// A transposed view of a ring is its memory read through the view's type: B
// stored with N along its lines (contig = 1) is MN-major (transpose bit 1),
// the same tile seen transposed (contig = 0, K along the lines) K-major (0).
// CHECK-LABEL: func.func @transposed_view
// CHECK-NOT: blk.local_trans
// CHECK-COUNT-2: m64n32k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// CHECK-COUNT-2: m64n32k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>
module attributes {blk.num_warps = 4 : i32} {
func.func @transposed_view(%acc: tensor<64x32xf32, #mma>, %out: tensor<64x32x!blk.ptr<f32>, #mma>) {
  %c0 = arith.constant 0 : i32
  %a = blk.local_alloc : !blk.smem<[1, 64, 32], bf16, contig = 1>
  %x = blk.local_alloc : !blk.smem<[2, 32, 32], bf16, contig = 1>
  %xt = blk.local_trans %x : !blk.smem<[2, 32, 32], bf16, contig = 1> -> !blk.smem<[2, 32, 32], bf16, contig = 0>
  %d = blk.warp_group_dot %a[%c0], %xt[%c0], %acc : !blk.smem<[1, 64, 32], bf16, contig = 1>, !blk.smem<[2, 32, 32], bf16, contig = 0>, tensor<64x32xf32, #mma> -> tensor<64x32xf32, #mma>
  %e = blk.warp_group_dot %a[%c0], %x[%c0], %d : !blk.smem<[1, 64, 32], bf16, contig = 1>, !blk.smem<[2, 32, 32], bf16, contig = 1>, tensor<64x32xf32, #mma> -> tensor<64x32xf32, #mma>
  %w = blk.warp_group_dot_wait %e {pending = 0 : i32} : tensor<64x32xf32, #mma>
  blk.store %out, %w : (tensor<64x32x!blk.ptr<f32>, #mma>, tensor<64x32xf32, #mma>) -> ()
  return
}
}

// -----

// A slot read back in a blocked layout: each thread reads the elements it
// holds, 16 consecutive int8 along the ring's 64-byte lines as one 16-byte
// load (its swizzled unit), rows 32 apart twice; the slot is 4096 bytes on.
// CHECK-LABEL: func.func @read_back
// CHECK-SAME: (%{{.+}}: !llvm.ptr<1>, %[[SLOT:.+]]: i32) attributes {blk.kernel, blk.shared = 8192 : i64}
// CHECK: llvm.mul %[[SLOT]], %{{.+}} : i32
// CHECK: %[[V0:.+]] = llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NEXT: llvm.bitcast %[[V0]] : vector<4xi32> to vector<16xi8>
// CHECK: %[[V1:.+]] = llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NEXT: llvm.bitcast %[[V1]] : vector<4xi32> to vector<16xi8>
// CHECK-NOT: llvm.load
#blocked = #blk.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @read_back(%out: !blk.ptr<i8>, %slot: i32) attributes {blk.kernel} {
    %ring = blk.local_alloc : <[2, 64, 64], i8, contig = 1>
    %tile = blk.local_load %ring[%slot] : <[2, 64, 64], i8, contig = 1> -> tensor<64x64xi8, #blocked>
    %ptrs = blk.splat %out : !blk.ptr<i8> -> tensor<64x64x!blk.ptr<i8>, #blocked>
    blk.store %ptrs, %tile : (tensor<64x64x!blk.ptr<i8>, #blocked>, tensor<64x64xi8, #blocked>) -> ()
    return
  }
}

// -----

// 8-bit float operands: 32 of K per wgmma (m64nNk32), e4m3 times e5m2, no
// transpose immediates (K-major only). A 64-byte line holds one K step of
// 32 bytes and the next: the second instruction's descriptors start 32
// bytes (2 units of 16) further on.
// CHECK-LABEL: func.func @fp8_rings
// CHECK: %[[A0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK: %[[B0:.+]] = llvm.or %{{.+}}, %{{.+}} : i64
// CHECK: %[[TWO:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[A1:.+]] = llvm.add %[[A0]], %[[TWO]] : i64
// CHECK: %[[B1:.+]] = llvm.add %[[B0]], %{{.+}} : i64
// CHECK: wgmma.fence.sync.aligned
// CHECK: m64n32k32.f32.e4m3.e5m2 {{.*}}, p, 1, 1;
// CHECK-SAME: %[[A0]], %[[B0]]
// CHECK: m64n32k32.f32.e4m3.e5m2 {{.*}}, p, 1, 1;
// CHECK-SAME: %[[A1]], %[[B1]]
// CHECK: wgmma.commit_group.sync.aligned
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 32]>
module attributes {blk.num_warps = 4 : i32} {
func.func @fp8_rings(%acc: tensor<64x32xf32, #mma>, %out: tensor<64x32x!blk.ptr<f32>, #mma>) {
  %c0 = arith.constant 0 : i32
  %a = blk.local_alloc : !blk.smem<[2, 64, 64], f8E4M3FN, contig = 1>
  %b = blk.local_alloc : !blk.smem<[2, 64, 32], f8E5M2, contig = 0>
  %d = blk.warp_group_dot %a[%c0], %b[%c0], %acc : !blk.smem<[2, 64, 64], f8E4M3FN, contig = 1>, !blk.smem<[2, 64, 32], f8E5M2, contig = 0>, tensor<64x32xf32, #mma> -> tensor<64x32xf32, #mma>
  %w = blk.warp_group_dot_wait %d {pending = 0 : i32} : tensor<64x32xf32, #mma>
  blk.store %out, %w : (tensor<64x32x!blk.ptr<f32>, #mma>, tensor<64x32xf32, #mma>) -> ()
  return
}
}

// -----

// An 8-bit A from registers: four b32 per K step, each four e4m3 of one
// row (a0: row +0, columns +0..3; a1: row +8; a2, a3: columns +16..19).
// The fragment's registers (kWidth 4): columns +0..3 first, then row +8,
// then columns +16: words of registers 0-3, 4-7, 8-11 and 12-15.
// CHECK-LABEL: func.func @fp8_register_a
// CHECK-SAME: (%[[R0:[^:]+]]: i8, %[[R1:[^:]+]]: i8, %[[R2:[^:]+]]: i8, %[[R3:[^:]+]]: i8, %[[R4:[^:]+]]: i8, %{{[^:]+}}: i8, %{{[^:]+}}: i8, %{{[^:]+}}: i8, %[[R8:[^:]+]]: i8, %{{[^:]+}}: i8, %{{[^:]+}}: i8, %{{[^:]+}}: i8, %[[R12:[^:]+]]: i8,
// CHECK: llvm.insertelement %[[R0]],
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.insertelement %[[R1]],
// CHECK: llvm.insertelement %[[R3]],
// CHECK-NEXT: llvm.bitcast %{{.+}} : vector<4xi8> to i32
// CHECK: llvm.insertelement %[[R4]],
// CHECK: llvm.bitcast %{{.+}} : vector<4xi8> to i32
// CHECK: llvm.insertelement %[[R8]],
// CHECK: llvm.bitcast %{{.+}} : vector<4xi8> to i32
// CHECK: llvm.insertelement %[[R12]],
// CHECK: llvm.bitcast %{{.+}} : vector<4xi8> to i32
// CHECK: wgmma.fence.sync.aligned
// CHECK: m64n32k32.f32.e4m3.e4m3 {{.*}}, {${{[0-9]+}}, ${{[0-9]+}}, ${{[0-9]+}}, ${{[0-9]+}}}, ${{[0-9]+}}, p, 1, 1;
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 32]>
#dot = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 4>
module attributes {blk.num_warps = 4 : i32} {
func.func @fp8_register_a(%a: tensor<64x32xf8E4M3FN, #dot>, %acc: tensor<64x32xf32, #mma>, %out: tensor<64x32x!blk.ptr<f32>, #mma>) {
  %c0 = arith.constant 0 : i32
  %b = blk.local_alloc : !blk.smem<[2, 32, 32], f8E4M3FN, contig = 0>
  %d = blk.warp_group_dot %a, %b[%c0], %acc : tensor<64x32xf8E4M3FN, #dot>, !blk.smem<[2, 32, 32], f8E4M3FN, contig = 0>, tensor<64x32xf32, #mma> -> tensor<64x32xf32, #mma>
  %w = blk.warp_group_dot_wait %d {pending = 0 : i32} : tensor<64x32xf32, #mma>
  blk.store %out, %w : (tensor<64x32x!blk.ptr<f32>, #mma>, tensor<64x32xf32, #mma>) -> ()
  return
}
}

// -----

// A ring arranged for threads: an f32 tile read back as a wgmma register A
// (kWidth 4: 4 consecutive f32 of a row, one 16-byte load each), at element
// index row * 64 + column with bit 4 flipped where bit 6 (the row's lowest)
// is set, four bytes an element. The thread's own swizzled index is
// computed once; each other register's is a constant away: rows + 8 (index
// + 512) added as an immediate 2048 bytes on, columns + 16 (bit 4, which
// the thread's part may hold) XOR-ed, columns + 32 added (128 bytes).
// CHECK-LABEL: func.func @thread_arranged_read
// CHECK-SAME: (%{{.+}}: !llvm.ptr<1>, %[[SLOT:.+]]: i32) attributes {blk.kernel, blk.shared = 32768 : i64}
// CHECK: %[[INDEX:.+]] = llvm.add %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[SIX:.+]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: %[[SRC:.+]] = llvm.lshr %[[INDEX]], %[[SIX]] : i32
// CHECK-NEXT: %[[BIT:.+]] = llvm.and %[[SRC]], %{{.+}} : i32
// CHECK-NEXT: %[[FOUR:.+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[FLIP:.+]] = llvm.shl %[[BIT]], %[[FOUR]] : i32
// CHECK-NEXT: %[[SW:.+]] = llvm.xor %[[INDEX]], %[[FLIP]] : i32
// CHECK-NEXT: %[[SLOTBYTES:.+]] = llvm.mlir.constant(16384 : i32) : i32
// CHECK-NEXT: %[[SLOTOFF:.+]] = llvm.mul %[[SLOT]], %[[SLOTBYTES]] : i32
// CHECK-NEXT: %[[BASE:.+]] = llvm.getelementptr %{{.+}}[%[[SLOTOFF]]]
// CHECK: %[[OFF0:.+]] = llvm.mul %[[SW]], %{{.+}} : i32
// CHECK-NEXT: %[[AT0:.+]] = llvm.getelementptr %[[BASE]][%[[OFF0]]]
// CHECK-NEXT: llvm.load %[[AT0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: %[[ROW8:.+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT: %[[AT1:.+]] = llvm.getelementptr %{{.+}}[%[[ROW8]]]
// CHECK-NEXT: llvm.load %[[AT1]] {alignment = 16 : i64}
// CHECK: %[[K16:.+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[SW16:.+]] = llvm.xor %[[SW]], %[[K16]] : i32
// CHECK: llvm.getelementptr %[[BASE]][%{{.+}}]
// CHECK-NEXT: llvm.load
// CHECK: %[[K32:.+]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[AT4:.+]] = llvm.getelementptr %{{.+}}[%[[K32]]]
// CHECK-NEXT: llvm.load %[[AT4]] {alignment = 16 : i64}
// CHECK-COUNT-3: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: llvm.load
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 32]>
#dot = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 4>
module attributes {blk.num_warps = 4 : i32} {
  func.func @thread_arranged_read(%out: !blk.ptr<f32>, %slot: i32) attributes {blk.kernel} {
    %ring = blk.local_alloc : <[2, 64, 64], f32, contig = 1, xor = [4, 6]>
    %tile = blk.local_load %ring[%slot] : <[2, 64, 64], f32, contig = 1, xor = [4, 6]> -> tensor<64x64xf32, #dot>
    %ptrs = blk.splat %out : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>, #dot>
    blk.store %ptrs, %tile : (tensor<64x64x!blk.ptr<f32>, #dot>, tensor<64x64xf32, #dot>) -> ()
    return
  }
}

// -----

// A ring arranged for threads with nothing flipped (`xor = []`): lines one
// after another. Each thread's index is computed once (the warp's column
// times 256 plus four rows a lane) and each other register is a constant
// bytes on, with no XOR: rows + 128 are 512 bytes on, columns + 4 (a line
// of 256 elements each) 4096, both 4608.
// CHECK-LABEL: func.func @thread_arranged_unswizzled
// CHECK: %[[LINE:.+]] = llvm.mul %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[INDEX:.+]] = llvm.add %[[LINE]], %{{.+}} : i32
// CHECK-NEXT: llvm.mlir.constant(8192 : i32)
// CHECK-NEXT: %[[SLOTOFF:.+]] = llvm.mul %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[BASE:.+]] = llvm.getelementptr %{{.+}}[%[[SLOTOFF]]]
// CHECK-NOT: llvm.xor
// CHECK: %[[OFF0:.+]] = llvm.mul %[[INDEX]], %{{.+}} : i32
// CHECK-NEXT: %[[AT0:.+]] = llvm.getelementptr %[[BASE]][%[[OFF0]]]
// CHECK-NEXT: llvm.load %[[AT0]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: llvm.xor
// CHECK: llvm.mlir.constant(512 : i32)
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: llvm.xor
// CHECK: llvm.mlir.constant(4096 : i32)
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: llvm.xor
// CHECK: llvm.mlir.constant(4608 : i32)
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NOT: llvm.load
#blocked = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>
module attributes {blk.num_warps = 4 : i32} {
  func.func @thread_arranged_unswizzled(%out: !blk.ptr<i32>, %slot: i32) attributes {blk.kernel} {
    %ring = blk.local_alloc : <[2, 256, 8], i32, contig = 0, xor = []>
    %tile = blk.local_load %ring[%slot] : <[2, 256, 8], i32, contig = 0, xor = []> -> tensor<256x8xi32, #blocked>
    %ptrs = blk.splat %out : !blk.ptr<i32> -> tensor<256x8x!blk.ptr<i32>, #blocked>
    blk.store %ptrs, %tile : (tensor<256x8x!blk.ptr<i32>, #blocked>, tensor<256x8xi32, #blocked>) -> ()
    return
  }
}
