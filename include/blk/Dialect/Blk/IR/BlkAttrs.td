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

#endif
