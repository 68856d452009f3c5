// Ahead-of-time: the kernel was compiled by `blkc --emit=header` at build time;
// this program needs only the blk runtime and the CUDA driver (no LLVM).
#include "vector_add_kernels.h" // generated: namespace vadd, struct vadd::vector_add

#include "blk/Runtime/Driver.h"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  blk::rt::Status s = blk::rt::initDevice(0);
  if (!s.ok()) {
    std::printf("aot_vector_add: skipped, no GPU: %s\n", s.message.c_str());
    return 0;
  }
  const blk::rt::DriverApi *cu = blk::rt::driver();
  const int n = 1000003;
  std::vector<float> x(n), y(n), out(n, NAN);
  for (int i = 0; i < n; ++i) {
    x[i] = std::sin(float(i));
    y[i] = std::cos(float(i));
  }
  CUdeviceptr dx, dy, dout;
  cu->cuMemAlloc(&dx, n * 4);
  cu->cuMemAlloc(&dy, n * 4);
  cu->cuMemAlloc(&dout, n * 4);
  cu->cuMemcpyHtoD(dx, x.data(), n * 4);
  cu->cuMemcpyHtoD(dy, y.data(), n * 4);
  cu->cuMemcpyHtoD(dout, out.data(), n * 4);
  unsigned grid = unsigned((n + vadd::vector_add::BLOCK - 1) / vadd::vector_add::BLOCK);
  s = vadd::vector_add::launch({grid}, nullptr, (void *)dx, (void *)dy, (void *)dout, n);
  if (!s.ok() || cu->cuCtxSynchronize() != CUDA_SUCCESS) {
    std::printf("aot_vector_add: launch failed: %s\n", s.message.c_str());
    return 1;
  }
  cu->cuMemcpyDtoH(out.data(), dout, n * 4);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = std::fmax(worst, std::fabs(double(out[i]) - (double(x[i]) + double(y[i]))));
  bool ok = worst < 1e-6;
  for (int i = 0; i < n; ++i) // fmax skips NaN; a NaN must fail
    ok = ok && std::isfinite(out[i]);
  std::printf("aot_vector_add: %d elements, max error %.3g: %s\n", n, worst, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
