// RUN: blk-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// Round trip of each step.
// CHECK-LABEL: func.func @steps
// CHECK: blk.warp_group_turn "open"
// CHECK-NEXT: blk.warp_group_turn "take"
// CHECK-NEXT: blk.warp_group_turn "pass"
// CHECK-NEXT: blk.warp_group_turn "close"
module attributes {blk.num_warps = 8 : i32} {
  func.func @steps() {
    blk.warp_group_turn "open"
    blk.warp_group_turn "take"
    blk.warp_group_turn "pass"
    blk.warp_group_turn "close"
    return
  }
}

// -----

module attributes {blk.num_warps = 8 : i32} {
  func.func @unknown_step() {
    // expected-error @+1 {{step must be open, take, pass or close, got 'wait'}}
    blk.warp_group_turn "wait"
    return
  }
}

// -----

module attributes {blk.num_warps = 4 : i32} {
  func.func @one_warpgroup() {
    // expected-error @+1 {{needs two or more warpgroups (blk.num_warps a multiple of 4, at least 8)}}
    blk.warp_group_turn "take"
    return
  }
}

// -----

module attributes {blk.num_warps = 10 : i32} {
  func.func @partial_warpgroup() {
    // expected-error @+1 {{needs two or more warpgroups}}
    blk.warp_group_turn "pass"
    return
  }
}
