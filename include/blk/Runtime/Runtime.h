// The blk runtime: load compiled kernels (PTX or cubin) and launch them with
// checked, typed arguments through the CUDA driver API. Depends on nothing
// but libcuda, so that it runs where LLVM is absent.
#ifndef BLK_RUNTIME_RUNTIME_H
#define BLK_RUNTIME_RUNTIME_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

typedef struct CUstream_st *CUstream;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;

namespace blk::rt {

/// Success, or a readable message.
struct Status {
  std::string message;
  bool ok() const { return message.empty(); }
  static Status error(std::string m) { return Status{std::move(m)}; }
};

/// Kinds of kernel arguments, as written in a kernel's signature.
enum class ArgType { Ptr, I1, I8, I16, I32, I64, U32, U64, F16, BF16, F32, F64 };
const char *toString(ArgType t);
/// Parses "ptr", "i32", "f32", ... (the spelling of the PTX signature line).
bool parseArgType(const std::string &s, ArgType &out);

/// One launch argument with its type.
struct Arg {
  ArgType type;
  uint64_t bits = 0; // the value, in the low bytes
  static Arg ptr(const void *p) { return {ArgType::Ptr, uint64_t(uintptr_t(p))}; }
  static Arg devicePtr(uint64_t p) { return {ArgType::Ptr, p}; }
  static Arg i32(int32_t v) { return {ArgType::I32, uint64_t(uint32_t(v))}; }
  static Arg i64(int64_t v) { return {ArgType::I64, uint64_t(v)}; }
  static Arg u32(uint32_t v) { return {ArgType::U32, v}; }
  static Arg u64(uint64_t v) { return {ArgType::U64, v}; }
  static Arg f32(float v);
  static Arg f64(double v);
};

struct Grid {
  unsigned x = 1, y = 1, z = 1;
};

/// A value the launch reads: argument `index`, or the constant `value`.
struct ArgSource {
  bool isArg = false;
  uint64_t value = 0; // the argument's index, or the constant
};

/// A hidden TMA tensor-map parameter the launch builds from the arguments:
/// a tensor of `elem` at the pointer argument `base`, its shape and strides
/// (in elements) outermost first, copied in boxes of `box` elements with a
/// `swizzle`-byte swizzle. Written `ELEM:BASE:SHAPE:STRIDES:BOX:SWIZZLE` in
/// the signature line's `tma=` list (`;` between maps, `|` within lists,
/// sources `aN` or `cN`).
struct TensorMapRecipe {
  ArgType elem = ArgType::F16;
  unsigned base = 0;
  std::vector<ArgSource> shape, strides;
  std::vector<uint32_t> box;
  unsigned swizzle = 0;
};
bool parseTensorMapRecipe(const std::string &text, TensorMapRecipe &out);

/// The signature blkc writes into each PTX file as a comment line:
/// `// blk.kernel NAME num_warps=N shared=BYTES args=ptr,ptr,i32 constants=BLOCK=1024,T=f32 spec=0:16 tma=...`.
struct KernelSignature {
  std::string name;
  unsigned numWarps = 4;
  /// Warps of a producer warpgroup launched after the numWarps ones (a
  /// warp-specialized kernel), 0 for none.
  unsigned producerWarps = 0;
  /// Dynamic shared memory per program, in bytes.
  unsigned sharedBytes = 0;
  std::vector<ArgType> args;
  /// Bound compile-time parameters as NAME=VALUE.
  std::vector<std::pair<std::string, std::string>> constants;
  /// Runtime parameters the code assumes divisible (by index).
  std::vector<std::pair<unsigned, unsigned>> divisibility;
  /// Hidden parameters after the arguments: TMA tensor maps.
  std::vector<TensorMapRecipe> tensorMaps;
  /// The value of a bound constant, or `fallback`.
  std::string constant(const std::string &name, const std::string &fallback = "") const;
};
std::vector<KernelSignature> parseSignatures(const std::string &ptx);

class Kernel {
public:
  const KernelSignature &signature() const { return sig; }
  /// Checks the arguments against the signature, then launches
  /// num_warps * 32 threads per program on `grid`.
  Status launch(Grid grid, CUstream stream, const std::vector<Arg> &args) const {
    return launch(grid, stream, args.data(), args.size());
  }
  /// The same over `count` arguments at `args` (callers that keep them on the stack).
  Status launch(Grid grid, CUstream stream, const Arg *args, size_t count) const;
  CUfunction handle() const { return fn; }

private:
  friend class Module;
  CUfunction fn = nullptr;
  KernelSignature sig;
};

/// A loaded module. Not copyable; unloads on destruction.
class Module {
public:
  /// Loads PTX (JIT-compiled by the driver) or a cubin. `signatures` are
  /// needed for cubins; for PTX they are read from its signature lines.
  static Status load(const std::string &image, std::unique_ptr<Module> &out,
                     std::vector<KernelSignature> signatures = {});
  static Status loadFile(const std::string &path, std::unique_ptr<Module> &out,
                         std::vector<KernelSignature> signatures = {});
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  Status kernel(const std::string &name, Kernel &out) const;

private:
  Module() = default;
  CUmodule mod = nullptr;
  std::vector<KernelSignature> sigs;
};

/// Initializes the driver and makes device `ordinal`'s primary context current.
Status initDevice(int ordinal = 0);
/// Makes the primary context initDevice retained current on the calling
/// thread when the thread has none: a thread that never touched CUDA
/// (PyTorch's autograd device threads, which run backward ops) would
/// otherwise fail every driver call with CUDA_ERROR_INVALID_CONTEXT. The
/// runtime's and the JIT's entry points call it; cheap (a thread-local read).
Status ensureContext();
/// Device memory through the driver, the primary context made current first
/// (ensureContext): what the JIT and the operators' PTX runner call.
Status deviceAlloc(size_t bytes, void **out);
Status deviceFree(void *ptr);
Status copyToDevice(void *dst, const void *src, size_t bytes);
Status copyToHost(void *dst, const void *src, size_t bytes);
/// The streaming multiprocessors of the device initDevice made current (a
/// persistent kernel's programs, one per SM).
Status multiprocessorCount(int &out);
/// Waits for the device's work; a failure reads "`what` failed: CUDA_ERROR_...".
Status synchronizeDevice(const std::string &what);
/// "CUDA_ERROR_X: description" for a driver result code.
std::string driverError(int code);

} // namespace blk::rt

#endif
