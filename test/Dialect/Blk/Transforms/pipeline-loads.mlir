// RUN: blk-opt %s --blk-pipeline-loads=num-stages=2 --canonicalize | FileCheck %s
// RUN: blk-opt %s --blk-pipeline-loads=num-stages=3 --canonicalize | FileCheck %s --check-prefix=THREE
// RUN: blk-opt %s --blk-pipeline-loads=num-stages=1 | FileCheck %s --check-prefix=ONE

// The load of the first iteration goes before the loop (masked off when the
// loop runs zero times); each iteration loads the next chunk (i + 256, masked
// off past n, and if i + 256 wrapped around) before it adds the chunk loaded
// earlier, which the loop carries.
// CHECK-LABEL: func.func @chunks
// CHECK: arith.cmpi sgt, %arg2, %c0_i32 : i32
// CHECK: %[[FIRST:.+]] = blk.load
// CHECK: scf.for %[[I:.+]] = %c0_i32 to %arg2 step %c256_i32 iter_args(%[[ACC:.+]] = %{{.+}}, %[[CUR:.+]] = %[[FIRST]])
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[I]], %c256_i32 : i32
// CHECK: %[[IN:.+]] = arith.cmpi slt, %[[NEXT]], %arg2 : i32
// CHECK-NEXT: %[[NO_WRAP:.+]] = arith.cmpi sgt, %[[NEXT]], %[[I]] : i32
// CHECK-NEXT: arith.andi %[[IN]], %[[NO_WRAP]] : i1
// CHECK: %[[FRESH:.+]] = blk.load
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[CUR]]
// CHECK-NEXT: scf.yield %[[SUM]], %[[FRESH]]
// Three stages: two loads before the loop, the one for i + 512 in it.
// THREE-LABEL: func.func @chunks
// THREE-COUNT-2: blk.load
// THREE: scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// THREE: arith.addi %{{.+}}, %c512_i32 : i32
// ONE-LABEL: func.func @chunks
// ONE: scf.for {{.*}} iter_args(%{{[a-z0-9]+}} = %{{[0-9]+}}) -> (tensor<256xf32>)
func.func @chunks(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %zero : f32 -> tensor<256xf32>
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %r = scf.for %i = %c0 to %n step %c256 iter_args(%acc = %acc0) -> (tensor<256xf32>) : i32 {
    %a = blk.arange 0, 256 : tensor<256xi32>
    %is = blk.splat %i : i32 -> tensor<256xi32>
    %offs = arith.addi %is, %a : tensor<256xi32>
    %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
    %p = blk.addptr %xs, %offs : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
    %ns = blk.splat %n : i32 -> tensor<256xi32>
    %m = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %o = blk.splat %zero : f32 -> tensor<256xf32>
    %v = blk.load %p, %m, %o {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!blk.ptr<f32>>, tensor<256xi1>, tensor<256xf32>) -> tensor<256xf32>
    %s = arith.addf %acc, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  %t = blk.reduce %r {axis = 0 : i32} : (tensor<256xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %out, %t : (!blk.ptr<f32>, f32) -> ()
  return
}

// A runtime step: the next chunk is i + step (two stages), i + 2 step
// (three: 2 step scaled once, in front of the loop).
// CHECK-LABEL: func.func @runtime_step
// CHECK: blk.load
// CHECK: scf.for %[[I:.+]] = %c0_i32 to %arg2 step %arg3 iter_args
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[I]], %arg3 : i32
// CHECK: blk.load
// THREE-LABEL: func.func @runtime_step
// THREE: %[[AHEAD:.+]] = arith.muli %arg3, %c2_i32 : i32
// THREE-COUNT-2: blk.load
// THREE: scf.for %[[I:.+]] = %c0_i32 to %arg2 step %arg3
// THREE-NEXT: arith.addi %[[I]], %[[AHEAD]] : i32
// ONE-LABEL: func.func @runtime_step
// ONE: scf.for {{.*}} iter_args(%{{[a-z0-9]+}} = %{{[0-9]+}}) -> (tensor<256xf32>)
func.func @runtime_step(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32, %step: i32) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %zero : f32 -> tensor<256xf32>
  %c0 = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %n step %step iter_args(%acc = %acc0) -> (tensor<256xf32>) : i32 {
    %a = blk.arange 0, 256 : tensor<256xi32>
    %is = blk.splat %i : i32 -> tensor<256xi32>
    %offs = arith.addi %is, %a : tensor<256xi32>
    %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
    %p = blk.addptr %xs, %offs : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
    %ns = blk.splat %n : i32 -> tensor<256xi32>
    %m = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %o = blk.splat %zero : f32 -> tensor<256xf32>
    %v = blk.load %p, %m, %o {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<256x!blk.ptr<f32>>, tensor<256xi1>, tensor<256xf32>) -> tensor<256xf32>
    %s = arith.addf %acc, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  %t = blk.reduce %r {axis = 0 : i32} : (tensor<256xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %out, %t : (!blk.ptr<f32>, f32) -> ()
  return
}

// A loop that stores may write what a later iteration loads: left alone.
// CHECK-LABEL: func.func @stores
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK: blk.load
// CHECK-NEXT: blk.store
func.func @stores(%x: !blk.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c1 to %n step %c1 : i32 {
    %prev = arith.subi %i, %c1 : i32
    %p = blk.addptr %x, %prev : !blk.ptr<f32>, i32
    %q = blk.addptr %x, %i : !blk.ptr<f32>, i32
    %v = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<f32>) -> f32
    blk.store %q, %v : (!blk.ptr<f32>, f32) -> ()
  }
  return
}

// A loop its source gives a depth (`range(..., num_stages=3)`) is pipelined
// at that depth whatever the pass's option, its stores notwithstanding (the
// author vouches that no load reads what an earlier iteration stored: a
// persistent row loop), and keeps the mark.
// CHECK-LABEL: func.func @rows_vouched
// CHECK-COUNT-2: blk.load
// CHECK: scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// CHECK: blk.load
// CHECK: blk.store
// CHECK: } {blk.num_stages = 3 : i32}
// ONE-LABEL: func.func @rows_vouched
// ONE-COUNT-2: blk.load
// ONE: scf.for {{.*}} iter_args(
func.func @rows_vouched(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %n: i32, %step: i32) {
  %c0 = arith.constant 0 : i32
  scf.for %i = %c0 to %n step %step : i32 {
    %p = blk.addptr %x, %i : !blk.ptr<f32>, i32
    %q = blk.addptr %y, %i : !blk.ptr<f32>, i32
    %v = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<f32>) -> f32
    %w = arith.mulf %v, %v : f32
    blk.store %q, %w : (!blk.ptr<f32>, f32) -> ()
  } {blk.num_stages = 3 : i32}
  return
}

