// Float64 references of the shipped kernels and host conversions for
// f16/bf16, shared by the GPU tests and the benchmarks (and, later, the CPU
// interpreter's tests).
#ifndef BLK_TEST_COMMON_REFERENCE_H
#define BLK_TEST_COMMON_REFERENCE_H

#include "blk/Support/FloatBits.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace blk::ref {

enum class DType { F32, F16, BF16 };

inline const char *name(DType t) { return t == DType::F32 ? "f32" : t == DType::F16 ? "f16" : "bf16"; }
inline size_t bytes(DType t) { return t == DType::F32 ? 4 : 2; }
/// Relative-norm tolerance of a result stored in `t`.
inline double tolerance(DType t) { return t == DType::F32 ? 1e-5 : t == DType::F16 ? 5e-3 : 1e-2; }

using blk::fromBF16;
using blk::fromF16;
using blk::toBF16;
using blk::toF16;

/// A host buffer of `n` elements stored as `t`.
struct Buffer {
  DType type;
  std::vector<uint8_t> data;
  Buffer(DType t, size_t n) : type(t), data(n * bytes(t)) {}
  size_t size() const { return data.size() / bytes(type); }
  double get(size_t i) const {
    if (type == DType::F32) {
      float f;
      std::memcpy(&f, &data[i * 4], 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, &data[i * 2], 2);
    return type == DType::F16 ? fromF16(h) : fromBF16(h);
  }
  void set(size_t i, double v) {
    if (type == DType::F32) {
      float f = float(v);
      std::memcpy(&data[i * 4], &f, 4);
      return;
    }
    uint16_t h = type == DType::F16 ? toF16(float(v)) : toBF16(float(v));
    std::memcpy(&data[i * 2], &h, 2);
  }
  void fillUniform(std::mt19937_64 &rng, double lo, double hi) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (size_t i = 0; i < size(); ++i)
      set(i, dist(rng));
  }
  /// `v` as this buffer's type would store it (rounded through f32).
  static double rounded(DType t, double v) {
    Buffer b(t, 1);
    b.set(0, v);
    return b.get(0);
  }
  /// All bits set: a NaN in every float format, so unwritten elements fail.
  void poison() { std::memset(data.data(), 0xff, data.size()); }
};

/// Smallest normal number of `t`: results below it are not representable to
/// full precision, so the error is measured against at least this magnitude.
inline double minNormal(DType t) { return t == DType::F16 ? 6.103515625e-05 : 1.1754943508222875e-38; }

/// ||out - ref|| / max(||ref||, sqrt(n) * minNormal); infinity if any output
/// is NaN or infinite.
inline double relativeError(const Buffer &out, const std::vector<double> &ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = out.get(i);
    if (!std::isfinite(o))
      return INFINITY;
    num += (o - ref[i]) * (o - ref[i]);
    den += ref[i] * ref[i];
  }
  double floor = minNormal(out.type);
  den = std::max(den, double(ref.size()) * floor * floor);
  return std::sqrt(num / den);
}

inline double silu(double x) { return x / (1 + std::exp(-x)); }
inline double geluTanh(double x) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

/// The elementwise kernels of kernels/: name, input range, reference.
struct ElementwiseCase {
  const char *kernel;     // kernel name in the PTX
  const char *file;       // kernels/<file>.blk
  double lo, hi;          // input range
  double (*fn)(double, double);
};

inline const std::vector<ElementwiseCase> &elementwiseCases() {
  static const std::vector<ElementwiseCase> cases = {
      {"vector_add", "vector_add", -4, 4, [](double x, double y) { return x + y; }},
      {"kl_div", "kl_div", 0.01, 1, [](double p, double q) { return p * (std::log(p) - std::log(q)); }},
      {"swiglu_forward", "swiglu", -6, 6, [](double a, double b) { return silu(a) * b; }},
      {"geglu_forward", "geglu", -6, 6, [](double a, double b) { return geluTanh(a) * b; }},
  };
  return cases;
}

} // namespace blk::ref

#endif
