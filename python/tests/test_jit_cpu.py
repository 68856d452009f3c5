"""The Python package on the CPU interpreter backend: compiling from files and
strings, bindings, constexprs and dtypes, launches on host buffers checked in
float64, specialization, caching and the error types. Needs libblk_jit.so
(BLK_LIBRARY or the build directory); no torch, no numpy, no GPU.

    PYTHONPATH=python python3 -m unittest discover -s python/tests -p 'test_jit_cpu.py'
"""
import array
import ctypes
import math
import os
import random
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blk  # noqa: E402
from _numerics import check_close  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "kernels")

SCALE_SOURCE = """
@kernel
def scale(X: *T, Out: *T, n: i32, factor: f32, T: dtype = f32, BLOCK: constexpr = 64):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offs < n
    store(Out + offs, (load(X + offs, mask=mask) * factor).to(T), mask=mask)
"""


def read(path):
    with open(path) as f:
        return f.read()


def floats(n, seed, lo=-2.0, hi=2.0):
    rng = random.Random(seed)
    return array.array("f", [rng.uniform(lo, hi) for _ in range(n)])


def to_bf16_bits(x):
    """Round-to-nearest-even of an f32 to bf16 bits."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def from_bf16_bits(b):
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def aligned_view(raw, offset, nbytes):
    """A writable view of `nbytes` of `raw` at `offset` bytes past its first 16-byte boundary."""
    start = (-ctypes.addressof(raw)) % 16 + offset
    return memoryview(raw).cast("B")[start:start + nbytes]


class CompileTest(unittest.TestCase):
    def test_file_and_string_give_the_same_result(self):
        n = 300
        x = floats(n, 1)
        from_file = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        from_string = blk.jit(read(os.path.join(KERNELS, "vector_add.blk")), T="f32")
        self.assertEqual(from_file.name, "vector_add")
        self.assertEqual(from_string.filename, "<string>")
        outs = []
        for k in (from_file, from_string):
            out = array.array("f", [math.nan] * n)
            k[(n + 127) // 128](x, x, out, n, BLOCK=128)
            outs.append(out)
        check_close(self, outs[0], [2.0 * v for v in x], 1e-6, what="file")
        check_close(self, outs[1], [2.0 * v for v in x], 1e-6, what="string")

    def test_kernel_names_and_choice(self):
        path = os.path.join(KERNELS, "softmax.blk")
        self.assertEqual(blk.kernel_names(read(path), path), ["softmax_forward", "softmax_backward"])
        with self.assertRaisesRegex(blk.CompileError, "defines kernels softmax_forward, softmax_backward; pass kernel=NAME"):
            blk.jit(path)
        with self.assertRaisesRegex(blk.CompileError, "has no kernel 'softmax'"):
            blk.jit(path, kernel="softmax")
        self.assertEqual(blk.jit(path, kernel="softmax_backward").name, "softmax_backward")


class LaunchTest(unittest.TestCase):
    def test_vector_add_f32_ragged(self):
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        for n in (1, 17, 1000, 4099):
            x, y = floats(n, n), floats(n, n + 1)
            out = array.array("f", [math.nan] * n)
            add[((n + 1023) // 1024,)](x, y, out, n)
            check_close(self, out, [float(a) + float(b) for a, b in zip(x, y)], 1e-6, what="n=%d" % n)

    def test_dtype_bindings(self):
        add64 = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f64")
        n = 257
        rng = random.Random(7)
        x = array.array("d", [rng.uniform(-1, 1) * 1e-9 for _ in range(n)])
        y = array.array("d", [1.0] * n)
        out = array.array("d", [math.nan] * n)
        add64[3](x, y, out, n, BLOCK=128)
        check_close(self, out, [a + b for a, b in zip(x, y)], 1e-15, what="f64")  # f32 would lose x
        # bf16 through its bits: the kernel rounds the f32 sum to bf16.
        addbf = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="bf16")
        xs, ys = floats(n, 8), floats(n, 9)
        xb = array.array("H", [to_bf16_bits(v) for v in xs])
        yb = array.array("H", [to_bf16_bits(v) for v in ys])
        ob = array.array("H", [0x7FC0] * n)  # NaN
        addbf[1](xb, yb, ob, n, BLOCK=512)
        want = [from_bf16_bits(to_bf16_bits(from_bf16_bits(a) + from_bf16_bits(b))) for a, b in zip(xb, yb)]
        check_close(self, [from_bf16_bits(b) for b in ob], want, 0.0, what="bf16")

    def test_constexprs_scalars_and_ctypes_buffers(self):
        k = blk.jit(SCALE_SOURCE)
        n = 100
        x = (ctypes.c_float * n)(*[float(i) - 50 for i in range(n)])
        for block in (32, 128):
            out = (ctypes.c_float * n)(*([math.nan] * n))
            k[lambda meta: ((n + meta["BLOCK"] - 1) // meta["BLOCK"],)](x, out, n, 0.25, BLOCK=block)
            check_close(self, out, [0.25 * v for v in x], 1e-7, what="BLOCK=%d" % block)
        out = (ctypes.c_float * n)()
        k[4](x, out, n, 3)  # an int where the kernel takes a float
        check_close(self, out, [3.0 * v for v in x], 1e-7, what="int factor")

    def test_softmax_rows(self):
        softmax = blk.jit(os.path.join(KERNELS, "softmax.blk"), kernel="softmax_forward", T="f32")
        rows, cols = 5, 77
        x = floats(rows * cols, 3, -4, 4)
        y = array.array("f", [math.nan] * (rows * cols))
        softmax[rows](x, y, cols, cols, BLOCK=128)
        want = []
        for r in range(rows):
            row = [float(v) for v in x[r * cols:(r + 1) * cols]]
            m = max(row)
            e = [math.exp(v - m) for v in row]
            want += [v / sum(e) for v in e]
        check_close(self, y, want, 2e-6, what="softmax")

    def test_same_buffer_twice(self):
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        n = 50
        x = floats(n, 11)
        before = list(x)
        add[1](x, x, x, n, BLOCK=64)  # in place
        check_close(self, x, [2.0 * v for v in before], 1e-6, what="in place")


DESCRIPTOR_SOURCE = """
@kernel
def shift(xd: tensor_descriptor(f32, [2, 4]), yd: tensor_descriptor(f32, [2, 4])):
    m = program_id(0) * 2
    n = program_id(1) * 4
    yd.store([m, n], xd.load([m, n]) * 2 + 1)
