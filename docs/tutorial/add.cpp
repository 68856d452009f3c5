// Out = X + Y through add.blk, on the GPU when there is one, else on the CPU
// interpreter: the same host code runs on both.
#include "blk/blk.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
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

  blk::Kernel add;
  blk::KernelOptions options;
  options.constants = {{"T", "f32"}}; // like blkc -D T=f32; BLOCK keeps its default
  check(jit.compileFile("add.blk", "add", options, add));

  const int n = 100000;
  const size_t bytes = n * sizeof(float);
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i)
    x[i] = std::sin(float(i)), y[i] = std::cos(float(i));
  void *dx, *dy, *dout;
  check(jit.alloc(bytes, &dx));
  check(jit.alloc(bytes, &dy));
  check(jit.alloc(bytes, &dout));
  check(jit.upload(dx, x.data(), bytes));
  check(jit.upload(dy, y.data(), bytes));

  unsigned block = std::stoul(add.constant("BLOCK"));
  std::vector<blk::KernelArg> args{dx, dy, dout, int32_t(n)};
  check(add.launch({blk::cdiv(n, block)}, args));
  check(jit.synchronize());
  check(jit.download(out.data(), dout, bytes));

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != x[i] + y[i];
  std::printf("add on the %s: %d elements, %d wrong\n",
              jit.backend() == blk::Backend::CUDA ? "GPU" : "CPU interpreter", n, wrong);
  std::printf("specialization %s\n", add.specialization(args).c_str());
  return wrong == 0 ? 0 : 1;
}
