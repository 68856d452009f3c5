// The row kernels of kernels/ (softmax, RMSNorm, LayerNorm, cross-entropy),
// forward and backward, against float64 references. The same cases run on
// the CPU interpreter and on the GPU: each backend supplies a Launch that
// runs one kernel over host buffers (copying them in and out).
#ifndef BLK_TEST_COMMON_ROWCASES_H
#define BLK_TEST_COMMON_ROWCASES_H

#include "Reference.h"

#include <functional>

namespace blk::ref {

/// A kernel argument: a host buffer, or a scalar typed as the kernel says.
struct KArg {
  enum Kind { Buf, Int, Real } kind;
  Buffer *buf = nullptr;
  int64_t i = 0;
  double f = 0;
  static KArg buf_(Buffer &b) { return {Buf, &b}; }
  static KArg int_(int64_t v) { return {Int, nullptr, v}; }
  static KArg real(double v) { return {Real, nullptr, 0, v}; }
};

/// Compile-time bindings of a kernel file, in the order of its `# variants:`
/// line (T first): the GPU tests load <file>.<value>.<value>.ptx.
using Bindings = std::vector<std::pair<std::string, std::string>>;

/// Programs along x, y and z (a number: along x only).
struct LaunchGrid {
  unsigned x, y = 1, z = 1;
  LaunchGrid(unsigned x) : x(x) {} // NOLINT: a 1-D grid reads as its size
  LaunchGrid(unsigned x, unsigned y, unsigned z = 1) : x(x), y(y), z(z) {}
};

/// Runs `kernel` of kernels/<file>.blk with `bindings` on `grid` programs;
/// returns an error message, empty on success.
using Launch = std::function<std::string(const std::string &file, const Bindings &bindings,
                                         const std::string &kernel, LaunchGrid grid, std::vector<KArg> args)>;

/// One compared output (`error` from relativeError, or 0 / infinity).
struct Check {
  std::string what;
  Error error;
  double tolerance;
};

/// A check that passes (error 0) when `ok`: results that must match exactly.
inline Check exact(const std::string &what, bool ok) { return {what, ok ? 0.0 : INFINITY, 0.5}; }

/// A buffer holding `v`'s bytes (any element type: i64 labels, i32 counters).
template <typename T> Buffer rawBuffer(const std::vector<T> &v) {
  Buffer b(DType::F32, (v.size() * sizeof(T) + 3) / 4);
  std::memcpy(b.data.data(), v.data(), v.size() * sizeof(T));
  return b;
}
template <typename T> std::vector<T> rawValues(const Buffer &b, size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), b.data.data(), n * sizeof(T));
  return v;
}

inline std::vector<double> values(const Buffer &b) {
  std::vector<double> v(b.size());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = b.get(i);
  return v;
}

/// Tolerance of an f32 result computed from inputs stored as `t` (one
/// rounding of the inputs dominates less than the output's own).
inline double f32Tolerance(DType t) { return t == DType::F32 ? 1e-5 : 2e-3; }

using CaseFn = std::vector<Check> (*)(const Launch &, DType, int rows, int cols, std::mt19937_64 &);

