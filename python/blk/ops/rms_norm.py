"""RMSNorm over kernels/rms_norm.blk, as Liger-Kernel's LigerRMSNorm computes
it: Y = X / rms(X) * (offset + W) over the last dimension, casting_mode
"llama" (the normalized row rounded to X's dtype before the weight) or
"gemma" (all in f32, one rounding). The backward gives dX and dW (per-program
partial sums of dW reduced by sum_rows). Custom ops: torch.ops.blk.rms_norm
(Y and the rows' 1/rms) and torch.ops.blk.rms_norm_backward."""
from typing import Tuple

import torch

from ._custom import custom_op, register_autograd
from ._kernels import cdiv, kernel, norm_backward_programs, row_settings, sum_rows

_MODES = {"llama": 0, "gemma": 1}


def _check(X, W, casting_mode):
    if casting_mode not in _MODES:
        raise ValueError("casting_mode must be 'llama' or 'gemma', got %r" % (casting_mode,))
    if W.dtype != X.dtype or W.dim() != 1 or W.shape[0] != X.shape[-1] or W.device != X.device:
        raise ValueError("W must be a vector of X's last dimension, dtype and device")


@custom_op("rms_norm")
def _rms_norm(X: torch.Tensor, W: torch.Tensor, eps: float, offset: float,
              casting_mode: str) -> Tuple[torch.Tensor, torch.Tensor]:
    _check(X, W, casting_mode)
    cols = X.shape[-1]
    X2 = X.reshape(-1, cols).contiguous()
    rows = X2.shape[0]
    Y = torch.empty_like(X2)
    RSTD = torch.empty(rows, dtype=torch.float32, device=X.device)
    block, warps = row_settings(cols)
    if rows:
        kernel("rms_norm.blk", "rms_norm_forward")[rows](
            Y, X2, W.contiguous(), RSTD, cols, cols, float(eps), float(offset), T=X.dtype,
            MODE=_MODES[casting_mode], BLOCK=block, num_warps=warps)
    return Y.view(X.shape), RSTD


@_rms_norm.register_fake
def _(X, W, eps, offset, casting_mode):
    _check(X, W, casting_mode)
    rows = X.numel() // X.shape[-1] if X.shape[-1] else 0
    return torch.empty_like(X, memory_format=torch.contiguous_format), X.new_empty(rows, dtype=torch.float32)


@custom_op("rms_norm_backward")
def _rms_norm_backward(dY: torch.Tensor, X: torch.Tensor, W: torch.Tensor, RSTD: torch.Tensor, offset: float,
                       casting_mode: str) -> Tuple[torch.Tensor, torch.Tensor]:
    cols = X.shape[-1]
    X2 = X.reshape(-1, cols).contiguous()
    dY2 = dY.reshape(-1, cols).contiguous()
    rows = X2.shape[0]
    dX = torch.empty_like(X2)
    dW = torch.empty_like(W)
    if rows == 0:
        return dX.view(X.shape), dW.zero_()
    block, warps = row_settings(cols)
    programs = norm_backward_programs(rows, X.device)
    per = cdiv(rows, programs)
    programs = cdiv(rows, per)
    partial = torch.empty(programs, cols, dtype=torch.float32, device=X.device)
    kernel("rms_norm.blk", "rms_norm_backward")[programs](
        dY2, X2, W.contiguous(), RSTD, dX, partial, rows, cols, cols, float(offset), per, T=X.dtype,
        MODE=_MODES[casting_mode], BLOCK=block, num_warps=warps)
    sum_rows(partial, dW)
    return dX.view(X.shape), dW


@_rms_norm_backward.register_fake
def _(dY, X, W, RSTD, offset, casting_mode):
    return torch.empty_like(X, memory_format=torch.contiguous_format), torch.empty_like(W)


def _setup_context(ctx, inputs, output):
    X, W, eps, offset, casting_mode = inputs
    ctx.save_for_backward(X, W, output[1])
    ctx.offset, ctx.casting_mode = offset, casting_mode


def _backward(ctx, dY, dRSTD):
    X, W, RSTD = ctx.saved_tensors
    dX, dW = torch.ops.blk.rms_norm_backward(dY, X, W, RSTD, ctx.offset, ctx.casting_mode)
    return dX, dW, None, None, None


RMSNormFunction = register_autograd("RMSNormFunction", _rms_norm, _setup_context, _backward)


def rms_norm(X, W, eps=1e-6, offset=0.0, casting_mode="llama"):
    """Liger's LigerRMSNormFunction.apply(X, W, eps, offset, casting_mode): Y
    of X's shape and dtype; gradients for X and W."""
    return torch.ops.blk.rms_norm(X, W, float(eps), float(offset), casting_mode)[0]


class BlkRMSNorm(torch.nn.Module):
    """LigerRMSNorm's shape: a weight of `hidden_size` (ones, or zeros with
    init_fn="zeros" for Gemma's offset 1)."""

    def __init__(self, hidden_size, eps=1e-6, offset=0.0, casting_mode="llama", init_fn="ones"):
        super().__init__()
        if init_fn not in ("ones", "zeros"):
            raise ValueError("init_fn must be 'ones' or 'zeros'")
        self.weight = torch.nn.Parameter(torch.ones(hidden_size) if init_fn == "ones" else torch.zeros(hidden_size))
        self.variance_epsilon, self.offset, self.casting_mode = eps, offset, casting_mode

    def forward(self, hidden_states):
        return rms_norm(hidden_states, self.weight, self.variance_epsilon, self.offset, self.casting_mode)

    def extra_repr(self):
        return "%d, eps=%g, offset=%g, casting_mode=%s" % (self.weight.shape[0], self.variance_epsilon, self.offset,
                                                          self.casting_mode)
