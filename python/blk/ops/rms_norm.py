"""RMSNorm over kernels/rms_norm.blk, as Liger-Kernel computes it:
Y = X / rms(X) * (offset + W) over the last dimension; the backward gives dX
and dW (per-program partial sums of dW reduced by sum_rows)."""
import torch

from ._kernels import cdiv, kernel, row_settings

_MODES = {"llama": 0, "gemma": 1}


def _backward_programs(rows, device):
    if device.type == "cuda":
        return min(rows, 2 * torch.cuda.get_device_properties(device).multi_processor_count)
    return min(rows, 8)


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, W, eps=1e-6, offset=0.0, casting_mode="llama"):
        if casting_mode not in _MODES:
            raise ValueError("casting_mode must be 'llama' or 'gemma', got %r" % (casting_mode,))
        if W.dtype != X.dtype or W.dim() != 1 or W.shape[0] != X.shape[-1] or W.device != X.device:
            raise ValueError("W must be a vector of X's last dimension, dtype and device")
        shape, cols = X.shape, X.shape[-1]
        X2 = X.reshape(-1, cols).contiguous()
        rows = X2.shape[0]
        W = W.contiguous()
        Y = torch.empty_like(X2)
        RSTD = torch.empty(rows, dtype=torch.float32, device=X.device)
        block, warps = row_settings(cols)
        mode = _MODES[casting_mode]
        if rows:
            kernel("rms_norm.blk", "rms_norm_forward")[rows](
                Y, X2, W, RSTD, cols, cols, float(eps), float(offset), T=X.dtype, MODE=mode, BLOCK=block,
                num_warps=warps)
        ctx.save_for_backward(X2, W, RSTD)
        ctx.offset, ctx.mode, ctx.shape = float(offset), mode, shape
        return Y.view(shape)

    @staticmethod
    def backward(ctx, dY):
        X2, W, RSTD = ctx.saved_tensors
        rows, cols = X2.shape
        dY2 = dY.reshape(-1, cols).contiguous()
        dX = torch.empty_like(X2)
        dW = torch.empty_like(W)
        block, warps = row_settings(cols)
        if rows == 0:
            return dX.view(ctx.shape), dW.zero_(), None, None, None
        programs = _backward_programs(rows, X2.device)
        per = cdiv(rows, programs)
        programs = cdiv(rows, per)
        partial = torch.empty(programs, cols, dtype=torch.float32, device=X2.device)
        kernel("rms_norm.blk", "rms_norm_backward")[programs](
            dY2, X2, W, RSTD, dX, partial, rows, cols, cols, ctx.offset, per, T=X2.dtype, MODE=ctx.mode, BLOCK=block,
            num_warps=warps)
        kernel("rms_norm.blk", "sum_rows")[cdiv(cols, 128)](partial, dW, programs, cols, T=W.dtype)
        return dX.view(ctx.shape), dW, None, None, None


def rms_norm(X, W, eps=1e-6, offset=0.0, casting_mode="llama"):
    return RMSNormFunction.apply(X, W, eps, offset, casting_mode)


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
