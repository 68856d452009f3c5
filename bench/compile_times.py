#!/usr/bin/env python3
"""Compile times of blk and Triton for the same kernels, to cubin, on one
machine: the kernels bench/run.py launches (blk's variant and its Triton twin,
paired as bench/compare_compiled.py pairs them), median of --runs runs each.

    python3 bench/compile_times.py [--blkc build/bin/blkc] [--runs 5] [--all | --filter REGEX] [--json OUT]

blk: `blkc ... --kernel NAME --emit=cubin` with the flags scripts/build-ptx.sh
gives the variant (ptxas included): the process's wall time, and the total of
its `--time` phases (in process: parse through ptxas, without process start
and LLVM's initialization). blkc keeps no cache: every run compiles. Without
blkc (a bundle on a GPU machine has none) or scripts/build-ptx.sh, this side
is skipped with a message.

Triton: triton.compile of an ASTSource (the signature, constexprs and
divisibility its JIT derives from the benchmark's arguments, as
bench/compare_compiled.py does) for GPUTarget("cuda", NN, 32), through
ptxas to cubin: in process with an empty cache directory for each run (the
process already warm: one compile runs before any is timed), in process with
the cache filled by the run before (a hit), and as a process (`python3` with
an empty TRITON_CACHE_DIR: interpreter start, `import triton`, compile).
Without Triton this side is skipped with a message.

Only numbers from one run of this script (one machine) compare with each
other. The table goes to standard output; --json writes the raw times."""
import argparse
import itertools
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# The cases compared by default (a regular expression over "case kernel
# variant twin", as compare_compiled.py's --filter): the elementwise kernels,
# one of each row kernel, the matmuls and the attention forward.
DEFAULT_FILTER = (r"^(vector_add f32|swiglu_fwd bf16|geglu_fwd bf16|kl_div \(.* f32|softmax_fwd bf16|"
                  r"rms_norm_fwd \(PyTorch|layer_norm_fwd bf16|kl_div_fwd |cross_entropy_fwd_bwd \(PyTorch|"
                  r"transpose f32|matmul bf16|matmul_tma bf16|attention fwd bf16|"
                  r"layout scan_axis1 f32 layout_stress\.f32\.128\.128\.st3)")


