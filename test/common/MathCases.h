// test/kernels/math.blk against float64 and exact references (interpreter
// and GPU): Triton's libdevice functions, clamp, sqrt_rn, fdiv, the float
// predicates, umulhi/popc/clz, the hints, and inline asm (GPU only).
#ifndef BLK_TEST_COMMON_MATHCASES_H
#define BLK_TEST_COMMON_MATHCASES_H

#include "RowCases.h"

namespace blk::ref {

/// The inverse error function in float64: Newton's method on erf from a
/// bisection start (the GPU binaries link no compiler library).
inline double erfinvRef(double y) {
  if (y <= -1 || y >= 1)
    return y == 1 ? INFINITY : y == -1 ? -INFINITY : NAN;
  double lo = -6, hi = 6;
  for (int i = 0; i < 60; ++i) {
    double mid = (lo + hi) / 2;
    (std::erf(mid) < y ? lo : hi) = mid;
  }
  double x = (lo + hi) / 2;
  for (int i = 0; i < 3; ++i)
    x -= (std::erf(x) - y) / (1.1283791670955126 * std::exp(-x * x));
  return x;
}

inline uint32_t popcount64(uint64_t v) { return uint32_t(__builtin_popcountll(v)); }
inline uint32_t leadingZeros(uint64_t v, unsigned width) {
  return v == 0 ? width : uint32_t(__builtin_clzll(v)) - (64 - width);
}

struct MathRow {
  const char *name;
  double (*fn)(double x, double p, double u, double q); // x in [-4, 4], p in [1/8, 8], u in (-1, 1), q in [1, 8]
};

/// The rows of `libdevice_rows`' output, in the kernel's order.
inline const std::vector<MathRow> &libdeviceRows() {
  static const std::vector<MathRow> r = {
      {"log1p", [](double, double, double u, double) { return std::log1p(u); }},
      {"expm1", [](double x, double, double, double) { return std::expm1(x); }},
      {"tan", [](double, double, double u, double) { return std::tan(u); }},
      {"cosh", [](double x, double, double, double) { return std::cosh(x); }},
      {"sinh", [](double x, double, double, double) { return std::sinh(x); }},
      {"erfinv", [](double, double, double u, double) { return erfinvRef(u); }},
      {"asin", [](double, double, double u, double) { return std::asin(u); }},
      {"acos", [](double, double, double u, double) { return std::acos(u); }},
      {"atan", [](double x, double, double, double) { return std::atan(x); }},
      {"asinh", [](double x, double, double, double) { return std::asinh(x); }},
      {"acosh", [](double, double, double, double q) { return std::acosh(q); }},
      {"atanh", [](double, double, double u, double) { return std::atanh(u); }},
      {"log10", [](double, double, double, double q) { return std::log10(q); }},
      {"cbrt", [](double x, double, double, double) { return std::cbrt(x); }},
      {"erfc", [](double x, double, double, double) { return std::erfc(x); }},
      {"exp10", [](double, double, double u, double) { return std::pow(10.0, u); }},
      {"lgamma", [](double, double, double, double q) { return std::lgamma(q); }},
      {"tgamma", [](double, double, double, double q) { return std::tgamma(q); }},
      {"pow", [](double x, double p, double, double) { return std::pow(p, x); }},
      {"atan2", [](double x, double p, double, double) { return std::atan2(x, p); }},
      {"hypot", [](double x, double p, double, double) { return std::hypot(x, p); }},
      {"fdiv", [](double x, double p, double, double) { return x / p; }},
  };
  return r;
}

/// `libdevice_rows` on n elements of `t` (BLOCK 256); `n16`: the variant
/// specialized on n divisible by 16.
inline std::vector<Check> libdeviceCase(const Launch &L, DType t, size_t n, bool n16, std::mt19937_64 &rng) {
  const auto &rows = libdeviceRows();
  Buffer x(t, n), p(t, n), u(t, n), q(t, n), out(t, n * rows.size());
  x.fillUniform(rng, -4, 4);
  p.fillUniform(rng, 0.125, 8);
  u.fillUniform(rng, -0.95, 0.95);
  q.fillUniform(rng, 1, 8);
  out.poison();
  Bindings bindings{{"T", name(t)}};
  if (n16)
    bindings.push_back({"spec", "n16"});
  std::string what = std::string("libdevice_rows ") + name(t) + " n=" + std::to_string(n) + (n16 ? " (n16)" : "");
  std::string e = L("math", bindings, "libdevice_rows", unsigned((n + 255) / 256),
                    {KArg::buf_(x), KArg::buf_(p), KArg::buf_(u), KArg::buf_(q), KArg::buf_(out),
                     KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<Check> checks;
  for (size_t f = 0; f < rows.size(); ++f) {
    Buffer row(t, n);
    std::memcpy(row.data.data(), out.data.data() + f * n * bytes(t), n * bytes(t));
    std::vector<double> ref(n);
    for (size_t i = 0; i < n; ++i)
      ref[i] = rows[f].fn(x.get(i), p.get(i), u.get(i), q.get(i));
    checks.push_back({what + " " + rows[f].name, relativeError(row, ref), tolerance(t)});
  }
  return checks;
}

/// `exact_rows`: every element equal to the float64 result rounded to `t`
/// (rounding functions, copysign and clamp in every type; sqrt_rn and the
/// IEEE fdiv on f32, whose single rounding of the exact result is the
/// reference's; on f16/bf16 they run in f32 and round again, within `t`'s
/// tolerance).
inline std::vector<Check> exactRowsCase(const Launch &L, DType t, size_t n, std::mt19937_64 &rng) {
  struct Row {
    const char *name;
    double (*fn)(double x, double p);
    bool exactInNarrow;
  };
  static const Row rows[] = {
      {"round", [](double x, double) { return std::round(4 * x); }, true},
      {"rint", [](double x, double) { return std::nearbyint(4 * x); }, true},
      {"nearbyint", [](double x, double) { return std::nearbyint(4 * x); }, true},
      {"trunc", [](double x, double) { return std::trunc(4 * x); }, true},
      {"copysign", [](double x, double p) { return std::copysign(p, x); }, true},
      {"clamp", [](double x, double) { return std::fmin(std::fmax(x, -1.5), 2.0); }, true},
      {"clamp(-p, p)", [](double x, double p) { return std::fmin(std::fmax(x, -p), p); }, true},
      {"sqrt_rn", [](double, double p) { return std::sqrt(p); }, true},
      {"fdiv ieee", [](double x, double p) { return x / p; }, false},
  };
  const size_t nRows = std::size(rows);
  Buffer x(t, n), p(t, n), out(t, n * nRows);
  x.fillUniform(rng, -4, 4);
  p.fillUniform(rng, 0.125, 8);
  out.poison();
  std::string what = std::string("exact_rows ") + name(t) + " n=" + std::to_string(n);
  std::string e = L("math", {{"T", name(t)}}, "exact_rows", unsigned((n + 255) / 256),
                    {KArg::buf_(x), KArg::buf_(p), KArg::buf_(out), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<Check> checks;
  for (size_t f = 0; f < nRows; ++f) {
    Buffer row(t, n), ref(t, n);
    std::memcpy(row.data.data(), out.data.data() + f * n * bytes(t), n * bytes(t));
    std::vector<double> refValues(n);
    for (size_t i = 0; i < n; ++i) {
      refValues[i] = rows[f].fn(x.get(i), p.get(i));
      ref.set(i, refValues[i]);
    }
    if (t == DType::F32 || rows[f].exactInNarrow) {
      size_t bad = n;
      for (size_t i = 0; i < n && bad == n; ++i)
        if (!(row.get(i) == ref.get(i)))
          bad = i;
      std::string where = bad == n ? "" : " (element " + std::to_string(bad) + ": " + std::to_string(row.get(bad)) +
                                              ", expected " + std::to_string(ref.get(bad)) + ")";
      checks.push_back(exact(what + " " + rows[f].name + where, bad == n));
    } else {
      checks.push_back({what + " " + rows[f].name, relativeError(row, refValues), tolerance(t)});
    }
  }
  return checks;
}

/// `float_classes` on NaN, infinities, signed zeros and numbers of `t`.
inline std::vector<Check> floatClassesCase(const Launch &L, DType t) {
  const std::vector<double> values = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -2.5, 0.75, -0.5, 3.0, 1e-3};
  size_t n = values.size() * 40 + 3; // several programs' worth, ragged
  Buffer x(t, n);
  for (size_t i = 0; i < n; ++i)
    x.set(i, values[i % values.size()]);
  constexpr int kRows = 9;
  std::vector<int32_t> poison(n * kRows, -7);
  Buffer out = rawBuffer(poison);
  std::string what = std::string("float_classes ") + name(t);
  std::string e = L("math", {{"T", name(t)}}, "float_classes", unsigned((n + 255) / 256),
                    {KArg::buf_(x), KArg::buf_(out), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {exact(what + ": " + e, false)};
  std::vector<int32_t> got = rawValues<int32_t>(out, n * kRows);
  const char *names[kRows] = {"isnan",
                              "isinf",
                              "signbit",
                              "clamp ALL keeps NaN",
                              "clamp NONE drops NaN",
                              "maximum ALL keeps NaN",
                              "maximum NONE drops NaN",
                              "minimum ALL keeps NaN",
                              "minimum NONE drops NaN"};
  std::vector<Check> checks;
  for (int r = 0; r < kRows; ++r) {
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; ++i) {
      double v = x.get(i);
      // Rows 3, 5 and 7 propagate a NaN of x; 4, 6 and 8 drop it.
      bool expected = r == 0   ? std::isnan(v)
                      : r == 1 ? std::isinf(v)
                      : r == 2 ? std::signbit(v)
                               : (r % 2 == 1) && std::isnan(v);
      if (got[size_t(r) * n + i] != int32_t(expected))
        bad = i;
    }
    checks.push_back(exact(what + " " + names[r] + (bad == n ? "" : " (element " + std::to_string(bad) + ")"),
                           bad == n));
  }
  return checks;
}

inline uint64_t umulhiRef(uint64_t a, uint64_t b, unsigned width) {
  if (width == 32)
    return (a * b) >> 32;
  return uint64_t((unsigned __int128)a * b >> 64);
}

/// `integer_rows32` / `integer_rows64` on random words (some zero, some all ones).
inline std::vector<Check> integerCase(const Launch &L, unsigned width, size_t n, std::mt19937_64 &rng) {
  std::vector<uint64_t> a(n), b(n);
  uint64_t mask = width == 32 ? 0xFFFFFFFFull : ~0ull;
  for (size_t i = 0; i < n; ++i) {
    a[i] = rng() & mask;
    b[i] = rng() & mask;
    if (i % 17 == 0)
      a[i] = i % 34 ? 0 : mask;
  }
  size_t rows = width == 32 ? 5 : 4;
  std::string what = "integer_rows" + std::to_string(width) + " n=" + std::to_string(n);
  std::vector<uint64_t> got(n * rows);
  std::string e;
  auto rowValue = [&](size_t r, size_t i) -> uint64_t {
    uint64_t x = a[i], y = b[i];
    if (width == 32) {
      switch (r) {
      case 0: case 1: return umulhiRef(x, y, 32);
      case 2: return umulhiRef(x, 0x9E3779B9, 32);
      case 3: return popcount64(x);
      default: return leadingZeros(x >> (y & 31), 32);
      }
    }
    switch (r) {
    case 0: case 1: return umulhiRef(x, y, 64);
    case 2: return popcount64(x);
    default: return leadingZeros(x >> (y & 63), 64);
    }
  };
  if (width == 32) {
    std::vector<uint32_t> a32(a.begin(), a.end()), b32(b.begin(), b.end()), o(n * rows, 0xDEADBEEF);
    Buffer ba = rawBuffer(a32), bb = rawBuffer(b32), bo = rawBuffer(o);
    e = L("math", {{"T", "f32"}}, "integer_rows32", unsigned((n + 255) / 256),
          {KArg::buf_(ba), KArg::buf_(bb), KArg::buf_(bo), KArg::int_(int64_t(n))});
    std::vector<uint32_t> r = rawValues<uint32_t>(bo, n * rows);
    got.assign(r.begin(), r.end());
  } else {
    std::vector<uint64_t> o(n * rows, 0xDEADBEEFDEADBEEFull);
    Buffer ba = rawBuffer(a), bb = rawBuffer(b), bo = rawBuffer(o);
    e = L("math", {{"T", "f32"}}, "integer_rows64", unsigned((n + 255) / 256),
          {KArg::buf_(ba), KArg::buf_(bb), KArg::buf_(bo), KArg::int_(int64_t(n))});
    got = rawValues<uint64_t>(bo, n * rows);
  }
  if (!e.empty())
    return {exact(what + ": " + e, false)};
  const char *names32[] = {"umulhi u32", "umulhi i32", "umulhi literal", "popc", "clz"};
  const char *names64[] = {"umulhi u64", "umulhi i64", "popc", "clz"};
  std::vector<Check> checks;
  for (size_t r = 0; r < rows; ++r) {
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; ++i)
      if (got[r * n + i] != rowValue(r, i))
        bad = i;
    checks.push_back(exact(what + " " + (width == 32 ? names32[r] : names64[r]) +
                               (bad == n ? "" : " (element " + std::to_string(bad) + ")"),
                           bad == n));
  }
  return checks;
}

/// `hints`: x * 2 + offs // 4, then that minus x, read back after debug_barrier.
inline std::vector<Check> hintsCase(const Launch &L, size_t n, std::mt19937_64 &rng) {
  std::vector<int32_t> xs(n), poison(2 * n, -7);
  for (auto &v : xs)
    v = int32_t(rng() % 2001) - 1000;
  Buffer x = rawBuffer(xs), out = rawBuffer(poison);
  std::string what = "hints n=" + std::to_string(n);
  std::string e = L("math", {{"T", "f32"}}, "hints", unsigned((n + 255) / 256),
                    {KArg::buf_(x), KArg::buf_(out), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {exact(what + ": " + e, false)};
  std::vector<int32_t> got = rawValues<int32_t>(out, 2 * n);
  bool ok = true;
  for (size_t i = 0; i < n; ++i)
    ok &= got[i] == xs[i] * 2 + int32_t(i / 4) && got[n + i] == xs[i] + int32_t(i / 4);
  return {exact(what, ok)};
}

/// `inline_asm` (the GPU only): rotates, byte-wise xor, sums and products,
/// negations in pairs of f32 and of f16 halves.
inline std::vector<Check> inlineAsmCase(const Launch &L, size_t n, std::mt19937_64 &rng) {
  std::vector<uint32_t> w(n), outW(2 * n, 0xDEADBEEF);
  std::vector<int8_t> c(n), outC(n, 0x11);
  for (size_t i = 0; i < n; ++i) {
    w[i] = uint32_t(rng());
    c[i] = int8_t(rng());
  }
  Buffer y(DType::F32, n), z(DType::F32, n), h(DType::F16, n), oy(DType::F32, 3 * n), oh(DType::F16, n);
  y.fillUniform(rng, -4, 4);
  z.fillUniform(rng, -4, 4);
  h.fillUniform(rng, -4, 4);
  oy.poison();
  oh.poison();
  Buffer bw = rawBuffer(w), bc = rawBuffer(c), bow = rawBuffer(outW), boc = rawBuffer(outC);
  std::string what = "inline_asm n=" + std::to_string(n);
  std::string e = L("math", {{"T", "f32"}}, "inline_asm", unsigned((n + 255) / 256),
                    {KArg::buf_(bw), KArg::buf_(bc), KArg::buf_(y), KArg::buf_(z), KArg::buf_(h), KArg::buf_(bow),
                     KArg::buf_(boc), KArg::buf_(oy), KArg::buf_(oh), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {exact(what + ": " + e, false)};
  std::vector<uint32_t> gw = rawValues<uint32_t>(bow, 2 * n);
  std::vector<int8_t> gc = rawValues<int8_t>(boc, n);
  bool rot = true, mov = true, bytes = true, sum = true, prod = true, neg = true, hneg = true;
  for (size_t i = 0; i < n; ++i) {
    rot &= gw[i] == ((w[i] << 7) | (w[i] >> 25));
    mov &= gw[n + i] == w[i];
    bytes &= gc[i] == int8_t(c[i] ^ 0x5A);
    sum &= oy.get(i) == double(float(y.get(i) + z.get(i)));
    prod &= oy.get(n + i) == double(float(y.get(i) * z.get(i)));
    neg &= oy.get(2 * n + i) == -y.get(i);
    hneg &= oh.get(i) == -h.get(i);
  }
  return {exact(what + " rotate (pack 1)", rot),           exact(what + " not pure", mov),
          exact(what + " xor of 4 bytes (pack 4)", bytes), exact(what + " two results: sum", sum),
          exact(what + " two results: product", prod),     exact(what + " f32 pairs (pack 2)", neg),
          exact(what + " f16x2 (pack 2)", hneg)};
}

} // namespace blk::ref

#endif
