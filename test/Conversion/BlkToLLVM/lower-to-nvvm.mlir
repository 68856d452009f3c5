// RUN: blk-opt %s --blk-lower-to-nvvm | FileCheck %s

module attributes {blk.num_warps = 8 : i32} {
  // Kernels get nvvm.kernel and the thread count; exp and log on f32 use ex2.approx.ftz/lg2.approx;
  // other math goes to libdevice; loops become branches.
  // CHECK-LABEL: llvm.func @kernel
  // CHECK-SAME: nvvm.kernel
  // CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
  // CHECK: llvm.fmul
  // CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f"
  // CHECK: llvm.inline_asm "lg2.approx.f32 $0, $1;", "=f,f"
  // CHECK: llvm.call @__nv_sinf
  // CHECK: llvm.cond_br
  func.func @kernel(%x: f32, %n: i32) attributes {blk.kernel} {
    %e = math.exp %x : f32
    %l0 = math.log %e : f32
    %l = math.sin %l0 : f32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %l) -> (f32) : i32 {
      %t = arith.addf %acc, %l : f32
      scf.yield %t : f32
    }
    return
  }
  // f32 division is div.full.f32 unless marked precise (div_rn).
  // CHECK-LABEL: llvm.func @division
  // CHECK: llvm.inline_asm "div.full.f32 $0, $1, $2;", "=f,f,f"
  // CHECK: llvm.fdiv
  // CHECK: llvm.fdiv %{{.*}} : f64
  func.func @division(%a: f32, %b: f32, %c: f64) -> (f32, f32, f64) {
    %q = arith.divf %a, %b : f32
    %r = arith.divf %a, %b {blk.precise} : f32
    %s = arith.divf %c, %c : f64
    return %q, %r, %s : f32, f32, f64
  }
  // A float narrowed toward zero is cvt.rz (f64 to a 16-bit float through
  // f32); to nearest even it stays an fptrunc.
  // CHECK-LABEL: llvm.func @narrow_toward_zero
  // CHECK: %[[H:.+]] = llvm.inline_asm "cvt.rz.f16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
  // CHECK: llvm.bitcast %[[H]] : i16 to f16
  // CHECK: %[[B:.+]] = llvm.inline_asm "cvt.rz.bf16.f32 $0, $1;", "=h,f" %{{.*}} : (f32) -> i16
  // CHECK: llvm.bitcast %[[B]] : i16 to bf16
  // CHECK: llvm.inline_asm "cvt.rz.f32.f64 $0, $1;", "=f,d" %{{.*}} : (f64) -> f32
  // CHECK: %[[D:.+]] = llvm.inline_asm "cvt.rz.f32.f64 $0, $1;", "=f,d" %{{.*}} : (f64) -> f32
  // CHECK: llvm.inline_asm "cvt.rz.f16.f32 $0, $1;", "=h,f" %[[D]] : (f32) -> i16
  // CHECK: llvm.fptrunc %{{.*}} : f32 to f16
  func.func @narrow_toward_zero(%x: f32, %d: f64) -> (f16, bf16, f32, f16, f16) {
    %h = arith.truncf %x toward_zero : f32 to f16
    %b = arith.truncf %x toward_zero : f32 to bf16
    %f = arith.truncf %d toward_zero : f64 to f32
    %hd = arith.truncf %d toward_zero : f64 to f16
    %n = arith.truncf %x : f32 to f16
    return %h, %b, %f, %hd, %n : f16, bf16, f32, f16, f16
  }
  // A warp-specialized kernel launches its producer warpgroup after the
  // 8 warps, one program per multiprocessor (the register cap setmaxnreg
  // needs at entry).
  // CHECK-LABEL: llvm.func @specialized
  // CHECK-SAME: nvvm.maxntid = array<i32: 384, 1, 1>
  // CHECK-SAME: nvvm.minctasm = 1 : i32
  func.func @specialized() attributes {blk.kernel, blk.producer_warps = 4 : i32} {
    return
  }
  // A kernel that asks for two programs per SM (blk-programs-per-sm) tells
  // ptxas so; the attribute goes.
  // CHECK-LABEL: llvm.func @two_programs() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 2 : i32}
  func.func @two_programs() attributes {blk.kernel, blk.programs_per_sm = 2 : i32} {
    return
  }
  // Helpers (none survive the frontend, but the pass must not mark them).
  // CHECK-LABEL: llvm.func @not_a_kernel
  // CHECK-NOT: nvvm.kernel
  func.func @not_a_kernel() {
    return
  }
}
