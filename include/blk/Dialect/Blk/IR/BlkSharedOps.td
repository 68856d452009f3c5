// Explicit shared-memory tiles for pipelined tensor-core dots: made by
// blk-pipeline-dot from a loop's loads and dot, lowered to cp.async, ldmatrix
// and wgmma. The frontend never emits them.
#ifndef BLK_SHARED_OPS_TD
#define BLK_SHARED_OPS_TD

def Blk_SharedBuffer : Type<CPred<"::mlir::isa<::blk::SharedBufferType>($_self)">, "blk shared buffer",
                            "::blk::SharedBufferType">;

def Blk_LocalAllocOp : Blk_Op<"local_alloc", [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "A ring of tiles in shared memory, live until its last use";
  let description = [{
    `blk-allocate-shared-memory` places it (1024-byte aligned) and records its
    offset. Example: `%a = blk.local_alloc : !blk.smem<[3, 128, 64], bf16, contig = 1>`
  }];
  let results = (outs Blk_SharedBuffer:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Blk_AsyncCopyOp : Blk_Op<"async_copy", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Start copying a block from global memory into one slot of a shared buffer";
  let description = [{
    cp.async, `vec` elements per access (4, 8 or 16 bytes); masked-off
    elements are filled with zeros. The copy completes at an `async_wait`
    that leaves fewer groups pending than were committed after it.
    Example: `blk.async_copy %p, %m into %buf[%slot] : tensor<128x64x!blk.ptr<bf16>, #l>, tensor<128x64xi1, #l> -> !blk.smem<[3, 128, 64], bf16, contig = 1>`
  }];
  let arguments = (ins RankedTensorOf<[Blk_Ptr]>:$ptr, Optional<RankedTensorOf<[I1]>>:$mask, Blk_SharedBuffer:$buffer,
                       I32:$slot, DefaultValuedAttr<I32Attr, "1">:$vec);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? `into` $buffer `[` $slot `]` attr-dict `:` type($ptr) (`,` type($mask)^)? `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def Blk_AsyncCommitGroupOp : Blk_Op<"async_commit_group", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Close the group of this thread's copies started since the last commit (cp.async.commit_group)";
  let assemblyFormat = "attr-dict";
}

def Blk_AsyncWaitOp : Blk_Op<"async_wait", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until at most `pending` of this thread's committed copy groups are in flight";
  let description = [{
    Other threads' copies are visible only after a following `blk.barrier`.
    Example: `blk.async_wait {pending = 1 : i32}`
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def Blk_FenceAsyncSharedOp : Blk_Op<"fence_async_shared", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Order this thread's shared-memory writes before reads by the async proxy (wgmma)";
  let assemblyFormat = "attr-dict";
}

def Blk_LocalLoadOp : Blk_Op<"local_load", [MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Read one slot of a shared buffer into registers (ldmatrix for mma.sync operands)";
  let description = [{
    Example: `%a = blk.local_load %buf[%slot] : !blk.smem<[3, 128, 64], bf16, contig = 1> -> tensor<128x64xbf16, #blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>>`
  }];
  let arguments = (ins Blk_SharedBuffer:$buffer, I32:$slot);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$buffer `[` $slot `]` attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_LocalTransOp : Blk_Op<"local_trans", [Pure]> {
  let summary = "The same shared buffer seen transposed (no data moves)";
  let description = [{
    Each slot's tile read with its two dimensions swapped: the result's
    shape is [slots, cols, rows] and its contiguous dimension the other one,
    so that the swizzled arrangement (the same lines, the same bytes) is
    unchanged. A tile loaded once can feed one dot as is and another
    transposed (attention's backward: dO for dV, dO^T for dP^T); wgmma reads
    the view through an MN- instead of a K-major descriptor, ldmatrix with
    or without `.trans`. Example:
    `%t = blk.local_trans %buf : !blk.smem<[3, 64, 128], bf16, contig = 1> -> !blk.smem<[3, 128, 64], bf16, contig = 0>`
  }];
  let arguments = (ins Blk_SharedBuffer:$buffer);
  let results = (outs Blk_SharedBuffer:$result);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$buffer)>];
}

