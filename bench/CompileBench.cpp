// blk-compile-bench: in-process compile time of each kernel to PTX with a warm
// compiler (one MLIR context, as the JIT keeps it), median of 20, per phase.
// One kernel of each file, as the JIT compiles them.
//   blk-compile-bench [KERNELS_DIR]
#include "blk/Compiler/Compiler.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : "kernels";
  struct Case {
    const char *file, *dtype, *kernel; // one kernel of the file, as the JIT compiles it
  } cases[] = {{"vector_add", "f32", "vector_add"},           {"kl_div", "f32", "kl_div"},
               {"swiglu", "bf16", "swiglu_forward"},          {"geglu", "bf16", "geglu_forward"},
               {"softmax", "bf16", "softmax_forward"},        {"rms_norm", "bf16", "rms_norm_forward"},
               {"layer_norm", "bf16", "layer_norm_forward"},  {"cross_entropy", "bf16", "cross_entropy"}};
  mlir::MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);
  std::printf("| kernel | total (ms) | frontend+passes | LLVM IR | PTX |\n|---|---:|---:|---:|---:|\n");
  for (const Case &c : cases) {
    auto buf = llvm::MemoryBuffer::getFile(dir + "/" + c.file + ".blk");
    if (!buf) {
      std::fprintf(stderr, "cannot read %s/%s.blk\n", dir.c_str(), c.file);
      return 1;
    }
    unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*buf), llvm::SMLoc());
    blk::CompileOptions options;
    options.gen.defines["T"] = c.dtype;
    options.gen.kernels = {c.kernel};
    options.gen.alignAllPointers = true;
    for (const char *size : {"n", "n_cols", "stride"}) // as the benchmarks' variants (absent ones are ignored)
      options.gen.divisibility[size] = 16;
    std::vector<double> total;
    std::map<std::string, std::vector<double>> phases;
    for (int i = 0; i < 21; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      auto r = blk::compile(ctx, sourceMgr, id, options);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (mlir::failed(r))
        return 1;
      if (i == 0)
        continue; // the first compile loads dialects and the NVPTX target
      total.push_back(ms);
      for (auto &p : r->phases)
        phases[p.name].push_back(p.ms);
    }
    auto median = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v.empty() ? 0.0 : v[v.size() / 2];
    };
    double front = median(phases["parse"]) + median(phases["frontend"]) + median(phases["layouts"]) +
                   median(phases["lowering"]);
    std::printf("| %s (%s) | %.2f | %.2f | %.2f | %.2f |\n", c.kernel, c.dtype, median(total), front,
                median(phases["llvm"]), median(phases["ptx"]));
  }
  return 0;
}
