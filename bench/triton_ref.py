"""Triton and PyTorch references for blk's elementwise kernels, timed the same
way as blk-bench (CUDA events, warm-up, median) in the same run on the GPU.
The Triton kernels are written as the Triton tutorials and Liger-Kernel write
them. Usage: python3 bench/triton_ref.py [--json FILE]"""
import argparse
import json
import math

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Liger-Kernel's _swiglu_forward_kernel: one program per row.
    row = tl.program_id(0).to(tl.int64)
    a_ptr += row * stride
    b_ptr += row * stride
    c_ptr += row * stride
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    c = (a * tl.sigmoid(a)).to(b.dtype) * b
    tl.store(c_ptr + offs, c, mask=mask)


@triton.jit
def tanh(x):
    return 2 * tl.sigmoid(2 * x) - 1


@triton.jit
def geglu_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Liger-Kernel's _geglu_tanh_forward_kernel (one program per row), with
    # tanh written through sigmoid as blk's kernels/geglu.blk does.
    row = tl.program_id(0).to(tl.int64)
    a_ptr += row * stride
    b_ptr += row * stride
    c_ptr += row * stride
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    k = 0.7978845608028654
    gelu = 0.5 * a * (1 + tanh(k * (a + 0.044715 * a * a * a)))
    tl.store(c_ptr + offs, gelu.to(b.dtype) * b, mask=mask)


@triton.jit
def kl_div_kernel(p_ptr, q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    q = tl.load(q_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    tl.store(out_ptr + offs, (p * (tl.log(p) - tl.log(q))).to(out_ptr.dtype.element_ty), mask=mask)


def median_us(fn, reps=100):
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        start[i].record()
        fn()
        stop[i].record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) * 1000 for s, e in zip(start, stop))
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    dev = torch.cuda.get_device_name()
    rows = []
    src = torch.randint(0, 255, (1 << 30,), dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    us = median_us(lambda: dst.copy_(src))
    copy = 2 * src.numel() / us / 1e3
    rows.append(("ceiling/copy", "1 GiB", "-", us, copy))

    def add_case(name, shape, dtype, fn, nbytes, check=None):
        if check is not None:
            err = check()
            if not err < (1e-5 if dtype == torch.float32 else 1e-2):
                rows.append((name, shape, str(dtype).replace("torch.", ""), float("nan"), float("nan")))
                return
        us = median_us(fn)
        rows.append((name, shape, str(dtype).replace("torch.", ""), us, nbytes / us / 1e3))

    for dtype in (torch.float32, torch.bfloat16):
        n = 1 << 28
        x = torch.randn(n, device="cuda", dtype=dtype)
        y = torch.randn(n, device="cuda", dtype=dtype)
        out = torch.empty_like(x)
        grid = (triton.cdiv(n, 1024),)
        add_case("vector_add/triton", "2^28", dtype, lambda: add_kernel[grid](x, y, out, n, BLOCK=1024), 3 * n * x.element_size())
        add_case("vector_add/torch", "2^28", dtype, lambda: torch.add(x, y, out=out), 3 * n * x.element_size())
        del x, y, out

    for dtype in (torch.bfloat16, torch.float32):
        rows_, cols = 4096, 14336
        a = torch.randn(rows_, cols, device="cuda", dtype=dtype)
        b = torch.randn(rows_, cols, device="cuda", dtype=dtype)
        c = torch.empty_like(a)
        block = triton.next_power_of_2(cols)
        nb = 3 * a.numel() * a.element_size()
        add_case("swiglu/triton", "4096x14336", dtype,
                 lambda: swiglu_kernel[(rows_,)](a, b, c, cols, cols, BLOCK=block, num_warps=32), nb)
        add_case("swiglu/torch", "4096x14336", dtype, lambda: torch.nn.functional.silu(a) * b, nb)
        if dtype == torch.bfloat16:
            add_case("geglu/triton", "4096x14336", dtype,
                     lambda: geglu_kernel[(rows_,)](a, b, c, cols, cols, BLOCK=block, num_warps=32), nb)
            add_case("geglu/torch", "4096x14336", dtype,
                     lambda: torch.nn.functional.gelu(a, approximate="tanh") * b, nb)
        del a, b, c

    for dtype in (torch.float32, torch.bfloat16):
        n = 8192 * 32000
        p = torch.rand(n, device="cuda", dtype=dtype) * 0.99 + 0.01
        q = torch.rand(n, device="cuda", dtype=dtype) * 0.99 + 0.01
        out = torch.empty_like(p)
        grid = (triton.cdiv(n, 1024),)
        nb = 3 * n * p.element_size()
        add_case("kl_div/triton", "8192x32000", dtype, lambda: kl_div_kernel[grid](p, q, out, n, BLOCK=1024), nb)
        add_case("kl_div/torch", "8192x32000", dtype,
                 lambda: torch.nn.functional.kl_div(q.log(), p, reduction="none"), nb)
        del p, q, out

    print(f"\nTriton {triton.__version__} / PyTorch {torch.__version__} on {dev} (median of 100, CUDA events)\n")
    print("| case | shape | dtype | time (us) | GB/s | % of copy |")
    print("|---|---|---|---:|---:|---:|")
    for name, shape, dtype, us, gbps in rows:
        print(f"| {name} | {shape} | {dtype} | {us:.1f} | {gbps:.0f} | {100 * gbps / copy:.1f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": dev, "rows": [dict(zip(("case", "shape", "dtype", "us", "gbps"), r)) for r in rows]}, f, indent=1)


if __name__ == "__main__":
    main()
