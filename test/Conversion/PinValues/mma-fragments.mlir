// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm=compute-capability=90 --cse | FileCheck %s

// Which elements are packed into each tensor-core fragment. The operands
// come in as function arguments, one per register in the layout's register
// order, so each fragment word names the two arguments it packs (the lower
// k in the low half), and each accumulator operand the argument or the
// earlier instruction's result it continues. The expected registers follow
// from the PTX fragment layouts (lane 0's view) and the register bits of
// the #blk.mma / #blk.dot_op layouts; --cse leaves each packed word once,
// at its first use.

// mma.sync m16n8k16, one warp, 32x32 (f16) times 32x16 into 32x16 (f32):
// k outermost, then rows, then columns: 8 instructions.
//   A registers: bit 0 k+1, bit 1 row+8, bit 2 k+8, bit 3 k+16, bit 4 row+16.
//   B registers: bit 0 k+1, bit 1 k+8, bit 2 k+16, bit 3 column+8.
//   C registers: bit 0 column+1, bit 1 row+8, bit 2 column+8, bit 3 row+16.
// Fragments: a0..a3 = A rows +0/+8 at k +0, then at k +8 (two k each);
// b0, b1 = B k +0, +8 (two k each) of one column; c0..c3 = (row, col),
// (row, col+1), (row+8, col), (row+8, col+1).
#mma = #blk.mma<version = 2, warpsPerCTA = [1, 1], instrShape = [16, 8, 16]>
#a = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#b = #blk.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @mma_tiles
// Tile rows 0-15, columns 0-7, k 0-15.
// CHECK: %[[U:[0-9]+]] = llvm.mlir.undef : vector<2xf16>
// CHECK-NEXT: %[[I0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[A0K0L:[0-9]+]] = llvm.insertelement %arg0, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[I1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[A0K0H:[0-9]+]] = llvm.insertelement %arg1, %[[A0K0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K0:[0-9]+]] = llvm.bitcast %[[A0K0H]] : vector<2xf16> to i32
// CHECK: %[[A8K0L:[0-9]+]] = llvm.insertelement %arg2, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K0H:[0-9]+]] = llvm.insertelement %arg3, %[[A8K0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K0:[0-9]+]] = llvm.bitcast %[[A8K0H]] : vector<2xf16> to i32
// CHECK: %[[A0K8L:[0-9]+]] = llvm.insertelement %arg4, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K8H:[0-9]+]] = llvm.insertelement %arg5, %[[A0K8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K8:[0-9]+]] = llvm.bitcast %[[A0K8H]] : vector<2xf16> to i32
// CHECK: %[[A8K8L:[0-9]+]] = llvm.insertelement %arg6, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K8H:[0-9]+]] = llvm.insertelement %arg7, %[[A8K8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K8:[0-9]+]] = llvm.bitcast %[[A8K8H]] : vector<2xf16> to i32
// CHECK: %[[B0N0L:[0-9]+]] = llvm.insertelement %arg32, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B0N0H:[0-9]+]] = llvm.insertelement %arg33, %[[B0N0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B0N0:[0-9]+]] = llvm.bitcast %[[B0N0H]] : vector<2xf16> to i32
// CHECK: %[[B8N0L:[0-9]+]] = llvm.insertelement %arg34, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B8N0H:[0-9]+]] = llvm.insertelement %arg35, %[[B8N0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B8N0:[0-9]+]] = llvm.bitcast %[[B8N0H]] : vector<2xf16> to i32
// CHECK: %[[T0M0N0:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A0K0]], %[[A8K0]], %[[A0K8]], %[[A8K8]], %[[B0N0]], %[[B8N0]], %arg48, %arg49, %arg50, %arg51 :
// CHECK-NEXT: %[[D0M0N0:[0-9]+]] = llvm.extractvalue %[[T0M0N0]][0]
// CHECK-NEXT: %[[D0M0N1:[0-9]+]] = llvm.extractvalue %[[T0M0N0]][1]
// CHECK-NEXT: %[[D0M8N0:[0-9]+]] = llvm.extractvalue %[[T0M0N0]][2]
// CHECK-NEXT: %[[D0M8N1:[0-9]+]] = llvm.extractvalue %[[T0M0N0]][3]
// Tile rows 0-15, columns 8-15, k 0-15.
// CHECK: %[[B0N8L:[0-9]+]] = llvm.insertelement %arg40, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B0N8H:[0-9]+]] = llvm.insertelement %arg41, %[[B0N8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B0N8:[0-9]+]] = llvm.bitcast %[[B0N8H]] : vector<2xf16> to i32
// CHECK: %[[B8N8L:[0-9]+]] = llvm.insertelement %arg42, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B8N8H:[0-9]+]] = llvm.insertelement %arg43, %[[B8N8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B8N8:[0-9]+]] = llvm.bitcast %[[B8N8H]] : vector<2xf16> to i32
// CHECK: %[[T0M0N8:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A0K0]], %[[A8K0]], %[[A0K8]], %[[A8K8]], %[[B0N8]], %[[B8N8]], %arg52, %arg53, %arg54, %arg55 :
// CHECK-NEXT: %[[D0M0N8:[0-9]+]] = llvm.extractvalue %[[T0M0N8]][0]
// CHECK-NEXT: %[[D0M0N9:[0-9]+]] = llvm.extractvalue %[[T0M0N8]][1]
// CHECK-NEXT: %[[D0M8N8:[0-9]+]] = llvm.extractvalue %[[T0M0N8]][2]
// CHECK-NEXT: %[[D0M8N9:[0-9]+]] = llvm.extractvalue %[[T0M0N8]][3]
// Tile rows 16-31, columns 0-7, k 0-15.
// CHECK: %[[A16K0L:[0-9]+]] = llvm.insertelement %arg16, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K0H:[0-9]+]] = llvm.insertelement %arg17, %[[A16K0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K0:[0-9]+]] = llvm.bitcast %[[A16K0H]] : vector<2xf16> to i32
// CHECK: %[[A24K0L:[0-9]+]] = llvm.insertelement %arg18, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K0H:[0-9]+]] = llvm.insertelement %arg19, %[[A24K0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K0:[0-9]+]] = llvm.bitcast %[[A24K0H]] : vector<2xf16> to i32
// CHECK: %[[A16K8L:[0-9]+]] = llvm.insertelement %arg20, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K8H:[0-9]+]] = llvm.insertelement %arg21, %[[A16K8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K8:[0-9]+]] = llvm.bitcast %[[A16K8H]] : vector<2xf16> to i32
// CHECK: %[[A24K8L:[0-9]+]] = llvm.insertelement %arg22, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K8H:[0-9]+]] = llvm.insertelement %arg23, %[[A24K8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K8:[0-9]+]] = llvm.bitcast %[[A24K8H]] : vector<2xf16> to i32
// CHECK: %[[T0M16N0:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A16K0]], %[[A24K0]], %[[A16K8]], %[[A24K8]], %[[B0N0]], %[[B8N0]], %arg56, %arg57, %arg58, %arg59 :
// CHECK-NEXT: %[[D0M16N0:[0-9]+]] = llvm.extractvalue %[[T0M16N0]][0]
// CHECK-NEXT: %[[D0M16N1:[0-9]+]] = llvm.extractvalue %[[T0M16N0]][1]
// CHECK-NEXT: %[[D0M24N0:[0-9]+]] = llvm.extractvalue %[[T0M16N0]][2]
// CHECK-NEXT: %[[D0M24N1:[0-9]+]] = llvm.extractvalue %[[T0M16N0]][3]
// Tile rows 16-31, columns 8-15, k 0-15.
// CHECK: %[[T0M16N8:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A16K0]], %[[A24K0]], %[[A16K8]], %[[A24K8]], %[[B0N8]], %[[B8N8]], %arg60, %arg61, %arg62, %arg63 :
// CHECK-NEXT: %[[D0M16N8:[0-9]+]] = llvm.extractvalue %[[T0M16N8]][0]
// CHECK-NEXT: %[[D0M16N9:[0-9]+]] = llvm.extractvalue %[[T0M16N8]][1]
// CHECK-NEXT: %[[D0M24N8:[0-9]+]] = llvm.extractvalue %[[T0M16N8]][2]
// CHECK-NEXT: %[[D0M24N9:[0-9]+]] = llvm.extractvalue %[[T0M16N8]][3]
// Tile rows 0-15, columns 0-7, k 16-31.
// CHECK: %[[A0K16L:[0-9]+]] = llvm.insertelement %arg8, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K16H:[0-9]+]] = llvm.insertelement %arg9, %[[A0K16L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K16:[0-9]+]] = llvm.bitcast %[[A0K16H]] : vector<2xf16> to i32
// CHECK: %[[A8K16L:[0-9]+]] = llvm.insertelement %arg10, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K16H:[0-9]+]] = llvm.insertelement %arg11, %[[A8K16L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K16:[0-9]+]] = llvm.bitcast %[[A8K16H]] : vector<2xf16> to i32
// CHECK: %[[A0K24L:[0-9]+]] = llvm.insertelement %arg12, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K24H:[0-9]+]] = llvm.insertelement %arg13, %[[A0K24L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A0K24:[0-9]+]] = llvm.bitcast %[[A0K24H]] : vector<2xf16> to i32
// CHECK: %[[A8K24L:[0-9]+]] = llvm.insertelement %arg14, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K24H:[0-9]+]] = llvm.insertelement %arg15, %[[A8K24L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A8K24:[0-9]+]] = llvm.bitcast %[[A8K24H]] : vector<2xf16> to i32
// CHECK: %[[B16N0L:[0-9]+]] = llvm.insertelement %arg36, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B16N0H:[0-9]+]] = llvm.insertelement %arg37, %[[B16N0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B16N0:[0-9]+]] = llvm.bitcast %[[B16N0H]] : vector<2xf16> to i32
// CHECK: %[[B24N0L:[0-9]+]] = llvm.insertelement %arg38, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B24N0H:[0-9]+]] = llvm.insertelement %arg39, %[[B24N0L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B24N0:[0-9]+]] = llvm.bitcast %[[B24N0H]] : vector<2xf16> to i32
// CHECK: %[[T16M0N0:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A0K16]], %[[A8K16]], %[[A0K24]], %[[A8K24]], %[[B16N0]], %[[B24N0]], %[[D0M0N0]], %[[D0M0N1]], %[[D0M8N0]], %[[D0M8N1]] :
// CHECK-NEXT: %[[D16M0N0:[0-9]+]] = llvm.extractvalue %[[T16M0N0]][0]
// CHECK-NEXT: %[[D16M0N1:[0-9]+]] = llvm.extractvalue %[[T16M0N0]][1]
// CHECK-NEXT: %[[D16M8N0:[0-9]+]] = llvm.extractvalue %[[T16M0N0]][2]
// CHECK-NEXT: %[[D16M8N1:[0-9]+]] = llvm.extractvalue %[[T16M0N0]][3]
// Tile rows 0-15, columns 8-15, k 16-31.
// CHECK: %[[B16N8L:[0-9]+]] = llvm.insertelement %arg44, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B16N8H:[0-9]+]] = llvm.insertelement %arg45, %[[B16N8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B16N8:[0-9]+]] = llvm.bitcast %[[B16N8H]] : vector<2xf16> to i32
// CHECK: %[[B24N8L:[0-9]+]] = llvm.insertelement %arg46, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B24N8H:[0-9]+]] = llvm.insertelement %arg47, %[[B24N8L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B24N8:[0-9]+]] = llvm.bitcast %[[B24N8H]] : vector<2xf16> to i32
// CHECK: %[[T16M0N8:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A0K16]], %[[A8K16]], %[[A0K24]], %[[A8K24]], %[[B16N8]], %[[B24N8]], %[[D0M0N8]], %[[D0M0N9]], %[[D0M8N8]], %[[D0M8N9]] :
// CHECK-NEXT: %[[D16M0N8:[0-9]+]] = llvm.extractvalue %[[T16M0N8]][0]
// CHECK-NEXT: %[[D16M0N9:[0-9]+]] = llvm.extractvalue %[[T16M0N8]][1]
// CHECK-NEXT: %[[D16M8N8:[0-9]+]] = llvm.extractvalue %[[T16M0N8]][2]
// CHECK-NEXT: %[[D16M8N9:[0-9]+]] = llvm.extractvalue %[[T16M0N8]][3]
// Tile rows 16-31, columns 0-7, k 16-31.
// CHECK: %[[A16K16L:[0-9]+]] = llvm.insertelement %arg24, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K16H:[0-9]+]] = llvm.insertelement %arg25, %[[A16K16L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K16:[0-9]+]] = llvm.bitcast %[[A16K16H]] : vector<2xf16> to i32
// CHECK: %[[A24K16L:[0-9]+]] = llvm.insertelement %arg26, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K16H:[0-9]+]] = llvm.insertelement %arg27, %[[A24K16L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K16:[0-9]+]] = llvm.bitcast %[[A24K16H]] : vector<2xf16> to i32
// CHECK: %[[A16K24L:[0-9]+]] = llvm.insertelement %arg28, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K24H:[0-9]+]] = llvm.insertelement %arg29, %[[A16K24L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A16K24:[0-9]+]] = llvm.bitcast %[[A16K24H]] : vector<2xf16> to i32
// CHECK: %[[A24K24L:[0-9]+]] = llvm.insertelement %arg30, %[[U]][%[[I0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K24H:[0-9]+]] = llvm.insertelement %arg31, %[[A24K24L]][%[[I1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[A24K24:[0-9]+]] = llvm.bitcast %[[A24K24H]] : vector<2xf16> to i32
// CHECK: %[[T16M16N0:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A16K16]], %[[A24K16]], %[[A16K24]], %[[A24K24]], %[[B16N0]], %[[B24N0]], %[[D0M16N0]], %[[D0M16N1]], %[[D0M24N0]], %[[D0M24N1]] :
// CHECK-NEXT: %[[D16M16N0:[0-9]+]] = llvm.extractvalue %[[T16M16N0]][0]
// CHECK-NEXT: %[[D16M16N1:[0-9]+]] = llvm.extractvalue %[[T16M16N0]][1]
// CHECK-NEXT: %[[D16M24N0:[0-9]+]] = llvm.extractvalue %[[T16M16N0]][2]
// CHECK-NEXT: %[[D16M24N1:[0-9]+]] = llvm.extractvalue %[[T16M16N0]][3]
// Tile rows 16-31, columns 8-15, k 16-31.
// CHECK: %[[T16M16N8:[0-9]+]] = llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{.*}}" %[[A16K16]], %[[A24K16]], %[[A16K24]], %[[A24K24]], %[[B16N8]], %[[B24N8]], %[[D0M16N8]], %[[D0M16N9]], %[[D0M24N8]], %[[D0M24N9]] :
// CHECK-NEXT: %[[D16M16N8:[0-9]+]] = llvm.extractvalue %[[T16M16N8]][0]
// CHECK-NEXT: %[[D16M16N9:[0-9]+]] = llvm.extractvalue %[[T16M16N8]][1]
// CHECK-NEXT: %[[D16M24N8:[0-9]+]] = llvm.extractvalue %[[T16M16N8]][2]
// CHECK-NEXT: %[[D16M24N9:[0-9]+]] = llvm.extractvalue %[[T16M16N8]][3]
// CHECK-NOT: mma.sync
// Each accumulator register's last value is stored through its own pointer.
// CHECK: %[[W0:[0-9]+]] = llvm.bitcast %[[D16M0N0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg64, %[[W0]] :
// CHECK: %[[W1:[0-9]+]] = llvm.bitcast %[[D16M0N1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg65, %[[W1]] :
// CHECK: %[[W2:[0-9]+]] = llvm.bitcast %[[D16M8N0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg66, %[[W2]] :
// CHECK: %[[W3:[0-9]+]] = llvm.bitcast %[[D16M8N1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg67, %[[W3]] :
// CHECK: %[[W4:[0-9]+]] = llvm.bitcast %[[D16M0N8]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg68, %[[W4]] :
// CHECK: %[[W5:[0-9]+]] = llvm.bitcast %[[D16M0N9]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg69, %[[W5]] :
// CHECK: %[[W6:[0-9]+]] = llvm.bitcast %[[D16M8N8]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg70, %[[W6]] :
// CHECK: %[[W7:[0-9]+]] = llvm.bitcast %[[D16M8N9]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg71, %[[W7]] :
// CHECK: %[[W8:[0-9]+]] = llvm.bitcast %[[D16M16N0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg72, %[[W8]] :
// CHECK: %[[W9:[0-9]+]] = llvm.bitcast %[[D16M16N1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg73, %[[W9]] :
// CHECK: %[[W10:[0-9]+]] = llvm.bitcast %[[D16M24N0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg74, %[[W10]] :
// CHECK: %[[W11:[0-9]+]] = llvm.bitcast %[[D16M24N1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg75, %[[W11]] :
// CHECK: %[[W12:[0-9]+]] = llvm.bitcast %[[D16M16N8]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg76, %[[W12]] :
// CHECK: %[[W13:[0-9]+]] = llvm.bitcast %[[D16M16N9]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg77, %[[W13]] :
// CHECK: %[[W14:[0-9]+]] = llvm.bitcast %[[D16M24N8]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg78, %[[W14]] :
// CHECK: %[[W15:[0-9]+]] = llvm.bitcast %[[D16M24N9]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg79, %[[W15]] :
func.func @mma_tiles(%a: tensor<32x32xf16, #a>, %b: tensor<32x16xf16, #b>, %c: tensor<32x16xf32, #mma>, %p: tensor<32x16x!blk.ptr<f32>, #mma>) {
  %d = blk.dot %a, %b, %c : tensor<32x32xf16, #a>, tensor<32x16xf16, #b>, tensor<32x16xf32, #mma> -> tensor<32x16xf32, #mma>
  blk.store %p, %d {vec = 1 : i32} : (tensor<32x16x!blk.ptr<f32>, #mma>, tensor<32x16xf32, #mma>) -> ()
  return
}
}

