// test/kernels/dot_stress.blk against float64, on the interpreter and on the
// GPU: a matmul whose A rows are gathered through an index vector, one whose
// B is dequantized from int8 in registers, one whose A is read transposed
// through its strides, one split over K by a runtime step, one whose K loop
// is a `while` loop, and decode
// attention over a paged KV cache with grouped-query heads in a 16-row tile.
#ifndef BLK_TEST_COMMON_DOTSTRESSCASES_H
#define BLK_TEST_COMMON_DOTSTRESSCASES_H

#include "RowCases.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace blk::ref {

/// One `# variants:` entry of dot_stress.blk, in its order (num_warps and
/// num_stages last); `spec` picks the build specialized by its
/// `# specialize:` line (unit strides, the others and the sizes multiples
/// of 16).
struct DotStressVariant {
  Bindings bindings;
  int blockM = 0, blockN = 0; // matmul tiles (the grid)
  bool spec = false;
  Bindings withSpec() const {
    Bindings b = bindings;
    if (spec)
      b.push_back({"spec", "spec"});
    return b;
  }
  std::string label() const {
    std::string s;
    for (auto &[k, v] : bindings)
      s += (s.empty() ? "" : ",") + k + "=" + v;
    return s + (spec ? " spec" : "");
  }
};

inline DotStressVariant matmulStressVariant(int bm, int bn, int bk, int warps, int stages) {
  Bindings b{{"BLOCK_M", std::to_string(bm)}, {"BLOCK_N", std::to_string(bn)}, {"BLOCK_K", std::to_string(bk)}};
  if (warps)
    b.push_back({"num_warps", std::to_string(warps)});
  if (stages)
    b.push_back({"num_stages", std::to_string(stages)});
  return {b, bm, bn};
}

inline DotStressVariant decodeStressVariant(int page, int d, int warps, int stages) {
  Bindings b{{"PAGE", std::to_string(page)}, {"D", std::to_string(d)}};
  if (warps)
    b.push_back({"num_warps", std::to_string(warps)});
  if (stages)
    b.push_back({"num_stages", std::to_string(stages)});
  return {b};
}

struct GemmShape {
  int m, n, k;
};

inline std::string gemmWhat(const char *kernel, const DotStressVariant &v, GemmShape s, const std::string &more = "") {
  return std::string(kernel) + " [" + v.label() + "] " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k) + more;
}

inline unsigned groupedGrid(const DotStressVariant &v, GemmShape s) {
  return unsigned(((s.m + v.blockM - 1) / v.blockM) * ((s.n + v.blockN - 1) / v.blockN));
}

/// C[i, :] = X[idx[i], :] @ W: `xRows` rows of X, m indices drawn with
/// repeats (fewer rows than indices repeats some for sure). X's row stride
/// is k + pad (pad 0 for the spec build, whose strides are multiples of 16).
inline std::vector<Check> gatheredMatmulCase(const Launch &L, const DotStressVariant &v, GemmShape s, int xRows,
                                             int pad, std::mt19937_64 &rng) {
  int64_t ldx = s.k + pad;
  Buffer x(DType::BF16, size_t(xRows) * ldx), w(DType::BF16, size_t(s.k) * s.n), c(DType::BF16, size_t(s.m) * s.n),
      idx(DType::I32, size_t(s.m));
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -1, 1);
  std::uniform_int_distribution<int> pick(0, xRows - 1);
  for (int i = 0; i < s.m; ++i)
    idx.set(size_t(i), pick(rng));
  c.poison();
  std::string what = gemmWhat("gathered_matmul", v, s, " from " + std::to_string(xRows) + " rows");
  std::string e = L("dot_stress", v.withSpec(), "gathered_matmul", groupedGrid(v, s),
                    {KArg::buf_(x), KArg::buf_(idx), KArg::buf_(w), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n),
                     KArg::int_(s.k), KArg::int_(ldx), KArg::int_(1), KArg::int_(s.n), KArg::int_(1),
                     KArg::int_(s.n), KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(size_t(s.m) * s.n, 0.0);
  for (int i = 0; i < s.m; ++i) {
    size_t row = size_t(idx.get(size_t(i))) * size_t(ldx);
    for (int kk = 0; kk < s.k; ++kk) {
      double a = x.get(row + size_t(kk));
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += a * w.get(size_t(kk) * s.n + j);
    }
  }
  return {{what, relativeError(c, ref), tolerance(DType::BF16)}};
}

