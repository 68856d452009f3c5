// rand, randn, randint and their 4x forms: Triton's Philox 4x32-10 (4x64-10
// for 64-bit offsets) with its seed and offset conventions, written as integer
// arithmetic so every target (the interpreter, the GPU) gives the same bits.
#include "Generator.h"

using namespace mlir;

namespace blk {
namespace {

struct PhiloxConstants {
  uint64_t keyA, keyB, roundA, roundB;
};
constexpr PhiloxConstants kPhilox32{0x9E3779B9, 0xBB67AE85, 0xD2511F53, 0xCD9E8D57};
constexpr PhiloxConstants kPhilox64{0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, 0xD2E7470EE14C6C93, 0xCA5A826395121157};
constexpr int64_t kMaxRounds = 1024;

/// Emits Philox on unsigned values of one width through the generator's
/// operators (u32/u64 arithmetic wraps, shifts are logical).
struct Philox {
  Generator &g;
  const ast::Loc &l;
  unsigned width;

  TV lit(uint64_t v) const { return TV::makeWideInt(v); }
  TV op(const char *o, const TV &a, const TV &b) const { return g.genBinary(o, a, b, l); }

  /// The high half of the product of the constant `a` and `x`.
  TV umulhi(uint64_t a, const TV &x) const {
    if (width == 32) {
      TV wide = g.convertElement(x, g.builder.getI64Type(), true, l);
      return g.convertElement(op(">>", op("*", wide, lit(a)), lit(32)), g.builder.getI32Type(), true, l);
    }
    // 64 x 64 bits from 32-bit halves (no 128-bit integers on the targets).
    const uint64_t m = 0xFFFFFFFF;
    TV xl = op("&", x, lit(m)), xh = op(">>", x, lit(32));
    TV ll = op("*", xl, lit(a & m)), lh = op("*", xh, lit(a & m));
    TV hl = op("*", xl, lit(a >> 32)), hh = op("*", xh, lit(a >> 32));
    TV t = op("+", hl, op(">>", ll, lit(32)));
    TV w = op("+", op("&", t, lit(m)), lh);
    return op("+", op("+", hh, op(">>", t, lit(32))), op(">>", w, lit(32)));
  }

  /// Triton's key of a seed (any integer, sign-extended to u64): its low and
  /// high 32-bit halves, or the whole of the first 64-bit word and 0.
  std::pair<TV, TV> key(const TV &seed) const {
    Type word = g.builder.getIntegerType(width);
    TV seed64 = g.convertElement(seed, g.builder.getI64Type(), true, l);
    if (!seed64)
      return {};
    if (width == 64)
      return {seed64, g.convertElement(lit(0), word, true, l)};
    return {g.convertElement(op("&", seed64, lit(0xFFFFFFFF)), word, true, l),
            g.convertElement(op(">>", seed64, lit(32)), word, true, l)};
  }

