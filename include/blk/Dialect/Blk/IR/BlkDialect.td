#ifndef BLK_DIALECT_TD
#define BLK_DIALECT_TD

include "mlir/IR/OpBase.td"

def Blk_Dialect : Dialect {
  let name = "blk";
  let cppNamespace = "::blk";
  let summary = "Block-level GPU kernels: programs that compute on whole blocks of values";
  let description = [{
    A `blk` kernel is run by a grid of programs. Each program computes on
    blocks (ranked tensors whose sizes are powers of two) and scalars. Scalar
    and elementwise arithmetic use `arith` and `math` (which accept tensors),
    control flow uses `scf`. Layout attributes on tensor types say how the
    elements of a block are spread over the registers, lanes and warps of a
    program; they are assigned by `blk-assign-layouts`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect", "mlir::func::FuncDialect"];
}

class Blk_Op<string mnemonic, list<Trait> traits = []>
    : Op<Blk_Dialect, mnemonic, traits>;

#endif
