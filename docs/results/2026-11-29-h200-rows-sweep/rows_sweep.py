"""Softmax forward with several rows per program and RoPE at other warp
counts, against the shipped variants, in alternating turns (H200 sweep).
python3 .devmini/sweep/rows_sweep.py .bundle"""
import os
import sys

bundle = sys.argv[1]
sys.path.insert(0, os.path.join(bundle, "bench"))
import torch  # noqa: E402
from run import GraphTimer  # noqa: E402
from blk import Runtime  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
rt = Runtime(os.path.join(bundle, "lib", "libblk_runtime.so"))
ptx = os.path.join(bundle, "ptx")
results = []


def turns(contenders, n=3, reps=20):
    timers = {k: GraphTimer(rt, fns, reps) for k, fns in contenders.items()}
    times = {k: [] for k in contenders}
    keys = list(contenders)
    for t in range(n):
        order = keys[t % len(keys):] + keys[:t % len(keys)]
        for k in order:
            times[k].append(timers[k]())
    return {k: sorted(v)[len(v) // 2] for k, v in times.items()}


# Softmax forward, 8192x4096 bf16, 4 input sets (256 MiB).
M, N = 8192, 4096
xs = [torch.randn(M, N, device="cuda", dtype=torch.bfloat16) for _ in range(4)]
ys = [torch.empty_like(x) for x in xs]
ref = torch.softmax(xs[0].double(), dim=1)
contenders = {}
base = rt.load(os.path.join(ptx, "softmax.bf16.4096.w8.s16.ptx"), "softmax_forward")
contenders["shipped w8"] = [base.prepare((M,), x, y, N, N) for x, y in zip(xs, ys)]
for rw in ["1.1", "1.2", "1.4", "1.8", "2.2", "2.4", "2.8", "4.4", "4.8", "8.8"]:
    r, w = map(int, rw.split("."))
    k = rt.load(os.path.join(here, f"sm.r{r}.w{w}.ptx"), "softmax_rows")
    contenders[f"rows R={r} W={w}"] = [k.prepare(((M + r - 1) // r,), x, y, M, N, N) for x, y in zip(xs, ys)]
for name, fns in contenders.items():
    ys[0].fill_(float("nan"))
    fns[0]()
    torch.cuda.synchronize()
    err = ((ys[0].double() - ref).norm() / ref.norm()).item()
    assert err < 1e-2, (name, err)
nbytes = 2 * M * N * 2
for k, us in turns(contenders).items():
    results.append(("softmax_fwd 8192x4096 bf16", k, us, nbytes / us / 1e3))

# RoPE forward, 4x4096, 32+8 heads, D=128, bf16, rotating sets.
batch, seq, nq, nk, hd = 4, 4096, 32, 8, 128
inv = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, device="cuda", dtype=torch.float32) / hd))
emb = torch.arange(seq, device="cuda", dtype=torch.float32)[:, None] * inv[None, :]
emb = torch.cat((emb, emb), dim=-1)
cos, sin = emb.cos().to(torch.bfloat16)[None], emb.sin().to(torch.bfloat16)[None]
qk_bytes = batch * seq * (nq + nk) * hd * 2
sets = max(1, (256 << 20) // qk_bytes + 1)
qs = [torch.randn(batch, seq, nq, hd, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
ks = [torch.randn(batch, seq, nk, hd, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
contenders = {}
for w in (8, 4, 16):
    path = os.path.join(ptx, "rope.bf16.w8.spec.ptx") if w == 8 else os.path.join(here, f"rope.w{w}.ptx")
    k = rt.load(path, "rope_forward")
    contenders[f"{'shipped ' if w == 8 else ''}w{w}"] = [
        k.prepare((batch * seq,), q, q.stride(1), kk, kk.stride(1), cos, cos.stride(1), sin, sin.stride(1), seq, 1,
                  nq, nk, hd) for q, kk in zip(qs, ks)]
nbytes = 2 * qk_bytes + 2 * cos.numel() * 2
for k, us in turns(contenders).items():
    results.append(("rope_fwd 4x4096 32+8 D=128 bf16", k, us, nbytes / us / 1e3))

print("| case | variant | us | GB/s |")
print("|---|---|---:|---:|")
for case, k, us, gbs in results:
    print(f"| {case} | {k} | {us:.1f} | {gbs:.0f} |")
