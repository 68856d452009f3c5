// Fused linear cross-entropy (blk/Ops/FusedLinearCrossEntropy.h) against a
// float64 reference of the loss, each row's loss, dX, dW and dbias. A case
// runs the driver on any KernelRunner (the interpreter through the JIT, the
// GPU from PTX or through the JIT) with every buffer between guard bands and
// every output poisoned.
#ifndef BLK_TEST_COMMON_FLCECASES_H
#define BLK_TEST_COMMON_FLCECASES_H

#include "Guards.h"
#include "RowCases.h"
#include "blk/Ops/FusedLinearCrossEntropy.h"

#include <cmath>
#include <random>

namespace blk::ref {

struct FlceCase {
  int rows, hidden, vocab;
  bool bias = false;
  ops::Reduction reduction = ops::Reduction::Mean;
  double labelSmoothing = 0, lseSquareScale = 0, softcap = 0;
  int ignoredEvery = 0; // every n-th row (from row 1) targets ignore_index; 0: none
  int64_t chunkRows = 16;
  bool rowLosses = true;        // pass lossRows (always with "none")
  bool callerWorkspace = false; // pass a workspace instead of letting the driver allocate one
  DType type = DType::BF16;
  ops::Tiling tiling = ops::Tiling::Small;
  int64_t ignoreIndex = -100;
};

inline std::string describe(const FlceCase &c) {
  const char *red[] = {"mean", "sum", "none"};
  return std::string(name(c.type)) + " " + std::to_string(c.rows) + "x" + std::to_string(c.hidden) + "x" +
         std::to_string(c.vocab) + " chunk " + std::to_string(c.chunkRows) + " " + red[int(c.reduction)] +
         (c.bias ? " bias" : "") + " smoothing " + std::to_string(c.labelSmoothing) + " z " +
         std::to_string(c.lseSquareScale) + " softcap " + std::to_string(c.softcap) + " ignored every " +
         std::to_string(c.ignoredEvery);
}

/// The float64 reference from the inputs as stored.
struct FlceReference {
  double loss = 0;
  std::vector<double> lossRows, dx, dw, dbias;
};

inline FlceReference flceReference(const FlceCase &c, const Buffer &x, const Buffer &w, const Buffer *bias,
                                   const std::vector<int64_t> &target) {
  const int R = c.rows, H = c.hidden, V = c.vocab;
  FlceReference r;
  r.lossRows.assign(R, 0), r.dx.assign(size_t(R) * H, 0), r.dw.assign(size_t(V) * H, 0), r.dbias.assign(V, 0);
  int counted = 0;
  for (int64_t y : target)
    counted += y != c.ignoreIndex;
  double scale = c.reduction == ops::Reduction::Mean ? (counted ? 1.0 / counted : 0.0) : 1.0;
  double ls = c.labelSmoothing, eps = ls / V;
  std::vector<double> xs(x.size()), ws(w.size()), z(V), dcap(V), g(V);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = x.get(i);
  for (size_t i = 0; i < ws.size(); ++i)
    ws[i] = w.get(i);
  for (int i = 0; i < R; ++i) {
    if (target[i] == c.ignoreIndex)
      continue;
    for (int j = 0; j < V; ++j) {
      double s = bias ? bias->get(j) : 0.0;
      for (int k = 0; k < H; ++k)
        s += xs[size_t(i) * H + k] * ws[size_t(j) * H + k];
      dcap[j] = 1;
      if (c.softcap > 0) {
        double t = std::tanh(s / c.softcap);
        s = c.softcap * t;
        dcap[j] = 1 - t * t;
      }
      z[j] = s;
    }
    double m = *std::max_element(z.begin(), z.end()), sum = 0, mean = 0;
    for (double v : z)
      sum += std::exp(v - m), mean += v / V;
    double lse = m + std::log(sum);
    int y = int(target[i]);
    r.lossRows[i] = scale * ((1 - ls) * (lse - z[y]) + ls * (lse - mean) + c.lseSquareScale * lse * lse);
    r.loss += r.lossRows[i];
    for (int j = 0; j < V; ++j) {
      double p = std::exp(z[j] - lse);
      g[j] = scale * dcap[j] * (p * (1 + 2 * c.lseSquareScale * lse) - eps - (j == y ? 1 - ls : 0.0));
      r.dbias[j] += g[j];
      for (int k = 0; k < H; ++k) {
        r.dx[size_t(i) * H + k] += g[j] * ws[size_t(j) * H + k];
        r.dw[size_t(j) * H + k] += g[j] * xs[size_t(i) * H + k];
      }
    }
  }
  return r;
}

/// A buffer of the runner's memory holding `host` between guard bands.
struct GuardedDeviceBuffer {
  ops::KernelRunner &runner;
  Buffer &host;
  size_t arg;
  void *base = nullptr;
  std::string error;
  GuardedDeviceBuffer(ops::KernelRunner &r, Buffer &h, size_t a) : runner(r), host(h), arg(a) {
    std::vector<uint8_t> image = guardedImage(host, arg);
    Status s = runner.alloc(image.size(), &base);
    if (s.ok())
      s = runner.upload(base, image.data(), image.size());
    error = s.message;
  }
  ~GuardedDeviceBuffer() {
    if (base)
      runner.free(base);
  }
  void *data() const { return static_cast<uint8_t *>(base) + kGuardBytes; }
  /// Copies the data back; "" or what went wrong (a guard band written).
  std::string takeBack() {
    std::vector<uint8_t> image(host.data.size() + 2 * kGuardBytes);
    if (Status s = runner.download(image.data(), base, image.size()); !s.ok())
      return s.message;
    return takeGuardedImage(image, host, arg, "fused linear cross-entropy");
  }
};

/// Runs the case; the checks of the loss, the rows' losses, dX, dW and dbias.
inline std::vector<Check> flceCase(ops::KernelRunner &runner, const FlceCase &c, std::mt19937_64 &rng) {
  const int R = c.rows, H = c.hidden, V = c.vocab;
  Buffer x(c.type, size_t(R) * H), w(c.type, size_t(V) * H), bias(c.type, V);
  x.fillUniform(rng, -1, 1);
  w.fillUniform(rng, -0.5, 0.5);
  bias.fillUniform(rng, -1, 1);
  std::vector<int64_t> target(R);
  std::uniform_int_distribution<int64_t> cls(0, V - 1);
  for (int i = 0; i < R; ++i)
    target[i] = c.ignoredEvery && i % c.ignoredEvery == 1 ? c.ignoreIndex : cls(rng);
  target[0] = V - 1; // the last class, past every full block of the row
  Buffer targetBuf(DType::I32, size_t(R) * 2);
  std::memcpy(targetBuf.data.data(), target.data(), targetBuf.data.size());
  const std::vector<uint8_t> xIn = x.data, wIn = w.data, biasIn = bias.data, targetIn = targetBuf.data;
  Buffer dx(c.type, size_t(R) * H), dw(c.type, size_t(V) * H), dbias(c.type, V), lossRows(DType::F32, R);
  for (Buffer *b : {&dx, &dw, &dbias, &lossRows})
    b->poison();

  GuardedDeviceBuffer dX(runner, x, 0), dW(runner, w, 1), dTarget(runner, targetBuf, 2), dBias(runner, bias, 3),
      dGradX(runner, dx, 4), dGradW(runner, dw, 5), dGradBias(runner, dbias, 6), dLoss(runner, lossRows, 7);
  for (auto *b : {&dX, &dW, &dTarget, &dBias, &dGradX, &dGradW, &dGradBias, &dLoss})
    if (!b->error.empty())
      return {exact("device buffers: " + b->error, false)};
  ops::FlceTensors t;
  t.x = dX.data(), t.weight = dW.data(), t.target = static_cast<const int64_t *>(dTarget.data());
  t.bias = c.bias ? dBias.data() : nullptr;
  t.gradInput = dGradX.data(), t.gradWeight = dGradW.data(), t.gradBias = c.bias ? dGradBias.data() : nullptr;
  bool rowLosses = c.rowLosses || c.reduction == ops::Reduction::None;
  t.lossRows = rowLosses ? static_cast<float *>(dLoss.data()) : nullptr;
  t.rows = R, t.hidden = H, t.vocab = V;
  t.type = c.type == DType::BF16 ? ops::ElementType::BF16 : ops::ElementType::F16;
  ops::FlceOptions o;
  o.ignoreIndex = c.ignoreIndex, o.labelSmoothing = c.labelSmoothing, o.lseSquareScale = c.lseSquareScale;
  o.softcap = c.softcap, o.reduction = c.reduction, o.chunkRows = c.chunkRows, o.tiling = c.tiling;

  Buffer workspaceHost(DType::I8, 0);
  std::unique_ptr<GuardedDeviceBuffer> workspace;
  if (c.callerWorkspace) {
    size_t bytes = 0;
    if (Status s = ops::flceWorkspaceBytes(t, o, bytes); !s.ok())
      return {exact("workspace size: " + s.message, false)};
    workspaceHost = Buffer(DType::I8, bytes);
    workspaceHost.poison();
    workspace = std::make_unique<GuardedDeviceBuffer>(runner, workspaceHost, 8);
    t.workspace = workspace->data(), t.workspaceBytes = bytes;
  }
  ops::FlceResult result;
  if (Status s = ops::fusedLinearCrossEntropy(runner, t, o, result); !s.ok())
    return {exact("the driver failed: " + s.message, false)};
  std::vector<Check> checks;
  for (auto *b : {&dX, &dW, &dTarget, &dBias, &dGradX, &dGradW, &dGradBias, &dLoss, workspace.get()})
    if (b) {
      std::string e = b->takeBack();
      checks.push_back(exact("guard bands: " + e, e.empty()));
    }
  checks.push_back(exact("inputs unchanged", x.data == xIn && w.data == wIn && bias.data == biasIn &&
                                                 targetBuf.data == targetIn));
  FlceReference ref = flceReference(c, x, w, c.bias ? &bias : nullptr, target);
  double tol = tolerance(c.type);
  Buffer total(DType::F32, 1);
  total.set(0, result.loss);
  checks.push_back({"loss", relativeError(total, {ref.loss}), tol});
  if (rowLosses)
    checks.push_back({"row losses", relativeError(lossRows, ref.lossRows), tol});
  checks.push_back({"dX", relativeError(dx, ref.dx), tol});
  checks.push_back({"dW", relativeError(dw, ref.dw), tol});
  if (c.bias)
    checks.push_back({"dbias", relativeError(dbias, ref.dbias), tol});
  int64_t chunks = (R + c.chunkRows - 1) / c.chunkRows;
  checks.push_back(exact("chunks: " + std::to_string(result.chunks) + ", expected " + std::to_string(chunks),
                         result.chunks == chunks));
  return checks;
}

/// Every option at small ragged sizes (the small tiling): 45 rows in chunks
/// of 16 (16, 16, 13), vocab 70 and hidden 40 (no 32-wide tile, no 64-wide
/// row block), each reduction with and without a bias, smoothing, softcap
/// and z-loss spread over them. One case has hidden 36: rows of 72 bytes,
/// which TMA cannot read, so that dW takes a program per tile
/// (flce_grad_weight) instead of the persistent kernel.
inline std::vector<FlceCase> flceOptionCases() {
  std::vector<FlceCase> cases;
  FlceCase base{45, 40, 70};
  base.ignoredEvery = 5;
  for (ops::Reduction r : {ops::Reduction::Mean, ops::Reduction::Sum, ops::Reduction::None})
    for (bool bias : {false, true}) {
      FlceCase c = base;
      c.reduction = r, c.bias = bias;
      c.labelSmoothing = bias ? 0.1 : 0.0;
      c.softcap = r == ops::Reduction::Sum ? 3.0 : 0.0;
      c.lseSquareScale = r == ops::Reduction::None ? 1e-2 : 0.0;
      if (bias && r == ops::Reduction::Sum)
        c.hidden = 36;
      cases.push_back(c);
    }
  return cases;
}

/// f16 with a mean over many rows: the logits' gradient divided by the row
/// count (about 4e-7 at 600 rows and 4096 classes) would be an f16 subnormal with a few bits; the
/// driver keeps it unscaled in f16 and scales the products in f32.
inline FlceCase flceSmallGradientsCase(int rows, int hidden, int vocab) {
  FlceCase c{rows, hidden, vocab};
  c.type = DType::F16, c.chunkRows = 128, c.ignoredEvery = 9, c.rowLosses = false;
  return c;
}

/// Everything at once in f16, rows in 32-row chunks, the caller's workspace.
inline FlceCase flceEverythingCase() {
  FlceCase c{37, 24, 130};
  c.type = DType::F16, c.bias = true, c.labelSmoothing = 0.2, c.softcap = 2.5, c.lseSquareScale = 1e-3;
  c.ignoredEvery = 3, c.chunkRows = 32, c.rowLosses = false, c.callerWorkspace = true, c.ignoreIndex = 7;
  return c;
}

} // namespace blk::ref

#endif
