// Internal to the frontend: the generator's values and its state.
#ifndef BLK_LIB_FRONTEND_GENERATOR_H
#define BLK_LIB_FRONTEND_GENERATOR_H

#include "blk/Dialect/Blk/IR/Dialect.h"
#include "blk/Frontend/MLIRGen.h"
#include "blk/Frontend/Parser.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace blk {

/// A value during generation: a compile-time constant (Python-like, folded
/// eagerly), a type, a string, an SSA value of a scalar or block type, a
/// tuple, or a block pointer (Triton's make_block_ptr: SSA values that
/// address a block, turned into pointers and masks where it is accessed).
struct TV {
  enum Kind { Invalid, Int, Float, Bool, None, DType, Str, Val, Tuple, BlockPtr } kind = Invalid;
  int64_t i = 0;
  double f = 0;
  mlir::Type type; // DType: the type; Val: unused (see value)
  std::string s;
  mlir::Value value;
  bool isUnsigned = false; // integers (and DType of integers) with u32/u64 semantics
  bool isU64 = false;       // Int: the value is uint64_t(i), in [2^63, 2^64) (only u64 holds it)
  std::vector<TV> elements; // Tuple: `a, b` (a helper's results, max with indices); BlockPtr: see below
  /// BlockPtr: the block's shape and Triton's `order` (fastest dimension
  /// first); `elements` are the base pointer, then per dimension the size
  /// (i64), the stride (i64) and the offset (i32), all SSA scalars.
  std::vector<int64_t> blockShape, order;

  static TV makeInt(int64_t v) { TV t; t.kind = Int; t.i = v; return t; }
  /// Integer constants span [-2^63, 2^64), what i64 and u64 hold together.
  static bool fitsConstant(__int128 v) { return v >= INT64_MIN && v <= __int128(UINT64_MAX); }
  /// An Int of a value that fitsConstant().
  static TV makeWideInt(__int128 v) {
    TV t = makeInt(int64_t(uint64_t(v)));
    t.isU64 = v > INT64_MAX;
    return t;
  }
  /// The value of an Int or Bool constant.
  __int128 wide() const { return isU64 ? __int128(uint64_t(i)) : __int128(i); }
  static TV makeFloat(double v) { TV t; t.kind = Float; t.f = v; return t; }
  static TV makeBool(bool v) { TV t; t.kind = Bool; t.i = v; return t; }
  static TV makeNone() { TV t; t.kind = None; return t; }
  static TV makeStr(std::string v) { TV t; t.kind = Str; t.s = std::move(v); return t; }
  static TV makeDType(mlir::Type ty, bool isUnsigned = false) {
    TV t; t.kind = DType; t.type = ty; t.isUnsigned = isUnsigned; return t;
  }
  static TV makeTuple(std::vector<TV> elements) { TV t; t.kind = Tuple; t.elements = std::move(elements); return t; }
  static TV makeVal(mlir::Value v, bool isUnsigned = false) {
    TV t; t.kind = Val; t.value = v; t.isUnsigned = isUnsigned; return t;
  }
  static TV makeBlockPtr(std::vector<TV> parts, std::vector<int64_t> blockShape, std::vector<int64_t> order) {
    TV t; t.kind = BlockPtr; t.elements = std::move(parts); t.blockShape = std::move(blockShape);
    t.order = std::move(order); return t;
  }
  size_t rank() const { return blockShape.size(); } // BlockPtr
  const TV &blockBase() const { return elements[0]; }
  const TV &blockSize(size_t d) const { return elements[1 + d]; }
  const TV &blockStride(size_t d) const { return elements[1 + rank() + d]; }
  const TV &blockOffset(size_t d) const { return elements[1 + 2 * rank() + d]; }
  explicit operator bool() const { return kind != Invalid; }
  bool isConst() const { return kind == Int || kind == Float || kind == Bool; }
  /// What a constexpr parameter may hold: a constant or a string.
  bool isConstexpr() const { return isConst() || kind == Str; }
  bool isVal() const { return kind == Val; }
  double asDouble() const { return kind == Float ? f : isU64 ? double(uint64_t(i)) : double(i); }
};

