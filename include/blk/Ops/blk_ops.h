/* The library's operators as a C API (Python reaches it through ctypes):
 * fused linear cross-entropy over a runner that launches precompiled PTX
 * (in libblk_runtime, no LLVM needed) or the JIT (blk_jit_ops_runner in
 * blk_c.h, the GPU or the CPU interpreter). Functions that can fail return 0
 * on success, or -1 with a message in `error` (at most `error_size` bytes,
 * NUL-terminated). C++: blk/Ops/FusedLinearCrossEntropy.h. */
#ifndef BLK_OPS_BLK_OPS_H
#define BLK_OPS_BLK_OPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blk_ops_runner blk_ops_runner;

/* Launches the PTX files of `ptx_dir` (scripts/build-ptx.sh) on device 0. */
int blk_ops_runner_from_ptx(const char *ptx_dir, blk_ops_runner **out, char *error, size_t error_size);
void blk_ops_runner_destroy(blk_ops_runner *runner);

enum blk_flce_reduction { BLK_FLCE_MEAN = 0, BLK_FLCE_SUM = 1, BLK_FLCE_NONE = 2 };
enum blk_flce_dtype { BLK_FLCE_BF16 = 0, BLK_FLCE_F16 = 1 };
enum blk_flce_tiling { BLK_FLCE_TILING_LARGE = 0, BLK_FLCE_TILING_SMALL = 1 };

/* Pointers are memory of the runner (device memory, or the interpreter's),
 * row-major and contiguous; the fields mean what FlceTensors and FlceOptions
 * say. blk_flce_default_args fills the defaults (ignore_index -100, mean,
 * chunk_bytes 1 GiB, the large tiling, everything else 0). */
typedef struct {
  const void *x, *weight;
  const int64_t *target;
  const void *bias;
  void *grad_input, *grad_weight, *grad_bias;
  float *loss_rows;
  void *workspace;
  size_t workspace_bytes;
  int64_t rows, hidden, vocab;
  int dtype;
  int reduction;
  int64_t ignore_index;
  double label_smoothing, lse_square_scale, softcap;
  int64_t chunk_rows;
  size_t chunk_bytes;
  int tiling;
  void *stream;
} blk_flce_args;

void blk_flce_default_args(blk_flce_args *args);
int blk_flce_workspace_bytes(const blk_flce_args *args, size_t *bytes, char *error, size_t error_size);
/* Forward and backward: the loss into *loss, the gradients and loss_rows into their buffers. */
int blk_flce(blk_ops_runner *runner, const blk_flce_args *args, double *loss, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
