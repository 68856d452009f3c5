// RUN: blk-opt %s --split-input-file --convert-blk-to-llvm | FileCheck %s
// RUN: blk-opt %s --split-input-file --convert-blk-to-llvm=compute-capability=80 --verify-diagnostics -o /dev/null

// Four f32 registers per thread become fp8 bytes in two cvt pairs (the
// first operand lands in the high byte: register 1 then register 0), and
// back: bytes paired into 16 bits, one cvt gives two f16, each widened to
// f32. A splat fp8 constant is its byte (1.5 in e4m3: 0x3c = 60). A scalar
// converts alone, paired with 0.0.
#l = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[X0:[^:]*]]: f32, %[[X1:[^:]*]]: f32,
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %[[X1]], %[[X0]] : (f32, f32) -> i16
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f"
// CHECK: llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h"
// CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
// CHECK: llvm.mlir.constant(60 : i8) : i8
// CHECK: cvt.rn.satfinite.e5m2x2.f32
// CHECK: cvt.rn.f16x2.e5m2x2
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f" %[[ZERO]], %{{.*}} : (f32, f32) -> i16
// CHECK: return
func.func @round_trip(%x: tensor<512xf32, #l>, %f: f32, %p: !blk.ptr<f8E4M3FN>) {
  // expected-error @+1 {{fp8 needs sm_89 or newer (its conversions and products), the target is sm_80}}
  %q = arith.truncf %x : tensor<512xf32, #l> to tensor<512xf8E4M3FN, #l>
  %y = arith.extf %q : tensor<512xf8E4M3FN, #l> to tensor<512xf32, #l>
  blk.print "y" %y : tensor<512xf32, #l>
  %c = arith.constant dense<1.5> : tensor<512xf8E4M3FN, #l>
  %true = arith.constant true
  %s = arith.select %true, %q, %c : tensor<512xf8E4M3FN, #l>
  %w = arith.extf %s : tensor<512xf8E4M3FN, #l> to tensor<512xf32, #l>
  %z = arith.truncf %w : tensor<512xf32, #l> to tensor<512xf8E5M2, #l>
  %v = arith.extf %z : tensor<512xf8E5M2, #l> to tensor<512xf32, #l>
  blk.print "v" %v : tensor<512xf32, #l>
  %one = arith.truncf %f : f32 to f8E4M3FN
  blk.store %p, %one : (!blk.ptr<f8E4M3FN>, f8E4M3FN) -> ()
  return
}
}

// -----

// Bytes that conversions made in pairs are stored (and handed to wgmma as
// a register A, and written to shared memory) as the 16-bit registers the
// conversions gave: one 32-bit word of two pairs, no byte-by-byte
// insertion (a bit-field insert each in PTX).
// CHECK-LABEL: func.func @pairs_stay_packed
// CHECK: %[[P0:.+]] = llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f"
// CHECK: %[[P1:.+]] = llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $2;", "=h,f,f"
// CHECK-NOT: llvm.insertelement {{.*}} vector<4xi8>
// CHECK: %[[V0:.+]] = llvm.insertelement %[[P0]], %{{.+}}[%{{.+}} : i32] : vector<2xi16>
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[V1:.+]] = llvm.insertelement %[[P1]], %[[V0]][%{{.+}} : i32] : vector<2xi16>
// CHECK-NEXT: %[[W:.+]] = llvm.bitcast %[[V1]] : vector<2xi16> to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "st.global.b32 [ $0 + 0 ], $1;", "l,r" %{{.+}}, %[[W]]
#l = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
func.func @pairs_stay_packed(%x: tensor<512xf32, #l>, %p: tensor<512x!blk.ptr<f8E4M3FN>, #l>) {
  // expected-error @+1 {{fp8 needs sm_89 or newer (its conversions and products), the target is sm_80}}
  %q = arith.truncf %x : tensor<512xf32, #l> to tensor<512xf8E4M3FN, #l>
  blk.store %p, %q {vec = 4 : i32} : (tensor<512x!blk.ptr<f8E4M3FN>, #l>, tensor<512xf8E4M3FN, #l>) -> ()
  return
}
}
