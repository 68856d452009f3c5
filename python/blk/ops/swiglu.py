"""SwiGLU over kernels/swiglu.blk, as Liger-Kernel computes it: C = silu(A) * B,
silu(A) rounded to A's dtype before the product; the backward recomputes silu
from the saved A."""
import torch

from ._kernels import cdiv, kernel

_BLOCK = 1024


class SiLUMulFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
            raise ValueError("a and b must have one shape, dtype and device")
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            kernel("swiglu.blk", "swiglu_forward")[cdiv(n, _BLOCK)](a, b, c, n, T=a.dtype, BLOCK=_BLOCK)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        da, db = torch.empty_like(a), torch.empty_like(b)
        n = a.numel()
        if n:
            kernel("swiglu.blk", "swiglu_backward")[cdiv(n, _BLOCK)](dc, a, b, da, db, n, T=a.dtype, BLOCK=_BLOCK)
        return da, db


def silu_mul(a, b):
    return SiLUMulFunction.apply(a, b)


class BlkSwiGLUMLP(torch.nn.Module):
    """LigerSwiGLUMLP's shape: down_proj(silu(gate_proj(x)) * up_proj(x)) with
    the activation and product in one blk kernel."""

    def __init__(self, config):
        super().__init__()
        if getattr(config, "hidden_act", "silu") not in ("silu", "swish"):
            raise ValueError("activation %s is not supported" % config.hidden_act)
        self.config = config
        self.hidden_size, self.intermediate_size = config.hidden_size, config.intermediate_size
        self.gate_proj = torch.nn.Linear(self.hidden_size, self.intermediate_size, bias=False)
        self.up_proj = torch.nn.Linear(self.hidden_size, self.intermediate_size, bias=False)
        self.down_proj = torch.nn.Linear(self.intermediate_size, self.hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(silu_mul(self.gate_proj(x), self.up_proj(x)))
