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

#endif
