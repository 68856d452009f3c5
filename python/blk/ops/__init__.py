"""Autograd functions and modules over blk's kernels (needs torch): RMSNorm
and SwiGLU, shaped like Liger-Kernel's. CUDA tensors run on the GPU, CPU
tensors on blk's interpreter."""
from .rms_norm import BlkRMSNorm, RMSNormFunction, rms_norm
from .swiglu import BlkSwiGLUMLP, SiLUMulFunction, silu_mul

__all__ = ["RMSNormFunction", "rms_norm", "BlkRMSNorm", "SiLUMulFunction", "silu_mul", "BlkSwiGLUMLP"]
