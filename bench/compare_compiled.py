#!/usr/bin/env python3
"""Same-source comparison of compiled code, no GPU needed: every kernel the
benchmark (bench/run.py) launches, compiled by blk and by Triton (its twin in
bench/triton_kernels.py) for the same target with the same tiling and the same
specialization, side by side: ptxas registers, spill bytes, SASS instructions (all,
and those of the kernel's largest loop: where cuobjdump is found, on PATH, in the CUDA
toolkit or in Triton's package) and the instruction families in the PTX (wgmma,
mma.sync, cp.async, TMA, ldmatrix/stmatrix, shuffles, barriers, local memory).

    python3 bench/compare_compiled.py [--only layouts] [--filter REGEX] [--json OUT.json]
    python3 bench/compare_compiled.py --ptx-dir .bundle/ptx      # the GPU machine: no blkc there

Which kernels: run.py's cases (run.SUITES) run here against stand-ins for torch,
Triton and blk's runtime that record, per benchmark row, each blk kernel loaded
(PTX variant and kernel name) and each Triton kernel launched (its arguments,
constexprs, num_warps, num_stages); nothing is allocated or launched. A row's
blk kernels and Triton launches pair up in order.

blk: the variant's PTX from --ptx-dir, or compiled with blkc by the command
scripts/build-ptx.sh uses for it (its -D bindings, --num-warps, --num-stages,
--align-pointers and --spec flags: build-ptx.sh runs with a stand-in blkc that
records them). Triton (when `import triton` works, 3.3 or later): triton.compile
of an ASTSource for GPUTarget("cuda", 90, 32) (sm_90a), with the signature,
constexprs and divisibility attributes its JIT would derive from the row's
actual arguments (pointers 16-byte aligned, integers divisible by 16 marked,
integers equal to 1 turned into constants). Both PTX files go through the same
ptxas (-arch=sm_90a -v); a failure in one cell prints "error: ..." there."""
import argparse
import concurrent.futures
import contextlib
import importlib.util
import io
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# ---------------------------------------------------------------------------
# Stand-ins for torch, triton and triton_kernels, enough for run.py's cases to
# run through without a GPU. Tensors carry a shape, strides and a dtype (what a
# kernel launch specializes on); every other operation returns a tensor like
# its first operand.

class FakeDType:
    def __init__(self, name, itemsize, floating, triton):
        self.name, self.itemsize, self.is_floating_point, self.triton = name, itemsize, floating, triton

    def __repr__(self):
        return f"torch.{self.name}"


DTYPES = {name: FakeDType(name, size, fl, tri) for name, size, fl, tri in (
    ("float32", 4, True, "fp32"), ("float16", 2, True, "fp16"), ("bfloat16", 2, True, "bf16"),
    ("float64", 8, True, "fp64"), ("int32", 4, False, "i32"), ("int64", 8, False, "i64"),
    ("int16", 2, False, "i16"), ("int8", 1, False, "i8"), ("uint8", 1, False, "u8"), ("bool", 1, False, "i1"),
    ("float8_e4m3fn", 1, True, "fp8e4nv"), ("float8_e5m2", 1, True, "fp8e5"))}
ALIASES = {"float": "float32", "half": "float16", "double": "float64", "int": "int32", "long": "int64"}


def _contiguous(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))