using Env = std::map<std::string, TV>;

// Flags in `env` while a loop body is generated (not names a program can
// write): the loop was left by `break`, the iteration by `continue`, the
// function by `return` (with its value), each an i1 or a constant.
inline constexpr const char *kLoopBroke = "%break";
inline constexpr const char *kLoopContinued = "%continue";
inline constexpr const char *kLoopReturned = "%return";
inline constexpr const char *kLoopReturnValue = "%retval";

/// The numpy broadcast of two shapes (right-aligned; size-1 dimensions
/// repeat); false when they do not broadcast.
bool broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b, llvm::SmallVectorImpl<int64_t> &out);

bool isAtomic(const std::string &name);
/// sum, xor_sum, reduce_or, max, min, argmax, argmin (Reductions.cpp).
bool isReduction(const std::string &name);
bool isRandom(const std::string &name);
bool isMathBuiltin(const std::string &name);
bool isDebugBuiltin(const std::string &name);
bool isTargetQuery(const std::string &name);
/// join, split, interleave, cat, flip, gather, zeros_like, swizzle2d (ShapeBuiltins.cpp).
bool isShapeBuiltin(const std::string &name);
/// The shape builtins that are also methods of blocks: x.split(), x.flip(dim), x.gather(index, axis).
bool isShapeMethod(const std::string &name);
/// expand_dims, ravel and view: functions and methods of blocks (ShapeBuiltins.cpp).
bool isShapeAlias(const std::string &name);
/// sort, topk, bitonic_merge (Sort.cpp).
bool isSortBuiltin(const std::string &name);
/// Builtins a combine function cannot call (they make blocks, touch memory or print).
bool isForbiddenInCombine(const std::string &name);

class Generator;
/// The integers of a list argument written in place (`[M, K]` or `(M, K)`),
/// each converted to `type`; `raw` gets them as written (TensorDescriptors.cpp).
bool genIntList(Generator &g, const ast::Expr &expr, mlir::Type type, const char *what,
                llvm::SmallVectorImpl<mlir::Value> &out, llvm::SmallVectorImpl<TV> *raw = nullptr);

/// The arguments of a builtin that reads its arguments itself, whose
/// parameters are `params`: positionally, then by keyword, each given once;
/// the first `skip` are already bound (a method's receiver). False after
/// an error (too many, an unknown or repeated keyword, one missing)
/// (TensorDescriptors.cpp).
bool bindParams(Generator &g, const ast::CallExpr &call, const char *fn, const std::vector<const char *> &params,
                size_t skip, std::vector<const ast::Expr *> &out);

/// `expr` generated, when it is a scalar pointer (the base of a tensor
/// descriptor or block pointer, `what`); an error otherwise (TensorDescriptors.cpp).
TV basePointer(Generator &g, const ast::Expr &expr, const char *what);

/// The block shape `expr` lists, written in place as a list of compile-time
/// integers (`example` shows one in the error otherwise); false after an
/// error (TensorDescriptors.cpp).
bool blockShape(Generator &g, const ast::Expr &expr, const char *example, llvm::SmallVectorImpl<int64_t> &block);

/// A kernel's launch arguments, in order: names (those of
/// ast::Param::argumentNames), types, and which integers are unsigned.
struct KernelArguments {
  std::vector<std::string> names;
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<bool> isUnsigned;
};

class Generator {
public:
  Generator(mlir::MLIRContext &ctx, const ast::File &file, const GenOptions &options);
  mlir::OwningOpRef<mlir::ModuleOp> run();

