"""Fused linear cross-entropy, Liger-Kernel's LigerFusedLinearCrossEntropyLoss
contract: the cross-entropy of the logits input @ weight^T (+ bias) against
class targets without materializing the logits of all rows (ignore_index,
label_smoothing, lse_square_scale, softcap, reduction "mean", "sum" or
"none"), the loss in f32 (Liger's).

bf16 and f16 with "mean" or "sum" run blk's driver (blk/Ops/blk_ops.h's
blk_flce through libblk_jit.so: kernels/fused_linear_cross_entropy.blk, the
GPU's large tiling or the interpreter's small one), which computes the loss
and the gradients of input, weight and bias in the forward, chunk by chunk,
as Liger does; the backward scales them by the upstream gradient. Other
dtypes, and "none" (whose per-row upstream gradient must enter before the
chunk's products, so the backward recomputes), run Liger's algorithm in
Python: chunks of rows, the logits and gradients by torch matmuls and
kernels/cross_entropy.blk over the chunk's logits. Chunks: BLK_FLCE_CHUNK_ROWS
rows when set; else the driver's (as many rows as fit 1 GiB of logits) and
Liger's in the Python path. Custom ops:
torch.ops.blk.fused_linear_cross_entropy (the loss and the saved gradients)
and torch.ops.blk.fused_linear_cross_entropy_backward ("none")."""
import os
from typing import Optional, Tuple

import torch

from .. import _library as L
from .. import _operators
from ._custom import custom_op, register_autograd, scale_gradient
from ._kernels import cdiv, kernel_dir, next_pow2
from .cross_entropy import LossOptions, check_options, loss_rows_gradient, total

_DRIVER_DTYPES = {torch.bfloat16: "bf16", torch.float16: "f16"}
_DRIVER_REDUCTIONS = ("mean", "sum")


def _check(x, w, target, bias, reduction, label_smoothing, softcap):
    check_options(reduction, label_smoothing, softcap)
    if x.dim() != 2 or w.dim() != 2 or x.shape[1] != w.shape[1]:
        raise ValueError("input must be [rows, hidden] and weight [vocab, hidden]; got %s and %s" %
                         (tuple(x.shape), tuple(w.shape)))
    if target.shape != x.shape[:1] or target.dtype not in (torch.int64, torch.int32):
        raise ValueError("target must be an integer tensor of [rows]")
    for name, t in (("weight", w), ("bias", bias)):
        if t is not None and (t.dtype != x.dtype or t.device != x.device):
            raise ValueError("%s must have input's dtype and device" % name)
    if bias is not None and bias.shape != w.shape[:1]:
        raise ValueError("bias must be [vocab]")
    if target.device != x.device:
        raise ValueError("target must be on input's device")


def fixed_chunk_rows():
    """BLK_FLCE_CHUNK_ROWS (a positive multiple of 16), or None."""
    fixed = os.environ.get("BLK_FLCE_CHUNK_ROWS")
    if not fixed:
        return None
    if not fixed.isdigit() or int(fixed) <= 0 or int(fixed) % 16:
        raise ValueError("BLK_FLCE_CHUNK_ROWS must be a positive multiple of 16, got %s" % fixed)
    return int(fixed)


def chunk_rows(rows, hidden, vocab):
    """Rows per chunk of the Python path: BLK_FLCE_CHUNK_ROWS, else as Liger
    picks them, a power of two of about rows * hidden / vocab (a chunk's
    logits about as large as the input), at least 16."""
    return fixed_chunk_rows() or max(16, next_pow2(cdiv(rows, cdiv(vocab, hidden))))


def _aligned(t):
    """t, contiguous and 16-byte aligned (the driver's requirement)."""
    t = t.contiguous()
    return t if t.data_ptr() % 16 == 0 else t.clone()


def _use_driver(x, reduction):
    return x.dtype in _DRIVER_DTYPES and reduction in _DRIVER_REDUCTIONS and x.shape[0] > 0 and L.has_operators()


