"""blk.ops against PyTorch eager in float64 at ragged shapes: each op's forward
and its gradients, on CUDA tensors (the GPU) and on CPU tensors (blk's
interpreter). Needs torch; BLK_REQUIRE_GPU=1 turns a missing GPU into a failure.

    PYTHONPATH=python python3 -m unittest discover -s python/tests -p 'test_ops_gpu.py' -v
"""
import math
import os
import sys
import unittest

try:
    import torch
except ImportError:  # the CPU machine: blk's own tests are test_jit_cpu.py
    torch = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

HAVE_CUDA = torch is not None and torch.cuda.is_available()
REQUIRE_GPU = os.environ.get("BLK_REQUIRE_GPU") == "1"

# Relative tolerance per dtype of the kernel's inputs and outputs.
TOLERANCE = {"float32": 2e-5, "float16": 4e-3, "bfloat16": 3e-2}


def check_close(testcase, got, want, dtype, what):
    """Float64: the relative error norm, and every element within the tolerance
    of its own size plus the tensor's RMS (cancelling sums); NaN never passes."""
    rtol = TOLERANCE[str(dtype).replace("torch.", "")]
    got, want = got.detach().to("cpu", torch.float64).flatten(), want.detach().to("cpu", torch.float64).flatten()
    testcase.assertEqual(got.shape, want.shape, what)
    testcase.assertTrue(bool(torch.isfinite(got).all()), what + ": not finite")
    scale = float(want.square().mean().sqrt()) if want.numel() else 0.0
    bad = (got - want).abs() > rtol * (want.abs() + scale)
    if bool(bad.any()):
        i = int(bad.nonzero()[0])
        testcase.fail("%s[%d] = %r, expected %r (rtol %g)" % (what, i, float(got[i]), float(want[i]), rtol))
    norm = float(want.norm()) or 1.0
    testcase.assertLessEqual(float((got - want).norm()) / norm, rtol, what + ": relative error norm")


def devices():
    out = ["cpu"]  # blk's interpreter on CPU tensors
    if HAVE_CUDA:
        out.append("cuda")
    return out


def rms_norm_reference(x64, w64, eps, offset, round_to):
    """In float64 from the kernel's (rounded) inputs. Llama mode rounds the
    normalized row to the input dtype before the weight, as the kernel and Liger
    do: the rounded value enters Y and dW, the exact gradient flows to dX."""
    rstd = torch.rsqrt(x64.square().mean(-1, keepdim=True) + eps)
    normed = x64 * rstd
    if round_to is not None:
        normed = normed + (normed.to(round_to).to(torch.float64) - normed).detach()
    return normed * (offset + w64)


@unittest.skipIf(torch is None, "torch is not installed")
class OpsTest(unittest.TestCase):
    def setUp(self):
        if REQUIRE_GPU and not HAVE_CUDA:
            self.fail("BLK_REQUIRE_GPU=1 and torch sees no CUDA device")
        torch.manual_seed(0)

    def dtypes(self, device):
        return [torch.float32] if device == "cpu" else [torch.float32, torch.float16, torch.bfloat16]

    def test_rms_norm_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1, 7), (37, 100), (3, 5, 1000)] if device == "cpu" else \
                [(1, 7), (37, 100), (3, 5, 1000), (129, 4097), (2048, 4096), (4, 8192 + 3)]
            for dtype in self.dtypes(device):
                for mode, offset in (("llama", 0.0), ("gemma", 1.0)):
                    for shape in shapes:
                        what = "rms_norm %s %s %s %s" % (device, dtype, mode, shape)
                        with self.subTest(what):
                            x = (torch.randn(shape, device=device) * 2).to(dtype).requires_grad_()
                            w = torch.empty(shape[-1], device=device).uniform_(-1, 1).to(dtype).requires_grad_()
                            dy = torch.randn(shape, device=device).to(dtype)
                            y = blk.ops.rms_norm(x, w, 1e-6, offset, mode)
                            dx, dw = torch.autograd.grad(y, (x, w), dy)
                            x64 = x.detach().to(torch.float64).requires_grad_()
                            w64 = w.detach().to(torch.float64).requires_grad_()
                            y64 = rms_norm_reference(x64, w64, 1e-6, offset, dtype if mode == "llama" else None)
                            rx, rw = torch.autograd.grad(y64, (x64, w64), dy.to(torch.float64))
                            ry = y64
                            check_close(self, y, ry, dtype, what + " Y")
                            check_close(self, dx, rx, dtype, what + " dX")
                            check_close(self, dw, rw, dtype, what + " dW")

    def test_swiglu_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1,), (3, 5, 7), (2, 1000)] if device == "cpu" else \
                [(1,), (3, 5, 7), (2, 1000), (4097,), (4, 1025, 2731), (8, 14336)]
            for dtype in self.dtypes(device):
                for shape in shapes:
                    what = "swiglu %s %s %s" % (device, dtype, shape)
                    with self.subTest(what):
                        a = (torch.randn(shape, device=device) * 3).to(dtype).requires_grad_()
                        b = torch.randn(shape, device=device).to(dtype).requires_grad_()
                        dc = torch.randn(shape, device=device).to(dtype)
                        c = blk.ops.silu_mul(a, b)
                        da, db = torch.autograd.grad(c, (a, b), dc)
                        a64 = a.detach().to(torch.float64).requires_grad_()
                        b64 = b.detach().to(torch.float64).requires_grad_()
                        c64 = torch.nn.functional.silu(a64) * b64
                        ra, rb = torch.autograd.grad(c64, (a64, b64), dc.to(torch.float64))
                        check_close(self, c, c64, dtype, what + " C")
                        check_close(self, da, ra, dtype, what + " dA")
                        check_close(self, db, rb, dtype, what + " dB")

    def test_modules_match_eager(self):
        import blk.ops

        class Config:
            hidden_size, intermediate_size, hidden_act = 96, 200, "silu"

        for device in devices():
            with self.subTest(device):
                norm = blk.ops.BlkRMSNorm(96, eps=1e-5).to(device)
                with torch.no_grad():
                    norm.weight.uniform_(-1, 1)
                mlp = blk.ops.BlkSwiGLUMLP(Config()).to(device)
                x = torch.randn(3, 11, 96, device=device)
                h = norm(x)
                want = x * torch.rsqrt(x.square().mean(-1, keepdim=True) + 1e-5) * norm.weight
                check_close(self, h, want, torch.float32, "BlkRMSNorm " + device)
                out = mlp(h)
                want = mlp.down_proj(torch.nn.functional.silu(mlp.gate_proj(h)) * mlp.up_proj(h))
                check_close(self, out, want, torch.float32, "BlkSwiGLUMLP " + device)
                out.sum().backward()
                self.assertTrue(bool(torch.isfinite(norm.weight.grad).all()))

    def test_bad_arguments(self):
        import blk.ops
        x = torch.randn(4, 8)
        with self.assertRaisesRegex(ValueError, "W must be a vector"):
            blk.ops.rms_norm(x, torch.ones(7))
        with self.assertRaisesRegex(ValueError, "casting_mode"):
            blk.ops.rms_norm(x, torch.ones(8), casting_mode="bad")
        with self.assertRaisesRegex(ValueError, "one shape"):
            blk.ops.silu_mul(x, torch.randn(4, 9))


if __name__ == "__main__":
    unittest.main()