"""


class DescriptorTest(unittest.TestCase):
    def test_descriptor_arguments_read_and_write_blocks(self):
        # X: 3 x 5 in rows of 6 (the sixth column never read); Y likewise,
        # its padding column left as it was.
        x = array.array("f", [r * 5 + c if c < 5 else 100.0 for r in range(3) for c in range(6)])
        y = array.array("f", [-7.0] * 18)
        k = blk.jit(DESCRIPTOR_SOURCE)
        k[(2, 2)](blk.TensorDescriptor(x, [3, 5], [6, 1], [2, 4]), blk.TensorDescriptor(y, [3, 5], [6, 1], [2, 4]))
        want = [2 * (r * 5 + c) + 1 if c < 5 else -7.0 for r in range(3) for c in range(6)]
        self.assertEqual(list(y), want)

    def test_descriptor_with_strided_rows_is_refused(self):
        x = array.array("f", [0.0] * 18)
        k = blk.jit(DESCRIPTOR_SOURCE)
        with self.assertRaisesRegex(ValueError, "argument 0: a tensor descriptor's last stride must be 1, got 2"):
            k[(1, 1)](blk.TensorDescriptor(x, [3, 3], [6, 2], [2, 4]), blk.TensorDescriptor(x, [3, 5], [6, 1], [2, 4]))

    def test_descriptor_with_other_blocks_than_the_kernel_reads_is_refused(self):
        x = array.array("f", [0.0] * 18)
        y = array.array("f", [-7.0] * 18)
        k = blk.jit(DESCRIPTOR_SOURCE)
        with self.assertRaisesRegex(ValueError, r"argument 1: the kernel's tensor descriptor parameter reads blocks "
                                                r"of \[2, 4\], the descriptor's block_shape is \[4, 2\]"):
            k[(1, 1)](blk.TensorDescriptor(x, [3, 5], [6, 1], [2, 4]), blk.TensorDescriptor(y, [3, 5], [6, 1], [4, 2]))
        self.assertEqual(list(y), [-7.0] * 18)  # nothing launched

    def test_descriptor_where_the_kernel_takes_a_pointer_is_refused(self):
        x = array.array("f", [0.0] * 8)
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        with self.assertRaisesRegex(ValueError, "argument 0: a tensor descriptor where the kernel takes no tensor "
                                                "descriptor parameter"):
            add[1](blk.TensorDescriptor(x, [8], [1], [8]), x, 8, BLOCK=8)


TUPLE_SOURCE = """
@kernel
def axpy(io: (*f32, *f32), coeffs: (f32, (i32, f32)), n: i32, BLOCK: constexpr = 8):
    x, y = io
    a, (k, b) = coeffs
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    m = offs < n
    store(y + offs, a * load(x + offs, mask=m) + b * k, mask=m)
