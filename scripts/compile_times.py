#!/usr/bin/env python3
"""Per-phase compile times of each kernel variant (blkc --time, median of 5
runs), on this machine. Writes JSON (for bench/run.py's compile table) and
prints a markdown table.
    scripts/compile_times.py [--blkc build/bin/blkc] [--json FILE]"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("--blkc", default=os.path.join(root, "build", "bin", "blkc"))
ap.add_argument("--json")
ap.add_argument("--runs", type=int, default=5)
args = ap.parse_args()

results = {}
for path in sorted(glob.glob(os.path.join(root, "kernels", "*.blk"))):
    base = os.path.basename(path)[:-4]
    variants = next((l.split(":", 1)[1].split() for l in open(path) if l.startswith("# variants:")), ["-"])
    for v in variants:
        # As scripts/kernel-variants.sh spells them: options, then bindings.
        options = {"num_warps": ("--num-warps", "w"), "num_stages": ("--num-stages", "st")}
        items = [] if v == "-" else [d.split("=", 1) for d in v.split(",")]
        flags = {"release_slots": ("--release-slots", ".rel"), "ping_pong": ("--ping-pong", ".pp"),
                 "warp_specialize": ("--warp-specialize", ".ws")}
        defines = sum(([options[k][0], val] if k in options else [flags[k][0]] if k in flags
                       else ["-D", f"{k}={val}"] for k, val in items), [])
        name = base + "".join(flags[k][1] if k in flags else "." + (options[k][1] if k in options else "") + val
                              for k, val in items)
        phases = {}
        for _ in range(args.runs):
            r = subprocess.run([args.blkc, path, *defines, "--align-pointers", "--emit=cubin", "--time", "-o", os.devnull],
                               capture_output=True, text=True, check=True)
            for m in re.finditer(r"^\s+(\S+)\s+([0-9.]+) ms", r.stderr, re.M):
                phases.setdefault(m.group(1), []).append(float(m.group(2)))
        med = {k: statistics.median(v) for k, v in phases.items()}
        front = med.get("parse", 0) + med.get("frontend", 0) + med.get("layouts", 0) + med.get("lowering", 0)
        backend = med.get("llvm", 0) + med.get("ptx", 0)
        results[name] = dict(phases_ms=med, front_ms=front, llvm_ms=backend, total_ms=front + backend,
                             ptxas_ms=med.get("ptxas", 0))

print("| kernel | parse | frontend | layouts | lowering | LLVM IR (O3) | PTX codegen | to PTX | ptxas |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, r in results.items():
    p = r["phases_ms"]
    print(f"| {name} | {p.get('parse', 0):.2f} | {p.get('frontend', 0):.2f} | {p.get('layouts', 0):.2f} | "
          f"{p.get('lowering', 0):.2f} | {p.get('llvm', 0):.2f} | {p.get('ptx', 0):.2f} | {r['total_ms']:.1f} | "
          f"{r['ptxas_ms']:.1f} |")
if args.json:
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