def _shape_of(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(int(a) for a in args)


def _broadcast(a, b):
    if len(a) < len(b):
        a, b = b, a
    b = (1,) * (len(a) - len(b)) + tuple(b)
    if all(x == y or x == 1 or y == 1 for x, y in zip(a, b)):
        return tuple(max(x, y) for x, y in zip(a, b))
    return tuple(a)  # not broadcastable: only reference math that nobody reads goes wrong


class FakeTensor:
    """A tensor with a shape, strides and a dtype and no data."""

    def __init__(self, shape=(), dtype=None, strides=None):
        self.shape = tuple(shape)
        self.dtype = dtype or DTYPES["float32"]
        self._strides = tuple(strides) if strides is not None else _contiguous(self.shape)

    def _like(self, shape=None, dtype=None, strides=None):
        return FakeTensor(self.shape if shape is None else shape, dtype or self.dtype, strides)

    # What launches specialize on.
    def data_ptr(self):
        return 0

    def stride(self, dim=None):
        return self._strides if dim is None else self._strides[dim]

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return len(self.shape)

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def element_size(self):
        return self.dtype.itemsize

    # Shape and dtype changes.
    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], FakeDType):
            return self._like(dtype=shape[0])
        shape = list(_shape_of(shape))
        if -1 in shape:
            rest = 1
            for d in shape:
                rest *= d if d != -1 else 1
            shape[shape.index(-1)] = self.numel() // rest if rest else 0
        return self._like(tuple(shape))

    reshape = view

    def t(self):
        return self._like(tuple(reversed(self.shape)), strides=tuple(reversed(self._strides)))

    def contiguous(self):
        return self._like()

    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, FakeDType):
                dtype = a
            elif isinstance(a, FakeTensor):
                dtype = a.dtype
        return self._like(dtype=dtype)

    def double(self):
        return self._like(dtype=DTYPES["float64"])

    def float(self):
        return self._like(dtype=DTYPES["float32"])

    def long(self):
        return self._like(dtype=DTYPES["int64"])

    def int(self):
        return self._like(dtype=DTYPES["int32"])

    def __getitem__(self, index):
        index = index if isinstance(index, tuple) else (index,)
        shape, strides, dim = [], [], 0
        for ix in index:
            if ix is None:
                shape.append(1)
                strides.append(0)
                continue
            if dim >= len(self.shape):
                break
            if isinstance(ix, slice):
                start, stop, step = ix.indices(self.shape[dim])
                shape.append(len(range(start, stop, step)))
                strides.append(self._strides[dim] * step)
            elif not isinstance(ix, int):  # a tensor index: keep the dimension
                shape.append(self.shape[dim])
                strides.append(self._strides[dim])
            dim += 1
        shape += self.shape[dim:]
        strides += self._strides[dim:]
        return self._like(tuple(shape), strides=tuple(strides))

    # Everything else: a tensor like this one (callable, so methods work too).
    # Attributes set from outside (x.grad = None) read back as tensors, as
    # they would be after the backward pass that fills them.
    def __setattr__(self, name, value):
        if name in ("shape", "dtype", "_strides"):
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._like()

    def __call__(self, *args, **kwargs):
        return self._like()

    def _binary(self, other, dtype=None):
        shape = _broadcast(self.shape, other.shape) if isinstance(other, FakeTensor) else self.shape
        return self._like(shape, dtype)

    def _compare(self, other):
        return self._binary(other, DTYPES["bool"])

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _binary
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __pow__ = __rpow__ = _binary
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rshift__ = __lshift__ = __matmul__ = __rmatmul__ = _binary
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = _compare
    __hash__ = object.__hash__

    def __neg__(self):
        return self._like()

    __pos__ = __abs__ = __invert__ = __neg__

    def __bool__(self):
        return True

    def __float__(self):
        return 0.0

    def __int__(self):
        return 0

    def item(self):
        return 0.0

    def __len__(self):
        return self.shape[0] if self.shape else 0

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"FakeTensor({self.shape}, {self.dtype})"


class FakeFn:
    """A torch function or namespace that is not modelled: called, it returns a
    tensor like its first tensor argument."""

    def __call__(self, *args, **kwargs):
        for a in itertools.chain(args, kwargs.values()):
            if isinstance(a, FakeTensor):
                return a._like()
            if isinstance(a, (list, tuple)) and a and isinstance(a[0], FakeTensor):
                return a[0]._like()
        return FakeTensor()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return FakeFn()


class FakeModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return FakeFn()


def _fake_torch():
    torch = FakeModule("torch")
    for name, dt in DTYPES.items():
        setattr(torch, name, dt)
    for alias, name in ALIASES.items():
        setattr(torch, alias, DTYPES[name])

    def creator(default_dtype):
        def make(*size, dtype=None, **_):
            return FakeTensor(_shape_of(size), dtype or DTYPES[default_dtype])
        return make

    for name in ("randn", "rand", "empty", "zeros", "ones"):
        setattr(torch, name, creator("float32"))
    torch.full = lambda size, value, dtype=None, **_: FakeTensor(_shape_of((size,)), dtype or DTYPES["float32"])
    torch.randint = lambda low, high=None, size=(), dtype=None, **_: FakeTensor(
        _shape_of((size,)), dtype or DTYPES["int64"])
    torch.arange = lambda *a, dtype=None, **_: FakeTensor(
        (len(range(*[int(x) for x in a])),), dtype or DTYPES["int64"])
    torch.tensor = lambda data, dtype=None, **_: FakeTensor((len(data),) if isinstance(data, (list, tuple)) else (),
                                                            dtype or DTYPES["float32"])
    for name in ("empty_like", "zeros_like", "ones_like", "randn_like", "rand_like"):
        setattr(torch, name, lambda t, dtype=None, **_: t._like(dtype=dtype))
    cuda = FakeModule("torch.cuda")
    cuda.get_device_name = lambda *a: "(traced: no device)"
    # 132 SMs, as the H100 and H200 that run the benchmark (a launch's grid and
    # its rows-per-program argument follow from it).
    cuda.get_device_properties = lambda *a: types.SimpleNamespace(multi_processor_count=132, name="traced")
    cuda.synchronize = lambda *a: None
    torch.cuda = cuda
    nn = FakeModule("torch.nn")
    nn.functional = FakeModule("torch.nn.functional")
    nn.attention = FakeModule("torch.nn.attention")
    torch.nn = nn
    torch.__version__ = "(traced)"
    return {"torch": torch, "torch.cuda": cuda, "torch.nn": nn, "torch.nn.functional": nn.functional,
            "torch.nn.attention": nn.attention}


