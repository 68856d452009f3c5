// RUN: blk-opt %s --blk-allocate-shared-memory --convert-blk-to-llvm --cse | FileCheck %s

// blk.gather through shared memory: each thread stores the source elements
// it holds at their row-major positions, one barrier, then each result
// register loads the element its index names along the axis (the index
// taken modulo the axis' size, so that no index reads outside the buffer).
#b = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#p = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {blk.num_warps = 4 : i32} {
// One f32 per thread: stored at its own position (lane ^ warp << 5), read
// at index & 127. 128 elements, no padding (1-D): 512 bytes.
// CHECK-LABEL: func.func @gather_1d
// CHECK-SAME: (%[[X:.+]]: f32, %[[I:.+]]: i32) attributes {blk.shared = 512 : i64}
// CHECK: %[[POS:.+]] = llvm.xor %{{.+}}, %{{.+}} : i32
// CHECK-NEXT: %[[BASE:.+]] = llvm.mlir.addressof @blk_shared : !llvm.ptr<3>
// CHECK-NEXT: %[[AT:.+]] = llvm.getelementptr %[[BASE]][%[[POS]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.store %[[X]], %[[AT]] : f32, !llvm.ptr<3>
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: %[[WRAP:.+]] = llvm.mlir.constant(127 : i32) : i32
// CHECK-NEXT: %[[IDX:.+]] = llvm.and %[[I]], %[[WRAP]] : i32
// CHECK-NEXT: %[[FROM:.+]] = llvm.getelementptr %[[BASE]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT: llvm.load %[[FROM]] : !llvm.ptr<3> -> f32
func.func @gather_1d(%x: tensor<128xf32, #b>, %i: tensor<128xi32, #b>) {
  %y = blk.gather %x[%i] {axis = 0 : i32} : tensor<128xf32, #b>, tensor<128xi32, #b> -> tensor<128xf32, #b>
  blk.print "y" %y : tensor<128xf32, #b>
  return
}

// An [8, 32] f16 source that warps 2 and 3 hold again (copies): only the
// owners (warp bit 1 clear) store, by predicated st.shared; rows of 32 are
// padded by one element (index + index >> 5), 264 elements of 2 bytes.
// Along axis 1 by i64 indices: each column is the index's low 32 bits & 31
// (the constant 31 is also the lane mask), in the result's row.
// CHECK-LABEL: func.func @gather_copies
// CHECK-SAME: attributes {blk.shared = 528 : i64}
// CHECK: %[[C31:.+]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: %[[C2:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[WBIT:.+]] = llvm.and %{{.+}}, %[[C2]] : i32
// CHECK-NEXT: %[[OWNER:.+]] = llvm.icmp "eq" %[[WBIT]], %{{.+}} : i32
// CHECK: %[[ROW32:.+]] = llvm.mul %[[ROW:.+]], %{{.+}} : i32
// CHECK: %[[P:.+]] = llvm.zext %[[OWNER]] : i1 to i32
// CHECK-COUNT-4: @p st.shared.b16 [$0], $1;
// CHECK-NOT: st.shared
// CHECK: nvvm.barrier0
// CHECK: %[[T0:.+]] = llvm.trunc %{{.+}} : i64 to i32
// CHECK-NEXT: %[[COL0:.+]] = llvm.and %[[T0]], %[[C31]] : i32
// CHECK-NEXT: %[[L0:.+]] = llvm.add %[[ROW32]], %[[COL0]] : i32
// CHECK-NEXT: %[[S0:.+]] = llvm.lshr %[[L0]], %{{.+}} : i32
// CHECK-NEXT: %[[PAD0:.+]] = llvm.add %[[L0]], %[[S0]] : i32
// CHECK-NEXT: %[[A0:.+]] = llvm.getelementptr %{{.+}}[%[[PAD0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT: llvm.load %[[A0]] : !llvm.ptr<3> -> f16
// CHECK-COUNT-3: llvm.load %{{.+}} : !llvm.ptr<3> -> f16
// CHECK-NOT: llvm.load
// CHECK: return
func.func @gather_copies(%x: tensor<8x32xf16, #p>, %i: tensor<8x16xi64, #p>) {
  %y = blk.gather %x[%i] {axis = 1 : i32} : tensor<8x32xf16, #p>, tensor<8x16xi64, #p> -> tensor<8x16xf16, #p>
  blk.print "y" %y : tensor<8x16xf16, #p>
  return
}
}
