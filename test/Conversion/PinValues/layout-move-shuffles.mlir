// RUN: blk-opt %s --split-input-file --blk-allocate-shared-memory --convert-blk-to-llvm --cse | FileCheck %s

// Layout moves that keep every element in its warp: which source lane and
// register each result register comes from (blk/Analysis/LayoutMove.h).
// None touches shared memory or waits at a barrier.

// A transpose whose threads keep their 2x2 blocks: a register permutation.
// Source (64x2): register bit 0 moves a column, bit 1 a row; the result
// (2x64): bit 0 a column (a source row), bit 1 a row (a source column). So
// result registers 0..3 are source registers 0, 2, 1, 3.
#colmajor = #blk.blocked<sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]>
#rowmajor = #blk.blocked<sizePerThread = [2, 2], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @trans_in_registers
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[X2:[0-9a-z_]+]]: f32, %[[X3:[0-9a-z_]+]]: f32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q2:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q3:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK-NOT: shfl
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[G0:[0-9]+]] = llvm.bitcast %[[X0]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[G0]]
// CHECK-NEXT: %[[G1:[0-9]+]] = llvm.bitcast %[[X2]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[G1]]
// CHECK-NEXT: %[[G2:[0-9]+]] = llvm.bitcast %[[X1]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q2]], %[[G2]]
// CHECK-NEXT: %[[G3:[0-9]+]] = llvm.bitcast %[[X3]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q3]], %[[G3]]
func.func @trans_in_registers(%x: tensor<64x2xf32, #colmajor>, %p: tensor<2x64x!blk.ptr<f32>, #rowmajor>) {
  %t = blk.trans %x : tensor<64x2xf32, #colmajor> -> tensor<2x64xf32, #rowmajor>
  blk.store %p, %t {vec = 1 : i32} : (tensor<2x64x!blk.ptr<f32>, #rowmajor>, tensor<2x64xf32, #rowmajor>) -> ()
  return
}
}

// -----

// A 4x8 block, one element per lane, rows fastest to columns fastest: lane
// l holds (l & 3, l >> 2) after and read it from the lane that held it
// before, (l >> 2) | (l & 3) << 3. One round, no selects.
#byrow = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#bycol = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @lanes_transposed
// CHECK-SAME: (%[[X:[0-9a-z_]+]]: f32, %[[Q:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[C31:[0-9]+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK-NEXT: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31]] : i32
// CHECK-NEXT: %[[C3:[0-9]+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[LSH0:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[ROW:[0-9]+]] = llvm.and %[[LSH0]], %[[C3]] : i32
// CHECK-NEXT: %[[ROW8:[0-9]+]] = llvm.shl %[[ROW]], %[[C3]] : i32
// CHECK-NEXT: %[[C7:[0-9]+]] = llvm.mlir.constant(7 : i32) : i32
// CHECK-NEXT: %[[C2:[0-9]+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: %[[LSH2:[0-9]+]] = llvm.lshr %[[LANE]], %[[C2]] : i32
// CHECK-NEXT: %[[COL:[0-9]+]] = llvm.and %[[LSH2]], %[[C7]] : i32
// CHECK-NEXT: %[[SRC:[0-9]+]] = llvm.xor %[[ROW8]], %[[COL]] : i32
// CHECK-NEXT: %[[W:[0-9]+]] = llvm.bitcast %[[X]] : f32 to i32
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[R:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[W]], %[[SRC]], %[[C31]] : i32 -> i32
// CHECK-NEXT: %[[Y:[0-9]+]] = llvm.bitcast %[[R]] : i32 to f32
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[G:[0-9]+]] = llvm.bitcast %[[Y]] : f32 to i32
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q]], %[[G]]
func.func @lanes_transposed(%x: tensor<4x8xf32, #byrow>, %p: tensor<4x8x!blk.ptr<f32>, #bycol>) {
  %y = blk.convert_layout %x : tensor<4x8xf32, #byrow> -> tensor<4x8xf32, #bycol>
  blk.store %p, %y {vec = 1 : i32} : (tensor<4x8x!blk.ptr<f32>, #bycol>, tensor<4x8xf32, #bycol>) -> ()
  return
}
}

