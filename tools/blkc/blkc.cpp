// blkc: compile .blk kernels to blk IR, LLVM IR, PTX or cubin.
#include "blk/Compiler/Compiler.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "blk/Support/CommandLine.h"
#include <CLI/CLI.hpp>
#include <fmt/core.h>

static const char *kExample = R"(
Example:
  blkc kernels/vector_add.blk -D T=f32 -D BLOCK=1024 --arch sm_90a -o vadd.ptx
  blkc kernels/swiglu.blk -D T=bf16 --emit=gpu        # blk IR with layouts
  blkc kernels/kl_div.blk -D T=f32 --ptxas-info --time
)";

int main(int argc, char **argv) {
  CLI::App app{"blkc " BLK_VERSION ": compile .blk block-level GPU kernels"};
  app.footer(kExample);
  std::string input, output = "-", arch = "sm_90a", emit = "ptx";
  std::vector<std::string> defines, specs, kernels;
  unsigned numWarps = 4;
  unsigned numStages = 1;
  bool timePhases = false, ptxasInfo = false, alignPointers = false, releaseSlots = false, pingPong = false,
       warpSpecialize = false;
  app.add_option("file", input, "The .blk source file")->required();
  app.add_option("-o,--output", output, "Output file (default: standard output; nothing is written on error)");
  app.add_option("--arch", arch, "Target: sm_80, sm_86, sm_89, sm_90 or sm_90a")->capture_default_str();
  app.add_option("-D,--define", defines, "Bind a constexpr or dtype parameter: NAME=VALUE (e.g. BLOCK=1024, T=bf16)");
  app.add_option("--num-warps", numWarps, "Warps per program")->capture_default_str();
  app.add_option("--num-stages", numStages,
                 "Loads in flight per load in a loop: each is issued num_stages - 1 iterations ahead (1: none)")
      ->capture_default_str();
  app.add_option("--kernel", kernels, "Compile only this kernel (repeatable; default: every @kernel)");
  app.add_option("--emit", emit, "Output stage: ast, blk, gpu, layouts (each value's layout and every move between layouts, with its path and cost), llvm, ptx, cubin, or header (C++ with the PTX embedded and typed launch functions)")->capture_default_str();
  std::string headerNamespace = "blk_kernels";
  app.add_option("--namespace", headerNamespace, "C++ namespace of --emit=header")->capture_default_str();
  app.add_option("--spec", specs,
                 "Specialize a runtime parameter as the JIT would: NAME=16 (pointer 16-byte aligned / integer "
                 "multiple of 16) or NAME=1 (integer equal to 1)");
  app.add_flag("--align-pointers", alignPointers, "Specialize every pointer parameter as 16-byte aligned");
  auto *release = app.add_flag("--release-slots", releaseSlots,
               "Loops whose dot operands all come through TMA rings release each slot on an mbarrier instead of "
               "a barrier of all threads (faster or slower by kernel: see docs/performance.md)");
  app.add_flag("--ping-pong", pingPong,
               "With --release-slots, programs of two or more warpgroups: the warpgroups take turns issuing a "
               "loop's tensor-core dots")
      ->needs(release);
  app.add_flag("--warp-specialize", warpSpecialize,
               "Every loop whose dot operands all come through TMA rings read by wgmma gets a producer warpgroup "
               "that issues the copies, as range(..., warp_specialize=True) asks for one loop");
  app.add_flag("--time", timePhases, "Print the time of each compilation phase to standard error");
  app.add_flag("--ptxas-info", ptxasInfo, "Run ptxas and print registers, shared memory and spills per kernel");
  std::string injectInternalError;
  app.add_option("--inject-internal-error", injectInternalError,
                 "For tests: fail as a compiler bug would in frontend, blk-passes or lowering")
      ->group(""); // hidden from --help
  if (std::optional<int> stop = blk::parseCommandLine(app, argc, argv, "blkc"))
    return *stop;

  mlir::MLIRContext ctx;
  ctx.printOpOnDiagnostic(false); // errors show source lines, not IR
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!buffer) {
    fmt::print(stderr, "blkc: error: cannot read '{}': {}\n", input, buffer.getError().message());
    return 1;
  }
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());

  blk::CompileOptions options;
  options.target.arch = arch;
  options.numWarps = numWarps;
  options.numStages = numStages;
  options.releaseSlots = releaseSlots;
  options.pingPong = pingPong;
  options.warpSpecialize = warpSpecialize;
  options.ptxasInfo = ptxasInfo;
  options.gen.kernels = kernels;
  options.headerNamespace = headerNamespace;
  options.injectInternalError = injectInternalError;
  if (std::string why = blk::invalidOptions(options); !why.empty()) {
    fmt::print(stderr, "blkc: error: {}\n", why);
    return 1;
  }
  if (!blk::parseStage(emit, options.emit)) {
    fmt::print(stderr, "blkc: error: unknown --emit '{}' (ast, blk, gpu, layouts, llvm, ptx, cubin or header)\n", emit);
    return 1;
  }
  if (std::string error = blk::addCommandLineBindings(options.gen, defines, specs); !error.empty()) {
    fmt::print(stderr, "blkc: error: {}\n", error);
    return 1;
  }
  if (alignPointers)
    options.gen.alignAllPointers = true;

  auto result = blk::compile(ctx, sourceMgr, bufferId, options);
  if (mlir::failed(result))
    return 1;
  std::error_code ec;
  auto out = std::make_unique<llvm::ToolOutputFile>(output, ec, llvm::sys::fs::OF_None);
  if (ec) {
    fmt::print(stderr, "blkc: error: cannot write '{}': {}\n", output, ec.message());
    return 1;
  }
  out->os() << result->output;
  out->keep();
  if (ptxasInfo)
    for (const blk::KernelInfo &k : result->kernels)
      fmt::print(stderr, "{}: {} registers, {} bytes shared memory, {} bytes spilled\n", k.name, k.registers,
                 k.sharedBytes + k.sharedMemory, k.spillStores);
  if (timePhases) {
    double total = 0;
    for (const blk::PhaseTime &p : result->phases) {
      fmt::print(stderr, "  {:<10} {:8.2f} ms\n", p.name, p.ms);
      total += p.ms;
    }
    fmt::print(stderr, "  {:<10} {:8.2f} ms\n", "total", total);
  }
  return 0;
}
