// Fused linear cross-entropy, forward and backward in one call, as
// Liger-Kernel computes it: the logits X @ W^T (+ bias) of the whole batch are
// never materialized. Rows go in chunks; for each chunk the kernels of
// kernels/fused_linear_cross_entropy.blk compute the logits into a chunk
// buffer, each row's loss and the logits' gradient over them (online softmax;
// ignore_index, label smoothing, z-loss, logit softcap), then dX of the chunk
// and the accumulation of dW (and dbias). The gradients are those of the
// returned loss (an upstream gradient of 1).
//
//   std::unique_ptr<blk::ops::KernelRunner> runner;     // makePtxRunner or makeJitRunner
//   blk::ops::FlceTensors t;  t.x = x; t.weight = w; ... t.rows = n; t.hidden = h; t.vocab = v;
//   blk::ops::FlceResult r;
//   blk::Status s = blk::ops::fusedLinearCrossEntropy(*runner, t, {}, r);   // r.loss
#ifndef BLK_OPS_FUSEDLINEARCROSSENTROPY_H
#define BLK_OPS_FUSEDLINEARCROSSENTROPY_H

#include "blk/Ops/KernelRunner.h"

#include <cstdint>

namespace blk::ops {

enum class Reduction { Mean, Sum, None };
enum class ElementType { BF16, F16 };
/// Which compiled tiling runs: Large (128x256x64 tiles, 8 warps, 3 stages: the
/// GPU) or Small (32x32x16 tiles: the interpreter, tiny sizes).
enum class Tiling { Large, Small };

/// Memory of the runner, row-major and contiguous, every pointer 16-byte
/// aligned (checked before any launch). X, W, bias and the gradients are of
/// `type`.
struct FlceTensors {
  const void *x = nullptr;         // [rows, hidden]
  const void *weight = nullptr;    // [vocab, hidden]
  const int64_t *target = nullptr; // [rows]: a class in [0, vocab) or ignoreIndex
  const void *bias = nullptr;      // [vocab], or null
  void *gradInput = nullptr;       // [rows, hidden]
  void *gradWeight = nullptr;      // [vocab, hidden]
  void *gradBias = nullptr;        // [vocab]: given exactly when bias is
  /// [rows] f32: each row's loss ("mean": divided by the rows not ignored).
  /// Needed for Reduction::None; may be null otherwise.
  float *lossRows = nullptr;
  /// Scratch of at least flceWorkspaceBytes bytes, or null: the driver
  /// allocates it for the call.
  void *workspace = nullptr;
  size_t workspaceBytes = 0;
  int64_t rows = 0, hidden = 0, vocab = 0;
  ElementType type = ElementType::BF16;
};

/// Logits per chunk by default: 1 GiB (4096 rows at a vocabulary of 128256
/// in bf16). A training step's peak memory grows by it, and smaller chunks
/// cost time in the weight gradient's products, whose depth is the chunk's
/// rows (docs/performance.md: 1024, 2048 and 4096 rows).
inline constexpr size_t kFlceDefaultChunkBytes = size_t(1) << 30;

struct FlceOptions {
  int64_t ignoreIndex = -100;
  double labelSmoothing = 0;
  /// The z-loss weight: loss += lseSquareScale * logsumexp^2 per row.
  double lseSquareScale = 0;
  /// Logits pass through softcap * tanh(logit / softcap) first; 0: no cap.
  double softcap = 0;
  Reduction reduction = Reduction::Mean;
  /// Rows per chunk, a multiple of 16; 0: as many as fit chunkBytes of logits.
  int64_t chunkRows = 0;
  size_t chunkBytes = kFlceDefaultChunkBytes;
  Tiling tiling = Tiling::Large;
};

struct FlceResult {
  /// The mean or sum of the rows' losses ("none": their sum; the rows are in lossRows).
  /// "mean" over a batch whose every row is ignored is 0, with zero gradients
  /// (PyTorch's cross_entropy gives NaN there).
  double loss = 0;
  int64_t nonIgnoredRows = 0;
  int64_t chunkRows = 0, chunks = 0;
};

/// Bytes of scratch the call needs (the chunk's logits, and the rows' losses
/// when lossRows is null, and the bias gradient's f32 sums when there is a
/// bias); the arguments are checked as fusedLinearCrossEntropy checks them.
Status flceWorkspaceBytes(const FlceTensors &t, const FlceOptions &o, size_t &bytes);

/// Runs the chunks in order on `stream`; returns when the loss is known (the
/// targets are read first, to count the rows not ignored and check them).
Status fusedLinearCrossEntropy(KernelRunner &runner, const FlceTensors &t, const FlceOptions &o, FlceResult &out,
                               void *stream = nullptr);

} // namespace blk::ops

#endif
