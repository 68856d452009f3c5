"""The kernels of kernels/ that the operators launch, compiled on first use,
and the launch settings they share."""
import functools
import os

from .. import _jit

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_dir():
    """BLK_KERNEL_DIR, a copy inside the package (blk/kernels), or the source tree's kernels/."""
    for d in (os.environ.get("BLK_KERNEL_DIR"), os.path.join(_PACKAGE_DIR, "kernels"),
              os.path.join(os.path.dirname(os.path.dirname(_PACKAGE_DIR)), "kernels")):
        if d and os.path.isfile(os.path.join(d, "rms_norm.blk")):
            return os.path.abspath(d)
    raise FileNotFoundError("blk's kernels/ not found: set BLK_KERNEL_DIR")


@functools.lru_cache(maxsize=None)
def kernel(file, name):
    return _jit.jit(os.path.join(kernel_dir(), file), kernel=name)


def cdiv(a, b):
    return (a + b - 1) // b


def next_pow2(n):
    return 1 << max(n - 1, 0).bit_length()


def row_settings(n_cols):
    """BLOCK (the row in one block) and warps, as Liger's calculate_settings picks them."""
    block = next_pow2(n_cols)
    if block > 65536:
        raise ValueError("rows of %d elements are longer than the kernels' 65536" % n_cols)
    warps = 16 if block >= 8192 else 8 if block >= 2048 else 4
    return block, warps


def loop_settings(n_cols, cap=8192):
    """BLOCK and warps of a kernel that loops over a row in BLOCK-wide chunks
    (cross-entropy, KL, JSD): the row in one chunk up to `cap`."""
    block = min(next_pow2(n_cols), cap)
    return block, 16 if block >= 8192 else 8 if block >= 2048 else 4


def norm_backward_programs(rows, device):
    """Programs of a norm backward (each sums dW over a run of rows): two per SM on the GPU."""
    if device.type == "cuda":
        import torch
        return max(1, min(rows, 2 * torch.cuda.get_device_properties(device).multi_processor_count))
    return max(1, min(rows, 8))


def sum_rows(partial, out):
    """out[c] = sum over r of partial[r, c] (f32 partial rows of a norm
    backward) by rms_norm.blk's sum_rows, in out's dtype."""
    rows, cols = partial.shape
    k = kernel("rms_norm.blk", "sum_rows")
    block_c = 16
    k[cdiv(cols, block_c)](partial, out, rows, cols, T=out.dtype, BLOCK_C=block_c)
    return out
