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
  /// The file whose attention_forward runs: kernels/attention.blk, or a
  /// kernel of test/kernels/ with its arguments and results.
  std::string file = "attention";
};

/// Element strides of a [batch, heads, seq, D] tensor in either order.
struct AttentionStrides {
  int64_t b, h, m;
};
inline AttentionStrides attentionStrides(const AttentionShape &s, int heads, int seq) {
  return s.seqMajor ? AttentionStrides{int64_t(seq) * heads * s.d, s.d, int64_t(heads) * s.d}
                    : AttentionStrides{int64_t(heads) * seq * s.d, int64_t(seq) * s.d, s.d};
}

inline std::string attentionWhat(const char *pass, const AttentionVariant &v, const AttentionShape &s) {
  return v.file + " " + pass + " " + name(v.type) + " D=" + std::to_string(s.d) + " " +
         std::to_string(s.batch) + "x" + std::to_string(s.heads) + "/" + std::to_string(s.kvHeads) + " heads, seq " +
         std::to_string(s.seqQ) + "x" + std::to_string(s.seqK) + (s.causal ? " causal" : "") +
         (s.seqMajor ? " seq-major" : "");
}

/// Runs attention_forward: O and LSE from q, k, v.
inline std::string attentionForward(const Launch &L, const AttentionVariant &v, const AttentionShape &s, Buffer &q,
                                    Buffer &k, Buffer &vv, Buffer &o, Buffer &lse) {
  AttentionStrides sq = attentionStrides(s, s.heads, s.seqQ), sk = attentionStrides(s, s.kvHeads, s.seqK);
  LaunchGrid grid(unsigned((s.seqQ + v.blockM - 1) / v.blockM), unsigned(s.batch * s.heads));
  return L(v.file, v.bindings, "attention_forward", grid,
           {KArg::buf_(q), KArg::buf_(k), KArg::buf_(vv), KArg::buf_(o), KArg::buf_(lse),
            KArg::real(1 / std::sqrt(double(s.d))), KArg::int_(s.seqQ), KArg::int_(s.seqK), KArg::int_(s.heads),
            KArg::int_(s.heads / s.kvHeads), KArg::int_(sq.b), KArg::int_(sq.h), KArg::int_(sq.m), KArg::int_(sk.b),
            KArg::int_(sk.h), KArg::int_(sk.m), KArg::int_(sk.b), KArg::int_(sk.h), KArg::int_(sk.m),
            KArg::int_(sq.b), KArg::int_(sq.h), KArg::int_(sq.m)});
}

