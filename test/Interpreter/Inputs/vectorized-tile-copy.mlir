#blocked = #blk.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#slice = #blk.slice<dim = 1, parent = #blocked>
#slice1 = #blk.slice<dim = 0, parent = #blocked>
module attributes {blk.num_warps = 4 : i32} {
  func.func @tile_copy(%arg0: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg1: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %arg2: i32 {blk.divisibility = 16 : i64}, %arg3: i32 {blk.divisibility = 16 : i64}, %arg4: i32 {blk.divisibility = 16 : i64}, %arg5: i32 {blk.divisibility = 16 : i64}) attributes {blk.constants = {BM = 16 : i64, BN = 32 : i64}, blk.kernel, blk.shared = 0 : i64} {
    %c0_i64 = arith.constant 0 : i64
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %c1_i64 = arith.constant 1 : i64
    %0 = arith.extsi %arg2 : i32 to i64
    %1 = arith.extsi %arg3 : i32 to i64
    %2 = arith.extsi %arg4 : i32 to i64
    %3 = blk.program_id 0 : i32
    %4 = arith.muli %3, %c16_i32 : i32
    %5 = blk.program_id 1 : i32
    %6 = arith.muli %5, %c32_i32 : i32
    %7 = arith.extsi %arg5 : i32 to i64
    %8 = blk.arange 0, 16 : tensor<16xi32, #slice>
    %9 = arith.extsi %4 : i32 to i64
    %10 = arith.extsi %8 : tensor<16xi32, #slice> to tensor<16xi64, #slice>
    %11 = blk.splat %9 : i64 -> tensor<16xi64, #slice>
    %12 = arith.addi %10, %11 : tensor<16xi64, #slice>
    %13 = blk.expand_dims %12 {axis = 1 : i32} : tensor<16xi64, #slice> -> tensor<16x1xi64, #blocked>
    %14 = blk.splat %2 : i64 -> tensor<16x1xi64, #blocked>
    %15 = arith.muli %13, %14 : tensor<16x1xi64, #blocked>
    %16 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>, #blocked>
    %17 = blk.addptr %16, %15 : tensor<16x1x!blk.ptr<f32>, #blocked>, tensor<16x1xi64, #blocked>
    %18 = blk.splat %c0_i64 : i64 -> tensor<16x1xi64, #blocked>
    %19 = arith.cmpi sge, %13, %18 : tensor<16x1xi64, #blocked>
    %20 = blk.splat %0 : i64 -> tensor<16x1xi64, #blocked>
    %21 = arith.cmpi slt, %13, %20 : tensor<16x1xi64, #blocked>
    %22 = arith.andi %19, %21 : tensor<16x1xi1, #blocked>
    %23 = blk.arange 0, 32 : tensor<32xi32, #slice1>
    %24 = arith.extsi %6 : i32 to i64
    %25 = arith.extsi %23 : tensor<32xi32, #slice1> to tensor<32xi64, #slice1>
    %26 = blk.splat %24 : i64 -> tensor<32xi64, #slice1>
    %27 = arith.addi %25, %26 : tensor<32xi64, #slice1>
    %28 = blk.expand_dims %27 {axis = 0 : i32} : tensor<32xi64, #slice1> -> tensor<1x32xi64, #blocked>
    %29 = blk.splat %c1_i64 : i64 -> tensor<1x32xi64, #blocked>
    %30 = arith.muli %28, %29 : tensor<1x32xi64, #blocked>
    %31 = blk.broadcast %17 : tensor<16x1x!blk.ptr<f32>, #blocked> -> tensor<16x32x!blk.ptr<f32>, #blocked>
    %32 = blk.broadcast %30 : tensor<1x32xi64, #blocked> -> tensor<16x32xi64, #blocked>
    %33 = blk.addptr %31, %32 : tensor<16x32x!blk.ptr<f32>, #blocked>, tensor<16x32xi64, #blocked>
    %34 = blk.splat %c0_i64 : i64 -> tensor<1x32xi64, #blocked>
    %35 = arith.cmpi sge, %28, %34 : tensor<1x32xi64, #blocked>
    %36 = blk.splat %1 : i64 -> tensor<1x32xi64, #blocked>
    %37 = arith.cmpi slt, %28, %36 : tensor<1x32xi64, #blocked>
    %38 = arith.andi %35, %37 : tensor<1x32xi1, #blocked>
    %39 = blk.broadcast %22 : tensor<16x1xi1, #blocked> -> tensor<16x32xi1, #blocked>
    %40 = blk.broadcast %38 : tensor<1x32xi1, #blocked> -> tensor<16x32xi1, #blocked>
    %41 = arith.andi %39, %40 : tensor<16x32xi1, #blocked>
    %42 = blk.load %33, %41 {operandSegmentSizes = array<i32: 1, 1, 0>, vec = 4 : i32} : (tensor<16x32x!blk.ptr<f32>, #blocked>, tensor<16x32xi1, #blocked>) -> tensor<16x32xf32, #blocked>
    %43 = blk.splat %7 : i64 -> tensor<16x1xi64, #blocked>
    %44 = arith.muli %13, %43 : tensor<16x1xi64, #blocked>
    %45 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<16x1x!blk.ptr<f32>, #blocked>
    %46 = blk.addptr %45, %44 : tensor<16x1x!blk.ptr<f32>, #blocked>, tensor<16x1xi64, #blocked>
    %47 = blk.broadcast %46 : tensor<16x1x!blk.ptr<f32>, #blocked> -> tensor<16x32x!blk.ptr<f32>, #blocked>
    %48 = blk.addptr %47, %32 : tensor<16x32x!blk.ptr<f32>, #blocked>, tensor<16x32xi64, #blocked>
    blk.store %48, %42, %41 {vec = 4 : i32} : (tensor<16x32x!blk.ptr<f32>, #blocked>, tensor<16x32xf32, #blocked>, tensor<16x32xi1, #blocked>) -> ()
    return
  }
}
