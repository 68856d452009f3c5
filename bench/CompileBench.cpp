// blk-compile-bench: in-process compile time of each kernel to PTX with a warm
// compiler (one MLIR context, as the JIT keeps it), median of 20, per phase.
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
    const char *file, *dtype;
  } cases[] = {{"vector_add", "f32"}, {"kl_div", "f32"}, {"swiglu", "bf16"}, {"geglu", "bf16"}};
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
    options.gen.alignAllPointers = true;
    options.gen.divisibility["n"] = 16;
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
    std::printf("| %s.%s | %.2f | %.2f | %.2f | %.2f |\n", c.file, c.dtype, median(total), front,
                median(phases["llvm"]), median(phases["ptx"]));
  }
  return 0;
}
