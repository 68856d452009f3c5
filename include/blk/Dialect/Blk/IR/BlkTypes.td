#ifndef BLK_TYPES_TD
#define BLK_TYPES_TD

include "blk/Dialect/Blk/IR/BlkDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Blk_PtrType : TypeDef<Blk_Dialect, "Pointer"> {
  let mnemonic = "ptr";
  let summary = "A pointer into global memory to elements of `pointeeType`";
  let description = [{
    Pointer arithmetic (`blk.addptr`) counts in elements of the pointee type.
    Example: `!blk.ptr<f32>`; a block of pointers is `tensor<128x!blk.ptr<f32>>`.
  }];
  let parameters = (ins "mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
}

def Blk_SharedBufferType : TypeDef<Blk_Dialect, "SharedBuffer"> {
  let mnemonic = "smem";
  let summary = "A ring of `slots` 2-D tiles in shared memory, swizzled for tensor cores";
  let description = [{
    Each slot holds a `rows` x `cols` tile of `elementType` whose dimension
    `contig` (0 or 1) is contiguous: the tile is stored in chunks of W bytes
    along that dimension (W = 128, 64 or 32: the smaller of 128 and a line),
    each chunk a column of lines with the 16-byte units of line r XOR-ed by
    bits 7.. of r * W (the hardware's 128B/64B/32B swizzle modes). ldmatrix
    reads and wgmma descriptors use the same arrangement; slots are 1024-byte
    aligned (the arrangement: lib/Conversion/BlkToLLVM/SharedRing.h). Example: `!blk.smem<[3, 128, 64], bf16, contig = 1>`

    A ring only threads read and write (no wgmma, TMA or ldmatrix) may
    instead be arranged for them: `xor = [t0, s0, t1, s1, ...]` stores
    element `pos` of line `line` at index `line * length + pos` of the slot
    (length: the tile's extent along `contig`) with bit `t` of the index
    flipped where its bit `s` (above `t`) is set, so that both the copies
    into the ring and the reads out of it miss each other's banks where the
    tensor-core arrangement would not. `xor = []` flips nothing: lines one
    after another, where neither side meets itself in banks; a register's
    address is then its thread's plus a constant. Examples:
    `!blk.smem<[2, 128, 128], f32, contig = 1, xor = [4, 7]>`,
    `!blk.smem<[3, 1024, 16], i32, contig = 0, xor = []>`
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "mlir::Type":$elementType, "unsigned":$contig,
                        "bool":$threadArranged, OptionalArrayRefParameter<"int64_t">:$xors);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    TypeBuilder<(ins "llvm::ArrayRef<int64_t>":$shape, "mlir::Type":$elementType, "unsigned":$contig), [{
      return $_get($_ctxt, shape, elementType, contig, false, llvm::ArrayRef<int64_t>{});
    }]>,
    /// A ring arranged for threads, its index's bits flipped by `xors`.
    TypeBuilder<(ins "llvm::ArrayRef<int64_t>":$shape, "mlir::Type":$elementType, "unsigned":$contig,
                     "llvm::ArrayRef<int64_t>":$xors), [{
      return $_get($_ctxt, shape, elementType, contig, true, xors);
    }]>
  ];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getSlots() const { return getShape()[0]; }
    /// The tile's shape (one slot).
    llvm::ArrayRef<int64_t> getTileShape() const { return getShape().drop_front(); }
    int64_t getElementBytes() const { return getElementType().getIntOrFloatBitWidth() / 8; }
    /// Bytes of one slot.
    int64_t getSlotBytes() const { return getShape()[1] * getShape()[2] * getElementBytes(); }
    /// The swizzle width of tiles whose lines (along the contiguous
    /// dimension) take `lineBytes`: the line, up to 128 bytes (the
    /// hardware's 32B, 64B and 128B swizzles; longer lines split into
    /// 128-byte chunks). Rings and ldmatrix tiles alike.
    static int64_t swizzleBytes(int64_t lineBytes) { return std::min<int64_t>(lineBytes, 128); }
    /// The byte offset of tile element `coords` in a slot (what the
    /// lowering computes at run time: SharedRing::byteOffset), for costs
    /// decided at compile time.
    int64_t tileByteOffset(llvm::ArrayRef<int64_t> coords) const;
    /// Whether the ring is arranged for threads (an `xor` list, maybe
    /// empty) rather than for tensor cores.
    bool isThreadArranged() const { return getThreadArranged(); }
    /// Elements of a line of the thread arrangement that stay next to each
    /// other (below its lowest flipped bit).
    int64_t threadRunElements() const;
  }];
}

def Blk_TensorDescType : TypeDef<Blk_Dialect, "TensorDesc"> {
  let mnemonic = "tensordesc";
  let summary = "A strided tensor in global memory read and written in blocks of `blockShape`";
  let description = [{
    Made by `blk.make_tensor_descriptor` (a base pointer, the tensor's shape
    and strides, the last stride 1); `blk.descriptor_load` reads the block at
    given offsets with zeros outside the tensor, `blk.descriptor_store`
    writes the part inside it. On sm_90 a descriptor whose base, shape and
    strides are kernel parameters or constants becomes a TMA tensor map,
    built on the host at launch and passed as a hidden kernel parameter.
    Example: `!blk.tensordesc<[128, 64], bf16>`
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$blockShape, "mlir::Type":$elementType);
  let assemblyFormat = "`<` `[` $blockShape `]` `,` $elementType `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getBlockShape().size(); }
    /// The tensor type of one block.
    mlir::RankedTensorType getBlockType() const {
      return mlir::RankedTensorType::get(getBlockShape(), getElementType());
    }
  }];
}

def Blk_BarriersType : TypeDef<Blk_Dialect, "Barriers"> {
  let mnemonic = "mbarriers";
  let summary = "`count` mbarriers in shared memory, one per ring slot";
  let description = [{
    Each completes a phase when its slot's TMA copy has landed (one arrival
    with the copy's byte count as the expected transaction). Example:
    `!blk.mbarriers<4>`
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
}

def Blk_Ptr : Type<CPred<"::mlir::isa<::blk::PointerType>($_self)">, "blk pointer">;
def Blk_PtrLike : AnyTypeOf<[Blk_Ptr, RankedTensorOf<[Blk_Ptr]>]>;
def Blk_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;
def Blk_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Blk_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>;
def Blk_Value : AnyTypeOf<[Blk_Scalar, RankedTensorOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>]>;

#endif
