"""LayerNorm over kernels/layer_norm.blk, torch.nn.functional.layer_norm's
contract over the last dimension as Liger-Kernel's LigerLayerNormFunction
computes it: Y = (X - mean) * rstd * W + B in f32, rounded once to X's dtype.
The backward gives dX, dW and dB (per-program partial sums reduced by
rms_norm.blk's sum_rows). Custom ops: torch.ops.blk.layer_norm (Y and the
rows' mean and rstd) and torch.ops.blk.layer_norm_backward."""
from typing import Optional, Tuple

import torch

from ._custom import custom_op, register_autograd
from ._kernels import cdiv, kernel, norm_backward_programs, row_settings, sum_rows


def _check(X, W, B):
    for name, t in (("W", W), ("B", B)):
        if t is not None and (t.dtype != X.dtype or t.dim() != 1 or t.shape[0] != X.shape[-1] or
                              t.device != X.device):
            raise ValueError("%s must be a vector of X's last dimension, dtype and device" % name)


@custom_op("layer_norm")
def _layer_norm(X: torch.Tensor, W: torch.Tensor, B: Optional[torch.Tensor],
                eps: float) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    _check(X, W, B)
    cols = X.shape[-1]
    X2 = X.reshape(-1, cols).contiguous()
    rows = X2.shape[0]
    Y = torch.empty_like(X2)
    MEAN = torch.empty(rows, dtype=torch.float32, device=X.device)
    RSTD = torch.empty(rows, dtype=torch.float32, device=X.device)
    if rows:
        block, warps = row_settings(cols)
        bias = B.contiguous() if B is not None else torch.zeros_like(W)
        kernel("layer_norm.blk", "layer_norm_forward")[rows](
            Y, X2, W.contiguous(), bias, MEAN, RSTD, cols, cols, float(eps), T=X.dtype, BLOCK=block,
            num_warps=warps)
    return Y.view(X.shape), MEAN, RSTD


@_layer_norm.register_fake
def _(X, W, B, eps):
    _check(X, W, B)
    rows = X.numel() // X.shape[-1] if X.shape[-1] else 0
    return (torch.empty_like(X, memory_format=torch.contiguous_format),
            X.new_empty(rows, dtype=torch.float32), X.new_empty(rows, dtype=torch.float32))


@custom_op("layer_norm_backward")
def _layer_norm_backward(dY: torch.Tensor, X: torch.Tensor, W: torch.Tensor, MEAN: torch.Tensor,
                         RSTD: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    cols = X.shape[-1]
    X2 = X.reshape(-1, cols).contiguous()
    dY2 = dY.reshape(-1, cols).contiguous()
    rows = X2.shape[0]
    dX = torch.empty_like(X2)
    dW, dB = torch.empty_like(W), torch.empty_like(W)
    if rows == 0:
        return dX.view(X.shape), dW.zero_(), dB.zero_()
    block, warps = row_settings(cols)
    programs = norm_backward_programs(rows, X.device)
    per = cdiv(rows, programs)
    programs = cdiv(rows, per)
    dw_partial = torch.empty(programs, cols, dtype=torch.float32, device=X.device)
    db_partial = torch.empty(programs, cols, dtype=torch.float32, device=X.device)
    kernel("layer_norm.blk", "layer_norm_backward")[programs](
        dY2, X2, W.contiguous(), MEAN, RSTD, dX, dw_partial, db_partial, rows, cols, cols, per, T=X.dtype,
        BLOCK=block, num_warps=warps)
    sum_rows(dw_partial, dW)
    sum_rows(db_partial, dB)
    return dX.view(X.shape), dW, dB


@_layer_norm_backward.register_fake
def _(dY, X, W, MEAN, RSTD):
    return torch.empty_like(X, memory_format=torch.contiguous_format), torch.empty_like(W), torch.empty_like(W)


def _setup_context(ctx, inputs, output):
    X, W, B, eps = inputs
    ctx.save_for_backward(X, W, output[1], output[2])
    ctx.has_bias = B is not None


def _backward(ctx, dY, dMEAN, dRSTD):
    X, W, MEAN, RSTD = ctx.saved_tensors
    dX, dW, dB = torch.ops.blk.layer_norm_backward(dY, X, W, MEAN, RSTD)
    return dX, dW, dB if ctx.has_bias else None, None


LayerNormFunction = register_autograd("LayerNormFunction", _layer_norm, _setup_context, _backward)


def layer_norm(X, W, B=None, eps=1e-6):
    """Liger's LigerLayerNormFunction.apply(X, W, B, eps) (B may be None):
    F.layer_norm(X, (X.shape[-1],), W, B, eps); gradients for X, W and B."""
    return torch.ops.blk.layer_norm(X, W, B, float(eps))[0]


class BlkLayerNorm(torch.nn.Module):
    """LigerLayerNorm's shape: weight (ones, or zeros with init_fn="zeros") and
    bias (zeros, or random with bias=True as Liger initializes it)."""

    def __init__(self, hidden_size, eps=1e-6, bias=False, init_fn="ones"):
        super().__init__()
        if init_fn not in ("ones", "zeros"):
            raise ValueError("init_fn must be 'ones' or 'zeros'")
        self.hidden_size, self.eps, self.variance_epsilon = hidden_size, eps, eps
        self.weight = torch.nn.Parameter(torch.ones(hidden_size) if init_fn == "ones" else torch.zeros(hidden_size))
        self.bias = torch.nn.Parameter(torch.randn(hidden_size) if bias else torch.zeros(hidden_size))

    def forward(self, hidden_states):
        return layer_norm(hidden_states, self.weight, self.bias, self.variance_epsilon)

    def extra_repr(self):
        return "%d, eps=%g" % (self.hidden_size, self.eps)
