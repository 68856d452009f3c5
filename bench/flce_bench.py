"""Fused linear cross-entropy forward+backward for bench/run.py: blk's driver
(libblk_runtime's blk_flce over the bundle's PTX), Liger-Kernel's algorithm
(chunks of Liger's size, the logits and gradients by torch matmuls, Liger's
cross-entropy kernel in Triton over the chunk, dW accumulated in W's dtype)
and PyTorch eager (F.linear + F.cross_entropy + backward), each checked
against a float64 reference and timed, with each one's peak memory beyond
its inputs and outputs (torch.cuda.max_memory_allocated; blk's workspace is a
torch tensor, so it counts).

    import flce_bench; flce_bench.flce(h)          # h: run.py's Harness

Rows: case "flce_fwd_bwd", shape "TxHxV", the usual *_us columns, `tflops`
(3 products of 2*T*H*V flops over blk's time) and `blk_extra_gib`,
`triton_extra_gib`, `torch_extra_gib`."""
import ctypes
import math

import torch
import triton

import triton_kernels as tk

GIB = 1 << 30
BLK_FLCE_MEAN, BLK_FLCE_BF16, BLK_FLCE_F16 = 0, 0, 1


class FlceArgs(ctypes.Structure):
    """blk_flce_args of include/blk/Ops/blk_ops.h, field for field."""
    _fields_ = [("x", ctypes.c_void_p), ("weight", ctypes.c_void_p), ("target", ctypes.c_void_p),
                ("bias", ctypes.c_void_p), ("grad_input", ctypes.c_void_p), ("grad_weight", ctypes.c_void_p),
                ("grad_bias", ctypes.c_void_p), ("loss_rows", ctypes.c_void_p), ("workspace", ctypes.c_void_p),
                ("workspace_bytes", ctypes.c_size_t), ("rows", ctypes.c_int64), ("hidden", ctypes.c_int64),
                ("vocab", ctypes.c_int64), ("dtype", ctypes.c_int), ("reduction", ctypes.c_int),
                ("ignore_index", ctypes.c_int64), ("label_smoothing", ctypes.c_double),
                ("lse_square_scale", ctypes.c_double), ("softcap", ctypes.c_double), ("chunk_rows", ctypes.c_int64),
                ("chunk_bytes", ctypes.c_size_t), ("tiling", ctypes.c_int), ("stream", ctypes.c_void_p)]


class BlkFlce:
    """blk's driver through the runtime's C API: one runner over the PTX
    directory (modules loaded once), called with torch tensors."""

    def __init__(self, lib, ptx_dir):
        self.lib = lib
        lib.blk_ops_runner_from_ptx.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p,
                                                ctypes.c_size_t]
        lib.blk_flce_default_args.argtypes = [ctypes.POINTER(FlceArgs)]
        lib.blk_flce_workspace_bytes.argtypes = [ctypes.POINTER(FlceArgs), ctypes.POINTER(ctypes.c_size_t),
                                                 ctypes.c_char_p, ctypes.c_size_t]
        lib.blk_flce.argtypes = [ctypes.c_void_p, ctypes.POINTER(FlceArgs), ctypes.POINTER(ctypes.c_double),
                                 ctypes.c_char_p, ctypes.c_size_t]
        self.err = ctypes.create_string_buffer(4096)
        self.runner = ctypes.c_void_p()
        self._check(lib.blk_ops_runner_from_ptx(ptx_dir.encode(), ctypes.byref(self.runner), self.err, 4096))

    def _check(self, rc):
        if rc != 0:
            raise RuntimeError(self.err.value.decode())

    def args(self, x, w, target, dx, dw, bias=None, dbias=None, loss_rows=None, **options):
        a = FlceArgs()
        self.lib.blk_flce_default_args(ctypes.byref(a))
        a.x, a.weight, a.target = x.data_ptr(), w.data_ptr(), target.data_ptr()
        a.grad_input, a.grad_weight = dx.data_ptr(), dw.data_ptr()
        a.bias = bias.data_ptr() if bias is not None else None
        a.grad_bias = dbias.data_ptr() if dbias is not None else None
        a.loss_rows = loss_rows.data_ptr() if loss_rows is not None else None
        a.rows, a.hidden = x.shape
        a.vocab = w.shape[0]
        a.dtype = BLK_FLCE_BF16 if x.dtype == torch.bfloat16 else BLK_FLCE_F16
        for k, v in options.items():
            setattr(a, k, v)
        return a

    def workspace_bytes(self, a):
        n = ctypes.c_size_t()
        self._check(self.lib.blk_flce_workspace_bytes(ctypes.byref(a), ctypes.byref(n), self.err, 4096))
        return n.value

    def __call__(self, a):
        """Runs the call with a fresh torch workspace (so peak memory counts it); returns the loss."""
        work = torch.empty(self.workspace_bytes(a), device="cuda", dtype=torch.uint8)
        a.workspace, a.workspace_bytes = work.data_ptr(), work.numel()
        loss = ctypes.c_double()
        self._check(self.lib.blk_flce(self.runner, ctypes.byref(a), ctypes.byref(loss), self.err, 4096))
        return loss.value


