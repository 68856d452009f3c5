// RUN: blk-opt %s --split-input-file --blk-sink-past-reductions | FileCheck %s
// RUN: blk-opt %s --split-input-file --blk-sink-past-reductions=min-registers-saved=1000 | FileCheck %s --check-prefix=KEEP

// x * u[:, None] + v[None, :] + sum(x, axis=1)[:, None] over a [1024, 16]
// tile, 128 values a thread: the products and sums (128 registers) move
// below the row sum, which reads x anyway; u and v (a thread's rows' and
// columns' values, 32 + 4 registers) wait across it instead. The loads stay.
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#rows = #blk.slice<dim = 1, parent = #blocked>
#cols = #blk.slice<dim = 0, parent = #blocked>
// CHECK-LABEL: func.func @products_after_the_sum
// CHECK: %[[X:.+]] = blk.load
// CHECK: %[[U:.+]] = blk.load
// CHECK: %[[V:.+]] = blk.load
// CHECK-NEXT: %[[S:.+]] = blk.reduce %[[X]]
// CHECK: arith.muli %[[X]]
// CHECK: arith.addi
// CHECK: blk.expand_dims %[[S]]
// KEEP-LABEL: func.func @products_after_the_sum
// KEEP: arith.muli
// KEEP: arith.addi
// KEEP: blk.reduce
func.func @products_after_the_sum(%px: tensor<1024x16x!blk.ptr<i32>, #blocked>, %pu: tensor<1024x!blk.ptr<i32>, #rows>,
                                  %pv: tensor<16x!blk.ptr<i32>, #cols>) {
  %x = blk.load %px {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #blocked>) -> tensor<1024x16xi32, #blocked>
  %u = blk.load %pu {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!blk.ptr<i32>, #rows>) -> tensor<1024xi32, #rows>
  %ue = blk.expand_dims %u {axis = 1 : i32} : tensor<1024xi32, #rows> -> tensor<1024x1xi32, #blocked>
  %ub = blk.broadcast %ue : tensor<1024x1xi32, #blocked> -> tensor<1024x16xi32, #blocked>
  %p = arith.muli %x, %ub : tensor<1024x16xi32, #blocked>
  %v = blk.load %pv {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<16x!blk.ptr<i32>, #cols>) -> tensor<16xi32, #cols>
  %ve = blk.expand_dims %v {axis = 0 : i32} : tensor<16xi32, #cols> -> tensor<1x16xi32, #blocked>
  %vb = blk.broadcast %ve : tensor<1x16xi32, #blocked> -> tensor<1024x16xi32, #blocked>
  %q = arith.addi %p, %vb : tensor<1024x16xi32, #blocked>
  %s = blk.reduce %x {axis = 1 : i32} : (tensor<1024x16xi32, #blocked>) -> tensor<1024xi32, #rows> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    blk.reduce.return %c : i32
  }
  %se = blk.expand_dims %s {axis = 1 : i32} : tensor<1024xi32, #rows> -> tensor<1024x1xi32, #blocked>
  %sb = blk.broadcast %se : tensor<1024x1xi32, #blocked> -> tensor<1024x16xi32, #blocked>
  %r = arith.addi %q, %sb : tensor<1024x16xi32, #blocked>
  blk.store %px, %r : (tensor<1024x16x!blk.ptr<i32>, #blocked>, tensor<1024x16xi32, #blocked>) -> ()
  return
}

// -----

// A product of two loaded tiles that only a later op reads: moving it would
// keep both tiles (256 registers) across the sum where it keeps one (128).
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#rows = #blk.slice<dim = 1, parent = #blocked>
// CHECK-LABEL: func.func @product_of_two_tiles_stays
// CHECK: arith.muli
// CHECK-NEXT: blk.reduce
func.func @product_of_two_tiles_stays(%px: tensor<1024x16x!blk.ptr<i32>, #blocked>, %py: tensor<1024x16x!blk.ptr<i32>, #blocked>,
                                      %pz: tensor<1024x16x!blk.ptr<i32>, #blocked>) {
  %x = blk.load %px {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #blocked>) -> tensor<1024x16xi32, #blocked>
  %y = blk.load %py {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #blocked>) -> tensor<1024x16xi32, #blocked>
  %z = blk.load %pz {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #blocked>) -> tensor<1024x16xi32, #blocked>
  %p = arith.muli %y, %z : tensor<1024x16xi32, #blocked>
  %s = blk.reduce %x {axis = 1 : i32} : (tensor<1024x16xi32, #blocked>) -> tensor<1024xi32, #rows> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    blk.reduce.return %c : i32
  }
  %se = blk.expand_dims %s {axis = 1 : i32} : tensor<1024xi32, #rows> -> tensor<1024x1xi32, #blocked>
  %sb = blk.broadcast %se : tensor<1024x1xi32, #blocked> -> tensor<1024x16xi32, #blocked>
  %r = arith.addi %p, %sb : tensor<1024x16xi32, #blocked>
  blk.store %px, %r : (tensor<1024x16x!blk.ptr<i32>, #blocked>, tensor<1024x16xi32, #blocked>) -> ()
  return
}

// -----

// A scan likewise: x * u[:, None] waits below cumsum(x, axis=1); x * x,
// stored before the scan, stays above it.
#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#rows = #blk.slice<dim = 1, parent = #blocked>
// CHECK-LABEL: func.func @products_after_the_scan
// CHECK: %[[X:.+]] = blk.load
// CHECK: %[[SQ:.+]] = arith.muli %[[X]], %[[X]]
// CHECK-NEXT: blk.store %{{.+}}, %[[SQ]]
// CHECK-NEXT: %[[S:.+]] = blk.scan %[[X]]
// CHECK: blk.reduce.return
// CHECK-NEXT: }
// CHECK-NEXT: blk.expand_dims
// CHECK-NEXT: blk.broadcast
// CHECK-NEXT: %[[P:.+]] = arith.muli %[[X]]
// CHECK-NEXT: arith.addi %[[P]], %[[S]]
func.func @products_after_the_scan(%px: tensor<1024x16x!blk.ptr<i32>, #blocked>, %pu: tensor<1024x!blk.ptr<i32>, #rows>,
                                   %py: tensor<1024x16x!blk.ptr<i32>, #blocked>) {
  %x = blk.load %px {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x16x!blk.ptr<i32>, #blocked>) -> tensor<1024x16xi32, #blocked>
  %u = blk.load %pu {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<1024x!blk.ptr<i32>, #rows>) -> tensor<1024xi32, #rows>
  %ue = blk.expand_dims %u {axis = 1 : i32} : tensor<1024xi32, #rows> -> tensor<1024x1xi32, #blocked>
  %ub = blk.broadcast %ue : tensor<1024x1xi32, #blocked> -> tensor<1024x16xi32, #blocked>
  %p = arith.muli %x, %ub : tensor<1024x16xi32, #blocked>
  %sq = arith.muli %x, %x : tensor<1024x16xi32, #blocked>
  blk.store %py, %sq : (tensor<1024x16x!blk.ptr<i32>, #blocked>, tensor<1024x16xi32, #blocked>) -> ()
  %s = blk.scan %x {axis = 1 : i32} : tensor<1024x16xi32, #blocked> -> tensor<1024x16xi32, #blocked> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    blk.reduce.return %c : i32
  }
  %r = arith.addi %p, %s : tensor<1024x16xi32, #blocked>
  blk.store %px, %r : (tensor<1024x16x!blk.ptr<i32>, #blocked>, tensor<1024x16xi32, #blocked>) -> ()
  return
}
