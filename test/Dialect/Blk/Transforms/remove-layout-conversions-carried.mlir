// RUN: blk-opt %s --blk-remove-layout-conversions | FileCheck %s

// A pointer tile the loop advances and reads only through a conversion (a
// load of A^T coalesced along its column, blk-coalesce) is carried in the
// converted layout: its initial value is computed again in that layout,
// the advance runs there, and no conversion (a round trip of 64x32 pointers
// through shared memory) is left in the loop.
// CHECK-LABEL: func.func @transposed_a
// CHECK: scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[A:.+]] = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<64x64xf32, #{{.+}}>, tensor<64x32x!blk.ptr<bf16>, #[[COL:[a-z0-9]+]]>
// CHECK-NOT: blk.convert_layout {{.*}}!blk.ptr
// CHECK: blk.load %[[A]] {{.*}} -> tensor<64x32xbf16, #[[COL]]>
// CHECK-NOT: blk.convert_layout {{.*}}!blk.ptr
// CHECK: %[[NEXT:.+]] = blk.addptr %[[A]], %{{.+}} : tensor<64x32x!blk.ptr<bf16>, #[[COL]]>
// CHECK: scf.yield %{{.+}}, %[[NEXT]],
// CHECK-NOT: blk.convert_layout {{.*}}!blk.ptr
#blocked = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #blk.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#blocked2 = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice1 = #blk.slice<dim = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
#slice2 = #blk.slice<dim = 0, parent = #blocked>
#slice3 = #blk.slice<dim = 1, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @transposed_a(%arg0: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<bf16> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg3: i32, %arg4: i64 {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %c64_i32 = arith.constant 64 : i32
    %c2048_i32 = arith.constant 2048 : i32
    %c32_i64 = arith.constant 32 : i64
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant 0.000000e+00 : f32
    %c64_i64 = arith.constant 64 : i64
    %0 = blk.arange 0, 64 : tensor<64xi32, #slice>
    %1 = blk.arange 0, 32 : tensor<32xi32, #slice2>
    %2 = blk.expand_dims %1 {axis = 0 : i32} : tensor<32xi32, #slice2> -> tensor<1x32xi32, #blocked>
    %3 = arith.extsi %2 : tensor<1x32xi32, #blocked> to tensor<1x32xi64, #blocked>
    %4 = blk.splat %arg4 : i64 -> tensor<1x32xi64, #blocked>
    %5 = arith.muli %3, %4 : tensor<1x32xi64, #blocked>
    %6 = blk.splat %arg0 : !blk.ptr<bf16> -> tensor<1x32x!blk.ptr<bf16>, #blocked>
    %7 = blk.addptr %6, %5 : tensor<1x32x!blk.ptr<bf16>, #blocked>, tensor<1x32xi64, #blocked>
    %8 = blk.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %9 = blk.broadcast %7 : tensor<1x32x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked>
    %10 = blk.convert_layout %8 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x1xi32, #blocked>
    %11 = blk.broadcast %10 : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %12 = blk.addptr %9, %11 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi32, #blocked>
    %13 = blk.convert_layout %1 : tensor<32xi32, #slice2> -> tensor<32xi32, #slice3>
    %14 = blk.expand_dims %13 {axis = 1 : i32} : tensor<32xi32, #slice3> -> tensor<32x1xi32, #blocked>
    %15 = arith.extsi %14 : tensor<32x1xi32, #blocked> to tensor<32x1xi64, #blocked>
    %16 = blk.splat %c64_i64 : i64 -> tensor<32x1xi64, #blocked>
    %17 = arith.muli %15, %16 : tensor<32x1xi64, #blocked>
    %18 = blk.splat %arg1 : !blk.ptr<bf16> -> tensor<32x1x!blk.ptr<bf16>, #blocked>
    %19 = blk.addptr %18, %17 : tensor<32x1x!blk.ptr<bf16>, #blocked>, tensor<32x1xi64, #blocked>
    %20 = blk.convert_layout %0 : tensor<64xi32, #slice> -> tensor<64xi32, #slice1>
    %21 = blk.expand_dims %20 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %22 = blk.broadcast %19 : tensor<32x1x!blk.ptr<bf16>, #blocked> -> tensor<32x64x!blk.ptr<bf16>, #blocked>
    %23 = blk.convert_layout %21 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<1x64xi32, #blocked>
    %24 = blk.broadcast %23 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %25 = blk.addptr %22, %24 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
    %26 = blk.splat %cst : f32 -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %27:3 = scf.for %arg5 = %c0_i32 to %arg3 step %c32_i32 iter_args(%arg6 = %26, %arg7 = %12, %arg8 = %25) -> (tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>)  : i32 {
      %37 = blk.convert_layout %arg7 : tensor<64x32x!blk.ptr<bf16>, #blocked> -> tensor<64x32x!blk.ptr<bf16>, #blocked1>
      %38 = blk.load %37 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<bf16>, #blocked1>) -> tensor<64x32xbf16, #blocked1>
      %39 = blk.convert_layout %38 : tensor<64x32xbf16, #blocked1> -> tensor<64x32xbf16, #blocked>
      %40 = blk.load %arg8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<32x64x!blk.ptr<bf16>, #blocked>) -> tensor<32x64xbf16, #blocked>
      %41 = blk.convert_layout %39 : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %42 = blk.convert_layout %40 : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>
      %43 = blk.dot %41, %42, %arg6 {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>} : tensor<64x32xbf16, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<32x64xbf16, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>, kWidth = 2>>, tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
      %44 = arith.muli %arg4, %c32_i64 : i64
      %45 = blk.splat %44 : i64 -> tensor<64x32xi64, #blocked>
      %46 = blk.addptr %arg7, %45 : tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<64x32xi64, #blocked>
      %47 = blk.splat %c2048_i32 : i32 -> tensor<32x64xi32, #blocked>
      %48 = blk.addptr %arg8, %47 : tensor<32x64x!blk.ptr<bf16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %43, %46, %48 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x32x!blk.ptr<bf16>, #blocked>, tensor<32x64x!blk.ptr<bf16>, #blocked>
    }
    %28 = blk.splat %c64_i32 : i32 -> tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %29 = arith.muli %8, %28 : tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %30 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %31 = blk.addptr %30, %29 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x1xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %32 = blk.broadcast %31 : tensor<64x1x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %33 = blk.broadcast %21 : tensor<1x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %34 = blk.addptr %32, %33 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>, tensor<64x64xi32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>>
    %35 = blk.convert_layout %34 : tensor<64x64x!blk.ptr<f32>, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64x!blk.ptr<f32>, #blocked2>
    %36 = blk.convert_layout %27#0 : tensor<64x64xf32, #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>> -> tensor<64x64xf32, #blocked2>
    blk.store %35, %36 {vec = 4 : i32} : (tensor<64x64x!blk.ptr<f32>, #blocked2>, tensor<64x64xf32, #blocked2>) -> ()
    return
  }
}