/// C = X @ bf16(f32(WQ) * scale[None, :]): WQ int8 [k, n] over [-127, 127],
/// one f32 scale per column, dequantized in the reference as the kernel
/// does (an f32 product rounded to bf16).
inline std::vector<Check> dequantMatmulCase(const Launch &L, const DotStressVariant &v, GemmShape s,
                                            std::mt19937_64 &rng) {
  Buffer x(DType::BF16, size_t(s.m) * s.k), wq(DType::I8, size_t(s.k) * s.n), scale(DType::F32, size_t(s.n)),
      c(DType::BF16, size_t(s.m) * s.n);
  x.fillUniform(rng, -1, 1);
  wq.fillUniform(rng, -127.4, 127.4);
  scale.fillUniform(rng, 0.001, 0.02);
  c.poison();
  std::string what = gemmWhat("dequant_matmul", v, s);
  LaunchGrid grid(unsigned((s.m + v.blockM - 1) / v.blockM), unsigned((s.n + v.blockN - 1) / v.blockN));
  std::string e = L("dot_stress", v.withSpec(), "dequant_matmul", grid,
                    {KArg::buf_(x), KArg::buf_(wq), KArg::buf_(scale), KArg::buf_(c), KArg::int_(s.m),
                     KArg::int_(s.n), KArg::int_(s.k), KArg::int_(s.k), KArg::int_(1), KArg::int_(s.n), KArg::int_(1),
                     KArg::int_(s.n), KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> b(size_t(s.k) * s.n), ref(size_t(s.m) * s.n, 0.0);
  for (int kk = 0; kk < s.k; ++kk)
    for (int j = 0; j < s.n; ++j)
      b[size_t(kk) * s.n + j] =
          Buffer::rounded(DType::BF16, double(float(wq.get(size_t(kk) * s.n + j)) * float(scale.get(size_t(j)))));
  for (int i = 0; i < s.m; ++i)
    for (int kk = 0; kk < s.k; ++kk) {
      double a = x.get(size_t(i) * s.k + kk);
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += a * b[size_t(kk) * s.n + j];
    }
  return {{what, relativeError(c, ref), tolerance(DType::BF16)}};
}

/// C = A^T @ B with A stored [k, m] (row stride m + pad, unit stride along
/// m) and read through the kernel's strides.
inline std::vector<Check> transposedAMatmulCase(const Launch &L, const DotStressVariant &v, GemmShape s, int pad,
                                                std::mt19937_64 &rng) {
  int64_t lda = s.m + pad;
  Buffer a(DType::BF16, size_t(s.k) * lda), b(DType::BF16, size_t(s.k) * s.n), c(DType::BF16, size_t(s.m) * s.n);
  a.fillUniform(rng, -1, 1);
  b.fillUniform(rng, -1, 1);
  c.poison();
  std::string what = gemmWhat("transposed_a_matmul", v, s, pad ? " lda+" + std::to_string(pad) : "");
  std::string e = L("dot_stress", v.withSpec(), "transposed_a_matmul", groupedGrid(v, s),
                    {KArg::buf_(a), KArg::buf_(b), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(lda), KArg::int_(1), KArg::int_(s.n), KArg::int_(1), KArg::int_(s.n),
                     KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(size_t(s.m) * s.n, 0.0);
  for (int kk = 0; kk < s.k; ++kk)
    for (int i = 0; i < s.m; ++i) {
      double x = a.get(size_t(kk) * lda + i);
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += x * b.get(size_t(kk) * s.n + j);
    }
  return {{what, relativeError(c, ref), tolerance(DType::BF16)}};
}

/// X @ W in float64: X [m, k] with rows of `ldx` elements, W [k, n].
inline std::vector<double> rowMajorProduct(const Buffer &x, int64_t ldx, const Buffer &w, GemmShape s) {
  std::vector<double> ref(size_t(s.m) * s.n, 0.0);
  for (int i = 0; i < s.m; ++i)
    for (int kk = 0; kk < s.k; ++kk) {
      double a = x.get(size_t(i) * ldx + kk);
      for (int j = 0; j < s.n; ++j)
        ref[size_t(i) * s.n + j] += a * w.get(size_t(kk) * s.n + j);
    }
  return ref;
}

/// split_k_matmul: C = X @ W summed by `split` programs per tile with atomic
/// adds into C (zero before the launch; a result nothing wrote stays zero
/// and fails), X [m, k] (row stride k + pad), W [k, n].
inline std::vector<Check> splitKMatmulCase(const Launch &L, const DotStressVariant &v, GemmShape s, int split,
                                           int pad, std::mt19937_64 &rng) {
  int64_t ldx = s.k + pad;
  Buffer x(DType::BF16, size_t(s.m) * ldx), w(DType::BF16, size_t(s.k) * s.n), c(DType::F32, size_t(s.m) * s.n);
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -1, 1);
  std::string what = gemmWhat("split_k_matmul", v, s, " in " + std::to_string(split) + " splits");
  std::string e = L("dot_stress", v.withSpec(), "split_k_matmul", LaunchGrid(groupedGrid(v, s), unsigned(split)),
                    {KArg::buf_(x), KArg::buf_(w), KArg::buf_(c), KArg::int_(s.m), KArg::int_(s.n), KArg::int_(s.k),
                     KArg::int_(split), KArg::int_(ldx), KArg::int_(1), KArg::int_(s.n), KArg::int_(1),
                     KArg::int_(s.n), KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref = rowMajorProduct(x, ldx, w, s);
  return {{what, relativeError(c, ref), 1e-5}};
}

/// while_matmul: C = X @ W with its K loop written as `while k < K`; X [m, k]
/// (row stride k + pad), W [k, n], C stored (poisoned before); KEND gets
/// each program's counter after the loop, the first multiple of BLOCK_K at
/// or past k.
inline std::vector<Check> whileMatmulCase(const Launch &L, const DotStressVariant &v, GemmShape s, int pad,
                                          std::mt19937_64 &rng) {
  int64_t ldx = s.k + pad;
  unsigned grid = groupedGrid(v, s);
  Buffer x(DType::BF16, size_t(s.m) * ldx), w(DType::BF16, size_t(s.k) * s.n), c(DType::F32, size_t(s.m) * s.n),
      kend(DType::F32, grid);
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -1, 1);
  c.poison();
  kend.poison();
  std::string what = gemmWhat("while_matmul", v, s);
  std::string e = L("dot_stress", v.withSpec(), "while_matmul", grid,
                    {KArg::buf_(x), KArg::buf_(w), KArg::buf_(c), KArg::buf_(kend), KArg::int_(s.m), KArg::int_(s.n),
                     KArg::int_(s.k), KArg::int_(ldx), KArg::int_(1), KArg::int_(s.n), KArg::int_(1), KArg::int_(s.n),
                     KArg::int_(1)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref = rowMajorProduct(x, ldx, w, s);
  int blockK = 0;
  for (auto &[k, val] : v.bindings)
    if (k == "BLOCK_K")
      blockK = std::stoi(val);
  const int32_t wantEnd = int32_t((s.k + blockK - 1) / blockK * blockK);
  std::vector<int32_t> ends = rawValues<int32_t>(kend, grid);
  return {{what, relativeError(c, ref), 1e-5},
          exact(what + ": the counter after the loop",
                std::all_of(ends.begin(), ends.end(), [&](int32_t e) { return e == wantEnd; }))};
}

struct DecodeShape {
  int batch, kvHeads, group, maxPages;
  std::vector<int> seqLens; // per sequence, 1 to maxPages * page
};

/// paged_decode_attention: Q [batch, kvHeads * group, D], a cache of
/// K/V pages [pages, page, kvHeads, D] (twice the pages the sequences use,
/// handed out in a random order, so that a page read through the wrong
/// table entry is someone else's data), O like Q.
inline std::vector<Check> pagedDecodeCase(const Launch &L, const DotStressVariant &v, int page, int d,
                                          const DecodeShape &s, std::mt19937_64 &rng) {
  int heads = s.kvHeads * s.group;
  int pool = 2 * s.batch * s.maxPages;
  size_t nq = size_t(s.batch) * heads * d;
  int64_t skt = int64_t(s.kvHeads) * d, skp = page * skt;
  Buffer q(DType::BF16, nq), k(DType::BF16, size_t(pool) * skp), vv(DType::BF16, size_t(pool) * skp),
      o(DType::BF16, nq), table(DType::I32, size_t(s.batch) * s.maxPages), lens(DType::I32, size_t(s.batch));
  q.fillUniform(rng, -2, 2);
  k.fillUniform(rng, -2, 2);
  vv.fillUniform(rng, -1, 1);
  o.poison();
  std::vector<int> order(static_cast<size_t>(pool));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i = 0; i < table.size(); ++i)
    table.set(i, order[i]);
  for (int b = 0; b < s.batch; ++b)
    lens.set(size_t(b), s.seqLens[size_t(b)]);
  double scale = 1 / std::sqrt(double(d));
  std::string what = "paged_decode_attention [" + v.label() + "] batch " + std::to_string(s.batch) + ", " +
                     std::to_string(s.kvHeads) + " KV heads x group " + std::to_string(s.group) + ", D=" +
                     std::to_string(d) + ", pages of " + std::to_string(page);
  std::string e = L("dot_stress", v.withSpec(), "paged_decode_attention",
                    LaunchGrid(unsigned(s.batch), unsigned(s.kvHeads)),
                    {KArg::buf_(q), KArg::buf_(k), KArg::buf_(vv), KArg::buf_(table), KArg::buf_(lens),
                     KArg::buf_(o), KArg::real(scale), KArg::int_(s.group), KArg::int_(s.maxPages),
                     KArg::int_(int64_t(heads) * d), KArg::int_(d), KArg::int_(skp), KArg::int_(skt), KArg::int_(d),
                     KArg::int_(skp), KArg::int_(skt), KArg::int_(d), KArg::int_(int64_t(heads) * d),
                     KArg::int_(d)});
  if (!e.empty())
    return {{what + ": " + e, INFINITY, 0}};
  std::vector<double> ref(nq), scores;
  for (int b = 0; b < s.batch; ++b) {
    int len = s.seqLens[size_t(b)];
    scores.assign(size_t(len), 0);
    auto at = [&](int t, int kvh) {
      size_t pg = size_t(table.get(size_t(b) * s.maxPages + size_t(t / page)));
      return pg * size_t(skp) + size_t(t % page) * size_t(skt) + size_t(kvh) * size_t(d);
    };
    for (int h = 0; h < heads; ++h) {
      int kvh = h / s.group;
      size_t qAt = (size_t(b) * heads + h) * d;
      double mx = -INFINITY, sum = 0;
      for (int t = 0; t < len; ++t) {
        double dotqk = 0;
        for (int i = 0; i < d; ++i)
          dotqk += q.get(qAt + i) * k.get(at(t, kvh) + i);
        scores[size_t(t)] = dotqk * scale;
        mx = std::max(mx, scores[size_t(t)]);
      }
      for (int t = 0; t < len; ++t)
        sum += scores[size_t(t)] = std::exp(scores[size_t(t)] - mx);
      for (int i = 0; i < d; ++i) {
        double acc = 0;
        for (int t = 0; t < len; ++t)
          acc += scores[size_t(t)] * vv.get(at(t, kvh) + i);
        ref[qAt + i] = acc / sum;
      }
    }
  }
  // As attention_forward: P is rounded to bf16 before the second product and
  // O is stored in bf16.
  return {{what, relativeError(o, ref), 5e-3}};
}

} // namespace blk::ref

#endif