inline std::vector<Check> softmaxCase(const Launch &L, DType t, int rows, int cols, std::mt19937_64 &rng) {
  size_t n = size_t(rows) * cols;
  Buffer x(t, n), y(t, n), dy(t, n), dx(t, n);
  x.fillUniform(rng, -8, 8);
  dy.fillUniform(rng, -1, 1);
  y.poison();
  dx.poison();
  std::vector<Check> checks;
  std::string e = L("softmax", {{"T", name(t)}}, "softmax_forward", rows,
                    {KArg::buf_(x), KArg::buf_(y), KArg::int_(cols), KArg::int_(cols)});
  if (!e.empty())
    return {{"softmax_forward: " + e, INFINITY, 0}};
  std::vector<double> ry(n), rdx(n);
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, x.get(size_t(r) * cols + c));
    for (int c = 0; c < cols; ++c)
      s += std::exp(x.get(size_t(r) * cols + c) - m);
    for (int c = 0; c < cols; ++c)
      ry[size_t(r) * cols + c] = std::exp(x.get(size_t(r) * cols + c) - m) / s;
  }
  checks.push_back({"softmax_forward Y", relativeError(y, ry), tolerance(t)});
  // The backward pass takes the kernel's own Y.
  e = L("softmax", {{"T", name(t)}}, "softmax_backward", rows,
        {KArg::buf_(dy), KArg::buf_(y), KArg::buf_(dx), KArg::int_(cols), KArg::int_(cols)});
  if (!e.empty())
    return {{"softmax_backward: " + e, INFINITY, 0}};
  for (int r = 0; r < rows; ++r) {
    double dot = 0;
    for (int c = 0; c < cols; ++c)
      dot += dy.get(size_t(r) * cols + c) * y.get(size_t(r) * cols + c);
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      rdx[i] = y.get(i) * (dy.get(i) - dot);
    }
  }
  checks.push_back({"softmax_backward dX", relativeError(dx, rdx), tolerance(t)});
  return checks;
}

/// Programs for the backward passes (each sums dW over a range of rows).
inline int backwardPrograms(int rows) { return std::min(rows, 7); }

// sum_rows' default BLOCK_C (kernels/rms_norm.blk): its grid is cdiv(cols, kSumRowsBlockC).
constexpr int kSumRowsBlockC = 16;

inline std::vector<Check> rmsNormCase(const Launch &L, DType t, int rows, int cols, std::mt19937_64 &rng, int mode,
                                      double offset) {
  size_t n = size_t(rows) * cols;
  Buffer x(t, n), w(t, cols), y(t, n), rstd(DType::F32, rows), dy(t, n), dx(t, n);
  x.fillUniform(rng, -2, 2);
  w.fillUniform(rng, -1, 1);
  dy.fillUniform(rng, -1, 1);
  for (Buffer *b : {&y, &rstd, &dx})
    b->poison();
  const double eps = 1e-6;
  Bindings modeBindings{{"T", name(t)}};
  if (mode)
    modeBindings.push_back({"MODE", std::to_string(mode)});
  std::string e = L("rms_norm", modeBindings, "rms_norm_forward", rows,
                    {KArg::buf_(y), KArg::buf_(x), KArg::buf_(w), KArg::buf_(rstd), KArg::int_(cols),
                     KArg::int_(cols), KArg::real(eps), KArg::real(offset)});
  if (!e.empty())
    return {{"rms_norm_forward: " + e, INFINITY, 0}};
  std::vector<double> ry(n), rr(rows), rdx(n), rdw(cols, 0);
  for (int r = 0; r < rows; ++r) {
    double ss = 0;
    for (int c = 0; c < cols; ++c)
      ss += x.get(size_t(r) * cols + c) * x.get(size_t(r) * cols + c);
    rr[r] = 1 / std::sqrt(ss / cols + eps);
    for (int c = 0; c < cols; ++c)
      ry[size_t(r) * cols + c] = x.get(size_t(r) * cols + c) * rr[r] * (offset + w.get(c));
  }
  std::vector<Check> checks{{"rms_norm_forward Y", relativeError(y, ry), tolerance(t)},
                            {"rms_norm_forward RSTD", relativeError(rstd, rr), f32Tolerance(t)}};
  int programs = backwardPrograms(rows), per = (rows + programs - 1) / programs;
  Buffer partial(DType::F32, size_t(programs) * cols), dw(t, cols);
  partial.poison();
  dw.poison();
  e = L("rms_norm", modeBindings, "rms_norm_backward", programs,
        {KArg::buf_(dy), KArg::buf_(x), KArg::buf_(w), KArg::buf_(rstd), KArg::buf_(dx), KArg::buf_(partial),
         KArg::int_(rows), KArg::int_(cols), KArg::int_(cols), KArg::real(offset), KArg::int_(per)});
  if (e.empty())
    e = L("rms_norm", modeBindings, "sum_rows", unsigned((cols + kSumRowsBlockC - 1) / kSumRowsBlockC),
          {KArg::buf_(partial), KArg::buf_(dw), KArg::int_(programs), KArg::int_(cols)});
  if (!e.empty())
    return {{"rms_norm_backward: " + e, INFINITY, 0}};
  for (int r = 0; r < rows; ++r) {
    double dot = 0, rs = rr[r];
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      dot += dy.get(i) * (offset + w.get(c)) * x.get(i);
    }
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      rdx[i] = rs * dy.get(i) * (offset + w.get(c)) - rs * rs * rs / cols * dot * x.get(i);
      // Llama mode (0) rounds the normalized row to T before it meets dY, as
      // the kernel and Liger do; with a few rows dW can cancel to far below its
      // terms, so the reference rounds the same way.
      double normed = x.get(i) * rs;
      rdw[c] += dy.get(i) * (mode == 0 ? Buffer::rounded(t, float(x.get(i)) * float(rs)) : normed);
    }
  }
  checks.push_back({"rms_norm_backward dX", relativeError(dx, rdx), tolerance(t)});
  checks.push_back({"rms_norm_backward dW", relativeError(dw, rdw), tolerance(t)});
  return checks;
}

