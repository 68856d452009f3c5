#!/usr/bin/env python3
"""blk's benchmark harness: every kernel of kernels/ next to the same algorithm
in Triton and PyTorch eager, with the device's limits measured in the same run.

One command on the GPU machine, from the bundle that scripts/make-bundle.sh
makes (PTX, libblk_runtime.so, blk-bench, compile-times.json):

    python3 bench/run.py --bundle .bundle --out OUTDIR

Correctness first: each blk output is compared with a float64 PyTorch
reference computed from the same inputs; a wrong result is reported FAIL and
not timed. Timing: CUDA events around each launch, warm-up, median of at least
100 launches, random inputs rotated so that the data read per launch set
exceeds L2. Writes results.json (with the device, date and command),
results.md and one PNG per sweep; bench/report.py makes the tables of
docs/performance.md from stored results.json files."""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time

# An empty Triton cache, so that the first call of each reference kernel
# measures its compilation.
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")

import torch  # noqa: E402
import triton  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_kernels as tk  # noqa: E402
from blk import Runtime  # noqa: E402
from report import COMPILE_FILES, fmt, results_md  # noqa: E402

ROTATE_BYTES = 256 << 20  # each timing rotates through at least this much input data
TOL = {torch.float32: 1e-5, torch.float16: 5e-3, torch.bfloat16: 1e-2, torch.int32: 0.5}
DT = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16", torch.int32: "i32"}


