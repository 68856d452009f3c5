// Just-in-time: compile kernels/vector_add.blk in process and run it on the
// GPU when there is one, else on the CPU interpreter: the same host code.
#include "blk/blk.h"

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "kernels/vector_add.blk";
  blk::Jit gpu(blk::Backend::CUDA);
  blk::Jit cpu(blk::Backend::CPU);
  blk::Jit &jit = gpu.available().ok() ? gpu : cpu;
  std::printf("jit_vector_add: running on the %s\n",
              jit.backend() == blk::Backend::CUDA ? "GPU" : ("CPU interpreter (" + gpu.available().message + ")").c_str());
  blk::Kernel add;
  blk::Status s = jit.compileFile(path, "vector_add", {{{"T", "f32"}}}, add);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message.c_str());
    return 1;
  }
  const int n = 100003;
  std::vector<float> x(n), y(n), out(n, NAN);
  for (int i = 0; i < n; ++i) {
    x[i] = std::sin(float(i));
    y[i] = std::cos(float(i));
  }
  void *dx, *dy, *dout;
  jit.alloc(n * 4, &dx);
  jit.alloc(n * 4, &dy);
  jit.alloc(n * 4, &dout);
  jit.upload(dx, x.data(), n * 4);
  jit.upload(dy, y.data(), n * 4);
  s = add.launch({blk::cdiv(n, std::stoul(add.constant("BLOCK")))}, {dx, dy, dout, int32_t(n)});
  if (s.ok())
    s = jit.synchronize();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message.c_str());
    return 1;
  }
  jit.download(out.data(), dout, n * 4);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    worst = std::fmax(worst, std::fabs(double(out[i]) - (double(x[i]) + double(y[i]))));
  bool ok = worst < 1e-6;
  for (int i = 0; i < n; ++i) // fmax skips NaN; a NaN must fail
    ok = ok && std::isfinite(out[i]);
  std::printf("jit_vector_add: %d elements, specialization %s, max error %.3g: %s\n", n,
              add.specialization({dx, dy, dout, int32_t(n)}).c_str(), worst, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
