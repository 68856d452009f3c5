/* The C++ API of blk/blk.h as a C API, for other languages: compile kernels
 * in process, launch them on the GPU or the CPU interpreter. Functions that
 * can fail return 0 on success, or -1 with a message in `error` (at most
 * `error_size` bytes, NUL-terminated). */
#ifndef BLK_BLK_C_H
#define BLK_BLK_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blk_jit blk_jit;
typedef struct blk_jit_kernel blk_jit_kernel;

enum blk_backend { BLK_BACKEND_CUDA = 0, BLK_BACKEND_CPU = 1 };
enum blk_value_kind { BLK_VALUE_POINTER = 0, BLK_VALUE_INT = 1, BLK_VALUE_FLOAT = 2 };

/* A launch argument: a pointer or an integer in `bits`, or a float in `real`. */
typedef struct {
  int kind;
  uint64_t bits;
  double real;
} blk_value;

blk_jit *blk_jit_create(int backend);
void blk_jit_destroy(blk_jit *jit);
/* 0 when the backend can run here; else -1 and the reason. */
int blk_jit_available(blk_jit *jit, char *error, size_t error_size);

/* `constants`: "NAME=VALUE,NAME=VALUE" bindings of constexpr and dtype
 * parameters (may be NULL; "num_stages=N" in it sets the loads in flight per
 * loop load, as tuning files spell it; "release_slots=1", "ping_pong=1" and
 * "warp_specialize=1" KernelOptions' releaseSlots, pingPong and
 * warpSpecialize); `arch` may be NULL (sm_90a);
 * `num_warps` 0 means 4. */
int blk_jit_compile_file(blk_jit *jit, const char *path, const char *kernel, const char *constants,
                         const char *arch, unsigned num_warps, blk_jit_kernel **out, char *error, size_t error_size);
int blk_jit_compile_source(blk_jit *jit, const char *source, const char *kernel, const char *constants,
                           const char *arch, unsigned num_warps, blk_jit_kernel **out, char *error,
                           size_t error_size);
void blk_jit_kernel_destroy(blk_jit_kernel *kernel);
int blk_jit_launch(blk_jit_kernel *kernel, unsigned grid_x, unsigned grid_y, unsigned grid_z, void *stream,
                   const blk_value *args, int num_args, char *error, size_t error_size);

int blk_jit_alloc(blk_jit *jit, size_t bytes, void **out, char *error, size_t error_size);
int blk_jit_free(blk_jit *jit, void *ptr, char *error, size_t error_size);
int blk_jit_upload(blk_jit *jit, void *dst, const void *src, size_t bytes, char *error, size_t error_size);
int blk_jit_download(blk_jit *jit, void *dst, const void *src, size_t bytes, char *error, size_t error_size);
int blk_jit_synchronize(blk_jit *jit, char *error, size_t error_size);

/* The specialization `args` select, as blkc --spec spells it ("X:16,n:1";
 * empty when none), and the number of variants compiled so far. */
int blk_jit_kernel_specialization(blk_jit_kernel *kernel, const blk_value *args, int num_args, char *out,
                                  size_t out_size, char *error, size_t error_size);
size_t blk_jit_kernel_num_variants(blk_jit_kernel *kernel);

/* The block shape of the tensor_descriptor(T, [B0, ...]) parameter whose base
 * pointer is launch argument `arg` (its sizes and strides follow it) into
 * `out`: returns its rank, 0 when `arg` is no such base, -1 when the rank
 * exceeds `max_rank` or an argument is invalid. */
int blk_jit_kernel_descriptor_block(blk_jit_kernel *kernel, int arg, int64_t *out, int max_rank);

/* The kernels `source` defines or imports, comma-separated in `out`;
 * `filename` names the source in errors and resolves its imports. */
int blk_jit_kernel_names(blk_jit *jit, const char *source, const char *filename, char *out, size_t out_size,
                         char *error, size_t error_size);

/* CPU backend: lets kernels touch `bytes` of the caller's host memory at
 * `ptr` (not from blk_jit_alloc) until unregistered. */
int blk_jit_register_host_memory(blk_jit *jit, void *ptr, size_t bytes, char *error, size_t error_size);
int blk_jit_unregister_host_memory(blk_jit *jit, void *ptr, char *error, size_t error_size);

/* Memory hits, disk hits, compilations (blk::Jit::cacheStats). */
void blk_jit_cache_stats(blk_jit *jit, size_t *memory_hits, size_t *disk_hits, size_t *compiles);

/* A runner of the library's operators (blk/Ops/blk_ops.h: fused linear
 * cross-entropy) that compiles kernels/<file>.blk from `kernel_dir` on this
 * Jit's backend; `jit` must outlive it. Library BlkOpsJit; libblk_jit.so
 * exports it with blk_ops.h's functions. */
typedef struct blk_ops_runner blk_ops_runner;
int blk_jit_ops_runner(blk_jit *jit, const char *kernel_dir, blk_ops_runner **out, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