def median_us(fns, reps=100, warmup=10):
    """Median over `reps` launches, each timed with its own pair of CUDA events;
    launch i runs fns[i % len(fns)] (rotation over input sets)."""
    for i in range(warmup):
        fns[i % len(fns)]()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stops = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        starts[i].record()
        fns[i % len(fns)]()
        stops[i].record()
    torch.cuda.synchronize()
    t = sorted(a.elapsed_time(b) * 1e3 for a, b in zip(starts, stops))
    return t[len(t) // 2]


def rel_err(out, ref):
    o = out.double()
    if not torch.isfinite(o).all():
        return math.inf
    return (torch.linalg.vector_norm(o - ref) / torch.linalg.vector_norm(ref)).item()


class Harness:
    def __init__(self, bundle, reps, ptx_dir=None):
        self.bundle, self.reps = bundle, reps
        self.ptx_dir = ptx_dir or os.path.join(bundle, "ptx")
        self.rt = Runtime(os.path.join(bundle, "lib", "libblk_runtime.so"))
        self.rows, self.sweeps, self.compile_rows = [], {}, []
        self.triton_first_call = {}
        self.device = torch.cuda.get_device_name()

    def load(self, ptx, name):
        """Kernel `name` of <ptx>.ptx in the bundle's ptx/ (or --ptx-dir)."""
        return self.rt.load(os.path.join(self.ptx_dir, ptx + ".ptx"), name)

    def kernel(self, file, dtype, name, spec=True):
        return self.load(f"{file}.{DT[dtype]}{'.n16' if spec else ''}", name)

    def record(self, case, shape, dtype, err, nbytes, blk_fns, triton_fns, torch_fns, record=True, rounds=1):
        """One row of the table: blk checked against float64 first (a FAIL is
        not timed), then blk, Triton and PyTorch timed in the same run.
        `triton_fns` is called only when blk passes (Triton compiles then).
        With `rounds` > 1 the three take turns, one median per turn, and each
        gets the median of its turns: compute-bound kernels run at the power
        limit, where the clock drifts, and whichever is timed first or after
        a heavy neighbour would otherwise be favoured or penalized."""
        row = dict(case=case, shape=shape, dtype=DT[dtype], rel_err=err, unit="GB/s")
        if not err < TOL[dtype]:
            row.update(status=f"FAIL (rel err {err:.2e})", blk_us=None, triton_us=None, torch_us=None, rate=None)
        else:
            contenders = {"blk_us": blk_fns, "triton_us": [self.triton_call(case, f) for f in triton_fns()],
                          "torch_us": torch_fns}
            turns = {key: [] for key in contenders}
            if rounds > 1:  # bring the clocks to their steady state under load first
                t0 = time.perf_counter()
                while time.perf_counter() - t0 < 1.0:
                    torch_fns[0]()
                    torch.cuda.synchronize()
            for _ in range(rounds):
                for key, fns in contenders.items():
                    turns[key].append(median_us(fns, self.reps))
            for key, t in turns.items():
                row[key] = sorted(t)[len(t) // 2]
            row["rate"] = nbytes / row["blk_us"] / 1e3
            row["status"] = "ok"
        if record:
            self.rows.append(row)
        return row

    def triton_call(self, key, fn):
        """Calls a Triton launcher; the first call of each kernel is timed (compilation)."""
        if key not in self.triton_first_call:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize()
            self.triton_first_call[key] = (time.perf_counter() - t0) * 1e3
        return fn

    def limits(self):
        src = torch.randint(0, 255, (1 << 30,), dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        us = median_us([lambda: dst.copy_(src)], self.reps)
        self.copy_gbps = 2 * src.numel() / us / 1e3
        self.rows.append(dict(case="ceiling/copy", shape="1 GiB", dtype="u8", blk_us=None, triton_us=None,
                              torch_us=us, rate=self.copy_gbps, unit="GB/s", status="ok"))
        del src, dst
        a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
        us = median_us([lambda: torch.matmul(a, b)], self.reps)
        self.mm_tflops = 2 * 8192 ** 3 / us / 1e6
        self.rows.append(dict(case="ceiling/cublas_matmul", shape="8192^3", dtype="bf16", blk_us=None,
                              triton_us=None, torch_us=us, rate=self.mm_tflops, unit="TFLOP/s", status="ok"))

    def elementwise(self, case, shape, dtype, n, make_inputs, reference, blk_file, blk_name, triton_launch,
                    torch_fn, sweep=None, record=True):
        """One elementwise case: C = f(A, B) over n elements."""
        in_bytes = 2 * n * torch.tensor([], dtype=dtype).element_size()
        sets = max(1, min(4096, math.ceil(ROTATE_BYTES / in_bytes)))
        # Input sets are consecutive views of one pool (aligned: n is a multiple of 16 here).
        pool_a, pool_b = make_inputs(n * sets, dtype)
        pool_o = torch.empty(n * sets, device="cuda", dtype=dtype)
        data = [(pool_a[i * n:(i + 1) * n], pool_b[i * n:(i + 1) * n]) for i in range(sets)]
        outs = [pool_o[i * n:(i + 1) * n] for i in range(sets)]
        k = self.kernel(blk_file, dtype, blk_name, spec=n % 16 == 0)
        block = int(k.constant("BLOCK"))
        grid = (triton.cdiv(n, block),)
        blk_fns = [k.prepare(grid, a, b, o, n) for (a, b), o in zip(data, outs)]
        # Correctness: poisoned output, float64 reference.
        err = rel_err(poisoned(outs[0], blk_fns[0]), reference(data[0][0].double(), data[0][1].double()))
        nbytes = 3 * n * outs[0].element_size()
        row = self.record(case, shape, dtype, err, nbytes, blk_fns,
                          lambda: [lambda a=a, b=b, o=o: triton_launch(a, b, o, n) for (a, b), o in zip(data, outs)],
                          [lambda a=a, b=b: torch_fn(a, b) for a, b in data], record)
        if sweep is not None:
            self.sweeps.setdefault(sweep, []).append(
                dict(n=n, **{k2: (nbytes / row[k2] / 1e3 if row.get(k2) else None) for k2 in ("blk_us", "triton_us", "torch_us")}))
        del data, outs, pool_a, pool_b, pool_o
        return row


def uniform(lo, hi):
    def make(n, dtype):
        return tuple(torch.empty(n, device="cuda", dtype=dtype).uniform_(lo, hi) for _ in range(2))
    return make


def run_cases(h):
    def vadd(a, b, o, n):
        tk.add_kernel[(triton.cdiv(n, 1024),)](a, b, o, n, BLOCK=1024)

    def swiglu(a, b, o, n, cols=14336):
        tk.swiglu_kernel[(n // cols,)](a, b, o, cols, cols, BLOCK=triton.next_power_of_2(cols), num_warps=32)

    def geglu(a, b, o, n, cols=14336):
        tk.geglu_kernel[(n // cols,)](a, b, o, cols, cols, BLOCK=triton.next_power_of_2(cols), num_warps=32)

    def kl(a, b, o, n):
        tk.kl_div_kernel[(triton.cdiv(n, 1024),)](a, b, o, n, BLOCK=1024)

    silu = lambda a, b: a * torch.sigmoid(a) * b  # noqa: E731
    gelu = lambda a, b: torch.nn.functional.gelu(a, approximate="tanh") * b  # noqa: E731
    kl_ref = lambda p, q: p * (p.log() - q.log())  # noqa: E731

    for dt in (torch.float32, torch.bfloat16):
        h.elementwise("vector_add", "2^28", dt, 1 << 28, uniform(-4, 4), lambda a, b: a + b, "vector_add",
                      "vector_add", vadd, lambda a, b: a + b)
    for dt in (torch.bfloat16, torch.float32):
        h.elementwise("swiglu_fwd", "4096x14336", dt, 4096 * 14336, uniform(-6, 6), silu, "swiglu", "swiglu_forward",
                      swiglu, lambda a, b: torch.nn.functional.silu(a) * b)
    h.elementwise("geglu_fwd", "4096x14336", torch.bfloat16, 4096 * 14336, uniform(-6, 6), gelu, "geglu",
                  "geglu_forward", geglu, gelu)
    for dt in (torch.float32, torch.bfloat16):
        h.elementwise("kl_div", "8192x32000", dt, 8192 * 32000, uniform(0.01, 1), kl_ref, "kl_div", "kl_div", kl,
                      lambda p, q: torch.nn.functional.kl_div(q.log(), p, reduction="none"))
    row_cases(h)
    transposes(h)
    # Sweeps, as Triton's perf_report plots them.
    for e in range(12, 29, 2):
        h.elementwise("vector_add", f"2^{e}", torch.float32, 1 << e, uniform(-4, 4), lambda a, b: a + b,
                      "vector_add", "vector_add", vadd, lambda a, b: a + b, sweep="vector_add_f32", record=False)
    for rows in (256, 512, 1024, 2048, 4096, 8192):
        h.elementwise("swiglu_fwd", f"{rows}x14336", torch.bfloat16, rows * 14336, uniform(-6, 6), silu, "swiglu",
                      "swiglu_forward", swiglu, lambda a, b: torch.nn.functional.silu(a) * b,
                      sweep="swiglu_bf16_rows_x14336", record=False)


def poisoned(out, fn):
    """Runs fn with `out` filled with NaN first (so unwritten elements fail)."""
    out.fill_(float("nan"))
    fn()
    torch.cuda.synchronize()
    return out


def row_case(h, case, shape, dtype, nbytes, blk_fns, tri_fns, torch_fns, check):
    """One row-kernel case; each *_fns is a function or a list to rotate over."""
    as_list = lambda f: f if isinstance(f, list) else [f]  # noqa: E731
    h.record(case, shape, dtype, check(), nbytes, as_list(blk_fns), lambda: as_list(tri_fns), as_list(torch_fns))


def rms_norm_fwd_bwd(h, x, dy, w, rstd):
    """RMSNorm forward then backward (dX, dW through per-program partial sums),
    bf16: what a training step runs. Bytes: X and Y forward; dY and X read, dX
    written backward."""
    M, N = x.shape
    dt = x.dtype
    y, dx = torch.empty_like(x), torch.empty_like(x)
    programs = torch.cuda.get_device_properties(0).multi_processor_count
    per = triton.cdiv(M, programs)
    partial = torch.empty(programs, N, device="cuda", dtype=torch.float32)
    dw = torch.empty(N, device="cuda", dtype=dt)
    fwd = h.load("rms_norm.bf16.4096.w8.s16", "rms_norm_forward").prepare((M,), y, x, w, rstd, N, N, 1e-6, 0.0)
    bwd = h.load("rms_norm.bf16.4096.w8.s16", "rms_norm_backward").prepare(
        (programs,), dy, x, w, rstd, dx, partial, M, N, N, 0.0, per)
    red = h.load("rms_norm.bf16.4096.w8.s16", "sum_rows").prepare((triton.cdiv(N, 128),), partial, dw, programs, N)

    def blk_step():
        fwd()
        bwd()
        red()

    def triton_step():
        tk.rms_norm_kernel[(M,)](y, x, w, rstd, N, N, 1e-6, 0.0, BLOCK=N, num_warps=8)
        tk.rms_norm_backward_kernel[(programs,)](dy, x, w, rstd, dx, partial, M, N, N, 0.0, per, BLOCK=N,
                                                 num_warps=8)
        dw.copy_(partial.sum(0))

    def torch_step():
        xt = x.detach().requires_grad_()
        wt = w.detach().requires_grad_()
        xf = xt.float()
        out = (xf * torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + 1e-6)).to(dt) * wt
        out.backward(dy)

    def check():
        for t in (dx, dw):
            t.fill_(float("nan"))
        blk_step()
        torch.cuda.synchronize()
        xd = x.double().requires_grad_()
        wd = w.double().requires_grad_()
        (xd * torch.rsqrt(xd.pow(2).mean(1, keepdim=True) + 1e-6) * wd).backward(dy.double())
        return max(rel_err(dx, xd.grad), rel_err(dw, wd.grad))
    row_case(h, "rms_norm_fwd_bwd", f"{M}x{N}", dt, 5 * x.numel() * 2, blk_step, triton_step, torch_step, check)


def kl_div_fwd(h):
    """KL divergence forward, f32 8192x32000, batchmean: per-row sums, then
    one program totals them (blk: reduce.blk's sum_all; Triton and Liger:
    torch.sum)."""
    M, V, dt = 8192, 32000, torch.float32
    pred = torch.log_softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    target = torch.softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    rows = torch.empty(M, device="cuda", dtype=dt)
    total = torch.empty(1, device="cuda", dtype=dt)
    kl = h.load("kl_div_loss.f32.8192.w16.s16", "kl_div_forward").prepare((M,), pred, target, rows, V, V, 1e-10)
    red = h.load("reduce", "sum_all").prepare((1,), rows, total, M, 1.0 / M)

    def blk_fn():
        kl()
        red()

    def triton_fn():
        tk.kl_div_loss_kernel[(M,)](pred, target, rows, V, V, 1e-10, BLOCK=16384, num_warps=16)
        return rows.sum() / M

    ref = torch.nn.functional.kl_div(pred.double(), target.double(), reduction="batchmean")
    row_case(h, "kl_div_fwd (batchmean)", f"{M}x{V}", dt, 2 * pred.numel() * 4, blk_fn, triton_fn,
             lambda: torch.nn.functional.kl_div(pred, target, reduction="batchmean"),
             lambda: rel_err(poisoned(total, blk_fn), ref.reshape(1)))
    del pred, target


def transposes(h):
    """f32 8192x8192 transposes, as test/kernels/block_ops.blk writes them:
    `transpose` loads row-major tiles and moves them with `trans`;
    `transpose_by_load` loads column-major tiles (blk-coalesce gives that
    load its own layout). Both move every element through shared memory once."""
    M, N, dt = 8192, 8192, torch.float32
    x = torch.randn(M, N, device="cuda", dtype=dt)
    out = torch.empty(N, M, device="cuda", dtype=dt)
    ref = x.t().double()
    for kernel, grid, tri in (("transpose", M // 32, tk.transpose_kernel),
                              ("transpose_by_load", N // 64, tk.transpose_by_load_kernel)):
        fn = h.load("block_ops.s16", kernel).prepare((grid,), x, out, M, N)
        row_case(h, f"{kernel} f32", f"{M}x{N}", dt, 2 * x.numel() * 4, fn,
                 lambda tri=tri, grid=grid: tri[(grid,)](x, out, M, N, BLOCK_R=32, BLOCK_C=64, num_warps=4),
                 lambda: x.t().contiguous(), lambda fn=fn: rel_err(poisoned(out, fn), ref))
    del x, out


def report_tflops(row, label, flops):
    """A timed matmul row in TFLOP/s for blk, Triton and cuBLAS, printed."""
    if not row.get("blk_us"):
        return
    row["rate"] = flops / row["blk_us"] / 1e6
    row["unit"] = "TFLOP/s"
    row["triton_tflops"] = flops / row["triton_us"] / 1e6
    row["torch_tflops"] = flops / row["torch_us"] / 1e6
    print(f"{label}: blk {row['rate']:.0f}, Triton {row['triton_tflops']:.0f}, "
          f"cuBLAS {row['torch_tflops']:.0f} TFLOP/s", flush=True)


def matmuls(h):
    """C = A @ B at 4096^3 and 8192^3 in bf16 and f16 (f32 accumulation):
    kernels/matmul.blk's specialized variant, Triton's tutorial schedule at
    the anchors' config (128x256x64, 8 warps, 3 stages) and cuBLAS."""
    for dt in (torch.bfloat16, torch.float16):
        for n in (4096, 8192):
            a = torch.randn(n, n, device="cuda", dtype=dt)
            b = torch.randn(n, n, device="cuda", dtype=dt)
            c = torch.empty(n, n, device="cuda", dtype=dt)
            t = DT[dt]
            # BLK_MATMUL_CONFIG=BM.BN.BK.wW.stS picks another compiled variant.
            config = os.environ.get("BLK_MATMUL_CONFIG", "128.256.64.w8.st3")
            bm, bn = (int(v) for v in config.split(".")[:2])
            tri = lambda: [lambda: tk.matmul_kernel[(triton.cdiv(n, 128) * triton.cdiv(n, 256),)](
                a, b, c, n, n, n, n, 1, n, 1, n, 1, BM=128, BN=256, BK=64, GROUP=8, num_warps=8, num_stages=3)]
            ref = a.double() @ b.double() if n == 4096 else None
            flops = 2 * n ** 3
            grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
            # The pointer form, then the same product through tensor descriptors (TMA on sm_90a).
            for name, fn in (("matmul", h.load(f"matmul.{t}.{t}.{config}.spec", "matmul").prepare(
                                 grid, a, b, c, n, n, n, n, 1, n, 1, n, 1)),
                             ("matmul_tma", h.load(f"matmul.{t}.{t}.{config}.spec", "matmul_tma").prepare(
                                 grid, a, b, c, n, n, n, n, n, n))):
                out = poisoned(c, fn)
                if ref is not None:
                    err = rel_err(out, ref)
                else:  # every element written and finite; the first 256 rows against float64
                    err = rel_err(out[:256], a[:256].double() @ b.double()) if torch.isfinite(out).all() else math.inf
                row = h.record(f"{name} {t}", f"{n}^3", dt, err, 0, [fn], tri, [lambda: torch.matmul(a, b)], rounds=7)
                report_tflops(row, f"{name} {t} {n}^3", flops)
            del a, b, c, ref
    try:
        fp8_matmul(h)
    except Exception as e:  # an older torch or Triton without fp8: the bf16/f16 rows stand
        print(f"matmul f8e4m3: skipped ({type(e).__name__}: {e})", flush=True)


def attention(h, batch=4, heads=32, seq=4096, d=128):
    """Attention forward (bf16, B=4 H=32 S=4096 D=128, causal and not):
    kernels/attention.blk's 128x64 variant (8 warps, 3 stages), the same
    source in Triton (bench/triton_kernels.py) at the same tiling, and
    PyTorch SDPA's cuDNN and flash backends. Every output is checked against
    float64 on the first two heads before it is timed."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dt = torch.bfloat16
    q = torch.randn(batch, heads, seq, d, device="cuda", dtype=dt)
    k = torch.randn(batch, heads, seq, d, device="cuda", dtype=dt)
    v = torch.randn(batch, heads, seq, d, device="cuda", dtype=dt)
    o = torch.empty_like(q)
    lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
    scale = d ** -0.5
    bm, bn = 128, 64
    grid = (triton.cdiv(seq, bm), batch * heads)
    strides = [*q.stride()[:3], *k.stride()[:3], *v.stride()[:3], *o.stride()[:3]]

    def check(out, causal):
        qd, kd, vd = (x[0, :2].double() for x in (q, k, v))
        s = qd @ kd.transpose(-1, -2) * scale
        if causal:
            s = s.masked_fill(torch.ones(seq, seq, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
        return rel_err(out[0, :2], torch.softmax(s, -1) @ vd)

    for causal in (False, True):
        name = f"attention.bf16.128.128.64{'.True' if causal else ''}.w8.st3.spec"
        fn = h.load(name, "attention_forward").prepare(grid, q, k, v, o, lse, scale, seq, seq, heads, 1, *strides)
        err = check(poisoned(o, fn), causal)
        tri = lambda: [lambda: tk.attention_forward_kernel[grid](
            q, k, v, o, lse, scale, seq, seq, heads, 1, *strides, D=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
            num_warps=8, num_stages=3)]

        def sdpa(backend):
            def run():
                with sdpa_kernel(backend):
                    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
            return run
        cudnn, flash = sdpa(SDPBackend.CUDNN_ATTENTION), sdpa(SDPBackend.FLASH_ATTENTION)
        anchors = {"triton": check(poisoned(o, tri()[0]), causal), "cudnn": check(cudnn(), causal),
                   "flash": check(flash(), causal)}
        compiled = tri()[0]()  # Triton's compiled kernel: its register use beside blk's (ptxas -v)
        print(f"Triton attention{' causal' if causal else ''}: {compiled.n_regs} registers, "
              f"{compiled.n_spills} spills", flush=True)
        bad = {k_: e for k_, e in anchors.items() if not e < TOL[dt]}
        if bad:
            print(f"attention anchors failed their check: {bad}", flush=True)
        label = f"attention fwd{' causal' if causal else ''}"
        row = h.record(f"{label} bf16", f"{batch}x{heads}x{seq}x{d}", dt, err, 0, [fn], tri, [cudnn], rounds=5)
        flops = 4 * batch * heads * seq * seq * d / (2 if causal else 1)
        if row.get("blk_us"):
            row["flash_us"] = median_us([flash], h.reps)
            row["anchor_errors"] = anchors
            row["rate"] = flops / row["blk_us"] / 1e6
            row["unit"] = "TFLOP/s"
            print(f"{label} {batch}x{heads}x{seq}x{d} bf16: blk {row['rate']:.0f}, Triton (same source) "
                  f"{flops / row['triton_us'] / 1e6:.0f}, SDPA cuDNN {flops / row['torch_us'] / 1e6:.0f}, "
                  f"SDPA flash {flops / row['flash_us'] / 1e6:.0f} TFLOP/s (rel err {err:.1e})", flush=True)
        else:
            print(f"{label}: {row['status']}", flush=True)


def attention_fwd_bwd(h, batch=4, heads=32, seq=4096, d=128):
    """Attention forward + backward (bf16, B=4 H=32 S=4096 D=128, causal and
    not): kernels/attention.blk's forward, backward preprocess, dK/dV and dQ
    kernels at the 128x64 variant, the same source in Triton, and SDPA's cuDNN
    backend with torch.autograd's backward. FLOPs: the forward's 4*B*H*S^2*D
    (half when causal) plus 2.5x that for the backward (five products of the
    forward's two sizes). dQ, dK and dV are checked against float64 gradients
    on the first two heads before timing."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dt = torch.bfloat16
    q, k, v, do = (torch.randn(batch, heads, seq, d, device="cuda", dtype=dt) for _ in range(4))
    o, dq, dk, dv = (torch.empty_like(q) for _ in range(4))
    lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
    delta = torch.empty_like(lse)
    scale = d ** -0.5
    bm, bn = 128, 64
    gq, gk = (triton.cdiv(seq, bm), batch * heads), (triton.cdiv(seq, bm), batch * heads)
    st = lambda x: list(x.stride()[:3])
    fwd_args = [q, k, v, o, lse, scale, seq, seq, heads, 1, *st(q), *st(k), *st(v), *st(o)]
    pre_args = [o, do, delta, seq, heads, *st(o), *st(do)]
    dkdv_args = [q, k, v, do, lse, delta, dk, dv, scale, seq, seq, heads, 1,
                 *st(q), *st(k), *st(v), *st(do), *st(dk), *st(dv)]
    dq_args = [q, k, v, do, lse, delta, dq, scale, seq, seq, heads, 1, *st(q), *st(k), *st(v), *st(do), *st(dq)]

    def reference(causal):  # float64 gradients of batch 0, heads 0 and 1
        qd, kd, vd, dod = (x[0, :2].double() for x in (q, k, v, do))
        s = qd @ kd.transpose(-1, -2) * scale
        if causal:
            s = s.masked_fill(torch.ones(seq, seq, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
        p = torch.softmax(s, -1)
        ds = p * (dod @ vd.transpose(-1, -2) - (dod * (p @ vd)).sum(-1, keepdim=True))
        return ds @ kd * scale, ds.transpose(-1, -2) @ qd * scale, p.transpose(-1, -2) @ dod

    def check(grads, ref):
        return max(rel_err(g[0, :2], r) for g, r in zip(grads, ref))

    for causal in (False, True):
        ref = reference(causal)
        name = f"attention.bf16.128.128.64{'.True' if causal else ''}.w8.st3.spec"
        launches = [h.load(name, "attention_forward").prepare(gq, *fwd_args),
                    h.load(name, "attention_backward_preprocess").prepare(gq, *pre_args),
                    h.load(name, "attention_backward_dkdv").prepare(gk, *dkdv_args),
                    h.load(name, "attention_backward_dq").prepare(gq, *dq_args)]

        def blk_step():
            for f in launches:
                f()

        for g in (dq, dk, dv):
            g.fill_(float("nan"))
        blk_step()
        torch.cuda.synchronize()
        err = check((dq, dk, dv), ref)
        kw = dict(D=d, BLOCK_M=bm, BLOCK_N=bn, num_warps=8, num_stages=3)

        def triton_step():
            tk.attention_forward_kernel[gq](*fwd_args, CAUSAL=causal, **kw)
            tk.attention_backward_preprocess_kernel[gq](*pre_args, D=d, BLOCK_M=bm, num_warps=8)
            tk.attention_backward_dkdv_kernel[gk](*dkdv_args, CAUSAL=causal, **kw)
            tk.attention_backward_dq_kernel[gq](*dq_args, CAUSAL=causal, **kw)

        qg, kg, vg = (x.detach().clone().requires_grad_() for x in (q, k, v))

        def cudnn_step():
            qg.grad = kg.grad = vg.grad = None
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                out = torch.nn.functional.scaled_dot_product_attention(qg, kg, vg, is_causal=causal, scale=scale)
            out.backward(do)

        for g in (dq, dk, dv):
            g.fill_(float("nan"))
        triton_step()
        torch.cuda.synchronize()
        cudnn_step()
        torch.cuda.synchronize()
        anchors = {"triton": check((dq, dk, dv), ref), "cudnn": check((qg.grad, kg.grad, vg.grad), ref)}
        bad = {k_: e for k_, e in anchors.items() if not e < TOL[dt]}
        if bad:
            print(f"attention fwd+bwd anchors failed their check: {bad}", flush=True)
        label = f"attention fwd+bwd{' causal' if causal else ''}"
        row = h.record(f"{label} bf16", f"{batch}x{heads}x{seq}x{d}", dt, err, 0, [blk_step], lambda: [triton_step],
                       [cudnn_step], rounds=3)
        flops = 3.5 * 4 * batch * heads * seq * seq * d / (2 if causal else 1)
        if row.get("blk_us"):
            row["anchor_errors"] = anchors
            row["flops"] = "forward 4*B*H*S^2*D (/2 causal), backward 2.5x the forward"
            row["rate"] = flops / row["blk_us"] / 1e6
            row["unit"] = "TFLOP/s"
            print(f"{label} {batch}x{heads}x{seq}x{d} bf16 (FLOPs: forward 4BHS^2D, backward 2.5x): "
                  f"blk {row['rate']:.0f}, Triton (same source) {flops / row['triton_us'] / 1e6:.0f}, "
                  f"SDPA cuDNN {flops / row['torch_us'] / 1e6:.0f} TFLOP/s (rel err {err:.1e})", flush=True)
        else:
            print(f"{label}: {row['status']}", flush=True)
        del ref


def exact_or_rel_err(out, ref):
    """Integers must match exactly (0 or infinity); floats as rel_err."""
    if out.dtype == torch.int32:
        return 0.0 if torch.equal(out.long(), ref.long()) else math.inf
    return rel_err(out, ref)


def poison_any(out, fn):
    """`poisoned` for integer outputs too (0x7f7f7f7f where NaN cannot go)."""
    if out.dtype.is_floating_point:
        return poisoned(out, fn)
    out.fill_(0x7F7F7F7F)
    fn()
    torch.cuda.synchronize()
    return out


def layout_stress(h, elems=1 << 24):
    """The layout-stress set (test/kernels/layout_stress.blk and counting.blk
    against the same sources in Triton, bench/triton_kernels.py): scans along
    each axis of [1024, 16], [16, 1024] and [128, 128] tiles, column sums,
    blocks of different shapes broadcast together, a one-program chunked
    exclusive scan and a counting-sort rank. Every output is checked
    (integers exactly, floats in float64) before it is timed."""
    def data(dt, n):
        if dt == torch.int32:
            return torch.randint(-1000, 1000, (n,), device="cuda", dtype=dt)
        return torch.randn(n, device="cuda", dtype=dt)

    for dt in (torch.int32, torch.float32):
        t = DT[dt]
        x = data(dt, elems)
        y = torch.empty_like(x)
        acc = torch.int64 if dt == torch.int32 else torch.float64
        for r, c in ((1024, 16), (16, 1024), (128, 128)):
            ptx = f"layout_stress.{t}.{r}.{c}"
            tiles = x.view(-1, r, c)
            grid = (elems // (r * c),)
            for axis, name, tri in ((0, "scan_axis0", tk.scan_axis0_kernel), (1, "scan_axis1", tk.scan_axis1_kernel)):
                fn = h.load(ptx, name).prepare(grid, x, y)
                ref = torch.cumsum(tiles.to(acc), dim=axis + 1).reshape(-1)
                err = exact_or_rel_err(poison_any(y, fn), ref)
                h.record(f"layout {name} {t}", f"{r}x{c} tiles, {elems} elems", dt, err, 2 * x.numel() * 4, [fn],
                         lambda tri=tri, r=r, c=c, grid=grid: [lambda: tri[grid](x, y, R=r, C=c, num_warps=4)],
                         [lambda axis=axis, tiles=tiles: torch.cumsum(tiles, dim=axis + 1)])
            u = data(dt, elems // c)
            v = data(dt, c)
            fn = h.load(ptx, "broadcast_mix").prepare(grid, x, u, v, y)
            xd = tiles.to(acc)
            ref = (xd * u.to(acc).view(-1, r, 1) + v.to(acc).view(1, 1, c) + xd.sum(2, keepdim=True)).reshape(-1)
            err = exact_or_rel_err(poison_any(y, fn), ref)
            h.record(f"layout broadcast_mix {t}", f"{r}x{c} tiles, {elems} elems", dt, err, 2 * x.numel() * 4, [fn],
                     lambda r=r, c=c, grid=grid, u=u, v=v: [
                         lambda: tk.broadcast_mix_kernel[grid](x, u, v, y, R=r, C=c, num_warps=4)],
                     [lambda tiles=tiles, u=u, v=v, r=r, c=c: tiles * u.view(-1, r, 1) + v.view(1, 1, c)
                      + tiles.sum(2, keepdim=True)])
            if c != 1024:  # column sums of an [elems / 4096, 4096] matrix, C columns per program
                rows, width = elems // 4096, 4096
                out = torch.empty(width, device="cuda", dtype=dt)
                fn = h.load(ptx, "column_sums").prepare((width // c,), x, out, rows)
                ref = x.view(rows, width).to(acc).sum(0)
                err = exact_or_rel_err(poison_any(out, fn), ref)
                h.record(f"layout column_sums {t}", f"{rows}x{width}, {r}x{c} blocks", dt, err, x.numel() * 4, [fn],
                         lambda r=r, c=c, out=out, rows=rows: [lambda: tk.column_sums_kernel[(width // c,)](
                             x, out, rows, R=r, C=c, num_warps=4)],
                         [lambda rows=rows: x.view(rows, width).sum(0)])
        del x, y

    keys = torch.randint(0, 1 << 30, (elems,), device="cuda", dtype=torch.int32)
    rank = torch.empty_like(keys)
    n = 1024
    fn = h.load("counting", "digit_rank").prepare((elems // n,), keys, rank, 4)
    digits = ((keys >> 4) & 15).view(-1, n).long()
    # Stable rank within each block: the sort's inverse permutation.
    order = torch.sort(digits * n + torch.arange(n, device="cuda"), dim=1).indices
    ref = torch.empty_like(order).scatter_(1, order, torch.arange(n, device="cuda").expand_as(order)).reshape(-1)
    err = exact_or_rel_err(poison_any(rank, fn), ref)
    h.record("layout digit_rank i32", f"{elems} keys, {n} per block", torch.int32, err, 2 * keys.numel() * 4, [fn],
             lambda: [lambda: tk.digit_rank_kernel[(elems // n,)](keys, rank, 4, N=n, num_warps=4)],
             [lambda: torch.sort(digits, dim=1, stable=True)])
    del keys, rank, digits, order, ref

    n = 1 << 20
    x = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32)
    y = torch.empty_like(x)
    fn = h.load("counting.n16", "exclusive_scan").prepare((1,), x, y, n)
    ref = torch.cumsum(x.long(), 0) - x.long()
    err = exact_or_rel_err(poison_any(y, fn), ref)
    h.record("layout exclusive_scan i32", f"{n}, one program, 4096-element chunks", torch.int32, err,
             2 * n * 4, [fn], lambda: [lambda: tk.exclusive_scan_kernel[(1,)](x, y, n, CHUNK=4096, num_warps=4)],
             [lambda: torch.cumsum(x, 0)])
    for row in h.rows:
        if row["case"].startswith("layout "):
            tri = row.get("triton_us")
            ratio = f"{row['blk_us'] / tri:.2f}x Triton's time" if row.get("blk_us") and tri else row["status"]
            print(f"{row['case']} {row['shape']}: blk {fmt(row.get('blk_us'))} us, Triton {fmt(tri)} us ({ratio})",
                  flush=True)


def fp8_matmul(h, n=4096):
    """C = A @ B with e4m3 operands (values of randn, rounded) into bf16:
    blk's fp8 variant (mma.sync, operands through registers), Triton's
    tutorial kernel on the same tensors, and cuBLAS through torch._scaled_mm
    (unit scales; it wants B column-major, so it gets B's transpose stored
    row-major: the same product)."""
    if not hasattr(torch, "float8_e4m3fn"):
        return
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b_cm = b.t().contiguous().t()  # column-major copy for cuBLAS
    c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    one = torch.ones((), device="cuda")
    config = "128.128.64.w8.st3"
    fn = h.load(f"matmul.f8e4m3.bf16.{config}.spec", "matmul").prepare(
        (triton.cdiv(n, 128) * triton.cdiv(n, 128),), a, b, c, n, n, n, n, 1, n, 1, n, 1)
    tri = lambda: [lambda: tk.matmul_kernel[(triton.cdiv(n, 128) * triton.cdiv(n, 128),)](
        a, b, c, n, n, n, n, 1, n, 1, n, 1, BM=128, BN=128, BK=64, GROUP=8, num_warps=8, num_stages=3)]
    cublas = [lambda: torch._scaled_mm(a, b_cm, one, one, out_dtype=torch.bfloat16)]
    out = poisoned(c, fn)
    err = rel_err(out[:256], a[:256].double() @ b.double()) if torch.isfinite(out).all() else math.inf
    row = h.record("matmul f8e4m3->bf16", f"{n}^3", torch.bfloat16, err, 0, [fn], tri, cublas, rounds=7)
    report_tflops(row, f"matmul f8e4m3 {n}^3", 2 * n ** 3)
    del a, b, b_cm, c


def row_cases(h, sets=4):
    """Row kernels at bf16 8192x4096, rotating over `sets` input/output sets
    (256 MiB read per rotation), then KL divergence and cross-entropy, whose
    inputs (1-2 GiB) exceed L2 by themselves."""
    M, N, dt = 8192, 4096, torch.bfloat16
    xs = [torch.randn(M, N, device="cuda", dtype=dt) * 2 for _ in range(sets)]
    ys = [torch.empty_like(x) for x in xs]
    x, y = xs[0], ys[0]
    xd = x.double()
    softmax = h.load("softmax.bf16.4096.w8.s16", "softmax_forward")
    blk_fns = [softmax.prepare((M,), a, o, N, N) for a, o in zip(xs, ys)]
    row_case(h, "softmax_fwd", f"{M}x{N}", dt, 2 * x.numel() * 2, blk_fns,
             [lambda a=a, o=o: tk.softmax_kernel[(M,)](a, o, N, N, BLOCK=N, num_warps=8) for a, o in zip(xs, ys)],
             [lambda a=a: torch.softmax(a, dim=1) for a in xs],
             lambda: rel_err(poisoned(y, blk_fns[0]), torch.softmax(xd, dim=1)))

    w = torch.rand(N, device="cuda", dtype=dt) + 0.5
    b = torch.randn(N, device="cuda", dtype=dt)
    rstds = [torch.empty(M, device="cuda", dtype=torch.float32) for _ in range(sets)]
    means = [torch.empty_like(r) for r in rstds]
    rms = h.load("rms_norm.bf16.4096.w8.s16", "rms_norm_forward")
    rms_fns = [rms.prepare((M,), o, a, w, r, N, N, 1e-6, 0.0) for a, o, r in zip(xs, ys, rstds)]
    row_case(h, "rms_norm_fwd", f"{M}x{N}", dt, 2 * x.numel() * 2, rms_fns,
             [lambda a=a, o=o, r=r: tk.rms_norm_kernel[(M,)](o, a, w, r, N, N, 1e-6, 0.0, BLOCK=N, num_warps=8)
              for a, o, r in zip(xs, ys, rstds)],
             [lambda a=a: (a.float() * torch.rsqrt(a.float().pow(2).mean(1, keepdim=True) + 1e-6)).to(dt) * w
              for a in xs],
             lambda: rel_err(poisoned(y, rms_fns[0]),
                             xd * torch.rsqrt(xd.pow(2).mean(1, keepdim=True) + 1e-6) * w.double()))
    rms_norm_fwd_bwd(h, xs[0], ys[0], w, rstds[0])

    ln = h.load("layer_norm.bf16.4096.w4.s16", "layer_norm_forward")
    ln_fns = [ln.prepare((M,), o, a, w, b, m, r, N, N, 1e-5) for a, o, m, r in zip(xs, ys, means, rstds)]
    row_case(h, "layer_norm_fwd", f"{M}x{N}", dt, 2 * x.numel() * 2, ln_fns,
             [lambda a=a, o=o, m=m, r=r: tk.layer_norm_kernel[(M,)](o, a, w, b, m, r, N, N, 1e-5, BLOCK=N,
                                                                     num_warps=8)
              for a, o, m, r in zip(xs, ys, means, rstds)],
             [lambda a=a: torch.nn.functional.layer_norm(a, (N,), w, b, 1e-5) for a in xs],
             lambda: rel_err(poisoned(y, ln_fns[0]),
                             torch.nn.functional.layer_norm(xd, (N,), w.double(), b.double(), 1e-5)))
    del xs, ys, x, y, xd
    kl_div_fwd(h)

    V = 128256
    logits = torch.randn(M, V, device="cuda", dtype=dt) * 3
    work = logits.clone()
    target = torch.randint(0, V, (M,), device="cuda", dtype=torch.int64)
    loss = torch.empty(M, device="cuda", dtype=torch.float32)
    for variant, label in (("cross_entropy.bf16.8192.w16.s16", ""),
                           ("cross_entropy.bf16.8192.w16.st2.s16", " (num_stages=2)")):
        ce_fn = h.load(variant, "cross_entropy").prepare((M,), work, target, loss, V, V, float(M), -100, 0.0, 0.0,
                                                         0.0)

        def check_ce(ce_fn=ce_fn):
            work.copy_(logits)
            ce_fn()
            torch.cuda.synchronize()
            ld = logits.double().requires_grad_()
            ref = torch.nn.functional.cross_entropy(ld, target)
            ref.backward()
            e1 = rel_err(loss.sum().reshape(1), ref.detach().reshape(1))
            e2 = rel_err(work, ld.grad)
            del ld
            return max(e1, e2)

        def torch_ce():
            lt = logits.detach().requires_grad_()
            torch.nn.functional.cross_entropy(lt.float(), target).backward()
        # The kernel overwrites its input with the gradient; timing reuses the
        # buffer (the values stay finite, the work is the same). num_stages=2
        # issues each chunk's load of the first pass one chunk ahead.
        row_case(h, "cross_entropy_fwd_bwd" + label, f"{M}x{V}", dt, 3 * logits.numel() * 2, ce_fn,
                 lambda: tk.cross_entropy_kernel[(M,)](work, target, loss, V, V, float(M), -100, BLOCK=32768,
                                                       num_warps=32),
                 torch_ce, check_ce)
    del logits, work


def launch_overhead(h):
    """Host microseconds per launch of a tiny kernel."""
    out = {}
    exe = os.path.join(h.bundle, "bin", "blk-bench")
    r = subprocess.run([exe, "--launch-overhead", "--ptx-dir", os.path.join(h.bundle, "ptx")],
                       capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("launch_us="):
            out["blk (C++ runtime, checked launch)"] = float(line.split("=")[1])
        if line.startswith("driver_launch_us="):
            out["cuLaunchKernel alone (floor)"] = float(line.split("=")[1])
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    o = torch.empty_like(x)
    k = h.kernel("vector_add", torch.float32, "vector_add", spec=False)
    fn = k.prepare((1,), x, y, o, 1024)

    def per_launch(f, batches=80, batch=256):
        # Host time only, in batches well under the driver's queue (as blk-bench does).
        for _ in range(100):
            f()
        torch.cuda.synchronize()
        total = 0.0
        for _ in range(batches):
            t0 = time.perf_counter()
            for _ in range(batch):
                f()
            total += time.perf_counter() - t0
            torch.cuda.synchronize()
        return total / (batches * batch) * 1e6

    out["blk (Python, ctypes C API)"] = per_launch(fn)
    out["Triton (Python)"] = per_launch(lambda: tk.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024))
    out["PyTorch (torch.add)"] = per_launch(lambda: torch.add(x, y, out=o))
    return out


def report(h, overhead, out_dir, command=None, suite=None):
    """Writes results.json and results.md (bench/report.py formats the
    latter from the same data, and the tables of docs/performance.md)."""
    ct_path = os.path.join(h.bundle, "compile-times.json")
    ct = json.load(open(ct_path)) if os.path.exists(ct_path) else {}
    for case, tri_ms in h.triton_first_call.items():
        h.compile_rows.append(dict(kernel=case, blk=ct.get(COMPILE_FILES.get(case), {}),
                                   triton_first_call_ms=tri_ms))
    data = dict(device=h.device, date=time.strftime("%Y-%m-%d"), command=command, suite=suite,
                triton=triton.__version__, torch=torch.__version__, reps=h.reps, copy_gbps=h.copy_gbps,
                matmul_tflops=h.mm_tflops, rows=h.rows, sweeps=h.sweeps, compile=h.compile_rows,
                launch_overhead_us=overhead)
    text = results_md(data)
    print("\n" + text)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(data, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for name, pts in h.sweeps.items():
            plt.figure(figsize=(6, 4))
            for key, label in (("blk_us", "blk"), ("triton_us", "Triton"), ("torch_us", "PyTorch")):
                plt.plot([p["n"] for p in pts], [p[key] for p in pts], marker="o", label=label)
            plt.axhline(h.copy_gbps, color="gray", linestyle="--", label="copy")
            plt.xscale("log", base=2)
            plt.xlabel("elements")
            plt.ylabel("GB/s")
            plt.title(f"{name} on {h.device}")
            plt.legend()
            plt.grid(alpha=0.3)
            plt.tight_layout()
            plt.savefig(os.path.join(out_dir, f"sweep-{name}.png"), dpi=100)
            plt.close()
    except ImportError:
        print("matplotlib missing: no plots")


# The cases each --only choice runs (None: every case), in order.
# bench/compare_compiled.py traces these to find the kernels the rows launch.
SUITES = {
    "matmul": [matmuls],
    "attention": [attention, attention_fwd_bwd],
    "layouts": [layout_stress],
    None: [run_cases, matmuls, attention, attention_fwd_bwd, layout_stress],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=".bundle")
    ap.add_argument("--out", default="bench-out")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--ptx-dir", help="load blk's kernels from here instead of the bundle's ptx/ "
                                      "(another compiler's output, for a before/after comparison)")
    ap.add_argument("--only", choices=[k for k in SUITES if k], help="run only these cases (and the limits)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    h = Harness(args.bundle, args.reps, args.ptx_dir)
    h.limits()
    for cases in SUITES[args.only]:
        cases(h)
    overhead = launch_overhead(h) if args.only is None else None
    # The command as run (with the environment variable that picks the matmul
    # variant), for bench/report.py to print beside the tables.
    env = [f"{k}={shlex.quote(os.environ[k])}" for k in ("BLK_MATMUL_CONFIG",) if k in os.environ]
    command = " ".join(env + ["python3", shlex.join(sys.argv)])
    report(h, overhead, args.out, command, args.only or "all")
    return 1 if any(r["status"] != "ok" for r in h.rows) else 0


if __name__ == "__main__":
    sys.exit(main())
