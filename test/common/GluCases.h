// The gated linear units of kernels/ (swiglu.blk, geglu.blk with the tanh
// approximation and the exact erf form), forward and backward, against
// float64 references, through a Launch (interpreter or GPU).
#ifndef BLK_TEST_COMMON_GLUCASES_H
#define BLK_TEST_COMMON_GLUCASES_H

#include "RowCases.h"

namespace blk::ref {

inline double geluErf(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }

inline double siluGrad(double x) {
  double s = 1 / (1 + std::exp(-x));
  return s + x * s * (1 - s);
}
inline double geluTanhGrad(double x) {
  const double k = std::sqrt(2.0 / M_PI), th = std::tanh(k * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + th) + 0.5 * x * (1 - th * th) * k * (1 + 3 * 0.044715 * x * x);
}
inline double geluErfGrad(double x) {
  return 0.5 * (1 + std::erf(x / std::sqrt(2.0))) + x * std::exp(-0.5 * x * x) / std::sqrt(2 * M_PI);
}

/// One activation: its file and kernels, the bindings that select it, f and f'.
struct GluKind {
  const char *name, *file, *forward, *backward;
  Bindings bindings; // after T, in the `# variants:` order
  double (*fn)(double);
  double (*grad)(double);
};

inline const std::vector<GluKind> &gluKinds() {
  static const std::vector<GluKind> kinds = {
      {"swiglu", "swiglu", "swiglu_forward", "swiglu_backward", {}, silu, siluGrad},
      {"geglu_tanh", "geglu", "geglu_forward", "geglu_backward", {}, geluTanh, geluTanhGrad},
      {"geglu_erf", "geglu", "geglu_forward", "geglu_backward", {{"EXACT", "True"}}, geluErf, geluErfGrad},
  };
  return kinds;
}

inline Bindings gluBindings(const GluKind &k, DType t, bool n16) {
  Bindings b{{"T", name(t)}};
  b.insert(b.end(), k.bindings.begin(), k.bindings.end());
  if (n16)
    b.push_back({"spec", "n16"});
  return b;
}

/// dA = dC * B * f'(A) and dB = dC * f(A) in float64.
struct GluGradients {
  std::vector<double> da, db;
};
inline GluGradients gluReference(const GluKind &k, const Buffer &dc, const Buffer &a, const Buffer &b) {
  GluGradients g{std::vector<double>(a.size()), std::vector<double>(a.size())};
  for (size_t i = 0; i < a.size(); ++i) {
    g.da[i] = dc.get(i) * b.get(i) * k.grad(a.get(i));
    g.db[i] = dc.get(i) * k.fn(a.get(i));
  }
  return g;
}

/// The forward's C, then the backward's dA and dB into separate (poisoned)
/// outputs, on `n` elements stored as `t`; `n16`: the variants compiled for
/// n divisible by 16.
inline std::vector<Check> gluCase(const Launch &L, const GluKind &k, DType t, size_t n, bool n16,
                                  std::mt19937_64 &rng) {
  Buffer a(t, n), b(t, n), c(t, n), dc(t, n), da(t, n), db(t, n);
  a.fillUniform(rng, -6, 6);
  b.fillUniform(rng, -6, 6);
  dc.fillUniform(rng, -1, 1);
  for (Buffer *p : {&c, &da, &db})
    p->poison();
  Bindings bindings = gluBindings(k, t, n16);
  std::string what = std::string(k.name) + " " + name(t) + " n=" + std::to_string(n) + (n16 ? " (n16)" : "");
  unsigned grid = unsigned((n + 1023) / 1024); // BLOCK 1024, the kernels' default
  std::string e =
      L(k.file, bindings, k.forward, grid, {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::int_(int64_t(n))});
  if (e.empty())
    e = L(k.file, bindings, k.backward, grid,
          {KArg::buf_(dc), KArg::buf_(a), KArg::buf_(b), KArg::buf_(da), KArg::buf_(db), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rc(n);
  for (size_t i = 0; i < n; ++i)
    rc[i] = k.fn(a.get(i)) * b.get(i);
  GluGradients g = gluReference(k, dc, a, b);
  return {{what + " forward C", relativeError(c, rc), tolerance(t)},
          {what + " backward dA", relativeError(da, g.da), tolerance(t)},
          {what + " backward dB", relativeError(db, g.db), tolerance(t)}};
}

/// Runs `kernel` of kernels/<file>.blk on `grid` programs with the arguments
/// (dc, a, b, a, b, n): the backward writing dA over A and dB over B.
using InPlaceLaunch =
    std::function<std::string(const std::string &file, const Bindings &bindings, const std::string &kernel,
                              unsigned grid, Buffer &dc, Buffer &a, Buffer &b, int64_t n)>;

/// The backward in place, as Liger-Kernel runs it: dA replaces A, dB replaces B.
inline std::vector<Check> gluInPlaceCase(const InPlaceLaunch &L, const GluKind &k, DType t, size_t n,
                                         std::mt19937_64 &rng) {
  Buffer a(t, n), b(t, n), dc(t, n);
  a.fillUniform(rng, -6, 6);
  b.fillUniform(rng, -6, 6);
  dc.fillUniform(rng, -1, 1);
  GluGradients g = gluReference(k, dc, a, b);
  std::string what = std::string(k.name) + " in place " + name(t) + " n=" + std::to_string(n);
  std::string e = L(k.file, gluBindings(k, t, false), k.backward, unsigned((n + 1023) / 1024), dc, a, b, int64_t(n));
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  return {{what + " dA", relativeError(a, g.da), tolerance(t)}, {what + " dB", relativeError(b, g.db), tolerance(t)}};
}

} // namespace blk::ref

#endif