/// O and LSE of attention_forward for one variant and shape.
inline std::vector<Check> attentionForwardCase(const Launch &L, const AttentionVariant &v, AttentionShape s,
                                               std::mt19937_64 &rng) {
  const int D = s.d;
  AttentionStrides sq = attentionStrides(s, s.heads, s.seqQ), sk = attentionStrides(s, s.kvHeads, s.seqK);
  size_t nq = size_t(s.batch) * s.heads * s.seqQ * D, nk = size_t(s.batch) * s.kvHeads * s.seqK * D;
  Buffer q(v.type, nq), k(v.type, nk), vv(v.type, nk), o(v.type, nq), lse(DType::F32, size_t(s.batch) * s.heads * s.seqQ);
  q.fillUniform(rng, -2, 2);
  k.fillUniform(rng, -2, 2);
  vv.fillUniform(rng, -1, 1);
  o.poison();
  lse.poison();
  double scale = 1 / std::sqrt(double(D));
  int group = s.heads / s.kvHeads;
  std::string e = attentionForward(L, v, s, q, k, vv, o, lse);
  std::string what = attentionWhat("forward", v, s);
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

/// dQ, dK and dV of attention_backward_{preprocess,dkdv,dq} for one variant
/// and shape, from the forward's O and LSE, against the float64 gradient of
/// sum(O * dO).
inline std::vector<Check> attentionBackwardCase(const Launch &L, const AttentionVariant &v, AttentionShape s,
                                                std::mt19937_64 &rng) {
  const int D = s.d;
  AttentionStrides sq = attentionStrides(s, s.heads, s.seqQ), sk = attentionStrides(s, s.kvHeads, s.seqK);
  size_t nq = size_t(s.batch) * s.heads * s.seqQ * D, nk = size_t(s.batch) * s.kvHeads * s.seqK * D;
  size_t rows = size_t(s.batch) * s.heads * s.seqQ;
  Buffer q(v.type, nq), k(v.type, nk), vv(v.type, nk), o(v.type, nq), lse(DType::F32, rows), dO(v.type, nq),
      delta(DType::F32, rows), dq(v.type, nq), dk(v.type, nk), dv(v.type, nk);
  q.fillUniform(rng, -2, 2);
  k.fillUniform(rng, -2, 2);
  vv.fillUniform(rng, -1, 1);
  dO.fillUniform(rng, -1, 1);
  for (Buffer *b : {&o, &lse, &delta, &dq, &dk, &dv})
    b->poison();
  double scale = 1 / std::sqrt(double(D));
  int group = s.heads / s.kvHeads;
  std::string what = attentionWhat("backward", v, s);
  auto strides = [](const AttentionStrides &t) {
    return std::vector<KArg>{KArg::int_(t.b), KArg::int_(t.h), KArg::int_(t.m)};
  };
  auto args = [&](std::vector<KArg> a, std::initializer_list<AttentionStrides> ts) {
    for (const AttentionStrides &t : ts)
      for (KArg x : strides(t))
        a.push_back(x);
    return a;
  };
  unsigned qBlocks = unsigned((s.seqQ + v.blockM - 1) / v.blockM), kBlocks = unsigned((s.seqK + v.blockM - 1) / v.blockM);
  std::string e = attentionForward(L, v, s, q, k, vv, o, lse);
  if (e.empty())
    e = L("attention", v.bindings, "attention_backward_preprocess", LaunchGrid(qBlocks, unsigned(s.batch * s.heads)),
          args({KArg::buf_(o), KArg::buf_(dO), KArg::buf_(delta), KArg::int_(s.seqQ), KArg::int_(s.heads)}, {sq, sq}));
  std::vector<KArg> common{KArg::buf_(q),     KArg::buf_(k),         KArg::buf_(vv),        KArg::buf_(dO),
                           KArg::buf_(lse),   KArg::buf_(delta)};
  std::vector<KArg> scalars{KArg::real(scale), KArg::int_(s.seqQ), KArg::int_(s.seqK), KArg::int_(s.heads),
                            KArg::int_(group)};
  if (e.empty()) {
    std::vector<KArg> a = common;
    a.insert(a.end(), {KArg::buf_(dk), KArg::buf_(dv)});
    a.insert(a.end(), scalars.begin(), scalars.end());
    e = L("attention", v.bindings, "attention_backward_dkdv", LaunchGrid(kBlocks, unsigned(s.batch * s.kvHeads)),
          args(a, {sq, sk, sk, sq, sk, sk}));
  }
  if (e.empty()) {
    std::vector<KArg> a = common;
    a.push_back(KArg::buf_(dq));
    a.insert(a.end(), scalars.begin(), scalars.end());
    e = L("attention", v.bindings, "attention_backward_dq", LaunchGrid(qBlocks, unsigned(s.batch * s.heads)),
          args(a, {sq, sk, sk, sq, sq}));
  }
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};

  // P = softmax(Q K^T * scale) per row, dV = P^T dO, dP = dO V^T,
  // dS = P * (dP - rowsum(dO * O)), dQ = dS K * scale, dK = dS^T Q * scale;
  // dK and dV sum over the query heads of a group.
  std::vector<double> refQ(nq), refK(nk), refV(nk), p(size_t(s.seqK)), rowO(static_cast<size_t>(D));
  for (int b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      int kvh = h / group;
      for (int m = 0; m < s.seqQ; ++m) {
        size_t qAt = size_t(b * sq.b + h * sq.h + m * sq.m);
        auto kAt = [&](int n) { return size_t(b * sk.b + kvh * sk.h + n * sk.m); };
        int keys = s.causal ? std::min(s.seqK, m + 1) : s.seqK;
        double mx = -INFINITY, sum = 0;
        for (int n = 0; n < keys; ++n) {
          double dotqk = 0;
          for (int d = 0; d < D; ++d)
            dotqk += q.get(qAt + d) * k.get(kAt(n) + d);
          p[size_t(n)] = dotqk * scale;
          mx = std::max(mx, p[size_t(n)]);
        }
        for (int n = 0; n < keys; ++n)
          sum += p[size_t(n)] = std::exp(p[size_t(n)] - mx);
        std::fill(rowO.begin(), rowO.end(), 0.0);
        for (int n = 0; n < keys; ++n) {
          p[size_t(n)] /= sum;
          for (int d = 0; d < D; ++d)
            rowO[size_t(d)] += p[size_t(n)] * vv.get(kAt(n) + d);
        }
        double rowDelta = 0;
        for (int d = 0; d < D; ++d)
          rowDelta += rowO[size_t(d)] * dO.get(qAt + d);
        for (int n = 0; n < keys; ++n) {
          double dp = 0;
          for (int d = 0; d < D; ++d)
            dp += dO.get(qAt + d) * vv.get(kAt(n) + d);
          double ds = p[size_t(n)] * (dp - rowDelta) * scale;
          for (int d = 0; d < D; ++d) {
            refV[kAt(n) + d] += p[size_t(n)] * dO.get(qAt + d);
            refQ[qAt + d] += ds * k.get(kAt(n) + d);
            refK[kAt(n) + d] += ds * q.get(qAt + d);
          }
        }
      }
    }
  // P and dS are rounded to the operand type before their products, and the
  // gradients are stored in it: bf16's 8-bit significand gives about 3e-3
  // (f16's 11 bits about 4e-4), and dS = P * (dP - Delta) loses digits where
  // dP and Delta nearly cancel.
  double tol = v.type == DType::F16 ? 5e-3 : 1e-2;
  return {{what + ": dQ", relativeError(dq, refQ), tol},
          {what + ": dK", relativeError(dk, refK), tol},
          {what + ": dV", relativeError(dv, refV), tol}};
}

} // namespace blk::ref

#endif
