// Attention forward in bf16 through attention.blk, causal and not, checked
// against a reference computed in double from the same bf16 inputs.
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

  const int heads = 2, seq = 200, D = 64, BLOCK_M = 64;
  const size_t n = size_t(heads) * seq * D;
  std::vector<uint16_t> q(n), k(n), v(n), o(n);
  for (size_t i = 0; i < n; ++i) {
    q[i] = to_bf16(std::sin(0.7f * float(i)));
    k[i] = to_bf16(std::cos(0.3f * float(i)));
    v[i] = to_bf16(std::sin(0.1f * float(i) + 1));
  }
  void *dq, *dk, *dv, *dout;
  for (auto [ptr, host] : {std::pair{&dq, &q}, {&dk, &k}, {&dv, &v}, {&dout, &o}}) {
    check(jit.alloc(n * 2, ptr));
    check(jit.upload(*ptr, host->data(), n * 2));
  }
  const float scale = 1 / std::sqrt(float(D));

  for (bool causal : {false, true}) {
    blk::Kernel attention;
    blk::KernelOptions options;
    options.constants = {{"T", "bf16"}, {"D", "64"}, {"BLOCK_M", "64"}, {"BLOCK_N", "32"},
                         {"CAUSAL", causal ? "True" : "False"}};
    check(jit.compileFile("attention.blk", "attention", options, attention));
    check(attention.launch({blk::cdiv(seq, BLOCK_M), heads},
                           {dq, dk, dv, dout, scale, int32_t(seq), int64_t(seq * D), int64_t(D)}));
    check(jit.synchronize());
    check(jit.download(o.data(), dout, n * 2));

    double worst = 0;
    for (int h = 0; h < heads; ++h)
      for (int i = 0; i < seq; ++i) {
        auto at = [&](const std::vector<uint16_t> &x, int row, int d) {
          return double(from_bf16(x[(size_t(h) * seq + row) * D + d]));
        };
        int keys = causal ? i + 1 : seq;
        std::vector<double> p(keys);
        for (int j = 0; j < keys; ++j) {
          double s = 0;
          for (int d = 0; d < D; ++d)
            s += at(q, i, d) * at(k, j, d);
          p[j] = s * scale;
        }
        double m = *std::max_element(p.begin(), p.end()), sum = 0;
        for (double &x : p)
          sum += x = std::exp(x - m);
        for (int d = 0; d < D; ++d) {
          double ref = 0;
          for (int j = 0; j < keys; ++j)
            ref += p[j] / sum * at(v, j, d);
          double err = std::fabs(at(o, i, d) - ref);
          worst = std::isnan(err) ? INFINITY : std::max(worst, err);
        }
      }
    bool ok = worst < 2e-2;
    std::printf("attention, %d heads of %d x %d%s: error %s 2e-2\n", heads, seq, D, causal ? ", causal" : "",
                ok ? "<" : ">=");
    if (!ok)
      return 1;
  }
  return 0;
}
