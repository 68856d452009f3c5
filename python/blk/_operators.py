"""The operators' C API of libblk_jit.so (include/blk/Ops/blk_ops.h and
blk_jit_ops_runner): fused linear cross-entropy, forward and backward in one
call, on torch tensors (CUDA: the GPU) or host buffers (the interpreter)."""
import ctypes

from . import _arguments, _jit
from . import _library as L
from .errors import LaunchError

DTYPES = {"bf16": L.FLCE_BF16, "f16": L.FLCE_F16}
REDUCTIONS = {"mean": L.FLCE_MEAN, "sum": L.FLCE_SUM, "none": L.FLCE_NONE}


def _pointer(value):
    if value is None:
        return None
    return _arguments.pack([value]).values[0].bits


def flce_args(x, weight, target, grad_input, grad_weight, rows, hidden, vocab, dtype="bf16", bias=None,
              grad_bias=None, loss_rows=None, reduction="mean", ignore_index=-100, label_smoothing=0.0,
              lse_square_scale=0.0, softcap=0.0, chunk_rows=0, tiling=None, stream=None):
    """blk_flce_args for the call (the workspace is set by fused_linear_cross_entropy).
    tiling: "large" (the GPU's) or "small" (the interpreter's); None picks by where x is."""
    a = L.FlceArgs()
    L.library().blk_flce_default_args(ctypes.byref(a))
    a.x, a.weight, a.target = _pointer(x), _pointer(weight), _pointer(target)
    a.grad_input, a.grad_weight = _pointer(grad_input), _pointer(grad_weight)
    a.bias, a.grad_bias, a.loss_rows = _pointer(bias), _pointer(grad_bias), _pointer(loss_rows)
    a.rows, a.hidden, a.vocab = rows, hidden, vocab
    a.dtype, a.reduction = DTYPES[dtype], REDUCTIONS[reduction]
    a.ignore_index, a.label_smoothing = int(ignore_index), float(label_smoothing)
    a.lse_square_scale, a.softcap, a.chunk_rows = float(lse_square_scale), float(softcap), int(chunk_rows)
    if tiling is None:
        tiling = "large" if _arguments._is_cuda(x) else "small"
    a.tiling = L.FLCE_TILING_LARGE if tiling == "large" else L.FLCE_TILING_SMALL
    a.stream = stream
    return a


def flce_workspace_bytes(args):
    """Bytes of scratch the call needs (blk_flce_workspace_bytes); checks the arguments."""
    lib, err, size = L.library(), L.ErrorBuffer(), ctypes.c_size_t()
    if lib.blk_flce_workspace_bytes(ctypes.byref(args), ctypes.byref(size), *err.args()):
        raise LaunchError(err.text())
    return size.value


def fused_linear_cross_entropy(args, buffers, workspace, kernel_dir):
    """blk_flce with `workspace` (flce_workspace_bytes of memory, a tensor or a
    buffer): the loss; the gradients and loss_rows land in their buffers.
    `buffers`: every tensor or buffer the call touches (x, weight, target, the
    gradients, ...): on the interpreter they are registered for it."""
    packed = _arguments.pack(list(buffers) + [workspace])
    args.workspace = packed.values[len(buffers)].bits
    args.workspace_bytes = (workspace.numel() * workspace.element_size() if hasattr(workspace, "numel")
                            else memoryview(workspace).nbytes)
    backend, _ = _jit.backend_of(packed)
    runner = backend.ops_runner(kernel_dir)
    lib, err, loss = L.library(), L.ErrorBuffer(), ctypes.c_double()
    with backend.lock, backend.host_memory(packed.host_ranges):
        rc = lib.blk_flce(runner, ctypes.byref(args), ctypes.byref(loss), *err.args())
    if rc:
        raise LaunchError(err.text())
    return loss.value
