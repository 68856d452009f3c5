#!/usr/bin/env python3
"""A before/after comparison of a compiler change on any of run.py's suites: blk's
rows from several PTX directories, the runs alternating on one machine, with the
median of each row's blk time per directory side by side.

On the GPU machine:
    python3 bench/suite_ab.py --bundle .bundle --ptx-dir NAME=DIR [--ptx-dir NAME=DIR ...]
        --only SUITE [--only SUITE ...] [--turns 2] [--reps 10] [--out OUT]
A DIR may hold only the variants that differ (what `scripts/build-ptx.sh` with the
other blkc wrote differently, copied by `scripts/ptx-overlay.sh`): the bundle's ptx/
fills in the rest, so a bundle and an overlay of a few MiB fit one device call. NAME
`bundle` with DIR `-` is the bundle's own ptx/. Each turn runs every directory once
per suite, the first rotating from turn to turn; run.py writes OUT/NAME-SUITE-TURN/.

Anywhere (the table from results.json files already written, no GPU):
    python3 bench/suite_ab.py --summarize NAME=RESULTS.json[,RESULTS.json...] ...
The table: each row's blk time per directory (the median over its runs, in us), and
each directory's against the first (below 1: faster). Rows a run skipped or failed
show "-". With --over-triton each run's blk time is divided by Triton's time for the
same row in the same run before the median: the machine's drift from run to run
(Triton's own times move by several percent between two runs on one H200) cancels;
rows with no Triton time in any run are left out."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def named(value):
    name, sep, path = value.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {value!r}")
    return name, path


def rows_of(path, over_triton=False):
    """(case, shape) -> blk time in us of one results.json, rows with a time only
    (`over_triton`: blk's time over Triton's in the same run, rows with both)."""
    with open(path) as f:
        data = json.load(f)
    out = {}
    for row in data.get("rows", []):
        if not row.get("blk_us") or row["case"].startswith("ceiling/"):
            continue
        if over_triton and not row.get("triton_us"):
            continue
        value = float(row["blk_us"])
        out[(row["case"], row.get("shape") or "")] = value / float(row["triton_us"]) if over_triton else value
    return out


def table(runs, over_triton=False):
    """Markdown: `runs` maps each name, in order, to its results.json files."""
    names = list(runs)
    times = {n: {} for n in names}  # name -> key -> [us]
    order = []
    for n in names:
        for path in runs[n]:
            for key, us in rows_of(path, over_triton).items():
                times[n].setdefault(key, []).append(us)
                if key not in order:
                    order.append(key)
    unit = "blk/Triton" if over_triton else "us"
    head = ["case", "shape"] + [f"{n} ({unit})" for n in names] + [f"{n}/{names[0]}" for n in names[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    for key in order:
        med = [statistics.median(times[n][key]) if times[n].get(key) else None for n in names]
        cells = [key[0], key[1]] + [(f"{m:.3f}" if over_triton else f"{m:.1f}") if m is not None else "-" for m in med]
        for m in med[1:]:
            cells.append(f"{m / med[0]:.3f}" if m is not None and med[0] else "-")
        lines.append("| " + " | ".join(cells) + " |")
    runs_line = ", ".join(f"{n}: {len(runs[n])} run{'s' if len(runs[n]) != 1 else ''}" for n in names)
    what = "blk's time over Triton's in the same run" if over_triton else "blk's time"
    return "\n".join(lines) + f"\n\n{runs_line}; each cell the median of its runs' {what}.\n"


def merged_dir(bundle, overlay, scratch):
    """The bundle's ptx/ with `overlay`'s files in place of its own (a copy
    under `scratch`, not under the results)."""
    base = os.path.join(bundle, "ptx")
    if overlay == "-":
        return base
    out = tempfile.mkdtemp(dir=scratch)
    os.rmdir(out)
    shutil.copytree(base, out)
    for f in os.listdir(overlay):
        shutil.copy(os.path.join(overlay, f), os.path.join(out, f))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=".bundle")
    ap.add_argument("--ptx-dir", type=named, action="append", metavar="NAME=DIR")
    ap.add_argument("--only", action="append", metavar="SUITE")
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--out", default="ab-out")
    ap.add_argument("--summarize", type=named, action="append", metavar="NAME=RESULTS.json[,...]")
    ap.add_argument("--over-triton", action="store_true",
                    help="each run's blk time over Triton's for the same row in the same run")
    args = ap.parse_args()

    if args.summarize:
        print(table({n: paths.split(",") for n, paths in args.summarize}, args.over_triton), end="")
        return 0
    if not args.ptx_dir or len(args.ptx_dir) < 2 or not args.only:
        ap.error("give two or more --ptx-dir NAME=DIR and one or more --only SUITE (or --summarize)")
    if len({n for n, _ in args.ptx_dir}) != len(args.ptx_dir):
        ap.error("each --ptx-dir needs a name of its own")
    os.makedirs(args.out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="suite-ab-")
    try:
        return run_turns(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run_turns(args, scratch):
    dirs = [(n, merged_dir(args.bundle, d, scratch)) for n, d in args.ptx_dir]
    runs = {n: [] for n, _ in dirs}
    for r in range(args.turns):
        for suite in args.only:
            for i in range(len(dirs)):
                name, ptx = dirs[(r + i) % len(dirs)]
                out = os.path.join(args.out, f"{name}-{suite}-{r}")
                cmd = [sys.executable, os.path.join(HERE, "run.py"), "--bundle", args.bundle, "--ptx-dir", ptx,
                       "--out", out, "--only", suite, "--reps", str(args.reps)]
                print("$ " + " ".join(cmd), flush=True)
                done = subprocess.run(cmd, stdout=subprocess.DEVNULL)
                results = os.path.join(out, "results.json")
                if done.returncode == 0 and os.path.exists(results):
                    runs[name].append(results)
                else:
                    print(f"{name} {suite} turn {r}: run.py exited {done.returncode}", flush=True)
    print(table(runs, args.over_triton), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