inline std::vector<Check> layerNormCase(const Launch &L, DType t, int rows, int cols, std::mt19937_64 &rng) {
  size_t n = size_t(rows) * cols;
  Buffer x(t, n), w(t, cols), b(t, cols), y(t, n), mean(DType::F32, rows), rstd(DType::F32, rows), dy(t, n),
      dx(t, n);
  x.fillUniform(rng, -2, 3);
  w.fillUniform(rng, -1, 1);
  b.fillUniform(rng, -1, 1);
  dy.fillUniform(rng, -1, 1);
  for (Buffer *p : {&y, &mean, &rstd, &dx})
    p->poison();
  const double eps = 1e-5;
  std::string e = L("layer_norm", {{"T", name(t)}}, "layer_norm_forward", rows,
                    {KArg::buf_(y), KArg::buf_(x), KArg::buf_(w), KArg::buf_(b), KArg::buf_(mean),
                     KArg::buf_(rstd), KArg::int_(cols), KArg::int_(cols), KArg::real(eps)});
  if (!e.empty())
    return {{"layer_norm_forward: " + e, INFINITY, 0}};
  std::vector<double> ry(n), rm(rows), rr(rows), rdx(n), rdw(cols, 0), rdb(cols, 0);
  for (int r = 0; r < rows; ++r) {
    double s = 0, v = 0;
    for (int c = 0; c < cols; ++c)
      s += x.get(size_t(r) * cols + c);
    rm[r] = s / cols;
    for (int c = 0; c < cols; ++c)
      v += (x.get(size_t(r) * cols + c) - rm[r]) * (x.get(size_t(r) * cols + c) - rm[r]);
    rr[r] = 1 / std::sqrt(v / cols + eps);
    for (int c = 0; c < cols; ++c)
      ry[size_t(r) * cols + c] = (x.get(size_t(r) * cols + c) - rm[r]) * rr[r] * w.get(c) + b.get(c);
  }
  std::vector<Check> checks{{"layer_norm_forward Y", relativeError(y, ry), tolerance(t)},
                            {"layer_norm_forward MEAN", relativeError(mean, rm), f32Tolerance(t)},
                            {"layer_norm_forward RSTD", relativeError(rstd, rr), f32Tolerance(t)}};
  int programs = backwardPrograms(rows), per = (rows + programs - 1) / programs;
  Buffer pw(DType::F32, size_t(programs) * cols), pb(DType::F32, size_t(programs) * cols), dw(t, cols), db(t, cols);
  for (Buffer *p : {&pw, &pb, &dw, &db})
    p->poison();
  e = L("layer_norm", {{"T", name(t)}}, "layer_norm_backward", programs,
        {KArg::buf_(dy), KArg::buf_(x), KArg::buf_(w), KArg::buf_(mean), KArg::buf_(rstd), KArg::buf_(dx),
         KArg::buf_(pw), KArg::buf_(pb), KArg::int_(rows), KArg::int_(cols), KArg::int_(cols), KArg::int_(per)});
  for (auto [part, out] : {std::pair{&pw, &dw}, std::pair{&pb, &db}})
    if (e.empty())
      e = L("rms_norm", Bindings{{"T", name(t)}}, "sum_rows", unsigned((cols + kSumRowsBlockC - 1) / kSumRowsBlockC),
            {KArg::buf_(*part), KArg::buf_(*out), KArg::int_(programs), KArg::int_(cols)});
  if (!e.empty())
    return {{"layer_norm_backward: " + e, INFINITY, 0}};
  for (int r = 0; r < rows; ++r) {
    double c1 = 0, c2 = 0;
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      double xhat = (x.get(i) - rm[r]) * rr[r];
      c1 += xhat * w.get(c) * dy.get(i);
      c2 += w.get(c) * dy.get(i);
    }
    c1 /= cols;
    c2 /= cols;
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      double xhat = (x.get(i) - rm[r]) * rr[r];
      rdx[i] = (w.get(c) * dy.get(i) - (xhat * c1 + c2)) * rr[r];
      rdw[c] += dy.get(i) * xhat;
      rdb[c] += dy.get(i);
    }
  }
  checks.push_back({"layer_norm_backward dX", relativeError(dx, rdx), tolerance(t)});
  checks.push_back({"layer_norm_backward dW", relativeError(dw, rdw), tolerance(t)});
  checks.push_back({"layer_norm_backward dB", relativeError(db, rdb), tolerance(t)});
  return checks;
}

