"""Loops given num_stages (range(..., num_stages=N)): the softmax forward and
backward in the fused-softmax tutorial's form, RoPE walking rows, and the norm
backwards with their row loops pipelined, against the shipped kernels, in
alternating turns (H200). python3 .devmini/stages/stages_sweep.py .bundle"""
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
SMS = torch.cuda.get_device_properties(0).multi_processor_count
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


def check(name, out, ref, tol=1e-2):
    err = ((out.double() - ref).norm() / ref.norm()).item()
    ok = err < tol and torch.isfinite(out).all().item()
    print(f"check {name}: {err:.2e} {'ok' if ok else 'FAIL'}", flush=True)
    assert ok, name


def new(name):
    return os.path.join(here, "ptx", name + ".ptx")


# Softmax forward and backward, 8192x4096 bf16.
M, N = 8192, 4096
xs = [torch.randn(M, N, device="cuda", dtype=torch.bfloat16) * 2 for _ in range(4)]
ys = [torch.empty_like(x) for x in xs]
ref = torch.softmax(xs[0].double(), dim=1)
cont = {}
base = rt.load(os.path.join(ptx, "softmax.bf16.4096.w8.s16.ptx"), "softmax_forward")
cont["shipped w8"] = [base.prepare((M,), x, y, N, N) for x, y in zip(xs, ys)]
for w, k, s in [(8, 4, 2), (8, 8, 2), (8, 4, 3), (8, 8, 3), (4, 8, 2), (4, 16, 2), (4, 8, 3), (4, 16, 3)]:
    kern = rt.load(new(f"softmax_rows.w{w}.s{s}"), "softmax_forward_rows")
    cont[f"rows w{w} {k}/SM stages {s}"] = [kern.prepare((k * SMS,), x, y, M, N, N) for x, y in zip(xs, ys)]
for name, fns in cont.items():
    ys[0].fill_(float("nan"))
    fns[0]()
    torch.cuda.synchronize()
    check("softmax_fwd " + name, ys[0], ref)
for k, us in turns(cont).items():
    results.append(("softmax_fwd 8192x4096 bf16", k, us, 2 * M * N * 2 / us / 1e3))

dys = [torch.randn(M, N, device="cuda", dtype=torch.bfloat16) for _ in range(2)]
yb = [torch.softmax(x, dim=1) for x in xs[:2]]
dxs = [torch.empty_like(x) for x in xs[:2]]
yd, dyd = yb[0].double(), dys[0].double()
ref = yd * (dyd - (dyd * yd).sum(1, keepdim=True))
cont = {}
base = rt.load(os.path.join(ptx, "softmax.bf16.4096.w8.s16.ptx"), "softmax_backward")
cont["shipped w8"] = [base.prepare((M,), dy, y, dx, N, N) for dy, y, dx in zip(dys, yb, dxs)]
for w, k, s in [(8, 4, 2), (8, 8, 2), (4, 8, 2), (4, 16, 2), (8, 4, 3)]:
    kern = rt.load(new(f"softmax_rows.w{w}.s{s}"), "softmax_backward_rows")
    cont[f"rows w{w} {k}/SM stages {s}"] = [kern.prepare((k * SMS,), dy, y, dx, M, N, N)
                                             for dy, y, dx in zip(dys, yb, dxs)]
for name, fns in cont.items():
    dxs[0].fill_(float("nan"))
    fns[0]()
    torch.cuda.synchronize()
    check("softmax_bwd " + name, dxs[0], ref)
for k, us in turns(cont).items():
    results.append(("softmax_bwd 8192x4096 bf16", k, us, 3 * M * N * 2 / us / 1e3))
del xs, ys, dys, yb, dxs

