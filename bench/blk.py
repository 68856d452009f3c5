"""blk kernels from Python through the runtime's C API (libblk_runtime.so,
ctypes). Pointer arguments may be torch tensors (their data_ptr is passed)."""
import ctypes
import os

_ARG = {"ptr": 0, "i1": 1, "i8": 2, "i16": 3, "i32": 4, "i64": 5, "u32": 6, "u64": 7,
        "f16": 8, "bf16": 9, "f32": 10, "f64": 11}
_NAMES = {v: k for k, v in _ARG.items()}


class BlkError(RuntimeError):
    pass


class Runtime:
    def __init__(self, lib_path):
        self.lib = ctypes.CDLL(lib_path)
        L = self.lib
        L.blk_init.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        L.blk_module_load_file.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t]
        L.blk_module_kernel.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t]
        L.blk_kernel_num_args.argtypes = [ctypes.c_void_p]
        L.blk_kernel_arg_type.argtypes = [ctypes.c_void_p, ctypes.c_int]
        L.blk_kernel_num_warps.argtypes = [ctypes.c_void_p]
        L.blk_kernel_num_warps.restype = ctypes.c_uint
        L.blk_kernel_constant.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        L.blk_kernel_constant.restype = ctypes.c_char_p
        L.blk_kernel_launch.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p,
                                        ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                                        ctypes.c_char_p, ctypes.c_size_t]
        self._err = ctypes.create_string_buffer(4096)
        # The stream of launches prepared without one, read at each launch:
        # bench/run.py points it at a CUDA graph's capture stream while it
        # captures, and back to 0 (the legacy default stream) after.
        self.stream = 0
        self._check(L.blk_init(0, self._err, 4096))

    def _check(self, rc):
        if rc != 0:
            raise BlkError(self._err.value.decode())

    def load(self, ptx_path, name):
        mod = ctypes.c_void_p()
        self._check(self.lib.blk_module_load_file(ptx_path.encode(), ctypes.byref(mod), self._err, 4096))
        ker = ctypes.c_void_p()
        self._check(self.lib.blk_module_kernel(mod, name.encode(), ctypes.byref(ker), self._err, 4096))
        return Kernel(self, mod, ker)


class Kernel:
    def __init__(self, rt, mod, handle):
        self.rt, self.mod, self.handle = rt, mod, handle
        L = rt.lib
        n = L.blk_kernel_num_args(handle)
        self.arg_types = [L.blk_kernel_arg_type(handle, i) for i in range(n)]
        self.num_warps = L.blk_kernel_num_warps(handle)
        self._types = (ctypes.c_int * n)(*self.arg_types)
        self._values = (ctypes.c_uint64 * n)()

    def constant(self, name):
        v = self.rt.lib.blk_kernel_constant(self.handle, name.encode())
        return None if v is None else v.decode()

    def prepare(self, grid, *args, stream=None):
        """Packs the arguments once; the returned function launches them (the
        fast path for timing loops) on `stream`, or when None on the
        runtime's `stream` at the time of the launch."""
        if len(args) != len(self.arg_types):
            raise BlkError(f"kernel takes {len(self.arg_types)} arguments, got {len(args)}")
        values = (ctypes.c_uint64 * len(args))()
        for i, (a, t) in enumerate(zip(args, self.arg_types)):
            if hasattr(a, "data_ptr"):
                values[i] = a.data_ptr()
            elif _NAMES[t] in ("f32",):
                values[i] = ctypes.c_uint32.from_buffer(ctypes.c_float(a)).value
            elif _NAMES[t] in ("f64",):
                values[i] = ctypes.c_uint64.from_buffer(ctypes.c_double(a)).value
            else:
                values[i] = int(a) & ((1 << 64) - 1)
        g = tuple(grid) + (1,) * (3 - len(grid))
        rt = self.rt
        L, h, types, err = rt.lib, self.handle, self._types, rt._err

        def launch():
            s = rt.stream if stream is None else stream
            if L.blk_kernel_launch(h, g[0], g[1], g[2], s, values, types, len(args), err, 4096) != 0:
                raise BlkError(err.value.decode())
        return launch

    def __call__(self, grid, *args):
        self.prepare(grid, *args)()
