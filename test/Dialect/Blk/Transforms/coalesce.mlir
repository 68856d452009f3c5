// RUN: blk-opt %s --blk-coalesce | FileCheck %s

#row = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#row1 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// The kernel's layout is row-major; a load contiguous down dimension 0 gets a
// column-major layout (4 rows per thread, 16 lanes down a column of 64), its
// operands are converted to it and its result back.
// CHECK: #[[ROW:.+]] = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK: #[[COL:.+]] = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @column_load
// CHECK: %[[P:.+]] = blk.convert_layout %arg0 : tensor<64x32x!blk.ptr<f32>, #[[ROW]]> -> tensor<64x32x!blk.ptr<f32>, #[[COL]]>
// CHECK: %[[M:.+]] = blk.convert_layout %arg1 : tensor<64x32xi1, #[[ROW]]> -> tensor<64x32xi1, #[[COL]]>
// CHECK: %[[X:.+]] = blk.load %[[P]], %[[M]] {{.*}}vec = 4 : i32, vec_dim = 0 : i32} {{.*}} -> tensor<64x32xf32, #[[COL]]>
// CHECK: %[[Y:.+]] = blk.convert_layout %[[X]] : tensor<64x32xf32, #[[COL]]> -> tensor<64x32xf32, #[[ROW]]>
// CHECK: return %[[Y]]
module attributes {blk.num_warps = 4 : i32} {
func.func @column_load(%p: tensor<64x32x!blk.ptr<f32>, #row>, %m: tensor<64x32xi1, #row>) -> tensor<64x32xf32, #row> {
  %x = blk.load %p, %m {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<f32>, #row>, tensor<64x32xi1, #row>) -> tensor<64x32xf32, #row>
  return %x : tensor<64x32xf32, #row>
}

// A store along the layout's fastest dimension keeps its layout and width;
// a store down a column converts the value and the pointers, not back.
// CHECK-LABEL: func.func @stores
// CHECK-NEXT: blk.store %arg0, %arg2 {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #[[ROW]]>
// CHECK-NEXT: %[[P:.+]] = blk.convert_layout %arg1 {{.*}} -> tensor<64x32x!blk.ptr<f32>, #[[COL]]>
// CHECK-NEXT: %[[V:.+]] = blk.convert_layout %arg2 {{.*}} -> tensor<64x32xf32, #[[COL]]>
// CHECK-NEXT: blk.store %[[P]], %[[V]] {vec = 4 : i32, vec_dim = 0 : i32}
// CHECK-NEXT: return
func.func @stores(%row_ptrs: tensor<64x32x!blk.ptr<f32>, #row>, %col_ptrs: tensor<64x32x!blk.ptr<f32>, #row>, %v: tensor<64x32xf32, #row>) {
  blk.store %row_ptrs, %v {vec = 4 : i32} : (tensor<64x32x!blk.ptr<f32>, #row>, tensor<64x32xf32, #row>) -> ()
  blk.store %col_ptrs, %v {vec = 4 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<f32>, #row>, tensor<64x32xf32, #row>) -> ()
  return
}

// A block smaller than the threads holds one element per thread: the proven
// width (4) is clamped to the thread's run of one.
// CHECK-LABEL: func.func @small_block
// CHECK-NEXT: blk.store %arg0, %arg1 : (tensor<64x!blk.ptr<f32>, #{{.+}}>
func.func @small_block(%p: tensor<64x!blk.ptr<f32>, #row1>, %v: tensor<64xf32, #row1>) {
  blk.store %p, %v {vec = 4 : i32} : (tensor<64x!blk.ptr<f32>, #row1>, tensor<64xf32, #row1>) -> ()
  return
}
}
