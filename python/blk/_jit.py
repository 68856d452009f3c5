"""blk.jit: kernels compiled in process by blk's C++ JIT and launched on torch
tensors (CUDA) or host buffers (the CPU interpreter)."""
import contextlib
import ctypes
import os
import threading

from . import _arguments
from . import _library as L
from .errors import CompileError, LaunchError

_DTYPE_NAMES = {
    "float32": "f32", "float16": "f16", "bfloat16": "bf16", "float64": "f64", "int8": "i8", "int16": "i16",
    "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "bool": "i1", "float8_e4m3fn": "f8e4m3", "float8_e5m2": "f8e5m2",
}


def binding_text(value):
    """A binding's value as the compiler reads it (-D NAME=VALUE)."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, float, str)):
        return str(value)
    text = str(value)
    name = text[len("torch."):] if text.startswith("torch.") else getattr(value, "name", text)  # numpy's dtypes
    if name in _DTYPE_NAMES:
        return _DTYPE_NAMES[name]
    raise TypeError("binding %r: expected an int, float, bool, str or dtype" % (value,))


class _Backend:
    """One blk_jit handle per backend, shared by every kernel of the process."""

    def __init__(self, kind):
        self.kind = kind
        self.lock = threading.Lock()  # the C++ Jit is not thread-safe
        self.handle = L.library().blk_jit_create(kind)
        self.runners = {}  # kernel directory -> blk_ops_runner* (the operators' C API)

    def cache_stats(self):
        counts = [ctypes.c_size_t() for _ in range(3)]
        L.library().blk_jit_cache_stats(self.handle, *[ctypes.byref(c) for c in counts])
        return {"memory_hits": counts[0].value, "disk_hits": counts[1].value, "compiles": counts[2].value}

    @contextlib.contextmanager
    def host_memory(self, host_ranges):
        """Lets the interpreter touch `host_ranges` ({address: bytes}) while the
        block runs; call with the lock held."""
        lib, err = L.library(), L.ErrorBuffer()
        registered = []
        try:
            for address, nbytes in host_ranges.items():
                if lib.blk_jit_register_host_memory(self.handle, address, nbytes, *err.args()):
                    raise LaunchError(err.text())
                registered.append(address)
            yield
        finally:
            for address in registered:
                lib.blk_jit_unregister_host_memory(self.handle, address, None, 0)

    def ops_runner(self, kernel_dir):
        """The operators' runner (blk_jit_ops_runner) over this backend's JIT,
        compiling kernel_dir's kernels; one per directory, kept for the process."""
        with self.lock:
            if kernel_dir not in self.runners:
                lib, err, out = L.library(), L.ErrorBuffer(), ctypes.c_void_p()
                if not L.has_operators():
                    raise LaunchError("%s does not export the operators' C API (blk_flce); rebuild blk_jit" %
                                      L.library_path())
                if lib.blk_jit_ops_runner(self.handle, kernel_dir.encode(), ctypes.byref(out), *err.args()):
                    raise LaunchError(err.text())
                self.runners[kernel_dir] = out.value
            return self.runners[kernel_dir]


_backends = {}
_backends_lock = threading.Lock()


def _backend(kind):
    with _backends_lock:
        if kind not in _backends:
            _backends[kind] = _Backend(kind)
        return _backends[kind]


def backend_of(packed):
    """The backend and arch of packed arguments: CUDA when they hold CUDA tensors (cuda:0), else the CPU."""
    if packed.cuda_device is None:
        return _backend(L.BACKEND_CPU), None
    if packed.cuda_device.index not in (None, 0):
        raise LaunchError("blk launches on cuda:0 (the JIT's device); the tensors are on %s" % packed.cuda_device)
    return _backend(L.BACKEND_CUDA), _cuda_arch(packed.cuda_device)


def cache_stats(backend="cpu"):
    """Memory hits, disk hits and compilations of the JIT of `backend` ("cpu" or "cuda")."""
    return _backend(L.BACKEND_CPU if backend == "cpu" else L.BACKEND_CUDA).cache_stats()


def _cuda_arch(device):
    import torch
    major, minor = torch.cuda.get_device_capability(device)
    return "sm_%d%d%s" % (major, minor, "a" if major >= 9 else "")


