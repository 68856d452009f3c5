// GoogleTest side of the row-kernel cases (RowCases.h), shared by the
// interpreter and GPU suites: checking a case's outputs and walking the
// dtype x shape grid with a trace of where a failure happened.
#ifndef BLK_TEST_COMMON_ROWTESTSUPPORT_H
#define BLK_TEST_COMMON_ROWTESTSUPPORT_H

#include "RowCases.h"

#include <gtest/gtest.h>

namespace blk::ref {

inline void expectChecks(const std::vector<Check> &checks) {
  ASSERT_FALSE(checks.empty());
  for (const Check &c : checks)
    EXPECT_LT(c.error.value, c.tolerance) << c.what << (c.error.detail.empty() ? "" : ": " + c.error.detail);
}

struct Shape {
  int rows, cols;
};

inline const DType kAllTypes[] = {DType::F32, DType::F16, DType::BF16};

/// Calls fn(type, shape) for every pair, tracing "bf16 5x100" on failures.
template <typename Fn> void forEachTypeAndShape(std::initializer_list<Shape> shapes, Fn fn) {
  for (DType t : kAllTypes)
    for (Shape s : shapes) {
      SCOPED_TRACE(std::string(name(t)) + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols));
      fn(t, s);
    }
}

/// `L` with `extra` bindings after a case's own on every launch of `file`:
/// runs the cases on another variant of scripts/kernel-variants.sh (a larger
/// BLOCK, num_warps, num_stages; {"spec", "s16"} for the build specialized on
/// strides and widths divisible by 16, which the JIT finds by itself).
inline Launch withVariant(const Launch &L, const std::string &file, const Bindings &extra) {
  return [=](const std::string &f, const Bindings &b, const std::string &k, LaunchGrid g, std::vector<KArg> a) {
    Bindings all = b;
    if (f == file)
      all.insert(all.end(), extra.begin(), extra.end());
    return L(f, all, k, g, std::move(a));
  };
}

} // namespace blk::ref

#endif
