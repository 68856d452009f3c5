/* The blk runtime as a C API, for other languages (Python through ctypes,
 * for one). Same behaviour as blk/Runtime/Runtime.h: loads PTX or cubin,
 * checks each launch against the kernel's signature, reports errors as text.
 * Every function returns 0 on success; on failure it returns -1 and writes a
 * message into `error` (at most `error_size` bytes, NUL-terminated). */
#ifndef BLK_RUNTIME_BLK_RUNTIME_H
#define BLK_RUNTIME_BLK_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct blk_module blk_module;
typedef struct blk_kernel blk_kernel;

/* Argument types, as in kernel signatures. */
enum blk_arg_type {
  BLK_ARG_PTR = 0, BLK_ARG_I1, BLK_ARG_I8, BLK_ARG_I16, BLK_ARG_I32, BLK_ARG_I64,
  BLK_ARG_U32, BLK_ARG_U64, BLK_ARG_F16, BLK_ARG_BF16, BLK_ARG_F32, BLK_ARG_F64
};

int blk_init(int device, char *error, size_t error_size);
int blk_module_load_file(const char *path, blk_module **out, char *error, size_t error_size);
void blk_module_free(blk_module *module);
/* The kernel stays valid while its module lives. */
int blk_module_kernel(blk_module *module, const char *name, blk_kernel **out, char *error, size_t error_size);
void blk_kernel_free(blk_kernel *kernel);

int blk_kernel_num_args(const blk_kernel *kernel);
int blk_kernel_arg_type(const blk_kernel *kernel, int index);
unsigned blk_kernel_num_warps(const blk_kernel *kernel);
/* The value of a bound constexpr/dtype parameter ("1024", "bf16"), or NULL. */
const char *blk_kernel_constant(const blk_kernel *kernel, const char *name);

/* `values[i]` holds argument i in its low bytes (a device pointer, an integer,
 * or the bits of a float), typed by `types[i]`. `stream` is a CUstream. */
int blk_kernel_launch(const blk_kernel *kernel, unsigned grid_x, unsigned grid_y, unsigned grid_z, void *stream,
                      const uint64_t *values, const int *types, int num_args, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