struct CrossEntropyOptions {
  int reduction = 0; // 0 mean, 1 sum, 2 none
  double labelSmoothing = 0, zLoss = 0, softcap = 0;
  int ignoreIndex = -100;
};

inline std::vector<Check> crossEntropyCase(const Launch &L, DType t, int rows, int cols, std::mt19937_64 &rng,
                                           CrossEntropyOptions o) {
  size_t n = size_t(rows) * cols;
  Buffer x(t, n), grad(t, n), loss(DType::F32, rows);
  x.fillUniform(rng, -6, 6);
  std::vector<int64_t> y(rows);
  std::uniform_int_distribution<int64_t> cls(0, cols - 1);
  int nonIgnore = 0;
  for (int r = 0; r < rows; ++r) {
    y[r] = r % 3 == 1 ? o.ignoreIndex : cls(rng); // every third row ignored
    nonIgnore += y[r] != o.ignoreIndex;
  }
  Buffer yb = rawBuffer(y);
  std::vector<double> x0 = values(x);
  grad = x; // the kernel overwrites the logits with the gradient
  loss.poison();
  std::string kernel = "cross_entropy";
  Bindings bindings{{"T", name(t)}};
  if (o.reduction != 0 || o.softcap > 0) {
    bindings.push_back({"REDUCTION", std::to_string(o.reduction)});
    bindings.push_back({"SOFTCAP", o.softcap > 0 ? "1" : "0"});
  }
  std::string e = L("cross_entropy", bindings, kernel, rows,
                    {KArg::buf_(grad), KArg::buf_(yb), KArg::buf_(loss), KArg::int_(cols), KArg::int_(cols),
                     KArg::real(std::max(nonIgnore, 1)), KArg::int_(o.ignoreIndex), KArg::real(o.labelSmoothing),
                     KArg::real(o.zLoss), KArg::real(o.softcap)});
  if (!e.empty())
    return {{kernel + ": " + e, INFINITY, 0}};
  std::vector<double> rl(rows, 0), rg(n, 0);
  double scale = o.reduction == 0 ? 1.0 / std::max(nonIgnore, 1) : 1.0;
  for (int r = 0; r < rows; ++r) {
    if (y[r] == o.ignoreIndex)
      continue;
    std::vector<double> z(cols);
    double m = -INFINITY;
    for (int c = 0; c < cols; ++c) {
      double v = x0[size_t(r) * cols + c];
      z[c] = o.softcap > 0 ? o.softcap * std::tanh(v / o.softcap) : v;
      m = std::max(m, z[c]);
    }
    double s = 0;
    for (int c = 0; c < cols; ++c)
      s += std::exp(z[c] - m);
    double lse = m + std::log(s), eps = o.labelSmoothing / cols, smooth = 0;
    for (int c = 0; c < cols; ++c) {
      smooth -= eps * z[c];
      double g = std::exp(z[c] - lse) * (1 + 2 * o.zLoss * lse) - eps - (c == y[r] ? 1 - o.labelSmoothing : 0);
      if (o.softcap > 0) {
        double th = std::tanh(x0[size_t(r) * cols + c] / o.softcap);
        g *= 1 - th * th;
      }
      rg[size_t(r) * cols + c] = g * scale;
    }
    rl[r] = ((lse - z[y[r]]) * (1 - o.labelSmoothing) + smooth + o.labelSmoothing * lse + o.zLoss * lse * lse) * scale;
  }
  return {{kernel + " loss", relativeError(loss, rl), f32Tolerance(t) * 10},
          {kernel + " grad", relativeError(grad, rg), tolerance(t)}};
}

