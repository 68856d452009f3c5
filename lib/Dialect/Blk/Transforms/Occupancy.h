// How many programs of a tensor-core kernel an SM can hold by registers and
// by shared memory: the pipeliner's slot counts and blk-programs-per-sm's
// request to ptxas count them the same way.
#ifndef BLK_DIALECT_BLK_TRANSFORMS_OCCUPANCY_H
#define BLK_DIALECT_BLK_TRANSFORMS_OCCUPANCY_H

#include "blk/Dialect/Blk/IR/Layout.h"

#include <algorithm>
#include <cstdint>

namespace blk {

inline constexpr int64_t kRegistersPerSM = 65536;
inline constexpr int64_t kThreadsPerSM = 2048;
inline constexpr int64_t kMaxRegistersPerThread = 255;
/// Shared memory an SM keeps for each resident program (sm_80 and sm_90).
inline constexpr int64_t kReservedSharedBytes = 1024;
/// Registers a thread needs beyond its wgmma accumulators: operand
/// fragments, addresses, masks and loop state (int8 weights dequantized into
/// B at 128x128 tiles and 8 warps fit 64 accumulators and the rest in 128
/// without spilling).
inline constexpr int64_t kRegistersBesideAccumulators = 64;

/// Registers each thread holds for a wgmma result of type `type`.
inline int64_t accumulatorRegisters(mlir::Type type) {
  return LinearLayout::get(mlir::cast<mlir::RankedTensorType>(type)).numRegisters();
}

/// Registers per thread with `programs` programs of `threads` threads per
/// SM (allocated 8 at a time, at most 255).
inline int64_t registersPerThread(int64_t programs, int64_t threads) {
  return std::min(kMaxRegistersPerThread, kRegistersPerSM / (programs * threads) / 8 * 8);
}

/// The most programs of `threads` threads an SM holds (at least 1) when each
/// thread keeps `accumulators` wgmma accumulator values and the registers
/// beside them.
inline int64_t programsByRegisters(int64_t accumulators, int64_t threads) {
  int64_t programs = 1;
  while ((programs + 1) * threads <= kThreadsPerSM &&
         registersPerThread(programs + 1, threads) >= accumulators + kRegistersBesideAccumulators)
    ++programs;
  return programs;
}

/// The programs per SM that `bytes` of shared memory each leave room for,
/// of `limit` bytes one program may use.
inline int64_t programsBySharedMemory(int64_t bytes, int64_t limit) {
  return (limit + kReservedSharedBytes) / (bytes + kReservedSharedBytes);
}

} // namespace blk

#endif