def triton_child(spec_json):
    """The process measurement's child: compile one twin and exit."""
    spec = json.loads(spec_json)
    sys.path.insert(0, HERE)
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import triton_kernels as tk
    fn = getattr(tk, spec["twin"])
    constexprs = {tuple(path): v for path, v in spec["constexprs"]}
    attrs = {tuple(path): v for path, v in spec["attrs"]}
    src = ASTSource(fn, spec["signature"], constexprs, attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", spec["capability"], 32), options=spec["options"])
    if not compiled.asm.get("cubin"):
        raise SystemExit("no cubin")


def serial_spec(twin, signature, constexprs, attrs, options, capability):
    return json.dumps(dict(twin=twin, signature=signature, constexprs=[[list(k), v] for k, v in constexprs.items()],
                           attrs=[[list(k), v] for k, v in attrs.items()], options=options, capability=capability))


def median_ms(values):
    return statistics.median(values) if values else None


def fmt(v):
    return "-" if v is None else f"{v:.1f}"


def blk_times(blkc, cmd, kernel, runs, tmp):
    """(process ms, in-process ms) medians of blkc to cubin."""
    out = os.path.join(tmp, "k.cubin")
    full = [blkc] + cmd + ["--kernel", kernel, "--emit=cubin", "--time", "-o", out]
    wall, inside = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run(full, capture_output=True, text=True)
        wall.append((time.perf_counter() - t0) * 1e3)
        if r.returncode != 0:
            lines = (r.stderr or r.stdout).strip().splitlines()
            raise RuntimeError("blkc: " + (lines[0] if lines else f"exit {r.returncode}"))
        m = re.search(r"^\s*total\s+([0-9.]+) ms", r.stderr, re.M)
        if m:
            inside.append(float(m.group(1)))
    return median_ms(wall), median_ms(inside)


def use_cache_dir(path):
    """Triton's cache directory from here on: the variable, and the knob
    that Triton 3.4 and later read it through (where set, it wins)."""
    os.environ["TRITON_CACHE_DIR"] = path
    try:
        from triton import knobs
        knobs.cache.dir = path
    except Exception:
        pass


def triton_times(tk, launch, capability, runs):
    """(process ms, in-process ms with an empty cache, in-process ms on a
    cache hit) medians of Triton to cubin."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from compare_compiled import triton_specialization
    fn = getattr(tk, launch.twin)
    signature, constexprs, attrs, options = triton_specialization(fn, launch)
    target = GPUTarget("cuda", capability, 32)
    saved = os.environ.get("TRITON_CACHE_DIR")
    cold, warm, proc = [], [], []
    try:
        for _ in range(runs):
            cache = tempfile.mkdtemp(prefix="triton-cache-")
            use_cache_dir(cache)
            for times in (cold, warm):  # the first compiles into the empty cache, the second hits it
                t0 = time.perf_counter()
                compiled = triton.compile(ASTSource(fn, signature, constexprs, attrs), target=target, options=options)
                times.append((time.perf_counter() - t0) * 1e3)
                if not os.listdir(cache):  # then the compile did not go through this cache
                    raise RuntimeError(f"Triton wrote nothing to the cache directory {cache}")
            if not compiled.asm.get("cubin"):
                raise RuntimeError("Triton produced no cubin")
            shutil.rmtree(cache, ignore_errors=True)
        spec = serial_spec(launch.twin, signature, constexprs, attrs, options, capability)
        for _ in range(runs):
            cache = tempfile.mkdtemp(prefix="triton-cache-")
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--triton-child", spec],
                               env=dict(os.environ, TRITON_CACHE_DIR=cache), capture_output=True, text=True)
            proc.append((time.perf_counter() - t0) * 1e3)
            shutil.rmtree(cache, ignore_errors=True)
            if r.returncode != 0:
                lines = (r.stderr or r.stdout).strip().splitlines()
                raise RuntimeError("child: " + (lines[-1] if lines else f"exit {r.returncode}"))
    finally:
        if saved is None:
            os.environ.pop("TRITON_CACHE_DIR", None)
        else:
            use_cache_dir(saved)
    return median_ms(proc), median_ms(cold), median_ms(warm)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--triton-child":
        triton_child(sys.argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blkc", default=os.path.join(ROOT, "build", "bin", "blkc"))
    ap.add_argument("--arch", default="sm_90a", help="target of both compilers (default sm_90a)")
    ap.add_argument("--runs", type=int, default=5, help="runs per measurement; the median is printed (default 5)")
    ap.add_argument("--only", help="run.py's --only (matmul, attention, layouts): these cases")
    ap.add_argument("--filter", default=DEFAULT_FILTER,
                    help="regular expression over 'case kernel variant twin' (default: one of each kind)")
    ap.add_argument("--all", action="store_true", help="every kernel the benchmark launches")
    ap.add_argument("--no-triton", action="store_true", help="blk's side only, even where Triton imports")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()
    m = re.fullmatch(r"sm_(\d+)[a-z]?", args.arch)
    if not m:
        ap.error(f"--arch {args.arch}: expected sm_NN or sm_NNa")
    capability = int(m.group(1))

    sys.path.insert(0, HERE)
    import compare_compiled as cc
    traced = cc.trace_rows(args.only)
    pairs, seen = [], set()
    for t in traced:
        for blk, launch in itertools.zip_longest(t.blk, t.triton):
            key = (blk, launch.key() if launch else None)
            text = " ".join([cc.label(t), *(blk or ("", "")), launch.twin if launch else ""])
            if key in seen or (not args.all and not re.search(args.filter, text)):
                continue
            seen.add(key)
            pairs.append((cc.label(t), blk, launch))

    notes = [f"Machine: {platform.node()}, {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs; "
             f"median of {args.runs} runs; target {args.arch}."]
    tmp = tempfile.mkdtemp(prefix="blk-compile-times-")
    commands, blkc = None, shutil.which(args.blkc) or (args.blkc if os.path.exists(args.blkc) else None)
    if blkc is None:
        notes.append(f"blk: skipped (no blkc at {args.blkc}: pass --blkc PATH; a bundle carries none).")
    else:
        try:
            commands = cc.variant_commands(args.arch, tmp)
            notes.append(f"blk: {blkc}, flags of scripts/build-ptx.sh, `--kernel NAME --emit=cubin`.")
        except (SystemExit, subprocess.CalledProcessError) as e:
            notes.append(f"blk: skipped (the variants' flags come from scripts/build-ptx.sh: {e}).")
    tk = None
    try:
        if args.no_triton:
            raise RuntimeError("--no-triton")
        import triton
        import triton_kernels as tk
        notes.append(f"Triton {triton.__version__}: triton.compile of an ASTSource for GPUTarget('cuda', "
                     f"{capability}, 32), through ptxas to cubin.")
    except Exception as e:
        notes.append(f"Triton: skipped ({e})." if args.no_triton else
                     f"Triton: skipped (not importable: {type(e).__name__}: {e}).")

    rows = []
    try:
        if tk is not None and pairs:  # the process warm before any timed compile
            first = next((launch for _, _, launch in pairs if launch), None)
            if first is not None:
                try:
                    triton_times(tk, first, capability, 1)
                except Exception:
                    pass
        for i, (case, blk, launch) in enumerate(pairs):
            row = dict(case=case, kernel=blk[1] if blk else None, variant=blk[0] if blk else None,
                       twin=launch.twin if launch else None)
            if blk and commands is not None:
                cmd = commands.get(blk[0])
                try:
                    if cmd is None:
                        raise RuntimeError(f"scripts/build-ptx.sh compiles no variant {blk[0]}")
                    row["blk_process_ms"], row["blk_in_process_ms"] = blk_times(blkc, cmd, blk[1], args.runs, tmp)
                    row["blk_command"] = " ".join(["blkc"] + cmd + ["--kernel", blk[1], "--emit=cubin"])
                except Exception as e:
                    row["blk_error"] = str(e)[:200]
            if launch and tk is not None:
                try:
                    (row["triton_process_ms"], row["triton_in_process_ms"],
                     row["triton_cache_hit_ms"]) = triton_times(tk, launch, capability, args.runs)
                except Exception as e:
                    msg = str(e).strip().splitlines()
                    row["triton_error"] = f"{type(e).__name__}: {msg[0] if msg else ''}"[:200]
            rows.append(row)
            print(f"[{i + 1}/{len(pairs)}] {case}: {row['kernel']} / {row['twin']}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("\n".join(notes))
    print()
    print("| case | blk variant | blk kernel | Triton twin | blk process (ms) | blk in process (ms) | "
          "Triton process (ms) | Triton in process, empty cache (ms) | Triton in process, cache hit (ms) | "
          "Triton/blk in process |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        b, t = r.get("blk_in_process_ms"), r.get("triton_in_process_ms")
        blk_cells = ([f"error: {r['blk_error']}", "-"] if "blk_error" in r else
                     [fmt(r.get("blk_process_ms")), fmt(b)])
        tri_cells = ([f"error: {r['triton_error']}", "-", "-"] if "triton_error" in r else
                     [fmt(r.get("triton_process_ms")), fmt(t), fmt(r.get("triton_cache_hit_ms"))])
        print(f"| {r['case']} | {r['variant'] or '-'} | {r['kernel'] or '-'} | {r['twin'] or '-'} | " +
              " | ".join(blk_cells + tri_cells) +
              f" | {fmt(t / b) if b and t else '-'} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(notes=notes, runs=args.runs, arch=args.arch, rows=rows), f, indent=1)
    return 1 if any("blk_error" in r or "triton_error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
