// Row softmax of a rows x cols matrix through softmax.blk, checked against a
// reference computed in double.
#include "blk/blk.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static void check(const blk::Status &s) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message.c_str());
    std::exit(1);
  }
}

int main() {
  blk::Jit gpu(blk::Backend::CUDA), cpu(blk::Backend::CPU);
  blk::Jit &jit = gpu.available().ok() ? gpu : cpu;

  const int rows = 200, cols = 781;
  // One row per program, the whole row in one block: BLOCK is the row length
  // rounded up to a power of two, a compile-time constant like -D BLOCK=1024.
  unsigned block = 1;
  while (block < cols)
    block *= 2;
  blk::Kernel softmax;
  blk::KernelOptions options;
  options.constants = {{"T", "f32"}, {"BLOCK", std::to_string(block)}};
  options.numWarps = block >= 4096 ? 8 : 4;
  check(jit.compileFile("softmax.blk", "softmax", options, softmax));

  const size_t bytes = size_t(rows) * cols * sizeof(float);
  std::vector<float> x(size_t(rows) * cols), y(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = 4 * std::sin(0.37f * float(i));
  void *dx, *dy;
  check(jit.alloc(bytes, &dx));
  check(jit.alloc(bytes, &dy));
  check(jit.upload(dx, x.data(), bytes));
  check(softmax.launch({rows}, {dx, dy, int32_t(cols), int64_t(cols)}));
  check(jit.synchronize());
  check(jit.download(y.data(), dy, bytes));

  double worst = 0;
  for (int r = 0; r < rows; ++r) {
    const float *xr = &x[size_t(r) * cols], *yr = &y[size_t(r) * cols];
    double m = *std::max_element(xr, xr + cols), sum = 0;
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(xr[c]) - m);
    for (int c = 0; c < cols; ++c) {
      double ref = std::exp(double(xr[c]) - m) / sum;
      double err = std::fabs(yr[c] - ref) / ref;
      worst = std::isnan(err) ? INFINITY : std::max(worst, err);
    }
  }
  bool ok = worst < 1e-5;
  std::printf("softmax of %d rows of %d (BLOCK=%u): relative error %s 1e-5\n", rows, cols, block, ok ? "<" : ">=");
  return ok ? 0 : 1;
}
