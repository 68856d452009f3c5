// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Layouts across reshapes, transposes and permutations: a side of the move
// that no access anchors takes the layout in which every thread keeps its
// elements (the move renames registers), unless that costs its group more at
// its moves and combines than the layout it has otherwise.
// CHECK-DAG: #[[TILE:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[FOLDED:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[STORED:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[PRODUCT:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[ROWS:.+]] = #blk.slice<dim = 1, parent = #[[PRODUCT]]>
// CHECK-DAG: #[[PAIRS:.+]] = #blk.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [2, 16, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>

// The [32, 128] tile's layout (4-element vectors, 32 lanes along each row,
// warps over the rows) read as a [128, 32] block: 4 elements and 8 lanes
// along each new row, the other lanes and the warps over the rows.
// CHECK-LABEL: func.func @reshape_forward
// CHECK: %[[X:.+]] = blk.load %{{.+}} -> tensor<32x128xf32, #[[TILE]]>
// CHECK-NEXT: blk.reshape %[[X]] : tensor<32x128xf32, #[[TILE]]> -> tensor<128x32xf32, #[[FOLDED]]>
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<128x32xf32

// An outer product that a transpose stores: the product (no access anchors
// it) takes the transpose of the store's layout, the columns fastest, and
// its factors that layout's slices.
// CHECK-LABEL: func.func @trans_backward
// CHECK: blk.load %{{.+}} -> tensor<64xf32, #[[ROWS]]>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<64x32xf32, #[[PRODUCT]]>
// CHECK: blk.trans %{{.+}} : tensor<64x32xf32, #[[PRODUCT]]> -> tensor<32x64xf32, #[[STORED]]>
// CHECK: blk.store %{{.+}}, %{{.+}} {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>, #[[STORED]]>, tensor<32x64xf32, #[[STORED]]>)

