// test/kernels/combine.blk against float64 and exact host references, on the
// interpreter and the GPU: reduce and associative_scan with combine functions
// over tuples of blocks (argmax with ties, Welford's mean and variance, the
// online softmax's statistics, products of 2x2 integer matrices forward and
// reversed, a running argmax) along each axis of non-square tiles and on 1-D
// rows, and over single blocks through the methods.
#ifndef BLK_TEST_COMMON_COMBINECASES_H
#define BLK_TEST_COMMON_COMBINECASES_H

#include "ReductionCases.h"

#include <array>

namespace blk::ref {

/// Values from -4 to 4 (integers, as f32): many ties, so "the first index of
/// the largest" has one answer that differs from "any index of it".
inline Buffer tiedValues(size_t n, std::mt19937_64 &rng) {
  Buffer b(DType::F32, n);
  std::uniform_int_distribution<int> dist(-4, 4);
  for (size_t i = 0; i < n; ++i)
    b.set(i, dist(rng));
  return b;
}

/// A 2x2 i32 matrix, row-major, multiplied as the kernels do (wrapping).
using Mat2 = std::array<uint32_t, 4>;
inline Mat2 mul(const Mat2 &a, const Mat2 &b) {
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
}

/// `n` matrices of determinant +-1 (shears and a swap), in four planes of
/// `n` i32 each: their products never collapse to zero mod 2^32 and depend on
/// the order of the factors.
inline std::vector<Mat2> unimodularMatrices(size_t n, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int> kind(0, 2), pick(0, 3);
  const int shears[] = {-2, -1, 1, 2};
  std::vector<Mat2> m(n);
  for (Mat2 &a : m) {
    uint32_t shear = uint32_t(shears[pick(rng)]);
    switch (kind(rng)) {
    case 0: a = {1, shear, 0, 1}; break;
    case 1: a = {1, 0, shear, 1}; break;
    default: a = {0, 1, 1, 0}; break;
    }
  }
  return m;
}
inline Buffer matrixPlanes(const std::vector<Mat2> &m) {
  std::vector<uint32_t> planes(4 * m.size());
  for (size_t i = 0; i < m.size(); ++i)
    for (int c = 0; c < 4; ++c)
      planes[c * m.size() + i] = m[i][c];
  return rawBuffer(planes);
}
inline std::vector<Mat2> matricesOf(const Buffer &planes, size_t n) {
  std::vector<uint32_t> v = rawValues<uint32_t>(planes, 4 * n);
  std::vector<Mat2> m(n);
  for (size_t i = 0; i < n; ++i)
    for (int c = 0; c < 4; ++c)
      m[i][c] = v[c * n + i];
  return m;
}

/// Prefix products along lines of `len` elements `stride` apart, starting
/// at each of `starts`: element i is M[0] @ ... @ M[i], or with `reverse`
/// M[len-1] @ ... @ M[i] (Triton's reversed scan: the partial from the end first).
inline std::vector<Mat2> prefixProducts(const std::vector<Mat2> &m, const std::vector<size_t> &starts, int len,
                                        size_t stride, bool reverse) {
  std::vector<Mat2> out(m.size());
  for (size_t s : starts)
    for (int k = 0; k < len; ++k) {
      int j = reverse ? len - 1 - k : k;
      size_t at = s + size_t(j) * stride, prev = reverse ? at + stride : at - stride;
      out[at] = k == 0 ? m[at] : mul(out[prev], m[at]);
    }
  return out;
}

/// The largest value along a line and its first index (numpy's argmax).
struct ArgMax {
  double value = -INFINITY;
  int32_t index = 0;
  void take(double v, int32_t i) {
    if (v > value || (v == value && i < index))
      value = v, index = i;
  }
};

/// (sum, mean, sum of squared deviations) of the values of a line, in float64.
struct Moments {
  double mean, m2;
  static Moments of(const std::vector<double> &xs) {
    double sum = 0, m2 = 0;
    for (double x : xs)
      sum += x;
    double mean = sum / double(xs.size());
    for (double x : xs)
      m2 += (x - mean) * (x - mean);
    return {mean, m2};
  }
};

/// The values of tile p along `axis` at position `o` of the other axis.
inline std::vector<double> line(const Buffer &x, const Tiles &t, int p, int axis, int o) {
  std::vector<double> v;
  for (int a = 0; a < (axis == 0 ? t.r : t.c); ++a)
    v.push_back(x.get(axis == 0 ? t.at(p, a, o) : t.at(p, o, a)));
  return v;
}

inline std::vector<Check> combineArgmaxCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 3;
  Tiles t{programs, s.r, s.c};
  Buffer x = tiedValues(t.size(), rng);
  Buffer v0(DType::F32, size_t(programs) * s.c), i0(DType::I32, size_t(programs) * s.c);
  Buffer v1(DType::F32, size_t(programs) * s.r), i1(DType::I32, size_t(programs) * s.r);
  Buffer va(DType::F32, programs), ia(DType::I32, programs);
  for (Buffer *b : {&v0, &i0, &v1, &i1, &va, &ia})
    b->poison();
  std::string what = "argmax_2d " + s.name();
  std::string e = L("combine", s.bindings(), "argmax_2d", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(v0), KArg::buf_(i0), KArg::buf_(v1), KArg::buf_(i1), KArg::buf_(va),
                     KArg::buf_(ia)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rv[3];
  std::vector<int32_t> ri[3];
  for (int p = 0; p < programs; ++p) {
    for (int axis : {0, 1})
      for (int o = 0; o < (axis == 0 ? s.c : s.r); ++o) {
        ArgMax m;
        std::vector<double> l = line(x, t, p, axis, o);
        for (size_t a = 0; a < l.size(); ++a)
          m.take(l[a], int32_t(a));
        rv[axis].push_back(m.value);
        ri[axis].push_back(m.index);
      }
    ArgMax whole;
    for (int a = 0; a < s.r; ++a)
      for (int b = 0; b < s.c; ++b)
        whole.take(x.get(t.at(p, a, b)), a * s.c + b);
    rv[2].push_back(whole.value);
    ri[2].push_back(whole.index);
  }
  auto ints = [](const Buffer &b) { return rawValues<int32_t>(b, b.size()); };
  return {exact(what + " along axis 0: values", values(v0) == rv[0]),
          exact(what + " along axis 0: first indices", ints(i0) == ri[0]),
          exact(what + " along axis 1: values", values(v1) == rv[1]),
          exact(what + " along axis 1: first indices", ints(i1) == ri[1]),
          exact(what + " whole tile (keep_dims): value", values(va) == rv[2]),
          exact(what + " whole tile (keep_dims): first flat index", ints(ia) == ri[2])};
}

inline std::vector<Check> welfordCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  Buffer x(DType::F32, t.size());
  x.fillUniform(rng, 2, 4); // a mean far from 0: the deviations are what Welford keeps exact
  std::vector<Buffer> outs;
  for (int axis : {0, 1})
    for (int k = 0; k < 3; ++k) // mean, M2, count
      outs.emplace_back(DType::F32, size_t(programs) * (axis == 0 ? s.c : s.r));
  std::vector<KArg> args{KArg::buf_(x)};
  for (Buffer &b : outs) {
    b.poison();
    args.push_back(KArg::buf_(b));
  }
  std::string what = "welford_2d " + s.name();
  std::string e = L("combine", s.bindings(), "welford_2d", unsigned(programs), args);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<Check> checks;
  for (int axis : {0, 1}) {
    std::vector<double> mean, m2, count;
    for (int p = 0; p < programs; ++p)
      for (int o = 0; o < (axis == 0 ? s.c : s.r); ++o) {
        Moments m = Moments::of(line(x, t, p, axis, o));
        mean.push_back(m.mean);
        m2.push_back(m.m2);
        count.push_back(axis == 0 ? s.r : s.c);
      }
    std::string along = what + " along axis " + std::to_string(axis);
    checks.push_back({along + ": mean", relativeError(outs[3 * axis], mean), 1e-5});
    checks.push_back({along + ": sum of squared deviations", relativeError(outs[3 * axis + 1], m2), 1e-5});
    checks.push_back(exact(along + ": count", values(outs[3 * axis + 2]) == count));
  }
  return checks;
}

