// Float64 references of the shipped kernels and host conversions for
// f16/bf16, shared by the GPU tests and the benchmarks (and, later, the CPU
// interpreter's tests).
#ifndef BLK_TEST_COMMON_REFERENCE_H
#define BLK_TEST_COMMON_REFERENCE_H

#include "blk/Support/FloatBits.h"

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace blk::ref {

/// Element types of test buffers: floats (fp8 too), and the integers of i8
/// matmuls.
enum class DType { F32, F16, BF16, I8, I32, F8E4M3, F8E5M2 };

inline const char *name(DType t) {
  switch (t) {
  case DType::F32: return "f32";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::I8: return "i8";
  case DType::I32: return "i32";
  case DType::F8E4M3: return "f8e4m3";
  case DType::F8E5M2: return "f8e5m2";
  }
  return "?";
}
inline bool isFloat8(DType t) { return t == DType::F8E4M3 || t == DType::F8E5M2; }
inline size_t bytes(DType t) {
  return t == DType::F32 || t == DType::I32 ? 4 : t == DType::I8 || isFloat8(t) ? 1 : 2;
}
inline bool isInteger(DType t) { return t == DType::I8 || t == DType::I32; }
inline F8 f8Format(DType t) { return t == DType::F8E5M2 ? F8::E5M2 : F8::E4M3; }
/// Relative-norm tolerance of a result stored in `t` (integers: exact; fp8:
/// half its spacing, 2^-4 and 2^-3 of the value).
inline double tolerance(DType t) {
  if (isFloat8(t))
    return t == DType::F8E4M3 ? 7e-2 : 1.3e-1;
  return isInteger(t) ? 1e-12 : t == DType::F32 ? 1e-5 : t == DType::F16 ? 5e-3 : 1e-2;
}

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
    if (type == DType::I32) {
      int32_t v;
      std::memcpy(&v, &data[i * 4], 4);
      return v;
    }
    if (type == DType::I8)
      return int8_t(data[i]);
    if (isFloat8(type))
      return fromF8(data[i], f8Format(type));
    uint16_t h;
    std::memcpy(&h, &data[i * 2], 2);
    return type == DType::F16 ? fromF16(h) : fromBF16(h);
  }
  /// Stores `v` rounded to the type (integers: to nearest, saturated; fp8:
  /// through f32, saturated, as cvt.rn.satfinite).
  void set(size_t i, double v) {
    if (isFloat8(type)) {
      data[i] = toF8(float(v), f8Format(type));
      return;
    }
    if (type == DType::F32) {
      float f = float(v);
      std::memcpy(&data[i * 4], &f, 4);
      return;
    }
    if (isInteger(type)) {
      double lo = type == DType::I8 ? -128 : -2147483648.0, hi = type == DType::I8 ? 127 : 2147483647.0;
      auto n = int32_t(std::llround(std::fmin(std::fmax(v, lo), hi)));
      if (type == DType::I8)
        data[i] = uint8_t(int8_t(n));
      else
        std::memcpy(&data[i * 4], &n, 4);
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
  /// All bits set: a NaN in every float format, so unwritten elements fail;
  /// integers get 0x7f bytes (i32: 2139062143, beyond any i8 product sum
  /// the tests make).
  void poison() { std::memset(data.data(), isInteger(type) ? 0x7f : 0xff, data.size()); }
};

/// Smallest normal number of `t`: results below it are not representable to
/// full precision, so the error is measured against at least this magnitude.
inline double minNormal(DType t) {
  if (isFloat8(t))
    return t == DType::F8E4M3 ? 0.015625 : 6.103515625e-05;
  return t == DType::F16 ? 6.103515625e-05 : 1.1754943508222875e-38;
}

/// `v` with 6 significant digits, for messages.
inline std::string show(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

/// How far one element may stray from the reference, as a multiple of the
/// norm tolerance. The norm averages a single wrong element away (one among
/// 2^20 moves it by about 1e-3, under the bf16 tolerance); this bound does not.
constexpr double kElementToleranceMultiple = 8;

/// The result of comparing an output with its reference: `value` is checked
/// against a tolerance; `detail` says where the output is worst.
struct Error {
  double value = 0;
  std::string detail;
  Error(double v = 0, std::string d = "") : value(v), detail(std::move(d)) {} // NOLINT: a bare number is an error
  operator double() const { return value; }                                   // NOLINT
};
inline std::ostream &operator<<(std::ostream &os, const Error &e) {
  return os << e.value << (e.detail.empty() ? "" : " (" + e.detail + ")");
}

/// max(norm, worst element / kElementToleranceMultiple), where
///   norm  = ||out - ref|| / max(||ref||, sqrt(n) * minNormal),
///   worst = max_i |out_i - ref_i| / max(|ref_i|, rms(ref), minNormal):
/// the norm bounds the error spread over the output, the element term one
/// wrong element against the output's scale. Infinity when any output or
/// reference value is NaN or infinite: NaN never passes.
inline Error relativeError(const Buffer &out, const std::vector<double> &ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double o = out.get(i);
    if (!std::isfinite(o) || !std::isfinite(ref[i]))
      return {INFINITY, "element " + std::to_string(i) + " is " + show(o) + ", reference " +
                            show(ref[i])};
    num += (o - ref[i]) * (o - ref[i]);
    den += ref[i] * ref[i];
  }
  double floor = minNormal(out.type);
  double rms = ref.empty() ? 0 : std::sqrt(den / double(ref.size()));
  den = std::max(den, double(ref.size()) * floor * floor);
  double norm = ref.empty() ? 0 : std::sqrt(num / den);
  double worst = 0;
  size_t at = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    double e = std::fabs(out.get(i) - ref[i]) / std::max({std::fabs(ref[i]), rms, floor});
    if (e > worst)
      worst = e, at = i;
  }
  std::string detail = "norm " + show(norm) + "; worst element " + std::to_string(at) + " of " +
                       std::to_string(ref.size()) + ": " + (ref.empty() ? "-" : show(out.get(at))) +
                       ", reference " + (ref.empty() ? "-" : show(ref[at])) + ", error " +
                       show(worst) + " of the scale, allowed " +
                       std::to_string(int(kElementToleranceMultiple)) + "x the tolerance";
  return {std::max(norm, worst / kElementToleranceMultiple), detail};
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
  int block;              // the kernel's default BLOCK: elements per program
};

inline const std::vector<ElementwiseCase> &elementwiseCases() {
  static const std::vector<ElementwiseCase> cases = {
      {"vector_add", "vector_add", -4, 4, [](double x, double y) { return x + y; }, 1024},
      {"kl_div", "kl_div", 0.01, 1, [](double p, double q) { return p * (std::log(p) - std::log(q)); }, 2048},
      {"swiglu_forward", "swiglu", -6, 6, [](double a, double b) { return silu(a) * b; }, 1024},
      {"geglu_forward", "geglu", -6, 6, [](double a, double b) { return geluTanh(a) * b; }, 1024},
  };
  return cases;
}

} // namespace blk::ref

#endif
