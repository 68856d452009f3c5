// RUN: blk-opt %s --blk-assign-layouts=num-warps=4 | FileCheck %s

// Anchors: each block that loads read or stores write takes the layout its
// own accesses coalesce best in, fitted to its own shape; a block no access
// anchors takes the kernel's layout, fitted to the largest block.
// CHECK-DAG: #[[WIDE:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[TALL:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[COLUMNS:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[BIG:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[SMALL:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], order = [1, 0]>
// CHECK-DAG: #[[ROW128B:.+]] = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[ROW256B:.+]] = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[I8ROW128B:.+]] = #blk.blocked<sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[I8SCALES:.+]] = #blk.slice<dim = 0, parent = #[[I8ROW128B]]>
// CHECK-DAG: #[[KERNEL:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>

// A [16, 256] block and a [256, 16] block, both read along their rows: the
// wide one puts 32 lanes along its rows, the tall one 4 (its rows are 16
// long), instead of both taking the layout fitted to one of them. No data
// moves between layouts (pointers are converted here and recomputed in the
// data's layout by blk-remove-layout-conversions).
// CHECK-LABEL: func.func @two_shapes
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<{{[0-9x]+}}xf32
// CHECK: blk.load %{{.+}} -> tensor<16x256xf32, #[[WIDE]]>
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<{{[0-9x]+}}xf32
// CHECK: blk.load %{{.+}} -> tensor<256x16xf32, #[[TALL]]>
// CHECK-NOT: blk.convert_layout %{{.+}} : tensor<{{[0-9x]+}}xf32
func.func @two_shapes(%p: !blk.ptr<f32>, %q: !blk.ptr<f32>) {
  %r16 = blk.arange 0, 16 : tensor<16xi32>
  %r256 = blk.arange 0, 256 : tensor<256xi32>
  %a0 = blk.expand_dims %r16 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %c256 = arith.constant 256 : i32
  %a1 = blk.splat %c256 : i32 -> tensor<16x1xi32>
  %a2 = arith.muli %a0, %a1 : tensor<16x1xi32>
  %a3 = blk.broadcast %a2 : tensor<16x1xi32> -> tensor<16x256xi32>
  %a4 = blk.expand_dims %r256 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %a5 = blk.broadcast %a4 : tensor<1x256xi32> -> tensor<16x256xi32>
  %a6 = arith.addi %a3, %a5 : tensor<16x256xi32>
  %a7 = blk.splat %p : !blk.ptr<f32> -> tensor<16x256x!blk.ptr<f32>>
  %a8 = blk.addptr %a7, %a6 : tensor<16x256x!blk.ptr<f32>>, tensor<16x256xi32>
  %x = blk.load %a8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<16x256x!blk.ptr<f32>>) -> tensor<16x256xf32>
  %x2 = arith.addf %x, %x : tensor<16x256xf32>
  blk.store %a8, %x2 {vec = 4 : i32} : (tensor<16x256x!blk.ptr<f32>>, tensor<16x256xf32>) -> ()
  %b0 = blk.expand_dims %r256 {axis = 1 : i32} : tensor<256xi32> -> tensor<256x1xi32>
  %c16 = arith.constant 16 : i32
  %b1 = blk.splat %c16 : i32 -> tensor<256x1xi32>
  %b2 = arith.muli %b0, %b1 : tensor<256x1xi32>
  %b3 = blk.broadcast %b2 : tensor<256x1xi32> -> tensor<256x16xi32>
  %b4 = blk.expand_dims %r16 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %b5 = blk.broadcast %b4 : tensor<1x16xi32> -> tensor<256x16xi32>
  %b6 = arith.addi %b3, %b5 : tensor<256x16xi32>
  %b7 = blk.splat %q : !blk.ptr<f32> -> tensor<256x16x!blk.ptr<f32>>
  %b8 = blk.addptr %b7, %b6 : tensor<256x16x!blk.ptr<f32>>, tensor<256x16xi32>
  %y = blk.load %b8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<256x16x!blk.ptr<f32>>) -> tensor<256x16xf32>
  %y2 = arith.mulf %y, %y : tensor<256x16xf32>
  blk.store %b8, %y2 {vec = 4 : i32} : (tensor<256x16x!blk.ptr<f32>>, tensor<256x16xf32>) -> ()
  return
}