def Blk_LocalStoreOp : Blk_Op<"local_store", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Write a block into one slot of a shared buffer, in the buffer's swizzled arrangement";
  let description = [{
    Each thread writes the elements it holds (16-byte vectors where its
    registers run along the buffer's lines); the block's layout gives every
    element to one thread. Readers in the async proxy (wgmma) need a
    `blk.fence_async_shared` and a barrier after it. Example:
    `blk.local_store %k, %buf[%c0] : tensor<128x128xbf16, #blocked>, !blk.smem<[1, 128, 128], bf16, contig = 1>`
  }];
  let arguments = (ins AnyRankedTensor:$value, Blk_SharedBuffer:$buffer, I32:$slot);
  let assemblyFormat = "$value `,` $buffer `[` $slot `]` attr-dict `:` type($value) `,` type($buffer)";
  let hasVerifier = 1;
}

def Blk_WarpGroupDotOp : Blk_Op<"warp_group_dot", [MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "acc + a @ b on wgmma (asynchronous), b in shared memory, a in shared memory or registers";
  let description = [{
    Each warpgroup (4 warps) multiplies its 64-row slabs of `a` by all of `b`
    (wgmma.mma_async m64nNk16, N the block's width), reading `b` through a
    shared-memory descriptor. `a` is a ring slot read the same way, or a
    block in the `#blk.dot_op<opIdx = 0>` layout of the accumulator's mma
    layout, read from registers (wgmma's register-A form: a value computed
    in registers, such as attention's probabilities). The result is defined
    only after a `blk.warp_group_dot_wait` that leaves it done.
    Examples:
    `%c = blk.warp_group_dot %a[%s], %b[%s], %acc : !blk.smem<[3, 128, 64], bf16, contig = 1>, !blk.smem<[3, 64, 256], bf16, contig = 1>, tensor<128x256xf32, #mma> -> tensor<128x256xf32, #mma>`
    `%c = blk.warp_group_dot %p, %b[%s], %acc : tensor<128x64xbf16, #dot_a>, !blk.smem<[3, 64, 128], bf16, contig = 1>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>`
  }];
  let arguments = (ins AnyTypeOf<[Blk_SharedBuffer, AnyRankedTensor]>:$a, Optional<I32>:$aSlot,
                       Blk_SharedBuffer:$b, I32:$bSlot, AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a (`[` $aSlot^ `]`)? `,` $b `[` $bSlot `]` `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// A in registers (a block), not in a ring.
    bool hasRegisterA() { return ::mlir::isa<::mlir::RankedTensorType>(getA().getType()); }
  }];
  let hasVerifier = 1;
}

def Blk_WarpGroupDotWaitOp : Blk_Op<"warp_group_dot_wait", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>,
                                                           DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Wait until at most `pending` of this warpgroup's wgmma groups are in flight";
  let description = [{
    Each accumulator passes through to the result of the same position:
    with `pending` 0 all of them are complete afterwards. One wait may carry
    the accumulators of several dots, such as a dot issued in the previous
    iteration of a loop and still in flight.
    Examples:
    `%d = blk.warp_group_dot_wait %c {pending = 0 : i32} : tensor<128x256xf32, #mma>`
    `%s, %o = blk.warp_group_dot_wait %c, %acc {pending = 0 : i32} : tensor<128x64xf32, #mma>, tensor<128x128xf32, #mma1>`
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$accs, I32Attr:$pending);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = "$accs attr-dict `:` type($accs)";
  let hasVerifier = 1;
}

def Blk_Barriers : Type<CPred<"::mlir::isa<::blk::BarriersType>($_self)">, "blk mbarriers", "::blk::BarriersType">;

def Blk_MBarrierAllocOp : Blk_Op<"mbarrier_alloc", [MemoryEffects<[MemAlloc<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "mbarriers in shared memory, initialized before any thread goes on";
  let description = [{
    Placed by `blk-allocate-shared-memory` like a ring; one thread
    initializes them, then the program synchronizes. Live until the
    `blk.mbarrier_inval` that retires them. A phase completes on one
    arrival (a TMA copy's, with its bytes as the expected transaction), or
    with `arrivals = N` on N warps' `blk.mbarrier_arrive` (a slot's readers
    releasing it). Example:
    `%bars = blk.mbarrier_alloc : !blk.mbarriers<4>`
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$arrivals);
  let results = (outs Blk_Barriers:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Blk_MBarrierInvalOp : Blk_Op<"mbarrier_inval", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Retire mbarriers so that their memory can hold other data (after a barrier)";
  let arguments = (ins Blk_Barriers:$barriers);
  let assemblyFormat = "$barriers attr-dict `:` qualified(type($barriers))";
}

def Blk_MBarrierWaitOp : Blk_Op<"mbarrier_wait", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until mbarrier `index` completes the phase of parity `phase`";
  let description = [{
    Afterwards the data its TMA copy wrote is visible to this thread. With
    `issuer`, only the warp whose first thread issues TMA copies waits (for
    a slot's release before it copies into the slot again).
    Example: `blk.mbarrier_wait %bars[%slot], %phase : !blk.mbarriers<4>`
  }];
  let arguments = (ins Blk_Barriers:$barriers, I32:$index, I32:$phase, UnitAttr:$issuer);
  let assemblyFormat = "$barriers `[` $index `]` `,` $phase attr-dict `:` qualified(type($barriers))";
}

def Blk_MBarrierArriveOp : Blk_Op<"mbarrier_arrive", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Each warp arrives once on mbarrier `index` where `pred` holds";
  let description = [{
    The warp's reads of what the barrier guards are done (its wgmma dots
    that read a ring slot were waited for): with one arrival per warp the
    barrier's phase completes and the slot may be written again.
    Example: `blk.mbarrier_arrive %empty[%slot] if %p : !blk.mbarriers<4>`
  }];
  let arguments = (ins Blk_Barriers:$barriers, I32:$index, I1:$pred);
  let assemblyFormat = "$barriers `[` $index `]` `if` $pred attr-dict `:` qualified(type($barriers))";
}

def Blk_WarpGroupTurnOp : Blk_Op<"warp_group_turn", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Warpgroups take turns issuing wgmma (ping-pong), on named barriers 1..N";
  let description = [{
    Each warpgroup issues its dots of an iteration while the others run
    their non-tensor work (attention's softmax), in round-robin order:
    `take` waits for this warpgroup's turn (bar.sync on barrier 1 + w, 256
    threads), `pass` hands it to the next warpgroup (bar.arrive on barrier
    1 + (w + 1) % N), where w is the warpgroup's index and N the number of
    warpgroups. In front of the loop `open` gives the first turn to
    warpgroup 0 (the last warpgroup arrives on barrier 1), and after it
    `close` takes the last hand-over back (warpgroup 0 waits on barrier 1),
    so that every arrival is matched. Needs 8 or more warps, a multiple of 4.
    Example: `blk.warp_group_turn "take"`
  }];
  let arguments = (ins StrAttr:$step);
  let assemblyFormat = "$step attr-dict";
  let hasVerifier = 1;
}

def Blk_ProducerWarpOp : Blk_Op<"producer_warp", [Pure]> {
  let summary = "Whether this thread belongs to the kernel's producer warpgroup";
  let description = [{
    A warp-specialized kernel (`blk.producer_warps` on the function, set by
    `blk-pipeline-dot`) runs `blk.num_warps` consumer warps and a producer
    warpgroup of 4 more warps after them. Its body is one `scf.if` on this
    value: the producer branch issues a loop's TMA copies, the other branch
    is the kernel as the consumers run it. Example: `%p = blk.producer_warp`
  }];
  let results = (outs I1:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Blk_SetMaxRegistersOp : Blk_Op<"set_max_registers", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Raise or lower this warpgroup's registers per thread (setmaxnreg)";
  let description = [{
    The first op of a branch of a warp-specialized kernel: the producer
    warpgroup gives up registers that the consumer warpgroups take. Every
    warp of a warpgroup runs it; `registers` is a multiple of 8 from 24 to
    256. Example: `blk.set_max_registers 232 increase`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<24>, IntMaxValue<256>]>:$registers, UnitAttr:$increase);
  let assemblyFormat = "$registers (`increase` $increase^)? attr-dict";
  let hasVerifier = 1;
}

def Blk_AsyncTMACopyOp : Blk_Op<"async_tma_copy", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Start a TMA copy of a descriptor's block at `offsets` into one slot of a ring";
  let description = [{
    One thread issues cp.async.bulk.tensor (one box per 128-byte chunk of
    the ring's swizzled arrangement, zeros outside the tensor) and arms the
    slot's mbarrier with the bytes to expect; nothing is issued where `pred`
    is false. The copy has landed when that mbarrier completes its phase.
    The descriptor's block is 2-D after any leading dimensions of size 1
    (the batch and head of a batched tensor: one offset each).
    With `after_stores`, the thread that issues TMA stores issues the copy,
    once its stores have read shared memory (as `blk.tma_store_wait`): the
    copy may land in a buffer a TMA store still reads.
    Example: `blk.async_tma_copy %d[%m, %k] into %ring[%s], %bars if %p : !blk.tensordesc<[128, 64], bf16>, !blk.smem<[4, 128, 64], bf16, contig = 1>, !blk.mbarriers<4>`
  }];
  let arguments = (ins Blk_TensorDesc:$desc, Variadic<I32>:$offsets, Blk_SharedBuffer:$buffer, I32:$slot,
                       Blk_Barriers:$barriers, I1:$pred, UnitAttr:$after_stores);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `into` $buffer `[` $slot `]` `,` $barriers `if` $pred attr-dict `:` qualified(type($desc))
    `,` qualified(type($buffer)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def Blk_AsyncTMAStoreOp : Blk_Op<"async_tma_store", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Start a TMA copy of one slot of a shared buffer to a descriptor's block at `offsets`";
  let description = [{
    The issuing thread starts cp.async.bulk.tensor from shared memory to
    global memory (one box per 128-byte chunk of the buffer's swizzled
    arrangement; only the part of the block inside the tensor is written)
    and commits them as one bulk group. Every thread's writes of the slot
    must be fenced for the async proxy (`blk.fence_async_shared`) and
    ordered by a barrier before it; `blk.tma_store_wait` says when the slot
    may be written again.
    Example: `blk.async_tma_store %ring[%s] into %d[%m, %n] : !blk.smem<[1, 128, 256], bf16, contig = 1>, !blk.tensordesc<[128, 256], bf16>`
  }];
  let arguments = (ins Blk_SharedBuffer:$buffer, I32:$slot, Blk_TensorDesc:$desc, Variadic<I32>:$offsets);
  let assemblyFormat = [{
    $buffer `[` $slot `]` `into` $desc `[` $offsets `]` attr-dict `:` qualified(type($buffer)) `,` qualified(type($desc))
  }];
  let hasVerifier = 1;
}

def Blk_TMAStoreWaitOp : Blk_Op<"tma_store_wait", [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Wait until the issuing thread's TMA stores have read their shared memory";
  let description = [{
    cp.async.bulk.wait_group.read 0 on the thread that issues TMA copies:
    after it, and a barrier, the buffers the stores read may hold other
    data. The buffers are operands so that their memory stays theirs until
    here.
    Example: `blk.tma_store_wait %ring : !blk.smem<[1, 128, 256], bf16, contig = 1>`
  }];
  let arguments = (ins Variadic<Blk_SharedBuffer>:$buffers);
  let assemblyFormat = [{ ($buffers^ `:` qualified(type($buffers)))? attr-dict }];
}

#endif
