"""The kernels of kernels/ that the operators launch, compiled on first use."""
import functools
import os

from .. import _jit

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel_dir():
    """BLK_KERNEL_DIR, a copy inside the package (blk/kernels), or the source tree's kernels/."""
    for d in (os.environ.get("BLK_KERNEL_DIR"), os.path.join(_PACKAGE_DIR, "kernels"),
              os.path.join(os.path.dirname(os.path.dirname(_PACKAGE_DIR)), "kernels")):
        if d and os.path.isfile(os.path.join(d, "rms_norm.blk")):
            return d
    raise FileNotFoundError("blk's kernels/ not found: set BLK_KERNEL_DIR")


@functools.lru_cache(maxsize=None)
def kernel(file, name):
    return _jit.jit(os.path.join(kernel_dir(), file), kernel=name)


def cdiv(a, b):
    return (a + b - 1) // b


def row_settings(n_cols):
    """BLOCK (the row in one block) and warps, as Liger's calculate_settings picks them."""
    block = 1 << max(n_cols - 1, 0).bit_length()
    if block > 65536:
        raise ValueError("rows of %d elements are longer than the kernels' 65536" % n_cols)
    warps = 16 if block >= 8192 else 8 if block >= 2048 else 4
    return block, warps
