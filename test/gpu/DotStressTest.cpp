// test/kernels/dot_stress.blk on the GPU: every variant of the gathered, the
// dequantized and the transposed-A matmul (wgmma and mma.sync tiles) at
// ragged sizes unspecialized and at multiples of 16 as the `.spec` build,
// paged decode attention with padded, odd and full head groups, and the fp8
// products of test/kernels/fp8_dots.blk, against float64.
#include "../common/DotStressCases.h"
#include "../common/Fp8DotCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "GpuLaunch.h"

using namespace blk;

namespace {

std::vector<ref::Check> &operator+=(std::vector<ref::Check> &all, const std::vector<ref::Check> &more) {
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

/// The matmul entries of dot_stress.blk's `# variants:` line.
std::vector<ref::DotStressVariant> matmulVariants() {
  return {ref::matmulStressVariant(128, 128, 64, 8, 3), ref::matmulStressVariant(128, 64, 64, 4, 3),
          ref::matmulStressVariant(64, 64, 32, 4, 3), ref::matmulStressVariant(32, 32, 32, 0, 0)};
}

/// Each variant unspecialized and as the `.spec` build (the JIT specializes
/// on the arguments itself: once).
std::vector<ref::DotStressVariant> withSpecBuilds(const std::vector<ref::DotStressVariant> &variants) {
  std::vector<ref::DotStressVariant> all;
  for (ref::DotStressVariant v : variants) {
    all.push_back(v);
#ifndef BLK_GPU_TESTS_THROUGH_JIT
    v.spec = true;
    all.push_back(v);
#endif
  }
  return all;
}

TEST(DotStress, MatmulsEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  std::vector<ref::Check> checks;
  for (const ref::DotStressVariant &v : withSpecBuilds(matmulVariants())) {
    SCOPED_TRACE(v.label());
    // The spec build assumes unit strides along K (X, A: along M) and N and
    // the others and the sizes multiples of 16: shapes that are multiples of
    // 16 but of no tile. Unspecialized: ragged sizes, padded rows.
    std::vector<ref::GemmShape> shapes =
        v.spec ? std::vector<ref::GemmShape>{{272, 400, 208}, {528, 144, 336}, {16, 16, 16}}
               : std::vector<ref::GemmShape>{{100, 77, 45}, {257, 300, 513}, {1, 1, 1}, {130, 33, 70}};
    int pad = v.spec ? 0 : 3;
    for (ref::GemmShape s : shapes) {
      // Gathered from fewer rows than indices (repeats), and from more.
      checks += ref::gatheredMatmulCase(gpuLaunch, v, s, std::max(1, s.m / 3), pad, rng);
      checks += ref::gatheredMatmulCase(gpuLaunch, v, s, 4 * s.m + 16, pad, rng);
      checks += ref::dequantMatmulCase(gpuLaunch, v, s, rng);
      checks += ref::transposedAMatmulCase(gpuLaunch, v, s, pad, rng);
      checks += ref::splitKMatmulCase(gpuLaunch, v, s, 3, pad, rng);
      checks += ref::splitKMatmulCase(gpuLaunch, v, s, 1, pad, rng);
      checks += ref::whileMatmulCase(gpuLaunch, v, s, pad, rng);
    }
  }
  ref::expectChecks(checks);
}

TEST(DotStress, PagedDecodeEveryVariant) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  struct Tile {
    int page, d, warps, stages;
  };
  std::vector<ref::Check> checks;
  for (Tile t : {Tile{64, 128, 4, 3}, Tile{16, 64, 4, 0}})
    for (const ref::DotStressVariant &v : withSpecBuilds({ref::decodeStressVariant(t.page, t.d, t.warps, t.stages)})) {
      SCOPED_TRACE(v.label());
      int p = t.page;
      // Lengths ending inside pages, a one-token sequence and a full table;
      // heads per KV head: 4 (padded to the 16-row tile), 16 (full), 3, 1.
      checks += ref::pagedDecodeCase(gpuLaunch, v, p, t.d, {4, 2, 4, 8, {8 * p, 1, 3 * p + 5, 5 * p - 1}}, rng);
      checks += ref::pagedDecodeCase(gpuLaunch, v, p, t.d, {3, 2, 16, 5, {2 * p + 3, 5 * p, p}}, rng);
      checks += ref::pagedDecodeCase(gpuLaunch, v, p, t.d, {2, 3, 3, 4, {p + 1, 4 * p}}, rng);
      checks += ref::pagedDecodeCase(gpuLaunch, v, p, t.d, {2, 4, 1, 3, {2 * p, 7}}, rng);
    }
  ref::expectChecks(checks);
}

// fp8 operands quantized in registers or gathered through an index.
TEST(DotStress, Fp8Operands) {
  BLK_REQUIRE_GPU();
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::fp8DotSuite(gpuLaunch, /*large=*/true, rng));
}

} // namespace
