#include "blk/Ops/FusedLinearCrossEntropy.h"

#include <cmath>
#include <limits>

namespace blk::ops {

namespace {
constexpr const char *kFile = "fused_linear_cross_entropy";
constexpr int64_t kRowAlign = 16; // chunk starts keep every chunk pointer 16-byte aligned

Status fail(const std::string &message) { return Status::error("fused linear cross-entropy: " + message); }

size_t elementBytes(ElementType) { return 2; } // bf16 and f16
const char *typeName(ElementType t) { return t == ElementType::BF16 ? "bf16" : "f16"; }
size_t alignUp(size_t n, size_t a) { return (n + a - 1) / a * a; }

/// The variant of the kernel file and its tiles (kernels/fused_linear_cross_entropy.blk's `# variants:`).
struct Tiles {
  Variant variant;
  unsigned blockM, blockN, blockK;
};

Tiles tilesFor(ElementType type, Tiling tiling) {
  Tiles t;
  t.variant.file = kFile;
  if (tiling == Tiling::Large) {
    t.variant.bindings = {{"T", typeName(type)}, {"BLOCK_M", "128"}, {"BLOCK_N", "256"}, {"BLOCK_K", "64"},
                          {"BLOCK_V", "4096"},    {"num_warps", "8"}, {"num_stages", "3"}};
    t.blockM = 128, t.blockN = 256, t.blockK = 64;
  } else {
    t.variant.bindings = {{"T", typeName(type)}, {"BLOCK_M", "32"}, {"BLOCK_N", "32"}, {"BLOCK_K", "16"},
                          {"BLOCK_V", "64"}};
    t.blockM = 32, t.blockN = 32, t.blockK = 16;
  }
  return t;
}

/// Where the scratch goes: the chunk's logits, then the optional parts.
struct Layout {
  int64_t chunkRows = 0, logitsStride = 0;
  size_t logitsOffset = 0, lossOffset = 0, biasOffset = 0, bytes = 0;
};

Status check(const FlceTensors &t, const FlceOptions &o) {
  if (t.rows < 1 || t.hidden < 1 || t.vocab < 1)
    return fail("rows, hidden and vocab must be positive (got " + std::to_string(t.rows) + ", " +
                std::to_string(t.hidden) + ", " + std::to_string(t.vocab) + ")");
  const int64_t i32max = std::numeric_limits<int32_t>::max();
  if (t.rows > i32max || t.hidden > i32max || t.vocab > i32max - 4096)
    return fail("rows, hidden and vocab must fit in i32");
  struct {
    const void *p;
    const char *name;
  } required[] = {{t.x, "x"}, {t.weight, "weight"}, {t.target, "target"}, {t.gradInput, "grad_input"},
                  {t.gradWeight, "grad_weight"}};
  for (auto &r : required)
    if (!r.p)
      return fail(std::string(r.name) + " is null");
  // Every kernel reads and writes 16-byte vectors; a misaligned tensor found
  // at a later launch would leave the gradients half written.
  struct {
    const void *p;
    const char *name;
  } aligned[] = {{t.x, "x"},           {t.weight, "weight"},          {t.target, "target"},
                 {t.bias, "bias"},     {t.gradInput, "grad_input"},   {t.gradWeight, "grad_weight"},
                 {t.gradBias, "grad_bias"}, {t.lossRows, "loss_rows"}, {t.workspace, "workspace"}};
  for (auto &a : aligned)
    if (reinterpret_cast<uintptr_t>(a.p) % 16)
      return fail(std::string(a.name) + " must be 16-byte aligned");
  if (t.bias && !t.gradBias)
    return fail("a bias needs grad_bias");
  if (!t.bias && t.gradBias)
    return fail("grad_bias is given without a bias");
  if (o.reduction == Reduction::None && !t.lossRows)
    return fail("reduction \"none\" needs loss_rows for the rows' losses");
  if (!(o.labelSmoothing >= 0 && o.labelSmoothing <= 1))
    return fail("label_smoothing must be in [0, 1], got " + std::to_string(o.labelSmoothing));
  if (!(o.softcap >= 0) || !std::isfinite(o.softcap))
    return fail("softcap must be finite and non-negative (0: none), got " + std::to_string(o.softcap));
  if (!std::isfinite(o.lseSquareScale))
    return fail("lse_square_scale must be finite");
  if (o.chunkRows < 0 || o.chunkRows % kRowAlign != 0)
    return fail("chunk_rows must be a positive multiple of 16 (or 0: from chunk_bytes), got " +
                std::to_string(o.chunkRows));
  return {};
}

Layout layoutFor(const FlceTensors &t, const FlceOptions &o) {
  Layout l;
  size_t esize = elementBytes(t.type);
  // Rows of the chunk buffer start 16-byte aligned.
  l.logitsStride = int64_t(alignUp(size_t(t.vocab), 16));
  int64_t chunk = o.chunkRows;
  if (chunk == 0) {
    int64_t fit = int64_t(o.chunkBytes / (size_t(l.logitsStride) * esize));
    int64_t step = fit >= 128 ? 128 : kRowAlign; // whole tiles where the budget allows
    chunk = std::max<int64_t>(kRowAlign, fit / step * step);
  }
  l.chunkRows = std::min(chunk, t.rows);
  l.bytes = size_t(l.chunkRows) * size_t(l.logitsStride) * esize;
  if (!t.lossRows) {
    l.lossOffset = l.bytes = alignUp(l.bytes, 256);
    l.bytes += size_t(t.rows) * 4;
  }
  if (t.bias) {
    l.biasOffset = l.bytes = alignUp(l.bytes, 256);
    l.bytes += size_t(t.vocab) * 4;
  }
  return l;
}

template <typename P> P *offset(P *p, size_t bytes) {
  return reinterpret_cast<P *>(reinterpret_cast<uintptr_t>(p) + bytes);
}
const void *offset(const void *p, size_t bytes) { return reinterpret_cast<const char *>(p) + bytes; }

/// Frees the driver's own scratch on every path out.
struct Scratch {
  KernelRunner &runner;
  void *ptr = nullptr;
  ~Scratch() {
    if (ptr)
      runner.free(ptr);
  }
};
} // namespace

int64_t KernelRunner::persistentPrograms() {
  int sms = 0;
  return rt::multiprocessorCount(sms).ok() ? sms : 0;
}

std::string Variant::name() const {
  std::string n = file;
  for (auto &[k, v] : bindings)
    n += k == "num_warps" ? ".w" + v : k == "num_stages" ? ".st" + v : "." + v;
  return n;
}

Status flceWorkspaceBytes(const FlceTensors &t, const FlceOptions &o, size_t &bytes) {
  if (Status s = check(t, o); !s.ok())
    return s;
  bytes = layoutFor(t, o).bytes;
  return {};
}

Status fusedLinearCrossEntropy(KernelRunner &runner, const FlceTensors &t, const FlceOptions &o, FlceResult &out,
                               void *stream) {
  if (Status s = check(t, o); !s.ok())
    return s;
  Layout l = layoutFor(t, o);
  if (t.workspace && t.workspaceBytes < l.bytes)
    return fail("the workspace has " + std::to_string(t.workspaceBytes) + " bytes, the call needs " +
                std::to_string(l.bytes));

  // The targets decide the mean's divisor; checked here so that no kernel reads outside a row.
  std::vector<int64_t> target(size_t(t.rows));
  if (Status s = runner.download(target.data(), t.target, target.size() * 8); !s.ok())
    return s;
  int64_t counted = 0;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == o.ignoreIndex)
      continue;
    if (target[i] < 0 || target[i] >= t.vocab)
      return fail("target[" + std::to_string(i) + "] = " + std::to_string(target[i]) + " is neither a class in [0, " +
                  std::to_string(t.vocab) + ") nor ignore_index (" + std::to_string(o.ignoreIndex) + ")");
    ++counted;
  }

  Scratch scratch{runner};
  void *work = t.workspace;
  if (!work) {
    if (Status s = runner.alloc(l.bytes, &scratch.ptr); !s.ok())
      return s;
    work = scratch.ptr;
  }
  void *logits = offset(work, l.logitsOffset);
  float *lossRows = t.lossRows ? t.lossRows : offset(static_cast<float *>(work), l.lossOffset);
  void *biasSums = offset(work, l.biasOffset);

  Tiles tiles = tilesFor(t.type, o.tiling);
  const Variant &v = tiles.variant;
  const size_t esize = elementBytes(t.type);
  const int32_t V = int32_t(t.vocab), H = int32_t(t.hidden);
  const int64_t strideL = l.logitsStride;
  // "mean" divides by the rows not ignored in the whole batch; with none, no row reads it.
  const float scale = o.reduction == Reduction::Mean ? (counted ? 1.0f / float(counted) : 0.0f) : 1.0f;
  auto tiles2d = [&](int64_t m, int64_t n) {
    return Grid{cdiv(uint64_t(m), tiles.blockM) * cdiv(uint64_t(n), tiles.blockN), 1, 1};
  };
  // dW's products walk its tiles from one program per SM, where TMA can
  // read X's and dW's rows (a row spanning a multiple of 16 bytes).
  const int64_t persistent = (size_t(H) * esize) % 16 == 0 ? runner.persistentPrograms() : 0;
  int64_t chunks = 0;
  for (int64_t start = 0; start < t.rows; start += l.chunkRows, ++chunks) {
    const int32_t n = int32_t(std::min(l.chunkRows, t.rows - start));
    const void *x = offset(t.x, size_t(start) * size_t(H) * esize);
    void *dx = offset(t.gradInput, size_t(start) * size_t(H) * esize);
    const bool first = start == 0, last = start + n >= t.rows;
    Status s = runner.launch(v, "flce_logits", tiles2d(n, V),
                             {x, t.weight, t.bias ? t.bias : t.weight, logits, n, V, H, int64_t(H), int64_t(H), strideL,
                              int32_t(t.bias != nullptr)},
                             stream);
    if (s.ok())
      s = runner.launch(v, "flce_loss_grad", Grid{unsigned(n), 1, 1},
                        {logits, offset(t.target, size_t(start) * 8), offset(lossRows, size_t(start) * 4), V, strideL,
                         scale, o.ignoreIndex, float(o.labelSmoothing), float(o.lseSquareScale), float(o.softcap)},
                        stream);
    if (s.ok())
      s = runner.launch(v, "flce_grad_input", tiles2d(n, H),
                        {logits, t.weight, dx, n, H, V, strideL, int64_t(H), int64_t(H), scale}, stream);
    if (s.ok())
      s = runner.launch(v, persistent ? "flce_grad_weight_persistent" : "flce_grad_weight",
                        persistent ? Grid{unsigned(std::min<uint64_t>(tiles2d(V, H).x, uint64_t(persistent))), 1, 1}
                                   : tiles2d(V, H),
                        {logits, x, t.gradWeight, V, H, n, strideL, int64_t(H), int64_t(H), scale, int32_t(!first)},
                        stream);
    if (s.ok() && t.bias)
      s = runner.launch(v, "flce_grad_bias", Grid{cdiv(uint64_t(V), tiles.blockN), 1, 1},
                        {logits, biasSums, t.gradBias, n, V, strideL, scale, int32_t(!first), int32_t(last)}, stream);
    if (!s.ok())
      return s;
  }

  std::vector<float> losses(size_t(t.rows));
  if (Status s = runner.download(losses.data(), lossRows, losses.size() * 4); !s.ok())
    return s;
  double total = 0;
  for (float x : losses)
    total += x;
  out.loss = total;
  out.nonIgnoredRows = counted;
  out.chunkRows = l.chunkRows;
  out.chunks = chunks;
  return {};
}

} // namespace blk::ops