// The mark vouches for stores, not for atomics (which may order the loads
// after them) nor for a depth of 1.
// CHECK-LABEL: func.func @vouched_but_atomic
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK: blk.load
// CHECK-LABEL: func.func @vouched_one_stage
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK: blk.load
func.func @vouched_but_atomic(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %p = blk.addptr %x, %i : !blk.ptr<f32>, i32
    %v = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<f32>) -> f32
    %old = blk.atomic_rmw add, acq_rel, gpu %y, %v : (!blk.ptr<f32>, f32) -> f32
  } {blk.num_stages = 2 : i32}
  return
}
func.func @vouched_one_stage(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.000000e+00 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
    %p = blk.addptr %x, %i : !blk.ptr<f32>, i32
    %v = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<f32>) -> f32
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  } {blk.num_stages = 1 : i32}
  return %s : f32
}

// A pointer the loop advances by a loop-invariant step is read one step
// on, ahead of the iteration that advances it there.
// CHECK-LABEL: func.func @advanced_pointer
// CHECK: %[[FIRST:.+]] = blk.load %arg0, %{{.+}}
// CHECK: scf.for {{.*}} iter_args(%[[P:.+]] = %arg0, %{{.+}} = %{{.+}}, %[[Q:.+]] = %[[FIRST]]) -> (!blk.ptr<f32>, f32, f32)
// CHECK: %[[AHEAD:.+]] = blk.addptr %[[P]], %c1_i32
// CHECK: %[[NEXT:.+]] = blk.load %[[AHEAD]], %{{.+}}
// CHECK: arith.addf %{{.+}}, %[[Q]]
// CHECK: scf.yield %{{.+}}, %{{.+}}, %[[NEXT]]
func.func @advanced_pointer(%x: !blk.ptr<f32>, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.000000e+00 : f32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %x, %acc = %zero) -> (!blk.ptr<f32>, f32) : i32 {
    %v = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (!blk.ptr<f32>) -> f32
    %next = blk.addptr %p, %c1 : !blk.ptr<f32>, i32
    %s = arith.addf %acc, %v : f32
    scf.yield %next, %s : !blk.ptr<f32>, f32
  }
  return %r#1 : f32
}

// A counter the loop advances by an invariant step (a block pointer's
// offset: off += 512) is read two iterations ahead at off + 1024; the
// prologue's loads read it at start and start + 512.
// THREE-LABEL: func.func @counter
// THREE: %[[A0:.+]] = blk.splat %arg3 : i32 -> tensor<256xi32>
// THREE: blk.load
// THREE: %[[SECOND:.+]] = arith.addi %arg3, %c512_i32 : i32
// THREE: blk.splat %[[SECOND]] : i32 -> tensor<256xi32>
// THREE: blk.load
// THREE: scf.for {{.*}} iter_args(%{{.+}} = %{{.+}}, %[[OFF:.+]] = %arg3, %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}})
// THREE: %[[AHEAD:.+]] = arith.addi %[[OFF]], %c1024_i32 : i32
// THREE: blk.splat %[[AHEAD]] : i32 -> tensor<256xi32>
// THREE: blk.load
// THREE: %[[NEXT:.+]] = arith.addi %[[OFF]], %c512_i32 : i32
// THREE: scf.yield %{{.+}}, %[[NEXT]], %{{.+}}, %{{.+}}
func.func @counter(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32, %start: i32) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc0 = blk.splat %zero : f32 -> tensor<256xf32>
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %c512 = arith.constant 512 : i32
  %r:2 = scf.for %i = %c0 to %n step %c256 iter_args(%acc = %acc0, %off = %start) -> (tensor<256xf32>, i32) : i32 {
    %a = blk.arange 0, 256 : tensor<256xi32>
    %os = blk.splat %off : i32 -> tensor<256xi32>
    %offs = arith.addi %os, %a : tensor<256xi32>
    %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
    %p = blk.addptr %xs, %offs : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
    %v = blk.load %p {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<256x!blk.ptr<f32>>) -> tensor<256xf32>
    %s = arith.addf %acc, %v : tensor<256xf32>
    %next = arith.addi %c512, %off : i32
    scf.yield %s, %next : tensor<256xf32>, i32
  }
  %t = blk.reduce %r#0 {axis = 0 : i32} : (tensor<256xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  blk.store %out, %t : (!blk.ptr<f32>, f32) -> ()
  return
}
