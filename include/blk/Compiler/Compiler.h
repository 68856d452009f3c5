// Source to any stage (AST, blk, blk with layouts, LLVM IR, PTX, cubin) in
// one call, timed per phase. blkc and the JIT both compile through here.
#ifndef BLK_COMPILER_COMPILER_H
#define BLK_COMPILER_COMPILER_H

#include "blk/Frontend/MLIRGen.h"
#include "blk/Target/PTX.h"
#include "llvm/Support/SourceMgr.h"

namespace blk {

/// Layouts: a report of the layouts after the blk passes (LayoutReport.h).
enum class Stage { AST, Blk, GPU, Layouts, LLVM, PTX, Cubin, Header };
bool parseStage(llvm::StringRef name, Stage &out);

struct CompileOptions {
  GenOptions gen;
  TargetOptions target;
  unsigned numWarps = 4;
  /// Loads in flight per load in a loop (blk-pipeline-loads; 1: none).
  unsigned numStages = 1;
  /// Release TMA ring slots on empty mbarriers instead of barriers of all
  /// threads (blk-pipeline-dot's release-slots): off by default, faster for
  /// some kernels and slower for others (docs/performance.md, Attention).
  bool releaseSlots = false;
  /// With releaseSlots: warpgroups take turns issuing a loop's wgmma
  /// (blk-pipeline-dot's ping-pong; docs/performance.md, Attention).
  bool pingPong = false;
  /// Every loop that allows it is warp-specialized (blk-pipeline-dot's
  /// warp-specialize), as `range(..., warp_specialize=True)` asks for one.
  bool warpSpecialize = false;
  Stage emit = Stage::PTX;
  /// Run ptxas even when emitting PTX, for its resource report.
  bool ptxasInfo = false;
  /// Stage::Header: the C++ namespace of the generated code.
  std::string headerNamespace;
  /// For tests of internal-error reporting: "frontend" (the frontend's IR
  /// fails verification), "blk-passes" or "lowering" (a pass of that
  /// pipeline fails). Empty: none.
  std::string injectInternalError;
};

struct PhaseTime {
  std::string name;
  double ms;
};

struct KernelInfo {
  std::string name;
  std::vector<std::string> argTypes; // ptr, i32, f32, ...
  std::vector<std::string> argNames;
  /// Bound constexpr and dtype parameters ("BLOCK=1024", "T=bf16") and the
  /// specialization of runtime parameters ("X:16", "n:16").
  std::vector<std::string> constants, specialization;
  unsigned numWarps = 4;
  /// Warps of the producer warpgroup launched after them (warp-specialized
  /// kernels), 0 for none.
  unsigned producerWarps = 0;
  /// Dynamic shared memory each program needs (blk-allocate-shared-memory).
  int64_t sharedMemory = 0;
  int registers = -1, sharedBytes = -1, spillStores = -1; // from ptxas, when run
  /// Hidden TMA tensor-map parameters after the runtime ones, in order, as
  /// the runtime builds them: `ELEM:BASE:SHAPE:STRIDES:BOX:SWIZZLE`, lists
  /// outermost first and `|`-separated, each value `aN` (argument N) or
  /// `cN` (the constant N); BOX in elements, SWIZZLE in bytes.
  std::vector<std::string> tensorMaps;
};

struct CompileResult {
  std::string output; // text, or the cubin's bytes
  std::vector<PhaseTime> phases;
  std::vector<KernelInfo> kernels;
};

/// The signature lines that precede the PTX (one per kernel), which the
/// runtime reads: `// blk.kernel NAME num_warps=N args=... constants=... spec=...`.
std::string signatureLines(const std::vector<KernelInfo> &kernels);

/// The C++ header of `--emit=header`: `result` holds the PTX and the kernels.
std::string emitAOTHeader(const CompileResult &result, llvm::StringRef sourceName, llvm::StringRef ns);

/// Why `options` cannot be compiled (an unsupported arch, warp or stage
/// count), worded for the command line, or empty when they can.
std::string invalidOptions(const CompileOptions &options);

/// Compiles the buffer `bufferId` of `sourceMgr`. Diagnostics go to the
/// context's handler; failure means one was reported.
mlir::FailureOr<CompileResult> compile(mlir::MLIRContext &ctx, llvm::SourceMgr &sourceMgr, unsigned bufferId,
                                       const CompileOptions &options);

} // namespace blk

#endif