class Kernel:
    """A kernel of a .blk source; `kernel[grid](*args, num_warps=, num_stages=, **constexprs)` launches it.

    Each distinct set of constexprs, warps and stages (and the arch) is compiled
    once; within it the C++ JIT specializes on the arguments (pointers aligned to
    16 bytes, integers divisible by 16 or equal to 1) and caches on disk."""

    def __init__(self, source, filename, is_file, name, bindings):
        self.source = source
        self.filename = filename
        self._is_file = is_file
        self.name = name
        self.bindings = {k: binding_text(v) for k, v in bindings.items()}
        self._compiled = {}  # (backend, arch, constants, warps, stages) -> blk_jit_kernel*
        self._descriptor_blocks = {}  # (blk_jit_kernel*, argument index) -> block shape or None

    def __repr__(self):
        return "<blk.Kernel %s of %s>" % (self.name, self.filename)

    def __del__(self):
        lib = L._lib
        if lib is not None:
            for handle in getattr(self, "_compiled", {}).values():
                lib.blk_jit_kernel_destroy(handle)

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.launch(grid, *args, **kwargs)

    def _handle(self, backend, arch, constexprs, num_warps, num_stages):
        constants = dict(self.bindings)
        constants.update((k, binding_text(v)) for k, v in constexprs.items())
        if num_stages != 1:
            constants["num_stages"] = str(num_stages)
        text = ",".join("%s=%s" % kv for kv in sorted(constants.items()))
        key = (backend.kind, arch, text, num_warps)
        if key in self._compiled:
            return self._compiled[key]
        lib, err, out = L.library(), L.ErrorBuffer(), ctypes.c_void_p()
        compile_fn = lib.blk_jit_compile_file if self._is_file else lib.blk_jit_compile_source
        what = self.filename if self._is_file else self.source
        with backend.lock:
            rc = compile_fn(backend.handle, what.encode(), self.name.encode(), text.encode(),
                            arch.encode() if arch else None, num_warps, ctypes.byref(out), *err.args())
        if rc:
            raise CompileError(err.text())
        self._compiled[key] = out.value
        return out.value

    def _prepare(self, args, num_warps, num_stages, constexprs):
        packed = _arguments.pack(args)
        backend, arch = backend_of(packed)
        handle = self._handle(backend, arch, constexprs, num_warps, num_stages)
        if packed.descriptors:  # a handle's parameters never change: asked of the library once
            def block(index):
                if (handle, index) not in self._descriptor_blocks:
                    self._descriptor_blocks[(handle, index)] = _descriptor_block(handle, index)
                return self._descriptor_blocks[(handle, index)]
            _arguments.check_descriptor_blocks(packed, block)
        return packed, backend, handle

    def launch(self, grid, *args, num_warps=4, num_stages=1, **constexprs):
        packed, backend, handle = self._prepare(args, num_warps, num_stages, constexprs)
        if callable(grid):
            grid = grid(dict(self.bindings, **constexprs))
        grid = tuple(grid) if isinstance(grid, (tuple, list)) else (grid,)
        if not 1 <= len(grid) <= 3 or any(not isinstance(g, int) or g < 0 for g in grid):
            raise LaunchError("grid must be 1 to 3 non-negative ints, got %r" % (grid,))
        gx, gy, gz = grid + (1,) * (3 - len(grid))
        stream = None
        if packed.cuda_device is not None:
            import torch
            stream = torch.cuda.current_stream(packed.cuda_device).cuda_stream
        lib, err = L.library(), L.ErrorBuffer()
        with backend.lock, backend.host_memory(packed.host_ranges):
            rc = lib.blk_jit_launch(handle, gx, gy, gz, stream, packed.values, packed.count, *err.args())
        if rc:
            raise LaunchError(err.text())

    def specialization(self, *args, num_warps=4, num_stages=1, **constexprs):
        """The specialization these arguments select ("X:16,n:1"), as blkc --spec spells it."""
        packed, backend, handle = self._prepare(args, num_warps, num_stages, constexprs)
        lib, err, out = L.library(), L.ErrorBuffer(), ctypes.create_string_buffer(4096)
        with backend.lock:
            if lib.blk_jit_kernel_specialization(handle, packed.values, packed.count, out, 4096, *err.args()):
                raise LaunchError(err.text())
        return out.value.decode()

    def num_variants(self):
        """Specialized variants compiled so far, over every set of constexprs."""
        lib = L.library()
        return sum(lib.blk_jit_kernel_num_variants(h) for h in self._compiled.values())


def _descriptor_block(handle, index, max_rank=8):
    """The block shape of the kernel's tensor descriptor parameter whose base
    is launch argument `index`, or None where it takes no descriptor."""
    out = (ctypes.c_int64 * max_rank)()
    rank = L.library().blk_jit_kernel_descriptor_block(handle, index, out, max_rank)
    return list(out[:rank]) if rank > 0 else None


def kernel_names(source, filename="<string>"):
    """The kernels a source defines or imports."""
    backend, lib, err = _backend(L.BACKEND_CPU), L.library(), L.ErrorBuffer()
    out = ctypes.create_string_buffer(1 << 16)
    with backend.lock:
        if lib.blk_jit_kernel_names(backend.handle, source.encode(), filename.encode(), out, 1 << 16, *err.args()):
            raise CompileError(err.text())
    return [n for n in out.value.decode().split(",") if n]


def jit(path_or_source, kernel=None, **bindings):
    """A kernel from a .blk file (a path) or from source text (a string with a
    newline). `kernel` names it when the source has several; `bindings` bind
    constexpr and dtype parameters (ints, floats, bools, strings, torch dtypes)."""
    text = os.fspath(path_or_source)
    is_file = "\n" not in text
    if is_file:
        try:
            with open(text) as f:
                source = f.read()
        except OSError as e:
            raise CompileError("cannot read %s: %s" % (text, e.strerror)) from None
        filename = text
    else:
        source, filename = text, "<string>"
    names = kernel_names(source, filename)
    if kernel is None:
        if len(names) != 1:
            raise CompileError("%s defines %s; pass kernel=NAME" %
                               (filename, ("kernels " + ", ".join(names)) if names else "no kernel"))
        kernel = names[0]
    elif kernel not in names:
        raise CompileError("%s has no kernel '%s' (it has %s)" % (filename, kernel, ", ".join(names) or "none"))
    return Kernel(source, filename, is_file, kernel, bindings)
