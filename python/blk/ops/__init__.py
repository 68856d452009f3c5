"""Operators over blk's kernels (needs torch), in Liger-Kernel's shapes: for
each a functional form, an autograd.Function (XFunction.apply, as Liger's are
called) and an nn.Module. Each is a torch.library custom op
(torch.ops.blk.NAME, with a fake implementation and an autograd formula), so
torch.compile graphs keep it. CUDA tensors run on the GPU, CPU tensors on
blk's interpreter.

    rms_norm        RMSNormFunction                  BlkRMSNorm
    layer_norm      LayerNormFunction                BlkLayerNorm
    softmax         SoftmaxFunction                  BlkSoftmax
    silu_mul        SiLUMulFunction                  BlkSwiGLUMLP
    gelu_mul        GELUMulFunction                  BlkGEGLUMLP
    rotary_pos_emb  RopeFunction
    cross_entropy   CrossEntropyFunction             BlkCrossEntropyLoss
    fused_linear_cross_entropy  FusedLinearCrossEntropyFunction  BlkFusedLinearCrossEntropyLoss
    kl_div          KLDivLossFunction                BlkKLDIVLoss
    jsd             JSDFunction                      BlkJSD
    attention       AttentionFunction
"""
from .attention import AttentionFunction, attention
from .cross_entropy import BlkCrossEntropyLoss, CrossEntropyFunction, cross_entropy
from .fused_linear_cross_entropy import (BlkFusedLinearCrossEntropyLoss, FusedLinearCrossEntropyFunction,
                                         fused_linear_cross_entropy)
from .geglu import BlkGEGLUMLP, GELUMulFunction, gelu_mul
from .jsd import BlkJSD, JSDFunction, jsd
from .kl_div import BlkKLDIVLoss, KLDivLossFunction, kl_div
from .layer_norm import BlkLayerNorm, LayerNormFunction, layer_norm
from .rms_norm import BlkRMSNorm, RMSNormFunction, rms_norm
from .rope import RopeFunction, rotary_pos_emb
from .softmax import BlkSoftmax, SoftmaxFunction, softmax
from .swiglu import BlkSwiGLUMLP, SiLUMulFunction, silu_mul

__all__ = [
    "rms_norm", "RMSNormFunction", "BlkRMSNorm",
    "layer_norm", "LayerNormFunction", "BlkLayerNorm",
    "softmax", "SoftmaxFunction", "BlkSoftmax",
    "silu_mul", "SiLUMulFunction", "BlkSwiGLUMLP",
    "gelu_mul", "GELUMulFunction", "BlkGEGLUMLP",
    "rotary_pos_emb", "RopeFunction",
    "cross_entropy", "CrossEntropyFunction", "BlkCrossEntropyLoss",
    "fused_linear_cross_entropy", "FusedLinearCrossEntropyFunction", "BlkFusedLinearCrossEntropyLoss",
    "kl_div", "KLDivLossFunction", "BlkKLDIVLoss",
    "jsd", "JSDFunction", "BlkJSD",
    "attention", "AttentionFunction",
]
