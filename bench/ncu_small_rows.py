#!/usr/bin/env python3
"""The harness's small-size rows against ncu's kernel durations.

bench/run.py times a row as CUDA graphs when a contender's kernel takes under
GRAPH_BELOW_US (launch cost would otherwise be inside the window). Whether the
graph figures are the kernels' own times is checked here: on the GPU machine,
from the bundle (scripts/make-bundle.sh copies bench/ into it),

    python3 .bundle/bench/ncu_small_rows.py --bundle .bundle [--only SUITE | --cases F,G] [--filter REGEX] [--out DIR]

1. runs run.py's cases (its SUITES; --only picks one, as run.py's --only;
   --cases names run.py's case functions, e.g. run_cases) with
   run.py's Harness, timing every row as run.py does (no ncu), and keeps the
   rows timed as CUDA graphs (sweep points included);
2. runs the same cases again under ncu (--profile-from-start off, NVTX on):
   the contenders are checked as in run.py but not timed, and for each kept
   row blk's and Triton's launches (--launches of each, cycling through the
   row's input sets) run between cudaProfilerStart/Stop, each launch in an
   NVTX range that names it; ncu records gpu__time_duration.sum of every
   kernel there (clocks not locked: --clock-control none; caches flushed
   before each kernel, as the cycled input sets leave them cold);
3. prints one line per row: the harness's time, the median over launches of
   the summed kernel durations of one launch, and their ratio, for blk and
   for Triton, then how many are within 10%.

Writes DIR/harness.json, DIR/small-rows.ncu-rep, DIR/ncu.csv and
DIR/small-rows.json. Exits non-zero on any failure: a harness FAIL, a stage
that exits non-zero, ncu missing, or a kept row with no ncu durations for a
contender the harness timed.
"""
import argparse
import csv
import io
import json
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONTENDERS = (("blk_us", "blk"), ("triton_us", "triton"))
RANGE = re.compile(r"ncu:(\d+):(blk|triton):(\d+)")


def arg_parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=".bundle")
    ap.add_argument("--only", help="run.py's --only: one of its SUITES (default: every case, as run.py)")
    ap.add_argument("--cases", help="run.py's case functions to run instead of a suite, comma-separated "
                                    "(e.g. run_cases: the elementwise rows and sweeps, which only the full suite runs)")
    ap.add_argument("--filter", help="keep only the small rows whose 'case shape dtype' matches this regex")
    ap.add_argument("--reps", type=int, default=100, help="run.py's --reps for the harness timing (100)")
    ap.add_argument("--launches", type=int, default=5, help="profiled launches per row and contender (5)")
    ap.add_argument("--out", default="ncu-small-rows")
    ap.add_argument("--ncu", default="ncu", help="the ncu executable")
    ap.add_argument("--stage", choices=["time", "profile"], help=argparse.SUPPRESS)
    ap.add_argument("--rows", help=argparse.SUPPRESS)  # profile: record indexes to profile
    ap.add_argument("--json", help=argparse.SUPPRESS)  # time: where the harness rows go
    return ap


def load_run():
    """run.py as a module (imports torch and Triton; the GPU machine only)."""
    sys.path.insert(0, HERE)
    import run
    return run


def harness_class(run, stage, wanted=(), launches=0):
    """run.py's Harness, counting its record() calls: `time` keeps each
    call's row; `profile` checks without timing and profiles the calls in
    `wanted` under NVTX ranges."""
    import inspect

    import torch

    class Counted(run.Harness):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.calls, self.kept, self.profiled = 0, [], []

        def record(self, *args, **kwargs):
            bound = inspect.signature(run.Harness.record).bind(self, *args, **kwargs)
            bound.apply_defaults()
            a = bound.arguments
            index = self.calls
            self.calls += 1
            fns = {"blk_us": a["blk_fns"]}
            triton_fns = a["triton_fns"]

            def captured_triton():
                fns["triton_us"] = list(triton_fns())
                return fns["triton_us"]
            a["triton_fns"] = captured_triton
            row = run.Harness.record(*bound.args, **bound.kwargs)
            what = f"{a['case']} {a['shape']} {run.DT[a['dtype']]}"
            if stage == "time":
                self.kept.append(dict(index=index, row=what, method=row.get("method"), status=row.get("status"),
                                      blk_us=row.get("blk_us"), triton_us=row.get("triton_us")))
            elif index in wanted:
                self.profile(index, what, row, fns)
            return row

        def profile(self, index, what, row, fns):
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
            try:
                for key, name in CONTENDERS:
                    if key not in fns or row.get(key) is None:  # failed its check, or no such contender
                        continue
                    for i in range(launches):
                        torch.cuda.nvtx.range_push(f"ncu:{index}:{name}:{i}")
                        fns[key][i % len(fns[key])]()
                        torch.cuda.nvtx.range_pop()
                    self.profiled.append(dict(index=index, row=what, contender=key))
                torch.cuda.synchronize()
            finally:
                torch.cuda.profiler.stop()

        def time_row(self, contenders, rounds, settle):
            if stage == "time":
                return super().time_row(contenders, rounds, settle)
            return dict({k: 1.0 for k in contenders}, method="not timed (ncu stage)", turns=0)

    return Counted


