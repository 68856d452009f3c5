"""Finds libblk_jit.so (the C API of blk's JIT, include/blk/blk_c.h) and
declares its functions for ctypes."""
import ctypes
import ctypes.util
import os

from .errors import BlkError

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SOURCE_ROOT = os.path.dirname(os.path.dirname(_PACKAGE_DIR))  # python/blk -> the repository

BACKEND_CUDA = 0
BACKEND_CPU = 1
VALUE_POINTER = 0
VALUE_INT = 1
VALUE_FLOAT = 2


class Value(ctypes.Structure):
    """blk_value: a launch argument."""
    _fields_ = [("kind", ctypes.c_int), ("bits", ctypes.c_uint64), ("real", ctypes.c_double)]


def candidate_paths():
    """Where the library is looked for, in order."""
    paths = []
    if os.environ.get("BLK_LIBRARY"):
        paths.append(os.environ["BLK_LIBRARY"])
    paths.append(os.path.join(_PACKAGE_DIR, "libblk_jit.so"))  # a copy next to the package
    paths.append(os.path.join(_SOURCE_ROOT, "build", "lib", "libblk_jit.so"))  # the source tree's build
    found = ctypes.util.find_library("blk_jit")  # `cmake --install` into a prefix the loader knows
    if found:
        paths.append(found)
    return paths


_c = ctypes.c_char_p
_size = ctypes.c_size_t
_ptr = ctypes.c_void_p
_err = [ctypes.c_char_p, ctypes.c_size_t]
_PROTOTYPES = {
    "blk_jit_create": (_ptr, [ctypes.c_int]),
    "blk_jit_destroy": (None, [_ptr]),
    "blk_jit_available": (ctypes.c_int, [_ptr] + _err),
    "blk_jit_compile_file": (ctypes.c_int, [_ptr, _c, _c, _c, _c, ctypes.c_uint, ctypes.POINTER(_ptr)] + _err),
    "blk_jit_compile_source": (ctypes.c_int, [_ptr, _c, _c, _c, _c, ctypes.c_uint, ctypes.POINTER(_ptr)] + _err),
    "blk_jit_kernel_destroy": (None, [_ptr]),
    "blk_jit_launch": (ctypes.c_int, [_ptr, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, _ptr,
                                      ctypes.POINTER(Value), ctypes.c_int] + _err),
    "blk_jit_kernel_specialization": (ctypes.c_int, [_ptr, ctypes.POINTER(Value), ctypes.c_int, _c, _size] + _err),
    "blk_jit_kernel_num_variants": (_size, [_ptr]),
    "blk_jit_kernel_descriptor_block": (ctypes.c_int,
                                        [_ptr, ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.c_int]),
    "blk_jit_kernel_names": (ctypes.c_int, [_ptr, _c, _c, _c, _size] + _err),
    "blk_jit_register_host_memory": (ctypes.c_int, [_ptr, _ptr, _size] + _err),
    "blk_jit_unregister_host_memory": (ctypes.c_int, [_ptr, _ptr] + _err),
    "blk_jit_cache_stats": (None, [_ptr, ctypes.POINTER(_size), ctypes.POINTER(_size), ctypes.POINTER(_size)]),
}


class FlceArgs(ctypes.Structure):
    """blk_flce_args of include/blk/Ops/blk_ops.h, field for field."""
    _fields_ = [("x", _ptr), ("weight", _ptr), ("target", _ptr), ("bias", _ptr), ("grad_input", _ptr),
                ("grad_weight", _ptr), ("grad_bias", _ptr), ("loss_rows", _ptr), ("workspace", _ptr),
                ("workspace_bytes", _size), ("rows", ctypes.c_int64), ("hidden", ctypes.c_int64),
                ("vocab", ctypes.c_int64), ("dtype", ctypes.c_int), ("reduction", ctypes.c_int),
                ("ignore_index", ctypes.c_int64), ("label_smoothing", ctypes.c_double),
                ("lse_square_scale", ctypes.c_double), ("softcap", ctypes.c_double), ("chunk_rows", ctypes.c_int64),
                ("chunk_bytes", _size), ("tiling", ctypes.c_int), ("stream", _ptr)]


FLCE_MEAN, FLCE_SUM, FLCE_NONE = 0, 1, 2
FLCE_BF16, FLCE_F16 = 0, 1
FLCE_TILING_LARGE, FLCE_TILING_SMALL = 0, 1

# The operators' C API (blk/Ops/blk_ops.h and blk_jit_ops_runner), declared
# when the library exports it (has_operators()).
_OPERATOR_PROTOTYPES = {
    "blk_jit_ops_runner": (ctypes.c_int, [_ptr, _c, ctypes.POINTER(_ptr)] + _err),
    "blk_ops_runner_destroy": (None, [_ptr]),
    "blk_flce_default_args": (None, [ctypes.POINTER(FlceArgs)]),
    "blk_flce_workspace_bytes": (ctypes.c_int, [ctypes.POINTER(FlceArgs), ctypes.POINTER(_size)] + _err),
    "blk_flce": (ctypes.c_int, [_ptr, ctypes.POINTER(FlceArgs), ctypes.POINTER(ctypes.c_double)] + _err),
}

_lib = None


def library():
    """The loaded library (loaded on first use, so that `import blk` needs nothing)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in candidate_paths():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        for name, (restype, argtypes) in _PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        for name, (restype, argtypes) in _OPERATOR_PROTOTYPES.items():
            if hasattr(lib, name):
                fn = getattr(lib, name)
                fn.restype = restype
                fn.argtypes = argtypes
        _lib = lib
        return lib
    raise BlkError("libblk_jit.so not found; build it (ninja -C build blk_jit) or set BLK_LIBRARY. Tried: " +
                   "; ".join(tried))


def has_operators():
    """Whether the library exports the operators' C API (fused linear cross-entropy)."""
    lib = library()
    return all(hasattr(lib, name) for name in _OPERATOR_PROTOTYPES)


def library_path():
    """The path of the loaded library."""
    return library()._name


class ErrorBuffer:
    """The (error, error_size) pair of a C call, and its text."""
    SIZE = 1 << 16

    def __init__(self):
        self.buffer = ctypes.create_string_buffer(self.SIZE)

    def args(self):
        return self.buffer, self.SIZE

    def text(self):
        return self.buffer.value.decode("utf-8", "replace")
