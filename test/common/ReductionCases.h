// test/kernels/reductions.blk against host results, on the interpreter and
// the GPU: sum/max/min/argmax/argmin and value-index pairs along each axis of
// non-square tiles, cumsum of f32 and i32 along each axis, transposes, and
// two reductions in a row inside each branch of a runtime `if`.
#ifndef BLK_TEST_COMMON_REDUCTIONCASES_H
#define BLK_TEST_COMMON_REDUCTIONCASES_H

#include "RowCases.h"

namespace blk::ref {

/// The kernels' tile shapes ([R, C], the file's `# variants:`).
struct TileShape {
  int r, c;
  Bindings bindings() const { return {{"R", std::to_string(r)}, {"C", std::to_string(c)}}; }
  std::string name() const { return "[" + std::to_string(r) + ", " + std::to_string(c) + "]"; }
};
inline const TileShape kTileShapes[] = {{32, 64}, {64, 16}};

/// Tiles of X, `programs` of them, [R, C] each: X[p][i][j].
struct Tiles {
  int programs, r, c;
  size_t at(int p, int i, int j) const { return (size_t(p) * r + i) * c + j; }
  size_t size() const { return size_t(programs) * r * c; }
};

inline std::vector<Check> reduceCase(const Launch &L, TileShape s, int axis, std::mt19937_64 &rng) {
  const int programs = 3;
  Tiles t{programs, s.r, s.c};
  int kept = axis == 0 ? s.c : s.r, along = axis == 0 ? s.r : s.c; // outputs per program, values per output
  size_t n = size_t(programs) * kept;
  Buffer x(DType::F32, t.size());
  x.fillUniform(rng, -1, 1); // distinct values: argmax/argmin have one answer
  std::vector<Buffer> outs;
  for (int k = 0; k < 9; ++k) // SUM MAX MIN ARGMAX ARGMIN PMAX_V PMAX_I PMIN_V PMIN_I
    outs.emplace_back(DType::F32, n);
  std::vector<KArg> args{KArg::buf_(x)};
  for (Buffer &b : outs) {
    b.poison();
    args.push_back(KArg::buf_(b));
  }
  std::string kernel = axis == 0 ? "reduce_axis0" : "reduce_axis1";
  std::string what = kernel + " " + s.name();
  std::string e = L("reductions", s.bindings(), kernel, unsigned(programs), args);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rsum(n), rmax(n), rmin(n);
  std::vector<int32_t> rargmax(n), rargmin(n);
  for (int p = 0; p < programs; ++p)
    for (int o = 0; o < kept; ++o) {
      size_t k = size_t(p) * kept + o;
      double sum = 0, mx = -INFINITY, mn = INFINITY;
      for (int a = 0; a < along; ++a) {
        double v = x.get(axis == 0 ? t.at(p, a, o) : t.at(p, o, a));
        sum += v;
        if (v > mx)
          mx = v, rargmax[k] = a;
        if (v < mn)
          mn = v, rargmin[k] = a;
      }
      rsum[k] = sum, rmax[k] = mx, rmin[k] = mn;
    }
  auto ints = [&](int k) { return rawValues<int32_t>(outs[k], n); };
  return {{what + " sum", relativeError(outs[0], rsum), 1e-6},
          exact(what + " max", values(outs[1]) == rmax),
          exact(what + " min", values(outs[2]) == rmin),
          exact(what + " argmax", ints(3) == rargmax),
          exact(what + " argmin", ints(4) == rargmin),
          exact(what + " max with indices: values", values(outs[5]) == rmax),
          exact(what + " max with indices: indices", ints(6) == rargmax),
          exact(what + " min with indices: values", values(outs[7]) == rmin),
          exact(what + " min with indices: indices", ints(8) == rargmin)};
}

inline std::vector<Check> scans2dCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  Buffer x(DType::F32, t.size()), x0(DType::F32, t.size()), x1(DType::F32, t.size());
  x.fillUniform(rng, -1, 1);
  std::vector<int32_t> iv(t.size());
  std::uniform_int_distribution<int32_t> dist(-1000, 1000);
  for (int32_t &v : iv)
    v = dist(rng);
  Buffer i = rawBuffer(iv), i0(DType::F32, t.size()), i1(DType::F32, t.size());
  for (Buffer *b : {&x0, &x1, &i0, &i1})
    b->poison();
  std::string what = "scans_2d " + s.name();
  std::string e = L("reductions", s.bindings(), "scans_2d", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(i), KArg::buf_(x0), KArg::buf_(x1), KArg::buf_(i0), KArg::buf_(i1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rx0(t.size()), rx1(t.size());
  std::vector<int32_t> ri0(t.size()), ri1(t.size());
  for (int p = 0; p < programs; ++p)
    for (int a = 0; a < s.r; ++a)
      for (int b = 0; b < s.c; ++b) {
        size_t k = t.at(p, a, b);
        rx0[k] = x.get(k) + (a ? rx0[t.at(p, a - 1, b)] : 0);
        ri0[k] = iv[k] + (a ? ri0[t.at(p, a - 1, b)] : 0);
        rx1[k] = x.get(k) + (b ? rx1[t.at(p, a, b - 1)] : 0);
        ri1[k] = iv[k] + (b ? ri1[t.at(p, a, b - 1)] : 0);
      }
  return {{what + " f32 along axis 0", relativeError(x0, rx0), 1e-6},
          {what + " f32 along axis 1", relativeError(x1, rx1), 1e-6},
          exact(what + " i32 along axis 0", rawValues<int32_t>(i0, t.size()) == ri0),
          exact(what + " i32 along axis 1", rawValues<int32_t>(i1, t.size()) == ri1)};
}

/// A bitwise reduction of `kernel` (xor_sums, or_reductions) of each tile's
/// i32 values (`sparse`: one value in 16 with one bit set, the rest 0, so
/// that ors of rows and columns differ) along axis 0, axis 1 and the whole
/// tile, against `op`.
template <typename Op>
std::vector<Check> bitwiseReductionCase(const Launch &L, TileShape s, std::mt19937_64 &rng, const char *kernel, Op op,
                                        bool sparse) {
  const int programs = 2;
  Tiles t{programs, s.r, s.c};
  std::vector<int32_t> iv(t.size());
  std::uniform_int_distribution<int32_t> dist(INT32_MIN, INT32_MAX);
  for (int32_t &v : iv) {
    uint32_t u = uint32_t(dist(rng));
    v = !sparse ? int32_t(u) : u % 16 ? 0 : int32_t(1u << ((u >> 4) % 32));
  }
  Buffer i = rawBuffer(iv), x0(DType::I32, size_t(programs) * s.c), x1(DType::I32, size_t(programs) * s.r),
         xa(DType::I32, programs);
  for (Buffer *b : {&x0, &x1, &xa})
    b->poison();
  std::string what = std::string(kernel) + " " + s.name();
  std::string e = L("reductions", s.bindings(), kernel, unsigned(programs),
                    {KArg::buf_(i), KArg::buf_(x0), KArg::buf_(x1), KArg::buf_(xa)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<int32_t> r0(size_t(programs) * s.c, 0), r1(size_t(programs) * s.r, 0), ra(programs, 0);
  for (int p = 0; p < programs; ++p)
    for (int a = 0; a < s.r; ++a)
      for (int b = 0; b < s.c; ++b) {
        int32_t v = iv[t.at(p, a, b)];
        r0[size_t(p) * s.c + b] = op(r0[size_t(p) * s.c + b], v);
        r1[size_t(p) * s.r + a] = op(r1[size_t(p) * s.r + a], v);
        ra[p] = op(ra[p], v);
      }
  return {exact(what + " along axis 0", rawValues<int32_t>(x0, r0.size()) == r0),
          exact(what + " along axis 1", rawValues<int32_t>(x1, r1.size()) == r1),
          exact(what + " whole tile", rawValues<int32_t>(xa, ra.size()) == ra)};
}

inline std::vector<Check> xorSumsCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  return bitwiseReductionCase(L, s, rng, "xor_sums", [](int32_t a, int32_t b) { return a ^ b; }, false);
}

inline std::vector<Check> orReductionsCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  return bitwiseReductionCase(L, s, rng, "or_reductions", [](int32_t a, int32_t b) { return a | b; }, true);
}

/// The same of booleans (each value set or not; one in 16 set): parity and
/// any, 0 or 1.
inline std::vector<Check> booleanXorSumsCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  return bitwiseReductionCase(L, s, rng, "boolean_xor_sums", [](int32_t a, int32_t b) { return a ^ int32_t(b != 0); },
                              true);
}

inline std::vector<Check> booleanOrReductionsCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  return bitwiseReductionCase(L, s, rng, "boolean_or_reductions",
                              [](int32_t a, int32_t b) { return a | int32_t(b != 0); }, true);
}

