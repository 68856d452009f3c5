// blk from C++: compile kernels from files or strings, specialize them on the
// actual launch arguments as Triton does, and launch them on the GPU or on
// the CPU interpreter with the same host code.
//
//   blk::Jit jit(blk::Backend::CUDA);            // or blk::Backend::CPU
//   blk::Kernel add;
//   if (auto s = jit.compileFile("kernels/vector_add.blk", "vector_add", {{"T", "f32"}}, add); !s.ok()) ...
//   void *x, *y, *out;  jit.alloc(bytes, &x); ...  jit.upload(x, host, bytes);
//   add.launch({blk::cdiv(n, 1024)}, {x, y, out, int32_t(n)});
#ifndef BLK_BLK_H
#define BLK_BLK_H

#include "blk/Runtime/Runtime.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace blk {

using rt::Grid;
using rt::Status;

enum class Backend { CUDA, CPU };

/// How a kernel is compiled. `constants` binds constexpr and dtype parameters
/// ("BLOCK" -> "1024", "T" -> "bf16").
struct KernelOptions {
  std::map<std::string, std::string> constants;
  std::string arch = "sm_90a";
  unsigned numWarps = 4;
  /// Loads in flight per load in a loop: each is issued numStages - 1
  /// iterations ahead (1: none; at most 8).
  unsigned numStages = 1;
  /// Loops whose dot operands all come through TMA rings release each slot
  /// on an mbarrier instead of a barrier of all threads (blkc
  /// --release-slots): faster for some kernels and tilings, slower for
  /// others (docs/performance.md, Attention). CUDA backend only.
  bool releaseSlots = false;
  /// With releaseSlots, programs of two or more warpgroups: the warpgroups
  /// take turns issuing a loop's tensor-core dots (blkc --ping-pong).
  bool pingPong = false;
  /// Every loop whose dot operands all come through TMA rings read by wgmma
  /// gets a producer warpgroup that issues the copies (blkc
  /// --warp-specialize; `range(..., warp_specialize=True)` asks for one
  /// loop in the source). CUDA backend only.
  bool warpSpecialize = false;
  /// Parameters never specialized (a pointer that is rarely aligned, a size
  /// that changes every call): one variant serves every value.
  std::vector<std::string> doNotSpecialize;
};

/// One launch argument: a pointer (device memory from Jit::alloc), an integer
/// or a float. Converts implicitly from those C++ types.
struct KernelArg {
  enum Kind { Pointer, Int, Float } kind;
  uint64_t bits = 0;
  double real = 0;
  KernelArg(void *p) : kind(Pointer), bits(uint64_t(uintptr_t(p))) {}
  KernelArg(const void *p) : kind(Pointer), bits(uint64_t(uintptr_t(p))) {}
  KernelArg(int32_t v) : kind(Int), bits(uint64_t(int64_t(v))) {}
  KernelArg(int64_t v) : kind(Int), bits(uint64_t(v)) {}
  KernelArg(uint32_t v) : kind(Int), bits(v) {}
  KernelArg(uint64_t v) : kind(Int), bits(v) {}
  KernelArg(float v) : kind(Float), real(v) {}
  KernelArg(double v) : kind(Float), real(v) {}
};

/// A strided tensor for a kernel parameter annotated `tensor_descriptor(T,
/// [B0, ...])` (Triton's host-side TensorDescriptor): `appendArgs` adds the
/// launch arguments it stands for, its base, its sizes (32-bit) and its
/// strides but the last (64-bit), in that order. Sizes and strides count
/// elements, outermost first; the last stride must be 1 (the kernel reads
/// the innermost elements as contiguous). The block shape is the kernel's
/// annotation; the launch checks the number of arguments.
struct TensorDescriptor {
  const void *base = nullptr;
  std::vector<int64_t> shape, strides;

  Status appendArgs(std::vector<KernelArg> &args) const {
    if (shape.empty() || shape.size() != strides.size())
      return Status::error("a tensor descriptor needs as many strides as sizes (one or more), got " +
                           std::to_string(shape.size()) + " sizes and " + std::to_string(strides.size()) +
                           " strides");
    if (strides.back() != 1)
      return Status::error("a tensor descriptor's last stride must be 1, got " + std::to_string(strides.back()));
    for (int64_t size : shape)
      if (size < 0 || size > INT32_MAX)
        return Status::error("a tensor descriptor's sizes are 32-bit: " + std::to_string(size) +
                             " is out of range");
    args.emplace_back(base);
    for (int64_t size : shape)
      args.emplace_back(int32_t(size));
    for (size_t i = 0; i + 1 < strides.size(); ++i)
      args.emplace_back(strides[i]);
    return {};
  }
};

inline unsigned cdiv(uint64_t a, uint64_t b) { return unsigned((a + b - 1) / b); }

class Jit;

/// One point of an autotuning search: compile-time bindings, warps, stages.
struct TuningConfig {
  std::map<std::string, std::string> constants;
  unsigned numWarps = 4;
  unsigned numStages = 1;
  /// KernelOptions' releaseSlots and pingPong, searched like the others.
  bool releaseSlots = false, pingPong = false;
  /// "BLOCK=1024,num_warps=4" (",num_stages=2" when not 1, ",release_slots=1"
  /// and ",ping_pong=1" when set): the spelling of tuning files.
  std::string str() const;
};

