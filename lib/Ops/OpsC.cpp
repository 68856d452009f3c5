#include "blk/Ops/blk_ops.h"
#include "blk/Ops/FusedLinearCrossEntropy.h"
#include "OpsCHandle.h"
#include "blk/Runtime/CErrors.h"


using namespace blk::ops;

namespace {
using blk::rt::checkInto;
using blk::rt::failInto;

/// The C arguments as the C++ API's, or a message when an enum is out of range.
std::string convert(const blk_flce_args &a, FlceTensors &t, FlceOptions &o) {
  if (a.dtype != BLK_FLCE_BF16 && a.dtype != BLK_FLCE_F16)
    return "dtype must be BLK_FLCE_BF16 or BLK_FLCE_F16, got " + std::to_string(a.dtype);
  if (a.reduction < BLK_FLCE_MEAN || a.reduction > BLK_FLCE_NONE)
    return "reduction must be BLK_FLCE_MEAN, BLK_FLCE_SUM or BLK_FLCE_NONE, got " + std::to_string(a.reduction);
  if (a.tiling != BLK_FLCE_TILING_LARGE && a.tiling != BLK_FLCE_TILING_SMALL)
    return "tiling must be BLK_FLCE_TILING_LARGE or BLK_FLCE_TILING_SMALL, got " + std::to_string(a.tiling);
  t.x = a.x, t.weight = a.weight, t.target = a.target, t.bias = a.bias;
  t.gradInput = a.grad_input, t.gradWeight = a.grad_weight, t.gradBias = a.grad_bias, t.lossRows = a.loss_rows;
  t.workspace = a.workspace, t.workspaceBytes = a.workspace_bytes;
  t.rows = a.rows, t.hidden = a.hidden, t.vocab = a.vocab;
  t.type = a.dtype == BLK_FLCE_BF16 ? ElementType::BF16 : ElementType::F16;
  o.reduction = a.reduction == BLK_FLCE_MEAN ? Reduction::Mean : a.reduction == BLK_FLCE_SUM ? Reduction::Sum
                                                                                             : Reduction::None;
  o.ignoreIndex = a.ignore_index, o.labelSmoothing = a.label_smoothing, o.lseSquareScale = a.lse_square_scale;
  o.softcap = a.softcap, o.chunkRows = a.chunk_rows, o.chunkBytes = a.chunk_bytes;
  o.tiling = a.tiling == BLK_FLCE_TILING_LARGE ? Tiling::Large : Tiling::Small;
  return "";
}
} // namespace

extern "C" {

int blk_ops_runner_from_ptx(const char *ptx_dir, blk_ops_runner **out, char *error, size_t error_size) {
  if (!ptx_dir || !out)
    return failInto("blk_ops_runner_from_ptx: null argument", error, error_size);
  auto r = std::make_unique<blk_ops_runner>();
  if (checkInto(makePtxRunner(ptx_dir, r->runner), error, error_size))
    return -1;
  *out = r.release();
  return 0;
}

void blk_ops_runner_destroy(blk_ops_runner *runner) { delete runner; }

void blk_flce_default_args(blk_flce_args *args) {
  if (!args)
    return;
  std::memset(args, 0, sizeof *args);
  args->ignore_index = -100;
  args->chunk_bytes = kFlceDefaultChunkBytes;
}

int blk_flce_workspace_bytes(const blk_flce_args *args, size_t *bytes, char *error, size_t error_size) {
  if (!args || !bytes)
    return failInto("blk_flce_workspace_bytes: null argument", error, error_size);
  FlceTensors t;
  FlceOptions o;
  if (std::string e = convert(*args, t, o); !e.empty())
    return failInto("fused linear cross-entropy: " + e, error, error_size);
  return checkInto(flceWorkspaceBytes(t, o, *bytes), error, error_size);
}

int blk_flce(blk_ops_runner *runner, const blk_flce_args *args, double *loss, char *error, size_t error_size) {
  if (!runner || !args || !loss)
    return failInto("blk_flce: null argument", error, error_size);
  FlceTensors t;
  FlceOptions o;
  if (std::string e = convert(*args, t, o); !e.empty())
    return failInto("fused linear cross-entropy: " + e, error, error_size);
  FlceResult r;
  if (checkInto(fusedLinearCrossEntropy(*runner->runner, t, o, r, args->stream), error, error_size))
    return -1;
  *loss = r.loss;
  return 0;
}

} // extern "C"