/// Total of a per-row loss through reduce.blk's sum_all; empty on success.
inline std::string sumAll(const Launch &L, Buffer &in, Buffer &out, int n, double scale) {
  return L("reduce", {}, "sum_all", 1, {KArg::buf_(in), KArg::buf_(out), KArg::int_(n), KArg::real(scale)});
}

struct KLDivOptions {
  bool logTarget = false;
  int reduction = 3; // 0 none, 1 sum, 2 mean, 3 batchmean
};

inline std::vector<Check> klDivCase(const Launch &L, DType t, int rows, int cols, std::mt19937_64 &rng,
                                    KLDivOptions o) {
  size_t n = size_t(rows) * cols;
  Buffer pred(t, n), target(t, n), loss(DType::F32, o.reduction == 0 ? n : rows), total(DType::F32, 1),
      grad(t, n);
  // y_pred: log-probabilities; y_true: probabilities (some exactly 0, where
  // eps guards the log) or log-probabilities.
  pred.fillUniform(rng, -12, -0.1);
  target.fillUniform(rng, o.logTarget ? -12 : 0, o.logTarget ? -0.1 : 0.02);
  if (!o.logTarget)
    for (size_t i = 0; i < n; i += 7)
      target.set(i, 0);
  for (Buffer *b : {&loss, &total, &grad})
    b->poison();
  const double eps = 1e-10;
  Bindings bindings{{"T", name(t)}};
  if (o.logTarget || o.reduction != 3) {
    bindings.push_back({"LOG_TARGET", o.logTarget ? "1" : "0"});
    bindings.push_back({"REDUCTION", std::to_string(o.reduction)});
  }
  std::string e = L("kl_div_loss", bindings, "kl_div_forward", rows,
                    {KArg::buf_(pred), KArg::buf_(target), KArg::buf_(loss), KArg::int_(cols), KArg::int_(cols),
                     KArg::real(eps)});
  double scale = o.reduction == 2 ? 1.0 / double(n) : o.reduction == 3 ? 1.0 / rows : 1.0;
  if (e.empty() && o.reduction != 0)
    e = sumAll(L, loss, total, rows, scale);
  if (!e.empty())
    return {{"kl_div_forward: " + e, INFINITY, 0}};
  std::vector<double> rl(o.reduction == 0 ? n : rows, 0), rg(n);
  double rt = 0;
  for (size_t i = 0; i < n; ++i) {
    double y = pred.get(i), g = target.get(i);
    double l = o.logTarget ? std::exp(g) * (g - y) : g * (std::log(std::max(g, eps)) - y);
    rl[o.reduction == 0 ? i : i / cols] += l;
    rt += l;
    rg[i] = -(o.logTarget ? std::exp(g) : g) * scale;
  }
  std::vector<Check> checks{{"kl_div_forward loss", relativeError(loss, rl), f32Tolerance(t)}};
  if (o.reduction != 0)
    checks.push_back({"kl_div total", relativeError(total, {rt * scale}), f32Tolerance(t)});
  e = L("kl_div_loss", bindings, "kl_div_backward", rows,
        {KArg::buf_(target), KArg::buf_(grad), KArg::int_(cols), KArg::int_(cols), KArg::real(scale)});
  if (!e.empty())
    return {{"kl_div_backward: " + e, INFINITY, 0}};
  checks.push_back({"kl_div_backward grad", relativeError(grad, rg), tolerance(t)});
  return checks;
}