// A block read down its columns (a column-major matrix: vec_dim 0) puts
// all 32 lanes and its vectors along them, fitted to its 128 rows; the
// product of two index vectors, which no access anchors, takes the kernel's
// layout: fitted to the largest block ([64, 64]), fastest along the
// dimension most accesses run along (here the columns), 16 lanes along it.
// CHECK-LABEL: func.func @column_anchor_beside_unanchored
// CHECK: blk.load %{{.+}} -> tensor<128x16xf32, #[[COLUMNS]]>
// CHECK: arith.muli %{{.+}}, %{{.+}} : tensor<64x64xi32, #[[KERNEL]]>
func.func @column_anchor_beside_unanchored(%p: !blk.ptr<f32>, %o: !blk.ptr<i32>) {
  %r128 = blk.arange 0, 128 : tensor<128xi32>
  %r16 = blk.arange 0, 16 : tensor<16xi32>
  %a0 = blk.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %a1 = blk.broadcast %a0 : tensor<128x1xi32> -> tensor<128x16xi32>
  %a2 = blk.expand_dims %r16 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %c128 = arith.constant 128 : i32
  %a3 = blk.splat %c128 : i32 -> tensor<1x16xi32>
  %a4 = arith.muli %a2, %a3 : tensor<1x16xi32>
  %a5 = blk.broadcast %a4 : tensor<1x16xi32> -> tensor<128x16xi32>
  %a6 = arith.addi %a1, %a5 : tensor<128x16xi32>
  %a7 = blk.splat %p : !blk.ptr<f32> -> tensor<128x16x!blk.ptr<f32>>
  %a8 = blk.addptr %a7, %a6 : tensor<128x16x!blk.ptr<f32>>, tensor<128x16xi32>
  %x = blk.load %a8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<128x16x!blk.ptr<f32>>) -> tensor<128x16xf32>
  %x2 = arith.addf %x, %x : tensor<128x16xf32>
  blk.store %a8, %x2 {vec = 4 : i32, vec_dim = 0 : i32} : (tensor<128x16x!blk.ptr<f32>>, tensor<128x16xf32>) -> ()
  %r64 = blk.arange 0, 64 : tensor<64xi32>
  %m0 = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %m1 = blk.broadcast %m0 : tensor<64x1xi32> -> tensor<64x64xi32>
  %m2 = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %m3 = blk.broadcast %m2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %m4 = arith.muli %m1, %m3 : tensor<64x64xi32>
  %s = "blk.reduce"(%m4) <{axis = 1 : i32}> ({
  ^bb0(%l: i32, %r: i32):
    %t = arith.addi %l, %r : i32
    blk.reduce.return %t : i32
  }) : (tensor<64x64xi32>) -> tensor<64xi32>
  %os = blk.splat %o : !blk.ptr<i32> -> tensor<64x!blk.ptr<i32>>
  %op = blk.addptr %os, %r64 : tensor<64x!blk.ptr<i32>>, tensor<64xi32>
  blk.store %op, %s : (tensor<64x!blk.ptr<i32>>, tensor<64xi32>) -> ()
  return
}

// A block smaller than the kernel's largest keeps the vector width the
// largest allows (here 4), its threads past the block holding copies,
// rather than narrowing its accesses to the 2 elements per thread its own
// size gives.
// CHECK-LABEL: func.func @small_block_keeps_vectors
// CHECK: blk.load %{{.+}} -> tensor<32x64xf32, #[[BIG]]>
// CHECK: blk.load %{{.+}} -> tensor<4x64xf32, #[[SMALL]]>
func.func @small_block_keeps_vectors(%p: !blk.ptr<f32>) {
  %r32 = blk.arange 0, 32 : tensor<32xi32>
  %r64 = blk.arange 0, 64 : tensor<64xi32>
  %a0 = blk.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64 = arith.constant 64 : i32
  %a1 = blk.splat %c64 : i32 -> tensor<32x1xi32>
  %a2 = arith.muli %a0, %a1 : tensor<32x1xi32>
  %a3 = blk.broadcast %a2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %a4 = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %a5 = blk.broadcast %a4 : tensor<1x64xi32> -> tensor<32x64xi32>
  %a6 = arith.addi %a3, %a5 : tensor<32x64xi32>
  %a7 = blk.splat %p : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>>
  %a8 = blk.addptr %a7, %a6 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
  %x = blk.load %a8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>) -> tensor<32x64xf32>
  %x2 = arith.addf %x, %x : tensor<32x64xf32>
  blk.store %a8, %x2 {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>>, tensor<32x64xf32>) -> ()
  %r4 = blk.arange 0, 4 : tensor<4xi32>
  %b0 = blk.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %b1 = blk.splat %c64 : i32 -> tensor<4x1xi32>
  %b2 = arith.muli %b0, %b1 : tensor<4x1xi32>
  %b3 = blk.broadcast %b2 : tensor<4x1xi32> -> tensor<4x64xi32>
  %b4 = blk.broadcast %a4 : tensor<1x64xi32> -> tensor<4x64xi32>
  %b5 = arith.addi %b3, %b4 : tensor<4x64xi32>
  %b6 = blk.splat %p : !blk.ptr<f32> -> tensor<4x64x!blk.ptr<f32>>
  %b7 = blk.addptr %b6, %b5 : tensor<4x64x!blk.ptr<f32>>, tensor<4x64xi32>
  %y = blk.load %b7 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<4x64x!blk.ptr<f32>>) -> tensor<4x64xf32>
  %y2 = arith.mulf %y, %y : tensor<4x64xf32>
  blk.store %b7, %y2 {vec = 4 : i32} : (tensor<4x64x!blk.ptr<f32>>, tensor<4x64xf32>) -> ()
  return
}