def _driver(x, w, target, bias, ignore_index, lse_square_scale, label_smoothing, reduction, softcap):
    """blk_flce: the loss (0-d f32) and the gradients for an upstream gradient of 1."""
    x, w, target = _aligned(x), _aligned(w), _aligned(target.to(torch.int64))
    bias = _aligned(bias) if bias is not None else None
    dx, dw = torch.empty_like(x), torch.empty_like(w)
    db = torch.empty_like(bias) if bias is not None else None
    stream = torch.cuda.current_stream(x.device).cuda_stream if x.is_cuda else None
    args = _operators.flce_args(
        x, w, target, dx, dw, x.shape[0], x.shape[1], w.shape[0], _DRIVER_DTYPES[x.dtype], bias=bias, grad_bias=db,
        reduction=reduction, ignore_index=ignore_index, label_smoothing=label_smoothing,
        lse_square_scale=lse_square_scale, softcap=softcap, chunk_rows=fixed_chunk_rows() or 0, stream=stream)
    # A workspace of torch's allocator (its peak memory counts it); chunk_rows 0: the
    # driver's own, as many rows as fit 1 GiB of logits.
    work = torch.empty(max(_operators.flce_workspace_bytes(args), 16), dtype=torch.uint8, device=x.device)
    buffers = [t for t in (x, w, target, bias, dx, dw, db) if t is not None]
    loss = _operators.fused_linear_cross_entropy(args, buffers, work, kernel_dir())
    return torch.full((), loss, dtype=torch.float32, device=x.device), dx, dw, db


def _chunked(x, w, target, bias, ignore_index, lse_square_scale, label_smoothing, reduction, softcap,
             grads=True, upstream=None):
    """Liger's algorithm: per chunk of rows the logits (torch), each row's loss
    and the logits' gradient (kernels/cross_entropy.blk), then dX and the sums
    of dW and dbias. `upstream`: per-row gradients that scale each row's
    logits' gradient first ("none"). Returns the row losses (f32) and the
    gradients (None without grads).

    dW and dbias sum in f32 over the chunks, each chunk's products unrounded,
    and round to W's dtype once at the end (an f32 [vocab, hidden] buffer for
    bf16 and f16, Liger's accum_dtype=float32): summed in W's dtype, a running
    sum that later chunks cancel keeps the rounding error of its largest
    value (half a bf16 ulp of 2 to 4 is 0.0078 where the true sum is 0.0005),
    one rounding per chunk, which torch eager's single product never has."""
    x, w, target = x.contiguous(), w.contiguous(), target.to(torch.int64).contiguous()
    rows, hidden = x.shape
    n = int((target != ignore_index).sum()) if reduction == "mean" else 1
    loss = torch.empty(rows, dtype=torch.float32, device=x.device)
    dx = torch.empty_like(x) if grads else None
    dw = torch.zeros(w.shape, dtype=torch.float32, device=x.device) if grads else None
    db = torch.zeros(w.shape[0], dtype=torch.float32, device=x.device) if grads and bias is not None else None
    step = chunk_rows(rows, hidden, w.shape[0])
    for start in range(0, rows, step):
        end = min(start + step, rows)
        xc = x[start:end]
        logits = xc @ w.t() if bias is None else torch.addmm(bias, xc, w.t())
        loss[start:end] = loss_rows_gradient(logits, target[start:end], ignore_index, lse_square_scale,
                                             label_smoothing, reduction, softcap, n)
        if not grads:
            continue
        if upstream is None:
            g32 = logits.float()
        else:  # in f32, rounded once to the logits' dtype for dX, as eager's gradient is
            g32 = logits.float() * upstream[start:end, None].float()
            logits.copy_(g32)
        torch.mm(logits, w, out=dx[start:end])
        dw.addmm_(g32.t(), xc.float())
        if db is not None:
            db += g32.sum(0)
    return loss, dx, (dw.to(w.dtype) if grads else None), (db.to(w.dtype) if db is not None else None)


def _empty(t):
    return t.new_empty(0)


@custom_op("fused_linear_cross_entropy")
def _flce(x: torch.Tensor, w: torch.Tensor, target: torch.Tensor, bias: Optional[torch.Tensor], ignore_index: int,
          lse_square_scale: float, label_smoothing: float, reduction: str,
          softcap: float) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    _check(x, w, target, bias, reduction, label_smoothing, softcap)
    options = (ignore_index, lse_square_scale, label_smoothing, reduction, softcap)
    if reduction == "none":  # the backward recomputes with the rows' upstream gradients
        loss, _, _, _ = _chunked(x, w, target, bias, *options, grads=False)
        return loss, _empty(x), _empty(w), _empty(w)
    if _use_driver(x, reduction):
        loss, dx, dw, db = _driver(x, w, target, bias, *options)
    else:
        rows, dx, dw, db = _chunked(x, w, target, bias, *options)
        loss = total(rows)
    return loss, dx, dw, (db if db is not None else _empty(w))


