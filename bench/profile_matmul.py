#!/usr/bin/env python3
"""Launches blk's, Triton's and cuBLAS's bf16 matmul a few times each, for a
profiler (ncu) to read: `ncu --clock-control none -k regex:matmul python3
bench/profile_matmul.py --bundle .bundle`. Prints nothing of its own but the
kernels' names; timings belong to bench/run.py."""
import argparse, os, sys
import torch, triton
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from blk import Runtime
import triton_kernels as tk

ap = argparse.ArgumentParser()
ap.add_argument("--bundle", default=".bundle")
ap.add_argument("--n", type=int, default=4096)
ap.add_argument("--config", default=os.environ.get("BLK_MATMUL_CONFIG", "128.256.64.w8.st3"))
ap.add_argument("--ptx", help="a PTX file to time instead of the bundle's variant")
ap.add_argument("--reps", type=int, default=3)
args = ap.parse_args()
n = args.n
a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
rt = Runtime(os.path.join(args.bundle, "lib", "libblk_runtime.so"))
ptx = args.ptx or os.path.join(args.bundle, "ptx", f"matmul.bf16.bf16.{args.config}.spec.ptx")
bm, bn = (int(v) for v in args.config.split(".")[:2])
fn = rt.load(ptx, "matmul").prepare((triton.cdiv(n, bm) * triton.cdiv(n, bn),), a, b, c, n, n, n, n, 1, n, 1, n, 1)
for _ in range(args.reps):
    fn()
    tk.matmul_kernel[(triton.cdiv(n, 128) * triton.cdiv(n, 256),)](
        a, b, c, n, n, n, n, 1, n, 1, n, 1, BM=128, BN=256, BK=64, GROUP=8, num_warps=8, num_stages=3)
    torch.matmul(a, b)
torch.cuda.synchronize()
print("ok")
