#!/usr/bin/env python3
"""Registers and spills of every kernel in two directories of PTX, side by side.

    python3 bench/ptx_registers.py BEFORE_DIR AFTER_DIR [--ptxas PATH] [--arch sm_90a] [-j N] [--all]

Runs `ptxas -v` on each .ptx file both directories hold (the names
scripts/build-ptx.sh gives its variants) and prints a summary (kernels
unchanged, with fewer and more registers, the sums of registers and of spill
bytes) and a table of the kernels whose registers or spills differ, most
registers saved first (--all: every kernel). Files only one side has are
listed. For a change to code generation: build-ptx.sh before and after, then
this.
"""
import argparse
import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_compiled  # noqa: E402


def kernels(ptxas, arch, path):
    """{kernel: (registers, spill store bytes, spill load bytes)} of one PTX file
    (compare_compiled.py's parse of ptxas -v)."""
    try:
        found = compare_compiled.ptxas_once(ptxas, arch, path)
    except RuntimeError as e:
        sys.exit("%s: %s" % (path, e))
    return {name: (k["regs"], k.get("spill_stores", 0), k.get("spill_loads", 0))
            for name, k in found.items() if "regs" in k}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1, help="ptxas processes at once")
    ap.add_argument("--all", action="store_true", help="list every kernel, not only those that changed")
    args = ap.parse_args()
    names = lambda d: {f for f in os.listdir(d) if f.endswith(".ptx")}
    before, after = names(args.before), names(args.after)
    common = sorted(before & after)
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        old = dict(zip(common, pool.map(lambda f: kernels(args.ptxas, args.arch, os.path.join(args.before, f)), common)))
        new = dict(zip(common, pool.map(lambda f: kernels(args.ptxas, args.arch, os.path.join(args.after, f)), common)))
    rows, same, fewer, more = [], 0, 0, 0
    sums = [0, 0, 0, 0]  # registers before, after; spill stores before, after
    for f in common:
        for k in sorted(set(old[f]) | set(new[f])):
            a, b = old[f].get(k), new[f].get(k)
            if a is None or b is None:
                rows.append((0, f, k, a, b))
                continue
            sums[0] += a[0]
            sums[1] += b[0]
            sums[2] += a[1]
            sums[3] += b[1]
            if b[0] < a[0]:
                fewer += 1
            elif b[0] > a[0]:
                more += 1
            else:
                same += 1
            if a != b or args.all:
                rows.append((b[0] - a[0], f, k, a, b))
    print("ptxas %s (%s); %d files in both, %d only before, %d only after" %
          (args.ptxas, args.arch, len(common), len(before - after), len(after - before)))
    print("kernels: %d same registers, %d fewer, %d more; registers %d -> %d; spill stores %d -> %d bytes" %
          (same, fewer, more, sums[0], sums[1], sums[2], sums[3]))
    for f in sorted(before - after):
        print("only before: " + f)
    for f in sorted(after - before):
        print("only after: " + f)
    print()
    print("| file | kernel | registers | spill st/ld B |")
    print("|---|---|---:|---:|")
    show = lambda v: "-" if v is None else str(v[0])
    spill = lambda v: "-" if v is None else "%d/%d" % (v[1], v[2])
    for _, f, k, a, b in sorted(rows, key=lambda r: (r[0], r[1], r[2])):
        regs = show(a) if show(a) == show(b) else "%s -> %s" % (show(a), show(b))
        sp = spill(a) if spill(a) == spill(b) else "%s -> %s" % (spill(a), spill(b))
        print("| %s | %s | %s | %s |" % (f[:-4], k, regs, sp))


if __name__ == "__main__":
    main()
