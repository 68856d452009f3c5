// Internal to the runtime: building a kernel's hidden TMA tensor maps.
#ifndef BLK_LIB_RUNTIME_TENSORMAPS_H
#define BLK_LIB_RUNTIME_TENSORMAPS_H

#include "blk/Runtime/Runtime.h"
#include <cuda.h>

namespace blk::rt {

/// What cuTensorMapEncodeTiled takes: dimensions innermost first, the byte
/// strides of all but the innermost.
struct TensorMapGeometry {
  unsigned rank = 0;
  uint64_t base = 0;
  cuuint64_t dims[5] = {}, strides[5] = {};
  cuuint32_t box[5] = {};
};
/// The geometry of `recipe` over the launch's `args`, checked (16-byte
/// aligned base, strides of 16-byte multiples, sizes not negative), or a
/// readable error naming the argument.
Status tensorMapGeometry(const KernelSignature &sig, const TensorMapRecipe &recipe, const Arg *args, size_t count,
                         TensorMapGeometry &out);

/// The tensor map `recipe` describes over the launch's `args` (checked as
/// tensorMapGeometry does), or a readable error.
Status encodeTensorMap(const KernelSignature &sig, const TensorMapRecipe &recipe, const Arg *args, size_t count,
                       CUtensorMap &out);

} // namespace blk::rt

#endif