// -----

// Pairs to single elements, 64 i32 in one warp: lane l's register r is
// element l + 32 r, held by lane (l >> 1) + 16 r in its register l & 1. Two
// lanes read one lane per round, so the rounds split by l & 1: in round k
// lane l reads lane ((l & 1) << 4 ^ (l >> 1)) ^ 16 k, which offers its
// register k ^ (its lane bit 4), and keeps the value as register k ^ (l & 1).
#pairs = #blk.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#single = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @pairs_to_singles
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: i32, %[[X1:[0-9a-z_]+]]: i32, %[[Q0:[0-9a-z_]+]]: !llvm.ptr<1>, %[[Q1:[0-9a-z_]+]]: !llvm.ptr<1>)
// CHECK: %[[LANE:[0-9]+]] = llvm.and %{{.+}}, %[[C31:[0-9]+]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[C4:[0-9]+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[LSH4:[0-9]+]] = llvm.lshr %[[LANE]], %[[C4]] : i32
// CHECK-NEXT: %[[OFFER:[0-9]+]] = llvm.and %[[LSH4]], %[[C1]] : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[OBIT:[0-9]+]] = llvm.and %[[OFFER]], %[[C1]] : i32
// CHECK-NEXT: %[[OSEL:[0-9]+]] = llvm.icmp "ne" %[[OBIT]], %[[C0]] : i32
// CHECK-NEXT: %[[LSH0:[0-9]+]] = llvm.lshr %[[LANE]], %[[C0]] : i32
// CHECK-NEXT: %[[ODD:[0-9]+]] = llvm.and %[[LSH0]], %[[C1]] : i32
// CHECK-NEXT: %[[RBIT:[0-9]+]] = llvm.and %[[ODD]], %[[C1]] : i32
// CHECK-NEXT: %[[RSEL:[0-9]+]] = llvm.icmp "ne" %[[RBIT]], %[[C0]] : i32
// CHECK-NEXT: %[[HI:[0-9]+]] = llvm.shl %[[ODD]], %[[C4]] : i32
// CHECK-NEXT: %[[C15:[0-9]+]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT: %[[LSH1:[0-9]+]] = llvm.lshr %[[LANE]], %[[C1]] : i32
// CHECK-NEXT: %[[HALF:[0-9]+]] = llvm.and %[[LSH1]], %[[C15]] : i32
// CHECK-NEXT: %[[SRC:[0-9]+]] = llvm.xor %[[HI]], %[[HALF]] : i32
// Round 0 offers register 0 ^ lane bit 4 and reads lane SRC.
// CHECK-NEXT: %[[OFFER0:[0-9]+]] = llvm.select %[[OSEL]], %[[X1]], %[[X0]] : i1, i32
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[OFFER0]], %[[SRC]], %[[C31]] : i32 -> i32
// Round 1 offers register 1 ^ lane bit 4 and reads lane SRC ^ 16.
// CHECK-NEXT: %[[OFFER1:[0-9]+]] = llvm.select %[[OSEL]], %[[X0]], %[[X1]] : i1, i32
// CHECK-NEXT: %[[C16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[SRC1:[0-9]+]] = llvm.xor %[[SRC]], %[[C16]] : i32
// CHECK-NEXT: %[[V1:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[OFFER1]], %[[SRC1]], %[[C31]] : i32 -> i32
// Register r is round r ^ (l & 1).
// CHECK-NEXT: %[[Y0:[0-9]+]] = llvm.select %[[RSEL]], %[[V1]], %[[V0]] : i1, i32
// CHECK-NEXT: %[[Y1:[0-9]+]] = llvm.select %[[RSEL]], %[[V0]], %[[V1]] : i1, i32
// CHECK-NOT: nvvm.barrier0
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q0]], %[[Y0]]
// CHECK-NEXT: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q1]], %[[Y1]]
func.func @pairs_to_singles(%x: tensor<64xi32, #pairs>, %p: tensor<64x!blk.ptr<i32>, #single>) {
  %y = blk.convert_layout %x : tensor<64xi32, #pairs> -> tensor<64xi32, #single>
  blk.store %p, %y {vec = 1 : i32} : (tensor<64x!blk.ptr<i32>, #single>, tensor<64xi32, #single>) -> ()
  return
}
}

