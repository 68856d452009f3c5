// libdevice functions without a math-dialect op, and the verifier of
// blk.extern_elementwise, which calls them.
#include "blk/Dialect/Blk/IR/LibDevice.h"
#include "blk/Dialect/Blk/IR/Dialect.h"

#include <cmath>

using namespace mlir;

namespace blk {

double erfinvExact(double y) {
  if (std::isnan(y) || y < -1 || y > 1)
    return NAN;
  if (y == 1 || y == -1)
    return std::copysign(INFINITY, y);
  // Giles' single-precision approximation as the start, then Newton steps on
  // erf(x) - y (quadratic convergence; three reach double precision).
  double w = -std::log((1 - y) * (1 + y)), x;
  if (w < 5) {
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                     1.00167406, 2.83297682})
      p = c + p * w;
    x = p * y;
  }
  const double twoOverSqrtPi = 1.1283791670955126;
  for (int i = 0; i < 4; ++i) {
    double err = std::erf(x) - y;
    if (err == 0)
      break;
    x -= err / (twoOverSqrtPi * std::exp(-x * x));
  }
  return x;
}

ArrayRef<LibDeviceFunction> libDeviceFunctions() {
  static const LibDeviceFunction table[] = {
      {"erfinv", "__nv_erfinvf", "__nv_erfinv", 1, [](const double *a) { return erfinvExact(a[0]); }},
      {"exp10", "__nv_exp10f", "__nv_exp10", 1, [](const double *a) { return std::pow(10.0, a[0]); }},
      {"lgamma", "__nv_lgammaf", "__nv_lgamma", 1, [](const double *a) { return std::lgamma(a[0]); }},
      {"tgamma", "__nv_tgammaf", "__nv_tgamma", 1, [](const double *a) { return std::tgamma(a[0]); }},
      {"hypot", "__nv_hypotf", "__nv_hypot", 2, [](const double *a) { return std::hypot(a[0], a[1]); }},
  };
  return table;
}

const LibDeviceFunction *lookupLibDeviceByName(StringRef name) {
  for (const LibDeviceFunction &f : libDeviceFunctions())
    if (name == f.name)
      return &f;
  return nullptr;
}

const LibDeviceFunction *lookupLibDeviceBySymbol(StringRef symbol) {
  for (const LibDeviceFunction &f : libDeviceFunctions())
    if (symbol == f.f32Symbol || symbol == f.f64Symbol)
      return &f;
  return nullptr;
}

LogicalResult ExternElementwiseOp::verify() {
  const LibDeviceFunction *f = lookupLibDeviceBySymbol(getSymbol());
  if (!f)
    return emitOpError("unknown libdevice function '") << getSymbol() << "'";
  if (getSrcs().size() != f->arity)
    return emitOpError("'") << getSymbol() << "' takes " << f->arity << " operands, got " << getSrcs().size();
  Type elem = getElementTypeOrSelf(getType());
  StringRef expected = elem.isF32() ? f->f32Symbol : elem.isF64() ? f->f64Symbol : StringRef();
  if (getSymbol() != expected)
    return emitOpError("'") << getSymbol() << "' does not take " << elem;
  return success();
}

} // namespace blk
