"""Cross-entropy over kernels/cross_entropy.blk, Liger-Kernel's
LigerCrossEntropyLoss semantics (PyTorch's F.cross_entropy on [rows,
classes] logits and class targets): ignore_index, label_smoothing, reduction
"mean" (over the rows not ignored), "sum" or "none", plus Liger's
lse_square_scale (z-loss added to each row's loss) and softcap (logits pass
through softcap * tanh(x / softcap) first). One program per row computes the
loss and writes the logits' gradient in the forward, as Liger's kernel does;
the backward scales it by the upstream gradient. The loss has the logits'
dtype (Liger's). Not supported: class weights and return_z_loss. Custom op:
torch.ops.blk.cross_entropy (the loss and the saved gradient)."""
from typing import Tuple

import torch

from ._custom import custom_op, register_autograd, scale_gradient
from ._kernels import kernel, loop_settings

REDUCTIONS = {"mean": 0, "sum": 1, "none": 2}  # the kernel's REDUCTION


def check_options(reduction, label_smoothing, softcap):
    if reduction not in REDUCTIONS:
        raise ValueError("reduction must be 'mean', 'sum' or 'none', got %r" % (reduction,))
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError("label_smoothing must be in [0, 1], got %r" % (label_smoothing,))
    if not softcap >= 0.0:
        raise ValueError("softcap must be positive (0: none), got %r" % (softcap,))


def _check(logits, target, reduction, label_smoothing, softcap):
    check_options(reduction, label_smoothing, softcap)
    if logits.dim() != 2 or target.shape != logits.shape[:1]:
        raise ValueError("logits must be [rows, classes] and target [rows]; got %s and %s" %
                         (tuple(logits.shape), tuple(target.shape)))
    if target.dtype not in (torch.int64, torch.int32) or target.device != logits.device:
        raise ValueError("target must be an integer tensor on the logits' device")


def loss_rows_gradient(G, target, ignore_index, lse_square_scale, label_smoothing, reduction, softcap,
                       n_non_ignore):
    """Runs the kernel over G ([rows, classes], contiguous, overwritten with
    the gradient): each row's loss (f32), divided by n_non_ignore for "mean"."""
    rows, cols = G.shape
    loss = torch.empty(rows, dtype=torch.float32, device=G.device)
    if rows:
        block, warps = loop_settings(cols)
        kernel("cross_entropy.blk", "cross_entropy")[rows](
            G, target, loss, cols, G.stride(0), float(max(n_non_ignore, 1)), int(ignore_index), float(label_smoothing),
            float(lse_square_scale), float(softcap) if softcap else 1.0, T=G.dtype, REDUCTION=REDUCTIONS[reduction],
            SOFTCAP=1 if softcap else 0, BLOCK=block, num_warps=warps)
    return loss


def total(loss_rows):
    """The sum of f32 row losses by reduce.blk's sum_all (one program, deterministic), as a 0-d tensor."""
    out = torch.empty(1, dtype=torch.float32, device=loss_rows.device)
    n = loss_rows.numel()
    if n == 0:
        return out.zero_().view(())
    kernel("reduce.blk", "sum_all")[1](loss_rows, out, n, 1.0)
    return out.view(())


@custom_op("cross_entropy")
def _cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int, lse_square_scale: float,
                   label_smoothing: float, reduction: str, softcap: float) -> Tuple[torch.Tensor, torch.Tensor]:
    _check(logits, target, reduction, label_smoothing, softcap)
    target = target.to(torch.int64).contiguous()
    G = torch.empty_like(logits, memory_format=torch.contiguous_format).copy_(logits)
    n = int((target != ignore_index).sum()) if reduction == "mean" else 1
    rows = loss_rows_gradient(G, target, ignore_index, lse_square_scale, label_smoothing, reduction, softcap, n)
    loss = rows if reduction == "none" else total(rows)
    return loss.to(logits.dtype), G


@_cross_entropy.register_fake
def _(logits, target, ignore_index, lse_square_scale, label_smoothing, reduction, softcap):
    _check(logits, target, reduction, label_smoothing, softcap)
    loss = logits.new_empty(logits.shape[:1] if reduction == "none" else ())
    return loss, torch.empty_like(logits, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    ctx.save_for_backward(output[1])
    ctx.reduction = inputs[5]


def _backward(ctx, dloss, dG):
    (G,) = ctx.saved_tensors
    upstream = dloss.unsqueeze(-1) if ctx.reduction == "none" else dloss
    return scale_gradient(G, upstream), None, None, None, None, None, None


CrossEntropyFunction = register_autograd("CrossEntropyFunction", _cross_entropy, _setup_context, _backward)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0, lse_square_scale=0.0, softcap=None):
    """F.cross_entropy(input, target, ...) for input [rows, classes] and class
    targets, with Liger's lse_square_scale and softcap; Liger's
    liger_cross_entropy. weight, size_average and reduce must be None."""
    if weight is not None or size_average is not None or reduce is not None:
        raise NotImplementedError("blk's cross_entropy takes no class weights, size_average or reduce")
    return torch.ops.blk.cross_entropy(input, target, int(ignore_index), float(lse_square_scale),
                                       float(label_smoothing), reduction, float(softcap or 0.0))[0]


class LossOptions(torch.nn.Module):
    """The options Liger's cross-entropy losses take, checked once."""

    def __init__(self, ignore_index=-100, lse_square_scale=0.0, label_smoothing=0.0, reduction="mean",
                 softcap=None):
        super().__init__()
        check_options(reduction, label_smoothing, float(softcap or 0.0))
        self.ignore_index, self.lse_square_scale, self.label_smoothing = ignore_index, lse_square_scale, label_smoothing
        self.reduction, self.softcap = reduction, softcap


class BlkCrossEntropyLoss(LossOptions):
    """LigerCrossEntropyLoss's shape (without weight and return_z_loss):
    forward(_input [rows, classes], target [rows])."""

    def forward(self, _input, target):
        return cross_entropy(_input, target, ignore_index=self.ignore_index, reduction=self.reduction,
                             label_smoothing=self.label_smoothing, lse_square_scale=self.lse_square_scale,
                             softcap=self.softcap)
