// The interpreter's Launch for the shared kernel cases (test/common): runs a
// kernel of kernels/ or test/kernels/ over host buffers.
#ifndef BLK_TEST_INTERP_INTERPLAUNCH_H
#define BLK_TEST_INTERP_INTERPLAUNCH_H

#include "../common/RowCases.h"
#include "Program.h"

namespace blk {

inline std::string interpLaunch(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                         ref::LaunchGrid grid, std::vector<ref::KArg> args) {
  std::string source = readKernel(file);
  if (source.empty())
    return "cannot read kernels/" + file + ".blk";
  Program prog(source, std::map<std::string, std::string>(bindings.begin(), bindings.end()), file + ".blk");
  if (!prog.module)
    return prog.diagnostics;
  interp::Interpreter in(*prog.module);
  std::vector<interp::Arg> iargs;
  for (ref::KArg &a : args) {
    if (a.kind == ref::KArg::Buf) {
      in.addBuffer(a.buf->data.data(), a.buf->data.size());
      iargs.push_back(interp::Arg::pointer(a.buf->data.data()));
    } else if (a.kind == ref::KArg::Int) {
      iargs.push_back(interp::Arg::integer(a.i));
    } else {
      iargs.push_back(interp::Arg::real(a.f));
    }
  }
  interp::RunOptions run;
  run.shuffle = true;
  if (mlir::failed(in.run(kernel, {grid.x, grid.y, grid.z}, iargs, run)))
    return prog.diagnostics.empty() ? "the run failed" : prog.diagnostics;
  return "";
}

} // namespace blk

#endif
