// The libdevice functions blk reaches through blk.extern_elementwise (those
// the math dialect has no op for): their builtin names, symbols, arity and
// float64 semantics, shared by the frontend, the verifier and the interpreter.
#ifndef BLK_DIALECT_BLK_IR_LIBDEVICE_H
#define BLK_DIALECT_BLK_IR_LIBDEVICE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace blk {

struct LibDeviceFunction {
  const char *name;      // the builtin (Triton's libdevice name)
  const char *f32Symbol; // __nv_...f
  const char *f64Symbol; // __nv_...
  unsigned arity;
  double (*eval)(const double *args); // the exact function, for the interpreter
};

llvm::ArrayRef<LibDeviceFunction> libDeviceFunctions();
/// The entry a builtin name or a symbol (either width) belongs to; null if none.
const LibDeviceFunction *lookupLibDeviceByName(llvm::StringRef name);
const LibDeviceFunction *lookupLibDeviceBySymbol(llvm::StringRef symbol);

/// The inverse error function in float64: erf(erfinv(y)) == y to the last bits.
double erfinvExact(double y);

} // namespace blk

#endif
