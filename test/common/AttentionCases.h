// kernels/attention.blk against a float64 reference, on the interpreter and
// on the GPU: causal and not, grouped-query heads, sequence lengths that are
// not multiples of the blocks, and Q/K/V in either [batch, heads, seq, D] or
// [batch, seq, heads, D] order (the other strides).
#ifndef BLK_TEST_COMMON_ATTENTIONCASES_H
#define BLK_TEST_COMMON_ATTENTIONCASES_H

#include "RowCases.h"

#include <cmath>

namespace blk::ref {

struct AttentionShape {
  int batch, heads, kvHeads, seqQ, seqK, d;
  bool causal;
  bool seqMajor = false; // [batch, seq, heads, D] instead of [batch, heads, seq, D]
};

/// The bindings of one `# variants:` entry of kernels/attention.blk.
struct AttentionVariant {
  Bindings bindings;
  DType type;
  int d, blockM;
  bool causal;
};

/// O and LSE of attention_forward for one variant and shape.
inline std::vector<Check> attentionForwardCase(const Launch &L, const AttentionVariant &v, AttentionShape s,
                                               std::mt19937_64 &rng) {
  const int D = s.d;
  // Element strides of a [batch, heads, seq, D] tensor in either order.
  struct Strides {
    int64_t b, h, m;
  };
  auto strides = [&](int heads, int seq) {
    return s.seqMajor ? Strides{int64_t(seq) * heads * D, D, int64_t(heads) * D}
                      : Strides{int64_t(heads) * seq * D, int64_t(seq) * D, D};
  };
  Strides sq = strides(s.heads, s.seqQ), sk = strides(s.kvHeads, s.seqK);
  size_t nq = size_t(s.batch) * s.heads * s.seqQ * D, nk = size_t(s.batch) * s.kvHeads * s.seqK * D;
  Buffer q(v.type, nq), k(v.type, nk), vv(v.type, nk), o(v.type, nq), lse(DType::F32, size_t(s.batch) * s.heads * s.seqQ);
  q.fillUniform(rng, -2, 2);
  k.fillUniform(rng, -2, 2);
  vv.fillUniform(rng, -1, 1);
  o.poison();
  lse.poison();
  double scale = 1 / std::sqrt(double(D));
  int group = s.heads / s.kvHeads;
  LaunchGrid grid(unsigned((s.seqQ + v.blockM - 1) / v.blockM), unsigned(s.batch * s.heads));
  std::string e = L("attention", v.bindings, "attention_forward", grid,
                    {KArg::buf_(q), KArg::buf_(k), KArg::buf_(vv), KArg::buf_(o), KArg::buf_(lse), KArg::real(scale),
                     KArg::int_(s.seqQ), KArg::int_(s.seqK), KArg::int_(s.heads), KArg::int_(group),
                     KArg::int_(sq.b), KArg::int_(sq.h), KArg::int_(sq.m), KArg::int_(sk.b), KArg::int_(sk.h),
                     KArg::int_(sk.m), KArg::int_(sk.b), KArg::int_(sk.h), KArg::int_(sk.m), KArg::int_(sq.b),
                     KArg::int_(sq.h), KArg::int_(sq.m)});
  std::string what = std::string("attention forward ") + name(v.type) + " D=" + std::to_string(D) + " " +
                     std::to_string(s.batch) + "x" + std::to_string(s.heads) + "/" + std::to_string(s.kvHeads) +
                     " heads, seq " + std::to_string(s.seqQ) + "x" + std::to_string(s.seqK) +
                     (s.causal ? " causal" : "") + (s.seqMajor ? " seq-major" : "");
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};

  std::vector<double> refO(nq), refL(lse.size()), scores(size_t(s.seqK));
  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      int kvh = h / group;
      for (int m = 0; m < s.seqQ; ++m) {
        size_t qAt = size_t(b * sq.b + h * sq.h + m * sq.m);
        double mx = -INFINITY;
        int keys = s.causal ? std::min(s.seqK, m + 1) : s.seqK;
        for (int n = 0; n < keys; ++n) {
          size_t kAt = size_t(b * sk.b + kvh * sk.h + n * sk.m);
          double dotqk = 0;
          for (int d = 0; d < D; ++d)
            dotqk += q.get(qAt + d) * k.get(kAt + d);
          scores[size_t(n)] = dotqk * scale;
          mx = std::max(mx, scores[size_t(n)]);
        }
        double sum = 0;
        for (int n = 0; n < keys; ++n)
          sum += std::exp(scores[size_t(n)] - mx);
        refL[size_t((b * s.heads + h) * s.seqQ + m)] = mx + std::log(sum);
        for (int d = 0; d < D; ++d) {
          double acc = 0;
          for (int n = 0; n < keys; ++n)
            acc += std::exp(scores[size_t(n)] - mx) / sum * vv.get(size_t(b * sk.b + kvh * sk.h + n * sk.m) + d);
          refO[qAt + d] = acc;
        }
      }
    }
  // O is stored in the operand type (bf16 alone: about 2e-3) and P goes
  // through it before the second product.
  double tol = v.type == DType::F32 ? 1e-5 : v.type == DType::F16 ? 1e-3 : 5e-3;
  return {{what + ": O", relativeError(o, refO), tol}, {what + ": LSE", relativeError(lse, refL), 1e-4}};
}

} // namespace blk::ref

#endif