class Ptr:
    """A pointer argument of a recorded Triton launch (Triton's dtype name)."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"*{self.dtype}"

    def __eq__(self, other):
        return isinstance(other, Ptr) and other.dtype == self.dtype

    def __hash__(self):
        return hash(self.dtype)


class Launch:
    """One recorded Triton launch: the twin's name, arguments and keywords."""

    def __init__(self, twin, args, kwargs):
        conv = lambda v: Ptr(v.dtype.triton) if isinstance(v, FakeTensor) else v  # noqa: E731
        self.twin = twin
        self.args = [conv(a) for a in args]
        self.kwargs = {k: conv(v) for k, v in kwargs.items()}

    def key(self):
        """What the compiled kernel depends on: pointer types, each integer's
        specialization class (1, a multiple of 16, 32 or 64 bits) and the
        keywords (constexprs, num_warps, num_stages) by value."""
        def cls(v):
            if isinstance(v, bool) or not isinstance(v, int):
                return repr(v) if not isinstance(v, float) else "fp32"
            if v == 1:
                return "1"
            return ("i32" if -2 ** 31 <= v < 2 ** 31 else "i64") + ("D" if v % 16 == 0 else "")
        return (self.twin, tuple(cls(a) for a in self.args), repr(sorted(self.kwargs.items())))


class Recorder:
    def __init__(self):
        self.blk, self.triton = [], []


class FakeJIT:
    def __init__(self, name, recorder):
        self.name, self.recorder = name, recorder

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            self.recorder.triton.append(Launch(self.name, args, kwargs))
            return FakeTensor()  # the "compiled kernel": n_regs and the like read as tensors
        return launch


class FakeKernel:
    """A blk kernel of the runtime: its launches record (variant, kernel)."""

    def __init__(self, ptx, name, recorder):
        self.ptx, self.name, self.recorder = ptx, name, recorder
        self.num_warps = 4

    def constant(self, name):
        return "1024"  # BLOCK, for a grid size only

    def prepare(self, grid, *args, stream=0):
        return lambda: self.recorder.blk.append((self.ptx, self.name))

    def __call__(self, grid, *args):
        self.prepare(grid, *args)()


