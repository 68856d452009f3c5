// RUN: blk-opt %s --split-input-file --blk-assign-layouts=num-warps=4 | FileCheck %s

// A scan down the columns of a [1024, 16] block whose kernel layout would put
// the 4 warps along the rows: the scanned group takes a layout of its own,
// 16 lanes across the columns, the other lane bit and the warps down the
// rows, and each thread a run of 128 rows (the scan adds them in order, in
// registers; one shuffle and two exchanges between warps remain).
// CHECK: #[[DOWN:.+]] = #blk.blocked<sizePerThread = [128, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @scan_down
// CHECK: blk.load {{.*}} -> tensor<1024x16xi32, #[[DOWN]]>
// CHECK-NEXT: blk.scan %{{.+}} {axis = 0 : i32} : tensor<1024x16xi32, #[[DOWN]]>
// CHECK: blk.store %{{.+}}, %{{.+}} {vec = 4 : i32} : (tensor<1024x16x!blk.ptr<i32>, #[[DOWN]]>, tensor<1024x16xi32, #[[DOWN]]>)
func.func @scan_down(%arg0: !blk.ptr<i32>, %arg1: !blk.ptr<i32>) {
  %0 = blk.arange 0, 1024 : tensor<1024xi32>
  %1 = blk.arange 0, 16 : tensor<16xi32>
  %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<1024xi32> -> tensor<1024x1xi32>
  %c16_i32 = arith.constant 16 : i32
  %3 = blk.splat %c16_i32 : i32 -> tensor<1024x1xi32>
  %4 = arith.muli %2, %3 : tensor<1024x1xi32>
  %5 = blk.expand_dims %1 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %6 = blk.broadcast %4 : tensor<1024x1xi32> -> tensor<1024x16xi32>
  %7 = blk.broadcast %5 : tensor<1x16xi32> -> tensor<1024x16xi32>
  %8 = arith.addi %6, %7 : tensor<1024x16xi32>
  %9 = blk.splat %arg1 : !blk.ptr<i32> -> tensor<1024x16x!blk.ptr<i32>>
  %10 = blk.addptr %9, %8 : tensor<1024x16x!blk.ptr<i32>>, tensor<1024x16xi32>
  %11 = blk.splat %arg0 : !blk.ptr<i32> -> tensor<1024x16x!blk.ptr<i32>>
  %12 = blk.addptr %11, %8 : tensor<1024x16x!blk.ptr<i32>>, tensor<1024x16xi32>
  %13 = blk.load %12 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<1024x16x!blk.ptr<i32>>) -> tensor<1024x16xi32>
  %14 = blk.scan %13 {axis = 0 : i32} : tensor<1024x16xi32> -> tensor<1024x16xi32> {
  ^bb0(%arg2: i32, %arg3: i32):
    %15 = arith.addi %arg2, %arg3 : i32
    blk.reduce.return %15 : i32
  }
  blk.store %10, %14 {vec = 4 : i32} : (tensor<1024x16x!blk.ptr<i32>>, tensor<1024x16xi32>) -> ()
  return
}

// -----

// A wide [16, 1024] block scanned down its columns: all threads across the
// columns, 4 of them per thread (the accesses' vector width), every row of
// the axis in each thread: the scan never leaves the thread.
// CHECK: #[[WIDE:.+]] = #blk.blocked<sizePerThread = [16, 4], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @scan_wide
// CHECK: blk.scan %{{.+}} {axis = 0 : i32} : tensor<16x1024xf32, #[[WIDE]]>
func.func @scan_wide(%arg0: !blk.ptr<f32>) {
  %0 = blk.arange 0, 16 : tensor<16xi32>
  %1 = blk.arange 0, 1024 : tensor<1024xi32>
  %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c1024_i32 = arith.constant 1024 : i32
  %3 = blk.splat %c1024_i32 : i32 -> tensor<16x1xi32>
  %4 = arith.muli %2, %3 : tensor<16x1xi32>
  %5 = blk.expand_dims %1 {axis = 0 : i32} : tensor<1024xi32> -> tensor<1x1024xi32>
  %6 = blk.broadcast %4 : tensor<16x1xi32> -> tensor<16x1024xi32>
  %7 = blk.broadcast %5 : tensor<1x1024xi32> -> tensor<16x1024xi32>
  %8 = arith.addi %6, %7 : tensor<16x1024xi32>
  %9 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<16x1024x!blk.ptr<f32>>
  %10 = blk.addptr %9, %8 : tensor<16x1024x!blk.ptr<f32>>, tensor<16x1024xi32>
  %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<16x1024x!blk.ptr<f32>>) -> tensor<16x1024xf32>
  %12 = blk.scan %11 {axis = 0 : i32} : tensor<16x1024xf32> -> tensor<16x1024xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %10, %12 {vec = 4 : i32} : (tensor<16x1024x!blk.ptr<f32>>, tensor<16x1024xf32>) -> ()
  return
}

// -----

// Along the rows of a [32, 64] block the kernel layout keeps the warps off
// the axis (they split the rows): the scan keeps the kernel's layout.
// CHECK: #[[KERNEL:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @scan_rows
// CHECK: blk.scan %{{.+}} {axis = 1 : i32} : tensor<32x64xf32, #[[KERNEL]]>
func.func @scan_rows(%arg0: !blk.ptr<f32>) {
  %0 = blk.arange 0, 32 : tensor<32xi32>
  %1 = blk.arange 0, 64 : tensor<64xi32>
  %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64_i32 = arith.constant 64 : i32
  %3 = blk.splat %c64_i32 : i32 -> tensor<32x1xi32>
  %4 = arith.muli %2, %3 : tensor<32x1xi32>
  %5 = blk.expand_dims %1 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %6 = blk.broadcast %4 : tensor<32x1xi32> -> tensor<32x64xi32>
  %7 = blk.broadcast %5 : tensor<1x64xi32> -> tensor<32x64xi32>
  %8 = arith.addi %6, %7 : tensor<32x64xi32>
  %9 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>>
  %10 = blk.addptr %9, %8 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
  %11 = blk.load %10 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>) -> tensor<32x64xf32>
  %12 = blk.scan %11 {axis = 1 : i32} : tensor<32x64xf32> -> tensor<32x64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %10, %12 {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>, tensor<32x64xf32>) -> ()
  return
}