# RoPE forward 4x4096, 32+8 heads, D=128, bf16, in place over rotating sets.
batch, seq, nq, nk, hd = 4, 4096, 32, 8, 128
inv = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, device="cuda", dtype=torch.float32) / hd))
emb = torch.arange(seq, device="cuda", dtype=torch.float32)[:, None] * inv[None, :]
emb = torch.cat((emb, emb), dim=-1)
cos, sin = emb.cos().to(torch.bfloat16)[None], emb.sin().to(torch.bfloat16)[None]
qk_bytes = batch * seq * (nq + nk) * hd * 2
sets = max(1, (256 << 20) // qk_bytes + 1)
qs = [torch.randn(batch, seq, nq, hd, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]
ks = [torch.randn(batch, seq, nk, hd, device="cuda", dtype=torch.bfloat16) for _ in range(sets)]


def rope_ref(x):
    x = x.double()
    c, s = cos.double()[:, :, None, :], sin.double()[:, :, None, :]
    rot = torch.cat((-x[..., hd // 2:], x[..., :hd // 2]), dim=-1)
    return x * c + rot * s


cont = {}
k0 = rt.load(os.path.join(ptx, "rope.bf16.w8.spec.ptx"), "rope_forward")
cont["shipped w8"] = [k0.prepare((batch * seq,), q, q.stride(1), kk, kk.stride(1), cos, cos.stride(1), sin,
                                 sin.stride(1), seq, 1, nq, nk, hd) for q, kk in zip(qs, ks)]
for w, k, s in [(8, 4, 2), (8, 8, 2), (8, 4, 3), (4, 8, 2), (4, 16, 2)]:
    kern = rt.load(new(f"rope_rows.w{w}.s{s}"), "rope_forward_rows")
    cont[f"rows w{w} {k}/SM stages {s}"] = [
        kern.prepare((k * SMS,), q, q.stride(1), kk, kk.stride(1), cos, cos.stride(1), sin, sin.stride(1),
                     batch * seq, seq, 1, nq, nk, hd) for q, kk in zip(qs, ks)]
q_in, k_in = qs[0].clone(), ks[0].clone()
rq, rk = rope_ref(q_in), rope_ref(k_in)
for name, fns in cont.items():
    qs[0].copy_(q_in)
    ks[0].copy_(k_in)
    fns[0]()
    torch.cuda.synchronize()
    check("rope " + name + " q", qs[0], rq)
    check("rope " + name + " k", ks[0], rk)
nbytes = 2 * qk_bytes + 2 * cos.numel() * 2
for k, us in turns(cont).items():
    results.append(("rope_fwd 4x4096 32+8 D=128 bf16", k, us, nbytes / us / 1e3))
del qs, ks

# Norm backwards, 8192x4096 bf16, two programs per SM, the partial rows' sum
# not included (the same kernel for both).
dt = torch.bfloat16
xs = [torch.randn(M, N, device="cuda", dtype=dt) * 2 for _ in range(2)]
dys = [torch.randn(M, N, device="cuda", dtype=dt) for _ in range(2)]
w = torch.rand(N, device="cuda", dtype=dt) + 0.5
dxs = [torch.empty_like(x) for x in xs]
programs = 2 * SMS
per = (M + programs - 1) // programs
part = torch.empty(programs, N, device="cuda", dtype=torch.float32)
part2 = torch.empty(programs, N, device="cuda", dtype=torch.float32)
rstds = [torch.rsqrt(x.float().pow(2).mean(1) + 1e-6) for x in xs]
x0, dy0, r0 = xs[0].double(), dys[0].double(), rstds[0].double()
m0 = dy0 * w.double()
ref = r0[:, None] * m0 - (r0 ** 3 / N)[:, None] * (m0 * x0).sum(1, keepdim=True) * x0
cont = {}
for label, path in [("shipped", os.path.join(ptx, "rms_norm.bf16.4096.w8.s16.ptx")),
                    ("loop num_stages=2", new("rms_norm.s2")), ("loop num_stages=3", new("rms_norm.s3"))]:
    kern = rt.load(path, "rms_norm_backward")
    cont[label] = [kern.prepare((programs,), dy, x, w, r, dx, part, M, N, N, 0.0, per)
                   for x, dy, r, dx in zip(xs, dys, rstds, dxs)]
for name, fns in cont.items():
    dxs[0].fill_(float("nan"))
    fns[0]()
    torch.cuda.synchronize()
    check("rms_norm_bwd " + name, dxs[0], ref)
for k, us in turns(cont).items():
    results.append(("rms_norm_bwd kernel 8192x4096 bf16", k, us, 3 * M * N * 2 / us / 1e3))

means = [x.float().mean(1) for x in xs]
lrstds = [torch.rsqrt(x.float().var(1, unbiased=False) + 1e-5) for x in xs]
xh = (x0 - means[0].double()[:, None]) * lrstds[0].double()[:, None]
wdy = w.double() * dy0
ref = (wdy - (xh * (xh * wdy).sum(1, keepdim=True) / N + wdy.sum(1, keepdim=True) / N)) * lrstds[0].double()[:, None]
cont = {}
for label, path in [("shipped", os.path.join(ptx, "layer_norm.bf16.4096.w4.s16.ptx")),
                    ("loop num_stages=2", new("layer_norm.s2")), ("loop num_stages=3", new("layer_norm.s3")),
                    ("8 warps", new("layer_norm.w8.s1")), ("8 warps, loop num_stages=2", new("layer_norm.w8.s2"))]:
    kern = rt.load(path, "layer_norm_backward")
    cont[label] = [kern.prepare((programs,), dy, x, w, m, r, dx, part, part2, M, N, N, per)
                   for x, dy, m, r, dx in zip(xs, dys, means, lrstds, dxs)]
for name, fns in cont.items():
    dxs[0].fill_(float("nan"))
    fns[0]()
    torch.cuda.synchronize()
    check("layer_norm_bwd " + name, dxs[0], ref)
for k, us in turns(cont).items():
    results.append(("layer_norm_bwd kernel 8192x4096 bf16", k, us, 3 * M * N * 2 / us / 1e3))

print("| case | variant | us | GB/s |")
print("|---|---|---:|---:|")
for case, k, us, gbs in results:
    print(f"| {case} | {k} | {us:.1f} | {gbs:.0f} |")
