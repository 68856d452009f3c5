// blk.sort on the interpreter: Triton's bitonic network, exchange for
// exchange as the GPU runs it (not std::sort), so that NaNs, -0.0 and equal
// elements end where the GPU leaves them.
#include "Executor.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk::interp {

namespace {

/// One row of `n` elements through the network: stages 1 .. log2(n) (only
/// the last with `mergeOnly`); in stage s, at distances 2^(s-1) .. 1, the
/// pair (p, p | d) is exchanged when `greater(x[p], x[p | d])` differs from
/// its run's flag: bit s of p before the last stage, `descending` in it.
template <typename T, typename Greater>
void bitonicNetwork(T *x, int64_t n, bool descending, bool mergeOnly, Greater greater) {
  unsigned stages = llvm::Log2_64(uint64_t(n));
  for (unsigned s = mergeOnly ? stages : 1; s <= stages; ++s)
    for (unsigned j = s; j-- > 0;) {
      int64_t d = int64_t(1) << j;
      for (int64_t p = 0; p < n; ++p) {
        if (p & d)
          continue;
        bool flip = s < stages ? ((p >> s) & 1) != 0 : descending;
        if (greater(x[p], x[p | d]) != flip)
          std::swap(x[p], x[p | d]);
      }
    }
}

} // namespace

LogicalResult Executor::execSort(SortOp op) {
  Tensor row = get(op.getSrc()); // a copy, sorted row by row in place
  auto resultType = op.getResult().getType();
  int64_t n = row.shape.back(), k = resultType.getShape().back();
  size_t rows = row.size() / size_t(n);
  bool descending = op.getDescending(), mergeOnly = op.getMergeOnly();
  Tensor t = Tensor::like(resultType, rows * size_t(k));
  if (row.isFloat()) {
    // Held as doubles already rounded to the type: `>` compares the exact
    // values, false when either is NaN (ordered), and -0.0 > 0.0 is false.
    for (size_t r = 0; r < rows; ++r) {
      double *x = row.f.data() + r * size_t(n);
      bitonicNetwork(x, n, descending, mergeOnly, [](double a, double b) { return a > b; });
      std::copy(x, x + k, t.f.begin() + std::ptrdiff_t(r * size_t(k)));
    }
  } else {
    // Integers are held sign-extended from their width: unsigned order
    // compares the low `width` bits.
    unsigned width = row.elem.getIntOrFloatBitWidth();
    uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    for (size_t r = 0; r < rows; ++r) {
      int64_t *x = row.i.data() + r * size_t(n);
      if (op.getIsUnsigned())
        bitonicNetwork(x, n, descending, mergeOnly,
                       [mask](int64_t a, int64_t b) { return (uint64_t(a) & mask) > (uint64_t(b) & mask); });
      else
        bitonicNetwork(x, n, descending, mergeOnly, [](int64_t a, int64_t b) { return a > b; });
      std::copy(x, x + k, t.i.begin() + std::ptrdiff_t(r * size_t(k)));
    }
  }
  set(op.getResult(), std::move(t));
  return success();
}

} // namespace blk::interp
