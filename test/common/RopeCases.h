// kernels/rope.blk (rotary position embedding, forward and backward, Q and K
// in place in one launch) against a float64 reference, on the interpreter
// and on the GPU: grouped-query head counts, head dims below their padded
// block, cos/sin per position or per batch, rows with gaps between them.
#ifndef BLK_TEST_COMMON_ROPECASES_H
#define BLK_TEST_COMMON_ROPECASES_H

#include "RowCases.h"

namespace blk::ref {

struct RopeShape {
  int batch, seq, qHeads, kHeads, hd;
  bool perBatchCos = false; // cos/sin [batch, seq, hd] instead of [1, seq, hd]
  int rowGap = 0;           // elements between rows beyond the heads (a fused projection's layout)
};

/// The bindings of one `# variants:` entry of kernels/rope.blk and its type.
struct RopeVariant {
  Bindings bindings;
  DType type;
};

inline std::string ropeWhat(const char *kernel, const RopeVariant &v, const RopeShape &s) {
  std::string b;
  for (auto &[key, value] : v.bindings)
    b += (b.empty() ? "" : ",") + key + "=" + value;
  return std::string(kernel) + " [" + b + "] " + std::to_string(s.batch) + "x" + std::to_string(s.seq) + ", " +
         std::to_string(s.qHeads) + "/" + std::to_string(s.kHeads) + " heads, hd " + std::to_string(s.hd) +
         (s.perBatchCos ? ", cos per batch" : "") + (s.rowGap ? ", row gap " + std::to_string(s.rowGap) : "");
}

/// Q or K of one pass: rows of `heads` heads of hd elements, `gap` more
/// elements after each row.
struct RopeTensor {
  int heads, hd, gap;
  int64_t stride() const { return int64_t(heads) * hd + gap; }
};

/// The float64 rotation of `x` (every row, in place in the result). The
/// backward is the transpose of the forward's rotation.
inline std::vector<double> ropeReference(const std::vector<double> &x, RopeTensor t, const RopeShape &s,
                                         const Buffer &cos, const Buffer &sin, bool backward) {
  std::vector<double> y = x; // the gaps stay as they were
  int half = s.hd / 2;
  for (int r = 0; r < s.batch * s.seq; ++r) {
    size_t c = size_t(s.perBatchCos ? r : r % s.seq) * s.hd;
    for (int h = 0; h < t.heads; ++h)
      for (int j = 0; j < half; ++j) {
        size_t i = size_t(r) * t.stride() + size_t(h) * s.hd + j;
        double x1 = x[i], x2 = x[i + half];
        double c1 = cos.get(c + j), c2 = cos.get(c + half + j), s1 = sin.get(c + j), s2 = sin.get(c + half + j);
        y[i] = backward ? x1 * c1 + x2 * s2 : x1 * c1 - x2 * s1;
        y[i + half] = backward ? x2 * c2 - x1 * s1 : x2 * c2 + x1 * s2;
      }
  }
  return y;
}

/// True when every element in the gaps between rows of `out` equals `x`'s.
inline bool ropeGapsKept(const Buffer &out, const std::vector<double> &x, RopeTensor t, int rows) {
  for (int r = 0; r < rows; ++r)
    for (int g = 0; g < t.gap; ++g) {
      size_t i = size_t(r) * t.stride() + size_t(t.heads) * t.hd + g;
      if (out.get(i) != x[i])
        return false;
    }
  return true;
}

/// rope_forward on random Q and K, then rope_backward on random dQ and dK,
/// with random cos and sin (independent halves, so that each half of each
/// is checked to be read where it should be).
inline std::vector<Check> ropeCase(const Launch &L, const RopeVariant &v, RopeShape s, std::mt19937_64 &rng) {
  int rows = s.batch * s.seq, cosBatch = s.perBatchCos ? s.batch : 1;
  RopeTensor tq{s.qHeads, s.hd, s.rowGap}, tk{s.kHeads, s.hd, s.rowGap};
  Buffer cos(v.type, size_t(cosBatch) * s.seq * s.hd), sin(v.type, cos.size());
  cos.fillUniform(rng, -1, 1);
  sin.fillUniform(rng, -1, 1);
  std::vector<Check> checks;
  for (bool backward : {false, true}) {
    const char *kernel = backward ? "rope_backward" : "rope_forward";
    std::string what = ropeWhat(kernel, v, s);
    Buffer q(v.type, size_t(rows) * tq.stride()), k(v.type, size_t(rows) * tk.stride());
    q.fillUniform(rng, -2, 2);
    k.fillUniform(rng, -2, 2);
    std::vector<double> q0 = values(q), k0 = values(k);
    std::string e = L("rope", v.bindings, kernel, unsigned(rows),
                      {KArg::buf_(q), KArg::int_(tq.stride()), KArg::buf_(k), KArg::int_(tk.stride()), KArg::buf_(cos),
                       KArg::int_(s.hd), KArg::buf_(sin), KArg::int_(s.hd), KArg::int_(s.seq), KArg::int_(cosBatch),
                       KArg::int_(s.qHeads), KArg::int_(s.kHeads), KArg::int_(s.hd)});
    if (!e.empty())
      return {{what + ": " + e, INFINITY, 0}};
    checks.push_back({what + " Q", relativeError(q, ropeReference(q0, tq, s, cos, sin, backward)), tolerance(v.type)});
    checks.push_back({what + " K", relativeError(k, ropeReference(k0, tk, s, cos, sin, backward)), tolerance(v.type)});
    checks.push_back(exact(what + ": the gaps between rows are left as they were",
                           ropeGapsKept(q, q0, tq, rows) && ropeGapsKept(k, k0, tk, rows)));
  }
  return checks;
}

} // namespace blk::ref

#endif