  /// n rounds on the counter (c0, c1, c2, c3) and key (k0, k1).
  std::vector<TV> rounds(TV c0, TV c1, TV c2, TV c3, TV k0, TV k1, int64_t n) const {
    const PhiloxConstants &k = width == 32 ? kPhilox32 : kPhilox64;
    for (int64_t r = 0; r < n; ++r) {
      TV c0Old = c0, c2Old = c2;
      c0 = op("^", op("^", umulhi(k.roundB, c2Old), c1), k0);
      c2 = op("^", op("^", umulhi(k.roundA, c0Old), c3), k1);
      c1 = op("*", c2Old, lit(k.roundB));
      c3 = op("*", c0Old, lit(k.roundA));
      k0 = op("+", k0, lit(k.keyA));
      k1 = op("+", k1, lit(k.keyB));
    }
    return {c0, c1, c2, c3};
  }
};

bool isIntegerOperand(Generator &g, const TV &v) {
  if (v.kind == TV::Int)
    return true;
  if (!v.isVal())
    return false;
  Type t = g.elementType(v);
  return isa<IntegerType>(t) && !t.isInteger(1);
}

} // namespace

/// Triton's pieces of the random functions (genRandomParts).
static bool isRandomPart(const std::string &name) {
  return llvm::is_contained({"philox", "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal"}, name);
}

bool isRandom(const std::string &name) {
  return isRandomPart(name) || llvm::is_contained({"rand", "randn", "randint", "randint4x", "rand4x", "randn4x"}, name);
}

/// Triton's uint_to_uniform_float: the bits as a signed integer, folded onto
/// [0, 2^(w-1)) and scaled below 1.
TV Generator::uniformFromBits(const TV &bits, const ast::Loc &l) {
  TV s = TV::makeVal(bits.value, false);
  bool wide = elementType(bits).getIntOrFloatBitWidth() == 64;
  TV negative = genCompare("<", s, TV::makeInt(0), l);
  TV flipped = genBinary("-", genUnary("-", s, l), TV::makeInt(1), l);
  if (!negative || !flipped)
    return TV();
  TV folded = TV::makeVal(arith::SelectOp::create(builder, loc(l), negative.value, flipped.value, s.value));
  return genBinary("*", folded, TV::makeFloat(wide ? 1.0842020432385337e-19 : 4.6566127342e-10), l);
}

/// Triton's pair_uniform_to_normal (Box-Muller).
std::pair<TV, TV> Generator::normalPair(const TV &u1, const TV &u2, bool both, const ast::Loc &l) {
  TV floor = cast(TV::makeFloat(1.0e-7), builder.getF32Type(), false, shapeOf(u1), l);
  if (!floor)
    return {};
  TV u = TV::makeVal(arith::MaxNumFOp::create(builder, loc(l), floor.value, u1.value));
  TV th = genBinary("*", TV::makeFloat(6.283185307179586), u2, l);
  TV r = genMath("sqrt", genBinary("*", TV::makeFloat(-2.0), genMath("log", u, l), l), l);
  TV n1 = genBinary("*", r, genMath("cos", th, l), l);
  if (!both)
    return {n1, n1};
  return {n1, genBinary("*", r, genMath("sin", th, l), l)};
}

/// n_rounds: 10 unless given as a compile-time integer in [0, kMaxRounds].
static std::optional<int64_t> roundsArg(Generator &g, const TV &v, const ast::Loc &at) {
  if (v.kind == TV::None)
    return 10;
  if (v.kind != TV::Int || v.isU64 || v.i < 0 || v.i > kMaxRounds) {
    g.error(at, "n_rounds must be a compile-time integer from 0 to " + std::to_string(kMaxRounds) + ", got " +
                    g.describe(v));
    return std::nullopt;
  }
  return v.i;
}

TV Generator::genRandomParts(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  const ast::Loc &l = call.loc;
  auto argLoc = [&](size_t i) -> const ast::Loc & { return builtinArgLoc(call, name, i); };
  if (name == "uint_to_uniform_float") {
    TV x = args[0];
    unsigned width = isIntegerOperand(*this, x) && x.kind != TV::Int ? elementType(x).getIntOrFloatBitWidth() : 0;
    if (width != 32 && width != 64)
      return error(argLoc(0), "'uint_to_uniform_float' needs 32- or 64-bit integers, got " + describe(x));
    return uniformFromBits(x, l);
  }
  if (name == "pair_uniform_to_normal") {
    for (size_t i = 0; i < 2; ++i)
      if (!args[i].isVal() || !elementType(args[i]).isF32())
        return error(argLoc(i), "'pair_uniform_to_normal' needs f32 uniforms (as rand and uint_to_uniform_float "
                                "give them), got " + describe(args[i]));
    SmallVector<int64_t> shape;
    if (!broadcastShape(args[0], args[1], shape, l))
      return TV();
    TV u1 = broadcastTo(args[0], shape, l), u2 = broadcastTo(args[1], shape, l);
    if (!u1 || !u2)
      return TV();
    auto [n1, n2] = normalPair(u1, u2, true, l);
    if (!n1 || !n2)
      return TV();
    return TV::makeTuple({n1, n2});
  }
  // philox(seed, c0, c1, c2, c3) and philox_impl(c0, c1, c2, c3, k0, k1):
  // the words take c0's width (32 or 64 bits) as unsigned integers.
  bool impl = name == "philox_impl";
  size_t first = impl ? 0 : 1, words = impl ? 6 : 4;
  const TV &c0 = args[first];
  unsigned width = isIntegerOperand(*this, c0) && c0.kind != TV::Int ? elementType(c0).getIntOrFloatBitWidth() : 0;
  if (width != 32 && width != 64)
    return error(argLoc(first), "'" + name + "' needs c0 of 32- or 64-bit integers, got " + describe(c0));
  if (impl && !c0.isUnsigned)
    return error(argLoc(0), "'philox_impl' needs c0 of u32 or u64 (philox converts signed counters), got " +
                                describe(c0));
  if (!impl && !isIntegerOperand(*this, args[0]))
    return error(argLoc(0), "'philox' needs an integer seed, got " + describe(args[0]));
  std::optional<int64_t> rounds = roundsArg(*this, args[first + words], argLoc(first + words));
  if (!rounds)
    return TV();
  Type word = builder.getIntegerType(width);
  std::vector<TV> in;
  SmallVector<int64_t> shape; // that of every operand, the seed's included
  for (size_t i = 0; i < first + words; ++i) {
    const TV &v = args[i];
    if (i >= first && (!isIntegerOperand(*this, v) ||
                       (v.kind != TV::Int && elementType(v).getIntOrFloatBitWidth() != width)))
      return error(argLoc(i), "'" + name + "' needs every word as c0's " + std::to_string(width) +
                                  "-bit integers, got " + describe(v));
    SmallVector<int64_t> joined;
    if (!broadcastShapes(shape, shapeOf(v), joined))
      return error(argLoc(i), "shape mismatch: '" + name + "' cannot broadcast " + describe(v) + " with the " +
                                  "operands before it");
    shape = joined;
    if (i >= first && !in.emplace_back(convertElement(v, word, true, l)))
      return TV();
  }
  Philox philox{*this, l, width};
  TV k0, k1;
  if (impl) {
    k0 = in[4];
    k1 = in[5];
  } else {
    std::tie(k0, k1) = philox.key(args[0]);
    if (!k0 || !k1)
      return TV();
  }
  std::vector<TV> out = philox.rounds(in[0], in[1], in[2], in[3], k0, k1, *rounds);
  for (TV &v : out)
    if (!v || !(v = broadcastTo(v, shape, l)))
      return TV();
  return TV::makeTuple(out);
}

TV Generator::genRandom(const std::string &name, const ast::CallExpr &call, std::vector<TV> &args) {
  const ast::Loc &l = call.loc;
  if (isRandomPart(name))
    return genRandomParts(name, call, args);
  TV seed = args[0], offset = args[1];
  if (!isIntegerOperand(*this, seed))
    return error(builtinArgLoc(call, name, 0), "'" + name + "' needs an integer seed, got " + describe(seed));
  bool constUnsigned;
  Type offsetType = offset.kind == TV::Int ? literalType(offset, constUnsigned) : elementType(offset);
  if (!isIntegerOperand(*this, offset) || (offsetType.getIntOrFloatBitWidth() != 32 &&
                                           offsetType.getIntOrFloatBitWidth() != 64))
    return error(builtinArgLoc(call, name, 1),
                 "'" + name + "' needs 32- or 64-bit integer offsets, got " + describe(offset));
  std::optional<int64_t> roundsGiven = roundsArg(*this, args[2], builtinArgLoc(call, name, 2));
  if (!roundsGiven)
    return TV();
  int64_t rounds = *roundsGiven;
  SmallVector<int64_t> shape;
  if (!broadcastShape(seed, offset, shape, l))
    return TV();

  Philox philox{*this, l, offsetType.getIntOrFloatBitWidth()};
  Type word = builder.getIntegerType(philox.width);
  // The offsets' bits are the counter's first word; the others start at 0.
  TV c0 = offset.isConst() ? convertElement(offset, word, true, l) : TV::makeVal(offset.value, true);
  TV zero = convertElement(TV::makeInt(0), word, true, l);
  auto [k0, k1] = philox.key(seed);
  if (!c0 || !zero || !k0 || !k1)
    return TV();
  std::vector<TV> out = philox.rounds(c0, zero, zero, zero, k0, k1, rounds);
  for (TV &v : out)
    if (!v || !(v = broadcastTo(v, shape, l)))
      return TV();

  if (name == "randint")
    return out[0];
  if (name == "randint4x")
    return TV::makeTuple(out);
  std::vector<TV> uniform;
  for (size_t i = 0; i < (name == "rand" ? 1 : name == "randn" ? 2 : 4); ++i)
    if (!uniform.emplace_back(uniformFromBits(out[i], l)))
      return TV();
  if (name == "rand")
    return uniform[0];
  if (name == "rand4x")
    return TV::makeTuple(uniform);
  auto [n1, n2] = normalPair(uniform[0], uniform[1], name == "randn4x", l);
  if (!n1 || !n2)
    return TV();
  if (name == "randn")
    return n1;
  auto [n3, n4] = normalPair(uniform[2], uniform[3], true, l);
  if (!n3 || !n4)
    return TV();
  return TV::makeTuple({n1, n2, n3, n4});
}

} // namespace blk
