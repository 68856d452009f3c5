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

def Blk_Ptr : Type<CPred<"::mlir::isa<::blk::PointerType>($_self)">, "blk pointer">;
def Blk_PtrLike : AnyTypeOf<[Blk_Ptr, RankedTensorOf<[Blk_Ptr]>]>;
def Blk_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;
def Blk_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Blk_Scalar : AnyTypeOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>;
def Blk_Value : AnyTypeOf<[Blk_Scalar, RankedTensorOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>]>;

#endif
