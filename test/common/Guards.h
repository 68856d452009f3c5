// Poisoned guard bands around every buffer a launcher hands a kernel: the
// launchers (GPU, JIT, interpreter) copy each buffer into the middle of an
// image [guard | data | guard], run the kernel on the middle, and check that
// both bands still hold their pattern. A store one element past the end (or
// before the start) of any argument fails with the kernel, argument and offset.
#ifndef BLK_TEST_COMMON_GUARDS_H
#define BLK_TEST_COMMON_GUARDS_H

#include "Reference.h"

#include <cstdint>
#include <string>
#include <vector>

namespace blk::ref {

/// Bytes of each band: a multiple of 256, so the data keeps the alignment
/// cuMemAlloc gives (16-byte vectors and TMA's boxes need it).
constexpr size_t kGuardBytes = 256;

/// The band's pattern: different per argument and per byte, so that a kernel
/// copying one buffer's band into another's (a read and a store both past the
/// end) still changes it.
inline uint8_t guardByte(size_t arg, size_t offset) {
  uint64_t h = (arg + 1) * 0x9E3779B97F4A7C15ull ^ (offset + 1) * 0xC2B2AE3D27D4EB4Full;
  return uint8_t(h >> 56);
}

/// `b`'s bytes between two bands: [guard | data | guard].
inline std::vector<uint8_t> guardedImage(const Buffer &b, size_t arg) {
  std::vector<uint8_t> image(b.data.size() + 2 * kGuardBytes);
  for (size_t i = 0; i < kGuardBytes; ++i) {
    image[i] = guardByte(arg, i);
    image[kGuardBytes + b.data.size() + i] = guardByte(arg, kGuardBytes + i);
  }
  std::copy(b.data.begin(), b.data.end(), image.begin() + kGuardBytes);
  return image;
}

/// Copies the data back into `b`; returns "" when both bands are intact, else
/// which bytes of argument `arg` of `kernel` outside the buffer were written.
inline std::string takeGuardedImage(const std::vector<uint8_t> &image, Buffer &b, size_t arg,
                                    const std::string &kernel) {
  std::copy(image.begin() + kGuardBytes, image.begin() + kGuardBytes + b.data.size(), b.data.begin());
  long first = 0, last = 0, count = 0; // byte offsets from the buffer's start
  for (size_t i = 0; i < kGuardBytes; ++i)
    for (size_t at : {i, kGuardBytes + b.data.size() + i})
      if (image[at] != guardByte(arg, at < kGuardBytes ? at : kGuardBytes + i)) {
        long offset = long(at) - long(kGuardBytes);
        first = count ? std::min(first, offset) : offset;
        last = count ? std::max(last, offset) : offset;
        ++count;
      }
  if (!count)
    return "";
  return "kernel '" + kernel + "' wrote outside argument " + std::to_string(arg) + " (" +
         std::to_string(b.data.size()) + " bytes, " + name(b.type) + " elements of " +
         std::to_string(bytes(b.type)) + " bytes): " + std::to_string(count) + " guard bytes changed, at byte offsets " +
         std::to_string(first) + " to " + std::to_string(last) + " from its start";
}

} // namespace blk::ref

#endif