@_flce.register_fake
def _(x, w, target, bias, ignore_index, lse_square_scale, label_smoothing, reduction, softcap):
    _check(x, w, target, bias, reduction, label_smoothing, softcap)
    f32 = torch.float32
    if reduction == "none":
        return x.new_empty(x.shape[:1], dtype=f32), _empty(x), _empty(w), _empty(w)
    db = torch.empty_like(bias) if bias is not None else _empty(w)
    return x.new_empty((), dtype=f32), torch.empty_like(x), torch.empty_like(w), db


@custom_op("fused_linear_cross_entropy_backward")
def _flce_backward(dloss: torch.Tensor, x: torch.Tensor, w: torch.Tensor, target: torch.Tensor,
                   bias: Optional[torch.Tensor], ignore_index: int, lse_square_scale: float, label_smoothing: float,
                   softcap: float) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    _, dx, dw, db = _chunked(x, w, target, bias, ignore_index, lse_square_scale, label_smoothing, "none", softcap,
                             upstream=dloss)
    return dx, dw, (db if db is not None else _empty(w))


@_flce_backward.register_fake
def _(dloss, x, w, target, bias, ignore_index, lse_square_scale, label_smoothing, softcap):
    return torch.empty_like(x), torch.empty_like(w), (torch.empty_like(bias) if bias is not None else _empty(w))


def _setup_context(ctx, inputs, output):
    x, w, target, bias, ignore_index, lse_square_scale, label_smoothing, reduction, softcap = inputs
    ctx.reduction, ctx.has_bias = reduction, bias is not None
    if reduction == "none":
        ctx.save_for_backward(x, w, target, bias)
        ctx.options = ignore_index, lse_square_scale, label_smoothing, softcap
    else:
        ctx.save_for_backward(*output[1:])


def _backward(ctx, dloss, *unused):
    if ctx.reduction == "none":
        x, w, target, bias = ctx.saved_tensors
        dx, dw, db = torch.ops.blk.fused_linear_cross_entropy_backward(dloss, x, w, target, bias, *ctx.options)
    else:
        dx, dw, db = (scale_gradient(g, dloss) for g in ctx.saved_tensors)
    return dx, dw, None, (db if ctx.has_bias else None), None, None, None, None, None


FusedLinearCrossEntropyFunction = register_autograd("FusedLinearCrossEntropyFunction", _flce, _setup_context, _backward)


def fused_linear_cross_entropy(input, weight, target, bias=None, ignore_index=-100, lse_square_scale=0.0,
                               label_smoothing=0.0, reduction="mean", softcap=None):
    """Liger's liger_fused_linear_cross_entropy(input, weight, target, bias,
    ...): F.cross_entropy(F.linear(input, weight, bias), target, ...) without
    the logits; input [..., hidden] (flattened to rows), target [...]."""
    if input.shape[:-1] != target.shape:
        raise ValueError("target must have input's leading shape; got input %s, target %s" %
                         (tuple(input.shape), tuple(target.shape)))
    x = input.reshape(-1, input.shape[-1])
    return torch.ops.blk.fused_linear_cross_entropy(x, weight, target.reshape(-1), bias, int(ignore_index),
                                                    float(lse_square_scale), float(label_smoothing), reduction,
                                                    float(softcap or 0.0))[0]


class BlkFusedLinearCrossEntropyLoss(LossOptions):
    """LigerFusedLinearCrossEntropyLoss's shape (without ce_weight,
    return_z_loss and accum_dtype): forward(lin_weight, _input, target, bias=None)."""

    def forward(self, lin_weight, _input, target, bias=None):
        return fused_linear_cross_entropy(_input, lin_weight, target, bias, self.ignore_index, self.lse_square_scale,
                                          self.label_smoothing, self.reduction, self.softcap)
