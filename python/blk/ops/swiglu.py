"""SwiGLU over kernels/swiglu.blk, as Liger-Kernel's LigerSiLUMulFunction
computes it: C = silu(A) * B, silu(A) rounded to A's dtype before the
product; the backward recomputes silu from the saved A. Custom ops:
torch.ops.blk.silu_mul and torch.ops.blk.silu_mul_backward."""
from typing import Tuple

import torch

from ._custom import autograd_function, custom_op
from ._kernels import cdiv, kernel

_BLOCK = 1024


def _check(a, b):
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        raise ValueError("a and b must have one shape, dtype and device")


@custom_op("silu_mul")
def _silu_mul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    _check(a, b)
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n:
        kernel("swiglu.blk", "swiglu_forward")[cdiv(n, _BLOCK)](a, b, c, n, T=a.dtype, BLOCK=_BLOCK)
    return c


@_silu_mul.register_fake
def _(a, b):
    _check(a, b)
    return torch.empty_like(a, memory_format=torch.contiguous_format)


@custom_op("silu_mul_backward")
def _silu_mul_backward(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    dc, a, b = dc.contiguous(), a.contiguous(), b.contiguous()
    da, db = torch.empty_like(a), torch.empty_like(b)
    n = a.numel()
    if n:
        kernel("swiglu.blk", "swiglu_backward")[cdiv(n, _BLOCK)](dc, a, b, da, db, n, T=a.dtype, BLOCK=_BLOCK)
    return da, db


@_silu_mul_backward.register_fake
def _(dc, a, b):
    return (torch.empty_like(a, memory_format=torch.contiguous_format),
            torch.empty_like(b, memory_format=torch.contiguous_format))


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _backward(ctx, dc):
    a, b = ctx.saved_tensors
    return torch.ops.blk.silu_mul_backward(dc, a, b)


_silu_mul.register_autograd(_backward, setup_context=_setup_context)

SiLUMulFunction = autograd_function("SiLUMulFunction", _silu_mul, _setup_context, _backward)


def silu_mul(a, b):
    """Liger's LigerSiLUMulFunction.apply(a, b): silu(a) * b, gradients for a and b."""
    return torch.ops.blk.silu_mul(a, b)


class BlkSwiGLUMLP(torch.nn.Module):
    """LigerSwiGLUMLP's shape: down_proj(silu(gate_proj(x)) * up_proj(x)) with
    the activation and product in one blk kernel."""

    def __init__(self, config):
        super().__init__()
        if getattr(config, "hidden_act", "silu") not in ("silu", "swish"):
            raise ValueError("activation %s is not supported" % config.hidden_act)
        self.config = config
        self.hidden_size, self.intermediate_size = config.hidden_size, config.intermediate_size
        bias = bool(getattr(config, "mlp_bias", False))
        self.gate_proj = torch.nn.Linear(self.hidden_size, self.intermediate_size, bias=bias)
        self.up_proj = torch.nn.Linear(self.hidden_size, self.intermediate_size, bias=bias)
        self.down_proj = torch.nn.Linear(self.intermediate_size, self.hidden_size, bias=bias)

    def forward(self, x):
        return self.down_proj(silu_mul(self.gate_proj(x), self.up_proj(x)))
