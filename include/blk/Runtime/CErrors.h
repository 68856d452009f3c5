// How blk's C APIs (blk_runtime.h, blk_ops.h) report a failure: the message
// copied into the caller's buffer (cut to fit, NUL-terminated) and -1.
#ifndef BLK_RUNTIME_CERRORS_H
#define BLK_RUNTIME_CERRORS_H

#include "blk/Runtime/Runtime.h"

#include <cstring>
#include <string>

namespace blk::rt {

inline int failInto(const std::string &message, char *error, size_t size) {
  if (error && size) {
    std::strncpy(error, message.c_str(), size - 1);
    error[size - 1] = '\0';
  }
  return -1;
}

/// 0 for success, else failInto with the status's message.
inline int checkInto(const Status &s, char *error, size_t size) { return s.ok() ? 0 : failInto(s.message, error, size); }

} // namespace blk::rt

#endif
