"""Rotary position embedding by kernels/rope.blk, Liger-Kernel's
liger_rotary_pos_emb contract (Hugging Face's apply_rotary_pos_emb, the
rotate-half form): q [batch, heads, seq, head_dim], k [batch, kv_heads, seq,
head_dim], cos and sin [1 or batch, seq, head_dim] (or [seq, head_dim]);
returns the rotated q and k. Q and K rotate in one launch, one program per
(batch, position) row, in f32 rounded once to q's dtype. cos and sin get no
gradient (as in Liger's). Custom ops on the [batch, seq, heads, head_dim]
layout: torch.ops.blk.rope and torch.ops.blk.rope_backward."""
from typing import Tuple

import torch

from ._custom import custom_op, register_autograd
from ._kernels import kernel, next_pow2


def _check(q, k, cos, sin):
    if q.dim() != 4 or k.dim() != 4:
        raise ValueError("q and k must be 4-D [batch, seq, heads, head_dim] here")
    if q.dtype != k.dtype or q.device != k.device:
        raise ValueError("q and k must have one dtype and device")
    b, s, _, hd = q.shape
    if k.shape[0] != b or k.shape[1] != s or k.shape[3] != hd or hd % 2:
        raise ValueError("k must match q's batch, sequence and (even) head_dim; got q %s, k %s" %
                         (tuple(q.shape), tuple(k.shape)))
    for name, t in (("cos", cos), ("sin", sin)):
        if t.dim() != 3 or t.shape[0] not in (1, b) or t.shape[1] != s or t.shape[2] != hd:
            raise ValueError("%s must be [1 or batch, seq, head_dim] = [1 or %d, %d, %d], got %s" %
                             (name, b, s, hd, tuple(t.shape)))
    if cos.shape[0] != sin.shape[0]:
        raise ValueError("cos and sin must have one shape")


def _rotate(q, k, cos, sin, name):
    """Copies of q and k ([batch, seq, heads, hd]) rotated in place by rope_forward or rope_backward."""
    _check(q, k, cos, sin)
    q = torch.empty_like(q, memory_format=torch.contiguous_format).copy_(q)
    k = torch.empty_like(k, memory_format=torch.contiguous_format).copy_(k)
    b, s, n_qh, hd = q.shape
    n_kh = k.shape[2]
    if q.numel() == 0 and k.numel() == 0:
        return q, k
    cos = cos.to(q.dtype).contiguous()
    sin = sin.to(q.dtype).contiguous()
    pad_qh, pad_kh, pad_hd = next_pow2(n_qh), next_pow2(n_kh), next_pow2(hd)
    warps = 8 if pad_qh * pad_hd >= 2048 else 4
    kernel("rope.blk", name)[b * s](
        q, n_qh * hd, k, n_kh * hd, cos, hd, sin, hd, s, cos.shape[0], n_qh, n_kh, hd, T=q.dtype,
        PAD_QH=pad_qh, PAD_KH=pad_kh, PAD_HD=pad_hd, num_warps=warps)
    return q, k


@custom_op("rope")
def _rope(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor,
          sin: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return _rotate(q, k, cos, sin, "rope_forward")


@_rope.register_fake
def _(q, k, cos, sin):
    _check(q, k, cos, sin)
    return (torch.empty_like(q, memory_format=torch.contiguous_format),
            torch.empty_like(k, memory_format=torch.contiguous_format))


@custom_op("rope_backward")
def _rope_backward(dq: torch.Tensor, dk: torch.Tensor, cos: torch.Tensor,
                   sin: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return _rotate(dq, dk, cos, sin, "rope_backward")


@_rope_backward.register_fake
def _(dq, dk, cos, sin):
    return (torch.empty_like(dq, memory_format=torch.contiguous_format),
            torch.empty_like(dk, memory_format=torch.contiguous_format))


def _setup_context(ctx, inputs, output):
    q, k, cos, sin = inputs
    ctx.save_for_backward(cos, sin)
    ctx.shapes = q.shape, k.shape


def _backward(ctx, dq, dk):
    cos, sin = ctx.saved_tensors
    like = dq if dq is not None else dk
    dq = dq if dq is not None else like.new_zeros(ctx.shapes[0])
    dk = dk if dk is not None else like.new_zeros(ctx.shapes[1])
    dq_in, dk_in = torch.ops.blk.rope_backward(dq, dk, cos, sin)
    return dq_in, dk_in, None, None


RopeFunction = register_autograd("RopeFunction", _rope, _setup_context, _backward, keep=2)


def _cos_sin(cos, sin):
    return (cos if cos.dim() == 3 else cos.unsqueeze(0)), (sin if sin.dim() == 3 else sin.unsqueeze(0))


def rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
    """liger_rotary_pos_emb(q, k, cos, sin, position_ids=None, unsqueeze_dim=1):
    q and k [batch, heads, seq, head_dim] (unsqueeze_dim=1, Hugging Face's
    layout) or [batch, seq, heads, head_dim] (unsqueeze_dim=2); cos and sin
    [1 or batch, seq, head_dim]; position_ids is not used (cos and sin are
    already gathered), as in Liger's. Returns (q_embed, k_embed)."""
    if unsqueeze_dim not in (1, 2):
        raise ValueError("unsqueeze_dim must be 1 ([batch, heads, seq, hd]) or 2 ([batch, seq, heads, hd])")
    cos, sin = _cos_sin(cos, sin)
    if unsqueeze_dim == 2:
        return torch.ops.blk.rope(q, k, cos, sin)
    q_rows, k_rows = torch.ops.blk.rope(q.transpose(1, 2), k.transpose(1, 2), cos, sin)
    return q_rows.transpose(1, 2), k_rows.transpose(1, 2)
