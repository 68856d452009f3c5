// fp8 conversions end to end (test/kernels/float8.blk) against the host's
// bit-exact conversions (blk/Support/FloatBits.h, checked against LLVM's
// APFloat by the unit tests), on the interpreter and on the GPU.
#ifndef BLK_TEST_COMMON_FLOAT8CASES_H
#define BLK_TEST_COMMON_FLOAT8CASES_H

#include "RowCases.h"

namespace blk::ref {

/// Inputs that exercise rounding and saturation in `t`: every code's value
/// and the midpoints next to it (ties to even), values past the largest
/// finite one, infinities, a NaN, denormals and random values of any scale.
inline std::vector<double> float8Inputs(DType t, size_t n, std::mt19937_64 &rng) {
  std::vector<double> v = {0.0, -0.0, 1e6, -1e6, INFINITY, -INFINITY, NAN, 464.0, 465.0, 61440.0, 61441.0};
  for (int bits = 0; bits < 256 && v.size() + 3 <= n; bits += 3) {
    double x = fromF8(uint8_t(bits), f8Format(t)), next = fromF8(uint8_t(bits + 1), f8Format(t));
    if (std::isfinite(x) && std::isfinite(next) && (bits & 0x7f) != 0x7f) {
      v.push_back(x);
      v.push_back((x + next) / 2); // a tie
      v.push_back(x + (next - x) * 0.75);
    }
  }
  std::uniform_real_distribution<double> mant(-2, 2);
  std::uniform_int_distribution<int> exp(-20, 17);
  while (v.size() < n)
    v.push_back(std::ldexp(mant(rng), exp(rng)));
  v.resize(n);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

/// Q = X.to(T), Y = Q.to(f32), D = Q * 3.0 - maximum(Q, 0) (each fp8
/// operation in f32, rounded back), R = per-program max of Q read back with
/// other=-1.5 past the end. Bytes must match exactly (a NaN only needs to
/// stay a NaN).
inline std::vector<Check> float8ConvertCase(const Launch &L, DType t, size_t n, std::mt19937_64 &rng) {
  const int block = 256;
  unsigned programs = unsigned((n + block - 1) / block);
  Buffer x(DType::F32, n), q(t, n), y(DType::F32, n), d(t, n), r(DType::F32, programs);
  std::vector<double> in = float8Inputs(t, n, rng);
  for (size_t i = 0; i < n; ++i)
    x.set(i, in[i]);
  for (Buffer *b : {&q, &y, &d, &r})
    b->poison();
  std::string e = L("float8", {{"T", name(t)}}, "convert", programs,
                    {KArg::buf_(x), KArg::buf_(q), KArg::buf_(y), KArg::buf_(d), KArg::buf_(r), KArg::int_(int(n))});
  std::string what = std::string("convert ") + name(t) + " n=" + std::to_string(n);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  F8 f = f8Format(t);
  auto round = [&](double v) { return fromF8(toF8(float(v), f), f); };
  auto same = [](double got, double want) { return std::isnan(want) ? std::isnan(got) : got == want; };
  bool qOk = true, yOk = true, dOk = true, rOk = true;
  size_t firstBad = n;
  std::vector<double> blockMax(programs, -INFINITY);
  for (size_t i = 0; i < n; ++i) {
    uint8_t want = toF8(float(in[i]), f);
    double wq = fromF8(want, f);
    bool ok = std::isnan(wq) ? std::isnan(q.get(i)) : q.data[i] == want;
    qOk &= ok;
    yOk &= same(y.get(i), wq);
    bool dGood = same(d.get(i), round(round(wq * 3.0) - std::fmax(wq, 0.0)));
    dOk &= dGood;
    if ((!ok || !dGood) && firstBad == n)
      firstBad = i;
    if (!std::isnan(wq))
      blockMax[i / block] = std::max(blockMax[i / block], wq);
  }
  for (unsigned p = 0; p < programs; ++p) {
    double want = blockMax[p];
    if ((p + 1) * size_t(block) > n) // lanes past the end read other=-1.5
      want = std::max(want, -1.5);
    rOk &= r.get(p) == want; // max ignores NaNs (maxnum)
  }
  std::string at = firstBad < n ? " (first mismatch at x=" + std::to_string(in[firstBad]) + ")" : "";
  return {exact(what + ": f32 -> fp8 bytes" + at, qOk), exact(what + ": fp8 -> f32", yOk),
          exact(what + ": arithmetic rounded back" + at, dOk), exact(what + ": max with other", rOk)};
}

} // namespace blk::ref

#endif
