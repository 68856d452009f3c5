"""Before/after of blk's fused linear cross-entropy driver on one GPU: two or
more builds of the runtime (libblk_runtime.so and the PTX directory its
driver launches from), called in one process on the same tensors, runs
alternating and the first build rotating from turn to turn, for each chunk
size. Each build's loss, dX and dW are checked against the first build's
(outputs poisoned with NaN first; NaN fails) before it is timed.

    python3 bench/flce_ab.py --build before=.bundle/lib/libblk_runtime.so:.bundle/ptx \\
        --build after=new/libblk_runtime.so:new/ptx --tokens 16384 --chunk-rows 1024 2048 4096

Prints a markdown table: per chunk size, each build's median wall time of
one call (forward and backward: loss, dX, dW) and its ratio to the first
build's. Hidden 4096, vocab 128256, bf16, mean reduction, every tenth target
ignored, as bench/flce_bench.py's row."""
import argparse
import ctypes
import math
import os
import statistics
import sys
import time


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="flce_ab.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", action="append", default=[], metavar="NAME=LIB:PTXDIR",
                    help="a runtime library and the PTX directory its driver launches from (two or more)")
    ap.add_argument("--tokens", type=int, default=16384)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--vocab", type=int, default=128256)
    ap.add_argument("--chunk-rows", type=int, nargs="+", default=[1024, 4096])
    ap.add_argument("--turns", type=int, default=6, help="timed calls per build and chunk size")
    args = ap.parse_args(argv)
    builds = []
    for b in args.build:
        name, sep, rest = b.partition("=")
        lib, sep2, ptx = rest.partition(":")
        if not (sep and sep2 and name and lib and ptx):
            ap.error("--build takes NAME=LIB:PTXDIR, got '%s'" % b)
        builds.append((name, lib, ptx))
    if len(builds) < 2:
        ap.error("give two or more --build NAME=LIB:PTXDIR")
    args.builds = builds
    return args


def main(argv):
    args = parse_args(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import torch
    import flce_bench as fb

    T, H, V = args.tokens, args.hidden, args.vocab
    torch.manual_seed(0)
    x = (torch.randn(T, H, device="cuda") * 0.5).bfloat16()
    w = (torch.randn(V, H, device="cuda") * (1 / math.sqrt(H))).bfloat16()
    target = torch.randint(0, V, (T,), device="cuda", dtype=torch.int64)
    target[::10] = -100
    runs = [(name, fb.BlkFlce(ctypes.CDLL(os.path.abspath(lib)), ptx)) for name, lib, ptx in args.builds]
    dx, dw = torch.empty_like(x), torch.empty_like(w)
    rows = []
    for chunk in args.chunk_rows:
        first = None
        for name, blk in runs:
            dx.fill_(float("nan"))
            dw.fill_(float("nan"))
            loss = blk(blk.args(x, w, target, dx, dw, reduction=fb.BLK_FLCE_MEAN, chunk_rows=chunk))
            torch.cuda.synchronize()
            got = (loss, dx.double(), dw.double())
            if not math.isfinite(loss) or torch.isnan(got[1]).any() or torch.isnan(got[2]).any():
                raise SystemExit("%s, chunks of %d rows: NaN in the results" % (name, chunk))
            if first is None:
                first = got
                continue
            for what, a, b in (("dX", got[1], first[1]), ("dW", got[2], first[2])):
                err = ((a - b).norm() / b.norm()).item()
                if err > 1e-2:
                    raise SystemExit("%s, chunks of %d rows: %s differs from %s's by %.2e" %
                                     (name, chunk, what, runs[0][0], err))
            if abs(got[0] - first[0]) > 1e-3 * abs(first[0]):
                raise SystemExit("%s, chunks of %d rows: loss %.6f, %s's %.6f" % (name, chunk, got[0], runs[0][0],
                                                                                  first[0]))
        del first
        times = {name: [] for name, _ in runs}
        for turn in range(args.turns + 1):
            order = runs[turn % len(runs):] + runs[:turn % len(runs)]
            for name, blk in order:
                a = blk.args(x, w, target, dx, dw, reduction=fb.BLK_FLCE_MEAN, chunk_rows=chunk)
                torch.cuda.synchronize()
                start = time.perf_counter()
                blk(a)
                torch.cuda.synchronize()
                if turn:  # the first turn warms up
                    times[name].append((time.perf_counter() - start) * 1e3)
        rows.append((chunk, {name: statistics.median(t) for name, t in times.items()}))
    names = [name for name, _ in runs]
    print("| chunk rows | " + " | ".join("%s (ms)" % n for n in names) + " | " +
          " | ".join("%s/%s" % (n, names[0]) for n in names[1:]) + " |")
    print("|---:|" + "---:|" * (2 * len(names) - 1))
    for chunk, med in rows:
        print("| %d | " % chunk + " | ".join("%.2f" % med[n] for n in names) + " | " +
              " | ".join("%.3f" % (med[n] / med[names[0]]) for n in names[1:]) + " |")
    print("\n%d x %d x %d bf16, mean; each cell the median of %d calls (wall time, the device synchronized around "
          "each)." % (T, H, V, args.turns))


if __name__ == "__main__":
    main(sys.argv[1:])
