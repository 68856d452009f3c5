// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s
// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | sed -n '/func.func @dot_fma/,/gpu.printf/p' | grep -c 'llvm.load' | FileCheck %s --check-prefix=LOADS
// LOADS: 48
// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm | FileCheck %s --check-prefix=PTX
// PTX: module attributes {blk.min_ptx_version = 84 : i32

#mma8 = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 32]>
#l = #blk.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
// "ieee" dot on CUDA cores: both operands stored to shared memory (2 + 2
// registers per thread), one barrier, then per k one load of A for the one
// row this thread's 2 accumulator registers share, two loads of B (one per
// column) and two FMAs: 16 k steps, 48 loads, 32 FMAs.
// CHECK-LABEL: func.func @dot_fma
// CHECK-COUNT-4: llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT: llvm.store
// CHECK: nvvm.barrier0
// CHECK-COUNT-32: llvm.intr.fma
// CHECK-NOT: llvm.intr.fma
// CHECK: gpu.printf
// CHECK: return
func.func @dot_fma(%a: tensor<16x16xf32, #l>, %b: tensor<16x16xf32, #l>, %c: tensor<16x16xf32, #l>) {
  %d = blk.dot %a, %b, %c : tensor<16x16xf32, #l>, tensor<16x16xf32, #l>, tensor<16x16xf32, #l> -> tensor<16x16xf32, #l>
  blk.print "d" %d : tensor<16x16xf32, #l>
  return
}

// bf16 operands widen to f32 once per load; i8 multiplies and adds in i32.
// CHECK-LABEL: func.func @dot_widen
// CHECK: llvm.fpext {{.*}} : bf16 to f32
// CHECK: llvm.intr.fma
// CHECK-LABEL: func.func @dot_int
// CHECK: llvm.sext {{.*}} : i8 to i32
// CHECK: llvm.mul
// CHECK: llvm.add
func.func @dot_widen(%a: tensor<16x16xbf16, #l>, %b: tensor<16x16xbf16, #l>, %c: tensor<16x16xf32, #l>) {
  %d = blk.dot %a, %b, %c : tensor<16x16xbf16, #l>, tensor<16x16xbf16, #l>, tensor<16x16xf32, #l> -> tensor<16x16xf32, #l>
  blk.print "d" %d : tensor<16x16xf32, #l>
  return
}
func.func @dot_int(%a: tensor<16x16xi8, #l>, %b: tensor<16x16xi8, #l>, %c: tensor<16x16xi32, #l>) {
  %d = blk.dot %a, %b, %c : tensor<16x16xi8, #l>, tensor<16x16xi8, #l>, tensor<16x16xi32, #l> -> tensor<16x16xi32, #l>
  blk.print "d" %d : tensor<16x16xi32, #l>
  return
}

// tf32 on mma.sync m16n8k8: each f32 operand register is rounded once
// up front (cvt.rna.tf32.f32: A's 8 and B's 4 per thread), then one mma
// per 16x8x8 tile with 4 warps over 64 rows: 2 k steps.
// CHECK-LABEL: func.func @dot_tf32
// CHECK-COUNT-12: cvt.rna.tf32.f32
// CHECK-NOT: cvt.rna
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: cvt.rna
// CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: mma.sync
// CHECK: return
func.func @dot_tf32(%a: tensor<64x16xf32, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>, kWidth = 1>>,
                    %b: tensor<16x8xf32, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>, kWidth = 1>>,
                    %c: tensor<64x8xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>>) {
  %d = blk.dot %a, %b, %c {input_precision = "tf32"} : tensor<64x16xf32, #blk.dot_op<opIdx = 0, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>, kWidth = 1>>, tensor<16x8xf32, #blk.dot_op<opIdx = 1, parent = #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>, kWidth = 1>>, tensor<64x8xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>> -> tensor<64x8xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>>
  blk.print "d" %d : tensor<64x8xf32, #blk.mma<version = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>>
  return
}
// fp8 on mma.sync m16n8k32: A e4m3 and B e5m2 (PTX names each), four bytes
// per register; the module asks for PTX ISA 8.4, the first with fp8 mma.
// CHECK-LABEL: func.func @dot_fp8
// CHECK: llvm.bitcast {{.*}} : vector<4xi8> to i32
// CHECK: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32
// CHECK-NOT: mma.sync
// CHECK: return
func.func @dot_fp8(%a: tensor<64x32xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #mma8, kWidth = 4>>,
                   %b: tensor<32x8xf8E5M2, #blk.dot_op<opIdx = 1, parent = #mma8, kWidth = 4>>,
                   %c: tensor<64x8xf32, #mma8>) {
  %d = blk.dot %a, %b, %c : tensor<64x32xf8E4M3FN, #blk.dot_op<opIdx = 0, parent = #mma8, kWidth = 4>>, tensor<32x8xf8E5M2, #blk.dot_op<opIdx = 1, parent = #mma8, kWidth = 4>>, tensor<64x8xf32, #mma8> -> tensor<64x8xf32, #mma8>
  blk.print "d" %d : tensor<64x8xf32, #mma8>
  return
}
}
