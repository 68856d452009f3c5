#ifndef BLK_OPS_TD
#define BLK_OPS_TD

include "blk/Dialect/Blk/IR/BlkDialect.td"
include "blk/Dialect/Blk/IR/BlkTypes.td"
include "blk/Dialect/Blk/IR/BlkAttrs.td"
include "blk/Dialect/Blk/IR/BlkEnums.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Program identity
//===----------------------------------------------------------------------===//

def Blk_ProgramIdOp : Blk_Op<"program_id", [Pure]> {
  let summary = "Index of this program in the grid along `axis` (0, 1 or 2)";
  let description = [{
    Example: `%pid = blk.program_id 0 : i32`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Blk_NumProgramsOp : Blk_Op<"num_programs", [Pure]> {
  let summary = "Number of programs in the grid along `axis` (0, 1 or 2)";
  let description = [{
    Example: `%n = blk.num_programs 0 : i32`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Block construction
//===----------------------------------------------------------------------===//

def Blk_ArangeOp : Blk_Op<"arange", [Pure]> {
  let summary = "The block [start, end) of consecutive i32 values";
  let description = [{
    `end - start` must be a power of two and equal to the block's size.
    Example: `%r = blk.arange 0, 1024 : tensor<1024xi32>`
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Blk_SplatOp : Blk_Op<"splat", [Pure]> {
  let summary = "A block whose every element is the scalar `src`";
  let description = [{
    Example: `%b = blk.splat %x : f32 -> tensor<1024xf32>`
  }];
  let arguments = (ins Blk_Scalar:$src);
  let results = (outs RankedTensorOf<[AnySignlessInteger, AnyFloat, Blk_Ptr]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_ExpandDimsOp : Blk_Op<"expand_dims", [Pure]> {
  let summary = "Insert a dimension of size 1 at `axis` (`x[:, None]`)";
  let description = [{
    Example: `%c = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>`
  }];
  let arguments = (ins AnyRankedTensor:$src, I32Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_BroadcastOp : Blk_Op<"broadcast", [Pure]> {
  let summary = "Repeat a block along its dimensions of size 1";
  let description = [{
    Each dimension of the result equals the source's, or the source's is 1.
    Example: `%b = blk.broadcast %c : tensor<64x1xi32> -> tensor<64x128xi32>`
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_ConvertLayoutOp : Blk_Op<"convert_layout", [Pure]> {
  let summary = "The same block in another layout";
  let description = [{
    Moves elements between threads, through shared memory when they change
    lanes or warps. Layout assignment inserts it where two layouts meet.
    Example: `%y = blk.convert_layout %x : tensor<128xf32, #slice> -> tensor<128xf32, #blocked>`
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_ReshapeOp : Blk_Op<"reshape", [Pure]> {
  let summary = "The elements of a block, in row-major order, as a block of another shape";
  let description = [{
    Example: `%y = blk.reshape %x : tensor<8x16xf32> -> tensor<128xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_TransOp : Blk_Op<"trans", [Pure]> {
  let summary = "The transpose of a 2-D block";
  let description = [{
    Element (i, j) of the result is element (j, i) of the source.
    Example: `%y = blk.trans %x : tensor<8x16xf32> -> tensor<16x8xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_PermuteOp : Blk_Op<"permute", [Pure]> {
  let summary = "A block of 3 or more dimensions with its dimensions in another order";
  let description = [{
    Dimension d of the result is dimension `order[d]` of the source: element
    c of the result is the source element whose coordinate `order[d]` is
    c[d] for every d. A 2-D permutation is `blk.trans`; blocks of 3
    dimensions run on the interpreter only.
    Example: `%y = blk.permute %x {order = array<i64: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$src, DenseI64ArrayAttr:$order);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_GatherOp : Blk_Op<"gather", [Pure]> {
  let summary = "Elements of a block picked along `axis` by a block of indices";
  let description = [{
    The result has the shape (and the layout) of `index` and the element
    type of `src`; `index` matches `src` in every dimension but `axis`. For
    2-D blocks and `axis` 0, result[i][j] = src[index[i][j]][j]. An index
    outside [0, size of `axis`) is undefined: the interpreter stops with an
    error, the GPU lowering reads the index modulo that size. Lowered
    through shared memory: each thread writes the source elements it owns
    at their row-major positions and, after a barrier, reads the elements
    its indices name.
    Example: `%y = blk.gather %x[%i] {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> tensor<64xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$src, AnyRankedTensor:$index, I32Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` type($src) `,` type($index) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_SortOp : Blk_Op<"sort", [Pure]> {
  let summary = "A bitonic sort along the last dimension (sort, topk, bitonic_merge)";
  let description = [{
    Sorts each row along the last dimension, whose size is a power of two,
    by Triton's bitonic network: stage s (1 .. log2 n) merges runs of 2^s
    elements, ascending where bit s of an element's position is clear and
    descending where it is set (the last stage in the result's order), with
    compare-exchanges at distances 2^(s-1) .. 1. An exchange swaps the pair
    when `lower > upper` (ordered, signed unless `is_unsigned`) differs from
    the run's descending flag, so NaNs stay where the network leaves them
    and the GPU and the interpreter give the same bits. `merge_only` runs
    only the last stage (Triton's `bitonic_merge`: the rows must already be
    bitonic). A result whose last dimension k is smaller than the source's
    keeps the first k elements of each sorted row (`topk`).
    Lowered on the source's layout: exchanges between registers of a
    thread are selects, between lanes shuffles, between warps go through
    shared memory, as does the cut to k elements.
    Example: `%y = blk.sort %x {descending} : tensor<64x128xf32> -> tensor<64x8xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$src, UnitAttr:$descending, UnitAttr:$is_unsigned, UnitAttr:$merge_only);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Blk_DotOp : Blk_Op<"dot", [Pure]> {
  let summary = "acc + a @ b for 2-D blocks";
  let description = [{
    `a` is [M, K], `b` [K, N], `acc` and the result [M, N]. Floats multiply in
    f32 with f32 accumulation; f16/bf16 inputs are exact in f32. f32 inputs
    follow `input_precision`: "ieee" multiplies them exactly (one fused
    multiply-add per k, on CUDA cores), "tf32" first rounds each to tf32 (10
    mantissa bits, to nearest, ties away from zero: `cvt.rna.tf32.f32`) and
    multiplies on tensor cores. fp8 (f8E4M3FN, f8E5M2, either with either)
    multiplies exactly into f32. Integers (i8) accumulate in i32. `mma`, set
    by `blk-accelerate-dot`, is the tensor-core tiling layout assignment gives
    the accumulator.
    Example: `%c = blk.dot %a, %b, %acc : tensor<64x32xbf16>, tensor<32x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, AnyRankedTensor:$acc,
                       OptionalAttr<Blk_MmaLayoutAttr>:$mma,
                       DefaultValuedStrAttr<StrAttr, "ieee">:$input_precision);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Blk_ReduceOp : Blk_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "Combine the elements of blocks along `axis`";
  let description = [{
    The region combines two partial results, each one element of every
    operand, into one (2N arguments, N results); it must be associative. The
    order of combination is fixed for a given layout. A 1-D block reduces to a
    scalar; otherwise the result drops dimension `axis` (in the source's layout
    sliced along `axis`). Several operands reduce together, as (value, index)
    does for argmax.

    Example:
    ```
    %s = blk.reduce %x {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      blk.reduce.return %c : f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Blk_Value>:$results);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $results) $combine";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Blk_ScanOp : Blk_Op<"scan", [Pure, SingleBlock]> {
  let summary = "Inclusive prefix combination of blocks along `axis`";
  let description = [{
    Element i along `axis` of the result combines elements 0..i of the
    source (cumsum, cumprod), or i..n-1 with `reverse`; the region combines
    two partial results, each one element of every operand (2N arguments, N
    results), and must be associative; the partial of lower indices is its
    first N arguments. Several operands of one shape scan together (as the
    tuples of `associative_scan` do).
    Example:
    ```
    %s = blk.scan %x {axis = 0 : i32} : tensor<1024xf32> -> tensor<1024xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      blk.reduce.return %c : f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$srcs, I32Attr:$axis, UnitAttr:$reverse);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$combine);
  let assemblyFormat = "$srcs attr-dict `:` type($srcs) `->` type($results) $combine";
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Blk_ReduceReturnOp : Blk_Op<"reduce.return", [Pure, ParentOneOf<["ReduceOp", "ScanOp"]>, Terminator,
                                                   ReturnLike]> {
  let summary = "The combined partial result of a reduction or scan";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict `:` type($results)";
}

def Blk_BarrierOp : Blk_Op<"barrier"> {
  let summary = "Wait until every thread of the program arrives (bar.sync 0)";
  let description = [{
    Placed by `blk-insert-barriers` between shared-memory accesses that could
    race. Example: `blk.barrier`
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Blk_AddPtrOp : Blk_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Pointer plus an offset counted in elements of the pointee type";
  let description = [{
    Scalar or elementwise over a block; the offset has the pointer's shape.
    Example: `%q = blk.addptr %p, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>`
  }];
  let arguments = (ins Blk_PtrLike:$ptr, Blk_IntLike:$offset);
  let results = (outs Blk_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Blk_PtrToIntOp : Blk_Op<"ptr_to_int", [Pure, Elementwise]> {
  let summary = "A pointer's address as a 64-bit integer";
  let description = [{
    Scalar or elementwise over a block (Triton's `ptr.to(tl.int64)`).
    Example: `%a = blk.ptr_to_int %p : tensor<128x!blk.ptr<f32>> -> tensor<128xi64>`
  }];
  let arguments = (ins Blk_PtrLike:$src);
  let results = (outs Blk_IntLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_IntToPtrOp : Blk_Op<"int_to_ptr", [Pure, Elementwise]> {
  let summary = "The pointer at a 64-bit address";
  let description = [{
    Scalar or elementwise over a block (Triton's
    `x.to(tl.pointer_type(T))` of an int64): an address from a table of
    pointers (a grouped matmul's operands), or a pointer's address after
    integer arithmetic.
    Example: `%p = blk.int_to_ptr %a : tensor<128xi64> -> tensor<128x!blk.ptr<f32>>`
  }];
  let arguments = (ins Blk_IntLike:$src);
  let results = (outs Blk_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_LoadOp : Blk_Op<"load", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Load from global memory through a pointer or a block of pointers";
  let description = [{
    Where `mask` is false the element is not read and takes `other` (undefined
    when there is no `other`). `vec` is the widest access, in elements, that
    `blk-vectorize-memory` proved safe: contiguous, aligned and under one mask
    value. `vec_dim` is the dimension along which addresses are contiguous
    when it is not the last (a column of a row-major matrix); absent, the
    last.
    Example:
    `%x = blk.load %p, %m, %o {vec = 4 : i32} : (tensor<1024x!blk.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>`
  }];
  let arguments = (ins Blk_PtrLike:$ptr, Optional<Blk_BoolLike>:$mask,
                       Optional<Blk_Value>:$other,
                       DefaultValuedAttr<I32Attr, "1">:$vec,
                       OptionalAttr<I32Attr>:$vec_dim,
                       DefaultValuedAttr<Blk_EvictionPolicy, "::blk::EvictionPolicy::Normal">:$evict);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The dimension along which `vec` elements are contiguous.
    unsigned getAccessDim() { return ::blk::accessDim(getPtr().getType(), getVecDim()); }
  }];
  let hasVerifier = 1;
}

def Blk_StoreOp : Blk_Op<"store", [
    MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Store to global memory through a pointer or a block of pointers";
  let description = [{
    Elements where `mask` is false are not written. `vec` and `vec_dim` as
    for `blk.load`.
    Example: `blk.store %p, %v, %m {vec = 4 : i32} : (tensor<1024x!blk.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>) -> ()`
  }];
  let arguments = (ins Blk_PtrLike:$ptr, Blk_Value:$value, Optional<Blk_BoolLike>:$mask,
                       DefaultValuedAttr<I32Attr, "1">:$vec,
                       OptionalAttr<I32Attr>:$vec_dim,
                       DefaultValuedAttr<Blk_EvictionPolicy, "::blk::EvictionPolicy::Normal">:$evict);
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The dimension along which `vec` elements are contiguous.
    unsigned getAccessDim() { return ::blk::accessDim(getPtr().getType(), getVecDim()); }
  }];
  let hasVerifier = 1;
}

def Blk_AtomicRMWOp : Blk_Op<"atomic_rmw", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Atomic read-modify-write of global memory; returns the old values";
  let description = [{
    Each element where `mask` holds applies `kind` with `value` to the memory
    at its pointer, atomically, once per element however many threads hold a
    copy of it. The result holds the values memory had before (unspecified
    where the mask is false). `max`/`min` order signed integers and floats,
    `umax`/`umin` unsigned integers. `vec` and `vec_dim` as for `blk.load`:
    float adds of `vec` contiguous elements under one mask may be one vector
    atomic where the target has them (sm_90); each element stays atomic on
    its own.
    Example:
    `%old = blk.atomic_rmw add, acq_rel, gpu %p, %v, %m : (tensor<128x!blk.ptr<f32>>, tensor<128xf32>, tensor<128xi1>) -> tensor<128xf32>`
  }];
  let arguments = (ins Blk_AtomicRMWKind:$kind, Blk_MemSemantic:$sem, Blk_MemScope:$scope,
                       Blk_PtrLike:$ptr, Blk_Value:$value, Optional<Blk_BoolLike>:$mask,
                       DefaultValuedAttr<I32Attr, "1">:$vec,
                       OptionalAttr<I32Attr>:$vec_dim);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = [{
    $kind `,` $sem `,` $scope $ptr `,` $value (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// The dimension along which `vec` elements are contiguous.
    unsigned getAccessDim() { return ::blk::accessDim(getPtr().getType(), getVecDim()); }
    /// Float adds, the read-modify-writes PTX has vector forms of.
    bool hasVectorForm() {
      ::mlir::Type elem = ::mlir::getElementTypeOrSelf(getValue().getType());
      return getKind() == ::blk::AtomicRMWKind::Add && (elem.isF32() || elem.isF16() || elem.isBF16());
    }
  }];
  let hasVerifier = 1;
}

def Blk_AtomicCASOp : Blk_Op<"atomic_cas", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Atomic compare-and-swap of global memory; returns the old values";
  let description = [{
    Each element writes `value` where memory equals `cmp`, atomically, once
    per element; the result holds the values memory had before.
    Example:
    `%old = blk.atomic_cas acq_rel, gpu %p, %cmp, %v : (!blk.ptr<i32>, i32, i32) -> i32`
  }];
  let arguments = (ins Blk_MemSemantic:$sem, Blk_MemScope:$scope, Blk_PtrLike:$ptr, Blk_Value:$cmp,
                       Blk_Value:$value);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = [{
    $sem `,` $scope $ptr `,` $cmp `,` $value attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Blk_AtomicLoadOp : Blk_Op<"atomic_load", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Atomic load from global memory with an ordering (acquire or relaxed)";
  let description = [{
    Each element where `mask` holds is read atomically, once per element
    however many threads hold a copy of it, so that every copy sees the same
    value; unspecified where the mask is false. With `acquire`, the loads
    and stores that follow see what the writer released before the value was
    stored. Declared as writing memory too: no pass moves other memory
    accesses across it, merges it or hoists it out of a loop.
    Example:
    `%f = blk.atomic_load acquire, gpu %p : (!blk.ptr<i32>) -> i32`
  }];
  let arguments = (ins Blk_MemSemantic:$sem, Blk_MemScope:$scope, Blk_PtrLike:$ptr,
                       Optional<Blk_BoolLike>:$mask);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = [{
    $sem `,` $scope $ptr (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Blk_AtomicStoreOp : Blk_Op<"atomic_store", [
    MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Atomic store to global memory with an ordering (release or relaxed)";
  let description = [{
    Each element where `mask` holds is written atomically, once per element.
    With `release`, the loads and stores before it are visible to a reader
    that acquires the value.
    Example:
    `blk.atomic_store release, gpu %p, %v : (!blk.ptr<i32>, i32) -> ()`
  }];
  let arguments = (ins Blk_MemSemantic:$sem, Blk_MemScope:$scope, Blk_PtrLike:$ptr, Blk_Value:$value,
                       Optional<Blk_BoolLike>:$mask);
  let assemblyFormat = [{
    $sem `,` $scope $ptr `,` $value (`,` $mask^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hints and debugging
//===----------------------------------------------------------------------===//

def Blk_AssumeOp : Blk_Op<"assume", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "The value of `src`, with facts the user promises about it";
  let description = [{
    Made by `multiple_of(x, d)` (every element is a multiple of `divisibility`),
    `max_contiguous(x, c)` (runs of `contiguity` consecutive values) and
    `max_constancy(x, c)` (runs of `constancy` equal values).
    Only the axis analysis reads it; it lowers to nothing.
    Example: `%y = blk.assume %x {divisibility = 16 : i64} : tensor<1024xi32>`
  }];
  let arguments = (ins Blk_Value:$src, OptionalAttr<I64Attr>:$divisibility,
                       OptionalAttr<I64Attr>:$contiguity, OptionalAttr<I64Attr>:$constancy);
  let results = (outs Blk_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def Blk_PrintOp : Blk_Op<"print", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Print scalars and every element of blocks from the device";
  let description = [{
    Each element is printed on its own line with the program id and its index.
    `unsigned_args`, when present, says which arguments hold unsigned integers
    (printed from 0 up instead of with a sign).
    Example: `blk.print "x = " %x : tensor<128xf32>`
  }];
  let arguments = (ins StrAttr:$prefix, Variadic<Blk_Value>:$args, OptionalAttr<DenseBoolArrayAttr>:$unsigned_args);
  let assemblyFormat = "$prefix ($args^ `:` type($args))? attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether argument `i` holds unsigned integers.
    bool isUnsignedArg(unsigned i) {
      auto flags = getUnsignedArgs();
      return flags && i < flags->size() && (*flags)[i];
    }
  }];
}

def Blk_AssertOp : Blk_Op<"assert", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Stop the kernel with `message` where `condition` is false";
  let description = [{
    Example: `blk.assert %ok, "index out of range" : tensor<128xi1>`
  }];
  let arguments = (ins Blk_BoolLike:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Blk_TensorDesc : Type<CPred<"::mlir::isa<::blk::TensorDescType>($_self)">, "blk tensor descriptor",
                            "::blk::TensorDescType">;

def Blk_MakeTensorDescriptorOp : Blk_Op<"make_tensor_descriptor", [Pure, SameVariadicOperandSize]> {
  let summary = "Describe a strided tensor at `base` for block loads and stores";
  let description = [{
    `shape` (i32) and `strides` (i64, in elements) list the tensor's
    dimensions outermost first; the last stride is 1. The base is 16-byte
    aligned and the other strides span multiples of 16 bytes (checked at
    launch where the descriptor becomes a TMA tensor map).
    Example: `%d = blk.make_tensor_descriptor %A, [%M, %K], [%sm, %c1] : !blk.ptr<bf16> -> !blk.tensordesc<[128, 64], bf16>`
  }];
  let arguments = (ins Blk_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides);
  let results = (outs Blk_TensorDesc:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Blk_DescriptorLoadOp : Blk_Op<"descriptor_load", [MemoryEffects<[MemRead<DefaultResource>]>]> {
  let summary = "Load the block of a tensor descriptor at `offsets`; zeros outside the tensor";
  let description = [{
    Element (i, j) of the result is tensor element (offsets[0] + i,
    offsets[1] + j), or zero where that lies outside the tensor. The result
    may leave out leading block dimensions of size 1: a [1, 1, 64, 128]
    block of a [batch, heads, seq, D] tensor loads as 64x128, its first
    two offsets picking the batch and head.
    Example: `%a = blk.descriptor_load %d[%m, %k] : !blk.tensordesc<[128, 64], bf16> -> tensor<128x64xbf16>`
  }];
  let arguments = (ins Blk_TensorDesc:$desc, Variadic<I32>:$offsets);
  let results = (outs RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = "$desc `[` $offsets `]` attr-dict `:` qualified(type($desc)) `->` type($result)";
  let hasVerifier = 1;
}

def Blk_DescriptorStoreOp : Blk_Op<"descriptor_store", [MemoryEffects<[MemWrite<DefaultResource>]>]> {
  let summary = "Store a block at `offsets` of a tensor descriptor; elements outside the tensor are dropped";
  let description = [{
    The value may leave out leading block dimensions of size 1, as a
    `descriptor_load`'s result may.
    Example: `blk.descriptor_store %d[%m, %n], %c : !blk.tensordesc<[128, 256], bf16>, tensor<128x256xbf16>`
  }];
  let arguments = (ins Blk_TensorDesc:$desc, Variadic<I32>:$offsets,
                       RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$value);
  let assemblyFormat = "$desc `[` $offsets `]` `,` $value attr-dict `:` qualified(type($desc)) `,` type($value)";
  let hasVerifier = 1;
}

include "blk/Dialect/Blk/IR/BlkSharedOps.td"
include "blk/Dialect/Blk/IR/BlkElementwiseOps.td"

#endif
