// Internal to the runtime: building a kernel's hidden TMA tensor maps.
#ifndef BLK_LIB_RUNTIME_TENSORMAPS_H
#define BLK_LIB_RUNTIME_TENSORMAPS_H

#include "blk/Runtime/Runtime.h"
#include <cuda.h>

namespace blk::rt {

/// The tensor map `recipe` describes over the launch's `args` (checked:
/// alignment, strides), or a readable error.
Status encodeTensorMap(const KernelSignature &sig, const TensorMapRecipe &recipe, const Arg *args, size_t count,
                       CUtensorMap &out);

} // namespace blk::rt

#endif