def liger_flce(x, w, target, ignore_index=-100):
    """Liger-Kernel's fused_linear_cross_entropy_forward (mean, no bias,
    smoothing, z-loss or softcap), its gradients: chunks of
    next_pow2(cdiv(T, cdiv(V, H))) rows, logits and gradients by torch
    matmuls, Liger's cross-entropy kernel (tk.cross_entropy_kernel) in place
    over the chunk's logits, dW accumulated in W's dtype."""
    T, H = x.shape
    V = w.shape[0]
    chunk = triton.next_power_of_2(triton.cdiv(T, triton.cdiv(V, H)))
    dx = torch.zeros_like(x)
    dw = torch.zeros_like(w)
    loss_rows = torch.zeros(T, device=x.device, dtype=torch.float32)
    n_non_ignore = (target != ignore_index).sum().item()
    block = min(32768, triton.next_power_of_2(V))
    for start in range(0, T, chunk):
        end = min(start + chunk, T)
        xc = x[start:end]
        logits = xc @ w.t()
        tk.cross_entropy_kernel[(end - start,)](logits, target[start:end], loss_rows[start:end], V, logits.stride(0),
                                                float(n_non_ignore), ignore_index, BLOCK=block, num_warps=32)
        dx[start:end] = logits @ w
        dw += torch.mm(logits.t(), xc).float()
    return loss_rows.sum(), dx, dw


def torch_flce(x, w, target):
    """PyTorch eager: the whole logits, F.cross_entropy (mean), autograd."""
    xg = x.detach().requires_grad_()
    wg = w.detach().requires_grad_()
    loss = torch.nn.functional.cross_entropy(torch.nn.functional.linear(xg, wg), target)
    loss.backward()
    return loss.detach(), xg.grad, wg.grad


def reference(x, w, target, ignore_index=-100, rows=1024):
    """float64 loss (mean), dX and dW, a block of rows at a time."""
    wd = w.double()
    n = (target != ignore_index).sum().item()
    loss = torch.zeros((), device=x.device, dtype=torch.float64)
    dx = torch.empty(x.shape, device=x.device, dtype=torch.float64)
    dw = torch.zeros(w.shape, device=x.device, dtype=torch.float64)
    for s in range(0, x.shape[0], rows):
        xc = x[s:s + rows].double()
        tc = target[s:s + rows]
        logits = xc @ wd.t()
        keep = (tc != ignore_index)
        lse = torch.logsumexp(logits, dim=1)
        picked = logits.gather(1, tc.clamp(min=0)[:, None])[:, 0]
        loss += torch.where(keep, lse - picked, 0).sum() / n
        g = torch.softmax(logits, dim=1)
        g[torch.arange(len(tc), device=x.device), tc.clamp(min=0)] -= 1
        g *= (keep.double() / n)[:, None]
        dx[s:s + rows] = g @ wd
        dw += g.t() @ xc
        del logits, g
    return loss.reshape(1), dx, dw


def rel_err(out, ref):
    """||out - ref|| / ||ref|| in float64; infinite when out is not finite."""
    o = out.double()
    if not torch.isfinite(o).all():
        return math.inf
    return (torch.linalg.vector_norm(o - ref) / torch.linalg.vector_norm(ref)).item()


def extra_memory(fn, outputs_bytes):
    """Peak bytes allocated during fn beyond what was allocated before it and
    beyond its outputs (`outputs_bytes`: what a contender allocates to return)."""
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    res = fn()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    del res
    return (peak - outputs_bytes) / GIB


def flce(h, T=8192, H=4096, V=128256, dt=torch.bfloat16):
    """One row: FLCE forward+backward at T tokens, hidden H, vocab V, mean
    reduction, every 10th target ignored; blk's large tiling, chunks of at
    most 1 GiB of logits."""
    torch.manual_seed(0)
    x = (torch.randn(T, H, device="cuda") * 0.5).to(dt)
    w = (torch.randn(V, H, device="cuda") * (1 / math.sqrt(H))).to(dt)
    target = torch.randint(0, V, (T,), device="cuda", dtype=torch.int64)
    target[::10] = -100
    dx = torch.empty_like(x)
    dw = torch.empty_like(w)
    loss = torch.empty(1, device="cuda", dtype=torch.float32)
    ref = reference(x, w, target)

    blk = BlkFlce(h.rt.lib, h.ptx_dir)
    a = blk.args(x, w, target, dx, dw, reduction=BLK_FLCE_MEAN)

    def blk_fn():
        loss.fill_(blk(a))

    def check(key, fn):
        # blk writes dx and dw (poisoned first) and returns the loss into `loss`;
        # Liger's and PyTorch's return (loss, dX, dW).
        for t in (loss, dx, dw):
            t.fill_(float("nan"))
        got = fn()
        torch.cuda.synchronize()
        got = got if isinstance(got, tuple) else (loss, dx, dw)
        return max(rel_err(g.reshape(r.shape), r) for g, r in zip(got, ref))

    out_bytes = x.numel() * x.element_size() + w.numel() * w.element_size() + 4
    row = h.record("flce_fwd_bwd", f"{T}x{H}x{V}", dt, None, 0, [blk_fn],
                   lambda: [lambda: liger_flce(x, w, target)], [lambda: torch_flce(x, w, target)],
                   check=check, rounds=3, settle=True)
    del ref
    row["unit"] = "TFLOP/s"
    if row.get("blk_us"):
        row["rate"] = row["tflops"] = 3 * 2 * T * H * V / row["blk_us"] / 1e6
    row["blk_extra_gib"] = extra_memory(blk_fn, 0)  # blk writes into dx and dw, allocated before
    row["triton_extra_gib"] = extra_memory(lambda: liger_flce(x, w, target), out_bytes)
    row["torch_extra_gib"] = extra_memory(lambda: torch_flce(x, w, target), out_bytes)
    print(f"flce_fwd_bwd {T}x{H}x{V}: extra memory blk {row['blk_extra_gib']:.2f} GiB, Liger/Triton "
          f"{row['triton_extra_gib']:.2f} GiB, PyTorch {row['torch_extra_gib']:.2f} GiB", flush=True)
    return row
