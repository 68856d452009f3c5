// RUN: blk-opt %s --blk-remove-layout-conversions | FileCheck %s
// RUN: blk-opt %s --blk-remove-layout-conversions=max-ops=2 | FileCheck %s --check-prefix=SMALL

#row = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]>
#rows = #blk.slice<dim = 1, parent = #row>
#cols = #blk.slice<dim = 0, parent = #row>

// Pointers built from aranges, splats, expand_dims, broadcasts and addptr are
// built again in the load's layout: no conversion is left, and the aranges
// of the new chain take the slices of the new layout.
// CHECK-DAG: #[[COL:.+]] = #blk.blocked<sizePerThread = [4, 1], {{.*}}order = [0, 1]>
// CHECK-DAG: #[[COLROWS:.+]] = #blk.slice<dim = 1, parent = #[[COL]]>
// CHECK-LABEL: func.func @pointers
// CHECK-NOT: blk.convert_layout
// CHECK: blk.arange 0, 64 : tensor<64xi32, #[[COLROWS]]>
// CHECK-NOT: blk.convert_layout
// CHECK: blk.load {{.*}} -> tensor<64x32xf32, #[[COL]]>
// CHECK-NEXT: blk.convert_layout
// CHECK-NOT: blk.convert_layout
// CHECK: return
// SMALL-LABEL: func.func @pointers
// SMALL: blk.convert_layout %{{.*}} : tensor<64x32x!blk.ptr<f32>, #{{.+}}> -> tensor<64x32x!blk.ptr<f32>, #{{.+}}>
func.func @pointers(%p: !blk.ptr<f32>, %ld: i32) -> tensor<64x32xf32, #row> {
  %r = blk.arange 0, 64 : tensor<64xi32, #rows>
  %c = blk.arange 0, 32 : tensor<32xi32, #cols>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #row>
  %c2 = blk.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #cols> -> tensor<1x32xi32, #row>
  %lds = blk.splat %ld : i32 -> tensor<1x32xi32, #row>
  %cstart = arith.muli %c2, %lds : tensor<1x32xi32, #row>
  %a = blk.broadcast %r2 : tensor<64x1xi32, #row> -> tensor<64x32xi32, #row>
  %b = blk.broadcast %cstart : tensor<1x32xi32, #row> -> tensor<64x32xi32, #row>
  %offs = arith.addi %a, %b : tensor<64x32xi32, #row>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>, #row>
  %q = blk.addptr %ps, %offs : tensor<64x32x!blk.ptr<f32>, #row>, tensor<64x32xi32, #row>
  %qc = blk.convert_layout %q : tensor<64x32x!blk.ptr<f32>, #row> -> tensor<64x32x!blk.ptr<f32>, #col>
  %x = blk.load %qc {operandSegmentSizes = array<i32: 1, 0, 0>, vec = 4 : i32, vec_dim = 0 : i32} : (tensor<64x32x!blk.ptr<f32>, #col>) -> tensor<64x32xf32, #col>
  %y = blk.convert_layout %x : tensor<64x32xf32, #col> -> tensor<64x32xf32, #row>
  return %y : tensor<64x32xf32, #row>
}

// A conversion to the same layout goes; a conversion of a conversion
// converts the original once; a loaded value is still converted.
// CHECK-LABEL: func.func @chains
// CHECK-NEXT: %[[X:.+]] = blk.load
// CHECK-NEXT: %[[Y:.+]] = blk.convert_layout %[[X]] : tensor<64x32xf32, #{{.+}}> -> tensor<64x32xf32, #[[COL]]>
// CHECK-NEXT: return %[[X]], %[[Y]]
func.func @chains(%q: tensor<64x32x!blk.ptr<f32>, #row>) -> (tensor<64x32xf32, #row>, tensor<64x32xf32, #col>) {
  %x = blk.load %q {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<64x32x!blk.ptr<f32>, #row>) -> tensor<64x32xf32, #row>
  %same = blk.convert_layout %x : tensor<64x32xf32, #row> -> tensor<64x32xf32, #row>
  %there = blk.convert_layout %x : tensor<64x32xf32, #row> -> tensor<64x32xf32, #col>
  %back = blk.convert_layout %there : tensor<64x32xf32, #col> -> tensor<64x32xf32, #row>
  %again = blk.convert_layout %back : tensor<64x32xf32, #row> -> tensor<64x32xf32, #col>
  return %same, %again : tensor<64x32xf32, #row>, tensor<64x32xf32, #col>
}

// A mask used in two layouts: the comparison is computed in both, the
// original stays for its other user.
// CHECK-LABEL: func.func @mask_in_two_layouts
// CHECK-NOT: blk.convert_layout
// CHECK-DAG: arith.cmpi slt, {{.*}} : tensor<64x32xi32, #[[COL]]>
// CHECK-DAG: arith.cmpi slt, {{.*}} : tensor<64x32xi32, #{{blocked|row}}>
// CHECK: return
func.func @mask_in_two_layouts(%n: i32) -> (tensor<64x32xi1, #row>, tensor<64x32xi1, #col>) {
  %r = blk.arange 0, 64 : tensor<64xi32, #rows>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #row>
  %a = blk.broadcast %r2 : tensor<64x1xi32, #row> -> tensor<64x32xi32, #row>
  %ns = blk.splat %n : i32 -> tensor<64x32xi32, #row>
  %m = arith.cmpi slt, %a, %ns : tensor<64x32xi32, #row>
  %mc = blk.convert_layout %m : tensor<64x32xi1, #row> -> tensor<64x32xi1, #col>
  return %m, %mc : tensor<64x32xi1, #row>, tensor<64x32xi1, #col>
}
