// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm --cse | FileCheck %s

// Index chains of layout moves through shared memory (convert_layout and
// trans): each register's element is written at its row-major position in
// the stored shape, padded per period, from the coordinates its lane and
// warp give it, and read back at the coordinates of the result's layout.
// --cse leaves one SSA value per constant and per thread coordinate, so the
// store and load sides share the terms they have in common.

// Rows of four to columns of four, 16x16 f32 over 2 warps.
// Source: row = lane bits 2-4 (1, 2, 4) ^ warp bit 0 (8), column = lane bits
// 0-1 (4, 8) + register (0..3). Result: row = lane bits 0-1 (4, 8) +
// register, column = lane bits 2-4 ^ warp bit 0 (8): the same two terms
// swapped. No vectors (the result's registers run down a column).
#rowv = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]>
#colv = #blk.blocked<sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [0, 1]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @rows_to_columns
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[X2:[0-9a-z_]+]]: f32, %[[X3:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q2:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q3:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK-NEXT: %[[C5:[0-9]+]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = llvm.lshr %[[TID]], %[[C5]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[WSH:[0-9]+]] = llvm.lshr %[[WARP]], %[[C0]] : i32
// CHECK-NEXT: %[[WBIT:[0-9]+]] = llvm.and %[[WSH]], %[[C1]] : i32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[W8:[0-9]+]] = llvm.shl %[[WBIT]], %[[C3]] : i32
// CHECK-NEXT: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[LSH2:[0-9]+]] = llvm.lshr %[[LANE]], %[[C2]] : i32
// CHECK-NEXT: %[[LBITS:[0-9]+]] = llvm.and %[[LSH2]], %[[C7]] : i32
// CHECK-NEXT: %[[ROW:[0-9]+]] = llvm.xor %[[LBITS]], %[[W8]] : i32
// CHECK-NEXT: %[[LSH0:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[CBITS:[0-9]+]] = llvm.and %[[LSH0]], %[[C3]] : i32
// CHECK-NEXT: %[[C4X:[0-9]+]] = llvm.shl %[[CBITS]], %[[C2]] : i32
// CHECK-NEXT: %[[COL:[0-9]+]] = llvm.xor %[[C4X]], %[[C0]] : i32
// Register 0: (row, col), i = row * 16 + col. Padded (one element per 32),
// the reads would hit banks twice (rows 0 and 4 of a column two slots
// apart); the index is XOR-swizzled instead: bit 0 flips with bit 5, bits 1
// and 3 with bit 6, bit 4 with bit 7, applied to the thread's index once and
// passed through an opaque move (LLVM's alias analysis would otherwise
// redo the chain's known bits for every pair of accesses).
// CHECK-NEXT: %[[C16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[ROWOFF:[0-9]+]] = llvm.mul %[[ROW]], %[[C16]] : i32
// CHECK-NEXT: %[[I0:[0-9]+]] = llvm.add %[[ROWOFF]], %[[COL]] : i32
// CHECK-NEXT: %[[F5:[0-9]+]] = llvm.lshr %[[I0]], %[[C5]] : i32
// CHECK-NEXT: %[[B0:[0-9]+]] = llvm.and %[[F5]], %[[C1]] : i32
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.xor %[[I0]], %[[B0]] : i32
// CHECK-NEXT: %[[F6:[0-9]+]] = llvm.lshr %[[S1]], %[[C5]] : i32
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.and %[[F6]], %[[C2]] : i32
// CHECK-NEXT: %[[S2:[0-9]+]] = llvm.xor %[[S1]], %[[B1]] : i32
// CHECK-NEXT: %[[F6B:[0-9]+]] = llvm.lshr %[[S2]], %[[C3]] : i32
// CHECK-NEXT: %[[C8:[0-9]+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-NEXT: %[[B3:[0-9]+]] = llvm.and %[[F6B]], %[[C8]] : i32
// CHECK-NEXT: %[[S3:[0-9]+]] = llvm.xor %[[S2]], %[[B3]] : i32
// CHECK-NEXT: %[[F7:[0-9]+]] = llvm.lshr %[[S3]], %[[C3]] : i32
// CHECK-NEXT: %[[B4:[0-9]+]] = llvm.and %[[F7]], %[[C16]] : i32
// CHECK-NEXT: %[[SX:[0-9]+]] = llvm.xor %[[S3]], %[[B4]] : i32
// CHECK-NEXT: %[[S0:[0-9]+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[SX]] : (i32) -> i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[A0:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[S0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X0]], %[[A0]] : f32, !llvm.ptr<3>
// Registers 1-3: (row, col + r). Thread and register terms share no bits
// of the index, and r sets only bits the swizzle flips: the thread's
// swizzled index XOR r.
// CHECK-NEXT: %[[T1:[0-9]+]] = llvm.xor %[[S0]], %[[C1]] : i32
// CHECK-NEXT: %[[A1:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[T1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X1]], %[[A1]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[T2:[0-9]+]] = llvm.xor %[[S0]], %[[C2]] : i32
// CHECK-NEXT: %[[A2:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[T2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X2]], %[[A2]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[T3:[0-9]+]] = llvm.xor %[[S0]], %[[C3]] : i32
// CHECK-NEXT: %[[A3:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[T3]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X3]], %[[A3]] : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// The result's register r holds (col + r, row): it reads index
// (col + r) * 16 + row, swizzled the same way: the thread's swizzled index
// XOR the flips of 16 r (16, 1 and 17), plus what r sets outside the
// flipped bits (0, 32 and 32).
// CHECK-NEXT: %[[J0:[0-9]+]] = llvm.mul %[[COL]], %[[C16]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = llvm.add %[[J0]], %[[ROW]] : i32
// CHECK-NEXT: %[[G5:[0-9]+]] = llvm.lshr %[[K0]], %[[C5]] : i32
// CHECK-NEXT: %[[H0:[0-9]+]] = llvm.and %[[G5]], %[[C1]] : i32
// CHECK-NEXT: %[[K1:[0-9]+]] = llvm.xor %[[K0]], %[[H0]] : i32
// CHECK-NEXT: %[[G6:[0-9]+]] = llvm.lshr %[[K1]], %[[C5]] : i32
// CHECK-NEXT: %[[H1:[0-9]+]] = llvm.and %[[G6]], %[[C2]] : i32
// CHECK-NEXT: %[[K2:[0-9]+]] = llvm.xor %[[K1]], %[[H1]] : i32
// CHECK-NEXT: %[[G6B:[0-9]+]] = llvm.lshr %[[K2]], %[[C3]] : i32
// CHECK-NEXT: %[[H3:[0-9]+]] = llvm.and %[[G6B]], %[[C8]] : i32
// CHECK-NEXT: %[[K3:[0-9]+]] = llvm.xor %[[K2]], %[[H3]] : i32
// CHECK-NEXT: %[[G7:[0-9]+]] = llvm.lshr %[[K3]], %[[C3]] : i32
// CHECK-NEXT: %[[H4:[0-9]+]] = llvm.and %[[G7]], %[[C16]] : i32
// CHECK-NEXT: %[[RX:[0-9]+]] = llvm.xor %[[K3]], %[[H4]] : i32
// CHECK-NEXT: %[[R0:[0-9]+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[RX]] : (i32) -> i32
// CHECK-NEXT: %[[P0:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[R0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y0:[0-9]+]] = llvm.load %[[P0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[R1:[0-9]+]] = llvm.xor %[[R0]], %[[C16]] : i32
// CHECK-NEXT: %[[P1:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[R1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y1:[0-9]+]] = llvm.load %[[P1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[R2:[0-9]+]] = llvm.xor %[[R0]], %[[C1]] : i32
// CHECK-NEXT: %[[P2:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[R2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[P2B:[0-9]+]] = llvm.getelementptr %[[P2]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y2:[0-9]+]] = llvm.load %[[P2B]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[C17:[0-9]+]] = llvm.mlir.constant(17 : i32) : i32
// CHECK-NEXT: %[[R3:[0-9]+]] = llvm.xor %[[R0]], %[[C17]] : i32
// CHECK-NEXT: %[[P3:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[R3]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[P3B:[0-9]+]] = llvm.getelementptr %[[P3]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y3:[0-9]+]] = llvm.load %[[P3B]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[G0:[0-9]+]] = llvm.bitcast %[[Y0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[G0]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[Y1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[G1]]
// CHECK-NEXT: %[[G2:[0-9]+]] = llvm.bitcast %[[Y2]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q2]], %[[G2]]
// CHECK-NEXT: %[[G3:[0-9]+]] = llvm.bitcast %[[Y3]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q3]], %[[G3]]
func.func @rows_to_columns(%x: tensor<16x16xf32, #rowv>, %p: tensor<16x16x!blk.ptr<f32>, #colv>) {
  %y = blk.convert_layout %x : tensor<16x16xf32, #rowv> -> tensor<16x16xf32, #colv>
  blk.store %p, %y {vec = 1 : i32} : (tensor<16x16x!blk.ptr<f32>, #colv>, tensor<16x16xf32, #colv>) -> ()
  return
}
}

// -----

// Rows of four to rows of two: both sides have runs along the rows, so the
// move writes one 16-byte vector (registers 0-3 in order) and reads 8-byte
// vectors. Neither side's access phases hit a bank twice in row-major
// order, so the buffer is neither padded nor swizzled: slot = i.
// Result: row = lane bits 3-4 (1, 2) ^ warp bit 0 (4) + register bit 1 (8),
// column = lane bits 0-2 (2, 4, 8) + register bit 0.
#rowv = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]>
#row2 = #blk.blocked<sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @vectors
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[X2:[0-9a-z_]+]]: f32, %[[X3:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q2:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q3:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK: %[[LANE:[0-9]+]] = llvm.and %{{.+}}, %{{.+}} : i32
// CHECK: %[[C5:[0-9]+]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[WSH:[0-9]+]] = llvm.lshr %{{.+}}, %[[C0]] : i32
// CHECK-NEXT: %[[WBIT:[0-9]+]] = llvm.and %[[WSH]], %[[C1]] : i32
// CHECK: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[ROW:[0-9]+]] = llvm.xor %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[LSH0:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK: %[[COL:[0-9]+]] = llvm.xor %{{.+}}, %[[C0]] : i32
// CHECK-NEXT: %[[C16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[ROWOFF:[0-9]+]] = llvm.mul %[[ROW]], %[[C16]] : i32
// CHECK-NEXT: %[[S:[0-9]+]] = llvm.add %[[ROWOFF]], %[[COL]] : i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[A:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[S]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[U:[0-9]+]] = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT: %[[V0:[0-9]+]] = llvm.insertelement %[[X0]], %[[U]][%[[C0]] : i32] : vector<4xf32>
// CHECK-NEXT: %[[V1:[0-9]+]] = llvm.insertelement %[[X1]], %[[V0]][%[[C1]] : i32] : vector<4xf32>
// CHECK-NEXT: %[[V2:[0-9]+]] = llvm.insertelement %[[X2]], %[[V1]][%[[C2]] : i32] : vector<4xf32>
// CHECK-NEXT: %[[V3:[0-9]+]] = llvm.insertelement %[[X3]], %[[V2]][%[[C3:[0-9]+]] : i32] : vector<4xf32>
// CHECK-NEXT: %[[W:[0-9]+]] = llvm.bitcast %[[V3]] : vector<4xf32> to vector<4xi32>
// CHECK-NEXT: llvm.store %[[W]], %[[A]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// Read side: row' = lane bits 3-4 ^ (warp bit 0) << 2, col' = lane bits 0-2 << 1.
// CHECK-NEXT: %[[W4:[0-9]+]] = llvm.shl %[[WBIT]], %[[C2]] : i32
// CHECK-NEXT: %[[RSH:[0-9]+]] = llvm.lshr %[[LANE]], %[[C3]] : i32
// CHECK-NEXT: %[[RB:[0-9]+]] = llvm.and %[[RSH]], %[[C3]] : i32
// CHECK-NEXT: %[[ROWR:[0-9]+]] = llvm.xor %[[RB]], %[[W4]] : i32
// CHECK-NEXT: %[[CB:[0-9]+]] = llvm.and %[[LSH0]], %{{.+}} : i32
// CHECK-NEXT: %[[CB2:[0-9]+]] = llvm.shl %[[CB]], %[[C1]] : i32
// CHECK-NEXT: %[[COLR:[0-9]+]] = llvm.xor %[[CB2]], %[[C0]] : i32
// CHECK-NEXT: %[[RO:[0-9]+]] = llvm.mul %[[ROWR]], %[[C16]] : i32
// CHECK-NEXT: %[[R:[0-9]+]] = llvm.add %[[RO]], %[[COLR]] : i32
// CHECK-NEXT: %[[B:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[R]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[L:[0-9]+]] = llvm.load %[[B]] {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
// CHECK-NEXT: %[[LF:[0-9]+]] = llvm.bitcast %[[L]] : vector<2xi32> to vector<2xf32>
// CHECK-NEXT: %[[Y0:[0-9]+]] = llvm.extractelement %[[LF]][%[[C0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[Y1:[0-9]+]] = llvm.extractelement %[[LF]][%[[C1]] : i32] : vector<2xf32>
// Registers 2-3: eight rows further, the thread's slot plus 8 * 16.
// CHECK-NEXT: %[[B8:[0-9]+]] = llvm.getelementptr %[[B]][128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[L8:[0-9]+]] = llvm.load %[[B8]] {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
// CHECK-NEXT: %[[LF8:[0-9]+]] = llvm.bitcast %[[L8]] : vector<2xi32> to vector<2xf32>
// CHECK-NEXT: %[[Y2:[0-9]+]] = llvm.extractelement %[[LF8]][%[[C0]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[Y3:[0-9]+]] = llvm.extractelement %[[LF8]][%[[C1]] : i32] : vector<2xf32>
// CHECK-NEXT: %[[G0:[0-9]+]] = llvm.bitcast %[[Y0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[G0]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[Y1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[G1]]
// CHECK-NEXT: %[[G2:[0-9]+]] = llvm.bitcast %[[Y2]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q2]], %[[G2]]
// CHECK-NEXT: %[[G3:[0-9]+]] = llvm.bitcast %[[Y3]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q3]], %[[G3]]
func.func @vectors(%x: tensor<16x16xf32, #rowv>, %p: tensor<16x16x!blk.ptr<f32>, #row2>) {
  %y = blk.convert_layout %x : tensor<16x16xf32, #rowv> -> tensor<16x16xf32, #row2>
  blk.store %p, %y {vec = 1 : i32} : (tensor<16x16x!blk.ptr<f32>, #row2>, tensor<16x16xf32, #row2>) -> ()
  return
}
}

// -----

// A transpose of a non-square block, 64x16 to 16x64 f32 over 4 warps. The
// buffer holds the RESULT's row-major shape (16 x 64, swizzled): source
// element (r, c) goes to index c * 64 + r, result element (i, j) comes from
// index i * 64 + j. Indexing either side with the
// source's shape (rows of 16) would scatter the block.
// Source (2x2 per thread, then 8 columns further): r = lane bits 2-4 << 1
// ^ warp bits 0-1 << 4 (+1 for register bit 1), c = lane bits 0-1 << 1
// (+1 for register bit 0, +8 for register bit 2).
// Result (4 per thread along the rows): i = lane bit 4 ^ warp bits 0-1 << 1
// (+8 for register bit 2), j = lane bits 0-3 << 2 (+ register bits 0-1).
#s = #blk.blocked<sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#d = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
// CHECK-LABEL: func.func @transpose_64x16
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[X2:[0-9a-z_]+]]: f32, %[[X3:[0-9a-z_]+]]: f32, %[[X4:[0-9a-z_]+]]: f32, %[[X5:[0-9a-z_]+]]: f32, %[[X6:[0-9a-z_]+]]: f32, %[[X7:[0-9a-z_]+]]: f32,
// CHECK-SAME: %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q2:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q3:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q4:[0-9a-z_]+]]: !llvm.ptr<1>
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK-NEXT: %[[C5:[0-9]+]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = llvm.lshr %[[TID]], %[[C5]] : i32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[WSH:[0-9]+]] = llvm.lshr %[[WARP]], %[[C0]] : i32
// CHECK-NEXT: %[[WBITS:[0-9]+]] = llvm.and %[[WSH]], %[[C3]] : i32
// CHECK-NEXT: %[[C4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[W16:[0-9]+]] = llvm.shl %[[WBITS]], %[[C4]] : i32
// CHECK-NEXT: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[LSH2:[0-9]+]] = llvm.lshr %[[LANE]], %[[C2]] : i32
// CHECK-NEXT: %[[LB:[0-9]+]] = llvm.and %[[LSH2]], %[[C7]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[LB2:[0-9]+]] = llvm.shl %[[LB]], %[[C1]] : i32
// CHECK-NEXT: %[[R:[0-9]+]] = llvm.xor %[[LB2]], %[[W16]] : i32
// CHECK-NEXT: %[[LSH0:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[CB:[0-9]+]] = llvm.and %[[LSH0]], %[[C3]] : i32
// CHECK-NEXT: %[[CB2:[0-9]+]] = llvm.shl %[[CB]], %[[C1]] : i32
// CHECK-NEXT: %[[C:[0-9]+]] = llvm.xor %[[CB2]], %[[C0]] : i32
// Register 0, (r, c): index c * 64 + r, XOR-swizzled (bit 0 flips with
// bits 5 and 7, bit 1 with bit 6, bit 4 with bit 8), the thread's once.
// CHECK-NEXT: %[[C64:[0-9]+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[CX64:[0-9]+]] = llvm.mul %[[C]], %[[C64]] : i32
// CHECK-NEXT: %[[I0:[0-9]+]] = llvm.add %[[CX64]], %[[R]] : i32
// CHECK-NEXT: %[[F5:[0-9]+]] = llvm.lshr %[[I0]], %[[C5]] : i32
// CHECK-NEXT: %[[B0:[0-9]+]] = llvm.and %[[F5]], %[[C1]] : i32
// CHECK-NEXT: %[[I1:[0-9]+]] = llvm.xor %[[I0]], %[[B0]] : i32
// CHECK-NEXT: %[[F6:[0-9]+]] = llvm.lshr %[[I1]], %[[C5]] : i32
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.and %[[F6]], %[[C2]] : i32
// CHECK-NEXT: %[[I2:[0-9]+]] = llvm.xor %[[I1]], %[[B1]] : i32
// CHECK-NEXT: %[[F7:[0-9]+]] = llvm.lshr %[[I2]], %[[C7]] : i32
// CHECK-NEXT: %[[B2:[0-9]+]] = llvm.and %[[F7]], %[[C1]] : i32
// CHECK-NEXT: %[[I3:[0-9]+]] = llvm.xor %[[I2]], %[[B2]] : i32
// CHECK-NEXT: %[[F8:[0-9]+]] = llvm.lshr %[[I3]], %[[C4]] : i32
// CHECK-NEXT: %[[C16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[B4:[0-9]+]] = llvm.and %[[F8]], %[[C16]] : i32
// CHECK-NEXT: %[[SX:[0-9]+]] = llvm.xor %[[I3]], %[[B4]] : i32
// CHECK-NEXT: %[[S0:[0-9]+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %[[SX]] : (i32) -> i32
// CHECK-NEXT: %[[BASE:[0-9]+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[A0:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[S0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X0]], %[[A0]] : f32, !llvm.ptr<3>
// Registers 1-7: the register's index (c + 1) * 64: 64 + its flips 2;
// (r + 1, c): flips 1; (r, c + 8): 512 (no flip): each the thread's index
// XOR the flips, plus the rest.
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.xor %[[S0]], %[[C2]] : i32
// CHECK-NEXT: %[[A1X:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[S1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[A1:[0-9]+]] = llvm.getelementptr %[[A1X]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X1]], %[[A1]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[S2:[0-9]+]] = llvm.xor %[[S0]], %[[C1]] : i32
// CHECK-NEXT: %[[A2:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[S2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X2]], %[[A2]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[S3:[0-9]+]] = llvm.xor %[[S0]], %[[C3]] : i32
// CHECK-NEXT: %[[A3X:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[S3]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[A3:[0-9]+]] = llvm.getelementptr %[[A3X]][64] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X3]], %[[A3]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[A4:[0-9]+]] = llvm.getelementptr %[[A0]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X4]], %[[A4]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[A5:[0-9]+]] = llvm.getelementptr %[[A1X]][576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X5]], %[[A5]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[A6:[0-9]+]] = llvm.getelementptr %[[A2]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X6]], %[[A6]] : f32, !llvm.ptr<3>
// CHECK-NEXT: %[[A7:[0-9]+]] = llvm.getelementptr %[[A3X]][576] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X7]], %[[A7]] : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// Result coordinates: i = lane bit 4 ^ warp bits 0-1 << 1, j = lane bits 0-3 << 2.
// CHECK-NEXT: %[[WX2:[0-9]+]] = llvm.shl %[[WBITS]], %[[C1]] : i32
// CHECK-NEXT: %[[LSH4:[0-9]+]] = llvm.lshr %[[LANE]], %[[C4]] : i32
// CHECK-NEXT: %[[LBIT4:[0-9]+]] = llvm.and %[[LSH4]], %[[C1]] : i32
// CHECK-NEXT: %[[I:[0-9]+]] = llvm.xor %[[LBIT4]], %[[WX2]] : i32
// CHECK-NEXT: %[[C15:[0-9]+]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT: %[[JB:[0-9]+]] = llvm.and %[[LSH0]], %[[C15]] : i32
// CHECK-NEXT: %[[JB4:[0-9]+]] = llvm.shl %[[JB]], %[[C2]] : i32
// CHECK-NEXT: %[[J:[0-9]+]] = llvm.xor %[[JB4]], %[[C0]] : i32
// Result register 0, (i, j): index i * 64 + j, swizzled the same way.
// CHECK-NEXT: %[[IX64:[0-9]+]] = llvm.mul %[[I]], %[[C64]] : i32
// CHECK-NEXT: %[[K0:[0-9]+]] = llvm.add %[[IX64]], %[[J]] : i32
// CHECK-NEXT: llvm.lshr %[[K0]], %[[C5]] : i32
// CHECK-COUNT-11: llvm.{{lshr|and|xor}}
// CHECK-NEXT: %[[T0:[0-9]+]] = llvm.inline_asm "mov.b32 $0, $1;", "=r,r" %{{[0-9]+}} : (i32) -> i32
// CHECK-NEXT: %[[B0:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[T0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y0:[0-9]+]] = llvm.load %[[B0]] : !llvm.ptr<3> -> f32
// Result registers 1-7: (i, j + 1..3): flips 1, 2, 3; (i + 8, j): 512 on.
// CHECK-NEXT: %[[T1:[0-9]+]] = llvm.xor %[[T0]], %[[C1]] : i32
// CHECK-NEXT: %[[B1:[0-9]+]] = llvm.getelementptr %[[BASE]][%[[T1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y1:[0-9]+]] = llvm.load %[[B1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT: llvm.xor %[[T0]], %[[C2]]
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.load
// CHECK-NEXT: llvm.xor %[[T0]], %[[C3]]
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.load
// CHECK-NEXT: %[[B4:[0-9]+]] = llvm.getelementptr %[[B0]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f32
// CHECK-NEXT: %[[Y4:[0-9]+]] = llvm.load %[[B4]] : !llvm.ptr<3> -> f32
// CHECK: %[[G0:[0-9]+]] = llvm.bitcast %[[Y0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[G0]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[Y1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[G1]]
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q2]]
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q3]]
// CHECK-NEXT: %[[G4:[0-9]+]] = llvm.bitcast %[[Y4]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q4]], %[[G4]]
func.func @transpose_64x16(%x: tensor<64x16xf32, #s>, %p: tensor<16x64x!blk.ptr<f32>, #d>) {
  %t = blk.trans %x : tensor<64x16xf32, #s> -> tensor<16x64xf32, #d>
  blk.store %p, %t {vec = 1 : i32} : (tensor<16x64x!blk.ptr<f32>, #d>, tensor<16x64xf32, #d>) -> ()
  return
}
}
