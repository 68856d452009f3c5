// RUN: blk-opt %s --blk-coalesce | FileCheck %s

// A block laid out down its columns (layout assignment chose that for a tile
// read through strides in a loop) stored along its rows: the store runs
// along the last dimension (no vec_dim), and its addresses are contiguous
// there, so it gets a row-major layout; the value and pointers are converted.
#col = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#srow = #blk.slice<dim = 0, parent = #col>
#scol = #blk.slice<dim = 1, parent = #col>
// CHECK-DAG: #[[COL:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-DAG: #[[ROW:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @row_store
// CHECK: %[[P:.+]] = blk.convert_layout %{{.+}} : tensor<32x64x!blk.ptr<f32>, #[[COL]]> -> tensor<32x64x!blk.ptr<f32>, #[[ROW]]>
// CHECK-NEXT: %[[V:.+]] = blk.convert_layout %arg1 : tensor<32x64xf32, #[[COL]]> -> tensor<32x64xf32, #[[ROW]]>
// CHECK-NEXT: blk.store %[[P]], %[[V]] {vec = 4 : i32}
module attributes {blk.num_warps = 4 : i32} {
func.func @row_store(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %v: tensor<32x64xf32, #col>) {
  %r = blk.arange 0, 32 : tensor<32xi32, #scol>
  %c = blk.arange 0, 64 : tensor<64xi32, #srow>
  %r1 = blk.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #scol> -> tensor<32x1xi32, #col>
  %c64 = arith.constant 64 : i32
  %s64 = blk.splat %c64 : i32 -> tensor<32x1xi32, #col>
  %rows = arith.muli %r1, %s64 : tensor<32x1xi32, #col>
  %c1 = blk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #srow> -> tensor<1x64xi32, #col>
  %rb = blk.broadcast %rows : tensor<32x1xi32, #col> -> tensor<32x64xi32, #col>
  %cb = blk.broadcast %c1 : tensor<1x64xi32, #col> -> tensor<32x64xi32, #col>
  %offs = arith.addi %rb, %cb : tensor<32x64xi32, #col>
  %base = blk.splat %p : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #col>
  %ptrs = blk.addptr %base, %offs : tensor<32x64x!blk.ptr<f32>, #col>, tensor<32x64xi32, #col>
  blk.store %ptrs, %v {vec = 4 : i32} : (tensor<32x64x!blk.ptr<f32>, #col>, tensor<32x64xf32, #col>) -> ()
  return
}

// Addresses gathered through an index block are contiguous nowhere: the store
// keeps the block's layout.
// CHECK-LABEL: func.func @gathered_store
// CHECK-NOT: blk.convert_layout
// CHECK: blk.store %{{.+}}, %arg2 : (tensor<32x64x!blk.ptr<f32>, #[[COL]]>
func.func @gathered_store(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %idx: tensor<32x64xi32, #col>, %v: tensor<32x64xf32, #col>) {
  %base = blk.splat %p : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #col>
  %ptrs = blk.addptr %base, %idx : tensor<32x64x!blk.ptr<f32>, #col>, tensor<32x64xi32, #col>
  blk.store %ptrs, %v {vec = 1 : i32} : (tensor<32x64x!blk.ptr<f32>, #col>, tensor<32x64xf32, #col>) -> ()
  return
}
}
