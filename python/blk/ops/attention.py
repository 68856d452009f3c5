"""Attention over kernels/attention.blk (FlashAttention's algorithm as
Triton's fused-attention tutorial computes it):
O = softmax(Q K^T * scale [+ causal mask]) V, forward and backward, as
torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=...,
scale=..., enable_gqa=True) computes it without dropout or a mask tensor.

q: [batch, heads, seq_q, D], k and v: [batch, kv_heads, seq_k, D] (grouped
queries: query head h reads key/value head h // (heads // kv_heads)), any
strides whose last one is 1; D a power of two from 16 to 256; f16, bf16
(and f32 on the interpreter, with exact f32 products: input_precision
"ieee"). A causal mask aligns the first query with the
first key, as SDPA's is_causal. The forward saves the log-sum-exp of each
row (f32), from which the backward recomputes the probabilities. Custom ops:
torch.ops.blk.attention (the output and the log-sum-exp) and
torch.ops.blk.attention_backward."""
from typing import Tuple

import torch

from ._custom import custom_op, register_autograd
from ._kernels import cdiv, kernel

_DTYPES = (torch.float16, torch.bfloat16, torch.float32)


def _check(q, k, v):
    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError("q, k and v must be [batch, heads, seq, head_dim]; got %s, %s and %s" %
                         (tuple(q.shape), tuple(k.shape), tuple(v.shape)))
    if k.shape != v.shape:
        raise ValueError("k and v must have one shape; got %s and %s" % (tuple(k.shape), tuple(v.shape)))
    b, h, _, d = q.shape
    if k.shape[0] != b or k.shape[3] != d:
        raise ValueError("k must have q's batch and head_dim; got q %s, k %s" % (tuple(q.shape), tuple(k.shape)))
    if k.shape[2] == 0:
        raise ValueError("k and v must hold at least one key")
    if k.shape[1] == 0 or h % k.shape[1]:
        raise ValueError("q's heads (%d) must be a multiple of k's (%d)" % (h, k.shape[1]))
    if d < 16 or d > 256 or d & (d - 1):
        raise ValueError("head_dim must be a power of two from 16 to 256, got %d" % d)
    if q.dtype not in _DTYPES or k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError("q, k and v must have one dtype of f16, bf16 or f32; got %s, %s and %s" %
                         (q.dtype, k.dtype, v.dtype))
    if q.is_cuda and q.dtype == torch.float32:
        raise ValueError("f32 attention runs on the interpreter only (CPU tensors); use f16 or bf16 on the GPU")
    if k.device != q.device or v.device != q.device:
        raise ValueError("q, k and v must be on one device")


def _tiles(t, d):
    """Constexprs and launch settings of the forward and the backward: the
    benchmark's tilings on the GPU for head_dim 64 and 128 (docs/performance.md,
    Attention), small tiles elsewhere. The backward's dK/dV kernel steps over
    queries BLOCK_N * 64 / D at a time: a divisor of BLOCK_M, and at least 16
    (a dot's smallest dimension)."""
    if t.is_cuda and d in (64, 128):
        fwd = dict(BLOCK_M=128, BLOCK_N=128 if d == 128 else 64, num_warps=8, num_stages=3)
        bwd = dict(BLOCK_M=128, BLOCK_N=64, num_warps=8, num_stages=3)
    else:
        # head_dim 256: eight warps, still spilling (ptxas: 0.8-5 KB per thread).
        fwd = bwd = dict(BLOCK_M=64, BLOCK_N=64 if d == 256 else min(32, d), num_warps=8 if d == 256 else 4)
    if t.dtype == torch.float32:
        fwd, bwd = dict(fwd, PRECISION="ieee"), dict(bwd, PRECISION="ieee")
    return fwd, bwd


def _strides(t):
    """The batch, head and row strides of a [batch, heads, seq, D] tensor whose last stride is 1."""
    return list(t.stride()[:3])


def _dense_rows(t):
    return t if t.stride(-1) == 1 else t.contiguous()