  // --- values and types (Types.cpp) ---
  std::string describe(const TV &v);
  std::string describe(mlir::Type t, bool isUnsigned = false);
  mlir::Type elementType(const TV &v);
  /// The type a constant takes on its own, as Triton's: an integer is i32 if
  /// it fits, else u32, i64, u64; a float f32 (f64 beyond f32's normal range).
  mlir::Type literalType(const TV &v, bool &isUnsigned);
  /// Triton's check of a constant operand against the type an operation
  /// computes in: an integer constant must fit it. Reports an error otherwise.
  bool constantFits(const TV &c, mlir::Type elem, bool isUnsigned, const ast::Loc &loc);
  llvm::ArrayRef<int64_t> shapeOf(const TV &v);
  /// Parses a type name (i32, bf16, ...); null when it is not one.
  mlir::Type typeFromName(llvm::StringRef name, bool &isUnsigned);
  /// The common element type of two operands under Triton's promotion rules
  /// (a constant adopts the other operand's type where it fits its kind).
  mlir::Type promote(const TV &a, const TV &b, bool &isUnsigned);
  /// `v` as an SSA value of element type `elem` and shape `shape` (splatting
  /// scalars, materializing constants, converting types).
  TV cast(const TV &v, mlir::Type elem, bool isUnsigned, llvm::ArrayRef<int64_t> shape, const ast::Loc &loc);
  TV convertElement(const TV &v, mlir::Type elem, bool isUnsigned, const ast::Loc &loc);
  /// `v` in f32 when it holds fp8 values (their arithmetic runs in f32 and
  /// rounds back); anything else as it is.
  TV widenFloat8(const TV &v, const ast::Loc &loc);
  TV broadcastTo(const TV &v, llvm::ArrayRef<int64_t> shape, const ast::Loc &loc);
  /// The shape two operands broadcast to; reports an error and returns false when they do not.
  bool broadcastShape(const TV &a, const TV &b, llvm::SmallVectorImpl<int64_t> &shape, const ast::Loc &loc);
  TV toBool(const TV &v, const ast::Loc &loc);

