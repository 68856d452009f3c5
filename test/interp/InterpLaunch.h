// The interpreter's Launch for the shared kernel cases (test/common): runs a
// kernel of kernels/ or test/kernels/ over host buffers, each between
// poisoned guard bands (Guards.h) as on the GPU. Only the data is registered
// with the interpreter, so its own bounds check still sees every access
// outside a buffer; the bands are checked after the run all the same.
#ifndef BLK_TEST_INTERP_INTERPLAUNCH_H
#define BLK_TEST_INTERP_INTERPLAUNCH_H

#include "../common/Guards.h"
#include "../common/RowCases.h"
#include "../common/TestSeed.h"
#include "Program.h"

namespace blk {

inline std::string interpLaunch(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                         ref::LaunchGrid grid, std::vector<ref::KArg> args) {
  std::string source = readKernel(file);
  if (source.empty())
    return "cannot read kernels/" + file + ".blk";
  std::map<std::string, std::string> defines;
  for (auto &[key, value] : bindings) // launch options and PTX names, not constants of the source
    if (key != "spec" && key != "num_warps" && key != "num_stages")
      defines[key] = value;
  Program prog(source, defines, file + ".blk");
  if (!prog.module)
    return prog.diagnostics;
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

} // namespace blk

#endif
