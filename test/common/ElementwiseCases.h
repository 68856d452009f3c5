// The elementwise kernels of kernels/ (Reference.h's elementwiseCases) through
// a Launch, so that the interpreter and the GPU run them the same way, with
// guard bands and the per-element check.
#ifndef BLK_TEST_COMMON_ELEMENTWISECASES_H
#define BLK_TEST_COMMON_ELEMENTWISECASES_H

#include "RowCases.h"

namespace blk::ref {

/// Out = fn(X, Y) on `n` elements stored as `t`. `n16`: the variant compiled
/// for n divisible by 16 (vector accesses; scripts/build-ptx.sh's .n16).
inline std::vector<Check> elementwiseCase(const Launch &L, const ElementwiseCase &c, DType t, size_t n, bool n16,
                                          std::mt19937_64 &rng) {
  Buffer x(t, n), y(t, n), out(t, n);
  x.fillUniform(rng, c.lo, c.hi);
  y.fillUniform(rng, c.lo, c.hi);
  out.poison();
  Bindings bindings{{"T", name(t)}};
  if (n16)
    bindings.push_back({"spec", "n16"});
  std::string what = std::string(c.kernel) + " " + name(t) + " n=" + std::to_string(n) + (n16 ? " (n16)" : "");
  std::string e = L(c.file, bindings, c.kernel, unsigned((n + c.block - 1) / c.block),
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(out), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> expect(n);
  for (size_t i = 0; i < n; ++i)
    expect[i] = c.fn(x.get(i), y.get(i));
  return {{what, relativeError(out, expect), tolerance(t)}};
}

} // namespace blk::ref

#endif