// -----

// A row reduction's slice to a column reduction's (8 elements, 2 warps),
// as a loop-carried accumulator meets a reduction. Source: element e in
// register e & 3 of lanes with bit 0 = e >> 2 (lanes 2-31 copies), the same
// in both warps. Result: warp w, register r holds w + 2 (r & 1) + 4 (r >> 1)
// in every lane. Round r reads the lane l & 30 (^ 1 for r >= 2), which offers
// its register w | (r & 1) << 1: the warp picks the register.
#p = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [2, 1], order = [1, 0]>
module attributes {blk.num_warps = 2 : i32} {
// CHECK-LABEL: func.func @columns_to_rows
// CHECK-SAME: (%[[X0:[0-9a-z_]+]]: f32, %[[X1:[0-9a-z_]+]]: f32, %[[X2:[0-9a-z_]+]]: f32, %[[X3:[0-9a-z_]+]]: f32,
// CHECK: %[[TID:[0-9]+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:[0-9]+]] = llvm.and %[[TID]], %[[C31:[0-9]+]] : i32
// CHECK-NEXT: %[[C5:[0-9]+]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT: %[[WARP:[0-9]+]] = llvm.lshr %[[TID]], %[[C5]] : i32
// CHECK-NEXT: %[[C1:[0-9]+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[WSH:[0-9]+]] = llvm.lshr %[[WARP]], %[[C0]] : i32
// CHECK-NEXT: %[[WBIT:[0-9]+]] = llvm.and %[[WSH]], %[[C1]] : i32
// CHECK-NEXT: %[[WB:[0-9]+]] = llvm.and %[[WBIT]], %[[C1]] : i32
// CHECK-NEXT: %[[WSEL:[0-9]+]] = llvm.icmp "ne" %[[WB]], %[[C0]] : i32
// CHECK-NEXT: %[[C15:[0-9]+]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-NEXT: %[[LSH1:[0-9]+]] = llvm.lshr %[[LANE]], %[[C1]] : i32
// CHECK-NEXT: %[[LB:[0-9]+]] = llvm.and %[[LSH1]], %[[C15]] : i32
// CHECK-NEXT: %[[SRC:[0-9]+]] = llvm.shl %[[LB]], %[[C1]] : i32
// CHECK-NEXT: %[[OFFER0:[0-9]+]] = llvm.select %[[WSEL]], %[[X1]], %[[X0]] : i1, f32
// CHECK-NEXT: %[[O0:[0-9]+]] = llvm.bitcast %[[OFFER0]] : f32 to i32
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[V0:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[O0]], %[[SRC]], %[[C31]] : i32 -> i32
// CHECK-NEXT: %[[Y0:[0-9]+]] = llvm.bitcast %[[V0]] : i32 to f32
// CHECK-NEXT: %[[OFFER1:[0-9]+]] = llvm.select %[[WSEL]], %[[X3]], %[[X2]] : i1, f32
// CHECK-NEXT: %[[O1:[0-9]+]] = llvm.bitcast %[[OFFER1]] : f32 to i32
// CHECK-NEXT: %[[V1:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[O1]], %[[SRC]], %[[C31]] : i32 -> i32
// CHECK-NEXT: %[[Y1:[0-9]+]] = llvm.bitcast %[[V1]] : i32 to f32
// CHECK-NEXT: %[[SRC2:[0-9]+]] = llvm.xor %[[SRC]], %[[C1]] : i32
// CHECK-NEXT: %[[V2:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[O0]], %[[SRC2]], %[[C31]] : i32 -> i32
// CHECK-NEXT: %[[Y2:[0-9]+]] = llvm.bitcast %[[V2]] : i32 to f32
// CHECK-NEXT: %[[V3:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[O1]], %[[SRC2]], %[[C31]] : i32 -> i32
// CHECK-NEXT: %[[Y3:[0-9]+]] = llvm.bitcast %[[V3]] : i32 to f32
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.bitcast %[[Y0]] : f32 to i32
// CHECK: llvm.bitcast %[[Y1]] : f32 to i32
// CHECK: llvm.bitcast %[[Y2]] : f32 to i32
// CHECK: llvm.bitcast %[[Y3]] : f32 to i32
func.func @columns_to_rows(%x: tensor<8xf32, #blk.slice<dim = 0, parent = #p>>, %q: tensor<8x!blk.ptr<f32>, #blk.slice<dim = 1, parent = #p>>) {
  %y = blk.convert_layout %x : tensor<8xf32, #blk.slice<dim = 0, parent = #p>> -> tensor<8xf32, #blk.slice<dim = 1, parent = #p>>
  blk.store %q, %y {vec = 1 : i32} : (tensor<8x!blk.ptr<f32>, #blk.slice<dim = 1, parent = #p>>, tensor<8xf32, #blk.slice<dim = 1, parent = #p>>) -> ()
  return
}
}

// -----

// Pointers and 64-bit values move as two 32-bit words per round.
#byrow = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#bycol = #blk.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @pointers
// CHECK-SAME: (%[[P:[0-9a-z_]+]]: !llvm.ptr<1>
// CHECK: %[[SRC:[0-9]+]] = llvm.xor
// CHECK-NEXT: %[[I:[0-9]+]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK-NEXT: %[[C32:[0-9]+]] = llvm.mlir.constant(32 : i64) : i64
// CHECK-NEXT: %[[LO:[0-9]+]] = llvm.trunc %[[I]] : i64 to i32
// CHECK-NEXT: %[[ALL:[0-9]+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[SLO:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[LO]], %[[SRC]], %{{.+}} : i32 -> i32
// CHECK-NEXT: %[[IHI:[0-9]+]] = llvm.lshr %[[I]], %[[C32]] : i64
// CHECK-NEXT: %[[HI:[0-9]+]] = llvm.trunc %[[IHI]] : i64 to i32
// CHECK-NEXT: %[[SHI:[0-9]+]] = nvvm.shfl.sync  idx %[[ALL]], %[[HI]], %[[SRC]], %{{.+}} : i32 -> i32
// CHECK-NEXT: %[[WLO:[0-9]+]] = llvm.zext %[[SLO]] : i32 to i64
// CHECK-NEXT: %[[WHI:[0-9]+]] = llvm.zext %[[SHI]] : i32 to i64
// CHECK-NEXT: %[[UHI:[0-9]+]] = llvm.shl %[[WHI]], %[[C32]] : i64
// CHECK-NEXT: %[[J:[0-9]+]] = llvm.or %[[WLO]], %[[UHI]] : i64
// CHECK-NEXT: %[[Q:[0-9]+]] = llvm.inttoptr %[[J]] : i64 to !llvm.ptr<1>
// CHECK-NOT: nvvm.barrier0
// CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r" %[[Q]]
func.func @pointers(%p: tensor<4x8x!blk.ptr<f32>, #byrow>, %v: tensor<4x8xf32, #bycol>) {
  %q = blk.convert_layout %p : tensor<4x8x!blk.ptr<f32>, #byrow> -> tensor<4x8x!blk.ptr<f32>, #bycol>
  blk.store %q, %v {vec = 1 : i32} : (tensor<4x8x!blk.ptr<f32>, #bycol>, tensor<4x8xf32, #bycol>) -> ()
  return
}
}
