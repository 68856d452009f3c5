// blk.extern_elementwise and blk.inline_asm_elementwise: they round-trip, and
// their verifiers reject unknown libdevice functions, the wrong width or
// arity, and constraints that do not match the registers of a run.
// RUN: blk-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @roundtrip
func.func @roundtrip(%x: tensor<128xf32>, %d: f64, %w: tensor<128xi32>, %c: tensor<128xi8>) {
  // CHECK: blk.extern_elementwise "__nv_erfinvf"(%{{.*}}) : tensor<128xf32>
  %a = blk.extern_elementwise "__nv_erfinvf"(%x) : tensor<128xf32>
  // CHECK: blk.extern_elementwise "__nv_hypot"(%{{.*}}, %{{.*}}) : f64
  %b = blk.extern_elementwise "__nv_hypot"(%d, %d) : f64
  // CHECK: blk.inline_asm_elementwise "mov.b32 $0, $1;", "=r,r"(%{{.*}}) {packed_element = 1 : i32, pure = true}
  %r = blk.inline_asm_elementwise "mov.b32 $0, $1;", "=r,r"(%w) {packed_element = 1 : i32, pure = true} : (tensor<128xi32>) -> tensor<128xi32>
  // Four bytes to a register: one register per value and run.
  %q = blk.inline_asm_elementwise "xor.b32 $0, $1, 1;", "=r,r"(%c) {packed_element = 4 : i32, pure = false} : (tensor<128xi8>) -> tensor<128xi8>
  return
}

// -----

func.func @unknown_function(%x: f32) {
  // expected-error @+1 {{unknown libdevice function '__nv_j0f'}}
  %a = blk.extern_elementwise "__nv_j0f"(%x) : f32
  return
}

// -----

func.func @wrong_width(%x: f64) {
  // expected-error @+1 {{'__nv_erfinvf' does not take 'f64'}}
  %a = blk.extern_elementwise "__nv_erfinvf"(%x) : f64
  return
}

// -----

func.func @wrong_arity(%x: f32) {
  // expected-error @+1 {{'__nv_hypotf' takes 2 operands, got 1}}
  %a = blk.extern_elementwise "__nv_hypotf"(%x) : f32
  return
}

// -----

func.func @constraints(%c: tensor<128xi8>) {
  // expected-error @+1 {{constraints name 5 registers; the results and arguments take 2}}
  %q = blk.inline_asm_elementwise "", "=r,r,r,r,r"(%c) {packed_element = 4 : i32, pure = true} : (tensor<128xi8>) -> tensor<128xi8>
  return
}

// -----

func.func @pack(%w: i32) {
  // expected-error @+1 {{packed_element must be a power of two, got 3}}
  %q = blk.inline_asm_elementwise "", "=r,r"(%w) {packed_element = 3 : i32, pure = true} : (i32) -> i32
  return
}

// -----

func.func @shapes(%w: tensor<128xi32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %q = blk.inline_asm_elementwise "", "=r,r"(%w) {packed_element = 1 : i32, pure = true} : (tensor<128xi32>) -> tensor<64xi32>
  return
}

// -----

func.func @booleans(%w: tensor<128xi1>) {
  // expected-error @+1 {{takes numbers, not 'i1'}}
  %q = blk.inline_asm_elementwise "", "=r,r"(%w) {packed_element = 1 : i32, pure = true} : (tensor<128xi1>) -> tensor<128xi32>
  return
}
