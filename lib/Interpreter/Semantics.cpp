// Elementwise semantics of arith and math ops, per element type.
#include "Executor.h"

#include "blk/Dialect/Blk/IR/LibDevice.h"
#include "blk/Support/FloatBits.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"
#include <cmath>
#include <cstring>

using namespace mlir;

namespace blk::interp {

Tensor Tensor::like(Type type, size_t n) {
  Tensor t;
  t.elem = getElementTypeOrSelf(type);
  if (auto r = dyn_cast<RankedTensorType>(type))
    t.shape.assign(r.getShape().begin(), r.getShape().end());
  if (t.isFloat())
    t.f.resize(n);
  else
    t.i.resize(n);
  return t;
}

Tensor Tensor::element(size_t flat) const {
  Tensor t = like(elem, 1);
  t.copyElement(0, *this, flat);
  return t;
}

void Tensor::copyElement(size_t flat, const Tensor &from, size_t j) {
  if (isFloat())
    f[flat] = from.f[j];
  else
    i[flat] = from.i[j];
}

void multiplyAccumulate(Tensor a, Tensor b, Tensor &c, bool tf32) {
  if (tf32)
    for (Tensor *t : {&a, &b})
      for (double &v : t->f)
        v = roundToTf32(float(v));
  int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k) {
        size_t ia = size_t(m * K + k), ib = size_t(k * N + n), ic = size_t(m * N + n);
        if (c.isFloat())
          c.f[ic] = roundTo(c.elem, std::fma(a.f[ia], b.f[ib], c.f[ic]));
        else
          c.i[ic] = int64_t(int32_t(uint32_t(c.i[ic] + a.i[ia] * b.i[ib])));
      }
}

double roundTo(Type t, double v) {
  if (t.isF64())
    return v;
  if (t.isF32())
    return double(float(v));
  if (t.isF16())
    return fromF16(toF16(float(v)));
  if (t.isBF16())
    return fromBF16(toBF16(float(v)));
  if (isFloat8(t)) // through f32, saturated, as cvt.rn.satfinite
    return fromF8(toF8(float(v), float8Format(t)), float8Format(t));
  return v;
}

/// `v` narrowed to `t` toward zero (cvt.rz): the nearest value of `t`, one
/// step back toward zero where it lies farther from zero than `v` (then the
/// nearest was the neighbour above, and the one below is the truncation).
static double roundTowardZero(Type t, double v) {
  double r = roundTo(t, v);
  if (std::isnan(r) || std::fabs(r) <= std::fabs(v))
    return r;
  if (t.isF32())
    return double(std::nextafter(float(r), 0.f));
  // f16 and bf16 are sign and magnitude: one less in the bits is one step
  // toward zero (from infinity, to the largest finite value).
  if (t.isF16())
    return fromF16(uint16_t(toF16(float(r)) - 1));
  return fromBF16(uint16_t(toBF16(float(r)) - 1));
}

int64_t wrapInt(unsigned width, int64_t v) {
  if (width >= 64)
    return v;
  if (width == 1)
    return v & 1;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (width - 1))
    u |= ~mask;
  return int64_t(u);
}

static uint64_t unsignedOf(unsigned width, int64_t v) {
  return width >= 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << width) - 1);
}

static bool comparePredicate(arith::CmpIPredicate p, int64_t a, int64_t b, unsigned w) {
  uint64_t ua = unsignedOf(w, a), ub = unsignedOf(w, b);
  if (w == 1) { // i1 compares as unsigned 0/1 for signed predicates too (true = -1 in two's complement)
    a = -(a & 1);
    b = -(b & 1);
  }
  switch (p) {
  case arith::CmpIPredicate::eq: return a == b;
  case arith::CmpIPredicate::ne: return a != b;
  case arith::CmpIPredicate::slt: return a < b;
  case arith::CmpIPredicate::sle: return a <= b;
  case arith::CmpIPredicate::sgt: return a > b;
  case arith::CmpIPredicate::sge: return a >= b;
  case arith::CmpIPredicate::ult: return ua < ub;
  case arith::CmpIPredicate::ule: return ua <= ub;
  case arith::CmpIPredicate::ugt: return ua > ub;
  case arith::CmpIPredicate::uge: return ua >= ub;
  }
  return false;
}