// Operands of a wgmma dot are copied into shared-memory tiles swizzled in
// 128-byte rows: the [64, 128] bf16 B tile puts 8 lanes (128 bytes) along
// its rows, not the 16 its own shape would take. The same tile feeding an
// mma.sync dot keeps its 16.
// CHECK-LABEL: func.func @wgmma_operand
// CHECK: blk.load %{{.+}} -> tensor<64x128xbf16, #[[ROW128B]]>
// CHECK-LABEL: func.func @mma_sync_operand
// CHECK: blk.load %{{.+}} -> tensor<64x128xbf16, #[[ROW256B]]>
// The 128 bytes count what the lanes copy: int8 weights dequantized into a
// bf16 B put 8 lanes of 16 bytes along a row (128 bytes of int8, 256 of the
// bf16 they become), as their access wants: with 4, each thread would hold
// twice the column scales it multiplies by.
// CHECK-LABEL: func.func @dequantized_operand
// CHECK: blk.load %{{.+}} -> tensor<64x128xi8, #[[I8ROW128B]]>
// CHECK: blk.load %{{.+}} -> tensor<128xf32, #[[I8SCALES]]>

func.func @wgmma_operand(%pa: !blk.ptr<bf16>, %pb: !blk.ptr<bf16>, %pc: !blk.ptr<f32>) {
  %r64 = blk.arange 0, 64 : tensor<64xi32>
  %r128 = blk.arange 0, 128 : tensor<128xi32>
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %a0 = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %a1 = blk.splat %c64 : i32 -> tensor<64x1xi32>
  %a2 = arith.muli %a0, %a1 : tensor<64x1xi32>
  %a3 = blk.broadcast %a2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %a4 = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %a5 = blk.broadcast %a4 : tensor<1x64xi32> -> tensor<64x64xi32>
  %a6 = arith.addi %a3, %a5 : tensor<64x64xi32>
  %a7 = blk.splat %pa : !blk.ptr<bf16> -> tensor<64x64x!blk.ptr<bf16>>
  %a8 = blk.addptr %a7, %a6 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
  %a = blk.load %a8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
  %b1 = blk.splat %c128 : i32 -> tensor<64x1xi32>
  %b2 = arith.muli %a0, %b1 : tensor<64x1xi32>
  %b3 = blk.broadcast %b2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %b4 = blk.expand_dims %r128 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %b5 = blk.broadcast %b4 : tensor<1x128xi32> -> tensor<64x128xi32>
  %b6 = arith.addi %b3, %b5 : tensor<64x128xi32>
  %b7 = blk.splat %pb : !blk.ptr<bf16> -> tensor<64x128x!blk.ptr<bf16>>
  %b8 = blk.addptr %b7, %b6 : tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi32>
  %b = blk.load %b8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x128x!blk.ptr<bf16>>) -> tensor<64x128xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c = blk.dot %a, %b, %zero {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]>} : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  %c7 = blk.splat %pc : !blk.ptr<f32> -> tensor<64x128x!blk.ptr<f32>>
  %c8 = blk.addptr %c7, %b6 : tensor<64x128x!blk.ptr<f32>>, tensor<64x128xi32>
  blk.store %c8, %c {vec = 4 : i32} : (tensor<64x128x!blk.ptr<f32>>, tensor<64x128xf32>) -> ()
  return
}

