# Checks softmax-builtin.blk's outputs (raw files at PREFIX.x, .r, ...) against float64.
import math, struct, sys

prefix = sys.argv[1]

def read(ext, n, bf16=False):
    data = open(prefix + "." + ext, "rb").read()
    if bf16:
        return [struct.unpack("<f", b"\0\0" + data[2 * i:2 * i + 2])[0] for i in range(n)]
    return list(struct.unpack("<%df" % n, data[:4 * n]))

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
cases = [("R", read("r", 64), want_rows, 1e-6), ("C", read("c", 64), want_cols, 1e-6),
         ("V", read("v", 16), softmax(x[:16]), 1e-6), ("E", read("e", 64), want_rows, 1e-6),
         ("B", read("b", 64, bf16=True), want_rows, 1e-2)]
bad = 0
for name, got, want, tol in cases:
    err = max(abs(g - w) / abs(w) if w else abs(g) for g, w in zip(got, want))
    if not err <= tol:  # NaN fails
        print("%s: relative error %g over %g" % (name, err, tol))
        bad += 1
sys.exit(1 if bad else 0)
