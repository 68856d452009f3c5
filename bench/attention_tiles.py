"""Attention forward over tilings: blk and Triton on the same source
(kernels/attention.blk, bench/triton_kernels.py) at each tiling, so that a
change of schedule can be judged at more than the harness's one tiling.

Here (with blkc):   python3 bench/attention_tiles.py --compile DIR [--blkc PATH] [--release-slots [--ping-pong]] [--source F]
  writes DIR/attention_tile.BMxBNxDxWARPSxSTAGES[.causal].ptx for each tiling
  (--release-slots: compiled with blkc's --release-slots).
On the GPU machine: python3 bench/attention_tiles.py --bundle .bundle --ptx-dir DIR [--reps N]
  checks each output against float64 (first two heads), times blk and Triton
  (CUDA events, median of N launches, best of three turns each) and prints a
  table of TFLOP/s, B=4 H=32 S=4096 bf16.
"""
import argparse
import os
import subprocess
import sys

TILINGS = [  # BLOCK_M, BLOCK_N, D, warps, stages
    (128, 64, 128, 8, 3),
    (128, 128, 128, 8, 2),
    (128, 128, 128, 8, 3),
    (128, 64, 64, 8, 3),
    (128, 128, 64, 8, 3),
]
SPEC = [f"stride_{t}{d}=16" for t in "qkvo" for d in ("b", "h")] + \
       ["stride_qm=16", "stride_kn=16", "stride_vn=16", "stride_om=16"]


def name(bm, bn, d, w, st, causal):
    return f"attention_tile.{bm}x{bn}x{d}x{w}x{st}{'.causal' if causal else ''}"


def compile_all(out, blkc, extra, source):
    os.makedirs(out, exist_ok=True)
    for bm, bn, d, w, st in TILINGS:
        for causal in (False, True):
            cmd = [blkc, source, "--kernel", "attention_forward",
                   "--arch", "sm_90a", "-D", "T=bf16", "-D", f"D={d}", "-D", f"BLOCK_M={bm}", "-D", f"BLOCK_N={bn}",
                   "-D", f"CAUSAL={causal}", "--num-warps", str(w), "--num-stages", str(st), "--align-pointers",
                   "-o", os.path.join(out, name(bm, bn, d, w, st, causal) + ".ptx"), "--ptxas-info"]
            for s in SPEC:
                cmd += ["--spec", s]
            cmd += extra
            r = subprocess.run(cmd, capture_output=True, text=True)
            info = (r.stdout + r.stderr).strip().splitlines()
            print(f"{name(bm, bn, d, w, st, causal)}: {info[-1] if info else ''}", flush=True)
            if r.returncode:
                sys.exit(r.returncode)


def run(bundle, ptx_dir, reps):
    import torch
    import triton
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import triton_kernels as tk
    from blk import Runtime
    from run import rel_err, time_events
    rt = Runtime(os.path.join(bundle, "lib", "libblk_runtime.so"))
    batch, heads, seq = 4, 32, 4096
    rows, failed = [], False
    for bm, bn, d, w, st in TILINGS:
        q, k, v = (torch.randn(batch, heads, seq, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        scale = d ** -0.5
        grid = (triton.cdiv(seq, bm), batch * heads)
        lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
        for causal in (False, True):
            o = torch.full_like(q, float("nan"))
            strides = [*q.stride()[:3], *k.stride()[:3], *v.stride()[:3], *o.stride()[:3]]
            args = (q, k, v, o, lse, scale, seq, seq, heads, 1, *strides)
            blk = rt.load(os.path.join(ptx_dir, name(bm, bn, d, w, st, causal) + ".ptx"),
                          "attention_forward").prepare(grid, *args)

            def tri():
                tk.attention_forward_kernel[grid](*args, D=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
                                                  num_warps=w, num_stages=st)
            # The first two heads against float64, each output poisoned first.
            qd, kd, vd = (x[0, :2].double() for x in (q, k, v))
            s = qd @ kd.transpose(-1, -2) * scale
            if causal:
                s = s.masked_fill(torch.ones(seq, seq, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
            ref = torch.softmax(s, -1) @ vd
            errs = {}
            for who, fn in (("blk", blk), ("Triton", tri)):
                o.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                errs[who] = rel_err(o[0, :2], ref)
            flops = 4 * batch * heads * seq * seq * d / (2 if causal else 1)
            # Best of three turns, each the median of `reps` launches.
            times = {who: min(time_events([fn], reps) for _ in range(3)) for who, fn in (("blk", blk), ("Triton", tri))}
            ok = all(e < 1e-2 for e in errs.values())  # inf where not finite
            failed |= not ok
            rows.append((f"{bm}x{bn} D={d} w{w} st{st}{' causal' if causal else ''}", flops / times["blk"] / 1e6,
                         flops / times["Triton"] / 1e6, errs["blk"], errs["Triton"], "ok" if ok else "FAIL"))
            print(rows[-1], flush=True)
    print(f"\nDevice: {torch.cuda.get_device_name()}; B={batch} H={heads} S={seq} bf16; median of {reps} "
          "launches, best of 3 turns\n")
    print("| tiling | blk TFLOP/s | Triton TFLOP/s | blk/Triton | rel err blk | rel err Triton | status |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for label, b, t, eb, et, status in rows:
        print(f"| {label} | {b:.0f} | {t:.0f} | {b / t:.3f} | {eb:.1e} | {et:.1e} | {status} |")
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--compile", metavar="DIR")
    p.add_argument("--blkc", default="build/bin/blkc")
    p.add_argument("--bundle")
    p.add_argument("--ptx-dir")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--release-slots", action="store_true")
    p.add_argument("--ping-pong", action="store_true", help="with --release-slots: blkc's --ping-pong")
    p.add_argument("--source", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                    "kernels", "attention.blk"),
                   help="the .blk file whose attention_forward is compiled (default: kernels/attention.blk)")
    a = p.parse_args()
    if a.compile:
        compile_all(a.compile, a.blkc, (["--release-slots"] if a.release_slots else []) +
                    (["--ping-pong"] if a.ping_pong else []), a.source)
        return 0
    if not a.bundle or not a.ptx_dir:
        p.error("--bundle and --ptx-dir, or --compile")
    return run(a.bundle, a.ptx_dir, a.reps)


if __name__ == "__main__":
    sys.exit(main())