/// `softmax_builtin`: softmax along each axis against float64, to within the
/// f32 exponential and division (relativeError: the norm and each element).
inline std::vector<Check> softmaxBuiltinCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 3;
  Tiles t{programs, s.r, s.c};
  Buffer x(DType::F32, t.size()), s0(DType::F32, t.size()), s1(DType::F32, t.size()), se(DType::F32, t.size());
  x.fillUniform(rng, -4, 4);
  for (Buffer *b : {&s0, &s1, &se})
    b->poison();
  std::string what = "softmax_builtin " + s.name();
  std::string e = L("reductions", s.bindings(), "softmax_builtin", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(s0), KArg::buf_(s1), KArg::buf_(se)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> rows(t.size()), cols(t.size());
  // Softmax of the n elements at(0) .. at(n - 1) of x into out.
  auto softmaxOf = [&](int n, auto at, std::vector<double> &out) {
    double top = -INFINITY, sum = 0;
    for (int k = 0; k < n; ++k)
      top = std::max(top, x.get(at(k)));
    for (int k = 0; k < n; ++k)
      sum += std::exp(x.get(at(k)) - top);
    for (int k = 0; k < n; ++k)
      out[at(k)] = std::exp(x.get(at(k)) - top) / sum;
  };
  for (int p = 0; p < programs; ++p) {
    for (int a = 0; a < s.r; ++a)
      softmaxOf(s.c, [&](int b) { return t.at(p, a, b); }, rows);
    for (int b = 0; b < s.c; ++b)
      softmaxOf(s.r, [&](int a) { return t.at(p, a, b); }, cols);
  }
  return {{what + " dim None", relativeError(s0, cols), 1e-6},
          {what + " dim 1", relativeError(s1, rows), 1e-6},
          {what + " dim -1, ieee_rounding", relativeError(se, rows), 1e-6}};
}

