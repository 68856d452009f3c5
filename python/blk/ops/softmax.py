"""Softmax over the last dimension by kernels/softmax.blk, torch.softmax(x,
dim=-1)'s contract as Liger-Kernel's LigerSoftmaxFunction computes it: in f32,
rounded once to x's dtype, one row per program (rows of at most 65536). The
backward is dX = Y * (dY - sum(dY * Y)) from the saved Y. Custom ops:
torch.ops.blk.softmax and torch.ops.blk.softmax_backward."""
import torch

from ._custom import custom_op, register_autograd
from ._kernels import kernel, row_settings


def _rows(x):
    cols = x.shape[-1]
    return x.reshape(-1, cols).contiguous(), cols


@custom_op("softmax")
def _softmax(x: torch.Tensor) -> torch.Tensor:
    x2, cols = _rows(x)
    y = torch.empty_like(x2)
    if x2.numel():
        block, warps = row_settings(cols)
        kernel("softmax.blk", "softmax_forward")[x2.shape[0]](x2, y, cols, cols, T=x.dtype, BLOCK=block,
                                                             num_warps=warps)
    return y.view(x.shape)


@_softmax.register_fake
def _(x):
    return torch.empty_like(x, memory_format=torch.contiguous_format)


@custom_op("softmax_backward")
def _softmax_backward(dy: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    y2, cols = _rows(y)
    dy2 = dy.reshape(-1, cols).contiguous()
    dx = torch.empty_like(y2)
    if y2.numel():
        block, warps = row_settings(cols)
        kernel("softmax.blk", "softmax_backward")[y2.shape[0]](dy2, y2, dx, cols, cols, T=y.dtype, BLOCK=block,
                                                              num_warps=warps)
    return dx.view(y.shape)


@_softmax_backward.register_fake
def _(dy, y):
    return torch.empty_like(y, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(output)


def _backward(ctx, dy):
    (y,) = ctx.saved_tensors
    return torch.ops.blk.softmax_backward(dy, y)


SoftmaxFunction = register_autograd("SoftmaxFunction", _softmax, _setup_context, _backward)


def softmax(x):
    """Liger's LigerSoftmaxFunction.apply(x): torch.softmax(x, dim=-1), with its gradient."""
    return torch.ops.blk.softmax(x)


class BlkSoftmax(torch.nn.Module):
    """LigerSoftmax's shape: softmax over the last dimension."""

    def forward(self, x):
        return softmax(x)