static bool comparePredicate(arith::CmpFPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::AlwaysFalse: return false;
  case P::OEQ: return !unordered && a == b;
  case P::OGT: return !unordered && a > b;
  case P::OGE: return !unordered && a >= b;
  case P::OLT: return !unordered && a < b;
  case P::OLE: return !unordered && a <= b;
  case P::ONE: return !unordered && a != b;
  case P::ORD: return !unordered;
  case P::UEQ: return unordered || a == b;
  case P::UGT: return unordered || a > b;
  case P::UGE: return unordered || a >= b;
  case P::ULT: return unordered || a < b;
  case P::ULE: return unordered || a <= b;
  case P::UNE: return unordered || a != b;
  case P::UNO: return unordered;
  case P::AlwaysTrue: return true;
  }
  return false;
}

/// Float-to-integer conversion as the GPU does it (cvt.rzi saturates, NaN to 0).
static int64_t floatToInt(double v, unsigned width, bool isUnsigned) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  if (isUnsigned) {
    double hi = width >= 64 ? 18446744073709551615.0 : double((uint64_t(1) << width) - 1);
    uint64_t u = t <= 0 ? 0 : t >= hi ? (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1) : uint64_t(t);
    return wrapInt(width, int64_t(u));
  }
  double lo = -std::ldexp(1.0, int(width) - 1), hi = std::ldexp(1.0, int(width) - 1) - 1;
  if (t <= lo)
    return wrapInt(width, int64_t(lo));
  if (t >= hi)
    return width >= 64 ? INT64_MAX : int64_t(hi);
  return int64_t(t);
}

/// The bits of a float of type `t` (held as a double already rounded to it).
static uint64_t floatToBits(Type t, double v) {
  if (t.isF64()) {
    uint64_t u;
    std::memcpy(&u, &v, 8);
    return u;
  }
  if (t.isF16())
    return toF16(float(v));
  if (t.isBF16())
    return toBF16(float(v));
  if (isFloat8(t))
    return toF8(float(v), float8Format(t));
  return floatBits(float(v));
}

/// The float of type `t` whose bits are the low bits of `u`.
static double bitsToFloat(Type t, uint64_t u) {
  if (t.isF64()) {
    double d;
    std::memcpy(&d, &u, 8);
    return d;
  }
  if (t.isF16())
    return fromF16(uint16_t(u));
  if (t.isBF16())
    return fromBF16(uint16_t(u));
  if (isFloat8(t))
    return fromF8(uint8_t(u), float8Format(t));
  return bitsFloat(uint32_t(u));
}

/// An integer converted to `t` with one rounding (through double, a 64-bit
/// integer could round twice on its way to f32).
static double intToFloat(Type t, int64_t v, bool isUnsigned) {
  if (t.isF32())
    return isUnsigned ? double(float(uint64_t(v))) : double(float(v));
  return roundTo(t, isUnsigned ? double(uint64_t(v)) : double(v));
}

