// RUN: blk-opt %s --split-input-file --convert-blk-to-llvm --cse | FileCheck %s

// Which mask register reaches the predicate of each global store, load and
// atomic: register i of the mask guards the access of register i (the first
// register of a vector guards the whole vector), and the value, `other` and
// pointer of that access come from the same register. --cse leaves one SSA
// value per constant and per thread id, so the chains read as data flow.

#l2 = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#l8 = #blk.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b2 = #blk.blocked<sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#rows = #blk.slice<dim = 1, parent = #b2>
#cols = #blk.slice<dim = 0, parent = #b2>
module attributes {blk.num_warps = 1 : i32} {

// Two registers per thread with masks of their own: the first store is
// guarded by the first mask and writes the first value at the first
// pointer; the second likewise.
// CHECK-LABEL: func.func @two_registers
// CHECK-SAME: (%[[P0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[P1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[V0:[0-9a-z_]+]]: f32, %[[V1:[0-9a-z_]+]]: f32, %[[M0:[0-9a-z_]+]]: i1, %[[M1:[0-9a-z_]+]]: i1)
// CHECK: %[[W0:[0-9]+]] = llvm.bitcast %[[V0]] : f32 to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[P0]], %[[W0]], %[[M0]] :
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.bitcast %[[V1]] : f32 to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[P1]], %[[W1]], %[[M1]] :
// CHECK-NOT: st.global
// CHECK: return
func.func @two_registers(%p: tensor<64x!blk.ptr<f32>, #l2>, %v: tensor<64xf32, #l2>, %m: tensor<64xi1, #l2>) {
  blk.store %p, %v, %m {vec = 1 : i32} : (tensor<64x!blk.ptr<f32>, #l2>, tensor<64xf32, #l2>, tensor<64xi1, #l2>) -> ()
  return
}

// The mask computed from the element's index (arange < n): register 0
// holds element 2 * lane, register 1 element 2 * lane + 1; each register's
// own comparison guards it, and the pointer and the value stored are of
// that element too.
// CHECK-LABEL: func.func @arange_mask
// CHECK-SAME: (%[[P:[0-9a-z_]+]]: !llvm.ptr<1>, %[[N:[0-9a-z_]+]]: i32)
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SH:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[BITS:[0-9]+]] = llvm.and %[[SH]], %[[C31]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[TWICE:[0-9]+]] = llvm.shl %[[BITS]], %[[C1]] : i32
// CHECK-NEXT: %[[E0:[0-9]+]] = llvm.xor %[[TWICE]], %[[C0]] : i32
// CHECK-NEXT: %[[E1:[0-9]+]] = llvm.add %[[E0]], %[[C1]] : i32
// CHECK-NEXT: %[[M0:[0-9]+]] = arith.cmpi slt, %[[E0]], %[[N]] : i32
// CHECK-NEXT: %[[M1:[0-9]+]] = arith.cmpi slt, %[[E1]], %[[N]] : i32
// CHECK-NEXT: %[[Q0:[0-9]+]] = llvm.getelementptr inbounds %[[P]][%[[E0]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// CHECK-NEXT: %[[Q1:[0-9]+]] = llvm.getelementptr inbounds %[[P]][%[[E1]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[Q0]], %[[E0]], %[[M0]] :
// CHECK-NEXT: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[Q1]], %[[E1]], %[[M1]] :
func.func @arange_mask(%p: !blk.ptr<i32>, %n: i32) attributes {blk.kernel} {
  %r = blk.arange 0, 64 : tensor<64xi32, #l2>
  %ns = blk.splat %n : i32 -> tensor<64xi32, #l2>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #l2>
  %ps = blk.splat %p : !blk.ptr<i32> -> tensor<64x!blk.ptr<i32>, #l2>
  %q = blk.addptr %ps, %r : tensor<64x!blk.ptr<i32>, #l2>, tensor<64xi32, #l2>
  blk.store %q, %r, %m {vec = 1 : i32} : (tensor<64x!blk.ptr<i32>, #l2>, tensor<64xi32, #l2>, tensor<64xi1, #l2>) -> ()
  return
}

// A 2-D block, two rows by two columns per thread: the mask of (row, col)
// is rowmask[row] & colmask[col], so the four stores take the four
// combinations in register order (0,0), (0,1), (1,0), (1,1), each at
// row * 16 + col. Rows come from lane bits 3-4 (times the two rows a
// thread holds), columns from lane bits 0-2 (times two).
// CHECK-LABEL: func.func @row_and_column_masks
// CHECK-SAME: (%[[P:[0-9a-z_]+]]: !llvm.ptr<1>, %[[MROWS:[0-9a-z_]+]]: i32, %[[NCOLS:[0-9a-z_]+]]: i32)
// CHECK: %[[LANE:[0-9]+]] = llvm.and %{{.+}}, %{{.+}} : i32
// CHECK: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[RSH:[0-9]+]] = llvm.lshr %[[LANE]], %[[C3]] : i32
// CHECK-NEXT: %[[RBITS:[0-9]+]] = llvm.and %[[RSH]], %[[C3]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[RX2:[0-9]+]] = llvm.shl %[[RBITS]], %[[C1]] : i32
// CHECK-NEXT: %[[ROW0:[0-9]+]] = llvm.xor %[[RX2]], %[[C0]] : i32
// CHECK: %[[ROW1:[0-9]+]] = llvm.add %[[ROW0]], %[[C1]] : i32
// CHECK-NEXT: %[[CSH:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[CBITS:[0-9]+]] = llvm.and %[[CSH]], %[[C7:[0-9]+]] : i32
// CHECK-NEXT: %[[CX2:[0-9]+]] = llvm.shl %[[CBITS]], %[[C1]] : i32
// CHECK-NEXT: %[[COL0:[0-9]+]] = llvm.xor %[[CX2]], %[[C0]] : i32
// CHECK: %[[COL1:[0-9]+]] = llvm.add %[[COL0]], %[[C1]] : i32
// CHECK-NEXT: %[[RM0:[0-9]+]] = arith.cmpi slt, %[[ROW0]], %[[MROWS]] : i32
// CHECK-NEXT: %[[RM1:[0-9]+]] = arith.cmpi slt, %[[ROW1]], %[[MROWS]] : i32
// CHECK-NEXT: %[[CM0:[0-9]+]] = arith.cmpi slt, %[[COL0]], %[[NCOLS]] : i32
// CHECK-NEXT: %[[CM1:[0-9]+]] = arith.cmpi slt, %[[COL1]], %[[NCOLS]] : i32
// CHECK-NEXT: %[[M00:[0-9]+]] = arith.andi %[[RM0]], %[[CM0]] : i1
// CHECK-NEXT: %[[M01:[0-9]+]] = arith.andi %[[RM0]], %[[CM1]] : i1
// CHECK-NEXT: %[[M10:[0-9]+]] = arith.andi %[[RM1]], %[[CM0]] : i1
// CHECK-NEXT: %[[M11:[0-9]+]] = arith.andi %[[RM1]], %[[CM1]] : i1
// CHECK-NEXT: %[[C16:[0-9a-z_]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[RO0:[0-9]+]] = arith.muli %[[ROW0]], %[[C16]] : i32
// CHECK-NEXT: %[[RO1:[0-9]+]] = arith.muli %[[ROW1]], %[[C16]] : i32
// CHECK-NEXT: %[[O00:[0-9]+]] = arith.addi %[[RO0]], %[[COL0]] : i32
// CHECK-NEXT: %[[O01:[0-9]+]] = arith.addi %[[RO0]], %[[COL1]] : i32
// CHECK-NEXT: %[[O10:[0-9]+]] = arith.addi %[[RO1]], %[[COL0]] : i32
// CHECK-NEXT: %[[O11:[0-9]+]] = arith.addi %[[RO1]], %[[COL1]] : i32
// CHECK-NEXT: %[[Q00:[0-9]+]] = llvm.getelementptr inbounds %[[P]][%[[O00]]]
// CHECK-NEXT: %[[Q01:[0-9]+]] = llvm.getelementptr inbounds %[[P]][%[[O01]]]
// CHECK-NEXT: %[[Q10:[0-9]+]] = llvm.getelementptr inbounds %[[P]][%[[O10]]]
// CHECK-NEXT: %[[Q11:[0-9]+]] = llvm.getelementptr inbounds %[[P]][%[[O11]]]
// CHECK-NEXT: %[[F00:[0-9]+]] = arith.sitofp %[[O00]] : i32 to f32
// CHECK-NEXT: %[[F01:[0-9]+]] = arith.sitofp %[[O01]] : i32 to f32
// CHECK-NEXT: %[[F10:[0-9]+]] = arith.sitofp %[[O10]] : i32 to f32
// CHECK-NEXT: %[[F11:[0-9]+]] = arith.sitofp %[[O11]] : i32 to f32
// CHECK-NEXT: %[[B00:[0-9]+]] = llvm.bitcast %[[F00]] : f32 to i32
// CHECK-NEXT: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[Q00]], %[[B00]], %[[M00]] :
// CHECK-NEXT: %[[B01:[0-9]+]] = llvm.bitcast %[[F01]] : f32 to i32
// CHECK-NEXT: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[Q01]], %[[B01]], %[[M01]] :
// CHECK-NEXT: %[[B10:[0-9]+]] = llvm.bitcast %[[F10]] : f32 to i32
// CHECK-NEXT: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[Q10]], %[[B10]], %[[M10]] :
// CHECK-NEXT: %[[B11:[0-9]+]] = llvm.bitcast %[[F11]] : f32 to i32
// CHECK-NEXT: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[Q11]], %[[B11]], %[[M11]] :
// CHECK-NOT: st.global
// CHECK: return
func.func @row_and_column_masks(%p: !blk.ptr<f32>, %M: i32, %N: i32) attributes {blk.kernel} {
  %rows = blk.arange 0, 8 : tensor<8xi32, #rows>
  %cols = blk.arange 0, 16 : tensor<16xi32, #cols>
  %Ms = blk.splat %M : i32 -> tensor<8xi32, #rows>
  %Ns = blk.splat %N : i32 -> tensor<16xi32, #cols>
  %rm = arith.cmpi slt, %rows, %Ms : tensor<8xi32, #rows>
  %cm = arith.cmpi slt, %cols, %Ns : tensor<16xi32, #cols>
  %rm2 = blk.expand_dims %rm {axis = 1 : i32} : tensor<8xi1, #rows> -> tensor<8x1xi1, #b2>
  %cm2 = blk.expand_dims %cm {axis = 0 : i32} : tensor<16xi1, #cols> -> tensor<1x16xi1, #b2>
  %rmb = blk.broadcast %rm2 : tensor<8x1xi1, #b2> -> tensor<8x16xi1, #b2>
  %cmb = blk.broadcast %cm2 : tensor<1x16xi1, #b2> -> tensor<8x16xi1, #b2>
  %m = arith.andi %rmb, %cmb : tensor<8x16xi1, #b2>
  %r2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<8xi32, #rows> -> tensor<8x1xi32, #b2>
  %c2 = blk.expand_dims %cols {axis = 0 : i32} : tensor<16xi32, #cols> -> tensor<1x16xi32, #b2>
  %c16 = arith.constant dense<16> : tensor<8x1xi32, #b2>
  %ro = arith.muli %r2, %c16 : tensor<8x1xi32, #b2>
  %rob = blk.broadcast %ro : tensor<8x1xi32, #b2> -> tensor<8x16xi32, #b2>
  %cob = blk.broadcast %c2 : tensor<1x16xi32, #b2> -> tensor<8x16xi32, #b2>
  %off = arith.addi %rob, %cob : tensor<8x16xi32, #b2>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<8x16x!blk.ptr<f32>, #b2>
  %q = blk.addptr %ps, %off : tensor<8x16x!blk.ptr<f32>, #b2>, tensor<8x16xi32, #b2>
  %v = arith.sitofp %off : tensor<8x16xi32, #b2> to tensor<8x16xf32, #b2>
  blk.store %q, %v, %m {vec = 1 : i32} : (tensor<8x16x!blk.ptr<f32>, #b2>, tensor<8x16xf32, #b2>, tensor<8x16xi1, #b2>) -> ()
  return
}

// Eight registers in two 16-byte vectors: the first vector (registers 0-3,
// in order, at pointer register 0) is guarded by mask register 0 alone, the
// second (4-7, at pointer register 4) by mask register 4; mask registers
// 1-3 and 5-7 guard nothing.
// CHECK-LABEL: func.func @vector_i32
// CHECK-SAME: (%[[P0:[0-9a-z_]+]]: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %[[P4:[0-9a-z_]+]]: !llvm.ptr<1>,
// CHECK-SAME: %[[V0:[0-9a-z_]+]]: i32, %[[V1:[0-9a-z_]+]]: i32, %[[V2:[0-9a-z_]+]]: i32, %[[V3:[0-9a-z_]+]]: i32, %[[V4:[0-9a-z_]+]]: i32, %[[V5:[0-9a-z_]+]]: i32, %[[V6:[0-9a-z_]+]]: i32, %[[V7:[0-9a-z_]+]]: i32,
// CHECK-SAME: %[[M0:[0-9a-z_]+]]: i1, %[[M1:[0-9a-z_]+]]: i1, %[[M2:[0-9a-z_]+]]: i1, %[[M3:[0-9a-z_]+]]: i1, %[[M4:[0-9a-z_]+]]: i1,
// CHECK: "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b" %[[P0]], %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[M0]] :
// CHECK-NEXT: "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b" %[[P4]], %[[V4]], %[[V5]], %[[V6]], %[[V7]], %[[M4]] :
// CHECK-NOT: st.global
// CHECK: return
func.func @vector_i32(%p: tensor<256x!blk.ptr<i32>, #l8>, %v: tensor<256xi32, #l8>, %m: tensor<256xi1, #l8>) {
  blk.store %p, %v, %m {vec = 4 : i32} : (tensor<256x!blk.ptr<i32>, #l8>, tensor<256xi32, #l8>, tensor<256xi1, #l8>) -> ()
  return
}

// Eight f16 in one 16-byte store: pairs packed low half first (registers
// 0,1 / 2,3 / 4,5 / 6,7 into words 0-3), one predicate: mask register 0.
// CHECK-LABEL: func.func @vector_f16
// CHECK-SAME: %[[H0:[0-9a-z_]+]]: f16, %[[H1:[0-9a-z_]+]]: f16, %[[H2:[0-9a-z_]+]]: f16, %[[H3:[0-9a-z_]+]]: f16, %[[H4:[0-9a-z_]+]]: f16, %[[H5:[0-9a-z_]+]]: f16, %[[H6:[0-9a-z_]+]]: f16, %[[H7:[0-9a-z_]+]]: f16, %[[M0:[0-9a-z_]+]]: i1
// CHECK: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[U:[0-9]+]] = llvm.mlir.undef : vector<2xf16>
// CHECK-NEXT: %[[A0:[0-9]+]] = llvm.insertelement %[[H0]], %[[U]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[B0:[0-9]+]] = llvm.insertelement %[[H1]], %[[A0]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.bitcast %[[B0]] : vector<2xf16> to i32
// CHECK-NEXT: %[[A1:[0-9]+]] = llvm.insertelement %[[H2]], %[[U]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.insertelement %[[H3]], %[[A1]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W1:[0-9]+]] = llvm.bitcast %[[B1]] : vector<2xf16> to i32
// CHECK-NEXT: %[[A2:[0-9]+]] = llvm.insertelement %[[H4]], %[[U]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B2:[0-9]+]] = llvm.insertelement %[[H5]], %[[A2]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W2:[0-9]+]] = llvm.bitcast %[[B2]] : vector<2xf16> to i32
// CHECK-NEXT: %[[A3:[0-9]+]] = llvm.insertelement %[[H6]], %[[U]][%[[C0]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[B3:[0-9]+]] = llvm.insertelement %[[H7]], %[[A3]][%[[C1]] : i32] : vector<2xf16>
// CHECK-NEXT: %[[W3:[0-9]+]] = llvm.bitcast %[[B3]] : vector<2xf16> to i32
// CHECK-NEXT: "@$5 st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r,b" %arg0, %[[W0]], %[[W1]], %[[W2]], %[[W3]], %[[M0]] :
// CHECK-NOT: st.global
// CHECK: return
func.func @vector_f16(%p: tensor<256x!blk.ptr<f16>, #l8>, %v: tensor<256xf16, #l8>, %m: tensor<256xi1, #l8>) {
  blk.store %p, %v, %m {vec = 8 : i32} : (tensor<256x!blk.ptr<f16>, #l8>, tensor<256xf16, #l8>, tensor<256xi1, #l8>) -> ()
  return
}

// Masked loads, one element each: register i's mask predicates the load of
// register i's pointer, register i's `other` is moved in first, and the
// result of load i is what register i stores.
// CHECK-LABEL: func.func @load_other
// CHECK-SAME: (%[[P0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[P1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[M0:[0-9a-z_]+]]: i1, %[[M1:[0-9a-z_]+]]: i1, %[[O0:[0-9a-z_]+]]: i32, %[[O1:[0-9a-z_]+]]: i32)
// CHECK: %[[X0:[0-9]+]] = llvm.inline_asm has_side_effects "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];", "=r,l,b,r" %[[P0]], %[[M0]], %[[O0]] :
// CHECK-NEXT: %[[X1:[0-9]+]] = llvm.inline_asm has_side_effects "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];", "=r,l,b,r" %[[P1]], %[[M1]], %[[O1]] :
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[P0]], %[[X0]] :
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[P1]], %[[X1]] :
func.func @load_other(%p: tensor<64x!blk.ptr<i32>, #l2>, %m: tensor<64xi1, #l2>, %o: tensor<64xi32, #l2>) {
  %x = blk.load %p, %m, %o {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 1 : i32} : (tensor<64x!blk.ptr<i32>, #l2>, tensor<64xi1, #l2>, tensor<64xi32, #l2>) -> tensor<64xi32, #l2>
  blk.store %p, %x {vec = 1 : i32} : (tensor<64x!blk.ptr<i32>, #l2>, tensor<64xi32, #l2>) -> ()
  return
}

// A masked vector load: mask register 0 guards registers 0-3 (`other`
// registers 0-3 moved into the four destinations in order), mask register 4
// guards 4-7; the four words come back in order and are stored in that
// order.
// CHECK-LABEL: func.func @load_vector
// CHECK-SAME: (%[[P0:[0-9a-z_]+]]: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %{{[0-9a-z_]+}}: !llvm.ptr<1>, %[[P4:[0-9a-z_]+]]: !llvm.ptr<1>,
// CHECK-SAME: %[[M0:[0-9a-z_]+]]: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %{{[0-9a-z_]+}}: i1, %[[M4:[0-9a-z_]+]]: i1,
// CHECK-SAME: %[[OTH0:[0-9a-z_]+]]: f32, %[[OTH1:[0-9a-z_]+]]: f32, %[[OTH2:[0-9a-z_]+]]: f32, %[[OTH3:[0-9a-z_]+]]: f32, %[[OTH4:[0-9a-z_]+]]: f32, %[[OTH5:[0-9a-z_]+]]: f32, %[[OTH6:[0-9a-z_]+]]: f32, %[[OTH7:[0-9a-z_]+]]: f32)
// CHECK: %[[OA0:[0-9]+]] = llvm.bitcast %[[OTH0]] : f32 to i32
// CHECK-NEXT: %[[OA1:[0-9]+]] = llvm.bitcast %[[OTH1]] : f32 to i32
// CHECK-NEXT: %[[OA2:[0-9]+]] = llvm.bitcast %[[OTH2]] : f32 to i32
// CHECK-NEXT: %[[OA3:[0-9]+]] = llvm.bitcast %[[OTH3]] : f32 to i32
// CHECK-NEXT: %[[LA:[0-9]+]] = llvm.inline_asm has_side_effects "mov.b32 $0, $6;\0A\09mov.b32 $1, $7;\0A\09mov.b32 $2, $8;\0A\09mov.b32 $3, $9;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b,r,r,r,r" %[[P0]], %[[M0]], %[[OA0]], %[[OA1]], %[[OA2]], %[[OA3]] :
// CHECK-NEXT: %[[XA0:[0-9]+]] = llvm.extractvalue %[[LA]][0]
// CHECK-NEXT: %[[YA0:[0-9]+]] = llvm.bitcast %[[XA0]] : i32 to f32
// CHECK-NEXT: %[[XA1:[0-9]+]] = llvm.extractvalue %[[LA]][1]
// CHECK-NEXT: %[[YA1:[0-9]+]] = llvm.bitcast %[[XA1]] : i32 to f32
// CHECK-NEXT: %[[XA2:[0-9]+]] = llvm.extractvalue %[[LA]][2]
// CHECK-NEXT: %[[YA2:[0-9]+]] = llvm.bitcast %[[XA2]] : i32 to f32
// CHECK-NEXT: %[[XA3:[0-9]+]] = llvm.extractvalue %[[LA]][3]
// CHECK-NEXT: %[[YA3:[0-9]+]] = llvm.bitcast %[[XA3]] : i32 to f32
// CHECK-NEXT: %[[OB0:[0-9]+]] = llvm.bitcast %[[OTH4]] : f32 to i32
// CHECK-NEXT: %[[OB1:[0-9]+]] = llvm.bitcast %[[OTH5]] : f32 to i32
// CHECK-NEXT: %[[OB2:[0-9]+]] = llvm.bitcast %[[OTH6]] : f32 to i32
// CHECK-NEXT: %[[OB3:[0-9]+]] = llvm.bitcast %[[OTH7]] : f32 to i32
// CHECK-NEXT: llvm.inline_asm has_side_effects "{{.*}}@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b,r,r,r,r" %[[P4]], %[[M4]], %[[OB0]], %[[OB1]], %[[OB2]], %[[OB3]] :
// CHECK: %[[SA0:[0-9]+]] = llvm.bitcast %[[YA0]] : f32 to i32
// CHECK-NEXT: %[[SA1:[0-9]+]] = llvm.bitcast %[[YA1]] : f32 to i32
// CHECK-NEXT: %[[SA2:[0-9]+]] = llvm.bitcast %[[YA2]] : f32 to i32
// CHECK-NEXT: %[[SA3:[0-9]+]] = llvm.bitcast %[[YA3]] : f32 to i32
// CHECK-NEXT: "st.global.v4.b32 [ $0 + 0 ], { $1, $2, $3, $4 };", "l,r,r,r,r" %[[P0]], %[[SA0]], %[[SA1]], %[[SA2]], %[[SA3]] :
func.func @load_vector(%p: tensor<256x!blk.ptr<f32>, #l8>, %m: tensor<256xi1, #l8>, %o: tensor<256xf32, #l8>) {
  %x = blk.load %p, %m, %o {operandSegmentSizes = array<i32: 1, 1, 1>, vec = 4 : i32} : (tensor<256x!blk.ptr<f32>, #l8>, tensor<256xi1, #l8>, tensor<256xf32, #l8>) -> tensor<256xf32, #l8>
  blk.store %p, %x {vec = 4 : i32} : (tensor<256x!blk.ptr<f32>, #l8>, tensor<256xf32, #l8>) -> ()
  return
}

// A masked float atomic max, two registers: each register's two
// predicates are its own mask AND its own value's sign test.
// CHECK-LABEL: func.func @atomic_max
// CHECK-SAME: (%[[P0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[P1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[V0:[0-9a-z_]+]]: f32, %[[V1:[0-9a-z_]+]]: f32, %[[M0:[0-9a-z_]+]]: i1, %[[M1:[0-9a-z_]+]]: i1)
// CHECK: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[B0:[0-9]+]] = llvm.bitcast %[[V0]] : f32 to i32
// CHECK-NEXT: %[[POS0:[0-9]+]] = llvm.icmp "sge" %[[B0]], %[[C0]] : i32
// CHECK-NEXT: %[[TRUE:[0-9]+]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT: %[[NEG0:[0-9]+]] = llvm.xor %[[POS0]], %[[TRUE]] : i1
// CHECK-NEXT: %[[PP0:[0-9]+]] = llvm.and %[[M0]], %[[POS0]] : i1
// CHECK-NEXT: %[[PN0:[0-9]+]] = llvm.and %[[M0]], %[[NEG0]] : i1
// CHECK-NEXT: "mov.b32 $0, 0;\0A\09@$3 atom.relaxed.gpu.global.max.s32 $0, [$1], $2;\0A\09@$4 atom.relaxed.gpu.global.min.u32 $0, [$1], $2;", "=r,l,r,b,b" %[[P0]], %[[B0]], %[[PP0]], %[[PN0]] :
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.bitcast %[[V1]] : f32 to i32
// CHECK-NEXT: %[[POS1:[0-9]+]] = llvm.icmp "sge" %[[B1]], %[[C0]] : i32
// CHECK-NEXT: %[[NEG1:[0-9]+]] = llvm.xor %[[POS1]], %[[TRUE]] : i1
// CHECK-NEXT: %[[PP1:[0-9]+]] = llvm.and %[[M1]], %[[POS1]] : i1
// CHECK-NEXT: %[[PN1:[0-9]+]] = llvm.and %[[M1]], %[[NEG1]] : i1
// CHECK-NEXT: "mov.b32 $0, 0;{{.*}}", "=r,l,r,b,b" %[[P1]], %[[B1]], %[[PP1]], %[[PN1]] :
func.func @atomic_max(%p: tensor<64x!blk.ptr<f32>, #l2>, %v: tensor<64xf32, #l2>, %m: tensor<64xi1, #l2>) {
  %old = blk.atomic_rmw max, relaxed, gpu %p, %v, %m : (tensor<64x!blk.ptr<f32>, #l2>, tensor<64xf32, #l2>, tensor<64xi1, #l2>) -> tensor<64xf32, #l2>
  return
}
}

// -----

#r1 = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {blk.num_warps = 4 : i32} {
// 64 elements over 128 threads: warp bit 1 makes copies (warps 2 and 3
// hold warps 0 and 1's elements), so the predicate is the mask AND "warp
// bit 1 clear".
// CHECK-LABEL: func.func @replicated
// CHECK-SAME: (%[[P:[0-9a-z_]+]]: !llvm.ptr<1>, %[[V:[0-9a-z_]+]]: f32, %[[M:[0-9a-z_]+]]: i1)
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[C5:[0-9]+]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = llvm.lshr %[[TID]], %[[C5]] : i32
// CHECK: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[WBIT:[0-9]+]] = llvm.and %[[WARP]], %[[C2]] : i32
// CHECK-NEXT: %[[OWNER:[0-9]+]] = llvm.icmp "eq" %[[WBIT]], %[[C0]] : i32
// CHECK-NEXT: %[[PRED:[0-9]+]] = llvm.and %[[M]], %[[OWNER]] : i1
// CHECK-NEXT: %[[W:[0-9]+]] = llvm.bitcast %[[V]] : f32 to i32
// CHECK-NEXT: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %[[P]], %[[W]], %[[PRED]] :
func.func @replicated(%p: tensor<64x!blk.ptr<f32>, #r1>, %v: tensor<64xf32, #r1>, %m: tensor<64xi1, #r1>) {
  blk.store %p, %v, %m : (tensor<64x!blk.ptr<f32>, #r1>, tensor<64xf32, #r1>, tensor<64xi1, #r1>) -> ()
  return
}
}

// -----

// The one branch among these lowerings: device_assert fails when any of the
// thread's registers is false; the branch condition is NOT of the AND of
// all four, each register once.
#l4 = #blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @assert_every_register
// CHECK-SAME: (%[[C0:[0-9a-z_]+]]: i1, %[[C1:[0-9a-z_]+]]: i1, %[[C2:[0-9a-z_]+]]: i1, %[[C3:[0-9a-z_]+]]: i1)
// CHECK-NEXT: %[[A01:[0-9]+]] = llvm.and %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[A012:[0-9]+]] = llvm.and %[[A01]], %[[C2]] : i1
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.and %[[A012]], %[[C3]] : i1
// CHECK-NEXT: %[[TRUE:[0-9]+]] = llvm.mlir.constant(true) : i1
// CHECK-NEXT: %[[BROKEN:[0-9]+]] = llvm.xor %[[ALL]], %[[TRUE]] : i1
// CHECK-NEXT: scf.if %[[BROKEN]] {
// CHECK: llvm.call @__assertfail(
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @assert_every_register(%m: tensor<128xi1, #l4>) {
  blk.assert %m, "in range" : tensor<128xi1, #l4>
  return
}
}
