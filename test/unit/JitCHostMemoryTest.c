/* The C API's functions for other languages' bindings (Python's ctypes), from C
 * on the CPU backend: kernels of a source, launches on the caller's host
 * memory, the specialization key, the variant count, a tensor descriptor
 * parameter's block shape and the cache counters. */
#include "blk/blk_c.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *kScaleSource = "@kernel\n"
                                  "def scale(X: *f32, n: i32, factor: f32, BLOCK: constexpr = 64):\n"
                                  "    offs = program_id(0) * BLOCK + arange(0, BLOCK)\n"
                                  "    mask = offs < n\n"
                                  "    store(X + offs, load(X + offs, mask=mask) * factor, mask=mask)\n"
                                  "@kernel\n"
                                  "def other(X: *f32):\n"
                                  "    store(X, 1.0)\n";

#define FAIL(...)                                                                                                  \
  do {                                                                                                             \
    snprintf(message, size, __VA_ARGS__);                                                                          \
    return -1;                                                                                                     \
  } while (0)

int blk_jit_c_host_memory_test(char *message, size_t size) {
  char error[1024], text[256];
  blk_jit *jit = blk_jit_create(BLK_BACKEND_CPU);
  if (blk_jit_kernel_names(jit, kScaleSource, "scale.blk", text, sizeof text, error, sizeof error) ||
      strcmp(text, "scale,other") != 0)
    FAIL("kernel names: '%s' %s", text, error);
  if (blk_jit_kernel_names(jit, "@kernel\ndef k(:\n", "bad.blk", text, sizeof text, error, sizeof error) == 0 ||
      strncmp(error, "bad.blk:2:7: error: ", 20) != 0)
    FAIL("a syntax error not reported at bad.blk:2:7: %s", error);
  if (blk_jit_kernel_names(jit, kScaleSource, "scale.blk", text, 5, error, sizeof error) == 0)
    FAIL("a result longer than its buffer was not refused");

  blk_jit_kernel *k = NULL;
  if (blk_jit_compile_source(jit, kScaleSource, "scale", NULL, NULL, 0, &k, error, sizeof error))
    FAIL("compile: %s", error);
  enum { N = 100 };
  float data[N + 4]; /* the caller's memory, not blk_jit_alloc's */
  float *x = (float *)((((uintptr_t)data) + 15) & ~(uintptr_t)15);
  for (int i = 0; i < N; ++i)
    x[i] = (float)i;
  blk_value args[3] = {{BLK_VALUE_POINTER, (uint64_t)(uintptr_t)x, 0}, {BLK_VALUE_INT, N, 0}, {BLK_VALUE_FLOAT, 0, 2.0}};
  /* Unregistered host memory is outside every buffer of the interpreter. */
  if (blk_jit_launch(k, 2, 1, 1, NULL, args, 3, error, sizeof error) == 0 || !strstr(error, "out-of-bounds"))
    FAIL("a launch on unregistered memory was not refused: %s", error);
  if (blk_jit_register_host_memory(jit, x, N * sizeof(float), error, sizeof error) ||
      blk_jit_launch(k, 2, 1, 1, NULL, args, 3, error, sizeof error))
    FAIL("launch on registered memory: %s", error);
  for (int i = 0; i < N; ++i)
    if (!(fabsf(x[i] - 2.0f * (float)i) <= 1e-6f))
      FAIL("wrong result at %d: %f", i, x[i]);
  if (blk_jit_kernel_specialization(k, args, 3, text, sizeof text, error, sizeof error) || strcmp(text, "X:16") != 0)
    FAIL("specialization of an aligned pointer: '%s' %s", text, error);
  args[0].bits += 4;
  args[1].bits = 1;
  if (blk_jit_kernel_specialization(k, args, 3, text, sizeof text, error, sizeof error) || strcmp(text, "n:1") != 0)
    FAIL("specialization of a misaligned pointer and n = 1: '%s' %s", text, error);
  if (blk_jit_launch(k, 1, 1, 1, NULL, args, 3, error, sizeof error) || blk_jit_kernel_num_variants(k) != 2)
    FAIL("a second variant: %s (%zu variants)", error, blk_jit_kernel_num_variants(k));
  int64_t block[2] = {0, 0};
  if (blk_jit_kernel_descriptor_block(k, 0, block, 2) != 0 || blk_jit_kernel_descriptor_block(k, 3, block, 2) != 0 ||
      blk_jit_kernel_descriptor_block(k, -1, block, 2) != -1)
    FAIL("scale takes no tensor descriptor");
  blk_jit_kernel *d = NULL;
  if (blk_jit_compile_source(jit, "@kernel\ndef k(Y: *f32, xd: tensor_descriptor(f32, [BM, 32]), BM: constexpr = 8):\n"
                                  "    store(Y, sum(sum(xd.load([0, 0]), axis=1), axis=0))\n",
                             "k", "BM=16", NULL, 0, &d, error, sizeof error))
    FAIL("compile a descriptor parameter: %s", error);
  if (blk_jit_kernel_descriptor_block(d, 1, block, 2) != 2 || block[0] != 16 || block[1] != 32 ||
      blk_jit_kernel_descriptor_block(d, 1, block, 1) != -1 || blk_jit_kernel_descriptor_block(d, 0, block, 2) != 0 ||
      blk_jit_kernel_descriptor_block(d, 2, block, 2) != 0)
    FAIL("descriptor block of k: [%lld, %lld]", (long long)block[0], (long long)block[1]);
  blk_jit_kernel_destroy(d);
  size_t memoryHits = 9, diskHits = 9, compiles = 0;
  blk_jit_cache_stats(jit, &memoryHits, &diskHits, &compiles);
  if (compiles != 2 || memoryHits != 1 || diskHits != 0)
    FAIL("cache counters: %zu memory hits, %zu disk hits, %zu compiles", memoryHits, diskHits, compiles);
  if (blk_jit_unregister_host_memory(jit, x, error, sizeof error) ||
      blk_jit_unregister_host_memory(jit, x, error, sizeof error) == 0 ||
      strcmp(error, "unregisterHostMemory: memory not registered") != 0)
    FAIL("unregistering twice: %s", error);
  blk_jit_kernel_destroy(k);
  blk_jit_destroy(jit);

  blk_jit *gpu = blk_jit_create(BLK_BACKEND_CUDA);
  if (blk_jit_register_host_memory(gpu, x, 4, error, sizeof error) == 0 ||
      strcmp(error, "registerHostMemory: host memory is for the CPU backend") != 0)
    FAIL("host memory on the CUDA backend not refused: %s", error);
  blk_jit_destroy(gpu);
  return 0;
}