inline std::vector<Check> softmaxStatsCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  Buffer x(DType::F32, t.size());
  x.fillUniform(rng, -6, 6);
  Buffer m0(DType::F32, size_t(programs) * s.c), s0(DType::F32, size_t(programs) * s.c);
  Buffer m1(DType::F32, size_t(programs) * s.r), s1(DType::F32, size_t(programs) * s.r);
  for (Buffer *b : {&m0, &s0, &m1, &s1})
    b->poison();
  std::string what = "softmax_stats_2d " + s.name();
  std::string e = L("combine", s.bindings(), "softmax_stats_2d", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(m0), KArg::buf_(s0), KArg::buf_(m1), KArg::buf_(s1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rmax[2], rsum[2];
  for (int axis : {0, 1})
    for (int p = 0; p < programs; ++p)
      for (int o = 0; o < (axis == 0 ? s.c : s.r); ++o) {
        std::vector<double> l = line(x, t, p, axis, o);
        double mx = *std::max_element(l.begin(), l.end()), sum = 0;
        for (double v : l)
          sum += std::exp(v - mx);
        rmax[axis].push_back(mx);
        rsum[axis].push_back(sum);
      }
  return {exact(what + " along axis 0: max", values(m0) == rmax[0]),
          {what + " along axis 0: sum of exp(x - max)", relativeError(s0, rsum[0]), 1e-5},
          exact(what + " along axis 1: max", values(m1) == rmax[1]),
          {what + " along axis 1: sum of exp(x - max)", relativeError(s1, rsum[1]), 1e-5}};
}

inline std::vector<Check> matrixScansCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  std::vector<Mat2> m = unimodularMatrices(t.size(), rng);
  Buffer in = matrixPlanes(m);
  std::vector<Buffer> outs; // F0 B0 F1 B1
  for (int k = 0; k < 4; ++k) {
    outs.emplace_back(DType::I32, 4 * t.size());
    outs.back().poison();
  }
  std::string what = "matrix_scans_2d " + s.name();
  std::string e = L("combine", s.bindings(), "matrix_scans_2d", unsigned(programs),
                    {KArg::buf_(in), KArg::buf_(outs[0]), KArg::buf_(outs[1]), KArg::buf_(outs[2]),
                     KArg::buf_(outs[3]), KArg::int_(int64_t(t.size()))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<size_t> columnStarts, rowStarts; // lines along axis 0 and axis 1
  for (int p = 0; p < programs; ++p) {
    for (int b = 0; b < s.c; ++b)
      columnStarts.push_back(t.at(p, 0, b));
    for (int a = 0; a < s.r; ++a)
      rowStarts.push_back(t.at(p, a, 0));
  }
  auto check = [&](const std::string &how, int k, const std::vector<Mat2> &ref) {
    return exact(what + " " + how, matricesOf(outs[k], t.size()) == ref);
  };
  return {check("along axis 0", 0, prefixProducts(m, columnStarts, s.r, size_t(s.c), false)),
          check("along axis 0, reversed", 1, prefixProducts(m, columnStarts, s.r, size_t(s.c), true)),
          check("along axis 1", 2, prefixProducts(m, rowStarts, s.c, 1, false)),
          check("along axis 1, reversed", 3, prefixProducts(m, rowStarts, s.c, 1, true))};
}

inline std::vector<Check> runningArgmaxCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  Buffer x = tiedValues(t.size(), rng);
  Buffer v0(DType::F32, t.size()), i0(DType::I32, t.size()), v1(DType::F32, t.size()), i1(DType::I32, t.size());
  for (Buffer *b : {&v0, &i0, &v1, &i1})
    b->poison();
  std::string what = "running_argmax_2d " + s.name();
  std::string e = L("combine", s.bindings(), "running_argmax_2d", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(v0), KArg::buf_(i0), KArg::buf_(v1), KArg::buf_(i1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rv0(t.size()), rv1(t.size());
  std::vector<int32_t> ri0(t.size()), ri1(t.size());
  for (int p = 0; p < programs; ++p) {
    for (int b = 0; b < s.c; ++b) { // forward along axis 0
      ArgMax m;
      for (int a = 0; a < s.r; ++a) {
        m.take(x.get(t.at(p, a, b)), a);
        rv0[t.at(p, a, b)] = m.value, ri0[t.at(p, a, b)] = m.index;
      }
    }
    for (int a = 0; a < s.r; ++a) { // reversed along axis 1
      ArgMax m;
      for (int b = s.c - 1; b >= 0; --b) {
        m.take(x.get(t.at(p, a, b)), b);
        rv1[t.at(p, a, b)] = m.value, ri1[t.at(p, a, b)] = m.index;
      }
    }
  }
  auto ints = [](const Buffer &b) { return rawValues<int32_t>(b, b.size()); };
  return {exact(what + " along axis 0: values", values(v0) == rv0),
          exact(what + " along axis 0: first indices", ints(i0) == ri0),
          exact(what + " along axis 1, reversed: values", values(v1) == rv1),
          exact(what + " along axis 1, reversed: first indices", ints(i1) == ri1)};
}

/// combine_1d: rows of C elements, one per program.
inline std::vector<Check> combine1dCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 3, c = s.c;
  size_t n = size_t(programs) * c;
  Buffer x = tiedValues(n, rng);
  std::vector<Mat2> m = unimodularMatrices(n, rng);
  Buffer in = matrixPlanes(m);
  Buffer v(DType::F32, programs), i(DType::I32, programs), mean(DType::F32, programs), var(DType::F32, programs),
      mx(DType::F32, programs), sum(DType::F32, programs), f(DType::I32, 4 * n), b(DType::I32, 4 * n);
  for (Buffer *o : {&v, &i, &mean, &var, &mx, &sum, &f, &b})
    o->poison();
  std::string what = "combine_1d [" + std::to_string(c) + "]";
  std::string e = L("combine", s.bindings(), "combine_1d", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(in), KArg::buf_(v), KArg::buf_(i), KArg::buf_(mean), KArg::buf_(var),
                     KArg::buf_(mx), KArg::buf_(sum), KArg::buf_(f), KArg::buf_(b), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rv, rmean, rvar, rmax, rsum;
  std::vector<int32_t> ri;
  std::vector<size_t> starts;
  for (int p = 0; p < programs; ++p) {
    std::vector<double> row;
    ArgMax am;
    for (int k = 0; k < c; ++k) {
      row.push_back(x.get(size_t(p) * c + k));
      am.take(row.back(), k);
    }
    rv.push_back(am.value);
    ri.push_back(am.index);
    Moments mo = Moments::of(row);
    rmean.push_back(mo.mean);
    rvar.push_back(mo.m2 / c);
    double total = 0;
    for (double r : row)
      total += std::exp(r - am.value);
    rmax.push_back(am.value);
    rsum.push_back(total);
    starts.push_back(size_t(p) * c);
  }
  return {exact(what + " argmax: value", values(v) == rv),
          exact(what + " argmax: first index", rawValues<int32_t>(i, programs) == ri),
          {what + " Welford: mean", relativeError(mean, rmean), 1e-5},
          {what + " Welford: variance", relativeError(var, rvar), 1e-5},
          exact(what + " softmax statistics: max", values(mx) == rmax),
          {what + " softmax statistics: sum of exp(x - max)", relativeError(sum, rsum), 1e-5},
          exact(what + " matrix products", matricesOf(f, n) == prefixProducts(m, starts, c, 1, false)),
          exact(what + " matrix products, reversed", matricesOf(b, n) == prefixProducts(m, starts, c, 1, true))};
}

/// single_2d: products (odd factors: they never vanish mod 2^32) by x.reduce
/// along each axis and a reversed running product by x.associative_scan.
inline std::vector<Check> singleBlockCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  std::vector<int32_t> xv(t.size());
  std::uniform_int_distribution<int> odd(-2, 1);
  for (int32_t &v : xv)
    v = 2 * odd(rng) + 1; // -3, -1, 1, 3
  Buffer x = rawBuffer(xv), p0(DType::I32, size_t(programs) * s.c), p1(DType::I32, size_t(programs) * s.r),
         s1(DType::I32, t.size());
  for (Buffer *b : {&p0, &p1, &s1})
    b->poison();
  std::string what = "single_2d " + s.name();
  std::string e = L("combine", s.bindings(), "single_2d", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(p0), KArg::buf_(p1), KArg::buf_(s1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<uint32_t> r0(size_t(programs) * s.c, 1), r1(size_t(programs) * s.r, 1), rs(t.size());
  for (int p = 0; p < programs; ++p)
    for (int a = 0; a < s.r; ++a) {
      uint32_t running = 1;
      for (int b = s.c - 1; b >= 0; --b) {
        uint32_t v = uint32_t(xv[t.at(p, a, b)]);
        r0[size_t(p) * s.c + b] *= v;
        r1[size_t(p) * s.r + a] *= v;
        rs[t.at(p, a, b)] = running *= v;
      }
    }
  auto u32 = [](const Buffer &b) { return rawValues<uint32_t>(b, b.size()); };
  return {exact(what + " x.reduce along axis 0", u32(p0) == r0),
          exact(what + " x.reduce along axis 1", u32(p1) == r1),
          exact(what + " x.associative_scan along axis 1, reversed", u32(s1) == rs)};
}

} // namespace blk::ref

#endif
