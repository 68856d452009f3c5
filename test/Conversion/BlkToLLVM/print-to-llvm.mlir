// RUN: blk-opt %s --convert-blk-to-llvm --cse | FileCheck %s

// blk.print: one printf per element with the program id and the element's
// index. Signed integers narrower than 32 bits are sign-extended and print
// with %d (%lld for 64 bits), booleans zero-extended; the arguments that
// unsigned_args marks are zero-extended and print with %u (%llu).
#b = #blk.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {blk.num_warps = 1 : i32} {
// CHECK-LABEL: func.func @signedness
// CHECK-SAME: (%[[S:.+]]: i8, %[[U:.+]]: i8, %[[W:.+]]: i64, %[[B:.+]]: i1)
// CHECK: %[[SX:.+]] = llvm.sext %[[S]] : i8 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) idx (%d) s = %d\0A", {{.+}}, %[[SX]]
// CHECK: %[[UX:.+]] = llvm.zext %[[U]] : i8 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) idx (%d) s = %u\0A", {{.+}}, %[[UX]]
// CHECK: gpu.printf "pid (%d, %d, %d) s = %llu\0A", {{.+}}, %[[W]]
// CHECK: %[[BX:.+]] = llvm.zext %[[B]] : i1 to i32
// CHECK: gpu.printf "pid (%d, %d, %d) s = %d\0A", {{.+}}, %[[BX]]
func.func @signedness(%s: tensor<32xi8, #b>, %u: tensor<32xi8, #b>, %w: i64, %c: i1) {
  blk.print "s = " %s, %u, %w, %c : tensor<32xi8, #b>, tensor<32xi8, #b>, i64, i1 {unsigned_args = array<i1: false, true, true, false>}
  return
}
}
