// RUN: blk-opt %s --blk-while-to-for | FileCheck %s

// `k = lb; while k < K: ...; k += 64`: an scf.for from lb to K by 64; the
// other carried value stays carried, and the counter after the loop is the
// first value at or past K (lb when the loop does not run).
// CHECK-LABEL: func.func @counted
// CHECK: %[[STEP:.+]] = arith.constant 64 : i32
// CHECK: %[[SUM:.+]] = scf.for %[[K:.+]] = %arg0 to %arg1 step %[[STEP]] iter_args(%[[ACC:.+]] = %arg2) -> (f32) : i32 {
// CHECK:   %[[F:.+]] = arith.sitofp %[[K]] : i32 to f32
// CHECK:   %[[NEXT:.+]] = arith.addf %[[ACC]], %[[F]] : f32
// CHECK:   scf.yield %[[NEXT]] : f32
// CHECK: }
// CHECK: %[[SPAN:.+]] = arith.subi %arg1, %arg0 : i32
// CHECK: %[[ROUNDED:.+]] = arith.addi %[[SPAN]], %{{.+}} : i32
// CHECK: %[[TRIPS:.+]] = arith.divsi %[[ROUNDED]], %[[STEP]] : i32
// CHECK: %[[BY:.+]] = arith.muli %[[TRIPS]], %[[STEP]] : i32
// CHECK: %[[PAST:.+]] = arith.addi %arg0, %[[BY]] : i32
// CHECK: %[[RUNS:.+]] = arith.cmpi slt, %arg0, %arg1 : i32
// CHECK: %[[END:.+]] = arith.select %[[RUNS]], %[[PAST]], %arg0 : i32
// CHECK: return %[[END]], %[[SUM]] : i32, f32
func.func @counted(%lb: i32, %K: i32, %init: f32) -> (i32, f32) {
  %r:2 = scf.while (%k = %lb, %acc = %init) : (i32, f32) -> (i32, f32) {
    %c = arith.cmpi slt, %k, %K : i32
    scf.condition(%c) %k, %acc : i32, f32
  } do {
  ^bb0(%k: i32, %acc: f32):
    %f = arith.sitofp %k : i32 to f32
    %next = arith.addf %acc, %f : f32
    %c64 = arith.constant 64 : i32
    %k2 = arith.addi %k, %c64 : i32
    scf.yield %k2, %next : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

// `K > k`, the counter second among the carried values and unused after the
// loop: no exit value is computed.
// CHECK-LABEL: func.func @bound_first
// CHECK: %[[R:.+]] = scf.for %{{.+}} = %arg0 to %arg1 step %{{.+}} iter_args(%{{.+}} = %arg2) -> (f32) : i32
// CHECK-NOT: arith.select
// CHECK: return %[[R]] : f32
func.func @bound_first(%lb: i32, %K: i32, %init: f32) -> f32 {
  %c16 = arith.constant 16 : i32
  %r:2 = scf.while (%acc = %init, %k = %lb) : (f32, i32) -> (f32, i32) {
    %c = arith.cmpi sgt, %K, %k : i32
    scf.condition(%c) %acc, %k : f32, i32
  } do {
  ^bb0(%acc: f32, %k: i32):
    %next = arith.addf %acc, %acc : f32
    %k2 = arith.addi %c16, %k : i32
    scf.yield %next, %k2 : f32, i32
  }
  return %r#0 : f32
}

// Left alone: a step that is not a positive constant (the while loop may not
// end), a condition that computes more than the comparison, a `<=` bound, a
// bound computed in the loop.
// CHECK-LABEL: func.func @not_counted
// CHECK-COUNT-5: scf.while
// CHECK-NOT: scf.for
// CHECK: return
func.func @not_counted(%lb: i32, %K: i32, %s: i32) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %r1 = scf.while (%k = %lb) : (i32) -> i32 {
    %c = arith.cmpi slt, %k, %K : i32
    scf.condition(%c) %k : i32
  } do {
  ^bb0(%k: i32):
    %k2 = arith.addi %k, %s : i32
    scf.yield %k2 : i32
  }
  %r2 = scf.while (%k = %lb) : (i32) -> i32 {
    %c = arith.cmpi slt, %k, %K : i32
    scf.condition(%c) %k : i32
  } do {
  ^bb0(%k: i32):
    %k2 = arith.addi %k, %c0 : i32
    scf.yield %k2 : i32
  }
  %r3 = scf.while (%k = %lb) : (i32) -> i32 {
    %half = arith.divsi %K, %c8 : i32
    %c = arith.cmpi slt, %k, %half : i32
    scf.condition(%c) %k : i32
  } do {
  ^bb0(%k: i32):
    %k2 = arith.addi %k, %c8 : i32
    scf.yield %k2 : i32
  }
  %r4 = scf.while (%k = %lb) : (i32) -> i32 {
    %c = arith.cmpi sle, %k, %K : i32
    scf.condition(%c) %k : i32
  } do {
  ^bb0(%k: i32):
    %k2 = arith.addi %k, %c8 : i32
    scf.yield %k2 : i32
  }
  %r5:2 = scf.while (%k = %lb, %bound = %K) : (i32, i32) -> (i32, i32) {
    %c = arith.cmpi slt, %k, %bound : i32
    scf.condition(%c) %k, %bound : i32, i32
  } do {
  ^bb0(%k: i32, %bound: i32):
    %k2 = arith.addi %k, %c8 : i32
    %b2 = arith.subi %bound, %c8 : i32
    scf.yield %k2, %b2 : i32, i32
  }
  return
}
