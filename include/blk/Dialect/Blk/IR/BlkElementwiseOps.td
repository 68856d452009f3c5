// Elementwise ops with no arith/math counterpart: libdevice functions the
// math dialect does not name (erfinv, ...) and inline PTX per element.
#ifndef BLK_ELEMENTWISE_OPS_TD
#define BLK_ELEMENTWISE_OPS_TD

def Blk_FloatLike : AnyTypeOf<[AnyFloat, RankedTensorOf<[AnyFloat]>]>;

def Blk_ExternElementwiseOp : Blk_Op<"extern_elementwise", [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "A libdevice function applied to each element";
  let description = [{
    `symbol` is a libdevice function of LibDevice.h's table (`__nv_erfinvf`
    on f32, `__nv_erfinv` on f64); the lowering calls it per element and the
    interpreter evaluates the same function in float64.
    Example: `%y = blk.extern_elementwise "__nv_erfinvf"(%x) : tensor<128xf32>`
  }];
  let arguments = (ins StrAttr:$symbol, Variadic<Blk_FloatLike>:$srcs);
  let results = (outs Blk_FloatLike:$result);
  let assemblyFormat = "$symbol `(` $srcs `)` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Blk_InlineAsmElementwiseOp : Blk_Op<"inline_asm_elementwise", [
    Elementwise, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Inline PTX run on each element, or on each `packed_element` elements";
  let description = [{
    Triton's `inline_asm_elementwise`: `asm_string` runs once per group of
    `packed_element` elements a thread holds. Each value takes
    registersPerValue() registers per run: values narrower than 32 bits
    travel packed, as many to a 32-bit register as the group holds; wider
    ones one element to a register. Registers are numbered results first,
    then arguments, in order, and `constraints` names one per register (and
    any `~{...}` clobbers after them). Not `pure`: it reads and writes memory
    and stays where it is. The interpreter cannot run it.
    Example: `%y = blk.inline_asm_elementwise "mov.b32 $0, $1;", "=r,r"(%x) {packed_element = 1 : i32, pure = true} : (tensor<128xi32>) -> tensor<128xi32>`
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints, BoolAttr:$pure, I32Attr:$packed_element,
                       Variadic<Blk_Value>:$args);
  let results = (outs Variadic<Blk_Value>:$results);
  let assemblyFormat = "$asm_string `,` $constraints `(` $args `)` attr-dict `:` functional-type($args, $results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Elements of `bits` bits one register holds in a run of `pack`.
    static unsigned elementsPerRegister(unsigned bits, unsigned pack);
    /// Registers one run of `pack` elements of `bits` bits takes.
    static unsigned registersPerValue(unsigned bits, unsigned pack);
    /// The register constraints of `constraints` (clobbers `~{...}` left out).
    static ::llvm::SmallVector<::llvm::StringRef> registerConstraints(::llvm::StringRef constraints);
  }];
}

#endif