LogicalResult evalElementwise(Operation *op, ArrayRef<const Tensor *> in, Tensor &out) {
  Type resultType = op->getResult(0).getType();
  size_t n = 1;
  for (const Tensor *t : in)
    n = std::max(n, t->size());
  out = Tensor::like(resultType, n);
  Type elem = out.elem;
  unsigned w = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
  auto F = [&](size_t k, size_t idx) { return in[k]->f[in[k]->f.size() == 1 ? 0 : idx]; };
  auto I = [&](size_t k, size_t idx) { return in[k]->i[in[k]->i.size() == 1 ? 0 : idx]; };
  unsigned inWidth = in.empty() ? w : (in[0]->elem.isIntOrFloat() ? in[0]->elem.getIntOrFloatBitWidth() : 64);

  auto floatOp = [&](auto fn) {
    for (size_t j = 0; j < n; ++j)
      out.f[j] = roundTo(elem, fn(j));
    return success();
  };
  auto intOp = [&](auto fn) {
    for (size_t j = 0; j < n; ++j)
      out.i[j] = wrapInt(w, fn(j));
    return success();
  };
  auto divisor = [&](size_t j) -> int64_t { return I(1, j) == 0 ? 1 : I(1, j); }; // GPU division by 0 is undefined

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<arith::AddFOp>([&](auto) { return floatOp([&](size_t j) { return F(0, j) + F(1, j); }); })
      .Case<arith::SubFOp>([&](auto) { return floatOp([&](size_t j) { return F(0, j) - F(1, j); }); })
      .Case<arith::MulFOp>([&](auto) { return floatOp([&](size_t j) { return F(0, j) * F(1, j); }); })
      .Case<arith::DivFOp>([&](auto) { return floatOp([&](size_t j) { return F(0, j) / F(1, j); }); })
      .Case<arith::RemFOp>([&](auto) { return floatOp([&](size_t j) { return std::fmod(F(0, j), F(1, j)); }); })
      .Case<arith::NegFOp>([&](auto) { return floatOp([&](size_t j) { return -F(0, j); }); })
      .Case<arith::MaxNumFOp>([&](auto) { return floatOp([&](size_t j) { return std::fmax(F(0, j), F(1, j)); }); })
      .Case<arith::MinNumFOp>([&](auto) { return floatOp([&](size_t j) { return std::fmin(F(0, j), F(1, j)); }); })
      .Case<arith::MaximumFOp>([&](auto) {
        return floatOp([&](size_t j) { return std::isnan(F(0, j)) || std::isnan(F(1, j)) ? NAN : std::fmax(F(0, j), F(1, j)); });
      })
      .Case<arith::MinimumFOp>([&](auto) {
        return floatOp([&](size_t j) { return std::isnan(F(0, j)) || std::isnan(F(1, j)) ? NAN : std::fmin(F(0, j), F(1, j)); });
      })
      .Case<arith::AddIOp>([&](auto) { return intOp([&](size_t j) { return int64_t(uint64_t(I(0, j)) + uint64_t(I(1, j))); }); })
      .Case<arith::SubIOp>([&](auto) { return intOp([&](size_t j) { return int64_t(uint64_t(I(0, j)) - uint64_t(I(1, j))); }); })
      .Case<arith::MulIOp>([&](auto) { return intOp([&](size_t j) { return int64_t(uint64_t(I(0, j)) * uint64_t(I(1, j))); }); })
      .Case<arith::DivSIOp>([&](auto) { return intOp([&](size_t j) { return I(0, j) / divisor(j); }); })
      .Case<arith::RemSIOp>([&](auto) { return intOp([&](size_t j) { return I(0, j) % divisor(j); }); })
      .Case<arith::DivUIOp>([&](auto) {
        return intOp([&](size_t j) { return int64_t(unsignedOf(w, I(0, j)) / std::max<uint64_t>(1, unsignedOf(w, I(1, j)))); });
      })
      .Case<arith::RemUIOp>([&](auto) {
        return intOp([&](size_t j) { return int64_t(unsignedOf(w, I(0, j)) % std::max<uint64_t>(1, unsignedOf(w, I(1, j)))); });
      })
      .Case<arith::AndIOp>([&](auto) { return intOp([&](size_t j) { return I(0, j) & I(1, j); }); })
      .Case<arith::OrIOp>([&](auto) { return intOp([&](size_t j) { return I(0, j) | I(1, j); }); })
      .Case<arith::XOrIOp>([&](auto) { return intOp([&](size_t j) { return I(0, j) ^ I(1, j); }); })
      .Case<arith::ShLIOp>([&](auto) {
        return intOp([&](size_t j) { return unsignedOf(w, I(1, j)) >= w ? 0 : int64_t(uint64_t(I(0, j)) << I(1, j)); });
      })
      .Case<arith::ShRSIOp>([&](auto) {
        return intOp([&](size_t j) { return I(0, j) >> std::min<uint64_t>(63, unsignedOf(w, I(1, j))); });
      })
      .Case<arith::ShRUIOp>([&](auto) {
        return intOp([&](size_t j) {
          uint64_t s = unsignedOf(w, I(1, j));
          return s >= w ? 0 : int64_t(unsignedOf(w, I(0, j)) >> s);
        });
      })
      .Case<arith::MaxSIOp>([&](auto) { return intOp([&](size_t j) { return std::max(I(0, j), I(1, j)); }); })
      .Case<arith::MinSIOp>([&](auto) { return intOp([&](size_t j) { return std::min(I(0, j), I(1, j)); }); })
      .Case<arith::MaxUIOp>([&](auto) {
        return intOp([&](size_t j) { return unsignedOf(w, I(0, j)) >= unsignedOf(w, I(1, j)) ? I(0, j) : I(1, j); });
      })
      .Case<arith::MinUIOp>([&](auto) {
        return intOp([&](size_t j) { return unsignedOf(w, I(0, j)) <= unsignedOf(w, I(1, j)) ? I(0, j) : I(1, j); });
      })
      .Case<arith::CmpIOp>([&](arith::CmpIOp c) {
        for (size_t j = 0; j < n; ++j)
          out.i[j] = comparePredicate(c.getPredicate(), I(0, j), I(1, j), inWidth);
        return success();
      })
      .Case<arith::CmpFOp>([&](arith::CmpFOp c) {
        for (size_t j = 0; j < n; ++j)
          out.i[j] = comparePredicate(c.getPredicate(), F(0, j), F(1, j));
        return success();
      })
      .Case<arith::SelectOp>([&](auto) {
        for (size_t j = 0; j < n; ++j) {
          bool c = I(0, j) & 1;
          if (out.isFloat())
            out.f[j] = c ? F(1, j) : F(2, j);
          else
            out.i[j] = c ? I(1, j) : I(2, j);
        }
        return success();
      })
      .Case<arith::ExtFOp>([&](auto) { return floatOp([&](size_t j) { return F(0, j); }); })
      .Case<arith::TruncFOp>([&](arith::TruncFOp trunc) -> LogicalResult {
        if (trunc.getRoundingmode() != arith::RoundingMode::toward_zero)
          return floatOp([&](size_t j) { return F(0, j); });
        for (size_t j = 0; j < n; ++j)
          out.f[j] = roundTowardZero(elem, F(0, j));
        return success();
      })
      .Case<arith::SIToFPOp>([&](auto) { return floatOp([&](size_t j) { return intToFloat(elem, I(0, j), false); }); })
      .Case<arith::UIToFPOp>([&](auto) {
        return floatOp([&](size_t j) { return intToFloat(elem, int64_t(unsignedOf(inWidth, I(0, j))), true); });
      })
      .Case<arith::BitcastOp>([&](auto) -> LogicalResult {
        Type from = in[0]->elem;
        for (size_t j = 0; j < n; ++j) {
          uint64_t bits = isa<FloatType>(from) ? floatToBits(from, F(0, j)) : unsignedOf(inWidth, I(0, j));
          if (out.isFloat())
            out.f[j] = bitsToFloat(elem, bits);
          else
            out.i[j] = wrapInt(w, int64_t(bits));
        }
        return success();
      })
      .Case<arith::FPToSIOp>([&](auto) { return intOp([&](size_t j) { return floatToInt(F(0, j), w, false); }); })
      .Case<arith::FPToUIOp>([&](auto) { return intOp([&](size_t j) { return floatToInt(F(0, j), w, true); }); })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>([&](auto) { return intOp([&](size_t j) { return I(0, j); }); })
      .Case<arith::ExtUIOp>([&](auto) { return intOp([&](size_t j) { return int64_t(unsignedOf(inWidth, I(0, j))); }); })
      .Case<math::ExpOp>([&](auto) { return floatOp([&](size_t j) { return std::exp(F(0, j)); }); })
      .Case<math::Exp2Op>([&](auto) { return floatOp([&](size_t j) { return std::exp2(F(0, j)); }); })
      .Case<math::LogOp>([&](auto) { return floatOp([&](size_t j) { return std::log(F(0, j)); }); })
      .Case<math::Log2Op>([&](auto) { return floatOp([&](size_t j) { return std::log2(F(0, j)); }); })
      .Case<math::SqrtOp>([&](auto) { return floatOp([&](size_t j) { return std::sqrt(F(0, j)); }); })
      .Case<math::RsqrtOp>([&](auto) { return floatOp([&](size_t j) { return 1.0 / std::sqrt(F(0, j)); }); })
      .Case<math::AbsFOp>([&](auto) { return floatOp([&](size_t j) { return std::fabs(F(0, j)); }); })
      .Case<math::SinOp>([&](auto) { return floatOp([&](size_t j) { return std::sin(F(0, j)); }); })
      .Case<math::CosOp>([&](auto) { return floatOp([&](size_t j) { return std::cos(F(0, j)); }); })
      .Case<math::TanhOp>([&](auto) { return floatOp([&](size_t j) { return std::tanh(F(0, j)); }); })
      .Case<math::ErfOp>([&](auto) { return floatOp([&](size_t j) { return std::erf(F(0, j)); }); })
      .Case<math::FloorOp>([&](auto) { return floatOp([&](size_t j) { return std::floor(F(0, j)); }); })
      .Case<math::CeilOp>([&](auto) { return floatOp([&](size_t j) { return std::ceil(F(0, j)); }); })
      .Case<math::FmaOp>([&](auto) { return floatOp([&](size_t j) { return std::fma(F(0, j), F(1, j), F(2, j)); }); })
      .Case<math::AbsIOp>([&](auto) { return intOp([&](size_t j) { return I(0, j) < 0 ? -I(0, j) : I(0, j); }); })
      .Case<math::Log1pOp>([&](auto) { return floatOp([&](size_t j) { return std::log1p(F(0, j)); }); })
      .Case<math::ExpM1Op>([&](auto) { return floatOp([&](size_t j) { return std::expm1(F(0, j)); }); })
      .Case<math::TanOp>([&](auto) { return floatOp([&](size_t j) { return std::tan(F(0, j)); }); })
      .Case<math::CoshOp>([&](auto) { return floatOp([&](size_t j) { return std::cosh(F(0, j)); }); })
      .Case<math::SinhOp>([&](auto) { return floatOp([&](size_t j) { return std::sinh(F(0, j)); }); })
      .Case<math::AsinOp>([&](auto) { return floatOp([&](size_t j) { return std::asin(F(0, j)); }); })
      .Case<math::AcosOp>([&](auto) { return floatOp([&](size_t j) { return std::acos(F(0, j)); }); })
      .Case<math::AtanOp>([&](auto) { return floatOp([&](size_t j) { return std::atan(F(0, j)); }); })
      .Case<math::AsinhOp>([&](auto) { return floatOp([&](size_t j) { return std::asinh(F(0, j)); }); })
      .Case<math::AcoshOp>([&](auto) { return floatOp([&](size_t j) { return std::acosh(F(0, j)); }); })
      .Case<math::AtanhOp>([&](auto) { return floatOp([&](size_t j) { return std::atanh(F(0, j)); }); })
      .Case<math::Log10Op>([&](auto) { return floatOp([&](size_t j) { return std::log10(F(0, j)); }); })
      .Case<math::CbrtOp>([&](auto) { return floatOp([&](size_t j) { return std::cbrt(F(0, j)); }); })
      .Case<math::ErfcOp>([&](auto) { return floatOp([&](size_t j) { return std::erfc(F(0, j)); }); })
      .Case<math::RoundOp>([&](auto) { return floatOp([&](size_t j) { return std::round(F(0, j)); }); })
      .Case<math::RoundEvenOp>([&](auto) { return floatOp([&](size_t j) { return std::nearbyint(F(0, j)); }); })
      .Case<math::TruncOp>([&](auto) { return floatOp([&](size_t j) { return std::trunc(F(0, j)); }); })
      .Case<math::PowFOp>([&](auto) { return floatOp([&](size_t j) { return std::pow(F(0, j), F(1, j)); }); })
      .Case<math::Atan2Op>([&](auto) { return floatOp([&](size_t j) { return std::atan2(F(0, j), F(1, j)); }); })
      .Case<math::CopySignOp>([&](auto) { return floatOp([&](size_t j) { return std::copysign(F(0, j), F(1, j)); }); })
      .Case<math::CtPopOp>([&](auto) { return intOp([&](size_t j) { return int64_t(llvm::popcount(unsignedOf(w, I(0, j)))); }); })
      .Case<math::CountLeadingZerosOp>([&](auto) {
        return intOp([&](size_t j) { return int64_t(llvm::countl_zero(unsignedOf(w, I(0, j))) - (64 - w)); });
      })
      .Case<ExternElementwiseOp>([&](ExternElementwiseOp e) -> LogicalResult {
        const LibDeviceFunction *fn = lookupLibDeviceBySymbol(e.getSymbol());
        if (!fn)
          return op->emitError("the interpreter does not know '") << e.getSymbol() << "'";
        return floatOp([&](size_t j) {
          double a[4];
          for (size_t k = 0; k < in.size() && k < 4; ++k)
            a[k] = F(k, j);
          return fn->eval(a);
        });
      })
      .Default([&](Operation *) -> LogicalResult { return op->emitError("the interpreter does not support this op"); });
}

} // namespace blk::interp