inline std::vector<Check> trans2dCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 3;
  Tiles t{programs, s.r, s.c};
  Buffer x(DType::F32, t.size()), out(DType::F32, t.size());
  x.fillUniform(rng, -1, 1);
  out.poison();
  std::string what = "trans_2d " + s.name();
  std::string e = L("reductions", s.bindings(), "trans_2d", unsigned(programs), {KArg::buf_(x), KArg::buf_(out)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  Tiles transposed{programs, s.c, s.r};
  std::vector<double> ref(t.size());
  for (int p = 0; p < programs; ++p)
    for (int a = 0; a < s.r; ++a)
      for (int b = 0; b < s.c; ++b)
        ref[transposed.at(p, b, a)] = x.get(t.at(p, a, b));
  return {exact(what, values(out) == ref)}; // moved, not computed (poison, a NaN, never equals)
}

inline std::vector<Check> branchReductionsCase(const Launch &L, TileShape s, std::mt19937_64 &rng) {
  const int programs = 4; // even programs take the first branch, odd ones the second
  Tiles t{programs, s.r, s.c};
  Buffer x(DType::F32, t.size()), out(DType::F32, programs);
  x.fillUniform(rng, -1, 1);
  out.poison();
  std::string what = "branch_reductions " + s.name();
  std::string e = L("reductions", s.bindings(), "branch_reductions", unsigned(programs),
                    {KArg::buf_(x), KArg::buf_(out)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  // The kernel sums in f32; the reference rounds each sum to f32 where the
  // kernel's next step uses it, so the check sees the order of operations.
  std::vector<double> ref(programs);
  for (int p = 0; p < programs; ++p) {
    std::vector<double> cols(s.c, 0), rows(s.r);
    if (p % 2 == 0) {
      for (int b = 0; b < s.c; ++b) {
        for (int a = 0; a < s.r; ++a)
          cols[b] += x.get(t.at(p, a, b));
        cols[b] = float(cols[b]);
      }
      double total = 0;
      for (int a = 0; a < s.r; ++a) {
        rows[a] = -INFINITY;
        for (int b = 0; b < s.c; ++b)
          rows[a] = std::max(rows[a], double(float(x.get(t.at(p, a, b)) - cols[b])));
        total += rows[a];
      }
      ref[p] = total;
    } else {
      for (int a = 0; a < s.r; ++a) {
        rows[a] = -INFINITY;
        for (int b = 0; b < s.c; ++b)
          rows[a] = std::max(rows[a], x.get(t.at(p, a, b)));
      }
      double least = INFINITY;
      for (int b = 0; b < s.c; ++b) {
        double col = 0;
        for (int a = 0; a < s.r; ++a)
          col += double(float(x.get(t.at(p, a, b)) * rows[a]));
        least = std::min(least, col);
      }
      ref[p] = least;
    }
  }
  return {{what, relativeError(out, ref), 1e-5}};
}

} // namespace blk::ref

#endif