"""


class TupleTest(unittest.TestCase):
    def test_tuple_arguments_pass_their_elements(self):
        n = 11
        x = array.array("f", [float(i) for i in range(n)])
        y = array.array("f", [math.nan] * n)
        blk.jit(TUPLE_SOURCE)[(2,)]((x, y), (2.0, (3, 0.5)), n)
        self.assertEqual(list(y), [2.0 * i + 1.5 for i in range(n)])

    def test_a_descriptor_in_a_tuple_is_checked_where_it_is(self):
        x = array.array("f", [0.0] * 18)
        with self.assertRaisesRegex(ValueError, "argument 1, element 0: a tensor descriptor's last stride must be 1"):
            blk.jit(DESCRIPTOR_SOURCE)[(1, 1)](blk.TensorDescriptor(x, [3, 5], [6, 1], [2, 4]),
                                               (blk.TensorDescriptor(x, [3, 3], [6, 2], [2, 4]),))


class SpecializationTest(unittest.TestCase):
    def test_aligned_and_misaligned_pointers_compile_two_variants(self):
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        n = 64
        raw = ctypes.create_string_buffer(4 * n * 3 + 64)
        values = [float(i) for i in range(n)]
        results = []
        for offset in (0, 4):
            x = aligned_view(raw, offset, 4 * n)
            out = aligned_view(raw, offset + 4 * n + 16, 4 * n)
            x.cast("f")[:] = array.array("f", values)
            spec = add.specialization(x, x, out, n, BLOCK=64)
            results.append(spec)
            add[1](x, x, out, n, BLOCK=64)
            check_close(self, out.cast("f"), [2 * v for v in values], 1e-6, what="offset %d" % offset)
        self.assertEqual(results, ["X:16,Y:16,Out:16,n:16", "n:16"])
        self.assertEqual(add.num_variants(), 2)
        x = aligned_view(raw, 0, 4 * n)
        self.assertEqual(add.specialization(x, x, x, 1, BLOCK=64), "X:16,Y:16,Out:16,n:1")

    def test_a_second_launch_hits_the_memory_cache(self):
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        x = floats(32, 5)
        add[1](x, x, x, 32, BLOCK=32)
        before = blk.cache_stats("cpu")
        add[1](x, x, x, 32, BLOCK=32)
        after = blk.cache_stats("cpu")
        self.assertEqual(after["memory_hits"], before["memory_hits"] + 1)
        self.assertEqual(after["compiles"], before["compiles"])


class ErrorTest(unittest.TestCase):
    def test_syntax_error_in_a_file_gives_file_line_col(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.blk")
            with open(path, "w") as f:
                f.write("@kernel\ndef k(X: *f32):\n    x = load(X +)\n")
            with self.assertRaises(blk.CompileError) as e:
                blk.jit(path)
            self.assertRegex(str(e.exception), "^" + path + r":3:\d+: error: ")
            self.assertIsInstance(e.exception, blk.BlkError)

    def test_type_error_raises_compile_error_with_location(self):
        k = blk.jit("@kernel\ndef k(X: *f32, n: i32):\n    store(X, undefined_name)\n")
        x = array.array("f", [0.0])
        with self.assertRaisesRegex(blk.CompileError, r"^<string>:3:\d+: error: "):
            k[1](x, 1)

    def test_unbound_or_bad_binding(self):
        with self.assertRaisesRegex(TypeError, "binding"):
            blk.jit(SCALE_SOURCE, T=object())
        with self.assertRaisesRegex(blk.CompileError, "cannot read"):
            blk.jit("/nonexistent/kernel.blk")

    def test_launch_errors(self):
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        x = floats(16, 1)
        with self.assertRaisesRegex(blk.LaunchError, "^kernel 'vector_add' takes 4 arguments, got 3$"):
            add[1](x, x, x)
        with self.assertRaisesRegex(blk.LaunchError, r"argument 3 \('n'\) of kernel 'vector_add' must be an integer, got a float"):
            add[1](x, x, x, 16.0)
        with self.assertRaisesRegex(blk.LaunchError, "empty grid"):
            add[0](x, x, x, 16)
        short = array.array("f", [0.0] * 4)
        with self.assertRaisesRegex(blk.LaunchError, r"vector_add.blk:\d+:\d+: error: out-of-bounds store"):
            add[1](x, x, short, 16, BLOCK=16)
        with self.assertRaisesRegex(TypeError, "read-only buffer"):
            add[1](bytes(64), x, x, 16)
        with self.assertRaisesRegex(TypeError, "not a tensor, a buffer, an int or a float"):
            add[1]("x", x, x, 16)

    def test_host_memory_is_released_after_a_launch(self):
        # A buffer passed to an earlier launch is not reachable from a later one.
        k = blk.jit("@kernel\ndef k(X: *f32, Y: *f32, d: i64):\n    store(Y, load(X + d))\n")
        a, b = array.array("f", [1.0, 2.0]), array.array("f", [0.0])
        out = array.array("f", [0.0])
        k[1](a, out, 1)
        self.assertEqual(out[0], 2.0)
        gap = (a.buffer_info()[0] - b.buffer_info()[0]) // 4
        with self.assertRaisesRegex(blk.LaunchError, "out-of-bounds load"):
            k[1](b, out, gap)


class OperatorsTest(unittest.TestCase):
    def test_fused_linear_cross_entropy_through_the_c_api(self):
        """libblk_jit.so's blk_flce (blk._operators) on host buffers, bf16,
        against float64: the mean loss over the rows not ignored, dX and dW."""
        from blk import _library, _operators
        self.assertTrue(_library.has_operators())
        rows, hidden, vocab = 5, 16, 37
        rng = random.Random(3)
        x = [from_bf16_bits(to_bf16_bits(rng.uniform(-1, 1))) for _ in range(rows * hidden)]
        w = [from_bf16_bits(to_bf16_bits(rng.uniform(-0.5, 0.5))) for _ in range(vocab * hidden)]
        target = [3, -100, 36, 0, 17]
        raw = ctypes.create_string_buffer(1 << 14)
        views, at = [], 0

        def buffer(fmt, values):
            nonlocal at
            view = aligned_view(raw, at, len(values) * struct.calcsize(fmt)).cast(fmt)
            view[:] = array.array(fmt, values)
            at += (len(values) * struct.calcsize(fmt) + 15) // 16 * 16
            views.append(view)
            return view

        xb = buffer("H", [to_bf16_bits(v) for v in x])
        wb = buffer("H", [to_bf16_bits(v) for v in w])
        tb = buffer("q", target)
        dx, dw = buffer("H", [0] * (rows * hidden)), buffer("H", [0] * (vocab * hidden))
        args = _operators.flce_args(xb, wb, tb, dx, dw, rows, hidden, vocab, "bf16")
        work = buffer("B", [0] * _operators.flce_workspace_bytes(args))
        loss = _operators.fused_linear_cross_entropy(args, views[:5], work, os.path.join(ROOT, "kernels"))

        kept = [r for r in range(rows) if target[r] != -100]
        want_loss, want_dx, want_dw = 0.0, [0.0] * (rows * hidden), [0.0] * (vocab * hidden)
        for r in kept:
            logits = [sum(x[r * hidden + k] * w[c * hidden + k] for k in range(hidden)) for c in range(vocab)]
            m = max(logits)
            lse = m + math.log(sum(math.exp(v - m) for v in logits))
            want_loss += (lse - logits[target[r]]) / len(kept)
            for c in range(vocab):
                g = (math.exp(logits[c] - lse) - (c == target[r])) / len(kept)
                for k in range(hidden):
                    want_dx[r * hidden + k] += g * w[c * hidden + k]
                    want_dw[c * hidden + k] += g * x[r * hidden + k]
        check_close(self, [loss], [want_loss], 1e-2, what="loss")
        for name, got, want in (("dX", dx, want_dx), ("dW", dw, want_dw)):
            scale = max(abs(v) for v in want)
            check_close(self, [from_bf16_bits(b) for b in got], want, 2e-2, 2e-2 * scale, what=name)


@unittest.skipUnless(any(os.path.isdir(p) and os.path.exists(os.path.join(p, "numpy")) for p in sys.path),
                     "numpy is not installed")
class NumpyTest(unittest.TestCase):
    def test_numpy_arrays(self):
        import numpy as np
        add = blk.jit(os.path.join(KERNELS, "vector_add.blk"), T="f32")
        x = np.linspace(-1, 1, 1000, dtype=np.float32)
        out = np.full_like(x, np.nan)
        add[1](x, x, out, x.size)
        check_close(self, out, 2.0 * x.astype(np.float64), 1e-6, what="numpy")


if __name__ == "__main__":
    unittest.main()
