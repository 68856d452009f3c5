# A/B: split_k_matmul's atomic epilogue against the same kernel storing its
# partial tile (wrong sums, same loop), and Triton's twin; us, median of 3
# turns of 50 launches each (C zeroed before each launch in every contender).
import os, sys, statistics, torch, triton
sys.path.insert(0, os.path.join(os.getcwd(), ".bundle", "bench"))
from blk import Runtime
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_kernels as tk
rt = Runtime(".bundle/lib/libblk_runtime.so")
ptx = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sk.ptx")
dt = torch.bfloat16
sm, sk, split = 2048, 16384, 4
x = torch.randn(sm, sk, device="cuda", dtype=dt)
w = torch.randn(sk, sm, device="cuda", dtype=dt)
c = torch.zeros(sm, sm, device="cuda", dtype=torch.float32)
grid = (triton.cdiv(sm, 128) * triton.cdiv(sm, 128), split)
args = (x, w, c, sm, sm, sk, split, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
fns = {}
for path, name, key in [(ptx.replace("sk.ptx", "sk3.ptx"), "split_k_matmul", "acq_rel_mma_layout"),
                        (ptx.replace("sk.ptx", "sk3.ptx"), "split_k_relaxed", "relaxed_mma_layout"),
                        (ptx.replace("sk.ptx", "sk4.ptx"), "split_k_matmul", "acq_rel_rows"),
                        (ptx.replace("sk.ptx", "sk4.ptx"), "split_k_relaxed", "relaxed_rows"),
                        (ptx.replace("sk.ptx", "sk3.ptx"), "split_k_store", "store")]:
    f = rt.load(path, name).prepare(grid, *args)
    fns[key] = (lambda f: (lambda: (c.zero_(), f())))(f)
fns["triton"] = lambda: (c.zero_(), tk.split_k_matmul_kernel[grid](*args, GROUP_M=8, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=8, num_stages=3))
fns["zero_only"] = lambda: c.zero_()
fns["matmul_only_split1"] = None
ref = (x.double() @ w.double())
for name in ["acq_rel_mma_layout", "relaxed_mma_layout", "acq_rel_rows", "relaxed_rows", "triton"]:
    fns[name](); torch.cuda.synchronize()
    print(name, "rel err", float((c.double() - ref).norm() / ref.norm()))
del fns["matmul_only_split1"]
res = {k: [] for k in fns}
for turn in range(3):
    for k, f in fns.items():
        for _ in range(5): f()
        ts = []
        for _ in range(50):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); f(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b) * 1000)
        res[k].append(statistics.median(ts))
print("| contender | us (3 turns) |\n|---|---|")
for k, v in res.items():
    print(f"| {k} | {' / '.join(f'{t:.1f}' for t in v)} |")