struct JSDOptions {
  const char *beta = "0.5"; // spelled as the kernel's variant binding
  bool hasLabel = false;
  int ignoreIndex = -100;
};

/// Log-softmax of random logits, row by row, into `b` (log-probabilities).
inline void fillLogProbabilities(Buffer &b, int rows, int cols, std::mt19937_64 &rng) {
  b.fillUniform(rng, -4, 4);
  for (int r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, b.get(size_t(r) * cols + c));
    for (int c = 0; c < cols; ++c)
      s += std::exp(b.get(size_t(r) * cols + c) - m);
    for (int c = 0; c < cols; ++c)
      b.set(size_t(r) * cols + c, b.get(size_t(r) * cols + c) - m - std::log(s));
  }
}

inline std::vector<Check> jsdCase(const Launch &L, DType t, int rows, int cols, std::mt19937_64 &rng, JSDOptions o) {
  size_t n = size_t(rows) * cols;
  Buffer x(t, n), y(t, n), loss(DType::F32, rows), total(DType::F32, 1), dx(t, n);
  fillLogProbabilities(x, rows, cols, rng);
  fillLogProbabilities(y, rows, cols, rng);
  std::vector<int64_t> label(rows, 0);
  int nonIgnore = rows;
  if (o.hasLabel) {
    nonIgnore = 0;
    for (int r = 0; r < rows; ++r) {
      label[r] = r % 3 == 1 ? o.ignoreIndex : r % cols;
      nonIgnore += label[r] != o.ignoreIndex;
    }
  }
  Buffer lb = rawBuffer(label);
  for (Buffer *b : {&loss, &total, &dx})
    b->poison();
  Bindings bindings{{"T", name(t)}};
  if (std::string(o.beta) != "0.5" || o.hasLabel) {
    bindings.push_back({"BETA", o.beta});
    bindings.push_back({"HAS_LABEL", o.hasLabel ? "1" : "0"});
  }
  double denom = std::max(nonIgnore, 1);
  std::string e = L("jsd", bindings, "jsd", rows,
                    {KArg::buf_(x), KArg::buf_(y), KArg::buf_(loss), KArg::buf_(dx), KArg::buf_(lb),
                     KArg::int_(cols), KArg::int_(cols), KArg::real(denom), KArg::int_(o.ignoreIndex)});
  if (e.empty())
    e = sumAll(L, loss, total, rows, 1.0);
  if (!e.empty())
    return {{"jsd: " + e, INFINITY, 0}};
  std::vector<double> rl(rows, 0), rdx(n, 0);
  double rt = 0, b = std::stod(o.beta);
  for (int r = 0; r < rows; ++r) {
    if (o.hasLabel && label[r] == o.ignoreIndex)
      continue;
    for (int c = 0; c < cols; ++c) {
      size_t i = size_t(r) * cols + c;
      double lq = x.get(i), lp = y.get(i), q = std::exp(lq), p = std::exp(lp);
      double m = b * p + (1 - b) * q, lm = std::log(m), l, d;
      if (b == 0) { // forward KL(P||Q)
        l = p * (lp - lq);
        d = -p;
      } else if (b == 1) { // reverse KL(Q||P)
        l = q * (lq - lp);
        d = l + q;
      } else { // beta KL(P||M) + (1 - beta) KL(Q||M); its derivative in log q
        l = b * p * (lp - lm) + (1 - b) * q * (lq - lm);
        d = (1 - b) * q * (lq - lm);
      }
      rl[r] += l / denom;
      rdx[i] = d / denom;
    }
    rt += rl[r];
  }
  return {{"jsd loss", relativeError(loss, rl), f32Tolerance(t) * 10},
          {"jsd total", relativeError(total, {rt}), f32Tolerance(t) * 10},
          {"jsd dX", relativeError(dx, rdx), tolerance(t)}};
}

} // namespace blk::ref

#endif