def run_stage(args):
    """One stage, in this process: run.py's cases through the counted Harness."""
    run = load_run()
    if args.cases:
        missing = [c for c in args.cases.split(",") if not callable(getattr(run, c, None))]
        if missing:
            sys.exit(f"ncu_small_rows.py: --cases: run.py has no {', '.join(missing)}")
        suite = [getattr(run, c) for c in args.cases.split(",")]
    elif args.only in run.SUITES:
        suite = run.SUITES[args.only]
    else:
        sys.exit(f"ncu_small_rows.py: --only {args.only}: not one of run.py's SUITES "
                 f"({', '.join(k for k in run.SUITES if k)})")
    wanted = {int(i) for i in args.rows.split(",")} if args.rows else set()
    h = harness_class(run, args.stage, wanted, args.launches)(args.bundle, args.reps)
    run.run_suite(h, suite)
    if args.stage == "time":
        with open(args.json, "w") as f:
            json.dump(dict(device=h.device, rows=h.kept, failures=h.failures), f, indent=1)
    else:
        missing = wanted - {p["index"] for p in h.profiled}
        if missing:
            h.fail(f"rows {sorted(missing)} were not reached in the ncu stage")
    return 1 if h.failures else 0


def ncu_durations(csv_text):
    """{(record index, contender, launch): summed ns} from ncu's raw CSV page,
    kernels named by their NVTX range (--print-nvtx-rename kernel)."""
    lines = [line for line in csv_text.splitlines() if line.startswith('"')]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    if not rows:
        raise ValueError("ncu printed no CSV")
    head = rows[0]
    try:
        name_col, time_col = head.index("Kernel Name"), head.index("gpu__time_duration.sum")
    except ValueError:
        raise ValueError(f"ncu's CSV lacks 'Kernel Name' or 'gpu__time_duration.sum': {head[:12]}")
    scale = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}
    unit, out = 1.0, {}
    for r in rows[1:]:
        value = r[time_col].replace(",", "")
        try:
            t = float(value)
        except ValueError:  # the units row
            unit = scale.get(value, unit)
            continue
        m = RANGE.search(r[name_col])
        if m:
            key = (int(m.group(1)), m.group(2), int(m.group(3)))
            out[key] = out.get(key, 0.0) + t * unit
    return out


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def fmt(v, f="{:.2f}"):
    return "-" if v is None else f.format(v)


def main():
    args = arg_parser().parse_args()
    if args.stage:
        return run_stage(args)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    me = [sys.executable, os.path.abspath(__file__), "--bundle", args.bundle, "--reps", str(args.reps),
          "--launches", str(args.launches)] + (["--only", args.only] if args.only else []) \
        + (["--cases", args.cases] if args.cases else [])

    harness_json = os.path.join(out, "harness.json")
    print("stage 1: the harness's timing (run.py's cases, no ncu)", flush=True)
    if subprocess.run(me + ["--stage", "time", "--json", harness_json]).returncode != 0:
        print("FAIL: the harness stage failed (see above)")
        return 1
    with open(harness_json) as f:
        timed = json.load(f)
    small = [r for r in timed["rows"] if r["method"] == "graph"
             and (not args.filter or re.search(args.filter, r["row"]))]
    if not small:
        print("FAIL: no row was timed as CUDA graphs" + (f" matching {args.filter!r}" if args.filter else ""))
        return 1

    report = os.path.join(out, "small-rows")
    cmd = [args.ncu, "--nvtx", "--profile-from-start", "off", "--metrics", "gpu__time_duration.sum",
           "--clock-control", "none", "--cache-control", "all", "--target-processes", "all", "-f", "-o", report]
    cmd += me + ["--stage", "profile", "--rows", ",".join(str(r["index"]) for r in small)]
    print(f"stage 2: {len(small)} rows under ncu\n$ {shlex.join(cmd)}", flush=True)
    try:
        if subprocess.run(cmd).returncode != 0:
            print("FAIL: the ncu stage failed (see above)")
            return 1
        export = subprocess.run([args.ncu, "--import", report + ".ncu-rep", "--csv", "--page", "raw",
                                 "--print-units", "base", "--print-nvtx-rename", "kernel"],
                                capture_output=True, text=True)
    except FileNotFoundError:
        print(f"FAIL: {args.ncu} not found")
        return 1
    if export.returncode != 0:
        print(f"FAIL: ncu --import exited {export.returncode}: {export.stderr.strip()[-500:]}")
        return 1
    with open(os.path.join(out, "ncu.csv"), "w") as f:
        f.write(export.stdout)
    try:
        durations = ncu_durations(export.stdout)
    except ValueError as e:
        print(f"FAIL: {e}")
        return 1

    failures, table, within, compared = [], [], 0, 0
    for r in small:
        line = dict(row=r["row"])
        for key, name in CONTENDERS:
            per_launch = [v / 1e3 for (i, c, _), v in durations.items() if i == r["index"] and c == name]
            harness = r.get(key)
            kernel = median(per_launch) if per_launch else None
            if harness is not None and kernel is None:
                failures.append(f"{r['row']}: no ncu duration for {name}")
            ratio = harness / kernel if harness and kernel else None
            if ratio is not None:
                compared += 1
                within += abs(ratio - 1) <= 0.10
            line.update({f"{name}_harness_us": harness, f"{name}_ncu_us": kernel, f"{name}_ratio": ratio})
        table.append(line)
    with open(os.path.join(out, "small-rows.json"), "w") as f:
        json.dump(dict(device=timed["device"], rows=table, failures=failures), f, indent=1)

    width = max(len(t["row"]) for t in table)
    print(f"\n{'row':{width}}  blk harness us  blk ncu us  ratio  Triton harness us  Triton ncu us  ratio")
    for t in table:
        print(f"{t['row']:{width}}  {fmt(t['blk_harness_us']):>14}  {fmt(t['blk_ncu_us']):>10}  "
              f"{fmt(t['blk_ratio'], '{:.3f}'):>5}  {fmt(t['triton_harness_us']):>17}  "
              f"{fmt(t['triton_ncu_us']):>13}  {fmt(t['triton_ratio'], '{:.3f}'):>5}")
    print(f"\n{within} of {compared} harness times within 10% of ncu's kernel duration ({timed['device']}); "
          f"ratio = harness / ncu")
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
