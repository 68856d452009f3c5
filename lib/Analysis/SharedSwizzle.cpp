#include "blk/Analysis/SharedSwizzle.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

namespace blk {

int64_t SharedSwizzle::apply(int64_t index) const {
  int64_t out = index;
  for (auto [target, source] : xors)
    out ^= ((index >> source) & 1) << target;
  return out;
}

int64_t SharedSwizzle::targetMask() const {
  int64_t mask = 0;
  for (auto [target, source] : xors)
    mask |= int64_t(1) << target;
  return mask;
}

/// The rank over GF(2) of `vectors`.
static unsigned rank(llvm::SmallVector<int64_t, 5> vectors) {
  unsigned r = 0;
  for (size_t i = 0; i < vectors.size(); ++i) {
    int64_t pivot = vectors[i];
    if (!pivot)
      continue;
    ++r;
    int64_t top = int64_t(1) << llvm::Log2_64(uint64_t(pivot));
    for (size_t j = i + 1; j < vectors.size(); ++j)
      if (vectors[j] & top)
        vectors[j] ^= pivot;
  }
  return r;
}

/// Bits of a byte address below the unit one access of `side` is counted
/// in: its vector, or a 4-byte word (smaller accesses to one word do not
/// conflict).
static unsigned unitBits(const SharedAccess &side, int64_t elemBytes) {
  return llvm::Log2_64(uint64_t(std::max<int64_t>(4, side.vector * elemBytes)));
}

bool conflictFree(const SharedAccess &side, int64_t elemBytes, const SharedSwizzle &swizzle) {
  // 128 bytes hold 2^bankBits units: the lanes of one phase are the first
  // bankBits lane bits. Their accesses conflict unless every combination
  // of them that moves to another unit also moves to another bank.
  unsigned ub = unitBits(side, elemBytes), bankBits = 7 - ub;
  llvm::SmallVector<int64_t, 5> units, banks;
  for (size_t k = 0; k < std::min<size_t>(bankBits, side.laneSteps.size()); ++k) {
    int64_t unit = (swizzle.apply(side.laneSteps[k]) * elemBytes) >> ub;
    units.push_back(unit);
    banks.push_back(unit & ((int64_t(1) << bankBits) - 1));
  }
  return rank(units) == rank(banks);
}

std::optional<SharedSwizzle> findSharedSwizzle(const SharedAccess &write, const SharedAccess &read,
                                               int64_t elemBytes, int64_t numElements) {
  if (numElements <= 0 || !llvm::isPowerOf2_64(uint64_t(numElements)) || !llvm::isPowerOf2_64(uint64_t(elemBytes)))
    return std::nullopt;
  SharedSwizzle s;
  // The phase steps of each side, and whether the swizzle so far keeps the
  // steps it already decides (all their bits above the line placed) off
  // each other's banks: those steps' units no later choice changes.
  unsigned indexBits = llvm::Log2_64(uint64_t(numElements));
  unsigned line = std::min<unsigned>(indexBits, llvm::Log2_64(uint64_t(std::max<int64_t>(1, 128 / elemBytes))));
  int64_t lineMask = (int64_t(1) << line) - 1;
  auto phaseOf = [&](const SharedAccess &side) {
    SharedAccess phase = side;
    phase.laneSteps.resize(std::min<size_t>(7 - unitBits(side, elemBytes), side.laneSteps.size()));
    return phase;
  };
  SharedAccess writes = phaseOf(write), reads = phaseOf(read);
  auto decided = [&](const SharedAccess &side, int64_t placed) {
    SharedAccess known = side;
    llvm::erase_if(known.laneSteps, [&](int64_t step) { return (step & ~lineMask & ~placed) != 0; });
    return known;
  };
  auto fineSoFar = [&](int64_t placed) {
    return conflictFree(decided(writes, placed), elemBytes, s) && conflictFree(decided(reads, placed), elemBytes, s);
  };
  // Sources: the bits above the line that a phase's lanes move (flipping
  // by others changes no phase); each flips up to two targets, bits that
  // pick a unit of the wider vector (or a word) within the line, or none.
  llvm::SmallVector<unsigned> sources, targets;
  int64_t moved = 0;
  for (int64_t step : writes.laneSteps)
    moved |= step;
  for (int64_t step : reads.laneSteps)
    moved |= step;
  for (unsigned b = line; b < indexBits; ++b)
    if (moved >> b & 1)
      sources.push_back(b);
  // No target within a 4-byte word (flipping there moves no access to
  // another bank, and keeps the bytes of a word together for LLVM to merge).
  int64_t word = std::max<int64_t>(1, 4 / elemBytes);
  for (unsigned b = llvm::Log2_64(uint64_t(std::max({write.vector, read.vector, word}))); b < line; ++b)
    targets.push_back(b);
  // Depth first over the sources, none first (fewer XORs), then one
  // target, then two, pruned where the steps already decided conflict.
  int64_t budget = 1 << 16; // nodes: bounds the compile time where no swizzle exists
  std::function<bool(size_t, int64_t)> place = [&](size_t i, int64_t placed) -> bool {
    if (--budget < 0 || !fineSoFar(placed))
      return false;
    if (i == sources.size())
      return true;
    int64_t next = placed | int64_t(1) << sources[i];
    if (place(i + 1, next))
      return true;
    for (unsigned target : targets) {
      s.xors.push_back({target, sources[i]});
      if (place(i + 1, next))
        return true;
      s.xors.pop_back();
    }
    // A pair of targets: a bit that must land outside what two sides'
    // other steps occupy.
    for (size_t a = 0; a < targets.size(); ++a)
      for (size_t b = a + 1; b < targets.size(); ++b) {
        s.xors.push_back({targets[a], sources[i]});
        s.xors.push_back({targets[b], sources[i]});
        if (place(i + 1, next))
          return true;
        s.xors.pop_back();
        s.xors.pop_back();
      }
    return false;
  };
  if (place(0, 0))
    return s;
  return std::nullopt;
}

/// The most distinct 4-byte words one bank serves when lanes `first` to
/// `first + lanes - 1` of warp 0 of `layout` each access `bytes` bytes from
/// byte `byteOf(coords of register reg)` on: one access phase's wavefronts.
static int64_t phaseWays(const LinearLayout &layout, int64_t reg, int64_t first, int64_t lanes, int64_t bytes,
                         llvm::function_ref<int64_t(const LinearLayout::Coord &)> byteOf) {
  llvm::SmallVector<int64_t, 32> words; // distinct words of the phase
  for (int64_t lane = first; lane < first + lanes; ++lane) {
    int64_t address = byteOf(layout.apply(reg, lane, 0));
    for (int64_t word = address / 4; word <= (address + bytes - 1) / 4; ++word)
      if (!llvm::is_contained(words, word))
        words.push_back(word);
  }
  int64_t perBank[32] = {}, worst = 1;
  for (int64_t word : words)
    worst = std::max(worst, ++perBank[word % 32]);
  return worst;
}

/// The lanes of one access phase of `bytes`-byte accesses: the lanes whose
/// accesses fill 128 bytes.
static int64_t lanesPerPhase(int64_t bytes) { return bytes <= 4 ? 32 : 128 / bytes; }

int64_t bankConflictWays(const LinearLayout &layout, int64_t vector, int64_t elemBytes,
                         llvm::function_ref<int64_t(const LinearLayout::Coord &)> offsetOf) {
  int64_t bytes = vector * elemBytes, lanes = lanesPerPhase(bytes), worst = 1;
  auto byteOf = [&](const LinearLayout::Coord &c) { return offsetOf(c) * elemBytes; };
  for (int64_t r = 0; r < layout.numRegisters(); r += vector)
    for (int64_t first = 0; first < 32; first += lanes)
      worst = std::max(worst, phaseWays(layout, r, first, lanes, bytes, byteOf));
  return worst;
}

llvm::SmallVector<unsigned> lineVectorBits(const LinearLayout &layout, unsigned contig, int64_t elemBytes) {
  llvm::SmallVector<unsigned> bits;
  if (!layout.registersDisjointFromThreads())
    return bits;
  int64_t vec = 1;
  while (vec * elemBytes < 16) {
    LinearLayout::Coord unit(layout.rank(), 0);
    unit[contig] = vec;
    auto it = llvm::find(layout.regs, unit);
    if (it == layout.regs.end())
      break;
    bits.push_back(unsigned(it - layout.regs.begin()));
    vec *= 2;
  }
  // A vector starts aligned where no other register moves within it.
  while (!bits.empty()) {
    int64_t width = int64_t(1) << bits.size();
    bool aligned = true;
    for (auto [i, basis] : llvm::enumerate(layout.regs))
      if (!llvm::is_contained(bits, unsigned(i)) && basis[contig] % width != 0)
        aligned = false;
    if (aligned)
      break;
    bits.pop_back();
  }
  return bits;
}

llvm::SmallVector<llvm::SmallVector<int64_t>> lineVectors(int64_t numRegisters, llvm::ArrayRef<unsigned> bits) {
  int64_t mask = 0;
  for (unsigned bit : bits)
    mask |= int64_t(1) << bit;
  llvm::SmallVector<llvm::SmallVector<int64_t>> vectors;
  for (int64_t r = 0; r < numRegisters; ++r) {
    if (r & mask)
      continue;
    llvm::SmallVector<int64_t> &regs = vectors.emplace_back();
    for (int64_t j = 0; j < (int64_t(1) << bits.size()); ++j) {
      int64_t reg = r;
      for (auto [i, bit] : llvm::enumerate(bits))
        if (j >> i & 1)
          reg |= int64_t(1) << bit;
      regs.push_back(reg);
    }
  }
  return vectors;
}

int64_t sharedWavefronts(const LinearLayout &layout, unsigned contig, int64_t elemBytes,
                         llvm::function_ref<int64_t(const LinearLayout::Coord &)> byteOf) {
  llvm::SmallVector<unsigned> bits = lineVectorBits(layout, contig, elemBytes);
  int64_t bytes = (int64_t(1) << bits.size()) * elemBytes, lanes = lanesPerPhase(bytes), total = 0;
  for (llvm::ArrayRef<int64_t> regs : lineVectors(layout.numRegisters(), bits))
    for (int64_t first = 0; first < 32; first += lanes)
      total += phaseWays(layout, regs[0], first, lanes, bytes, byteOf);
  return total;
}

} // namespace blk
