"""GeGLU over kernels/geglu.blk, as Liger-Kernel's LigerGELUMulFunction
computes it: C = gelu(A) * B, gelu in f32 rounded to A's dtype before the
product; approximate="tanh" (Liger's, PyTorch's F.gelu(approximate="tanh"))
or "none" (PyTorch's exact erf form). The backward recomputes gelu from the
saved A, writing dA and dB over A and B with backward_in_place (as
silu_mul's). Custom ops: torch.ops.blk.gelu_mul, torch.ops.blk.gelu_mul_backward
and torch.ops.blk.gelu_mul_backward_ (in place)."""
from typing import Tuple

import torch

from ._custom import custom_op, register_autograd
from ._kernels import cdiv, kernel
from .swiglu import can_overwrite, glu_backward

_BLOCK = 1024
_APPROXIMATE = {"tanh": False, "none": True}  # -> the kernel's EXACT


def _check(a, b, approximate):
    if approximate not in _APPROXIMATE:
        raise ValueError("approximate must be 'tanh' or 'none', got %r" % (approximate,))
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        raise ValueError("a and b must have one shape, dtype and device")


@custom_op("gelu_mul")
def _gelu_mul(a: torch.Tensor, b: torch.Tensor, approximate: str, backward_in_place: bool = False) -> torch.Tensor:
    _check(a, b, approximate)
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n:
        kernel("geglu.blk", "geglu_forward")[cdiv(n, _BLOCK)](a, b, c, n, T=a.dtype, EXACT=_APPROXIMATE[approximate],
                                                              BLOCK=_BLOCK)
    return c


@_gelu_mul.register_fake
def _(a, b, approximate, backward_in_place=False):
    _check(a, b, approximate)
    return torch.empty_like(a, memory_format=torch.contiguous_format)


def _backward_kernel(dc, a, b, da, db, approximate):
    n = a.numel()
    if n:
        kernel("geglu.blk", "geglu_backward")[cdiv(n, _BLOCK)](dc.contiguous(), a, b, da, db, n, T=a.dtype,
                                                               EXACT=_APPROXIMATE[approximate], BLOCK=_BLOCK)


@custom_op("gelu_mul_backward")
def _gelu_mul_backward(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
                       approximate: str) -> Tuple[torch.Tensor, torch.Tensor]:
    a, b = a.contiguous(), b.contiguous()
    da, db = torch.empty_like(a), torch.empty_like(b)
    _backward_kernel(dc, a, b, da, db, approximate)
    return da, db


@custom_op("gelu_mul_backward_", mutates_args=("a", "b"))
def _gelu_mul_backward_(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor, approximate: str) -> None:
    """dA and dB written over a and b (dense and apart: can_overwrite)."""
    if not can_overwrite(a, b):
        raise ValueError("gelu_mul_backward_ needs a and b dense and apart")
    _backward_kernel(dc, a, b, a, b, approximate)


@_gelu_mul_backward.register_fake
def _(dc, a, b, approximate):
    return (torch.empty_like(a, memory_format=torch.contiguous_format),
            torch.empty_like(b, memory_format=torch.contiguous_format))


def _setup_context(ctx, inputs, output):
    a, b, ctx.approximate, ctx.backward_in_place = inputs
    ctx.save_for_backward(a, b)


def _backward(ctx, dc):
    return (*glu_backward(ctx, dc, torch.ops.blk.gelu_mul_backward_, torch.ops.blk.gelu_mul_backward,
                          ctx.approximate), None, None)


GELUMulFunction = register_autograd("GELUMulFunction", _gelu_mul, _setup_context, _backward)


def gelu_mul(a, b, approximate="tanh", backward_in_place=False):
    """Liger's LigerGELUMulFunction.apply(a, b) (approximate="tanh"), or
    F.gelu(a, approximate="none") * b; gradients for a and b.
    backward_in_place: as silu_mul's."""
    return torch.ops.blk.gelu_mul(a, b, approximate, backward_in_place)


# Hugging Face's activation names (config.hidden_act / hidden_activation) -> F.gelu's approximate.
_ACTIVATIONS = {"gelu_pytorch_tanh": "tanh", "gelu_new": "tanh", "gelu_fast": "tanh", "gelu": "none"}


class BlkGEGLUMLP(torch.nn.Module):
    """LigerGEGLUMLP's shape: down_proj(gelu(gate_proj(x)) * up_proj(x)), the
    activation and product in one blk kernel; the tanh form for
    gelu_pytorch_tanh/gelu_new/gelu_fast, the exact form for gelu."""

    def __init__(self, config):
        super().__init__()
        act = getattr(config, "hidden_activation", None) or getattr(config, "hidden_act", "gelu_pytorch_tanh")
        if act not in _ACTIVATIONS:
            raise ValueError("activation %s is not supported" % act)
        self.config, self.approximate = config, _ACTIVATIONS[act]
        self.hidden_size, self.intermediate_size = config.hidden_size, config.intermediate_size
        self.gate_proj = torch.nn.Linear(self.hidden_size, self.intermediate_size, bias=False)
        self.up_proj = torch.nn.Linear(self.hidden_size, self.intermediate_size, bias=False)
        self.down_proj = torch.nn.Linear(self.intermediate_size, self.hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(gelu_mul(self.gate_proj(x), self.up_proj(x), self.approximate, backward_in_place=True))
