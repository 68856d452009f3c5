// RUN: blk-opt %s --blk-test-print-axis-info -split-input-file -verify-diagnostics -o /dev/null

func.func @contiguous_offsets(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %n: i32 {blk.divisibility = 16 : i64}) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = blk.program_id 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1], constant = 1024}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %base = arith.muli %pid, %c1024 : i32
  // expected-remark @+1 {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %r = blk.arange 0, 256 : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1024], constancy = [256]}}
  %bs = blk.splat %base : i32 -> tensor<256xi32>
  // expected-remark @+1 {{contiguity = [256], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %bs, %r : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  // expected-remark @+1 {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %q = blk.addptr %ps, %offs : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  return
}

// -----

func.func @unspecialized(%p: !blk.ptr<f32>, %n: i32) {
  // expected-remark @+1 {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = blk.arange 0, 128 : tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ns = blk.splat %n : i32 -> tensor<128xi32>
  // The bound may fall anywhere: every element has its own mask value.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mask = arith.cmpi slt, %r, %ns : tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  // expected-remark @+1 {{contiguity = [128], divisibility = [1], constancy = [1]}}
  %q = blk.addptr %ps, %r : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  return
}

// -----

func.func @hints(%x: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %y = blk.assume %x {divisibility = 8 : i64} : i32
  // expected-remark @+1 {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = blk.arange 0, 128 : tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [8], constancy = [128]}}
  %s = blk.splat %y : i32 -> tensor<128xi32>
  // Scaling by 2 breaks contiguity.
  // expected-remark @+1 {{contiguity = [1], divisibility = [2], constancy = [128], constant = 2}}
  %two = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [2], constancy = [1]}}
  %d = arith.muli %r, %two : tensor<128xi32>
  return
}

// -----

func.func @two_dimensional() {
  // expected-remark @+1 {{contiguity = [16], divisibility = [1073741824], constancy = [1]}}
  %r = blk.arange 0, 16 : tensor<16xi32>
  // A new leading dimension of size 1; repeating it makes values constant along it.
  // Its runs are single elements, of which only the first is divisible.
  // expected-remark @+1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %e = blk.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  // expected-remark @+1 {{contiguity = [1, 16], divisibility = [1, 1073741824], constancy = [8, 1]}}
  %b = blk.broadcast %e : tensor<1x16xi32> -> tensor<8x16xi32>
  return
}

// -----

// A transpose swaps what holds along each dimension.
func.func @transposed(%n: i32 {blk.divisibility = 16 : i64}) {
  // expected-remark @+1 {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %c = blk.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %row = blk.expand_dims %c {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @+1 {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1]}}
  %tile = blk.broadcast %row : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @+1 {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 32]}}
  %t = blk.trans %tile : tensor<32x64xi32> -> tensor<64x32xi32>
  return
}

// -----

// Division by a constant c: divisibility d / c when c divides d; an arange
// divided by c is constant in runs of c when the division rounds down.
func.func @divided(%hd: i32 {blk.divisibility = 16 : i64}, %n: i32) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [2], constancy = [1], constant = 2}}
  %c2 = arith.constant 2 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %half = arith.divsi %hd, %c2 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 3}}
  %c3 = arith.constant 3 : i32
  // 16 / 3 = 5.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %third = arith.divsi %hd, %c3 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %q = arith.shrui %hd, %c2 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = -1}}
  %cm1 = arith.constant -1 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = -1}}
  %floor = arith.floordivsi %cm1, %c2 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %trunc = arith.divsi %cm1, %c2 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [2], constancy = [1], constant = 2}}
  %ceil = arith.ceildivsi %c3, %c2 : i32
  // Dividing by 1 keeps everything.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1], constant = 1}}
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %same = arith.divui %hd, %c1 : i32
  return
}

// -----

func.func @divided_arange(%n: i32 {blk.divisibility = 16 : i64}) {
  // expected-remark @+1 {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = blk.arange 0, 64 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [4], constancy = [64], constant = 4}}
  %c4 = arith.constant dense<4> : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [2], constancy = [64], constant = 2}}
  %c2 = arith.constant dense<2> : tensor<64xi32>
  // [0, 0, 0, 0, 1, 1, 1, 1, ...]
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %d = arith.divsi %r, %c4 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %s = arith.shrsi %r, %c2 : tensor<64xi32>
  // Ceiling division: [0, 1, 1, 1, 1, 2, ...] has no aligned runs.
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %cd = arith.ceildivsi %r, %c4 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %ns = blk.splat %n : i32 -> tensor<64xi32>
  // n may be negative, where C's division rounds towards zero: -5 / 4 = -1 but
  // -4 / 4 = -1 and -3 / 4 = 0; floor division and shifts keep the runs.
  // expected-remark @+1 {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %x = arith.addi %ns, %r : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %xd = arith.divsi %x, %c4 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %xf = arith.floordivsi %x, %c4 : tensor<64xi32>
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %xs = arith.shrsi %x, %c2 : tensor<64xi32>
  return
}

// -----

// max_constancy: a block loaded from memory promised constant over runs of 8
// (a mask over it then is too).
func.func @max_constancy(%x: tensor<64xi32>) {
  // expected-remark @+1 {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %y = blk.assume %x {constancy = 8 : i64} : tensor<64xi32>
  return
}

// -----

// Rows of a tile at an unknown row stride (X + rows[:, None] * stride):
// each row start is divisible only by 1, not by the divisibility of the
// first row index, so no access along a row spans two rows' alignment.
func.func @rows_times_stride(%p: !blk.ptr<f32> {blk.divisibility = 16 : i64}, %stride: i32, %s16: i32 {blk.divisibility = 16 : i64}) {
  // expected-remark @+1 {{contiguity = [16], divisibility = [1073741824], constancy = [1]}}
  %r = blk.arange 0, 16 : tensor<16xi32>
  // expected-remark @+1 {{contiguity = [16, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %rows = blk.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [16, 1]}}
  %s = blk.splat %stride : i32 -> tensor<16x1xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 1]}}
  %off = arith.muli %rows, %s : tensor<16x1xi32>
  // A stride divisible by 16 makes every row start so.
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [16, 1]}}
  %s2 = blk.splat %s16 : i32 -> tensor<16x1xi32>
  // expected-remark @+1 {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %off2 = arith.muli %rows, %s2 : tensor<16x1xi32>
  return
}
