// RUN: blk-opt %s --convert-blk-to-llvm --blk-lower-to-nvvm --cse | FileCheck %s

// floor, ceil, exp2, log2 and abs on blocks: each register goes through its
// own call, in the program's order, and reaches the store of its own
// register. f32: floor, ceil and abs are libdevice's __nv_floorf, __nv_ceilf
// and __nv_fabsf, exp2 and log2 the hardware approximations (ex2.approx.ftz,
// lg2.approx); f64: libdevice's double versions throughout; f16: widened to
// f32 around the f32 libdevice calls (exp2 and log2 too: the approximations
// are for f32 only); integer abs: __nv_abs.

#l2 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-DAG: llvm.func @__nv_floorf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_ceilf(f32) -> f32
// CHECK-DAG: llvm.func @__nv_fabsf(f32) -> f32
// CHECK-LABEL: llvm.func @f32_builtins
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK-NEXT: %[[FL0:[0-9]+]] = llvm.call @__nv_floorf(%[[X0]]) : (f32) -> f32
// CHECK-NEXT: %[[FL1:[0-9]+]] = llvm.call @__nv_floorf(%[[X1]]) : (f32) -> f32
// CHECK-NEXT: %[[CE0:[0-9]+]] = llvm.call @__nv_ceilf(%[[FL0]]) : (f32) -> f32
// CHECK-NEXT: %[[CE1:[0-9]+]] = llvm.call @__nv_ceilf(%[[FL1]]) : (f32) -> f32
// CHECK-NEXT: %[[EX0:[0-9]+]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[CE0]] : (f32) -> f32
// CHECK-NEXT: %[[EX1:[0-9]+]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[CE1]] : (f32) -> f32
// CHECK-NEXT: %[[LG0:[0-9]+]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %[[EX0]] : (f32) -> f32
// CHECK-NEXT: %[[LG1:[0-9]+]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %[[EX1]] : (f32) -> f32
// CHECK-NEXT: %[[AB0:[0-9]+]] = llvm.call @__nv_fabsf(%[[LG0]]) : (f32) -> f32
// CHECK-NEXT: %[[AB1:[0-9]+]] = llvm.call @__nv_fabsf(%[[LG1]]) : (f32) -> f32
// CHECK: %[[W0:[0-9]+]] = llvm.bitcast %[[AB0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[W0]] :
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.bitcast %[[AB1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[W1]] :
func.func @f32_builtins(%x: tensor<64xf32, #l2>, %p: tensor<64x!blk.ptr<f32>, #l2>) attributes {blk.kernel} {
  %a = math.floor %x : tensor<64xf32, #l2>
  %b = math.ceil %a : tensor<64xf32, #l2>
  %c = math.exp2 %b : tensor<64xf32, #l2>
  %d = math.log2 %c : tensor<64xf32, #l2>
  %e = math.absf %d : tensor<64xf32, #l2>
  blk.store %p, %e {vec = 1 : i32} : (tensor<64x!blk.ptr<f32>, #l2>, tensor<64xf32, #l2>) -> ()
  return
}

// The reverse order, so that each call is pinned by its operand, not by
// where it sits: abs, log2, exp2, ceil, floor.
// CHECK-LABEL: llvm.func @f32_reversed
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK-NEXT: %[[AB0:[0-9]+]] = llvm.call @__nv_fabsf(%[[X0]]) : (f32) -> f32
// CHECK-NEXT: %[[AB1:[0-9]+]] = llvm.call @__nv_fabsf(%[[X1]]) : (f32) -> f32
// CHECK-NEXT: %[[LG0:[0-9]+]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %[[AB0]] : (f32) -> f32
// CHECK-NEXT: %[[LG1:[0-9]+]] = llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f" %[[AB1]] : (f32) -> f32
// CHECK-NEXT: %[[EX0:[0-9]+]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[LG0]] : (f32) -> f32
// CHECK-NEXT: %[[EX1:[0-9]+]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[LG1]] : (f32) -> f32
// CHECK-NEXT: %[[CE0:[0-9]+]] = llvm.call @__nv_ceilf(%[[EX0]]) : (f32) -> f32
// CHECK-NEXT: %[[CE1:[0-9]+]] = llvm.call @__nv_ceilf(%[[EX1]]) : (f32) -> f32
// CHECK-NEXT: %[[FL0:[0-9]+]] = llvm.call @__nv_floorf(%[[CE0]]) : (f32) -> f32
// CHECK-NEXT: %[[FL1:[0-9]+]] = llvm.call @__nv_floorf(%[[CE1]]) : (f32) -> f32
// CHECK: %[[W0:[0-9]+]] = llvm.bitcast %[[FL0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[W0]] :
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.bitcast %[[FL1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[W1]] :
func.func @f32_reversed(%x: tensor<64xf32, #l2>, %p: tensor<64x!blk.ptr<f32>, #l2>) attributes {blk.kernel} {
  %a = math.absf %x : tensor<64xf32, #l2>
  %b = math.log2 %a : tensor<64xf32, #l2>
  %c = math.exp2 %b : tensor<64xf32, #l2>
  %d = math.ceil %c : tensor<64xf32, #l2>
  %e = math.floor %d : tensor<64xf32, #l2>
  blk.store %p, %e {vec = 1 : i32} : (tensor<64x!blk.ptr<f32>, #l2>, tensor<64xf32, #l2>) -> ()
  return
}

// CHECK-DAG: llvm.func @__nv_floor(f64) -> f64
// CHECK-DAG: llvm.func @__nv_ceil(f64) -> f64
// CHECK-DAG: llvm.func @__nv_exp2(f64) -> f64
// CHECK-DAG: llvm.func @__nv_log2(f64) -> f64
// CHECK-DAG: llvm.func @__nv_fabs(f64) -> f64
// CHECK-LABEL: llvm.func @f64_builtins
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f64, %[[X1:[0-9a-z_]+]]: f64, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK-NEXT: %[[FL0:[0-9]+]] = llvm.call @__nv_floor(%[[X0]]) : (f64) -> f64
// CHECK-NEXT: %[[FL1:[0-9]+]] = llvm.call @__nv_floor(%[[X1]]) : (f64) -> f64
// CHECK-NEXT: %[[CE0:[0-9]+]] = llvm.call @__nv_ceil(%[[FL0]]) : (f64) -> f64
// CHECK-NEXT: %[[CE1:[0-9]+]] = llvm.call @__nv_ceil(%[[FL1]]) : (f64) -> f64
// CHECK-NEXT: %[[EX0:[0-9]+]] = llvm.call @__nv_exp2(%[[CE0]]) : (f64) -> f64
// CHECK-NEXT: %[[EX1:[0-9]+]] = llvm.call @__nv_exp2(%[[CE1]]) : (f64) -> f64
// CHECK-NEXT: %[[LG0:[0-9]+]] = llvm.call @__nv_log2(%[[EX0]]) : (f64) -> f64
// CHECK-NEXT: %[[LG1:[0-9]+]] = llvm.call @__nv_log2(%[[EX1]]) : (f64) -> f64
// CHECK-NEXT: %[[AB0:[0-9]+]] = llvm.call @__nv_fabs(%[[LG0]]) : (f64) -> f64
// CHECK-NEXT: %[[AB1:[0-9]+]] = llvm.call @__nv_fabs(%[[LG1]]) : (f64) -> f64
// CHECK: %[[W0:[0-9]+]] = llvm.bitcast %[[AB0]] : f64 to i64
// CHECK-NEXT: "st.global.b64 [ $0 + 0 ], $1;", "l,l" %[[Q0]], %[[W0]] :
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.bitcast %[[AB1]] : f64 to i64
// CHECK-NEXT: "st.global.b64 [ $0 + 0 ], $1;", "l,l" %[[Q1]], %[[W1]] :
func.func @f64_builtins(%x: tensor<64xf64, #l2>, %p: tensor<64x!blk.ptr<f64>, #l2>) attributes {blk.kernel} {
  %a = math.floor %x : tensor<64xf64, #l2>
  %b = math.ceil %a : tensor<64xf64, #l2>
  %c = math.exp2 %b : tensor<64xf64, #l2>
  %d = math.log2 %c : tensor<64xf64, #l2>
  %e = math.absf %d : tensor<64xf64, #l2>
  blk.store %p, %e {vec = 1 : i32} : (tensor<64x!blk.ptr<f64>, #l2>, tensor<64xf64, #l2>) -> ()
  return
}

// CHECK-DAG: llvm.func @__nv_exp2f(f32) -> f32
// CHECK-DAG: llvm.func @__nv_log2f(f32) -> f32
// CHECK-LABEL: llvm.func @f16_builtins
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f16, %[[X1:[0-9a-z_]+]]: f16, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK-NEXT: %[[E0:[0-9]+]] = llvm.fpext %[[X0]] : f16 to f32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.call @__nv_floorf(%[[E0]]) : (f32) -> f32
// CHECK-NEXT: %[[FL0:[0-9]+]] = llvm.fptrunc %[[C0]] : f32 to f16
// CHECK-NEXT: %[[E1:[0-9]+]] = llvm.fpext %[[X1]] : f16 to f32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.call @__nv_floorf(%[[E1]]) : (f32) -> f32
// CHECK-NEXT: %[[FL1:[0-9]+]] = llvm.fptrunc %[[C1]] : f32 to f16
// CHECK-NEXT: %[[E2:[0-9]+]] = llvm.fpext %[[FL0]] : f16 to f32
// CHECK-NEXT: %[[C2:[0-9]+]] = llvm.call @__nv_ceilf(%[[E2]]) : (f32) -> f32
// CHECK-NEXT: %[[CE0:[0-9]+]] = llvm.fptrunc %[[C2]] : f32 to f16
// CHECK-NEXT: %[[E3:[0-9]+]] = llvm.fpext %[[FL1]] : f16 to f32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.call @__nv_ceilf(%[[E3]]) : (f32) -> f32
// CHECK-NEXT: %[[CE1:[0-9]+]] = llvm.fptrunc %[[C3]] : f32 to f16
// CHECK-NEXT: %[[E4:[0-9]+]] = llvm.fpext %[[CE0]] : f16 to f32
// CHECK-NEXT: %[[C4:[0-9]+]] = llvm.call @__nv_exp2f(%[[E4]]) : (f32) -> f32
// CHECK-NEXT: %[[EX0:[0-9]+]] = llvm.fptrunc %[[C4]] : f32 to f16
// CHECK-NEXT: %[[E5:[0-9]+]] = llvm.fpext %[[CE1]] : f16 to f32
// CHECK-NEXT: %[[C5:[0-9]+]] = llvm.call @__nv_exp2f(%[[E5]]) : (f32) -> f32
// CHECK-NEXT: %[[EX1:[0-9]+]] = llvm.fptrunc %[[C5]] : f32 to f16
// CHECK-NEXT: %[[E6:[0-9]+]] = llvm.fpext %[[EX0]] : f16 to f32
// CHECK-NEXT: %[[C6:[0-9]+]] = llvm.call @__nv_log2f(%[[E6]]) : (f32) -> f32
// CHECK-NEXT: %[[LG0:[0-9]+]] = llvm.fptrunc %[[C6]] : f32 to f16
// CHECK-NEXT: %[[E7:[0-9]+]] = llvm.fpext %[[EX1]] : f16 to f32
// CHECK-NEXT: %[[C7:[0-9]+]] = llvm.call @__nv_log2f(%[[E7]]) : (f32) -> f32
// CHECK-NEXT: %[[LG1:[0-9]+]] = llvm.fptrunc %[[C7]] : f32 to f16
// CHECK-NEXT: %[[E8:[0-9]+]] = llvm.fpext %[[LG0]] : f16 to f32
// CHECK-NEXT: %[[C8:[0-9]+]] = llvm.call @__nv_fabsf(%[[E8]]) : (f32) -> f32
// CHECK-NEXT: %[[AB0:[0-9]+]] = llvm.fptrunc %[[C8]] : f32 to f16
// CHECK-NEXT: %[[E9:[0-9]+]] = llvm.fpext %[[LG1]] : f16 to f32
// CHECK-NEXT: %[[C9:[0-9]+]] = llvm.call @__nv_fabsf(%[[E9]]) : (f32) -> f32
// CHECK-NEXT: %[[AB1:[0-9]+]] = llvm.fptrunc %[[C9]] : f32 to f16
// CHECK: %[[W0:[0-9]+]] = llvm.bitcast %[[AB0]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %[[Q0]], %[[W0]] :
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.bitcast %[[AB1]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %[[Q1]], %[[W1]] :
func.func @f16_builtins(%x: tensor<64xf16, #l2>, %p: tensor<64x!blk.ptr<f16>, #l2>) attributes {blk.kernel} {
  %a = math.floor %x : tensor<64xf16, #l2>
  %b = math.ceil %a : tensor<64xf16, #l2>
  %c = math.exp2 %b : tensor<64xf16, #l2>
  %d = math.log2 %c : tensor<64xf16, #l2>
  %e = math.absf %d : tensor<64xf16, #l2>
  blk.store %p, %e {vec = 1 : i32} : (tensor<64x!blk.ptr<f16>, #l2>, tensor<64xf16, #l2>) -> ()
  return
}

// CHECK-DAG: llvm.func @__nv_abs(i32) -> i32
// CHECK-LABEL: llvm.func @int_abs
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: i32, %[[X1:[0-9a-z_]+]]: i32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK-NEXT: %[[AB0:[0-9]+]] = llvm.call @__nv_abs(%[[X0]]) : (i32) -> i32
// CHECK-NEXT: %[[AB1:[0-9]+]] = llvm.call @__nv_abs(%[[X1]]) : (i32) -> i32
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[AB0]] :
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[AB1]] :
func.func @int_abs(%x: tensor<64xi32, #l2>, %p: tensor<64x!blk.ptr<i32>, #l2>) attributes {blk.kernel} {
  %e = math.absi %x : tensor<64xi32, #l2>
  blk.store %p, %e {vec = 1 : i32} : (tensor<64x!blk.ptr<i32>, #l2>, tensor<64xi32, #l2>) -> ()
  return
}
}