/// A compiled kernel: each distinct specialization of its arguments is
/// compiled once, on its first launch, and kept.
class Kernel {
public:
  Kernel();
  ~Kernel();
  Kernel(Kernel &&) noexcept;
  Kernel &operator=(Kernel &&) noexcept;

  /// Checks the arguments against the kernel's parameters, picks (or
  /// compiles) the variant specialized for them, and launches.
  Status launch(Grid grid, const std::vector<KernelArg> &args, void *stream = nullptr);
  /// The specialization `args` select, as blkc --spec would write it ("X:16,n:1").
  std::string specialization(const std::vector<KernelArg> &args) const;
  /// Variants compiled so far.
  size_t numVariants() const;
  /// A bound compile-time parameter ("BLOCK" -> "1024"), or empty.
  std::string constant(const std::string &name) const;
  /// Whether this kernel was compiled (by Jit::compileFile/compileSource).
  bool compiled() const { return impl != nullptr; }
  /// The position of runtime parameter `name` among the launch arguments, or size_t(-1).
  size_t paramIndex(const std::string &name) const;
  /// The block shape of the `tensor_descriptor(T, [B0, ...])` parameter
  /// whose base pointer is launch argument `index` (its sizes and strides
  /// follow it), or empty when that argument is not such a base.
  std::vector<int64_t> descriptorBlock(size_t index) const;

  struct Impl;

private:
  friend class Jit;
  std::unique_ptr<Impl> impl;
};

/// A kernel tuned over configs: on the first launch with a new key (the
/// values of the key parameters, and the device), every config is compiled
/// and timed on the device and the fastest is kept, in memory and in the
/// tuning file (which can be checked in and reused without retuning).
/// Launching times every config on the real arguments, so a kernel that
/// reads what it writes must be tuned on scratch data.
class TunedKernel {
public:
  TunedKernel();
  ~TunedKernel();
  TunedKernel(TunedKernel &&) noexcept;
  TunedKernel &operator=(TunedKernel &&) noexcept;

  /// `grid` gives the grid for a config (it usually depends on BLOCK).
  Status launch(const std::function<Grid(const TuningConfig &)> &grid, const std::vector<KernelArg> &args,
                void *stream = nullptr);
  /// The config chosen for these arguments, if tuned already.
  const TuningConfig *chosen(const std::vector<KernelArg> &args) const;
  /// How many tuning searches ran (0 when the tuning file had the answer).
  size_t searches() const;

  struct Impl;

private:
  friend class Jit;
  std::unique_ptr<Impl> impl;
};

/// Compiles and launches kernels on one backend. Owns the compiler's context
/// and, for the CPU backend, the memory kernels may touch.
class Jit {
public:
  explicit Jit(Backend backend = Backend::CUDA);
  ~Jit();
  Backend backend() const;
  /// False (with the reason) when the backend cannot run here (no GPU).
  Status available() const;

  Status compileFile(const std::string &path, const std::string &kernel, const KernelOptions &options, Kernel &out);
  Status compileSource(const std::string &source, const std::string &kernel, const KernelOptions &options,
                       Kernel &out, const std::string &filename = "<string>");

  /// A kernel tuned over `configs` (each overriding `options`' constants and
  /// warps), keyed by the values of the parameters named in `keys`.
  Status autotune(const std::string &path, const std::string &kernel, const KernelOptions &options,
                  const std::vector<TuningConfig> &configs, const std::vector<std::string> &keys, TunedKernel &out);
  /// Where tuning results are kept (BLK_TUNING_FILE by default; "" keeps them in memory only).
  void setTuningFile(const std::string &path);
  /// The device's name ("NVIDIA H200", or "cpu-interpreter"): part of tuning keys.
  std::string deviceName() const;

  // Used by TunedKernel: the tuning results by key, and writing them out.
  std::map<std::string, TuningConfig> &tuningTable();
  Status saveTuning();

  /// Memory kernels read and write: device memory (CUDA) or checked host memory (CPU).
  Status alloc(size_t bytes, void **out);
  Status free(void *ptr);
  Status upload(void *dst, const void *src, size_t bytes);
  Status download(void *dst, const void *src, size_t bytes);
  Status synchronize();
  /// CPU backend: lets kernels read and write `bytes` of the caller's host
  /// memory at `ptr` (memory the Jit did not allocate: a Python buffer) until
  /// unregistered. Registering a pointer again replaces its size.
  Status registerHostMemory(void *ptr, size_t bytes);
  Status unregisterHostMemory(void *ptr);

  /// The names of the kernels `source` defines or imports, in order; errors
  /// as file:line:col.
  Status kernelNames(const std::string &source, const std::string &filename, std::vector<std::string> &out);

  /// Where compiled kernels are cached on disk (BLK_CACHE_DIR by default;
  /// "" turns the disk cache off).
  void setCacheDirectory(const std::string &dir);
  std::string cacheDirectory() const;
  struct CacheStats {
    size_t memoryHits = 0, diskHits = 0, compiles = 0;
    /// Kernels whose parameters came from the disk cache (no parsing).
    size_t descriptionHits = 0;
  };
  CacheStats cacheStats() const;

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace blk

#endif
