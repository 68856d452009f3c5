/* The C API of the JIT, from C, on the CPU backend. */
#include "blk/blk_c.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int blk_jit_c_test(const char *kernelPath, char *message, size_t size) {
  char error[1024];
  blk_jit *jit = blk_jit_create(BLK_BACKEND_CPU);
  blk_jit_kernel *add = NULL;
  /* num_stages, release_slots and ping_pong are options, not bindings of the kernel. */
  if (blk_jit_compile_file(jit, kernelPath, "vector_add", "T=f32, BLOCK=256, num_stages=2, release_slots=1, ping_pong=1", NULL, 0,
                           &add, error, sizeof error)) {
    snprintf(message, size, "compile: %s", error);
    return -1;
  }
  enum { N = 1000 };
  float x[N], y[N], out[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 0.5f * (float)i;
  }
  void *dx, *dy, *dout;
  blk_jit_alloc(jit, sizeof x, &dx, error, sizeof error);
  blk_jit_alloc(jit, sizeof y, &dy, error, sizeof error);
  blk_jit_alloc(jit, sizeof out, &dout, error, sizeof error);
  blk_jit_upload(jit, dx, x, sizeof x, error, sizeof error);
  blk_jit_upload(jit, dy, y, sizeof y, error, sizeof error);
  blk_value args[4] = {{BLK_VALUE_POINTER, (uint64_t)(uintptr_t)dx, 0}, {BLK_VALUE_POINTER, (uint64_t)(uintptr_t)dy, 0},
                       {BLK_VALUE_POINTER, (uint64_t)(uintptr_t)dout, 0}, {BLK_VALUE_INT, N, 0}};
  if (blk_jit_launch(add, (N + 255) / 256, 1, 1, NULL, args, 4, error, sizeof error)) {
    snprintf(message, size, "launch: %s", error);
    return -1;
  }
  blk_jit_download(jit, out, dout, sizeof out, error, sizeof error);
  for (int i = 0; i < N; ++i)
    if (!(fabsf(out[i] - 1.5f * (float)i) <= 1e-3f)) { /* written so that a NaN fails */
      snprintf(message, size, "wrong result at %d: %f", i, out[i]);
      return -1;
    }
  /* A bad launch is refused with a message. */
  if (blk_jit_launch(add, 1, 1, 1, NULL, args, 2, error, sizeof error) == 0 ||
      strcmp(error, "kernel 'vector_add' takes 4 arguments, got 2") != 0) {
    snprintf(message, size, "bad launch not refused: %s", error);
    return -1;
  }
  blk_jit_kernel_destroy(add);
  blk_jit_destroy(jit);
  return 0;
}