def _like_bshd(t):
    """An empty [b, h, s, d] tensor laid out as [b, s, h, d] (the layout a
    model's attention output is transposed back into)."""
    b, h, s, d = t.shape
    return t.new_empty((b, s, h, d)).transpose(1, 2)


@custom_op("attention")
def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool,
               scale: float) -> Tuple[torch.Tensor, torch.Tensor]:
    _check(q, k, v)
    q, k, v = _dense_rows(q), _dense_rows(k), _dense_rows(v)
    b, h, s_q, d = q.shape
    o = _like_bshd(q)
    lse = torch.empty((b, h, s_q), dtype=torch.float32, device=q.device)
    if o.numel():
        fwd, _ = _tiles(q, d)
        kernel("attention.blk", "attention_forward")[cdiv(s_q, fwd["BLOCK_M"]), b * h](
            q, k, v, o, lse, scale, s_q, k.shape[2], h, h // k.shape[1], *_strides(q), *_strides(k), *_strides(v),
            *_strides(o), T=q.dtype, D=d, CAUSAL=causal, **fwd)
    return o, lse


@_attention.register_fake
def _(q, k, v, causal, scale):
    _check(q, k, v)
    b, h, s_q, _ = q.shape
    return _like_bshd(q), q.new_empty((b, h, s_q), dtype=torch.float32)


@custom_op("attention_backward")
def _attention_backward(do: torch.Tensor, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, o: torch.Tensor,
                        lse: torch.Tensor, causal: bool,
                        scale: float) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    q, k, v, o, do = (_dense_rows(t) for t in (q, k, v, o, do))
    b, h, s_q, d = q.shape
    kv_heads, s_k = k.shape[1], k.shape[2]
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    if not q.numel():
        return dq, dk.zero_(), dv.zero_()
    _, bwd = _tiles(q, d)
    consts = dict(T=q.dtype, D=d, **bwd)
    delta = torch.empty_like(lse)
    group = h // kv_heads
    kernel("attention.blk", "attention_backward_preprocess")[cdiv(s_q, bwd["BLOCK_M"]), b * h](
        o, do, delta, s_q, h, *_strides(o), *_strides(do), T=q.dtype, D=d, BLOCK_M=bwd["BLOCK_M"],
        num_warps=bwd["num_warps"])
    common = [scale, s_q, s_k, h, group, *_strides(q), *_strides(k), *_strides(v), *_strides(do)]
    kernel("attention.blk", "attention_backward_dkdv")[cdiv(s_k, bwd["BLOCK_M"]), b * kv_heads](
        q, k, v, do, lse, delta, dk, dv, *common, *_strides(dk), *_strides(dv), CAUSAL=causal, **consts)
    kernel("attention.blk", "attention_backward_dq")[cdiv(s_q, bwd["BLOCK_M"]), b * h](
        q, k, v, do, lse, delta, dq, *common, *_strides(dq), CAUSAL=causal, **consts)
    return dq, dk, dv


@_attention_backward.register_fake
def _(do, q, k, v, o, lse, causal, scale):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


def _setup_context(ctx, inputs, output):
    q, k, v, ctx.causal, ctx.scale = inputs
    ctx.save_for_backward(q, k, v, *output)


def _backward(ctx, do, dlse):
    q, k, v, o, lse = ctx.saved_tensors
    dq, dk, dv = torch.ops.blk.attention_backward(do, q, k, v, o, lse, ctx.causal, ctx.scale)
    return dq, dk, dv, None, None


AttentionFunction = register_autograd("AttentionFunction", _attention, _setup_context, _backward)


def attention(q, k, v, causal=False, scale=None):
    """scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale,
    enable_gqa=True) by blk's kernels; scale defaults to head_dim ** -0.5."""
    scale = q.shape[-1] ** -0.5 if scale is None else float(scale)
    return torch.ops.blk.attention(q, k, v, bool(causal), scale)[0]