  // --- expressions (MLIRGen.cpp, Operators.cpp, Builtins.cpp) ---
  TV gen(const ast::Expr &e);
  /// `a, b` as a tuple of values; anything else as gen().
  TV genTupleOrValue(const ast::Expr &e);
  TV genBinary(const std::string &op, TV a, TV b, const ast::Loc &loc);
  TV genCompare(const std::string &op, TV a, TV b, const ast::Loc &loc);
  TV genUnary(const std::string &op, TV a, const ast::Loc &loc);
  TV genCall(const ast::CallExpr &call);
  TV genBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args,
                std::map<std::string, TV> &kwargs);
  /// Where argument `i` of a call of `builtin` was written: positionally or as
  /// a keyword (the call itself when it was not given).
  const ast::Loc &builtinArgLoc(const ast::CallExpr &call, const std::string &builtin, size_t i);
  /// Whether `v` is True or False; else an error at `l`: "`name` must be
  /// True or False, got ...".
  bool expectBool(const TV &v, const std::string &name, const ast::Loc &l);
  /// The keywords of a method call `x.method(...)` that takes only the bool
  /// keyword `name`: its value into `value`; false (and an error, `hint`
  /// after a wrong name's) otherwise.
  bool boolKeyword(const ast::CallExpr &call, const std::string &method, const char *name, const std::string &hint,
                   bool &value);
  TV genMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr);
  /// A block shape written as a list of compile-time integers ([BLOCK, 16])
  /// or one integer; `value` is `expr` already generated.
  bool genShape(const ast::Expr &expr, const TV &value, llvm::SmallVectorImpl<int64_t> &shape);
  /// trans(x) and reshape(x, shape) (functions and methods).
  TV genTrans(const TV &x, const ast::Loc &xLoc, const ast::Loc &callLoc);
  TV genReshape(const TV &x, llvm::ArrayRef<int64_t> shape, const ast::Loc &xLoc, const ast::Loc &shapeLoc,
                const ast::Loc &callLoc);
  /// Shape operations (ShapeBuiltins.cpp): the builtins isShapeBuiltin names.
  TV genShapeBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// x.split(), x.flip(dim), x.gather(index, axis).
  TV genShapeMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr, const TV &base);
  /// permute(input, *dims) and trans(input, *dims) (functions, or methods
  /// with `self` the block); reads its arguments itself.
  TV genPermute(const std::string &name, const ast::CallExpr &call, const TV *self, const ast::Loc *selfLoc);
  /// expand_dims(input, axis), ravel(x, can_reorder=False) and view(input,
  /// *shape) (functions, or methods with `self` the block): Triton's names
  /// for expand_dims and reshape; reads its arguments itself.
  TV genShapeAlias(const std::string &name, const ast::CallExpr &call, const TV *self, const ast::Loc *selfLoc);
  /// join(a, b) (and interleave's join): a new last dimension of size 2.
  TV genJoin(const std::string &name, TV a, TV b, const ast::CallExpr &call);
  /// split(a): the two halves of a block whose last dimension is 2.
  TV genSplit(const TV &a, const ast::CallExpr &call, const ast::Loc &aLoc);
  TV genFlip(const TV &x, const TV &dim, const ast::CallExpr &call, const ast::Loc &xLoc, const ast::Loc &dimLoc);
  /// gather(src, index, axis); `selfLoc` is where x of x.gather(...) was written, else null.
  TV genGather(const TV &src, TV index, const TV &axis, const ast::CallExpr &call, const ast::Loc *selfLoc);
  TV genCat(const TV &a, const TV &b, const TV &canReorder, const ast::CallExpr &call);
  /// histogram(input, num_bins, mask) (Histogram.cpp).
  TV genHistogram(const ast::CallExpr &call, std::vector<TV> &args);
  /// sort/topk/bitonic_merge (Sort.cpp): `args` are x, then topk's k, dim
  /// and descending; `selfLoc` is where x of x.sort(...) was written, else null.
  TV genSort(const std::string &name, const ast::CallExpr &call, const std::vector<TV> &args,
             const ast::Loc *selfLoc);
  /// x.sort(dim, descending).
  TV genSortMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr, const TV &base);
  /// x.to(T) where x or T is a pointer: addresses (i64) and pointers convert
  /// into each other, and pointers to other pointees.
  TV genAddressCast(const TV &x, const TV &dtype, const ast::Loc &xLoc, const ast::Loc &callLoc);
  /// x.to(dtype, bitcast=True): the same bits as another type of the same width.
  TV genBitcast(const TV &x, const TV &dtype, const ast::Loc &xLoc, const ast::Loc &callLoc);
  /// `x.to(dtype, ...)` and `cast(x, dtype, ...)`: a conversion, a bitcast, or a
  /// float narrowed toward zero (fp_downcast_rounding="rtz").
  TV genCast(const TV &x, const TV &dtype, bool bitcast, const TV &rounding, const ast::Loc &xLoc,
             const ast::Loc &roundingLoc, const ast::Loc &callLoc);
  TV genHelperCall(const ast::Function &fn, const ast::CallExpr &call, std::vector<TV> &args,
                   std::map<std::string, TV> &kwargs);
  TV genMath(const std::string &name, const TV &x, const ast::Loc &loc);
  /// sum/max/min/argmax/argmin of a block along `axis` (None: all of it).
  TV genReduction(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// Triton's softmax(x, dim, keep_dims, ieee_rounding), composed as Triton's
  /// standard library composes it (Reductions.cpp).
  TV genSoftmax(const ast::CallExpr &call, std::vector<TV> &args);
  /// cumsum/cumprod of a block along `axis`.
  TV genScan(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// reduce(input, axis, combine_fn, keep_dims) and associative_scan(input,
  /// axis, combine_fn, reverse) (CombineFunctions.cpp); `self` is x of
  /// x.reduce(...), else null. Reads its arguments itself.
  TV genCombineBuiltin(const std::string &name, const ast::CallExpr &call, const TV *self, const ast::Loc *selfLoc);
  /// The helper `fn` inlined on scalars as the combiner of a reduce or scan
  /// over `inputs`; `swapSides` passes the second partial first.
  bool genCombineRegion(mlir::Region &region, const ast::Function &fn, llvm::ArrayRef<TV> inputs, bool swapSides,
                        const ast::CallExpr &call, const ast::Loc &fnLoc);
  /// A reduction or scan axis (negative counts from the end) checked against
  /// `rank`; an error and nullopt otherwise.
  std::optional<int64_t> resolveAxis(const TV &axis, int64_t rank, const ast::Loc &l);
  /// `x` in f32/i32 when its elements are narrower (what sums accumulate in).
  TV widenForSum(const TV &x, const ast::Loc &l);
  /// The block a sum or cumsum `name` accumulates: `dtype`'s type when given
  /// (Triton's dtype=, the input converted first; f32, i32 or u32), else
  /// widenForSum's.
  TV sumInput(const std::string &name, const TV &x, const TV &dtype, const ast::Loc &l);
  /// atomic_* (Atomics.cpp): read-modify-write or compare-and-swap, old values returned.
  TV genAtomic(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  TV genDot(const ast::CallExpr &call, std::vector<TV> &args);
  /// rand/randn/randint/randint4x/rand4x/randn4x (Random.cpp): Triton's Philox.
  TV genRandom(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// Triton's pieces of them: philox, philox_impl, uint_to_uniform_float, pair_uniform_to_normal.
  TV genRandomParts(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// Random u32/u64 bits to f32 in [0, 1), as Triton's uint_to_uniform_float.
  TV uniformFromBits(const TV &bits, const ast::Loc &loc);
  /// Two uniforms to two normals by Box-Muller, as Triton's pair_uniform_to_normal
  /// (the second only when `both`; else the first twice).
  std::pair<TV, TV> normalPair(const TV &u1, const TV &u2, bool both, const ast::Loc &loc);
  /// clamp, umulhi, fdiv, sqrt_rn and the libdevice functions (MathBuiltins.cpp).
  TV genMathBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// `build` on the operands in the float type they compute in (integers and
  /// narrow floats in f32, rounding back); constants fold with `fold`.
  TV genFloatMath(const std::string &name, std::vector<TV> xs, const ast::CallExpr &call,
                  double (*fold)(const double *),
                  llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> build);
  TV genUmulhi(TV a, TV b, const ast::CallExpr &call);
  TV genClamp(const ast::CallExpr &call, std::vector<TV> &args);
  /// A `propagate_nan` argument (PropagateNan.ALL or .NONE, or absent:
  /// NONE) into `propagate`; false after reporting anything else.
  bool propagateNan(const TV &arg, const ast::Loc &at, bool &propagate);
  /// debug_barrier, static_print, assume (DebugBuiltins.cpp).
  TV genDebugBuiltin(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// target_info's queries (TargetInfo.cpp): compile-time booleans.
  TV genTargetQuery(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// A compile-time value as static_print prints it.
  std::string staticText(const TV &v);
  /// inline_asm_elementwise (InlineAsm.cpp); reads its list arguments itself.
  TV genInlineAsm(const ast::CallExpr &call);
  /// A call's argument: `PropagateNan.ALL`/`.NONE` as the strings "all"/"none",
  /// anything else as gen().
  TV genArgument(const ast::Expr &e);
  /// make_tensor_descriptor(base, shape, strides, block_shape) and a
  /// descriptor's load/store methods (TensorDescriptors.cpp).
  TV genMakeTensorDescriptor(const ast::CallExpr &call);
  /// The descriptor type of a kernel parameter annotated
  /// tensor_descriptor(T, [B0, ...]) (`call`), null after an error; and the
  /// descriptor made from its launch arguments (base, sizes, outer strides).
  TensorDescType genDescriptorParamType(const ast::CallExpr &call);
  TV bindDescriptorParam(const ast::Loc &at, TensorDescType type, mlir::ValueRange args);
  /// Appends the launch arguments of runtime parameter `param` of `kernel`
  /// to `args`; false after an error (KernelParameters.cpp).
  bool addKernelArguments(const ast::Param &param, const std::string &kernel, KernelArguments &args);
  /// The value of a parameter annotated `annotation` from its arguments,
  /// `values[next]` onwards; `next` moves past them.
  TV bindKernelArguments(const ast::Expr &annotation, const KernelArguments &args, mlir::ValueRange values,
                         unsigned &next);
  TV genDescriptorMethod(const ast::CallExpr &call, const ast::AttributeExpr &attr, const TV &desc);
  /// make_block_ptr(base, shape, strides, offsets, block_shape, order) and
  /// advance(base, offsets) (a function and a method) (BlockPointers.cpp);
  /// they read their list arguments themselves.
  TV genMakeBlockPtr(const ast::CallExpr &call);
  TV genAdvance(const ast::CallExpr &call, const TV *self, const ast::Loc *selfLoc);
  /// load/store through a block pointer: replaces it in `args` (as
  /// genBuiltin has them for load/store) by the block's pointers, with a mask
  /// of the elements inside the tensor along the dimensions in
  /// `boundary_check` and `other` from `padding_option`; false after an error.
  bool genBlockPointerAccess(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args);
  /// Where argument `i` of a call of `builtin` was written (positionally or
  /// as a keyword); null when it was not given.
  const ast::Expr *builtinArgExpr(const ast::CallExpr &call, const std::string &builtin, size_t i);

  // --- statements (Statements.cpp) and loops (Loops.cpp) ---
  /// Generates statements in order; returns false on error. Sets `returned`
  /// when every path through them returned.
  bool genStmts(llvm::ArrayRef<const ast::Stmt *> stmts, bool &returned);
  /// A runtime branch on the i1 `cond`, each side generated by its callback;
  /// the variables the sides change become the scf.if's results, or, with
  /// `consumesRest` (the sides hold the rest of the function), the value
  /// they return.
  bool genBranches(mlir::Value cond, llvm::function_ref<bool(bool &)> genThen,
                   llvm::function_ref<bool(bool &)> genElse, bool consumesRest, const ast::Loc &l, bool &returned,
                   const TV *perElement = nullptr);
  /// genBranches' merge for a per-element condition (`perElement`, an i1
  /// block, in a map_elementwise function): each leaf that differs between
  /// the branches is select(cond, then, else), broadcast together.
  bool selectLeaves(const TV &cond, std::vector<TV> (&yields)[2], const std::vector<bool> &isSSA, const ast::Loc &l,
                    std::vector<TV> &out);
  /// map_elementwise(scalar_fn, *args, pack=1) (MapElementwise.cpp): the
  /// helper inlined on the arguments broadcast to one shape, its `if`s on
  /// elements run both ways and merged by select; reads its arguments itself.
  TV genMapElementwise(const ast::CallExpr &call);
  bool genFor(const ast::ForStmt &f);
  bool genWhile(const ast::WhileStmt &w);
  /// `for i in static_range(...)`: the body once per iteration, `i` a constant.
  bool genStaticRange(const ast::ForStmt &f, const ast::CallExpr &call);
  /// Whether the code after a statement runs, by the flags in `env`.
  enum class Flow { Runs, Ends, MayEnd };
  Flow loopFlow(llvm::ArrayRef<const char *> flags);
  /// i1: none of the runtime `flags` is set.
  mlir::Value stillRunning(llvm::ArrayRef<const char *> flags, const ast::Loc &l);
  /// `genRest` under `if none of flags:` (inside it they are clear).
  bool genWhileRunning(llvm::ArrayRef<const char *> flags, const ast::Loc &l,
                       llvm::function_ref<bool(bool &)> genRest);
  /// `return` inside a loop: sets the return flag and value.
  bool genReturnInLoop(const ast::ReturnStmt &r);
  /// Outside loops, after a loop that may have returned: `if returned:
  /// return value` with the rest of the function in the other branch.
  /// `consumed` when the rest was generated.
  bool genReturnAfterLoop(llvm::ArrayRef<const ast::Stmt *> rest, const ast::Loc &l, bool &returned, bool &consumed);
  /// Compile-time values that must live in SSA form (loop-carried or merged
  /// across a runtime branch) as SSA values.
  TV materialize(const TV &v, const ast::Loc &loc);
  /// A value of `v`'s type that is never read (zeros; constants as they are).
  TV placeholderLike(const TV &v, const ast::Loc &loc);
  // Tuples and block pointers cross branches and loops as their leaves
  // (StructuredValues.cpp): every value that is not one of them.
  /// Appends the leaves of `v` to `out`.
  static void appendLeaves(const TV &v, std::vector<TV> &out);
  /// Whether `a` and `b` are tuples or block pointers of the same form (the
  /// same sizes, block shapes and orders) or both leaves.
  static bool sameForm(const TV &a, const TV &b);
  /// `form` with its leaves taken in order from `leaves`, starting at `pos`.
  static TV withLeaves(const TV &form, llvm::ArrayRef<TV> leaves, size_t &pos);

  TV error(const ast::Loc &loc, const llvm::Twine &msg);
  mlir::Location loc(const ast::Loc &l) { return toMLIR(ctx, l); }
  bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

  /// The names visible where code is generated: those of the file that
  /// defines the function being generated (its functions and imports), of
  /// the file whose constants are evaluated, else of the file compiled.
  struct FileScope {
    const ast::File &root;
    const Generator &g;
    const ast::File &current() const {
      if (g.constantsOf)
        return *g.constantsOf;
      return g.callStack.empty() || !g.callStack.back()->module ? root : *g.callStack.back()->module;
    }
    const ast::Function *find(llvm::StringRef name) const { return current().find(name); }
  };

  mlir::MLIRContext &ctx;
  FileScope file;
  const GenOptions &options;
  mlir::OpBuilder builder;
  Env env;
  /// The runtime parameters of the kernel whose arguments are being added:
  /// names an annotation may not use (their values come at launch).
  std::vector<std::string> runtimeParamNames;
  /// Each file's module-level constants (with the constants it imports),
  /// seen where `env` has no such name.
  std::map<const ast::File *, Env> globals;
  /// The file whose constants are being evaluated.
  const ast::File *constantsOf = nullptr;
  /// Each file by the name its locations carry (File::locationName).
  std::map<const std::string *, const ast::File *> filesByLocation;
  /// Evaluates the module-level constants of the file compiled and of every
  /// file it imports into `globals`; false on error.
  bool genConstants(const ast::File &module);
  /// Return value of the helper being inlined (None for kernels).
  std::vector<TV> returnValues;
  std::vector<const ast::Function *> callStack;
  /// Copies of the body being generated that the static_range loops around
  /// it unroll (their trip counts multiplied).
  int64_t unrolledCopies = 1;
  bool inLoop = false;
  /// Inside map_elementwise's function (its `if`s may test elements), and,
  /// inside a branch on an element, where the branch runs (an i1 block; None
  /// elsewhere): its loads read only there, and nothing there may write
  /// memory or print.
  int mapDepth = 0;
  TV elementGuard = TV::makeNone();
  /// The helper being inlined as a combine function (its calls are checked), else null.
  const ast::Function *combineFn = nullptr;
  /// Statements the generator writes itself (the `return` after a loop that returned).
  std::vector<std::unique_ptr<ast::Stmt>> synthesized;
};

/// The statements of `body`, without ownership.
inline std::vector<const ast::Stmt *> listOf(const ast::Body &body) {
  std::vector<const ast::Stmt *> out;
  for (auto &s : body)
    out.push_back(s.get());
  return out;
}

/// "1 block", "3 blocks": a count and a noun for messages.
inline std::string plural(size_t n, const char *what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

} // namespace blk

#endif
