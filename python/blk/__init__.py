"""blk from Python: compile .blk kernels in process and launch them.

    import blk
    add = blk.jit("kernels/vector_add.blk", T="f32")
    add[(n + 1023) // 1024](x, y, out, n)

CUDA torch tensors launch on the GPU (torch's current stream); host buffers
(array.array, ctypes arrays, numpy arrays, CPU tensors) on the CPU interpreter.
`blk.ops` (needs torch 2.4+) holds the kernels of kernels/ as PyTorch custom
ops with their backward, in Liger-Kernel's shapes; `blk.transformers` patches
Hugging Face models with them in one line."""
from ._arguments import TensorDescriptor
from ._jit import Kernel, cache_stats, jit, kernel_names
from ._library import library_path
from .errors import BlkError, CompileError, LaunchError

__all__ = ["jit", "Kernel", "kernel_names", "cache_stats", "library_path", "BlkError", "CompileError",
           "LaunchError", "TensorDescriptor"]
