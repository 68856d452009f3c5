// The interpreter's Launch for the shared kernel cases (test/common): runs a
// kernel of kernels/ or test/kernels/ over host buffers, each between
// poisoned guard bands (Guards.h) as on the GPU. Only the data is registered
// with the interpreter, so its own bounds check still sees every access
// outside a buffer; the bands are checked after the run all the same.
// `interpLaunch` runs the IR as the frontend makes it; `bothWays(arch)` runs
// it so and after the blk passes for `arch` (rings, cp.async, TMA, wgmma),
// and requires the two to write the same bytes.
#ifndef BLK_TEST_INTERP_INTERPLAUNCH_H
#define BLK_TEST_INTERP_INTERPLAUNCH_H

#include "../common/Guards.h"
#include "../common/RowCases.h"
#include "../common/TestSeed.h"
#include "Program.h"
#include "blk/Interpreter/AfterPasses.h"

#include <optional>
#include <sstream>

namespace blk {

/// The names after `# <key>:` in a kernel source (the first such line).
inline std::vector<std::string> headerWords(const std::string &source, const std::string &key) {
  std::istringstream lines(source);
  std::string line, prefix = "# " + key + ":";
  while (std::getline(lines, line))
    if (line.rfind(prefix, 0) == 0) {
      std::istringstream words(line.substr(prefix.size()));
      return {std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
    }
  return {};
}

/// The specialization the GPU tests' PTX of `bindings` has (scripts/build-ptx.sh):
/// pointers aligned; "n16", "s16" and "spec" as that script names them.
inline void specialize(const std::string &source, const ref::Bindings &bindings, GenOptions &gen) {
  gen.alignAllPointers = true;
  for (auto &[key, value] : bindings) {
    if (key != "spec")
      continue;
    std::vector<std::string> specs;
    if (value == "n16")
      specs = {"n=16"};
    else if (value == "s16") {
      specs = {"stride=16", "n_cols=16"};
      for (const std::string &w : headerWords(source, "specialize16"))
        specs.push_back(w + "=16");
    } else if (value == "spec")
      specs = headerWords(source, "specialize");
    for (const std::string &s : specs) {
      size_t eq = s.find('=');
      if (s.substr(eq + 1) == "1")
        gen.equalsOne.push_back(s.substr(0, eq));
      else
        gen.divisibility[s.substr(0, eq)] = 16;
    }
  }
}

/// Runs the kernel as the frontend makes it, or with `arch` after the blk
/// passes (num_warps, num_stages and the specialization from `bindings`).
inline std::string interpLaunchAt(const std::optional<std::string> &arch, const std::string &file,
                                  const ref::Bindings &bindings, const std::string &kernel, ref::LaunchGrid grid,
                                  std::vector<ref::KArg> args) {
  std::string source = readKernel(file);
  if (source.empty())
    return "cannot read kernels/" + file + ".blk";
  GenOptions gen;
  interp::PassTarget target;
  for (auto &[key, value] : bindings) // launch options and PTX names, not constants of the source
    if (key == "num_warps")
      target.numWarps = unsigned(std::stoul(value));
    else if (key == "num_stages")
      target.numStages = unsigned(std::stoul(value));
    else if (key == "warp_specialize")
      target.warpSpecialize = value == "True";
    else if (key != "spec")
      gen.defines[key] = value;
  if (arch) {
    target.arch = *arch;
    specialize(source, bindings, gen);
  }
  Program prog(source, gen, kernelPath(file)); // imports are found next to it
  if (!prog.module)
    return prog.diagnostics;
  if (arch && mlir::failed(interp::runBlkPasses(*prog.module, target)))
    return prog.diagnostics.empty() ? "the blk passes failed" : prog.diagnostics;
  interp::Interpreter in(*prog.module);
  std::vector<interp::Arg> iargs;
  std::vector<std::vector<uint8_t>> images(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const ref::KArg &a = args[i];
    if (a.kind == ref::KArg::Buf) {
      images[i] = ref::guardedImage(*a.buf, i);
      uint8_t *data = images[i].data() + ref::kGuardBytes;
      in.addBuffer(data, a.buf->data.size());
      iargs.push_back(interp::Arg::pointer(data));
    } else if (a.kind == ref::KArg::Int) {
      iargs.push_back(interp::Arg::integer(a.i));
    } else {
      iargs.push_back(interp::Arg::real(a.f));
    }
  }
  interp::RunOptions run;
  run.shuffle = true;
  run.seed = ref::testSeed();
  if (mlir::failed(in.run(kernel, {grid.x, grid.y, grid.z}, iargs, run)))
    return prog.diagnostics.empty() ? "the run failed" : prog.diagnostics;
  std::string damaged;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].kind == ref::KArg::Buf) {
      std::string e = ref::takeGuardedImage(images[i], *args[i].buf, i, kernel);
      if (damaged.empty())
        damaged = e;
    }
  return damaged;
}

inline std::string interpLaunch(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                                ref::LaunchGrid grid, std::vector<ref::KArg> args) {
  return interpLaunchAt(std::nullopt, file, bindings, kernel, grid, std::move(args));
}

/// A Launch that runs each kernel as the frontend makes it (on copies of the
/// buffers) and after the blk passes for `arch`, and fails unless both
/// leave every buffer with the same bytes.
inline ref::Launch bothWays(const std::string &arch) {
  return [arch](const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                ref::LaunchGrid grid, std::vector<ref::KArg> args) -> std::string {
    std::map<ref::Buffer *, std::unique_ptr<ref::Buffer>> copies; // one per buffer, aliases kept
    std::vector<ref::KArg> frontendArgs = args;
    for (ref::KArg &a : frontendArgs)
      if (a.kind == ref::KArg::Buf) {
        auto &copy = copies[a.buf];
        if (!copy)
          copy = std::make_unique<ref::Buffer>(*a.buf);
        a.buf = copy.get();
      }
    if (std::string e = interpLaunch(file, bindings, kernel, grid, frontendArgs); !e.empty())
      return e;
    if (std::string e = interpLaunchAt(arch, file, bindings, kernel, grid, args); !e.empty())
      return "after the blk passes for " + arch + ": " + e;
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].kind == ref::KArg::Buf && args[i].buf->data != frontendArgs[i].buf->data) {
        size_t n = args[i].buf->size(), j = 0;
        while (j < n && args[i].buf->get(j) == frontendArgs[i].buf->get(j))
          ++j;
        std::string where = j < n ? " first at element " + std::to_string(j) + ": " +
                                        std::to_string(args[i].buf->get(j)) + " after the passes, " +
                                        std::to_string(frontendArgs[i].buf->get(j)) + " before"
                                  : "";
        return kernel + ": argument " + std::to_string(i) + " differs after the blk passes for " + arch + where;
      }
    return "";
  };
}

} // namespace blk

#endif