def _fake_triton():
    triton = FakeModule("triton")
    triton.cdiv = lambda a, b: -(-int(a) // int(b))
    triton.next_power_of_2 = lambda n: 1 << (int(n) - 1).bit_length()
    triton.__version__ = "(traced)"
    return triton


class Row:
    def __init__(self, case, shape, dtype, blk, triton):
        self.case, self.shape, self.dtype, self.blk, self.triton = case, shape, dtype, blk, triton


def trace_rows(only=None):
    """Runs run.py's cases for --only `only` against the stand-ins; returns one
    Row per benchmark row: (ptx variant, kernel) pairs blk loads and the
    Triton launches, each in order."""
    recorder = Recorder()
    fakes = _fake_torch()
    fakes["triton"] = _fake_triton()

    class FakeTritonKernels(types.ModuleType):
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return FakeJIT(name, recorder)
    fakes["triton_kernels"] = FakeTritonKernels("triton_kernels")
    saved = {name: sys.modules.get(name) for name in list(fakes) + ["blk"]}
    cache_dir = os.environ.get("TRITON_CACHE_DIR")
    sys.modules.update(fakes)
    path_added = HERE not in sys.path
    if path_added:
        sys.path.insert(0, HERE)
    try:
        spec = importlib.util.spec_from_file_location("blk_bench_run_traced", os.path.join(HERE, "run.py"))
        run = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(run)
        made = os.environ.get("TRITON_CACHE_DIR")  # run.py makes an empty cache directory: not ours to keep
        if made and made != cache_dir and os.path.isdir(made) and not os.listdir(made):
            os.rmdir(made)
        rows = []

        class TraceHarness(run.Harness):
            def __init__(self):
                self.bundle, self.reps, self.ptx_dir = ".", 1, "."
                self.rows, self.sweeps, self.failures = [], {}, []
                self.device = "(traced)"

            def load(self, ptx, name):
                return FakeKernel(ptx, name, recorder)

            def record(self, case, shape, dtype, err, nbytes, blk_fns, triton_fns, torch_fns, record=True,
                       **timing):
                # Launches record themselves: those since the last row (the
                # correctness check's) and one of each contender's list (the
                # others rotate over input sets: the same kernels).
                for fn in blk_fns[:1] + triton_fns()[:1]:
                    fn()
                seen, launches = set(), []
                for launch in recorder.triton:
                    if launch.key() not in seen:
                        seen.add(launch.key())
                        launches.append(launch)
                blk = list(dict.fromkeys(recorder.blk))
                rows.append(Row(case, shape, run.DT[dtype], blk, launches))
                recorder.blk, recorder.triton = [], []
                row = dict(case=case, shape=shape, dtype=run.DT[dtype], rel_err=err, unit="GB/s", status="traced",
                           blk_us=None, triton_us=None, torch_us=None, rate=None)
                if record:
                    self.rows.append(row)
                return row

        if only not in run.SUITES:
            raise SystemExit(f"--only {only}: run.py has {', '.join(k for k in run.SUITES if k)}")
        h = TraceHarness()
        with contextlib.redirect_stdout(io.StringIO()):
            for cases in run.SUITES[only]:
                # FLCE launches through the C API's driver, not h.load: nothing to trace.
                if cases.__module__ == "flce_bench":
                    continue
                cases(h)
        return rows
    finally:
        for name, mod in saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
        if cache_dir is None:
            os.environ.pop("TRITON_CACHE_DIR", None)
        else:
            os.environ["TRITON_CACHE_DIR"] = cache_dir
        if path_added:
            sys.path.remove(HERE)


# ---------------------------------------------------------------------------
# PTX and ptxas.

FAMILIES = (  # (label, pattern), counted in the kernel's PTX (comments stripped)
    ("wgmma", r"\bwgmma\.mma_async\b"),
    ("mma.sync", r"(?<![\w.])mma\.sync\b"),
    ("cp.async", r"\bcp\.async\.c[ag]\b"),
    ("bulk", r"\bcp\.async\.bulk\.(?!tensor|commit_group|wait_group|prefetch)"),
    ("tma", r"\bcp\.(?:reduce\.)?async\.bulk\.tensor\b"),
    ("ldmatrix", r"\bldmatrix\b"),
    ("stmatrix", r"\bstmatrix\b"),
    ("shfl", r"\bshfl\.sync\b"),
    ("bar.sync", r"(?<![\w.])(?:bar|barrier)(?:\.cta)?\.sync\b"),
    ("local", r"\b(?:ld|st)\.local\b"),
)


def strip_comments(ptx):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", ptx, flags=re.S))


def _body(ptx, start):
    """A function's text: from `start` (its .entry or .func) through the end of
    its body ("" for a declaration without one)."""
    i = ptx.find("(", start)
    depth = 0
    while 0 <= i < len(ptx):  # past the parameter lists
        if ptx[i] == "(":
            depth += 1
        elif ptx[i] == ")":
            depth -= 1
        elif depth == 0 and ptx[i] in "{;":
            break
        i += 1
    if i < 0 or i >= len(ptx) or ptx[i] == ";":
        return ""
    open_at = i
    for i in range(open_at, len(ptx)):
        if ptx[i] == "{":
            depth += 1
        elif ptx[i] == "}":
            depth -= 1
            if depth == 0:
                return ptx[start:i + 1]
    return ptx[start:]


def kernel_ptx(ptx, name):
    """The PTX of entry `name` and of the functions it calls (comments stripped)."""
    ptx = strip_comments(ptx)
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\(", ptx)
    if not m:
        raise ValueError(f"no .entry {name} in the PTX")
    parts, todo, done = [_body(ptx, m.start())], [], set()
    todo += re.findall(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$]*)", parts[0])
    while todo:
        fn = todo.pop()
        if fn in done:
            continue
        done.add(fn)
        for f in re.finditer(r"\.func\s+(?:\([^)]*\)\s*)?" + re.escape(fn) + r"\s*\(", ptx):
            body = _body(ptx, f.start())
            if "{" in body:
                parts.append(body)
                todo += re.findall(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$]*)", body)
    return "\n".join(parts)


def families(text):
    return {label: len(re.findall(pattern, text)) for label, pattern in FAMILIES}


