#ifndef BLK_TRANSFORMS_PASSES_TD
#define BLK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def BlkWhileToForPass : Pass<"blk-while-to-for", "mlir::ModuleOp"> {
  let summary = "Rewrite counted `scf.while` loops as `scf.for`";
  let description = [{
    A `while k < K:` loop whose condition is only `iv < bound` (or
    `bound > iv`) on a carried integer, the bound defined before the loop,
    and whose body yields `iv + step` for it, with `step` a positive
    constant, becomes an `scf.for` from the initial value to the bound by
    `step`, so that the loop pipeliners and the dot lowering treat it as they
    treat `range`. The loop's other carried values stay carried; the
    counter's value after the loop is the first one at or past the bound
    (the initial value when the loop does not run). Other `while` loops
    (data-dependent conditions, runtime or non-positive steps) are left
    alone.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def BlkPipelineLoadsPass : Pass<"blk-pipeline-loads", "mlir::ModuleOp"> {
  let summary = "Issue a loop's loads `num-stages - 1` iterations ahead";
  let description = [{
    In an `scf.for` with a positive constant step and no writes to memory
    (stores, atomics), a load at the top of the body whose pointer, mask and
    `other` are computed only from the induction variable and values defined
    outside the loop is issued `num-stages - 1` iterations early: the loop
    starts with that many loads (the prologue) and each iteration issues the
    load for iteration `i + (num-stages - 1) * step`, masked off past the
    upper bound, while it computes with the value loaded earlier, which the
    loop carries. The memory latency of one iteration overlaps the work of
    the previous ones. `num-stages` 1 changes nothing. Loads that
    `blk-pipeline-dot` copies through shared-memory rings are left alone:
    2-D tiles beside a tensor-core dot, and, in a loop without one, 2-D
    tiles whose `num-stages - 1` copies in flight would take more than 64
    registers in each of `num-warps` warps' threads.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"1",
           "Loads in flight per pipelined load (1: no pipelining)">,
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program (the threads a carried tile spreads over)">,
    Option<"sharedMemoryLimit", "shared-memory-limit", "int64_t", /*default=*/"232448",
           "Bytes of shared memory one program may use (as blk-pipeline-dot's option)">,
  ];
  let dependentDialects = ["blk::BlkDialect", "mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def BlkAccelerateDotPass : Pass<"blk-accelerate-dot", "mlir::ModuleOp"> {
  let summary = "Pick the tensor-core instruction and the warp tiling of each dot";
  let description = [{
    Runs before `blk-assign-layouts`. A `blk.dot` that the target's tensor
    cores can compute (sm_80 and newer: f16/bf16 with `mma.sync` m16n8k16,
    i8 with m16n8k32) gets an `mma` attribute, an `#blk.mma` layout: the instruction
    shape and `warpsPerCTA`, the warps split between M and N so that each
    warp's tile is as square as the block allows. Layout assignment gives
    the accumulator's whole group (loop-carried values, the epilogue) and
    converts the operands to `#blk.dot_op` fragments. Any other dot stays on
    CUDA cores.

    With `wgmma` (sm_90a), an f16/bf16 dot whose rows split into 16-row tiles
    over all warps (M a multiple of 16 x warps, 4 or more warps, N a multiple
    of 8 up to 256) gets a version 3 layout instead: warpgroups along M, each
    warp's tile the block's full width. It is the same register layout as
    mma.sync's with the warps along M, so a dot that `blk-pipeline-dot` cannot
    move to shared memory still runs on mma.sync. fp8 dots get version 3
    (m64nNk32) too, however their operands are loaded: wgmma reads 8-bit
    tiles only K-major, and `blk-pipeline-dot` reads an A loaded along M from
    registers and writes a B loaded along N K-major into shared memory.
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", /*default=*/"90",
           "Target compute capability (80 for sm_80, 90 for sm_90a)">,
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4", "Warps per program">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false", "The target has wgmma (sm_90a)">,
  ];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkLoadsToTensorDescriptorsPass : Pass<"blk-loads-to-tensor-descriptors", "mlir::ModuleOp"> {
  let summary = "Turn a wgmma dot's strided-box operand loads into tensor-descriptor loads (for TMA)";
  let description = [{
    Runs after `blk-accelerate-dot`, before `blk-lower-tensor-descriptors`
    (with TMA). In `for k in range(0, K, STEP)`, the loads of a version 3
    dot's operands in the loop (all of them, or none; an A computed in
    registers or an operand loaded before the loop takes no part, a dot whose
    B is computed in the loop keeps its pointer loads; a load several dots
    read, as is or through `trans`, is rewritten with all of them) of one of
    two forms, `other` zero:
    - the Triton tutorial's: pointers
      `base + (r0 + arange)[:, None] * stride + (c0 + arange)[None, :]`
      advanced by STEP along one dimension each iteration, masked by
      `idx < SIZE` in the other dimension and `idx < SIZE - k` in the
      advancing one: `descriptor_load`s of `(base, [SIZE0, SIZE1], [stride,
      1])` at `[r0, c0 + k]` (or `[r0 + k, c0]`);
    - computed in the loop: the same pointers with r0 or c0 computed from k
      (`cols = k + arange(0, BLOCK)`), masked by `idx < SIZE` along any
      dimension: the descriptor's size is SIZE, or for a dimension without a
      mask the block's (from 0) or unbounded (from elsewhere).
    The base may be a kernel argument moved by i32 indices times strides
    (`K + b.to(i64) * stride_b + h.to(i64) * stride_h`, up to three): each
    becomes a leading dimension of the descriptor, block size 1, index the
    term's, loaded as the 2-D block. A box whose contiguous dimension is the
    first is loaded transposed, then `trans`. The same elements, zeros where
    the mask was false (indices taken to be non-negative). Only where TMA's
    rules hold for every launch the kernel accepts: `base` a kernel argument
    specialized 16-byte aligned, every stride a kernel argument whose
    specialized divisibility (or a constant) spans 16-byte multiples, the
    sizes i32 kernel arguments or constants.
  }];
  let dependentDialects = ["blk::BlkDialect", "mlir::arith::ArithDialect"];
}

def BlkLowerTensorDescriptorsPass : Pass<"blk-lower-tensor-descriptors", "mlir::ModuleOp"> {
  let summary = "Descriptor loads and stores become pointer accesses, or TMA tensor maps on sm_90";
  let description = [{
    Runs after `blk-accelerate-dot`. A `blk.descriptor_load` or
    `blk.descriptor_store` becomes a masked `blk.load` (zeros outside the
    tensor) or `blk.store` through the pointers base + sum((offset_d +
    arange_d) * stride_d), the rest of the pipeline (vector widths,
    layouts, cp.async rings) applying as to any access.

    A descriptor whose leading block dimensions are 1 may be loaded without
    them: those offsets move the base.

    With `tma`, the operand loads of a wgmma dot (a version 3 `mma`) in an
    `scf.for` are kept for `blk-pipeline-dot`, which copies them with TMA,
    when every descriptor-load operand of the dot in the loop is a 16-bit
    descriptor load of a 2-D block (after leading 1s) that only dots of the
    loop read (as is or through `trans`: one ring serves them all), their
    offsets computed from the induction variable and values defined outside
    the loop, and their descriptors' base, shape and strides kernel
    arguments or constants: each such descriptor becomes a hidden kernel
    argument (a CUtensorMap the runtime builds at launch) whose
    `blk.tma_base`, `blk.tma_shape` and `blk.tma_strides` attributes say
    where those values come from. So does a `blk.descriptor_store` of a 2-D
    block (after leading 1s) of at most 256 rows and 64 KiB whose
    descriptor the host can build: `blk-tma-stores` makes it a TMA store.
  }];
  let options = [
    Option<"tma", "tma", "bool", /*default=*/"false", "Keep wgmma operand loads and descriptor stores for TMA (sm_90a)">,
  ];
  let dependentDialects = ["blk::BlkDialect", "mlir::arith::ArithDialect"];
}

def BlkVectorizeMemoryPass : Pass<"blk-vectorize-memory", "mlir::ModuleOp"> {
  let summary = "Set the widest safe vector width on every global load, store and float atomic add";
  let description = [{
    Runs AxisInfo over each kernel and records on every `blk.load`,
    `blk.store` and float `blk.atomic_rmw add` the widest access (`vec`, in elements, at most 16 bytes) whose
    addresses are contiguous, aligned to the access size and covered by one
    mask value. Alignment of arguments comes only from `blk.divisibility`
    argument attributes, which the caller's specialization sets.
  }];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkAssignLayoutsPass : Pass<"blk-assign-layouts", "mlir::ModuleOp"> {
  let summary = "Give every block type a blocked layout over the program's threads";
  let description = [{
    Tiles each block shape over `num-warps` warps of 32 lanes. A thread holds
    as many consecutive elements as the widest vector access on blocks of that
    shape (so that one thread's chunk is one 16-byte access), and the tiling
    repeats when the block is larger than one tile. The module records
    `blk.num_warps`.
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Warps per program (a power of two from 1 to 32)">,
  ];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkCoalescePass : Pass<"blk-coalesce", "mlir::ModuleOp"> {
  let summary = "Give each global access along a dimension other than the kernel layout's fastest a layout of its own";
  let description = [{
    Runs after `blk-assign-layouts`. A load or store of a 2-D block whose
    addresses are contiguous along a dimension (`vec_dim`) other than the
    fastest of its layout would have each warp touch one element per row:
    it gets a blocked layout with that dimension fastest (lanes and vectors
    along the contiguous addresses) and `blk.convert_layout` ops on its
    operands and result. A store of a tensor-core accumulator (an `#blk.mma`
    value, two consecutive elements per thread and row) likewise gets a
    blocked layout with full vectors along its addresses: one conversion
    through shared memory instead of half-sector stores (the matmul epilogue).
    An access along the last dimension (no `vec_dim`) of a block whose layout
    runs along another (`blk-assign-layouts` chose that dimension for the
    block's other accesses) gets one too, where its addresses are contiguous
    along the last (AxisInfo); a gathered one keeps its block's layout.
    Every access's `vec` is then clamped to the run of
    consecutive elements its layout gives one thread along its dimension.
    `blk-remove-layout-conversions` removes the conversions of values that
    are cheaper to compute again in the new layout (pointers, masks).
  }];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkRemoveLayoutConversionsPass : Pass<"blk-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Remove layout conversions that are not needed";
  let description = [{
    A conversion to the layout its source already has goes; a conversion of
    a conversion converts the original value once; a conversion of a value
    computed only from scalars, constants, `arange`, `splat`, `expand_dims`,
    `broadcast`, `addptr` and elementwise ops (pointers and masks, typically)
    is replaced by the same computation in the target layout, which costs a
    few integer instructions instead of a round trip through shared memory.
    Values computed by anything else (loads, reductions, loop-carried values)
    are converted as before.
  }];
  let options = [
    Option<"maxOps", "max-ops", "unsigned", /*default=*/"64",
           "Most ops one conversion may recompute">,
  ];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkTmaStoresPass : Pass<"blk-tma-stores", "mlir::ModuleOp"> {
  let summary = "Stores through tensor maps become TMA stores from a shared-memory buffer";
  let description = [{
    Runs after layout assignment, before `blk-pipeline-dot`. A
    `blk.descriptor_store` whose descriptor `blk-lower-tensor-descriptors`
    made a hidden tensor-map argument writes its block, in the layout it
    has, into a one-slot `blk.local_alloc` buffer (`blk.local_store`, the
    swizzled arrangement of a TMA ring), fences it for the async proxy and
    synchronizes, then one thread copies it out (`blk.async_tma_store`). The
    buffer is allocated in front of the outermost loop around the store (a
    persistent kernel's loop over tiles), so that no other buffer takes its
    memory while a store may still read it; each store in such a loop first
    waits until the previous one has read the buffer (`blk.tma_store_wait`),
    and a last wait follows the loop (or the store, outside loops). A
    `blk.descriptor_load` through a hidden tensor map of the same block type
    before the store in its block (C += A @ B's old tile) comes in by TMA
    through the same buffer: its copy is issued where its offsets are known
    (after the previous trip's store has read the buffer), and where the load
    was the trip waits on an mbarrier, reads the tile and synchronizes.
  }];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkPipelineDotPass : Pass<"blk-pipeline-dot", "mlir::ModuleOp"> {
  let summary = "Stage a loop's tensor-core dot operands through rings of shared-memory tiles (cp.async or TMA)";
  let description = [{
    Runs after layout assignment. In an `scf.for` with a positive constant
    step, a `blk.dot` with an `#blk.mma` accumulator whose operands are loads
    in the body (converted to `#blk.dot_op`), with `other` zero or absent and
    pointers and masks computed from the induction variable, from pointer
    blocks the loop advances by a loop-invariant offset and from values
    defined outside, gets its tiles through `blk.async_copy` into
    `blk.local_alloc` rings, `num-stages - 1` iterations ahead (at least
    one). mma.sync dots read their slot with `blk.local_load` (ldmatrix);
    version 3 layouts become `blk.warp_group_dot` (wgmma from shared memory),
    left one group in flight across iterations when the loop only carries
    the accumulator, or until the next iteration's first complete wait when
    the loop carries the result otherwise. A wgmma's A that is not a load
    in the loop reads from registers, or, when defined before the loop, from
    a one-slot buffer written once in front of it (`blk.local_store`), while
    the rings and such buffers stay within 7/8 of `shared-memory-limit`
    (room for scratch). Buffers made before the loop that live across it
    (a TMA store's in a loop over tiles) count beside the rings, which take
    fewer tiles ahead than `num-stages` asks where that many would not fit. In a loop without such a dot, a 2-D tile that no
    dot reads and whose `num-stages - 1` copies in flight would take more
    than 64 registers per thread gets a ring of `num-stages` slots the same
    way, its copies issued right after the barrier at the top of the body. Each iteration waits for its tiles and synchronizes
    at the top; copies past the upper bound are masked off. Operands that
    `blk-lower-tensor-descriptors` kept as descriptor loads of hidden
    tensor-map arguments are copied by TMA instead (`blk.async_tma_copy`,
    one thread, none past the bound) and waited for on one mbarrier per slot
    (`blk.mbarrier_alloc`, `blk.mbarrier_wait` at phase (n / slots) & 1,
    `blk.mbarrier_inval` after the loop). With `release-slots`, a loop whose
    rings are all TMA rings read by wgmma keeps no barrier of all threads:
    each warp releases the previous iteration's slot on an empty mbarrier
    (`blk.mbarrier_arrive`, one arrival per warp) in front of the copies, and
    the warp that issues them waits for the release of the slot it refills
    (`blk.mbarrier_wait {issuer}`). With `ping-pong` too, and two or more
    warpgroups, the warpgroups take turns at issuing the loop's wgmma
    (`blk.warp_group_turn`: `take` before the iteration's first, `pass`
    after its last), so that one warpgroup's other work (attention's
    softmax) runs while another's dots use the tensor cores. A loop marked
    `blk.warp_specialize` (`range(..., warp_specialize=True)`), or any loop
    with `warp-specialize`, whose rings are all TMA rings read by wgmma and
    which sits directly in a kernel's body or in a loop that does (a
    persistent kernel's loop over tiles), is split between two roles when
    the copies' offsets and the loop's bounds are scalar arithmetic on the
    arguments: its rings and mbarriers move to the kernel's start, and the
    rest of the kernel becomes the else branch of an `scf.if` on
    `blk.producer_warp`. The then branch is a producer warpgroup (4 warps
    after the consumers, `blk.producer_warps` on the kernel) that computes
    the offsets again and, in a loop of its own, waits for each slot's
    release and copies the tile into it; the consumers wait for their tiles,
    run the dots and release the slots, issuing no copy. In a loop over
    tiles both roles carry the count of the K tiles before, so that slots
    and phases run on across tiles; the producer mirrors that loop. With two or more
    consumer warpgroups, `blk.set_max_registers` moves registers from the
    producer (40) to the consumers.
  }];
  let options = [
    Option<"numStages", "num-stages", "unsigned", /*default=*/"3",
           "Tiles in flight plus the one being read (below 2 counts as 2)">,
    Option<"sharedMemoryLimit", "shared-memory-limit", "int64_t", /*default=*/"232448",
           "Bytes of shared memory one program may use (227 KiB on sm_90)">,
    Option<"releaseSlots", "release-slots", "bool", /*default=*/"false",
           "Release TMA ring slots on empty mbarriers instead of barriers of all threads">,
    Option<"pingPong", "ping-pong", "bool", /*default=*/"false",
           "With release-slots and two or more warpgroups: the warpgroups take turns issuing a loop's wgmma">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
           "Specialize warps in every loop that allows it, not only those marked blk.warp_specialize">,
  ];
  let dependentDialects = ["blk::BlkDialect", "mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def BlkProgramsPerSMPass : Pass<"blk-programs-per-sm", "mlir::ModuleOp"> {
  let summary = "Ask ptxas to leave registers for two programs of a wgmma kernel per SM";
  let description = [{
    ptxas sizes a kernel's registers for one program per SM unless told
    otherwise, so a wgmma kernel whose shared memory would let two programs
    share an SM runs alone once its registers pass 128 per thread (int8
    weights dequantized into B at 128x128 tiles and 8 warps: 165 registers,
    where a cap of 128 spills nothing, and 1.16x faster with two programs).
    After shared memory is allocated (`blk.shared`), a kernel with wgmma
    dots gets `blk.programs_per_sm` = 2 where its shared memory lets two
    programs share an SM, their register cap binds (below 255 per thread:
    8 warps or more) and leaves each thread 64 registers beyond the wgmma
    accumulators (their values per thread, summed over the kernel's dots).
    The lowering to NVVM makes it `.minnctapersm 2`; where ptxas or the
    driver spills to honour it, blkc's ptxas step and the runtime compile the
    kernel again without it. Kernels with producer warps are left alone
    (setmaxnreg sets their registers).
  }];
  let options = [
    Option<"sharedMemoryLimit", "shared-memory-limit", "int64_t", /*default=*/"232448",
           "Bytes of shared memory one program may use (227 KiB on sm_90; an SM has 1 KiB more)">,
  ];
}

def BlkSinkPastReductionsPass : Pass<"blk-sink-past-reductions", "mlir::ModuleOp"> {
  let summary = "Move work that a reduction's or scan's result does not need below it, where fewer registers then wait across it";
  let description = [{
    `x * u[:, None] + v[None, :] + sum(x, axis=1)[:, None]` computes the
    products before the row sum in program order, and ptxas, which keeps
    the sum's shuffles in order, holds the 128 products of a [1024, 16]
    tile per thread beside the 128 values of `x` the sum still reads (254
    registers for i32, against 168 with the products after the sum). For
    each `reduce` and `scan`, the pure register arithmetic before it in its
    block whose results only ops after it read (or other such arithmetic)
    moves below it, in order, when the registers of those results read
    after it outnumber those of the values it reads from before it that
    nothing else keeps live across it (a broadcast counts its source's;
    pointers and scalars count nothing) by `min-registers-saved` or more.
    Loads, shared-memory moves and address arithmetic stay where they are.
  }];
  let options = [
    Option<"minRegistersSaved", "min-registers-saved", "int64_t", /*default=*/"32",
           "Registers per thread a move must take off those waiting across the reduction">
  ];
}

def BlkCheckRegistersPass : Pass<"blk-check-registers", "mlir::ModuleOp"> {
  let summary = "Warn where a block holds more values per thread than a thread has registers";
  let description = [{
    After the layouts and the pipelining (whose rings replace the operand
    blocks they copy), a block of values (not of pointers, whose addresses
    fold into their uses) with more than `registers` elements per thread
    cannot stay in registers: ptxas spills it, and LLVM's backend takes
    seconds to unroll it. Each kernel gets one warning, at its largest such
    block, with the numbers and what to change.
  }];
  let options = [
    Option<"registers", "registers", "int64_t", /*default=*/"256",
           "Values per thread above which a block cannot stay in registers (ptxas allows 255 registers)">,
  ];
}

def BlkAllocateSharedMemoryPass : Pass<"blk-allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "Give every shared-memory scratch buffer an offset and record each kernel's total";
  let description = [{
    Reductions across warps and layout conversions across threads need a
    scratch buffer while they run. Each gets `blk.smem_offset`; buffers whose
    lifetimes do not overlap share addresses (first fit, largest first). Each
    kernel records its total in `blk.shared` (bytes). A kernel that needs more
    than `limit` bytes is an error at the op with the largest buffer.
  }];
  let options = [
    Option<"limit", "limit", "int64_t", /*default=*/"232448",
           "Bytes of shared memory one program may use (227 KiB on sm_90)">,
  ];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkInsertBarriersPass : Pass<"blk-insert-barriers", "mlir::ModuleOp"> {
  let summary = "Place a barrier between shared-memory accesses that could race";
  let description = [{
    Walks each kernel in program order tracking the shared-memory ranges
    accessed since the last barrier; an op whose scratch range overlaps one of
    them (every scratch user both writes and reads its range) gets a
    `blk.barrier` before it. Loops are walked twice so that an access at the
    end of one iteration is ordered before the next iteration's; both branches
    of an `if` start from the same state. Ops whose ranges do not overlap get
    no barrier. Barriers inside one op (between its writes and reads) are the
    lowering's.
  }];
  let dependentDialects = ["blk::BlkDialect"];
}

def BlkTestPrintAxisInfoPass : Pass<"blk-test-print-axis-info", "mlir::ModuleOp"> {
  let summary = "Print AxisInfo of every integer and pointer value as remarks (for tests)";
}

#endif
