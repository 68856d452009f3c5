// The layouts and arrangements of rings that threads read back (loads
// beside a loop's dots), chosen on the shared-memory wavefronts their
// copies and reads take.
#include "RingReadBack.h"

#include "blk/Analysis/SharedSwizzle.h"
#include "blk/Dialect/Blk/IR/Layout.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk {

/// Wavefronts of warp 0's accesses to a tile of `ring`: those of the
/// copies in `written`'s layout and of the reads in `read`'s.
static int64_t moveWavefronts(SharedBufferType ring, const LinearLayout &written, const LinearLayout &read) {
  auto byteOf = [&](const LinearLayout::Coord &c) { return ring.tileByteOffset(c); };
  return sharedWavefronts(written, ring.getContig(), ring.getElementBytes(), byteOf) +
         sharedWavefronts(read, ring.getContig(), ring.getElementBytes(), byteOf);
}

/// threadArrangedRing on linear layouts.
static SharedBufferType arrangedFor(SharedBufferType ring, const LinearLayout &writes, int64_t writeVector,
                                    const LinearLayout &reads) {
  ArrayRef<int64_t> tile = ring.getTileShape();
  if (ring.isThreadArranged() || !llvm::isPowerOf2_64(uint64_t(tile[0])) || !llvm::isPowerOf2_64(uint64_t(tile[1])))
    return {};
  unsigned contig = ring.getContig();
  int64_t bytes = ring.getElementBytes();
  // The slot's element index of a lane's step: lines one after another.
  auto access = [&](const LinearLayout &layout, int64_t vector) {
    SharedAccess side;
    side.vector = vector;
    for (const LinearLayout::Coord &c : layout.lanes)
      side.laneSteps.push_back(c[1 - contig] * tile[contig] + c[contig]);
    return side;
  };
  int64_t readVector = int64_t(1) << lineVectorBits(reads, contig, bytes).size();
  std::optional<SharedSwizzle> swizzle =
      findSharedSwizzle(access(writes, writeVector), access(reads, readVector), bytes, tile[0] * tile[1]);
  if (!swizzle)
    return {};
  SmallVector<int64_t> xors;
  for (auto [target, source] : swizzle->xors)
    xors.append({int64_t(target), int64_t(source)});
  auto arranged = SharedBufferType::get(ring.getContext(), ring.getShape(), ring.getElementType(), contig, xors);
  // Lines one after another, nothing flipped, also win a tie: each
  // register's address is then its thread's plus a constant, an immediate
  // of the access, where the tensor-core arrangement XORs register bits
  // into lane bits and keeps an address register per access across the
  // loop.
  int64_t arrangedCost = moveWavefronts(arranged, writes, reads), tensorCoreCost = moveWavefronts(ring, writes, reads);
  if (xors.empty() ? arrangedCost > tensorCoreCost : arrangedCost >= tensorCoreCost)
    return {};
  return arranged;
}

SharedBufferType threadArrangedRing(SharedBufferType ring, RankedTensorType written, int64_t writeVector,
                                    RankedTensorType read) {
  if (!hasLayout(written) || !hasLayout(read))
    return {};
  return arrangedFor(ring, LinearLayout::get(written), writeVector, LinearLayout::get(read));
}

/// The layout to read back an 8-bit B tile [K, N] in from its ring (lines
/// `ring.getContig()`) when it is written each iteration into its K-major
/// `buffer`: its own, or a blocked layout of any run of elements along K and
/// N per thread (up to 16 each: vectors along K into the buffer, along N
/// out of an N-major ring), lanes split between K and N in any proportion,
/// either dimension fastest, whichever takes the fewest shared-memory
/// wavefronts for its three moves (the copies into the ring in the tile's
/// own layout, `writeVector` elements an access, the reads out of it and
/// the writes into the buffer; bank conflicts counted on the ring's
/// arrangement for tensor cores or, where it takes fewer, for these
/// threads, and on the buffer's), then the fewest accesses. Null where its
/// own does.
RankedTensorType readBackType(RankedTensorType type, SharedBufferType ring, SharedBufferType buffer,
                              int64_t writeVector) {
  if (type.getRank() != 2 || type.getElementTypeBitWidth() != 8 || !hasLayout(type))
    return {};
  LinearLayout own = LinearLayout::get(type);
  auto cost = [&](const LinearLayout &layout) {
    auto moves = [&](const LinearLayout &side, SharedBufferType into) {
      int64_t accesses = int64_t(lineVectors(side.numRegisters(), lineVectorBits(side, into.getContig(), 1)).size());
      int64_t wavefronts = sharedWavefronts(side, into.getContig(), 1,
                                            [&](const LinearLayout::Coord &c) { return into.tileByteOffset(c); });
      return std::pair{wavefronts, accesses};
    };
    SharedBufferType arranged = arrangedFor(ring, own, writeVector, layout);
    SharedBufferType readFrom = arranged ? arranged : ring;
    auto [copyWaves, copies] = moves(own, readFrom);
    auto [readWaves, reads] = moves(layout, readFrom);
    auto [writeWaves, writes] = moves(layout, buffer);
    return std::pair{copyWaves + readWaves + writeWaves, reads + writes};
  };
  std::pair<int64_t, int64_t> best = cost(own);
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  unsigned numWarps = 1u << own.warps.size();
  RankedTensorType chosen;
  for (unsigned alongK = 1; alongK <= 16; alongK *= 2)
    for (unsigned alongN = 1; alongN <= 16; alongN *= 2)
      for (unsigned lanesK = 1; lanesK <= kWarpSize; lanesK *= 2)
        for (bool kFirst : {true, false}) {
          unsigned lanesN = kWarpSize / lanesK;
          if (k < int64_t(alongK) * lanesK || n < int64_t(alongN) * lanesN)
            continue;
          unsigned warpsN = unsigned(std::clamp<int64_t>(n / (alongN * lanesN), 1, numWarps));
          auto blocked = BlockedLayoutAttr::get(type.getContext(), {alongK, alongN}, {lanesK, lanesN},
                                                {numWarps / warpsN, warpsN},
                                                kFirst ? SmallVector<unsigned>{0, 1} : SmallVector<unsigned>{1, 0});
          LinearLayout linear = LinearLayout::blocked(blocked, type.getShape());
          if (linear.broadcastLaneMask() || linear.broadcastWarpMask())
            continue;
          if (std::pair<int64_t, int64_t> c = cost(linear); c < best) {
            best = c;
            chosen = RankedTensorType::get(type.getShape(), type.getElementType(), blocked);
          }
        }
  return chosen;
}

} // namespace blk