def entries(ptx):
    return re.findall(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\(", strip_comments(ptx))


def sass_counts(cuobjdump, cubin):
    """{function: (SASS instructions, those of its largest loop)} from
    cuobjdump -sass: a loop is the span from a branch's target back up to the
    branch; the largest is the main loop of a kernel that has one. A span
    holding an unpredicated EXIT is none: the branch comes from a slow path
    that ptxas placed after the kernel's return (an mbarrier wait retried)
    and jumps back into a loop."""
    r = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True)
    out = {}
    for part in re.split(r"\n\s+Function : ", r.stdout)[1:]:
        name = part.split("\n", 1)[0].strip()
        addrs = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", part)]
        exits = [a for a, text in addrs if re.match(r"EXIT\b", text.strip())]
        loop = 0
        for addr, text in addrs:
            m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", text)
            if m and int(m.group(1), 16) < addr:
                start = int(m.group(1), 16)
                if any(start <= a <= addr for a in exits):
                    continue
                loop = max(loop, sum(1 for a, _ in addrs if start <= a <= addr))
        out[name] = (len(addrs), loop)
    return out


def find_cuobjdump():
    """cuobjdump on PATH, in the CUDA toolkit, or the one Triton ships; None without."""
    paths = [shutil.which("cuobjdump") or "", "/usr/local/cuda/bin/cuobjdump"]
    try:
        import triton.backends.nvidia as nv
        paths.append(os.path.join(os.path.dirname(nv.__file__), "bin", "cuobjdump"))
    except Exception:
        pass
    return next((p for p in paths if p and os.path.exists(p)), None)


def occupancy_requests(ptx):
    """{entry: (begin, end)} of each `.minnctapersm k` line (k >= 2) between an
    entry's name and its body's brace (blk-programs-per-sm's requests), as
    include/blk/Support/OccupancyRequests.h finds them."""
    found = {}
    for m in re.finditer(r"\.entry (\w+)\(", ptx):
        params = ptx.find(")", m.end())
        body = ptx.find("{", params) if params >= 0 else -1
        if body < 0:
            break
        r = re.compile(r"^\.minnctapersm (\d+)\n", re.M).search(ptx, params, body)
        if r and int(r.group(1)) >= 2:
            found[m.group(1)] = (r.start(), r.end())
    return found


def run_ptxas(ptxas, arch, ptx_path, cuobjdump=None):
    """ptxas -v on a PTX file: {entry: {regs, spill_stores, spill_loads, stack, barriers}}, and with
    `cuobjdump` each entry's SASS instruction count and its largest loop's (sass, loop_sass).
    An entry that spills under its request for several programs per SM is
    measured without the request, as blkc's ptxas step and the runtime
    compile it."""
    out = ptxas_once(ptxas, arch, ptx_path, cuobjdump)
    with open(ptx_path) as f:
        ptx = f.read()
    requests = occupancy_requests(ptx)
    spilling = sorted((span for entry, span in requests.items() if out.get(entry, {}).get("spill_stores")),
                      reverse=True)
    if not spilling:
        return out
    for begin, end in spilling:
        ptx = ptx[:begin] + ptx[end:]
    fd, path = tempfile.mkstemp(suffix=".ptx")
    with os.fdopen(fd, "w") as f:
        f.write(ptx)
    try:
        again = ptxas_once(ptxas, arch, path, cuobjdump)
    finally:
        os.unlink(path)
    for entry, span in requests.items():
        if span in spilling and entry in again:
            out[entry] = again[entry]
    return out


def ptxas_once(ptxas, arch, ptx_path, cuobjdump=None):
    """run_ptxas's one ptxas run, the file as it is."""
    cubin = os.devnull
    if cuobjdump:  # not beside the PTX: --ptx-dir may be read-only
        fd, cubin = tempfile.mkstemp(suffix=".cubin")
        os.close(fd)
    try:
        r = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx_path, "-o", cubin], capture_output=True, text=True)
        counts = sass_counts(cuobjdump, cubin) if cuobjdump and r.returncode == 0 else {}
    finally:
        if cuobjdump:
            os.unlink(cubin)
    if r.returncode != 0:
        raise RuntimeError(f"ptxas failed: {(r.stderr or r.stdout).strip().splitlines()[-1:]}")
    out, entry, props = {}, None, None
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = m.group(1)
            out.setdefault(entry, {})
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            props = m.group(1)
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and props is not None:
            out.setdefault(props, {}).update(stack=int(m.group(1)), spill_stores=int(m.group(2)),
                                             spill_loads=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m and entry is not None:
            out[entry]["regs"] = int(m.group(1))
            b = re.search(r"used (\d+) barriers", line)
            out[entry]["barriers"] = int(b.group(1)) if b else 0
            s = re.search(r"(\d+) bytes smem", line)
            if s:
                out[entry]["smem"] = int(s.group(1))
    for name, (total, loop) in counts.items():
        if name in out:
            out[name].update(sass=total, loop_sass=loop)
    return out


def analyze(ptx_text, ptx_path, kernel, ptxas, arch, ptxas_cache, cuobjdump=None):
    if ptx_path not in ptxas_cache:
        ptxas_cache[ptx_path] = run_ptxas(ptxas, arch, ptx_path, cuobjdump)
    info = dict(ptxas_cache[ptx_path].get(kernel, {}))
    if "regs" not in info:
        raise RuntimeError(f"ptxas printed nothing for {kernel}")
    info["families"] = families(kernel_ptx(ptx_text, kernel))
    return info


# ---------------------------------------------------------------------------
# blk: the variants' PTX, from --ptx-dir or compiled as scripts/build-ptx.sh does.

FAKE_BLKC = """#!/bin/sh
{ for a in "$@"; do printf '%s\\037' "$a"; done; printf '\\036'; } >> "$BLK_FAKE_BLKC_LOG"
"""


def variant_commands(arch, tmp):
    """{variant name: blkc arguments (source file first, no -o)} for every
    variant scripts/build-ptx.sh compiles, taken from the script itself."""
    script = os.path.join(ROOT, "scripts", "build-ptx.sh")
    if not os.path.exists(script):
        raise SystemExit(f"{script} missing (a bundle?): pass --ptx-dir")
    fake = os.path.join(tmp, "record-blkc")
    with open(fake, "w") as f:
        f.write(FAKE_BLKC)
    os.chmod(fake, 0o755)
    log = os.path.join(tmp, "blkc-commands")
    subprocess.run([script, os.path.join(tmp, "variants"), "--arch", arch, "--blkc", fake], check=True,
                   env=dict(os.environ, BLK_FAKE_BLKC_LOG=log), stdout=subprocess.DEVNULL)
    commands = {}
    with open(log) as f:
        for record in f.read().split("\036"):
            args = record.split("\037")[:-1]
            if "-o" not in args:
                continue
            i = args.index("-o")
            name = os.path.basename(args[i + 1])[:-len(".ptx")]
            commands[name] = args[:i] + args[i + 2:]  # a later command for the same file wins, as in the script
    return commands


def blk_ptx(variant, args, tmp):
    """Path of the variant's PTX: from --ptx-dir or compiled now."""
    if args.ptx_dir:
        path = os.path.join(args.ptx_dir, variant + ".ptx")
        if not os.path.exists(path):
            raise RuntimeError(f"{path} missing")
        return path, None
    cmd = args.variant_commands.get(variant)
    if cmd is None:
        raise RuntimeError(f"scripts/build-ptx.sh compiles no variant {variant}")
    path = os.path.join(tmp, "blk", variant + ".ptx")
    full = [args.blkc] + cmd + ["-o", path]
    r = subprocess.run(full, capture_output=True, text=True)
    if r.returncode != 0:
        lines = (r.stderr or r.stdout).strip().splitlines()
        raise RuntimeError("blkc: " + (lines[0] if lines else f"exit {r.returncode}"))
    return path, " ".join(["blkc"] + cmd)


# ---------------------------------------------------------------------------
# Triton: the twin compiled for the target without a GPU.

def triton_specialization(fn, launch):
    """signature, constexprs, attrs and options as Triton's JIT derives them
    from the launch's arguments (runtime/jit.py, specialize_impl and
    _pack_args; backends/compiler.py, parse_attr: "D" is tt.divisibility 16)."""
    names = list(fn.arg_names)
    params = list(getattr(fn, "params", []))
    values, options = {}, {}
    if len(launch.args) > len(names):
        raise TypeError(f"{launch.twin} takes {len(names)} arguments, the launch passes {len(launch.args)}")
    for name, value in zip(names, launch.args):
        values[name] = value
    for k, v in launch.kwargs.items():
        (values if k in names else options)[k] = v
    signature, constexprs, attrs = {}, {}, {}
    for i, name in enumerate(names):
        p = params[i] if i < len(params) else None
        if name in values:
            v = values[name]
        elif p is not None and getattr(p, "has_default", False):
            v = p.default
        else:
            raise TypeError(f"{launch.twin}: no value for {name}")
        specialize = not getattr(p, "do_not_specialize", False)
        align = specialize and not getattr(p, "do_not_specialize_on_alignment", False)
        if getattr(p, "is_constexpr", False) or v is None:
            signature[name] = "constexpr"
            constexprs[(i,)] = v
        elif isinstance(v, Ptr):
            signature[name] = "*" + v.dtype
            if align:  # every tensor the benchmark passes is 16-byte aligned
                attrs[(i,)] = [["tt.divisibility", 16]]
        elif isinstance(v, bool):
            signature[name] = "u1"
        elif isinstance(v, int):
            if v == 1 and specialize:
                signature[name] = "constexpr"
                constexprs[(i,)] = 1
                continue
            signature[name] = "i32" if -2 ** 31 <= v < 2 ** 31 else ("u64" if v >= 2 ** 63 else "i64")
            if align and v % 16 == 0:
                attrs[(i,)] = [["tt.divisibility", 16]]
        elif isinstance(v, float):
            signature[name] = "fp32"
        else:
            raise TypeError(f"{launch.twin}: argument {name} of type {type(v).__name__}")
    return signature, constexprs, attrs, options


def triton_ptx(tk, launch, capability):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    fn = getattr(tk, launch.twin)
    signature, constexprs, attrs, options = triton_specialization(fn, launch)
    src = ASTSource(fn, signature, constexprs, attrs)
    compiled = triton.compile(src, target=GPUTarget("cuda", capability, 32), options=options)
    named = {fn.arg_names[path[0]]: v for path, v in constexprs.items()}
    return compiled.asm["ptx"], dict(signature=signature, constexprs=named, options=options)


def triton_ptxases():
    """The ptxas binaries Triton ships, its configured one first (for PTX newer
    than the system ptxas reads; Triton 3.9 emits PTX 9.4, which only its
    `ptxas-blackwell` reads)."""
    paths = []
    try:
        from triton import knobs
        paths.append(knobs.nvidia.ptxas.path)
    except Exception:
        pass
    try:
        import triton.backends.nvidia as nv
        bin_dir = os.path.join(os.path.dirname(nv.__file__), "bin")
        paths += [os.path.join(bin_dir, "ptxas"), os.path.join(bin_dir, "ptxas-blackwell")]
    except Exception:
        pass
    found = []
    for path in paths:
        if path and os.path.exists(path) and path not in found:
            found.append(path)
    return found


def triton_ptxas(fallback):
    """The first ptxas Triton ships, else `fallback`."""
    found = triton_ptxases()
    return found[0] if found else fallback


# ---------------------------------------------------------------------------
# The table.

def fmt_regs(side):
    if side is None:
        return "-"
    if "error" in side:
        return "error: " + side["error"]
    return str(side["regs"])


def fmt_spill(side):
    if side is None or "error" in side:
        return "-"
    st, ld = side.get("spill_stores", 0), side.get("spill_loads", 0)
    return "0" if st == ld == 0 else f"{st}/{ld}"


def fmt_sass(side):
    if side is None or "error" in side or "sass" not in side:
        return "-"
    return f"{side['sass']} (loop {side['loop_sass']})" if side["loop_sass"] else str(side["sass"])


def fmt_families(side):
    if side is None or "error" in side:
        return "-"
    f = side["families"]
    text = ", ".join(f"{label} {f[label]}" for label, _ in FAMILIES if f.get(label))
    return text or "-"


def table(rows, with_triton):
    head = ["case", "blk kernel", "blk variant", "regs", "spill st/ld B", "SASS (loop)", "PTX families (static counts)"]
    if with_triton:
        head += ["Triton twin", "regs", "spill st/ld B", "SASS (loop)", "PTX families (static counts)"]
    lines = []
    for r in rows:
        cells = [r["case"], r["blk"]["kernel"] if r["blk"] else "-", r["blk"]["variant"] if r["blk"] else "-",
                 fmt_regs(r["blk"]), fmt_spill(r["blk"]), fmt_sass(r["blk"]), fmt_families(r["blk"])]
        if with_triton:
            t = r["triton"]
            short = {"num_warps": "w", "num_stages": "st"}  # as variant names write them
            twin = "-" if t is None else t["kernel"] + "".join(
                f" {short[k]}{v}" if k in short else f" {k}={v}" for k, v in t.get("options", {}).items())
            cells += [twin, fmt_regs(t), fmt_spill(t), fmt_sass(t), fmt_families(t)]
        lines.append(cells)
    width = [max(len(str(c)) for c in col) for col in zip(head, *lines)] if lines else [len(h) for h in head]
    out = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, width)) + " |",
           "|" + "|".join("-" * (w + 2) for w in width) + "|"]
    for cells in lines:
        out.append("| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, width)) + " |")
    return "\n".join(out)


def label(row):
    return row.case if row.dtype in row.case else f"{row.case} {row.dtype}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--blkc", default=os.path.join(ROOT, "build", "bin", "blkc"))
    ap.add_argument("--ptx-dir", help="blk's PTX from here (<variant>.ptx, as scripts/build-ptx.sh names them) "
                                      "instead of compiling with blkc")
    ap.add_argument("--ptxas", default=None, help="ptxas for both sides (default: /usr/local/cuda/bin/ptxas, "
                                                  "else the one on PATH, else Triton's)")
    ap.add_argument("--arch", default="sm_90a", help="target of both compilers and ptxas (default sm_90a)")
    ap.add_argument("--only", help="run.py's --only (its SUITES: matmul, attention, layouts, dots): these cases")
    ap.add_argument("--filter", help="regular expression: only rows whose case, kernel, variant or twin matches")
    ap.add_argument("--no-triton", action="store_true", help="blk's side only, even where Triton imports")
    ap.add_argument("--no-sass", action="store_true", help="no SASS counts, even where cuobjdump is found")
    ap.add_argument("--json", help="also write the rows (with the Triton signatures and the blkc commands) here")
    ap.add_argument("--save-ptx", metavar="DIR", help="keep the PTX: DIR/blk/<variant>.ptx (a --ptx-dir for a "
                                                      "later run) and DIR/triton/<row>.<twin>.ptx")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="blkc and ptxas runs at once")
    args = ap.parse_args()

    m = re.fullmatch(r"sm_(\d+)[a-z]?", args.arch)
    if not m:
        ap.error(f"--arch {args.arch}: expected sm_NN or sm_NNa")
    capability = int(m.group(1))
    ptxas = args.ptxas
    if ptxas is None:
        ptxas = "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else shutil.which("ptxas")
    if not args.ptx_dir and not os.path.exists(args.blkc) and not shutil.which(args.blkc):
        ap.error(f"no blkc at {args.blkc}: pass --blkc PATH, or --ptx-dir with precompiled PTX")

    traced = trace_rows(args.only)

    # Triton, after the trace (which stood in for it).
    tk, triton_note = None, None
    if args.no_triton:
        triton_note = "Triton: not compiled (--no-triton); blk's side only."
    else:
        try:
            import triton
            sys.path.insert(0, HERE)
            import triton_kernels as tk
            triton_note = f"Triton {triton.__version__}: twins compiled for GPUTarget('cuda', {capability}, 32)."
        except Exception as e:
            tk = None
            triton_note = f"Triton: not importable ({type(e).__name__}: {e}); blk's side only."
    if ptxas is None:
        ptxas = triton_ptxas(None) if tk is not None else None
        if ptxas is None:
            ap.error("no ptxas: pass --ptxas PATH")
    cuobjdump = None if args.no_sass else find_cuobjdump()

    # Rows: a benchmark row's blk kernels and Triton launches paired in order,
    # each distinct pair once.
    rows, seen = [], set()
    for t in traced:
        for blk, launch in itertools.zip_longest(t.blk, t.triton):
            key = (blk, launch.key() if launch else None)
            if key in seen:
                continue
            seen.add(key)
            row = dict(case=label(t), shape=t.shape, blk=blk, launch=launch)
            text = " ".join([row["case"], *(blk or ("", "")), launch.twin if launch else ""])
            if args.filter and not re.search(args.filter, text):
                continue
            rows.append(row)

    tmp = tempfile.mkdtemp(prefix="blk-compare-")
    try:
        os.makedirs(os.path.join(tmp, "blk"))
        os.makedirs(os.path.join(tmp, "triton"))
        if not args.ptx_dir:
            args.variant_commands = variant_commands(args.arch, tmp)
        ptxas_cache = {}
        variants = sorted({r["blk"][0] for r in rows if r["blk"]})

        def build(variant):
            try:
                path, cmd = blk_ptx(variant, args, tmp)
                ptxas_cache[path] = run_ptxas(ptxas, args.arch, path, cuobjdump)
                return variant, (path, cmd, None)
            except Exception as e:
                return variant, (None, None, str(e) if isinstance(e, RuntimeError) else f"{type(e).__name__}: {e}")

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            built = dict(pool.map(build, variants))
        if args.save_ptx:
            for sub in ("blk", "triton"):
                os.makedirs(os.path.join(args.save_ptx, sub), exist_ok=True)
            for variant, (path, _, _) in built.items():
                if path:
                    shutil.copy(path, os.path.join(args.save_ptx, "blk", variant + ".ptx"))

        out_rows = []
        for i, r in enumerate(rows):
            blk_side = None
            if r["blk"]:
                variant, kernel = r["blk"]
                path, cmd, err = built[variant]
                blk_side = dict(kernel=kernel, variant=variant)
                if cmd:
                    blk_side["command"] = cmd
                if err:
                    blk_side["error"] = err
                else:
                    try:
                        with open(path) as f:
                            blk_side.update(analyze(f.read(), path, kernel, ptxas, args.arch, ptxas_cache, cuobjdump))
                    except Exception as e:
                        blk_side["error"] = f"{type(e).__name__}: {e}"
            tri_side = None
            launch = r["launch"]
            if tk is not None and launch is not None:
                tri_side = dict(kernel=launch.twin, options={})
                try:
                    ptx, spec = triton_ptx(tk, launch, capability)
                    tri_side.update(spec)
                    path = os.path.join(tmp, "triton", f"{i}.{launch.twin}.ptx")
                    with open(path, "w") as f:
                        f.write(ptx)
                    if args.save_ptx:
                        shutil.copy(path, os.path.join(args.save_ptx, "triton", os.path.basename(path)))
                    names = entries(ptx)
                    if len(names) != 1:
                        raise RuntimeError(f"{len(names)} entries in Triton's PTX")
                    try:
                        info = analyze(ptx, path, names[0], ptxas, args.arch, ptxas_cache, cuobjdump)
                    except RuntimeError as e:  # PTX newer than this ptxas reads: one Triton ships
                        info = None
                        for t_ptxas in [p for p in triton_ptxases() if p != ptxas]:
                            ptxas_cache.pop(path, None)
                            try:
                                info = analyze(ptx, path, names[0], t_ptxas, args.arch, ptxas_cache, cuobjdump)
                            except RuntimeError:
                                continue
                            info["ptxas"] = t_ptxas
                            print(f"note: {launch.twin}: {e}; used Triton's ptxas {t_ptxas}", file=sys.stderr)
                            break
                        if info is None:
                            raise
                    tri_side.update(info)
                except Exception as e:
                    msg = str(e).strip().splitlines()
                    tri_side["error"] = f"{type(e).__name__}: {msg[0] if msg else ''}"[:200]
            out_rows.append(dict(case=r["case"], shape=r["shape"], blk=blk_side, triton=tri_side))
            if tk is not None:
                print(f"[{i + 1}/{len(rows)}] {r['case']}: {launch.twin if launch else '-'}", file=sys.stderr,
                      flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    print(f"blk: {'PTX from ' + args.ptx_dir if args.ptx_dir else args.blkc} ({args.arch}); "
          f"ptxas: {ptxas} ({version[-1] if version else '?'}); "
          + (f"SASS: {cuobjdump}" if cuobjdump else "SASS: not counted (no cuobjdump)"))
    print(triton_note)
    print(table(out_rows, tk is not None))
    if args.json:
        def plain(v):
            return repr(v) if isinstance(v, Ptr) else v
        for r in out_rows:
            t = r["triton"]
            if t and "constexprs" in t:
                t["constexprs"] = {k: plain(v) for k, v in t["constexprs"].items()}
        with open(args.json, "w") as f:
            json.dump(dict(arch=args.arch, ptxas=ptxas, triton=triton_note, rows=out_rows), f, indent=1,
                      default=str)
    failed = [r for r in out_rows if r["blk"] and "error" in r["blk"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
