// SwiGLU and GeGLU (tanh and erf) forward and backward on the CPU
// interpreter against float64, at ragged sizes, into separate outputs and in
// place.
#include "../common/GluCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

// No single element: it would be its own scale, and the exact GeGLU's
// 1 + erf(a / sqrt(2)), in f32 as PyTorch computes it, loses its digits as a
// falls below -4 (it is 0 below about -5.6, where |gelu(a)| < 1e-7); among
// more elements such values are far below the output's scale.
TEST(Glu, ForwardAndBackward) {
  BLK_SEEDED_RNG(rng);
  for (const ref::GluKind &k : ref::gluKinds())
    for (ref::DType t : ref::kAllTypes)
      for (size_t n : {size_t(7), size_t(1000), size_t(4097)}) {
        SCOPED_TRACE(std::string(k.name) + " " + ref::name(t) + " n=" + std::to_string(n));
        ref::expectChecks(ref::gluCase(interpLaunch, k, t, n, false, rng));
      }
}

/// The backward with dA and dB written over A and B.
std::string interpInPlace(const std::string &file, const ref::Bindings &bindings, const std::string &kernel,
                          unsigned grid, ref::Buffer &dc, ref::Buffer &a, ref::Buffer &b, int64_t n) {
  std::map<std::string, std::string> defines;
  for (auto &[key, value] : bindings)
    if (key != "spec")
      defines[key] = value;
  Program prog(readKernel(file), defines, file + ".blk");
  if (!prog.module)
    return prog.diagnostics;
  interp::Interpreter in(*prog.module);
  for (ref::Buffer *p : {&dc, &a, &b})
    in.addBuffer(p->data.data(), p->data.size());
  auto ptr = [](ref::Buffer &p) { return interp::Arg::pointer(p.data.data()); };
  if (mlir::failed(in.run(kernel, {grid, 1, 1}, {ptr(dc), ptr(a), ptr(b), ptr(a), ptr(b), interp::Arg::integer(n)})))
    return prog.diagnostics.empty() ? "the run failed" : prog.diagnostics;
  return "";
}

TEST(Glu, BackwardInPlace) {
  BLK_SEEDED_RNG(rng);
  for (const ref::GluKind &k : ref::gluKinds())
    for (ref::DType t : ref::kAllTypes)
      for (size_t n : {size_t(7), size_t(2049)}) {
        SCOPED_TRACE(std::string(k.name) + " " + ref::name(t) + " n=" + std::to_string(n));
        ref::expectChecks(ref::gluInPlaceCase(interpInPlace, k, t, n, rng));
      }
}

} // namespace
