// C = A @ B in bf16 through matmul.blk, checked against a reference computed
// in double from the same bf16 inputs.
#include "bf16.h"
#include "blk/blk.h"

#include <algorithm>
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

  blk::Kernel matmul;
  blk::KernelOptions options;
  options.constants = {{"T", "bf16"}, {"BLOCK_M", "128"}, {"BLOCK_N", "256"}, {"BLOCK_K", "64"}};
  options.numWarps = 8;
  options.numStages = 3;
  check(jit.compileFile("matmul.blk", "matmul", options, matmul));

  const int M = 144, N = 272, K = 176; // no multiple of the 128 x 256 tile: the edges are masked
  std::vector<uint16_t> a(M * K), b(K * N), c(M * N);
  for (int i = 0; i < M * K; ++i)
    a[i] = to_bf16(std::sin(0.1f * float(i)));
  for (int i = 0; i < K * N; ++i)
    b[i] = to_bf16(std::cos(0.3f * float(i)));
  void *da, *db, *dc;
  check(jit.alloc(a.size() * 2, &da));
  check(jit.alloc(b.size() * 2, &db));
  check(jit.alloc(c.size() * 2, &dc));
  check(jit.upload(da, a.data(), a.size() * 2));
  check(jit.upload(db, b.data(), b.size() * 2));

  // Row-major: stride (K, 1) for A, (N, 1) for B and C.
  std::vector<blk::KernelArg> args{da, db, dc, int32_t(M), int32_t(N), int32_t(K), int64_t(K), int64_t(1),
                                   int64_t(N), int64_t(1), int64_t(N), int64_t(1)};
  unsigned tiles = blk::cdiv(M, 128) * blk::cdiv(N, 256);
  check(matmul.launch({tiles}, args));
  check(jit.synchronize());
  check(jit.download(c.data(), dc, c.size() * 2));

  double worst = 0, largest = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += double(from_bf16(a[i * K + k])) * double(from_bf16(b[k * N + j]));
      double err = std::fabs(from_bf16(c[i * N + j]) - ref);
      worst = std::isnan(err) ? INFINITY : std::max(worst, err);
      largest = std::max(largest, std::fabs(ref));
    }
  bool ok = worst <= 1e-2 * largest;
  std::printf("matmul %dx%dx%d: error %s 1%% of the largest |C|\n", M, N, K, ok ? "within" : "NOT within");
  std::printf("specialization %s\n", matmul.specialization(args).c_str());
  return ok ? 0 : 1;
}