func.func @mma_sync_operand(%pa: !blk.ptr<bf16>, %pb: !blk.ptr<bf16>, %pc: !blk.ptr<f32>) {
  %r64 = blk.arange 0, 64 : tensor<64xi32>
  %r128 = blk.arange 0, 128 : tensor<128xi32>
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %a0 = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %a1 = blk.splat %c64 : i32 -> tensor<64x1xi32>
  %a2 = arith.muli %a0, %a1 : tensor<64x1xi32>
  %a3 = blk.broadcast %a2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %a4 = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %a5 = blk.broadcast %a4 : tensor<1x64xi32> -> tensor<64x64xi32>
  %a6 = arith.addi %a3, %a5 : tensor<64x64xi32>
  %a7 = blk.splat %pa : !blk.ptr<bf16> -> tensor<64x64x!blk.ptr<bf16>>
  %a8 = blk.addptr %a7, %a6 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
  %a = blk.load %a8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
  %b1 = blk.splat %c128 : i32 -> tensor<64x1xi32>
  %b2 = arith.muli %a0, %b1 : tensor<64x1xi32>
  %b3 = blk.broadcast %b2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %b4 = blk.expand_dims %r128 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %b5 = blk.broadcast %b4 : tensor<1x128xi32> -> tensor<64x128xi32>
  %b6 = arith.addi %b3, %b5 : tensor<64x128xi32>
  %b7 = blk.splat %pb : !blk.ptr<bf16> -> tensor<64x128x!blk.ptr<bf16>>
  %b8 = blk.addptr %b7, %b6 : tensor<64x128x!blk.ptr<bf16>>, tensor<64x128xi32>
  %b = blk.load %b8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x128x!blk.ptr<bf16>>) -> tensor<64x128xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c = blk.dot %a, %b, %zero {mma = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>} : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  %c7 = blk.splat %pc : !blk.ptr<f32> -> tensor<64x128x!blk.ptr<f32>>
  %c8 = blk.addptr %c7, %b6 : tensor<64x128x!blk.ptr<f32>>, tensor<64x128xi32>
  blk.store %c8, %c {vec = 4 : i32} : (tensor<64x128x!blk.ptr<f32>>, tensor<64x128xf32>) -> ()
  return
}

func.func @dequantized_operand(%pa: !blk.ptr<bf16>, %pb: !blk.ptr<i8>, %ps: !blk.ptr<f32>, %pc: !blk.ptr<f32>) {
  %r64 = blk.arange 0, 64 : tensor<64xi32>
  %r128 = blk.arange 0, 128 : tensor<128xi32>
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %a0 = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %a1 = blk.splat %c64 : i32 -> tensor<64x1xi32>
  %a2 = arith.muli %a0, %a1 : tensor<64x1xi32>
  %a3 = blk.broadcast %a2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %a4 = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %a5 = blk.broadcast %a4 : tensor<1x64xi32> -> tensor<64x64xi32>
  %a6 = arith.addi %a3, %a5 : tensor<64x64xi32>
  %a7 = blk.splat %pa : !blk.ptr<bf16> -> tensor<64x64x!blk.ptr<bf16>>
  %a8 = blk.addptr %a7, %a6 : tensor<64x64x!blk.ptr<bf16>>, tensor<64x64xi32>
  %a = blk.load %a8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 8 : i32} : (tensor<64x64x!blk.ptr<bf16>>) -> tensor<64x64xbf16>
  %b1 = blk.splat %c128 : i32 -> tensor<64x1xi32>
  %b2 = arith.muli %a0, %b1 : tensor<64x1xi32>
  %b3 = blk.broadcast %b2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %b4 = blk.expand_dims %r128 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %b5 = blk.broadcast %b4 : tensor<1x128xi32> -> tensor<64x128xi32>
  %b6 = arith.addi %b3, %b5 : tensor<64x128xi32>
  %b7 = blk.splat %pb : !blk.ptr<i8> -> tensor<64x128x!blk.ptr<i8>>
  %b8 = blk.addptr %b7, %b6 : tensor<64x128x!blk.ptr<i8>>, tensor<64x128xi32>
  %wq = blk.load %b8 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 16 : i32} : (tensor<64x128x!blk.ptr<i8>>) -> tensor<64x128xi8>
  %s0 = blk.splat %ps : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %s1 = blk.addptr %s0, %r128 : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  %scale = blk.load %s1 {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32} : (tensor<128x!blk.ptr<f32>>) -> tensor<128xf32>
  %s2 = blk.expand_dims %scale {axis = 0 : i32} : tensor<128xf32> -> tensor<1x128xf32>
  %s3 = blk.broadcast %s2 : tensor<1x128xf32> -> tensor<64x128xf32>
  %wf = arith.sitofp %wq : tensor<64x128xi8> to tensor<64x128xf32>
  %ws = arith.mulf %wf, %s3 : tensor<64x128xf32>
  %b = arith.truncf %ws : tensor<64x128xf32> to tensor<64x128xbf16>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %c = blk.dot %a, %b, %zero {mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]>} : tensor<64x64xbf16>, tensor<64x128xbf16>, tensor<64x128xf32> -> tensor<64x128xf32>
  %c7 = blk.splat %pc : !blk.ptr<f32> -> tensor<64x128x!blk.ptr<f32>>
  %c8 = blk.addptr %c7, %b6 : tensor<64x128x!blk.ptr<f32>>, tensor<64x128xi32>
  blk.store %c8, %c {vec = 4 : i32} : (tensor<64x128x!blk.ptr<f32>>, tensor<64x128xf32>) -> ()
  return
}
