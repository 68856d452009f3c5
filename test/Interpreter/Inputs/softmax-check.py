# Checks softmax-builtin.blk's outputs (raw files at PREFIX.x, .r, ...) against float64.
import math, struct, sys

prefix = sys.argv[1]

def read(ext, n, bf16=False):
    data = open(prefix + "." + ext, "rb").read()
    if bf16:
        return [struct.unpack("<f", b"\0\0" + data[2 * i:2 * i + 2])[0] for i in range(n)]
    return list(struct.unpack("<%df" % n, data[:4 * n]))

def to_bf16(a):
    """a rounded to the nearest bf16 (ties to even), as the kernel's x.to(bf16)."""
    bits = struct.unpack("<I", struct.pack("<f", a))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]

def softmax(v):
    m = max(v)
    e = [math.exp(a - m) for a in v]
    s = sum(e)
    return [a / s for a in e]

x = read("x", 64)
rows = [x[16 * r:16 * r + 16] for r in range(4)]
want_rows = sum((softmax(r) for r in rows), [])
cols = [softmax([rows[r][c] for r in range(4)]) for c in range(16)]
want_cols = [cols[c][r] for r in range(4) for c in range(16)]
# (name, got, want, relative norm tolerance, per-element tolerance): bf16
# rounds x, x - max, each exponential and each quotient (up to 2^-8 each).
cases = [("R", read("r", 64), want_rows, 1e-6, 1e-5), ("C", read("c", 64), want_cols, 1e-6, 1e-5),
         ("V", read("v", 16), softmax(x[:16]), 1e-6, 1e-5), ("E", read("e", 64), want_rows, 1e-6, 1e-5),
         ("B", read("b", 64, bf16=True), sum((softmax([to_bf16(a) for a in r]) for r in rows), []), 1e-2, 2.5e-2)]
bad = 0
for name, got, want, norm_tol, elem_tol in cases:
    norm = math.sqrt(sum((g - w) ** 2 for g, w in zip(got, want)) / sum(w * w for w in want))
    elem = max(abs(g - w) / abs(w) if w else abs(g) for g, w in zip(got, want))
    if not (norm <= norm_tol and elem <= elem_tol):  # NaN fails
        print("%s: relative norm %g (tolerance %g), worst element %g (tolerance %g)" % (name, norm, norm_tol, elem,
                                                                                         elem_tol))
        bad += 1
sys.exit(1 if bad else 0)
