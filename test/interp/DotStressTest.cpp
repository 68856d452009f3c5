// test/kernels/dot_stress.blk on the interpreter: a gathered, a dequantized
// and a transposed-A matmul at ragged sizes, and paged decode attention with
// padded and full 16-row head groups, and the fp8 products of
// test/kernels/fp8_dots.blk, against float64.
#include "../common/DotStressCases.h"
#include "../common/Fp8DotCases.h"
#include "../common/RowTestSupport.h"
#include "../common/TestSeed.h"
#include "InterpLaunch.h"

using namespace blk;

namespace {

std::vector<ref::Check> &operator+=(std::vector<ref::Check> &all, const std::vector<ref::Check> &more) {
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

TEST(DotStress, MatmulsRagged) {
  BLK_SEEDED_RNG(rng);
  ref::DotStressVariant v = ref::matmulStressVariant(32, 32, 32, 0, 0);
  std::vector<ref::Check> checks;
  // Sizes that are multiples of no tile; 40 rows gathered from 13 repeat rows.
  checks += ref::gatheredMatmulCase(interpLaunch, v, {70, 45, 50}, 13, 3, rng);
  checks += ref::gatheredMatmulCase(interpLaunch, v, {40, 64, 64}, 100, 0, rng);
  checks += ref::dequantMatmulCase(interpLaunch, v, {45, 70, 50}, rng);
  checks += ref::transposedAMatmulCase(interpLaunch, v, {70, 45, 50}, 5, rng);
  checks += ref::transposedAMatmulCase(interpLaunch, v, {33, 64, 96}, 0, rng);
  checks += ref::splitKMatmulCase(interpLaunch, v, {70, 45, 200}, 3, 3, rng);
  checks += ref::splitKMatmulCase(interpLaunch, v, {40, 64, 64}, 4, 0, rng);
  checks += ref::whileMatmulCase(interpLaunch, v, {70, 45, 50}, 3, rng);
  ref::expectChecks(checks);
}

TEST(DotStress, PagedDecodeAttention) {
  BLK_SEEDED_RNG(rng);
  ref::DotStressVariant v = ref::decodeStressVariant(16, 64, 4, 0);
  std::vector<ref::Check> checks;
  // Four query heads per KV head pad the 16-row tile; the lengths end
  // inside pages, and one sequence has a single token.
  checks += ref::pagedDecodeCase(interpLaunch, v, 16, 64, {3, 2, 4, 4, {37, 1, 64}}, rng);
  // Sixteen heads per KV head fill it; three, an odd group, leave 13 rows.
  checks += ref::pagedDecodeCase(interpLaunch, v, 16, 64, {2, 1, 16, 3, {48, 20}}, rng);
  checks += ref::pagedDecodeCase(interpLaunch, v, 16, 64, {2, 3, 3, 2, {17, 32}}, rng);
  ref::expectChecks(checks);
}

// fp8 operands quantized in registers or gathered through an index.
TEST(DotStress, Fp8Operands) {
  BLK_SEEDED_RNG(rng);
  ref::expectChecks(ref::fp8DotSuite(interpLaunch, /*large=*/false, rng));
}

} // namespace