// -----

// wgmma with A from registers (sm_90a): 128x32 bf16 A in the v3 parent's
// operand layout, B (32x32 bf16) from a one-slot ring with N along its
// 64-byte lines (MN-major), 128x32 f32 accumulator over one warpgroup: two
// 64-row slabs times two k steps, four issues of m64n32k16.
//   A registers: bit 0 k+1, bit 1 row+8, bit 2 k+8, bit 3 k+16, bit 4 row+64.
//   Accumulator registers: bit 0 column+1, bit 1 row+8, bit 2 column+8,
//   bit 3 column+16, bit 4 row+64.
// Register-A fragment a0..a3: rows +0/+8 at k +0, then at k +8, two k each;
// accumulator d0..d15: per 8 columns, (row, col), (row, col+1), (row+8,
// col), (row+8, col+1).
#mma = #blk.mma<version = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>
#dot = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @wgmma_register_a
// CHECK: %[[I0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SLOTBYTES:[0-9]+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT: %[[SLOTOFF:[0-9]+]] = llvm.mul %{{.+}}, %[[SLOTBYTES]] : i32
// CHECK-NEXT: %[[SLOT:[0-9]+]] = llvm.add %{{[0-9]+}}, %[[SLOTOFF]] : i32
// CHECK: %[[I1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// B's descriptor for k 0, built once for the slab: the slot's start plus chunk (0) * 2048 + k * 64 bytes, in 16-byte
// units (14 bits), with the fixed fields: 64-byte swizzle (mode 2 at bit 62), stride 512 bytes
// (32 << 32), leading 2048 bytes (128 << 16): -9223371899407433728.
// CHECK: %[[CHUNK:[0-9]+]] = llvm.mul %{{[0-9]+}}, %[[SLOTBYTES]] : i32
// CHECK-NEXT: %[[OFF0:[0-9]+]] = llvm.add %[[CHUNK]], %[[I0]] : i32
// CHECK-NEXT: %[[ADDR0:[0-9]+]] = llvm.add %[[SLOT]], %[[OFF0]] : i32
// CHECK-NEXT: %[[MASK14:[0-9]+]] = llvm.mlir.constant(16383 : i32) : i32
// CHECK-NEXT: %[[FOUR:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[UNITS0:[0-9]+]] = llvm.lshr %[[ADDR0]], %[[FOUR]] : i32
// CHECK-NEXT: %[[START0:[0-9]+]] = llvm.and %[[UNITS0]], %[[MASK14]] : i32
// CHECK-NEXT: %[[FIELDS:[0-9]+]] = llvm.mlir.constant(-9223371899407433728 : i64) : i64
// CHECK-NEXT: %[[WIDE0:[0-9]+]] = llvm.zext %[[START0]] : i32 to i64
// CHECK-NEXT: %[[DESCK0:[0-9]+]] = llvm.or %[[WIDE0]], %[[FIELDS]] : i64
// CHECK-NEXT: %[[U:[0-9]+]] = llvm.mlir.undef : vector<2xbf16>
// CHECK: %[[A0K0L:[0-9]+]] = llvm.insertelement %arg0, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K0H:[0-9]+]] = llvm.insertelement %arg1, %[[A0K0L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K0:[0-9]+]] = llvm.bitcast %[[A0K0H]] : vector<2xbf16> to i32
// CHECK: %[[A8K0L:[0-9]+]] = llvm.insertelement %arg2, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K0H:[0-9]+]] = llvm.insertelement %arg3, %[[A8K0L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K0:[0-9]+]] = llvm.bitcast %[[A8K0H]] : vector<2xbf16> to i32
// CHECK: %[[A0K8L:[0-9]+]] = llvm.insertelement %arg4, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K8H:[0-9]+]] = llvm.insertelement %arg5, %[[A0K8L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K8:[0-9]+]] = llvm.bitcast %[[A0K8H]] : vector<2xbf16> to i32
// CHECK: %[[A8K8L:[0-9]+]] = llvm.insertelement %arg6, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K8H:[0-9]+]] = llvm.insertelement %arg7, %[[A8K8L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K8:[0-9]+]] = llvm.bitcast %[[A8K8H]] : vector<2xbf16> to i32
// CHECK: %[[A0K16L:[0-9]+]] = llvm.insertelement %arg8, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K16H:[0-9]+]] = llvm.insertelement %arg9, %[[A0K16L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K16:[0-9]+]] = llvm.bitcast %[[A0K16H]] : vector<2xbf16> to i32
// CHECK: %[[A8K16L:[0-9]+]] = llvm.insertelement %arg10, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K16H:[0-9]+]] = llvm.insertelement %arg11, %[[A8K16L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K16:[0-9]+]] = llvm.bitcast %[[A8K16H]] : vector<2xbf16> to i32
// CHECK: %[[A0K24L:[0-9]+]] = llvm.insertelement %arg12, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K24H:[0-9]+]] = llvm.insertelement %arg13, %[[A0K24L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A0K24:[0-9]+]] = llvm.bitcast %[[A0K24H]] : vector<2xbf16> to i32
// CHECK: %[[A8K24L:[0-9]+]] = llvm.insertelement %arg14, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K24H:[0-9]+]] = llvm.insertelement %arg15, %[[A8K24L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A8K24:[0-9]+]] = llvm.bitcast %[[A8K24H]] : vector<2xbf16> to i32
// k 16: 16 lines of 64 bytes further, 64 more 16-byte units in the k-0
// descriptor's start field.
// CHECK: %[[K16:[0-9]+]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-NEXT: %[[DESCK16:[0-9]+]] = llvm.add %[[DESCK0]], %[[K16]] : i64
// CHECK: %[[A64K0L:[0-9]+]] = llvm.insertelement %arg16, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K0H:[0-9]+]] = llvm.insertelement %arg17, %[[A64K0L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K0:[0-9]+]] = llvm.bitcast %[[A64K0H]] : vector<2xbf16> to i32
// CHECK: %[[A72K0L:[0-9]+]] = llvm.insertelement %arg18, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K0H:[0-9]+]] = llvm.insertelement %arg19, %[[A72K0L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K0:[0-9]+]] = llvm.bitcast %[[A72K0H]] : vector<2xbf16> to i32
// CHECK: %[[A64K8L:[0-9]+]] = llvm.insertelement %arg20, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K8H:[0-9]+]] = llvm.insertelement %arg21, %[[A64K8L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K8:[0-9]+]] = llvm.bitcast %[[A64K8H]] : vector<2xbf16> to i32
// CHECK: %[[A72K8L:[0-9]+]] = llvm.insertelement %arg22, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K8H:[0-9]+]] = llvm.insertelement %arg23, %[[A72K8L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K8:[0-9]+]] = llvm.bitcast %[[A72K8H]] : vector<2xbf16> to i32
// CHECK: %[[A64K16L:[0-9]+]] = llvm.insertelement %arg24, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K16H:[0-9]+]] = llvm.insertelement %arg25, %[[A64K16L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K16:[0-9]+]] = llvm.bitcast %[[A64K16H]] : vector<2xbf16> to i32
// CHECK: %[[A72K16L:[0-9]+]] = llvm.insertelement %arg26, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K16H:[0-9]+]] = llvm.insertelement %arg27, %[[A72K16L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K16:[0-9]+]] = llvm.bitcast %[[A72K16H]] : vector<2xbf16> to i32
// CHECK: %[[A64K24L:[0-9]+]] = llvm.insertelement %arg28, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K24H:[0-9]+]] = llvm.insertelement %arg29, %[[A64K24L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A64K24:[0-9]+]] = llvm.bitcast %[[A64K24H]] : vector<2xbf16> to i32
// CHECK: %[[A72K24L:[0-9]+]] = llvm.insertelement %arg30, %[[U]][%[[I0]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K24H:[0-9]+]] = llvm.insertelement %arg31, %[[A72K24L]][%[[I1]] : i32] : vector<2xbf16>
// CHECK-NEXT: %[[A72K24:[0-9]+]] = llvm.bitcast %[[A72K24H]] : vector<2xbf16> to i32
// Every operand is ready before the fence; then the four issues in order.
// CHECK: wgmma.fence.sync.aligned;
// Rows 0-63 (each warp its 16), k 0-15: the accumulator arguments 0-15 in wgmma order.
// CHECK: %[[W0K0:[0-9]+]] = llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $37, 0;\0Awgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,r" %arg32, %arg33, %arg34, %arg35, %arg36, %arg37, %arg38, %arg39, %arg40, %arg41, %arg42, %arg43, %arg44, %arg45, %arg46, %arg47, %[[A0K0]], %[[A8K0]], %[[A0K8]], %[[A8K8]], %[[DESCK0]], %[[I1]] :
// CHECK-NEXT: %[[S0K0D0:[0-9]+]] = llvm.extractvalue %[[W0K0]][0]
// CHECK-NEXT: %[[S0K0D1:[0-9]+]] = llvm.extractvalue %[[W0K0]][1]
// CHECK-NEXT: %[[S0K0D2:[0-9]+]] = llvm.extractvalue %[[W0K0]][2]
// CHECK-NEXT: %[[S0K0D3:[0-9]+]] = llvm.extractvalue %[[W0K0]][3]
// CHECK-NEXT: %[[S0K0D4:[0-9]+]] = llvm.extractvalue %[[W0K0]][4]
// CHECK-NEXT: %[[S0K0D5:[0-9]+]] = llvm.extractvalue %[[W0K0]][5]
// CHECK-NEXT: %[[S0K0D6:[0-9]+]] = llvm.extractvalue %[[W0K0]][6]
// CHECK-NEXT: %[[S0K0D7:[0-9]+]] = llvm.extractvalue %[[W0K0]][7]
// CHECK-NEXT: %[[S0K0D8:[0-9]+]] = llvm.extractvalue %[[W0K0]][8]
// CHECK-NEXT: %[[S0K0D9:[0-9]+]] = llvm.extractvalue %[[W0K0]][9]
// CHECK-NEXT: %[[S0K0D10:[0-9]+]] = llvm.extractvalue %[[W0K0]][10]
// CHECK-NEXT: %[[S0K0D11:[0-9]+]] = llvm.extractvalue %[[W0K0]][11]
// CHECK-NEXT: %[[S0K0D12:[0-9]+]] = llvm.extractvalue %[[W0K0]][12]
// CHECK-NEXT: %[[S0K0D13:[0-9]+]] = llvm.extractvalue %[[W0K0]][13]
// CHECK-NEXT: %[[S0K0D14:[0-9]+]] = llvm.extractvalue %[[W0K0]][14]
// CHECK-NEXT: %[[S0K0D15:[0-9]+]] = llvm.extractvalue %[[W0K0]][15]
// Rows 0-63, k 16-31: A registers 8-15, accumulating into the first issue's results.
// CHECK: %[[W0K16:[0-9]+]] = llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $37, 0;\0Awgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,r" %[[S0K0D0]], %[[S0K0D1]], %[[S0K0D2]], %[[S0K0D3]], %[[S0K0D4]], %[[S0K0D5]], %[[S0K0D6]], %[[S0K0D7]], %[[S0K0D8]], %[[S0K0D9]], %[[S0K0D10]], %[[S0K0D11]], %[[S0K0D12]], %[[S0K0D13]], %[[S0K0D14]], %[[S0K0D15]], %[[A0K16]], %[[A8K16]], %[[A0K24]], %[[A8K24]], %[[DESCK16]], %[[I1]] :
// CHECK-NEXT: %[[S0K16D0:[0-9]+]] = llvm.extractvalue %[[W0K16]][0]
// CHECK-NEXT: %[[S0K16D1:[0-9]+]] = llvm.extractvalue %[[W0K16]][1]
// CHECK-NEXT: %[[S0K16D2:[0-9]+]] = llvm.extractvalue %[[W0K16]][2]
// CHECK-NEXT: %[[S0K16D3:[0-9]+]] = llvm.extractvalue %[[W0K16]][3]
// CHECK-NEXT: %[[S0K16D4:[0-9]+]] = llvm.extractvalue %[[W0K16]][4]
// CHECK-NEXT: %[[S0K16D5:[0-9]+]] = llvm.extractvalue %[[W0K16]][5]
// CHECK-NEXT: %[[S0K16D6:[0-9]+]] = llvm.extractvalue %[[W0K16]][6]
// CHECK-NEXT: %[[S0K16D7:[0-9]+]] = llvm.extractvalue %[[W0K16]][7]
// CHECK-NEXT: %[[S0K16D8:[0-9]+]] = llvm.extractvalue %[[W0K16]][8]
// CHECK-NEXT: %[[S0K16D9:[0-9]+]] = llvm.extractvalue %[[W0K16]][9]
// CHECK-NEXT: %[[S0K16D10:[0-9]+]] = llvm.extractvalue %[[W0K16]][10]
// CHECK-NEXT: %[[S0K16D11:[0-9]+]] = llvm.extractvalue %[[W0K16]][11]
// CHECK-NEXT: %[[S0K16D12:[0-9]+]] = llvm.extractvalue %[[W0K16]][12]
// CHECK-NEXT: %[[S0K16D13:[0-9]+]] = llvm.extractvalue %[[W0K16]][13]
// CHECK-NEXT: %[[S0K16D14:[0-9]+]] = llvm.extractvalue %[[W0K16]][14]
// CHECK-NEXT: %[[S0K16D15:[0-9]+]] = llvm.extractvalue %[[W0K16]][15]
// Rows 64-127, k 0-15: A registers 16-23, accumulator arguments 16-31.
// CHECK: %[[W64K0:[0-9]+]] = llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $37, 0;\0Awgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,r" %arg48, %arg49, %arg50, %arg51, %arg52, %arg53, %arg54, %arg55, %arg56, %arg57, %arg58, %arg59, %arg60, %arg61, %arg62, %arg63, %[[A64K0]], %[[A72K0]], %[[A64K8]], %[[A72K8]], %[[DESCK0]], %[[I1]] :
// CHECK-NEXT: %[[S64K0D0:[0-9]+]] = llvm.extractvalue %[[W64K0]][0]
// CHECK-NEXT: %[[S64K0D1:[0-9]+]] = llvm.extractvalue %[[W64K0]][1]
// CHECK-NEXT: %[[S64K0D2:[0-9]+]] = llvm.extractvalue %[[W64K0]][2]
// CHECK-NEXT: %[[S64K0D3:[0-9]+]] = llvm.extractvalue %[[W64K0]][3]
// CHECK-NEXT: %[[S64K0D4:[0-9]+]] = llvm.extractvalue %[[W64K0]][4]
// CHECK-NEXT: %[[S64K0D5:[0-9]+]] = llvm.extractvalue %[[W64K0]][5]
// CHECK-NEXT: %[[S64K0D6:[0-9]+]] = llvm.extractvalue %[[W64K0]][6]
// CHECK-NEXT: %[[S64K0D7:[0-9]+]] = llvm.extractvalue %[[W64K0]][7]
// CHECK-NEXT: %[[S64K0D8:[0-9]+]] = llvm.extractvalue %[[W64K0]][8]
// CHECK-NEXT: %[[S64K0D9:[0-9]+]] = llvm.extractvalue %[[W64K0]][9]
// CHECK-NEXT: %[[S64K0D10:[0-9]+]] = llvm.extractvalue %[[W64K0]][10]
// CHECK-NEXT: %[[S64K0D11:[0-9]+]] = llvm.extractvalue %[[W64K0]][11]
// CHECK-NEXT: %[[S64K0D12:[0-9]+]] = llvm.extractvalue %[[W64K0]][12]
// CHECK-NEXT: %[[S64K0D13:[0-9]+]] = llvm.extractvalue %[[W64K0]][13]
// CHECK-NEXT: %[[S64K0D14:[0-9]+]] = llvm.extractvalue %[[W64K0]][14]
// CHECK-NEXT: %[[S64K0D15:[0-9]+]] = llvm.extractvalue %[[W64K0]][15]
// Rows 64-127, k 16-31: A registers 24-31.
// CHECK: %[[W64K16:[0-9]+]] = llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $37, 0;\0Awgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,r,r,r,r,l,r" %[[S64K0D0]], %[[S64K0D1]], %[[S64K0D2]], %[[S64K0D3]], %[[S64K0D4]], %[[S64K0D5]], %[[S64K0D6]], %[[S64K0D7]], %[[S64K0D8]], %[[S64K0D9]], %[[S64K0D10]], %[[S64K0D11]], %[[S64K0D12]], %[[S64K0D13]], %[[S64K0D14]], %[[S64K0D15]], %[[A64K16]], %[[A72K16]], %[[A64K24]], %[[A72K24]], %[[DESCK16]], %[[I1]] :
// CHECK-NEXT: %[[S64K16D0:[0-9]+]] = llvm.extractvalue %[[W64K16]][0]
// CHECK-NEXT: %[[S64K16D1:[0-9]+]] = llvm.extractvalue %[[W64K16]][1]
// CHECK-NEXT: %[[S64K16D2:[0-9]+]] = llvm.extractvalue %[[W64K16]][2]
// CHECK-NEXT: %[[S64K16D3:[0-9]+]] = llvm.extractvalue %[[W64K16]][3]
// CHECK-NEXT: %[[S64K16D4:[0-9]+]] = llvm.extractvalue %[[W64K16]][4]
// CHECK-NEXT: %[[S64K16D5:[0-9]+]] = llvm.extractvalue %[[W64K16]][5]
// CHECK-NEXT: %[[S64K16D6:[0-9]+]] = llvm.extractvalue %[[W64K16]][6]
// CHECK-NEXT: %[[S64K16D7:[0-9]+]] = llvm.extractvalue %[[W64K16]][7]
// CHECK-NEXT: %[[S64K16D8:[0-9]+]] = llvm.extractvalue %[[W64K16]][8]
// CHECK-NEXT: %[[S64K16D9:[0-9]+]] = llvm.extractvalue %[[W64K16]][9]
// CHECK-NEXT: %[[S64K16D10:[0-9]+]] = llvm.extractvalue %[[W64K16]][10]
// CHECK-NEXT: %[[S64K16D11:[0-9]+]] = llvm.extractvalue %[[W64K16]][11]
// CHECK-NEXT: %[[S64K16D12:[0-9]+]] = llvm.extractvalue %[[W64K16]][12]
// CHECK-NEXT: %[[S64K16D13:[0-9]+]] = llvm.extractvalue %[[W64K16]][13]
// CHECK-NEXT: %[[S64K16D14:[0-9]+]] = llvm.extractvalue %[[W64K16]][14]
// CHECK-NEXT: %[[S64K16D15:[0-9]+]] = llvm.extractvalue %[[W64K16]][15]
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK-NEXT: %[[WAIT:[0-9]+]] = llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "{{.*}}" %[[S0K16D0]], %[[S0K16D1]], %[[S0K16D2]], %[[S0K16D3]], %[[S0K16D4]], %[[S0K16D5]], %[[S0K16D6]], %[[S0K16D7]], %[[S0K16D8]], %[[S0K16D9]], %[[S0K16D10]], %[[S0K16D11]], %[[S0K16D12]], %[[S0K16D13]], %[[S0K16D14]], %[[S0K16D15]], %[[S64K16D0]], %[[S64K16D1]], %[[S64K16D2]], %[[S64K16D3]], %[[S64K16D4]], %[[S64K16D5]], %[[S64K16D6]], %[[S64K16D7]], %[[S64K16D8]], %[[S64K16D9]], %[[S64K16D10]], %[[S64K16D11]], %[[S64K16D12]], %[[S64K16D13]], %[[S64K16D14]], %[[S64K16D15]] :
// CHECK-NEXT: %[[R0:[0-9]+]] = llvm.extractvalue %[[WAIT]][0]
// CHECK-NEXT: %[[R1:[0-9]+]] = llvm.extractvalue %[[WAIT]][1]
// CHECK: %[[R31:[0-9]+]] = llvm.extractvalue %[[WAIT]][31]
// CHECK: %[[G0:[0-9]+]] = llvm.bitcast %[[R0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg64, %[[G0]] :
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[R1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg65, %[[G1]] :
// CHECK: %[[G31:[0-9]+]] = llvm.bitcast %[[R31]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %arg95, %[[G31]] :
func.func @wgmma_register_a(%a: tensor<128x32xbf16, #dot>, %c: tensor<128x32xf32, #mma>, %p: tensor<128x32x!blk.ptr<f32>, #mma>) {
  %s = arith.constant 0 : i32
  %b = blk.local_alloc : !blk.smem<[1, 32, 32], bf16, contig = 1>
  %d = blk.warp_group_dot %a, %b[%s], %c : tensor<128x32xbf16, #dot>, !blk.smem<[1, 32, 32], bf16, contig = 1>, tensor<128x32xf32, #mma> -> tensor<128x32xf32, #mma>
  %w = blk.warp_group_dot_wait %d {pending = 0 : i32} : tensor<128x32xf32, #mma>
  blk.store %p, %w {vec = 1 : i32} : (tensor<128x32x!blk.ptr<f32>, #mma>, tensor<128x32xf32, #mma>) -> ()
  return
}
}

// -----

// ldmatrix reading mma.sync operands back from a swizzled tile (a
// conversion to #blk.dot_op): four 8x8 matrices per instruction, lanes
// 8q..8q+7 giving the rows of matrix q. For A (16x16 f16) the matrices are
// at (0,0), (8,0), (0,8), (8,8) (registers 0, 2, 4, 6, each paired with the
// next element along K): lane l reads row sel(q; 0, 8, 0, 8) + (l & 7),
// column sel(q; 0, 0, 8, 8), q = (l >> 3) & 3, and word m of the result
// is registers 2m and 2m+1. B (K along the tile's columns) takes .trans.
#mma = #blk.mma<version = 2, warpsPerCTA = [1, 1], instrShape = [16, 8, 16]>
#a = #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>
#b = #blk.dot_op<opIdx = 1, parent = #mma, kWidth = 2>
#rows = #blk.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @ldmatrix_a
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: nvvm.barrier0
// CHECK-NEXT: %[[ROWIN:[0-9]+]] = llvm.and %[[LANE]], %[[C7]] : i32
// CHECK-NEXT: %[[LG:[0-9]+]] = llvm.lshr %[[LANE]], %[[C3]] : i32
// CHECK-NEXT: %[[Q:[0-9]+]] = llvm.and %[[LG]], %[[C3]] : i32
// CHECK-NEXT: %[[IS1:[0-9]+]] = llvm.icmp "eq" %[[Q]], %[[C1]] : i32
// CHECK-NEXT: %[[C8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[R1:[0-9]+]] = llvm.select %[[IS1]], %[[C8]], %[[C0]] : i1, i32
// CHECK-NEXT: %[[IS2:[0-9]+]] = llvm.icmp "eq" %[[Q]], %[[C2]] : i32
// CHECK-NEXT: %[[R2:[0-9]+]] = llvm.select %[[IS2]], %[[C0]], %[[R1]] : i1, i32
// CHECK-NEXT: %[[IS3:[0-9]+]] = llvm.icmp "eq" %[[Q]], %[[C3]] : i32
// CHECK-NEXT: %[[R3:[0-9]+]] = llvm.select %[[IS3]], %[[C8]], %[[R2]] : i1, i32
// CHECK-NEXT: %[[MROW:[0-9]+]] = llvm.xor %[[R3]], %[[C0]] : i32
// CHECK-NEXT: %[[ROW:[0-9]+]] = llvm.add %[[MROW]], %[[ROWIN]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = llvm.select %[[IS1]], %[[C0]], %[[C0]] : i1, i32
// CHECK-NEXT: %[[K2:[0-9]+]] = llvm.select %[[IS2]], %[[C8]], %[[K1]] : i1, i32
// CHECK-NEXT: %[[K3:[0-9]+]] = llvm.select %[[IS3]], %[[C8]], %[[K2]] : i1, i32
// CHECK-NEXT: %[[COL:[0-9]+]] = llvm.xor %[[K3]], %[[C0]] : i32
// The row's line (32 bytes) and the column's 16-byte unit, swizzled by row bit 2.
// CHECK: %[[LINE:[0-9]+]] = llvm.mul %[[ROW]], %{{[0-9]+}} : i32
// CHECK: %[[ADDR:[0-9]+]] = llvm.ptrtoint %{{[0-9]+}} : !llvm.ptr<3> to i32
// CHECK-NEXT: %[[LD:[0-9]+]] = llvm.inline_asm has_side_effects "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r" %[[ADDR]] :
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.extractvalue %[[LD]][0]
// CHECK-NEXT: %[[V0:[0-9]+]] = llvm.bitcast %[[W0]] : i32 to vector<2xf16>
// CHECK-NEXT: %[[E0:[0-9]+]] = llvm.extractelement %[[V0]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[E1:[0-9]+]] = llvm.extractelement %[[V0]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.extractvalue %[[LD]][1]
// CHECK-NEXT: %[[V1:[0-9]+]] = llvm.bitcast %[[W1]] : i32 to vector<2xf16>
// CHECK-NEXT: %[[E2:[0-9]+]] = llvm.extractelement %[[V1]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[E3:[0-9]+]] = llvm.extractelement %[[V1]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W2:[0-9]+]] = llvm.extractvalue %[[LD]][2]
// CHECK-NEXT: %[[V2:[0-9]+]] = llvm.bitcast %[[W2]] : i32 to vector<2xf16>
// CHECK-NEXT: %[[E4:[0-9]+]] = llvm.extractelement %[[V2]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[E5:[0-9]+]] = llvm.extractelement %[[V2]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W3:[0-9]+]] = llvm.extractvalue %[[LD]][3]
// CHECK-NEXT: %[[V3:[0-9]+]] = llvm.bitcast %[[W3]] : i32 to vector<2xf16>
// CHECK-NEXT: %[[E6:[0-9]+]] = llvm.extractelement %[[V3]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[E7:[0-9]+]] = llvm.extractelement %[[V3]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NOT: ldmatrix
// CHECK: %[[S0:[0-9]+]] = llvm.bitcast %[[E0]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg8, %[[S0]] :
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.bitcast %[[E1]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg9, %[[S1]] :
// CHECK-NEXT: %[[S2:[0-9]+]] = llvm.bitcast %[[E2]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg10, %[[S2]] :
// CHECK-NEXT: %[[S3:[0-9]+]] = llvm.bitcast %[[E3]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg11, %[[S3]] :
// CHECK-NEXT: %[[S4:[0-9]+]] = llvm.bitcast %[[E4]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg12, %[[S4]] :
// CHECK-NEXT: %[[S5:[0-9]+]] = llvm.bitcast %[[E5]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg13, %[[S5]] :
// CHECK-NEXT: %[[S6:[0-9]+]] = llvm.bitcast %[[E6]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg14, %[[S6]] :
// CHECK-NEXT: %[[S7:[0-9]+]] = llvm.bitcast %[[E7]] : f16 to i16
// CHECK-NEXT: "st.global.b16 [ $0 + 0 ], $1;", "l,h" %arg15, %[[S7]] :
func.func @ldmatrix_a(%x: tensor<16x16xf16, #rows>, %p: tensor<16x16x!blk.ptr<f16>, #a>) {
  %c = blk.convert_layout %x : tensor<16x16xf16, #rows> -> tensor<16x16xf16, #a>
  blk.store %p, %c {vec = 1 : i32} : (tensor<16x16x!blk.ptr<f16>, #a>, tensor<16x16xf16, #a>) -> ()
  return
}
// CHECK-LABEL: func.func @ldmatrix_b
// CHECK: nvvm.barrier0
// CHECK: "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [$4];"
// CHECK-NOT: ldmatrix
// CHECK: return
func.func @ldmatrix_b(%x: tensor<16x16xf16, #rows>, %p: tensor<16x16x!blk.ptr<f16>, #b>) {
  %c = blk.convert_layout %x : tensor<16x16xf16, #rows> -> tensor<16x16xf16, #b>
  blk.store %p, %c {vec = 1 : i32} : (tensor<16x16x!blk.ptr<f16>, #b>, tensor<16x16xf16, #b>) -> ()
  return
}
}
