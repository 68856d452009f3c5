"""SwiGLU over kernels/swiglu.blk, as Liger-Kernel's LigerSiLUMulFunction
computes it: C = silu(A) * B, silu(A) rounded to A's dtype before the
product; the backward recomputes silu from the saved A. With
backward_in_place (BlkSwiGLUMLP's choice, Liger's only way) the backward
writes dA and dB over the saved A and B instead of two new tensors of their
size. Custom ops: torch.ops.blk.silu_mul, torch.ops.blk.silu_mul_backward
and torch.ops.blk.silu_mul_backward_ (in place)."""
from typing import Tuple

import torch

from ._custom import custom_op, is_tracing, register_autograd
from ._kernels import cdiv, kernel

_BLOCK = 1024


def _check(a, b):
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        raise ValueError("a and b must have one shape, dtype and device")


def can_overwrite(a, b):
    """Whether a backward may write its gradients over a and b: both dense
    and apart (the kernels read an element of each, then write the same
    element of each), outside a torch.compile trace (whose graph keeps the
    out-of-place form)."""
    if is_tracing() or not (a.is_contiguous() and b.is_contiguous()):
        return False
    bytes_ = a.numel() * a.element_size()
    return a.data_ptr() + bytes_ <= b.data_ptr() or b.data_ptr() + bytes_ <= a.data_ptr()


def glu_backward(ctx, dc, in_place, out_of_place, *options):
    """dA and dB from the saved a and b: written over them by `in_place`
    (a custom op mutating a and b) where ctx.backward_in_place asks and
    can_overwrite allows, else new tensors from `out_of_place`. The saved a
    and b that become the gradients have their version counters bumped, so a
    second backward through the graph is refused rather than misled."""
    a, b = ctx.saved_tensors
    if ctx.backward_in_place and can_overwrite(a, b):
        in_place(dc, a, b, *options)
        return a, b
    return tuple(out_of_place(dc, a, b, *options))


@custom_op("silu_mul")
def _silu_mul(a: torch.Tensor, b: torch.Tensor, backward_in_place: bool = False) -> torch.Tensor:
    _check(a, b)
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n:
        kernel("swiglu.blk", "swiglu_forward")[cdiv(n, _BLOCK)](a, b, c, n, T=a.dtype, BLOCK=_BLOCK)
    return c


@_silu_mul.register_fake
def _(a, b, backward_in_place=False):
    _check(a, b)
    return torch.empty_like(a, memory_format=torch.contiguous_format)


def _backward_kernel(dc, a, b, da, db):
    n = a.numel()
    if n:
        kernel("swiglu.blk", "swiglu_backward")[cdiv(n, _BLOCK)](dc.contiguous(), a, b, da, db, n, T=a.dtype,
                                                                 BLOCK=_BLOCK)


@custom_op("silu_mul_backward")
def _silu_mul_backward(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    a, b = a.contiguous(), b.contiguous()
    da, db = torch.empty_like(a), torch.empty_like(b)
    _backward_kernel(dc, a, b, da, db)
    return da, db


@custom_op("silu_mul_backward_", mutates_args=("a", "b"))
def _silu_mul_backward_(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> None:
    """dA and dB written over a and b (dense and apart: can_overwrite)."""
    if not can_overwrite(a, b):
        raise ValueError("silu_mul_backward_ needs a and b dense and apart")
    _backward_kernel(dc, a, b, a, b)


@_silu_mul_backward.register_fake
def _(dc, a, b):
    return (torch.empty_like(a, memory_format=torch.contiguous_format),
            torch.empty_like(b, memory_format=torch.contiguous_format))


def _setup_context(ctx, inputs, output):
    a, b, ctx.backward_in_place = inputs
    ctx.save_for_backward(a, b)


def _backward(ctx, dc):
    return (*glu_backward(ctx, dc, torch.ops.blk.silu_mul_backward_, torch.ops.blk.silu_mul_backward), None)


SiLUMulFunction = register_autograd("SiLUMulFunction", _silu_mul, _setup_context, _backward)


def silu_mul(a, b, backward_in_place=False):
    """Liger's LigerSiLUMulFunction.apply(a, b): silu(a) * b, gradients for a
    and b. backward_in_place: the backward writes the gradients over a and b
    (for a and b that nothing reads after the backward, as an MLP's
    projections; Liger always does so)."""
    return torch.ops.blk.silu_mul(a, b, backward_in_place)


class BlkSwiGLUMLP(torch.nn.Module):
    """LigerSwiGLUMLP's shape: down_proj(silu(gate_proj(x)) * up_proj(x)) with
    the activation and product in one blk kernel, whose backward writes the
    gradients over the two projections' outputs (no one else reads them)."""

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
        return self.down_proj(silu_mul(self.gate_proj(x), self.up_proj(x), backward_in_place=True))
