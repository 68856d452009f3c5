"""Generalized Jensen-Shannon divergence over kernels/jsd.blk, Liger-Kernel's
LigerJSD contract: log_q (the student's log-probabilities, the input) and
log_p (the teacher's) of [rows, vocab],
    M = beta * P + (1 - beta) * Q,
    loss = beta * KL(P || M) + (1 - beta) * KL(Q || M)
(beta 0: forward KL(P || Q); beta 1: reverse KL(Q || P)), summed over the
rows and divided by the rows not ignored (rows whose shift_labels entry is
ignore_index count 0). One program per row computes its loss and the
gradient with respect to log_q in the forward; the backward scales it. The
loss has log_q's dtype (Liger's); log_p gets no gradient. Custom op:
torch.ops.blk.jsd (the loss and the saved gradient)."""
from typing import Optional, Tuple

import torch

from ._custom import custom_op, register_autograd, scale_gradient
from ._kernels import kernel, loop_settings
from .cross_entropy import total


def _check(log_q, log_p, shift_labels, beta):
    if not 0.0 <= beta <= 1.0:
        raise ValueError("beta must be in [0, 1], got %r" % (beta,))
    if log_q.dim() != 2 or log_q.shape != log_p.shape or log_q.dtype != log_p.dtype or log_q.device != log_p.device:
        raise ValueError("log_q and log_p must be [rows, vocab] of one shape, dtype and device")
    if shift_labels is not None and (shift_labels.shape != log_q.shape[:1] or
                                     shift_labels.dtype not in (torch.int64, torch.int32)):
        raise ValueError("shift_labels must be an integer tensor of [rows]")


@custom_op("jsd")
def _jsd(log_q: torch.Tensor, log_p: torch.Tensor, shift_labels: Optional[torch.Tensor], beta: float,
         ignore_index: int) -> Tuple[torch.Tensor, torch.Tensor]:
    _check(log_q, log_p, shift_labels, beta)
    x, y = log_q.contiguous(), log_p.contiguous()
    rows, cols = x.shape
    has_label = shift_labels is not None
    labels = shift_labels.to(torch.int64).contiguous() if has_label else torch.empty(1, dtype=torch.int64,
                                                                                        device=x.device)
    n = int((labels != ignore_index).sum()) if has_label else rows
    loss = torch.empty(rows, dtype=torch.float32, device=x.device)
    dx = torch.empty_like(x)
    if x.numel():
        block, warps = loop_settings(cols)
        kernel("jsd.blk", "jsd")[rows](x, y, loss, dx, labels, cols, cols, float(max(n, 1)), int(ignore_index),
                                       T=x.dtype, BETA=float(beta), HAS_LABEL=int(has_label), BLOCK=block,
                                       num_warps=warps)
    return total(loss).to(log_q.dtype), dx


@_jsd.register_fake
def _(log_q, log_p, shift_labels, beta, ignore_index):
    _check(log_q, log_p, shift_labels, beta)
    return log_q.new_empty(()), torch.empty_like(log_q, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(output[1])


def _backward(ctx, dloss, ddx):
    (dx,) = ctx.saved_tensors
    return scale_gradient(dx, dloss), None, None, None, None


JSDFunction = register_autograd("JSDFunction", _jsd, _setup_context, _backward)


def jsd(log_q, log_p, shift_labels=None, beta=0.5, ignore_index=-100):
    """Liger's LigerJSDFunction.apply(log_q, log_p, shift_labels, beta, ignore_index): a scalar loss."""
    return torch.ops.blk.jsd(log_q, log_p, shift_labels, float(beta), int(ignore_index))[0]


class BlkJSD(torch.nn.Module):
    """LigerJSD's shape: BlkJSD(beta=0.5, ignore_index=-100)(log_q, log_p, shift_labels=None)."""

    def __init__(self, beta=0.5, ignore_index=-100):
        super().__init__()
        self.beta, self.ignore_index = beta, ignore_index

    def forward(self, log_q, log_p, shift_labels=None):
        return jsd(log_q, log_p, shift_labels, self.beta, self.ignore_index)
