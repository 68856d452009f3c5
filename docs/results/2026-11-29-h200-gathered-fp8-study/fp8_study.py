# gathered_fp8_matmul, blk and Triton, as bench/run.py's dots rows launch them
# (n = 4096, 128x128x128 tiles, 8 warps, 3 stages): two launches each (ncu
# profiles the second), Triton's PTX and cubin written to $OUT/fp8-study.
import os, sys
sys.path.insert(0, ".bundle/bench")
import torch, triton
import triton_kernels as tk
from blk import Runtime
out = os.environ.get("OUT", "/tmp") + "/fp8-study"
os.makedirs(out, exist_ok=True)
rt = Runtime(".bundle/lib/libblk_runtime.so")
n = 4096
e4 = torch.float8_e4m3fn
w = torch.randn(n, n, device="cuda").to(e4)
rows_x, m = 4 * n, 2 * n
x = torch.randn(rows_x, n, device="cuda").to(e4)
idx = torch.randint(0, rows_x, (m,), device="cuda", dtype=torch.int32)
c = torch.empty(m, n, device="cuda")
grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
args = (x, idx, w, c, m, n, n, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
fn = rt.load(".bundle/ptx/fp8_dots.128.128.128.w8.st3.spec.ptx", "gathered_fp8_matmul").prepare(grid, *args)
for _ in range(2):
    fn()
torch.cuda.synchronize()
ref = (x[idx.long()][:256].double() @ w.double().t())
print("blk err", ((c[:256].double() - ref).norm() / ref.norm()).item())
mm = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, num_warps=8, num_stages=3)
for _ in range(2):
    k = tk.gathered_fp8_matmul_kernel[grid](*args, **mm)
torch.cuda.synchronize()
print("triton err", ((c[:256].double() - ref).norm() / ref.norm()).item())
for ext in ("ttgir", "ptx"):
    open(f"{out}/triton.{ext}", "w").write(k.asm[ext])
open(f"{out}/triton.cubin", "wb").write(k.asm["cubin"])
nf = rt.load(".devmini/nofence/fp8_dots.nofence.ptx", "gathered_fp8_matmul").prepare(grid, *args)
c.fill_(float("nan")); nf(); torch.cuda.synchronize()
print("blk no fence err", ((c[:256].double() - ref).norm() / ref.norm()).item())
contenders = (("blk", lambda: fn()), ("blk no fence", lambda: nf()),
              ("triton", lambda: tk.gathered_fp8_matmul_kernel[grid](*args, **mm)))
times = {k: [] for k, _ in contenders}
for turn in range(5):
    for name, f in contenders[turn % 3:] + contenders[:turn % 3]:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        f(); torch.cuda.synchronize(); s.record()
        for _ in range(20):
            f()
        e.record(); torch.cuda.synchronize()
        times[name].append(s.elapsed_time(e) * 1e3 / 20)
for name, ts in times.items():
    us = sorted(ts)[len(ts) // 2]
    print(name, "%.1f us, %.0f TFLOP/s" % (us, 2 * m * n * n / us / 1e6), ["%.1f" % t for t in ts])
