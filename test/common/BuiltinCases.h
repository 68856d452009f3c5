// test/kernels/builtins.blk against float64 (interpreter and GPU): every
// elementwise math builtin, each in its own row of the output, so that one
// function lowered as another (floor as ceil) fails by name.
#ifndef BLK_TEST_COMMON_BUILTINCASES_H
#define BLK_TEST_COMMON_BUILTINCASES_H

#include "RowCases.h"

namespace blk::ref {

struct Builtin {
  const char *name;
  double (*fn)(double x, double p); // x in [-4, 4], p in [1/8, 8]
};

/// The rows of `unary`'s output, in the kernel's order.
inline const std::vector<Builtin> &builtins() {
  static const std::vector<Builtin> b = {
      {"floor", [](double x, double) { return std::floor(x); }},
      {"ceil", [](double x, double) { return std::ceil(x); }},
      {"exp2", [](double x, double) { return std::exp2(x); }},
      {"log2", [](double, double p) { return std::log2(p); }},
      {"abs", [](double x, double) { return std::fabs(x); }},
      {"cos", [](double x, double) { return std::cos(x); }},
      {"erf", [](double x, double) { return std::erf(x); }},
      {"exp", [](double x, double) { return std::exp(x); }},
      {"log", [](double, double p) { return std::log(p); }},
      {"sqrt", [](double, double p) { return std::sqrt(p); }},
      {"rsqrt", [](double, double p) { return 1 / std::sqrt(p); }},
      {"sin", [](double x, double) { return std::sin(x); }},
      {"tanh", [](double x, double) { return std::tanh(x); }},
      {"sigmoid", [](double x, double) { return 1 / (1 + std::exp(-x)); }},
      {"fma", [](double x, double p) { return x * p + x; }},
      {"div_rn", [](double x, double p) { return x / p; }},
      {"maximum", [](double x, double p) { return std::max(x, p - 4); }},
      {"minimum", [](double x, double p) { return std::min(x, p - 4); }},
  };
  return b;
}

/// `unary` on n elements of `t`; `n16`: the variant specialized on n
/// divisible by 16. The kernel's BLOCK is 256.
inline std::vector<Check> builtinsCase(const Launch &L, DType t, size_t n, bool n16, std::mt19937_64 &rng) {
  const auto &fns = builtins();
  Buffer x(t, n), p(t, n), out(t, n * fns.size());
  x.fillUniform(rng, -4, 4);
  p.fillUniform(rng, 0.125, 8);
  out.poison();
  Bindings bindings{{"T", name(t)}};
  if (n16)
    bindings.push_back({"spec", "n16"});
  std::string what = std::string("unary ") + name(t) + " n=" + std::to_string(n) + (n16 ? " (n16)" : "");
  std::string e = L("builtins", bindings, "unary", unsigned((n + 255) / 256),
                    {KArg::buf_(x), KArg::buf_(p), KArg::buf_(out), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<Check> checks;
  for (size_t f = 0; f < fns.size(); ++f) {
    Buffer row(t, n);
    std::memcpy(row.data.data(), out.data.data() + f * n * bytes(t), n * bytes(t));
    std::vector<double> ref(n);
    for (size_t i = 0; i < n; ++i)
      ref[i] = fns[f].fn(x.get(i), p.get(i));
    checks.push_back({what + " " + fns[f].name, relativeError(row, ref), tolerance(t)});
  }
  return checks;
}

} // namespace blk::ref

#endif
