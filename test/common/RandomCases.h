// test/kernels/random.blk (interpreter and GPU) against a Philox reference
// written here from the Random123 definition and Triton's conventions: the
// seed as a u64 split into the two 32-bit key words (4x64: the whole seed in
// the first, 0 in the second), the offset as the counter's first word, 10
// rounds; rand as Triton's uint_to_uniform_float, randn by Box-Muller.
#ifndef BLK_TEST_COMMON_RANDOMCASES_H
#define BLK_TEST_COMMON_RANDOMCASES_H

#include "RowCases.h"

#include <array>

namespace blk::ref {

template <typename W> struct PhiloxWords;
template <> struct PhiloxWords<uint32_t> {
  static constexpr uint32_t keyA = 0x9E3779B9, keyB = 0xBB67AE85, roundA = 0xD2511F53, roundB = 0xCD9E8D57;
  static uint32_t hi(uint32_t a, uint32_t b) { return uint32_t((uint64_t(a) * b) >> 32); }
};
template <> struct PhiloxWords<uint64_t> {
  static constexpr uint64_t keyA = 0x9E3779B97F4A7C15, keyB = 0xBB67AE8584CAA73B, roundA = 0xD2E7470EE14C6C93,
                            roundB = 0xCA5A826395121157;
  static uint64_t hi(uint64_t a, uint64_t b) { return uint64_t((unsigned __int128)a * b >> 64); }
};

/// Philox4xW-`rounds` of counter `c` under key `k` (Random123's philox4x32/4x64).
template <typename W> std::array<W, 4> philox(std::array<W, 4> c, std::array<W, 2> k, int rounds = 10) {
  using P = PhiloxWords<W>;
  for (int r = 0; r < rounds; ++r) {
    c = {W(P::hi(P::roundB, c[2]) ^ c[1] ^ k[0]), W(P::roundB * c[2]), W(P::hi(P::roundA, c[0]) ^ c[3] ^ k[1]),
         W(P::roundA * c[0])};
    k = {W(k[0] + P::keyA), W(k[1] + P::keyB)};
  }
  return c;
}

/// Triton's randint4x for a 32-bit offset and for a 64-bit one.
inline std::array<uint32_t, 4> randint4x(uint64_t seed, uint32_t offset) {
  return philox<uint32_t>({offset, 0, 0, 0}, {uint32_t(seed), uint32_t(seed >> 32)});
}
inline uint64_t randint64(uint64_t seed, uint64_t offset) { return philox<uint64_t>({offset, 0, 0, 0}, {seed, 0})[0]; }

/// Triton's uint_to_uniform_float of a 32-bit word, in f32 as it computes.
inline float uniform(uint32_t bits) {
  int32_t x = int32_t(bits);
  x = x < 0 ? -(x + 1) : x;
  return float(x) * 4.6566127342e-10f;
}

/// Triton's pair_uniform_to_normal of the uniforms of two words: the cosine
/// term (randn), or the sine term.
inline double normal(uint32_t w0, uint32_t w1, bool sine = false) {
  double u1 = std::max(1.0e-7, double(uniform(w0))), th = 6.283185307179586 * double(uniform(w1));
  return std::sqrt(-2.0 * std::log(u1)) * (sine ? std::sin(th) : std::cos(th));
}

/// `philox` of random.blk at offsets start..start+n-1: randint4x, rand and
/// the 64-bit randint bit for bit, randn to within the f32 math functions
/// (absolute: near u1 = 1, the radius is small and the log relatively coarse).
inline std::vector<Check> philoxCase(const Launch &L, int64_t seed, int32_t start, size_t n) {
  std::vector<Buffer> words;
  for (int w = 0; w < 4; ++w)
    words.push_back(rawBuffer(std::vector<uint32_t>(n, 0xFFFFFFFFu)));
  Buffer u(DType::F32, n), z(DType::F32, n), wide = rawBuffer(std::vector<uint64_t>(n, ~uint64_t(0)));
  u.poison();
  z.poison();
  std::string what =
      "philox seed=" + std::to_string(seed) + " start=" + std::to_string(start) + " n=" + std::to_string(n);
  std::string e = L("random", {}, "philox_bits", unsigned((n + 255) / 256),
                    {KArg::buf_(words[0]), KArg::buf_(words[1]), KArg::buf_(words[2]), KArg::buf_(words[3]),
                     KArg::buf_(u), KArg::buf_(z), KArg::buf_(wide), KArg::int_(seed), KArg::int_(start),
                     KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<std::vector<uint32_t>> got;
  for (auto &w : words)
    got.push_back(rawValues<uint32_t>(w, n));
  std::vector<uint64_t> got64 = rawValues<uint64_t>(wide, n);
  std::vector<float> gotU = rawValues<float>(u, n), gotZ = rawValues<float>(z, n);
  size_t badWord = n, badUniform = n, badWide = n, badNormal = n;
  double worstNormal = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t offset = uint32_t(start + int32_t(i));
    std::array<uint32_t, 4> r = randint4x(uint64_t(seed), offset);
    for (int w = 0; w < 4; ++w)
      if (got[w][i] != r[w] && badWord == n)
        badWord = i;
    float want = uniform(r[0]);
    if (std::memcmp(&gotU[i], &want, 4) != 0 && badUniform == n)
      badUniform = i;
    if (got64[i] != randint64(uint64_t(seed), uint64_t(int64_t(int32_t(offset))) * 4294967311ull) && badWide == n)
      badWide = i;
    double d = std::fabs(double(gotZ[i]) - normal(r[0], r[1]));
    if (!(d <= 2e-3) && badNormal == n) // NaN fails too
      badNormal = i;
    worstNormal = std::max(worstNormal, d);
  }
  auto at = [&](size_t i) { return i == n ? std::string() : " (first wrong at " + std::to_string(i) + ")"; };
  return {exact(what + " randint4x" + at(badWord), badWord == n),
          exact(what + " rand" + at(badUniform), badUniform == n),
          exact(what + " randint of 64-bit offsets" + at(badWide), badWide == n),
          exact(what + " randn (worst " + std::to_string(worstNormal) + ")" + at(badNormal), badNormal == n)};
}

/// `philox4x`: rand4x bit for bit, randn4x (cosine and sine of each pair)
/// within the f32 math functions.
inline std::vector<Check> philox4xCase(const Launch &L, int64_t seed, size_t n) {
  Buffer u(DType::F32, 4 * n), z(DType::F32, 4 * n);
  u.poison();
  z.poison();
  std::string what = "philox4x seed=" + std::to_string(seed) + " n=" + std::to_string(n);
  std::string e = L("random", {}, "philox4x", unsigned((n + 255) / 256),
                    {KArg::buf_(u), KArg::buf_(z), KArg::int_(seed), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<float> gotU = rawValues<float>(u, 4 * n), gotZ = rawValues<float>(z, 4 * n);
  bool uniformOk = true, normalOk = true;
  for (size_t i = 0; i < n; ++i) {
    std::array<uint32_t, 4> r = randint4x(uint64_t(seed), uint32_t(i));
    for (int k = 0; k < 4; ++k) {
      float want = uniform(r[k]);
      uniformOk &= std::memcmp(&gotU[k * n + i], &want, 4) == 0;
      double wantZ = normal(r[k & 2], r[(k & 2) + 1], k & 1);
      normalOk &= std::fabs(double(gotZ[k * n + i]) - wantZ) <= 2e-3; // NaN fails
    }
  }
  return {exact(what + " rand4x", uniformOk), exact(what + " randn4x", normalOk)};
}

/// Triton's uint_to_uniform_float of a 64-bit word.
inline float uniform64(uint64_t bits) {
  int64_t x = int64_t(bits);
  x = x < 0 ? -(x + 1) : x;
  return float(x) * 1.0842020432385337e-19f;
}

/// `philox_parts`: philox and philox_impl bit for bit, uint_to_uniform_float
/// of 32- and 64-bit words bit for bit, pair_uniform_to_normal within the f32
/// math functions.
inline std::vector<Check> philoxPartsCase(const Launch &L, int64_t seed, size_t n) {
  Buffer w = rawBuffer(std::vector<uint32_t>(4 * n, 0xFFFFFFFFu));
  Buffer w64 = rawBuffer(std::vector<uint64_t>(4 * n, ~uint64_t(0)));
  Buffer u(DType::F32, 2 * n), z(DType::F32, 2 * n);
  u.poison();
  z.poison();
  std::string what = "philox_parts seed=" + std::to_string(seed) + " n=" + std::to_string(n);
  std::string e = L("random", {}, "philox_parts", unsigned((n + 255) / 256),
                    {KArg::buf_(w), KArg::buf_(w64), KArg::buf_(u), KArg::buf_(z), KArg::int_(seed),
                     KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<uint32_t> got = rawValues<uint32_t>(w, 4 * n);
  std::vector<uint64_t> got64 = rawValues<uint64_t>(w64, 4 * n);
  std::vector<float> gotU = rawValues<float>(u, 2 * n), gotZ = rawValues<float>(z, 2 * n);
  bool wordsOk = true, wideOk = true, uniformOk = true, normalOk = true;
  for (size_t i = 0; i < n; ++i) {
    uint32_t o = uint32_t(i);
    std::array<uint32_t, 4> r = philox<uint32_t>({o, o * o, 123456789u, uint32_t(n) - o},
                                                 {uint32_t(seed), uint32_t(uint64_t(seed) >> 32)}, 7);
    std::array<uint64_t, 4> r64 = philox<uint64_t>({uint64_t(i) * 3, uint64_t(i) + 5, 0, 0}, {uint64_t(seed), 77});
    for (size_t k = 0; k < 4; ++k) {
      wordsOk &= got[4 * i + k] == r[k];
      wideOk &= got64[4 * i + k] == r64[k];
    }
    float want[2] = {uniform(r[0]), uniform64(r64[0])};
    uniformOk &= std::memcmp(&gotU[2 * i], want, 8) == 0;
    for (int k = 0; k < 2; ++k)
      normalOk &= std::fabs(double(gotZ[2 * i + k]) - normal(r[0], r[1], k == 1)) <= 2e-3; // NaN fails
  }
  return {exact(what + " philox", wordsOk), exact(what + " philox_impl", wideOk),
          exact(what + " uint_to_uniform_float", uniformOk), exact(what + " pair_uniform_to_normal", normalOk)};
}

/// `philox_i32_seed`: a negative i32 seed sign-extends (the high key word all ones).
inline std::vector<Check> i32SeedCase(const Launch &L, int32_t seed, size_t n) {
  Buffer w = rawBuffer(std::vector<uint32_t>(n, 0));
  std::string e = L("random", {}, "philox_i32_seed", unsigned((n + 255) / 256),
                    {KArg::buf_(w), KArg::int_(seed), KArg::int_(int64_t(n))});
  std::string what = "philox_i32_seed seed=" + std::to_string(seed);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<uint32_t> got = rawValues<uint32_t>(w, n);
  bool ok = true;
  for (size_t i = 0; i < n; ++i)
    ok &= got[i] == randint4x(uint64_t(int64_t(seed)), uint32_t(i))[0];
  return {exact(what, ok)};
}

/// Moments of rand and randn over n offsets: rand in [0, 1) with mean 1/2 and
/// variance 1/12, randn with mean 0 and variance 1 (each within 5 standard
/// errors).
inline std::vector<Check> momentsCase(const Launch &L, int64_t seed, size_t n) {
  std::vector<Buffer> words;
  for (int w = 0; w < 4; ++w)
    words.push_back(rawBuffer(std::vector<uint32_t>(n, 0)));
  Buffer u(DType::F32, n), z(DType::F32, n), wide = rawBuffer(std::vector<uint64_t>(n, 0));
  std::string e = L("random", {}, "philox_bits", unsigned((n + 255) / 256),
                    {KArg::buf_(words[0]), KArg::buf_(words[1]), KArg::buf_(words[2]), KArg::buf_(words[3]),
                     KArg::buf_(u), KArg::buf_(z), KArg::buf_(wide), KArg::int_(seed), KArg::int_(0),
                     KArg::int_(int64_t(n))});
  std::string what = "moments seed=" + std::to_string(seed) + " n=" + std::to_string(n);
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  double su = 0, suu = 0, sz = 0, szz = 0;
  bool inRange = true;
  for (size_t i = 0; i < n; ++i) {
    double x = u.get(i), y = z.get(i);
    inRange &= x >= 0 && x < 1;
    su += x, suu += x * x, sz += y, szz += y * y;
  }
  double mu = su / n, vu = suu / n - mu * mu, mz = sz / n, vz = szz / n - mz * mz;
  double se = 5 / std::sqrt(double(n));
  auto within = [&](const char *name, double v, double expect, double tol) {
    return Check{what + " " + name + " = " + std::to_string(v) + ", expected " + std::to_string(expect),
                 std::fabs(v - expect), tol};
  };
  return {exact(what + " rand in [0, 1)", inRange), within("mean(rand)", mu, 0.5, se * std::sqrt(1.0 / 12)),
          within("var(rand)", vu, 1.0 / 12, se * std::sqrt(1.0 / 180)), within("mean(randn)", mz, 0.0, se),
          within("var(randn)", vz, 1.0, se * std::sqrt(2.0))};
}

/// `hash_bits`: u32 wrap-around with a u32 literal and bitcasts both ways, exact.
inline std::vector<Check> hashCase(const Launch &L, uint32_t seed, size_t n) {
  Buffer h = rawBuffer(std::vector<uint32_t>(n, 0)), f(DType::F32, n), b = rawBuffer(std::vector<int32_t>(n, 0));
  f.poison();
  std::string what = "hash_bits seed=" + std::to_string(seed) + " n=" + std::to_string(n);
  std::string e = L("random", {}, "hash_bits", unsigned((n + 255) / 256),
                    {KArg::buf_(h), KArg::buf_(f), KArg::buf_(b), KArg::int_(seed), KArg::int_(int64_t(n))});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<uint32_t> gotH = rawValues<uint32_t>(h, n);
  std::vector<float> gotF = rawValues<float>(f, n);
  std::vector<int32_t> gotB = rawValues<int32_t>(b, n);
  bool hashOk = true, floatOk = true, bitsOk = true;
  for (size_t i = 0; i < n; ++i) {
    uint32_t x = uint32_t(i) * 2654435761u + seed;
    x ^= x >> 16;
    uint32_t one = (x >> 9) | 0x3F800000u;
    float want;
    std::memcpy(&want, &one, 4);
    want -= 1.0f;
    int32_t wantBits;
    std::memcpy(&wantBits, &want, 4);
    hashOk &= gotH[i] == x;
    floatOk &= std::memcmp(&gotF[i], &want, 4) == 0;
    bitsOk &= gotB[i] == wantBits;
  }
  return {exact(what + " hash", hashOk), exact(what + " bitcast to f32", floatOk),
          exact(what + " bitcast to i32", bitsOk)};
}

} // namespace blk::ref

#endif
