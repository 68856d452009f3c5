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
    "blk_jit_kernel_names": (ctypes.c_int, [_ptr, _c, _c, _c, _size] + _err),
    "blk_jit_register_host_memory": (ctypes.c_int, [_ptr, _ptr, _size] + _err),
    "blk_jit_unregister_host_memory": (ctypes.c_int, [_ptr, _ptr] + _err),
    "blk_jit_cache_stats": (None, [_ptr, ctypes.POINTER(_size), ctypes.POINTER(_size), ctypes.POINTER(_size)]),
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
        _lib = lib
        return lib
    raise BlkError("libblk_jit.so not found; build it (ninja -C build blk_jit) or set BLK_LIBRARY. Tried: " +
                   "; ".join(tried))


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