// A split of pairs from a tile read one element a thread: carried across
// the reshape, the layout would put each pair across two lanes, and the two
// reductions that split it would shuffle (cost 24); the pairs stay in
// registers and the reshape moves them by shuffles instead.
// CHECK-LABEL: func.func @split_pairs
// CHECK: blk.reshape %{{.+}} -> tensor<32x16x2xf32, #[[PAIRS]]>
// CHECK: blk.reduce %{{.+}} {axis = 2 : i32} : (tensor<32x16x2xf32, #[[PAIRS]]>
module {
  func.func @reshape_forward(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c128_i32 = arith.constant 128 : i32
    %2 = blk.splat %c128_i32 : i32 -> tensor<32x1xi32>
    %3 = arith.muli %1, %2 : tensor<32x1xi32>
    %4 = blk.arange 0, 128 : tensor<128xi32>
    %5 = blk.expand_dims %4 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %6 = blk.broadcast %3 : tensor<32x1xi32> -> tensor<32x128xi32>
    %7 = blk.broadcast %5 : tensor<1x128xi32> -> tensor<32x128xi32>
    %8 = arith.addi %6, %7 : tensor<32x128xi32>
    %9 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x128x!blk.ptr<f32>>
    %10 = blk.addptr %9, %8 : tensor<32x128x!blk.ptr<f32>>, tensor<32x128xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x128x!blk.ptr<f32>>) -> tensor<32x128xf32>
    %12 = blk.reshape %11 : tensor<32x128xf32> -> tensor<128x32xf32>
    %13 = blk.arange 0, 128 : tensor<128xi32>
    %14 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
    %15 = blk.addptr %14, %13 : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
    %16 = arith.mulf %12, %12 : tensor<128x32xf32>
    %17 = blk.reduce %16 {axis = 1 : i32} : (tensor<128x32xf32>) -> tensor<128xf32> {
    ^bb0(%arg2: f32, %arg3: f32):
      %18 = arith.addf %arg2, %arg3 : f32
      blk.reduce.return %18 : f32
    }
    blk.store %15, %17 {vec = 4 : i32} : (tensor<128x!blk.ptr<f32>>, tensor<128xf32>) -> ()
    return
  }
  func.func @trans_backward(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 64 : tensor<64xi32>
    %1 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
    %2 = blk.addptr %1, %0 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
    %3 = blk.load %2 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<64x!blk.ptr<f32>>) -> tensor<64xf32>
    %4 = blk.arange 0, 32 : tensor<32xi32>
    %5 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
    %6 = blk.addptr %5, %4 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
    %7 = blk.load %6 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x!blk.ptr<f32>>) -> tensor<32xf32>
    %8 = blk.expand_dims %3 {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %9 = blk.expand_dims %7 {axis = 0 : i32} : tensor<32xf32> -> tensor<1x32xf32>
    %10 = blk.broadcast %8 : tensor<64x1xf32> -> tensor<64x32xf32>
    %11 = blk.broadcast %9 : tensor<1x32xf32> -> tensor<64x32xf32>
    %12 = arith.mulf %10, %11 : tensor<64x32xf32>
    %13 = blk.arange 0, 32 : tensor<32xi32>
    %14 = blk.expand_dims %13 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c64_i32 = arith.constant 64 : i32
    %15 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32>
    %16 = arith.muli %14, %15 : tensor<32x1xi32>
    %17 = blk.arange 0, 64 : tensor<64xi32>
    %18 = blk.expand_dims %17 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %19 = blk.broadcast %16 : tensor<32x1xi32> -> tensor<32x64xi32>
    %20 = blk.broadcast %18 : tensor<1x64xi32> -> tensor<32x64xi32>
    %21 = arith.addi %19, %20 : tensor<32x64xi32>
    %22 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>>
    %23 = blk.addptr %22, %21 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
    %24 = blk.trans %12 : tensor<64x32xf32> -> tensor<32x64xf32>
    blk.store %23, %24 {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>, tensor<32x64xf32>) -> ()
    return
  }
  func.func @split_pairs(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: !blk.ptr<f32> {blk.divisibility = 16 : i64}) attributes {blk.constants = {}, blk.kernel} {
    %0 = blk.arange 0, 32 : tensor<32xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c32_i32 = arith.constant 32 : i32
    %2 = blk.splat %c32_i32 : i32 -> tensor<32x1xi32>
    %3 = arith.muli %1, %2 : tensor<32x1xi32>
    %4 = blk.arange 0, 32 : tensor<32xi32>
    %5 = blk.expand_dims %4 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %6 = blk.broadcast %3 : tensor<32x1xi32> -> tensor<32x32xi32>
    %7 = blk.broadcast %5 : tensor<1x32xi32> -> tensor<32x32xi32>
    %8 = arith.addi %6, %7 : tensor<32x32xi32>
    %9 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x32x!blk.ptr<f32>>
    %10 = blk.addptr %9, %8 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 1 : i32} : (tensor<32x32x!blk.ptr<f32>>) -> tensor<32x32xf32>
    %12 = blk.reshape %11 : tensor<32x32xf32> -> tensor<32x16x2xf32>
    %13 = blk.arange 0, 2 : tensor<2xi32>
    %14 = blk.expand_dims %13 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %15 = blk.expand_dims %14 {axis = 0 : i32} : tensor<1x2xi32> -> tensor<1x1x2xi32>
    %16 = blk.broadcast %15 : tensor<1x1x2xi32> -> tensor<32x16x2xi32>
    %17:2 = blk.reduce %12, %16 {axis = 2 : i32} : (tensor<32x16x2xf32>, tensor<32x16x2xi32>) -> (tensor<32x16xf32>, tensor<32x16xi32>) {
    ^bb0(%arg3: f32, %arg4: i32, %arg5: f32, %arg6: i32):
      %c0_i32 = arith.constant 0 : i32
      %32 = arith.cmpi eq, %arg4, %c0_i32 : i32
      %33 = arith.select %32, %arg3, %arg5 : f32
      %34 = arith.select %32, %arg4, %arg6 : i32
      blk.reduce.return %33, %34 : f32, i32
    }
    %18:2 = blk.reduce %12, %16 {axis = 2 : i32} : (tensor<32x16x2xf32>, tensor<32x16x2xi32>) -> (tensor<32x16xf32>, tensor<32x16xi32>) {
    ^bb0(%arg3: f32, %arg4: i32, %arg5: f32, %arg6: i32):
      %c1_i32 = arith.constant 1 : i32
      %32 = arith.cmpi eq, %arg4, %c1_i32 : i32
      %33 = arith.select %32, %arg3, %arg5 : f32
      %34 = arith.select %32, %arg4, %arg6 : i32
      blk.reduce.return %33, %34 : f32, i32
    }
    %19 = blk.arange 0, 32 : tensor<32xi32>
    %20 = blk.expand_dims %19 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c16_i32 = arith.constant 16 : i32
    %21 = blk.splat %c16_i32 : i32 -> tensor<32x1xi32>
    %22 = arith.muli %20, %21 : tensor<32x1xi32>
    %23 = blk.arange 0, 16 : tensor<16xi32>
    %24 = blk.expand_dims %23 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %25 = blk.broadcast %22 : tensor<32x1xi32> -> tensor<32x16xi32>
    %26 = blk.broadcast %24 : tensor<1x16xi32> -> tensor<32x16xi32>
    %27 = arith.addi %25, %26 : tensor<32x16xi32>
    %28 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x16x!blk.ptr<f32>>
    %29 = blk.addptr %28, %27 : tensor<32x16x!blk.ptr<f32>>, tensor<32x16xi32>
    blk.store %29, %17#0 {vec = 4 : i32} : (tensor<32x16x!blk.ptr<f32>>, tensor<32x16xf32>) -> ()
    %30 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<32x16x!blk.ptr<f32>>
    %31 = blk.addptr %30, %27 : tensor<32x16x!blk.ptr<f32>>, tensor<32x16xi32>
    blk.store %31, %18#0 {vec = 4 : i32} : (tensor<32x16x!blk.ptr<f32>>, tensor<32x16xf32>) -> ()
    return
  }
}

