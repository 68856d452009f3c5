#ifndef BLK_ATTRS_TD
#define BLK_ATTRS_TD

include "blk/Dialect/Blk/IR/BlkDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Blk_BlockedLayoutAttr : AttrDef<Blk_Dialect, "BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "Tiling of a block over the registers, lanes and warps of a program";
  let description = [{
    Each thread holds `sizePerThread[d]` consecutive elements along dimension
    `d`; `threadsPerWarp` lanes and `warpsPerCTA` warps tile the block, dims
    enumerated fastest-first by `order`. When the block is larger than one
    tile the tiling repeats (a thread holds several chunks); when it is
    smaller, threads hold copies of the same elements, and only the first copy
    writes to memory.

    Example: `#blk.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>`
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
}

def Blk_SliceLayoutAttr : AttrDef<Blk_Dialect, "SliceLayout"> {
  let mnemonic = "slice";
  let summary = "The layout of a block that is `parent` with dimension `dim` removed";
  let description = [{
    Threads and registers are those of `parent` applied to the block with a
    dimension of size 1 inserted at `dim`. A reduction along `dim` produces it,
    and `x[:, None]` (expand_dims at `dim`) turns it back into `parent` without
    moving any data.

    Example: `#blk.slice<dim = 1, parent = #blocked>`
  }];
  let parameters = (ins "unsigned":$dim, "mlir::Attribute":$parent);
  let assemblyFormat = "`<` `dim` `=` $dim `,` `parent` `=` $parent `>`";
  let genVerifyDecl = 1;
}

def Blk_MmaLayoutAttr : AttrDef<Blk_Dialect, "MmaLayout"> {
  let mnemonic = "mma";
  let summary = "The accumulator layout of a tensor-core instruction, tiled over warps";
  let description = [{
    `version` 2: `mma.sync` with an `instrShape` of [16, 8, K] per warp (K: 8
    for tf32, 16 for f16/bf16, 32 for i8). In each 16x8 tile lane `l` holds
    row `l / 4` and `l / 4 + 8`, columns `2 * (l % 4)` and the next one.
    `warpsPerCTA` [wm, wn] tiles the block with wm x wn warp tiles; the tiling
    repeats (more registers) along N, then M, when the block is larger.

    Example: `#blk.mma<version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]>`
  }];
  let parameters = (ins "unsigned":$version, ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat = [{
    `<` `version` `=` $version `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `instrShape` `=` `[` $instrShape `]` `>`
  }];
  let genVerifyDecl = 1;
}

def Blk_DotOperandLayoutAttr : AttrDef<Blk_Dialect, "DotOperandLayout"> {
  let mnemonic = "dot_op";
  let summary = "The register layout of operand `opIdx` (0: A, 1: B) of a tensor-core instruction";
  let description = [{
    The fragments `mma.sync` reads: each 32-bit register packs `kWidth`
    consecutive elements along K (2 for f16/bf16, 4 for i8, 1 for tf32).
    A is split over the parent's warps along M (copies along N), B along N.

    Example: `#blk.dot_op<opIdx = 0, parent = #mma, kWidth = 2>`
  }];
  let parameters = (ins "unsigned":$opIdx, "mlir::Attribute":$parent, "unsigned":$kWidth);
  let assemblyFormat = "`<` `opIdx` `=` $opIdx `,` `parent` `=` $parent `,` `kWidth` `=` $kWidth `>`";
  let genVerifyDecl = 1;
}

#endif
