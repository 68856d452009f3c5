"""KL divergence loss over kernels/kl_div_loss.blk, torch.nn.KLDivLoss's
contract as Liger-Kernel's LigerKLDIVLoss computes it: y_pred holds
log-probabilities, y_true probabilities (or log-probabilities with
log_target); loss = y_true * (log(max(y_true, eps)) - y_pred) elementwise,
reduced by "batchmean" (sum / input.size(0)), "sum", "mean" (sum / numel) or
"none". One program per row over the last dimension, in f32; the loss is
f32 (Liger's), the row sums totalled by reduce.blk's sum_all. The gradient
flows to y_pred only (as in Liger's). Custom ops: torch.ops.blk.kl_div and
torch.ops.blk.kl_div_backward."""
import torch

from ._custom import custom_op, register_autograd
from ._kernels import kernel, loop_settings

_REDUCTIONS = {"none": 0, "sum": 1, "mean": 2, "batchmean": 3}  # the kernels' REDUCTION


def _check(y_pred, y_true, reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError("reduction must be 'batchmean', 'sum', 'mean' or 'none', got %r" % (reduction,))
    if y_pred.shape != y_true.shape or y_pred.dtype != y_true.dtype or y_pred.device != y_true.device:
        raise ValueError("y_pred and y_true must have one shape, dtype and device")
    if y_pred.dim() == 0:
        raise ValueError("y_pred must have at least one dimension")


def _divisor(y, reduction):
    return {"none": 1, "sum": 1, "mean": max(y.numel(), 1), "batchmean": max(y.shape[0], 1)}[reduction]


def _rows(y):
    return y.reshape(-1, y.shape[-1]).contiguous()


@custom_op("kl_div")
def _kl_div(y_pred: torch.Tensor, y_true: torch.Tensor, reduction: str, log_target: bool,
            eps: float) -> torch.Tensor:
    _check(y_pred, y_true, reduction)
    pred, true = _rows(y_pred), _rows(y_true)
    rows, cols = pred.shape
    none = reduction == "none"
    loss = torch.empty((rows, cols) if none else (rows,), dtype=torch.float32, device=pred.device)
    if pred.numel():
        block, warps = loop_settings(cols)
        kernel("kl_div_loss.blk", "kl_div_forward")[rows](
            pred, true, loss, cols, cols, float(eps), T=pred.dtype, LOG_TARGET=int(log_target),
            REDUCTION=_REDUCTIONS[reduction], BLOCK=block, num_warps=warps)
    if none:
        return loss.view(y_pred.shape)
    out = torch.zeros(1, dtype=torch.float32, device=pred.device)
    if rows:
        kernel("reduce.blk", "sum_all")[1](loss, out, rows, 1.0 / _divisor(y_pred, reduction))
    return out.view(())


@_kl_div.register_fake
def _(y_pred, y_true, reduction, log_target, eps):
    _check(y_pred, y_true, reduction)
    return y_pred.new_empty(y_pred.shape if reduction == "none" else (), dtype=torch.float32)


@custom_op("kl_div_backward")
def _kl_div_backward(dloss: torch.Tensor, y_true: torch.Tensor, reduction: str, log_target: bool) -> torch.Tensor:
    true = _rows(y_true)
    rows, cols = true.shape
    grad = torch.empty_like(true)
    if true.numel():
        block, warps = loop_settings(cols)
        kernel("kl_div_loss.blk", "kl_div_backward")[rows](
            true, grad, cols, cols, 1.0 / _divisor(y_true, reduction), T=true.dtype, LOG_TARGET=int(log_target),
            REDUCTION=_REDUCTIONS[reduction], BLOCK=block, num_warps=warps)
    grad = grad.view(y_true.shape)
    return grad.mul_(dloss.to(grad.dtype))  # the upstream gradient: a scalar, or elementwise for "none"


@_kl_div_backward.register_fake
def _(dloss, y_true, reduction, log_target):
    return torch.empty_like(y_true, memory_format=torch.contiguous_format)


def _setup_context(ctx, inputs, output):
    y_pred, y_true, reduction, log_target, eps = inputs
    ctx.save_for_backward(y_true)
    ctx.reduction, ctx.log_target = reduction, log_target


def _backward(ctx, dloss):
    (y_true,) = ctx.saved_tensors
    return torch.ops.blk.kl_div_backward(dloss, y_true, ctx.reduction, ctx.log_target), None, None, None, None


KLDivLossFunction = register_autograd("KLDivLossFunction", _kl_div, _setup_context, _backward)


def kl_div(y_pred, y_true, reduction="batchmean", log_target=False, eps=1e-10):
    """Liger's LigerKLDivLossFunction.apply(y_pred, y_true, reduction,
    log_target, eps): F.kl_div(y_pred, y_true, reduction=..., log_target=...)
    with y_true clamped to eps inside the log."""
    return torch.ops.blk.kl_div(y_pred, y_true, reduction, bool(log_target), float(eps))


class BlkKLDIVLoss(torch.nn.KLDivLoss):
    """LigerKLDIVLoss's shape: torch.nn.KLDivLoss(reduction=, log_target=) with eps."""

    def __init__(self, eps=1e-10, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.eps = eps

    def forward(self, y_pred, y_true):
        return kl_div(y_pred, y_true, self.reduction, self.log_target, self.eps)
