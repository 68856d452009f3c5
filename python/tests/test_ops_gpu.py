"""blk.ops against PyTorch eager in float64 at ragged shapes: each op's
forward and its gradients, on CUDA tensors (the GPU) and on CPU tensors
(blk's interpreter, small shapes); the custom ops under torch.compile
(fullgraph) and torch.library.opcheck; the autograd.Functions and modules.
Needs torch; BLK_REQUIRE_GPU=1 turns a missing GPU into a failure.

    PYTHONPATH=python python3 -m unittest discover -s python/tests -p 'test_ops_gpu.py' -v
"""
import os
import sys
import unittest
import warnings

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the CPU machine: blk's own tests are test_jit_cpu.py
    torch = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

HAVE_CUDA = torch is not None and torch.cuda.is_available()
REQUIRE_GPU = os.environ.get("BLK_REQUIRE_GPU") == "1"

# Relative tolerance per dtype of the kernel's inputs and outputs.
TOLERANCE = {"float32": 2e-5, "float16": 4e-3, "bfloat16": 3e-2}


def check_close(testcase, got, want, dtype, what, scale=1.0):
    """Float64: the relative error norm, and every element within the tolerance
    of its own size plus the tensor's RMS (cancelling sums); NaN never passes.
    `scale` widens the dtype's tolerance (sums over many rounded terms). Both
    allow two of the dtype's smallest subnormals per element (2^-23 in f16): a
    tensor stored in the dtype holds nothing finer (f16 rounds 3e-8 to 0 or
    6e-8), and a gradient stored for an upstream gradient of 1 and scaled
    after (Liger's losses) rounds twice; torch eager in that dtype does no
    better (#20)."""
    rtol = TOLERANCE[str(dtype).replace("torch.", "")] * scale
    info = torch.finfo(dtype)
    atol = 2 * info.tiny * info.eps  # two of the smallest subnormals
    got, want = got.detach().to("cpu", torch.float64).flatten(), want.detach().to("cpu", torch.float64).flatten()
    testcase.assertEqual(got.shape, want.shape, what)
    testcase.assertTrue(bool(torch.isfinite(got).all()), what + ": not finite")
    rms = float(want.square().mean().sqrt()) if want.numel() else 0.0
    bad = (got - want).abs() > rtol * (want.abs() + rms) + atol
    if bool(bad.any()):
        i = int(bad.nonzero()[0])
        testcase.fail("%s[%d] = %r, expected %r (rtol %g)" % (what, i, float(got[i]), float(want[i]), rtol))
    error, norm = float((got - want).norm()), float(want.norm())
    testcase.assertLessEqual(error, rtol * (norm or 1.0) + atol * got.numel() ** 0.5, what + ": relative error norm")


class RoundGradient(torch.autograd.Function if torch is not None else object):
    """The identity whose backward rounds the gradient to `dtype`: a reference
    for a kernel that stores that gradient in the dtype (the logits' gradient
    of cross-entropy, which Liger's kernels and torch eager store in the
    logits' dtype). `unscaled`, a dict whose "factor" is set before the
    backward runs: the factor the kernel applies after rounding (blk's fused
    linear cross-entropy driver stores the gradient without the mean's 1 / rows
    and the upstream gradient, which multiply the products in f32)."""

    @staticmethod
    def forward(ctx, t, dtype, unscaled=None):
        ctx.dtype, ctx.unscaled = dtype, unscaled
        return t.view_as(t)

    @staticmethod
    def backward(ctx, grad):
        factor = ctx.unscaled["factor"] if ctx.unscaled else 1.0
        return (grad / factor).to(ctx.dtype).to(grad.dtype) * factor, None, None


class SoftmaxReference(torch.autograd.Function if torch is not None else object):
    """softmax(x) in float64 whose backward uses Y rounded to `dtype`, the Y
    that the kernel (as Liger's and torch eager's) saves and reads:
    dX = Y * (dY - sum(dY * Y)) cancels, so the rounding of Y matters."""

    @staticmethod
    def forward(ctx, x, dtype):
        y = torch.softmax(x, -1)
        ctx.save_for_backward(y.to(dtype).to(y.dtype))
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return y * (dy - (dy * y).sum(-1, keepdim=True)), None


def devices():
    out = ["cpu"]  # blk's interpreter on CPU tensors
    if HAVE_CUDA:
        out.append("cuda")
    return out


def dtypes(device):
    return [torch.float32] if device == "cpu" else [torch.float32, torch.float16, torch.bfloat16]


def leaf64(t):
    """A float64 leaf with t's (rounded) values, for the reference."""
    return t.detach().to(torch.float64).requires_grad_()


def rms_norm_reference(x64, w64, eps, offset, round_to):
    """In float64 from the kernel's (rounded) inputs. Llama mode rounds the
    normalized row to the input dtype before the weight, as the kernel and Liger
    do: the rounded value enters Y and dW, the exact gradient flows to dX."""
    rstd = torch.rsqrt(x64.square().mean(-1, keepdim=True) + eps)
    normed = x64 * rstd
    if round_to is not None:
        normed = normed + (normed.to(round_to).to(torch.float64) - normed).detach()
    return normed * (offset + w64)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def rope_cos_sin(batch, seq, hd, device, dtype):
    """cos and sin [batch, seq, hd] as Hugging Face's rotary embedding builds them (halves equal)."""
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd))
    pos = torch.arange(seq, dtype=torch.float64)[None, :, None] + torch.arange(batch, dtype=torch.float64)[:, None,
                                                                                                           None]
    emb = torch.cat((pos * inv_freq, pos * inv_freq), dim=-1)
    return emb.cos().to(device, dtype), emb.sin().to(device, dtype)


def cross_entropy_reference(logits, target, ignore_index=-100, reduction="mean", label_smoothing=0.0,
                            lse_square_scale=0.0, softcap=None):
    """Liger's cross-entropy in float64: softcap, label smoothing, z-loss, mean over the rows not ignored."""
    z = softcap * torch.tanh(logits / softcap) if softcap else logits
    keep = target != ignore_index
    lse = torch.logsumexp(z, dim=-1)
    picked = z.gather(1, target.clamp(min=0)[:, None])[:, 0]
    rows = (1 - label_smoothing) * (lse - picked) + label_smoothing * (lse - z.mean(-1)) + lse_square_scale * lse ** 2
    rows = torch.where(keep, rows, torch.zeros_like(rows))
    if reduction == "none":
        return rows
    return rows.sum() / (keep.sum() if reduction == "mean" else 1)


def jsd_reference(log_q, log_p, beta, labels=None, ignore_index=-100):
    P, Q = log_p.exp(), log_q.exp()
    if beta == 0.0:
        rows = (P * (log_p - log_q)).sum(-1)
    elif beta == 1.0:
        rows = (Q * (log_q - log_p)).sum(-1)
    else:
        M = beta * P + (1 - beta) * Q
        log_m = M.log()
        rows = beta * (P * (log_p - log_m)).sum(-1) + (1 - beta) * (Q * (log_q - log_m)).sum(-1)
    if labels is None:
        return rows.sum() / rows.shape[0]
    keep = labels != ignore_index
    return (rows * keep).sum() / keep.sum()


@unittest.skipIf(torch is None, "torch is not installed")
class OpsTest(unittest.TestCase):
    def setUp(self):
        if REQUIRE_GPU and not HAVE_CUDA:
            self.fail("BLK_REQUIRE_GPU=1 and torch sees no CUDA device")
        torch.manual_seed(0)

    def compare(self, outs, refs, inputs, refs_inputs, upstream, dtype, what, scale=1.0, names=None):
        """The outputs and the gradients of `inputs` against the float64 reference's."""
        outs, refs = list(outs), list(refs)
        for i, (o, r) in enumerate(zip(outs, refs)):
            check_close(self, o, r, dtype, "%s out%d" % (what, i), scale)
        grads = torch.autograd.grad(outs, inputs, upstream)
        ref_grads = torch.autograd.grad(refs, refs_inputs, [u.to(torch.float64) for u in upstream])
        for i, (g, r) in enumerate(zip(grads, ref_grads)):
            check_close(self, g, r, dtype, "%s d%s" % (what, names[i] if names else i), scale)

    def test_rms_norm_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1, 7), (37, 100), (3, 5, 1000)] if device == "cpu" else \
                [(1, 7), (37, 100), (3, 5, 1000), (129, 4097), (2048, 4096), (4, 8192 + 3)]
            for dtype in dtypes(device):
                for mode, offset in (("llama", 0.0), ("gemma", 1.0)):
                    for shape in shapes:
                        what = "rms_norm %s %s %s %s" % (device, dtype, mode, shape)
                        with self.subTest(what):
                            x = (torch.randn(shape, device=device) * 2).to(dtype).requires_grad_()
                            w = torch.empty(shape[-1], device=device).uniform_(-1, 1).to(dtype).requires_grad_()
                            dy = torch.randn(shape, device=device).to(dtype)
                            y = blk.ops.rms_norm(x, w, 1e-6, offset, mode)
                            x64, w64 = leaf64(x), leaf64(w)
                            y64 = rms_norm_reference(x64, w64, 1e-6, offset, dtype if mode == "llama" else None)
                            self.compare([y], [y64], (x, w), (x64, w64), [dy], dtype, what, names="XW")

    def test_layer_norm_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1, 7), (37, 100), (3, 5, 129)] if device == "cpu" else \
                [(1, 7), (37, 100), (3, 5, 1000), (129, 4097), (2048, 4096), (4, 8192 + 3)]
            for dtype in dtypes(device):
                for has_bias in (True, False):
                    for shape in shapes:
                        what = "layer_norm %s %s bias=%s %s" % (device, dtype, has_bias, shape)
                        with self.subTest(what):
                            x = (torch.randn(shape, device=device) * 2 + 0.5).to(dtype).requires_grad_()
                            w = torch.empty(shape[-1], device=device).uniform_(-1, 1).to(dtype).requires_grad_()
                            b = torch.randn(shape[-1], device=device).to(dtype).requires_grad_() if has_bias else None
                            dy = torch.randn(shape, device=device).to(dtype)
                            y = blk.ops.layer_norm(x, w, b, 1e-5)
                            x64, w64 = leaf64(x), leaf64(w)
                            b64 = leaf64(b) if has_bias else None
                            y64 = F.layer_norm(x64, shape[-1:], w64, b64, 1e-5)
                            inputs, inputs64 = (x, w) + ((b,) if has_bias else ()), (x64, w64) + (
                                (b64,) if has_bias else ())
                            self.compare([y], [y64], inputs, inputs64, [dy], dtype, what, names="XWB")

    def test_softmax_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1, 7), (37, 100), (3, 5, 129)] if device == "cpu" else \
                [(1, 7), (37, 100), (3, 5, 1000), (129, 4097), (8, 40000)]
            for dtype in dtypes(device):
                for shape in shapes:
                    what = "softmax %s %s %s" % (device, dtype, shape)
                    with self.subTest(what):
                        x = (torch.randn(shape, device=device) * 3).to(dtype).requires_grad_()
                        dy = torch.randn(shape, device=device).to(dtype)
                        x64 = leaf64(x)
                        self.compare([blk.ops.softmax(x)], [SoftmaxReference.apply(x64, dtype)], (x,), (x64,), [dy],
                                     dtype, what)

    def test_swiglu_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1,), (3, 5, 7), (2, 1000)] if device == "cpu" else \
                [(1,), (3, 5, 7), (2, 1000), (4097,), (4, 1025, 2731), (8, 14336)]
            for dtype in dtypes(device):
                for shape in shapes:
                    what = "swiglu %s %s %s" % (device, dtype, shape)
                    with self.subTest(what):
                        a = (torch.randn(shape, device=device) * 3).to(dtype).requires_grad_()
                        b = torch.randn(shape, device=device).to(dtype).requires_grad_()
                        dc = torch.randn(shape, device=device).to(dtype)
                        a64, b64 = leaf64(a), leaf64(b)
                        self.compare([blk.ops.silu_mul(a, b)], [F.silu(a64) * b64], (a, b), (a64, b64), [dc], dtype,
                                     what, names="AB")

    def test_geglu_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1,), (3, 5, 7), (2, 1000)] if device == "cpu" else \
                [(1,), (3, 5, 7), (2, 1000), (4097,), (4, 1025, 2731), (8, 14336)]
            for dtype in dtypes(device):
                for approximate in ("tanh", "none"):
                    for shape in shapes:
                        what = "geglu %s %s %s %s" % (device, dtype, approximate, shape)
                        with self.subTest(what):
                            # Above -4: the exact form's 1 + erf cancels below (kernels/geglu.blk).
                            a = (torch.rand(shape, device=device) * 8 - 3.5).to(dtype).requires_grad_()
                            b = torch.randn(shape, device=device).to(dtype).requires_grad_()
                            dc = torch.randn(shape, device=device).to(dtype)
                            a64, b64 = leaf64(a), leaf64(b)
                            want = F.gelu(a64, approximate=approximate) * b64
                            self.compare([blk.ops.gelu_mul(a, b, approximate)], [want], (a, b), (a64, b64), [dc],
                                         dtype, what, names="AB")

    def test_rope_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            # (batch, seq, q heads, kv heads, head_dim): ragged heads and head dims.
            shapes = [(1, 1, 1, 1, 2), (2, 7, 4, 2, 8), (3, 5, 6, 3, 18)] if device == "cpu" else \
                [(1, 1, 1, 1, 2), (2, 7, 4, 2, 8), (3, 5, 6, 3, 18), (2, 129, 32, 8, 128), (1, 1000, 12, 4, 64),
                 (2, 33, 40, 8, 96)]
            for dtype in dtypes(device):
                for b, s, hq, hk, hd in shapes:
                    for cos_batch in (1, b):
                        for layout in (1, 2):
                            what = "rope %s %s %s cos_batch=%d unsqueeze_dim=%d" % (device, dtype, (b, s, hq, hk, hd),
                                                                                   cos_batch, layout)
                            with self.subTest(what):
                                # Hugging Face's layout: q_proj's [b, s, h, d] viewed as [b, h, s, d].
                                q = torch.randn(b, s, hq, hd, device=device).to(dtype)
                                k = torch.randn(b, s, hk, hd, device=device).to(dtype)
                                if layout == 1:
                                    q, k = q.transpose(1, 2), k.transpose(1, 2)
                                q, k = q.requires_grad_(), k.requires_grad_()
                                cos, sin = rope_cos_sin(cos_batch, s, hd, device, dtype)
                                qe, ke = blk.ops.rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=layout)
                                q64, k64 = leaf64(q), leaf64(k)
                                c64 = cos.to(torch.float64).unsqueeze(layout)
                                s64 = sin.to(torch.float64).unsqueeze(layout)
                                refs = [q64 * c64 + rotate_half(q64) * s64, k64 * c64 + rotate_half(k64) * s64]
                                ups = [torch.randn_like(qe), torch.randn_like(ke)]
                                self.compare([qe, ke], refs, (q, k), (q64, k64), ups, dtype, what, names="QK")

    def test_attention_forward_and_gradients(self):
        """blk.ops.attention against float64 SDPA: grouped queries, causal or
        not, ragged and unequal sequences, head dims 16-256, and Hugging
        Face's layout (q, k, v of [b, s, h, d] projections viewed as
        [b, h, s, d])."""
        import blk.ops
        import torch.nn.functional as F
        for device in devices():
            # (batch, heads, kv_heads, seq_q, seq_k, head_dim)
            shapes = [(1, 2, 1, 37, 37, 32), (2, 4, 2, 50, 50, 64), (1, 2, 2, 20, 45, 16)] if device == "cpu" else \
                [(2, 4, 2, 130, 130, 64), (1, 8, 2, 257, 257, 128), (1, 2, 1, 100, 300, 128), (1, 2, 2, 64, 64, 32),
                 (1, 2, 1, 70, 70, 16), (1, 2, 1, 70, 90, 256), (2, 4, 4, 1, 7, 128)]
            for dtype in ([torch.float32] if device == "cpu" else [torch.float16, torch.bfloat16]):
                for b, h, kvh, sq, sk, d in shapes:
                    # One causal query sees one key: its dQ is 0 by cancellation, which rounding misses by 1e-7.
                    for causal in ((False, True) if sq > 1 else (False,)):
                        for hf_layout in ((False, True) if sq == sk else (False,)):
                            what = "attention %s %s %s causal=%s hf_layout=%s" % (
                                device, dtype, (b, h, kvh, sq, sk, d), causal, hf_layout)
                            with self.subTest(what):
                                def make(heads, seq):
                                    if hf_layout:
                                        t = torch.randn(b, seq, heads, d, device=device).to(dtype).transpose(1, 2)
                                    else:
                                        t = torch.randn(b, heads, seq, d, device=device).to(dtype)
                                    return t.requires_grad_()
                                q, k, v = make(h, sq), make(kvh, sk), make(kvh, sk)
                                out = blk.ops.attention(q, k, v, causal=causal)
                                q64, k64, v64 = leaf64(q), leaf64(k), leaf64(v)
                                ref = F.scaled_dot_product_attention(q64, k64, v64, is_causal=causal,
                                                                     enable_gqa=True)
                                self.compare([out], [ref], (q, k, v), (q64, k64, v64), [torch.randn_like(out)],
                                             dtype, what, scale=2.0, names="QKV")

    def test_cross_entropy_forward_and_gradients(self):
        import blk.ops
        options = [{}, {"reduction": "sum"}, {"reduction": "none"}, {"label_smoothing": 0.1},
                   {"lse_square_scale": 1e-3}, {"softcap": 5.0}, {"ignore_index": 3, "reduction": "none"},
                   {"label_smoothing": 0.2, "softcap": 3.0, "lse_square_scale": 1e-4, "reduction": "sum"}]
        for device in devices():
            shapes = [(1, 5), (7, 37), (3, 9000)] if device == "cpu" else \
                [(1, 5), (7, 37), (3, 9000), (129, 32000), (16, 128256), (1000, 4097)]
            for dtype in dtypes(device):
                for shape in shapes:
                    for opts in options:
                        what = "cross_entropy %s %s %s %s" % (device, dtype, shape, opts)
                        with self.subTest(what):
                            x = (torch.randn(shape, device=device) * 4).to(dtype).requires_grad_()
                            target = torch.randint(0, shape[1], shape[:1], device=device)
                            target[1::4] = opts.get("ignore_index", -100)
                            loss = blk.ops.cross_entropy(x, target, **opts)
                            x64 = leaf64(x)
                            ref = cross_entropy_reference(x64, target, **opts)
                            up = torch.rand_like(ref) + 0.5
                            self.compare([loss], [ref], (x,), (x64,), [up.to(loss.dtype)], dtype, what, scale=2)

    def test_fused_linear_cross_entropy_forward_and_gradients(self):
        import blk.ops
        options = [{}, {"reduction": "sum"}, {"reduction": "none"},
                   {"label_smoothing": 0.1, "softcap": 4.0, "lse_square_scale": 1e-3}]
        for device in devices():
            # (rows, hidden, vocab); bf16 and f16 run blk's driver (mean, sum), f32 the chunked path.
            if device == "cpu":
                cases = [(torch.bfloat16, (1, 16, 33)), (torch.bfloat16, (37, 48, 301)), (torch.float32, (37, 48, 301))]
            else:
                cases = [(dt, shape) for dt in (torch.bfloat16, torch.float16, torch.float32)
                         for shape in ((1, 16, 33), (300, 256, 5003), (1030, 512, 32000))]
            for dtype, (rows, hidden, vocab) in cases:
                for has_bias in (False, True):
                    for opts in options:
                        what = "flce %s %s %s bias=%s %s" % (device, dtype, (rows, hidden, vocab), has_bias, opts)
                        with self.subTest(what):
                            x = (torch.randn(rows, hidden, device=device) * 0.5).to(dtype).requires_grad_()
                            w = (torch.randn(vocab, hidden, device=device) * hidden ** -0.5).to(dtype).requires_grad_()
                            b = (torch.randn(vocab, device=device) * 0.1).to(dtype).requires_grad_() if has_bias \
                                else None
                            target = torch.randint(0, vocab, (rows,), device=device)
                            target[1::5] = -100
                            loss = blk.ops.fused_linear_cross_entropy(x, w, target, b, **opts)
                            self.assertEqual(loss.dtype, torch.float32)
                            x64, w64 = leaf64(x), leaf64(w)
                            b64 = leaf64(b) if has_bias else None
                            # The driver (bf16, f16; mean, sum) rounds the gradient before the
                            # mean's 1 / rows and the upstream gradient; the chunked path ("none")
                            # after both.
                            unscaled = {"factor": 1.0}
                            logits64 = RoundGradient.apply(F.linear(x64, w64, b64), dtype, unscaled)
                            ref = cross_entropy_reference(logits64, target, **opts)
                            up = torch.rand_like(ref) + 0.5
                            reduction = opts.get("reduction", "mean")
                            if dtype != torch.float32 and reduction != "none":
                                counted = int((target != -100).sum()) if reduction == "mean" else 1
                                unscaled["factor"] = float(up) / max(counted, 1)
                            inputs = (x, w) + ((b,) if has_bias else ())
                            inputs64 = (x64, w64) + ((b64,) if has_bias else ())
                            self.compare([loss], [ref], inputs, inputs64, [up.float()], dtype, what, scale=3,
                                         names="XWB")

    def test_fused_linear_cross_entropy_chunks(self):
        """BLK_FLCE_CHUNK_ROWS=16: several chunks in blk's driver (bf16) and in the Python path (f32, "none")."""
        import blk.ops
        os.environ["BLK_FLCE_CHUNK_ROWS"] = "16"
        try:
            for device in devices():
                for dtype, reduction in ((torch.bfloat16, "mean"), (torch.float32, "mean"), (torch.bfloat16, "none")):
                    what = "flce chunks of 16 %s %s %s" % (device, dtype, reduction)
                    with self.subTest(what):
                        x = (torch.randn(53, 32, device=device) * 0.5).to(dtype).requires_grad_()
                        w = (torch.randn(200, 32, device=device) * 0.2).to(dtype).requires_grad_()
                        target = torch.randint(0, 200, (53,), device=device)
                        target[::6] = -100
                        loss = blk.ops.fused_linear_cross_entropy(x, w, target, reduction=reduction)
                        x64, w64 = leaf64(x), leaf64(w)
                        ref = cross_entropy_reference(F.linear(x64, w64), target, reduction=reduction)
                        up = torch.rand_like(ref) + 0.5
                        self.compare([loss], [ref], (x, w), (x64, w64), [up.float()], dtype, what, scale=3,
                                     names="XW")
            os.environ["BLK_FLCE_CHUNK_ROWS"] = "24"
            with self.assertRaisesRegex(ValueError, "multiple of 16"):
                blk.ops.fused_linear_cross_entropy(x, w, target)
        finally:
            del os.environ["BLK_FLCE_CHUNK_ROWS"]

    def test_fused_linear_cross_entropy_none_sums_dw_over_chunks_in_f32(self):
        """reduction "none" in bf16, chunks of 16 (#20): a running dW sum that a
        later chunk cancels must not keep its rounding in W's dtype. W = 0 makes
        every logit 0, every gradient (1/256 or -255/256) and product exact, so
        the float64 reference differs only by dW's rounding. Rows 0-15 put -255
        into dW[0], rows 16-31 add 0.25 to dW[0] (and -4 to dW[1..16]), rows
        32-47 take the -255 back: summed in bf16 (ulp 1 at 255) the 0.25 is lost."""
        import blk.ops
        os.environ["BLK_FLCE_CHUNK_ROWS"] = "16"
        try:
            for device in devices():
                with self.subTest(device):
                    x = torch.zeros(53, 8, device=device)
                    x[:16], x[16:32], x[32:48] = 16.0, 4.0, -16.0
                    target = torch.full((53,), -100, device=device)
                    target[:16] = target[32:48] = 0
                    target[16:32] = torch.arange(1, 17, device=device)
                    x = x.to(torch.bfloat16).requires_grad_()
                    w = torch.zeros(256, 8, device=device, dtype=torch.bfloat16, requires_grad=True)
                    loss = blk.ops.fused_linear_cross_entropy(x, w, target, reduction="none")
                    x64, w64 = leaf64(x), leaf64(w)
                    ref = cross_entropy_reference(F.linear(x64, w64), target, reduction="none")
                    self.compare([loss], [ref], (x, w), (x64, w64), [torch.ones_like(loss)], torch.bfloat16,
                                 "flce none bf16 " + device, scale=3, names="XW")
        finally:
            del os.environ["BLK_FLCE_CHUNK_ROWS"]

    def test_kl_div_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1, 5), (7, 37), (2, 3, 300)] if device == "cpu" else \
                [(1, 5), (7, 37), (2, 3, 300), (129, 32000), (4, 8, 12000)]
            for dtype in dtypes(device):
                for shape in shapes:
                    for reduction in ("batchmean", "sum", "mean", "none"):
                        for log_target in (False, True):
                            what = "kl_div %s %s %s %s log_target=%s" % (device, dtype, shape, reduction, log_target)
                            with self.subTest(what):
                                y_pred = torch.log_softmax(torch.randn(shape, device=device), -1).to(dtype)
                                y_pred.requires_grad_()
                                p = torch.softmax(torch.randn(shape, device=device) * 2, -1)
                                y_true = (p.log() if log_target else p).to(dtype)
                                loss = blk.ops.kl_div(y_pred, y_true, reduction, log_target)
                                p64 = leaf64(y_pred)
                                with warnings.catch_warnings():
                                    warnings.simplefilter("ignore")  # "mean" is not "batchmean"
                                    ref = F.kl_div(p64, y_true.to(torch.float64), reduction=reduction,
                                                   log_target=log_target)
                                up = torch.rand_like(ref) + 0.5
                                self.compare([loss], [ref], (y_pred,), (p64,), [up.float()], dtype, what, scale=2)

    def test_jsd_forward_and_gradients(self):
        import blk.ops
        for device in devices():
            shapes = [(1, 5), (7, 37), (3, 5000)] if device == "cpu" else \
                [(1, 5), (7, 37), (3, 5000), (129, 32000), (1000, 4097)]
            for dtype in dtypes(device):
                for shape in shapes:
                    for beta in (0.0, 0.5, 1.0, 0.25):
                        for with_labels in (False, True):
                            what = "jsd %s %s %s beta=%g labels=%s" % (device, dtype, shape, beta, with_labels)
                            with self.subTest(what):
                                log_q = torch.log_softmax(torch.randn(shape, device=device), -1).to(dtype)
                                log_q.requires_grad_()
                                log_p = torch.log_softmax(torch.randn(shape, device=device) * 2, -1).to(dtype)
                                labels = None
                                if with_labels:
                                    labels = torch.randint(0, shape[1], shape[:1], device=device)
                                    labels[1::3] = -100
                                loss = blk.ops.jsd(log_q, log_p, labels, beta)
                                q64 = leaf64(log_q)
                                ref = jsd_reference(q64, log_p.to(torch.float64), beta, labels)
                                up = torch.rand_like(ref) + 0.5
                                self.compare([loss], [ref], (log_q,), (q64,), [up.to(loss.dtype)], dtype, what,
                                             scale=2)

    def test_autograd_functions_are_the_custom_ops(self):
        """XFunction.apply gives the functional form's values and gradients."""
        import blk.ops as O
        x = torch.randn(3, 24, requires_grad=True)
        w = torch.randn(24, requires_grad=True)
        b = torch.randn(24, requires_grad=True)
        q = torch.randn(2, 3, 5, 8, requires_grad=True)
        k = torch.randn(2, 1, 5, 8, requires_grad=True)
        cos, sin = rope_cos_sin(1, 5, 8, "cpu", torch.float32)
        target = torch.tensor([1, -100, 7])
        lw = torch.randn(30, 24, requires_grad=True)
        lp = torch.log_softmax(torch.randn(3, 24), -1)
        aq, ak = torch.randn(1, 4, 9, 16, requires_grad=True), torch.randn(1, 2, 9, 16, requires_grad=True)
        pairs = [
            (lambda: O.RMSNormFunction.apply(x, w, 1e-6, 0.0, "llama"), lambda: O.rms_norm(x, w)),
            (lambda: O.LayerNormFunction.apply(x, w, b, 1e-6), lambda: O.layer_norm(x, w, b)),
            (lambda: O.SoftmaxFunction.apply(x), lambda: O.softmax(x)),
            (lambda: O.SiLUMulFunction.apply(x, b.expand(3, 24)), lambda: O.silu_mul(x, b.expand(3, 24))),
            (lambda: O.GELUMulFunction.apply(x, x, "tanh"), lambda: O.gelu_mul(x, x)),
            (lambda: sum(t.sum() for t in O.RopeFunction.apply(q.transpose(1, 2), k.transpose(1, 2), cos, sin)),
             lambda: sum(t.sum() for t in O.rotary_pos_emb(q, k, cos, sin))),
            (lambda: O.CrossEntropyFunction.apply(x, target, -100, 0.0, 0.0, "mean", 0.0),
             lambda: O.cross_entropy(x, target)),
            (lambda: O.FusedLinearCrossEntropyFunction.apply(x, lw, target, None, -100, 0.0, 0.0, "mean", 0.0),
             lambda: O.fused_linear_cross_entropy(x, lw, target)),
            (lambda: O.KLDivLossFunction.apply(torch.log_softmax(x, -1), lp.exp(), "batchmean", False, 1e-10),
             lambda: O.kl_div(torch.log_softmax(x, -1), lp.exp())),
            (lambda: O.JSDFunction.apply(torch.log_softmax(x, -1), lp, None, 0.5, -100),
             lambda: O.jsd(torch.log_softmax(x, -1), lp)),
            (lambda: O.AttentionFunction.apply(aq, ak, ak, True, 0.25), lambda: O.attention(aq, ak, ak, causal=True)),
        ]
        leaves = (x, w, b, q, k, lw, aq, ak)
        for i, (function, functional) in enumerate(pairs):
            with self.subTest(i):
                got, want = function(), functional()
                self.assertTrue(torch.equal(got, want))
                g = torch.autograd.grad(got.sum(), leaves, allow_unused=True)
                h = torch.autograd.grad(want.sum(), leaves, allow_unused=True)
                for u, v in zip(g, h):
                    self.assertEqual(u is None, v is None)
                    if u is not None:
                        self.assertTrue(torch.equal(u, v))

    def test_saved_results_get_no_zero_gradients(self):
        """The results an op returns for its backward (saved gradients,
        statistics) have no gradient: autograd must not allocate zeros of
        their size at the backward's start (dW and dX of a fused linear
        cross-entropy: 1.1 GiB at a Llama-3-8B training step)."""
        import blk.ops as O
        from torch.utils._python_dispatch import TorchDispatchMode

        class Zeros(TorchDispatchMode):
            def __init__(self):
                super().__init__()
                self.shapes = []

            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                out = func(*args, **(kwargs or {}))
                if func.overloadpacket.__name__ in ("zeros", "zeros_like", "new_zeros"):
                    self.shapes.append(tuple(out.shape))
                return out

        x = torch.randn(3, 24, requires_grad=True)
        w = torch.randn(24, requires_grad=True)
        lw = torch.randn(30, 24, requires_grad=True)
        target = torch.tensor([1, -100, 7])
        lp = torch.log_softmax(torch.randn(3, 24), -1)
        cases = [
            ("fused_linear_cross_entropy", lambda: torch.ops.blk.fused_linear_cross_entropy(
                x, lw, target, None, -100, 0.0, 0.0, "mean", 0.0)),
            ("cross_entropy", lambda: torch.ops.blk.cross_entropy(x, target, -100, 0.0, 0.0, "mean", 0.0)),
            ("jsd", lambda: torch.ops.blk.jsd(torch.log_softmax(x, -1), lp, None, 0.5, -100)),
            ("rms_norm", lambda: torch.ops.blk.rms_norm(x, w, 1e-6, 0.0, "llama")),
            ("layer_norm", lambda: torch.ops.blk.layer_norm(x, w, w, 1e-6)),
        ]
        for name, run in cases:
            with self.subTest(name):
                results = run()
                saved = {tuple(r.shape) for r in results[1:]}
                with Zeros() as zeros:
                    results[0].sum().backward()
                self.assertFalse(saved & set(zeros.shapes), "zeros of %s made for %s's saved results" %
                                 (sorted(saved & set(zeros.shapes)), name))
                self.assertIsNotNone(x.grad)
                x.grad = None
                # Only a saved result used: no gradient reaches the inputs.
                results = run()
                (g,) = torch.autograd.grad(results[1].sum(), [x], allow_unused=True)
                self.assertIsNone(g)

    def test_glu_backward_in_place(self):
        """backward_in_place writes dA and dB over the saved A and B: the same
        gradients as out of place, no new tensors of their size, and a second
        backward through a retained graph refused by autograd's version check
        (not silently wrong)."""
        import blk.ops as O
        x = torch.randn(5, 40, requires_grad=True)
        w = torch.randn(40, 40)
        for name, op in (("silu_mul", O.silu_mul), ("gelu_mul", lambda a, b, **k: O.gelu_mul(a, b, "none", **k))):
            with self.subTest(name):
                grads = []
                for in_place in (False, True):
                    a, b = x @ w, x * 2.0  # temporaries only the op reads, as an MLP's projections
                    out = op(a, b, backward_in_place=in_place)
                    a_data = a.data_ptr()
                    (g,) = torch.autograd.grad(out.square().sum(), [a], retain_graph=True)
                    self.assertEqual(g.data_ptr() == a_data, in_place)
                    grads.append(g.clone())
                    if in_place:
                        with self.assertRaisesRegex(RuntimeError, "modified by an inplace operation"):
                            torch.autograd.grad(out.sum(), [a])
                self.assertTrue(torch.equal(grads[0], grads[1]))
                # Inputs that overlap keep the out-of-place backward.
                a = x @ w
                out = op(a, a, backward_in_place=True)
                (g,) = torch.autograd.grad(out.sum(), [a])
                self.assertNotEqual(g.data_ptr(), a.data_ptr())

    def test_torch_compile_keeps_the_ops(self):
        """torch.compile(fullgraph=True) of a function calling every op: no graph
        break, the compiled graph holds torch.ops.blk.*, the same loss and gradients."""
        import blk.ops as O
        x = torch.randn(4, 24, requires_grad=True)
        w = torch.randn(24, requires_grad=True)
        b = torch.randn(24, requires_grad=True)
        q = torch.randn(2, 3, 5, 8, requires_grad=True)
        k = torch.randn(2, 1, 5, 8, requires_grad=True)
        lw = torch.randn(30, 24, requires_grad=True)
        cos, sin = rope_cos_sin(1, 5, 8, "cpu", torch.float32)
        target = torch.tensor([1, -100, 7, 23])
        target30 = torch.tensor([29, 0, -100, 5])

        def step(x, w, b, q, k, lw):
            h = O.layer_norm(x, w, b) + O.rms_norm(x, w) + O.softmax(x) + O.gelu_mul(x, x) + O.silu_mul(x, x)
            qe, ke = O.rotary_pos_emb(q, k, cos, sin)
            lq = torch.log_softmax(h, -1)
            loss = O.cross_entropy(h, target) + O.kl_div(lq, torch.softmax(x.detach(), -1))
            loss = loss + O.jsd(lq, torch.log_softmax(x.detach(), -1), target)
            loss = loss + O.fused_linear_cross_entropy(h, lw, target30)
            loss = loss + O.fused_linear_cross_entropy(h, lw, target30, reduction="none").sum()
            return loss + qe.sum() + (ke * 2).sum()

        args = (x, w, b, q, k, lw)
        want = step(*args)
        want_grads = torch.autograd.grad(want, args)
        graphs = []

        def backend(gm, example_inputs):
            graphs.append(str(gm.graph))
            return gm.forward

        for name, be in (("aot_eager", "aot_eager"), ("eager", backend)):
            with self.subTest(name):
                torch._dynamo.reset()
                got = torch.compile(step, fullgraph=True, backend=be)(*args)
                got_grads = torch.autograd.grad(got, args)
                self.assertTrue(torch.allclose(got, want, rtol=1e-6, atol=1e-6), (float(got), float(want)))
                for g, h in zip(got_grads, want_grads):
                    self.assertTrue(torch.allclose(g, h, rtol=1e-5, atol=1e-6))
        self.assertEqual(len(graphs), 1)
        for op in ("rms_norm", "layer_norm", "softmax", "gelu_mul", "silu_mul", "rope", "cross_entropy", "kl_div",
                   "jsd", "fused_linear_cross_entropy"):
            self.assertIn("torch.ops.blk.%s" % op, graphs[0])

    def test_opcheck(self):
        """torch.library.opcheck: schema, fake tensors, autograd registration and AOT dispatch of each op."""
        import blk.ops  # noqa: F401 (registers the ops)
        ops = torch.ops.blk
        x = torch.randn(3, 24, requires_grad=True)
        w = torch.randn(24, requires_grad=True)
        lp = torch.log_softmax(torch.randn(3, 24), -1)
        target = torch.tensor([1, -100, 7])
        cos, sin = rope_cos_sin(1, 5, 8, "cpu", torch.float32)
        cases = {
            "rms_norm": (x, w, 1e-6, 0.0, "llama"),
            "layer_norm": (x, w, torch.randn(24, requires_grad=True), 1e-6),
            "softmax": (x,),
            "silu_mul": (x, torch.randn(3, 24, requires_grad=True)),
            "gelu_mul": (x, torch.randn(3, 24, requires_grad=True), "none"),
            "silu_mul_backward_": (torch.randn(3, 24), torch.randn(3, 24), torch.randn(3, 24)),
            "gelu_mul_backward_": (torch.randn(3, 24), torch.randn(3, 24), torch.randn(3, 24), "tanh"),
            "rope": (torch.randn(2, 5, 3, 8, requires_grad=True), torch.randn(2, 5, 1, 8, requires_grad=True), cos,
                     sin),
            "cross_entropy": (x, target, -100, 0.0, 0.1, "mean", 0.0),
            "fused_linear_cross_entropy": (x, torch.randn(30, 24, requires_grad=True), target, None, -100, 0.0, 0.0,
                                           "sum", 0.0),
            "kl_div": (torch.log_softmax(torch.randn(3, 24), -1).requires_grad_(), lp.exp(), "batchmean", False,
                       1e-10),
            "jsd": (torch.log_softmax(torch.randn(3, 24), -1).requires_grad_(), lp, target, 0.5, -100),
            "attention": (torch.randn(1, 4, 9, 16, requires_grad=True), torch.randn(1, 2, 9, 16, requires_grad=True),
                          torch.randn(1, 2, 9, 16, requires_grad=True), True, 0.25),
        }
        for name, args in cases.items():
            with self.subTest(name):
                torch.library.opcheck(getattr(ops, name).default, args)

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
                want = mlp.down_proj(F.silu(mlp.gate_proj(h)) * mlp.up_proj(h))
                check_close(self, out, want, torch.float32, "BlkSwiGLUMLP " + device)
                out.sum().backward()
                self.assertTrue(bool(torch.isfinite(norm.weight.grad).all()))

                Config.hidden_act = "gelu_pytorch_tanh"
                geglu = blk.ops.BlkGEGLUMLP(Config()).to(device)
                Config.hidden_act = "silu"
                want = geglu.down_proj(F.gelu(geglu.gate_proj(h), approximate="tanh") * geglu.up_proj(h))
                check_close(self, geglu(h), want, torch.float32, "BlkGEGLUMLP " + device)
                ln = blk.ops.BlkLayerNorm(96, eps=1e-5, bias=True).to(device)
                check_close(self, ln(x), F.layer_norm(x, (96,), ln.weight, ln.bias, 1e-5), torch.float32,
                            "BlkLayerNorm " + device)
                check_close(self, blk.ops.BlkSoftmax()(x), torch.softmax(x, -1), torch.float32, "BlkSoftmax")
                logits, target = x.reshape(-1, 96), torch.randint(0, 96, (33,), device=device)
                check_close(self, blk.ops.BlkCrossEntropyLoss(label_smoothing=0.1)(logits, target),
                            F.cross_entropy(logits, target, label_smoothing=0.1), torch.float32, "BlkCrossEntropyLoss")
                lin = torch.randn(50, 96, device=device) * 0.1
                check_close(self, blk.ops.BlkFusedLinearCrossEntropyLoss()(lin, logits, target % 50),
                            F.cross_entropy(logits @ lin.t(), target % 50), torch.float32, "BlkFLCE")
                lq = torch.log_softmax(logits, -1)
                check_close(self, blk.ops.BlkKLDIVLoss(reduction="batchmean")(lq, lq.exp().flip(0)),
                            F.kl_div(lq, lq.exp().flip(0), reduction="batchmean"), torch.float32, "BlkKLDIVLoss")
                check_close(self, blk.ops.BlkJSD(beta=0.0)(lq, lq.flip(0)),
                            F.kl_div(lq, lq.flip(0), reduction="batchmean", log_target=True), torch.float32,
                            "BlkJSD beta 0 (KL(P || Q))")

    def test_bad_arguments(self):
        import blk.ops
        x = torch.randn(4, 8)
        with self.assertRaisesRegex(ValueError, "W must be a vector"):
            blk.ops.rms_norm(x, torch.ones(7))
        with self.assertRaisesRegex(ValueError, "casting_mode"):
            blk.ops.rms_norm(x, torch.ones(8), casting_mode="bad")
        with self.assertRaisesRegex(ValueError, "one shape"):
            blk.ops.silu_mul(x, torch.randn(4, 9))
        with self.assertRaisesRegex(ValueError, "approximate"):
            blk.ops.gelu_mul(x, x, "erf")
        with self.assertRaisesRegex(ValueError, "B must be a vector"):
            blk.ops.layer_norm(x, torch.ones(8), torch.ones(9))
        with self.assertRaisesRegex(ValueError, "reduction"):
            blk.ops.cross_entropy(x, torch.zeros(4, dtype=torch.int64), reduction="avg")
        with self.assertRaisesRegex(NotImplementedError, "class weights"):
            blk.ops.cross_entropy(x, torch.zeros(4, dtype=torch.int64), weight=torch.ones(8))
        with self.assertRaisesRegex(ValueError, "label_smoothing"):
            blk.ops.fused_linear_cross_entropy(x, torch.randn(5, 8), torch.zeros(4, dtype=torch.int64),
                                               label_smoothing=2.0)
        with self.assertRaisesRegex(ValueError, "head_dim"):
            blk.ops.rotary_pos_emb(torch.randn(1, 2, 3, 8), torch.randn(1, 2, 3, 6), torch.randn(1, 3, 8),
                                   torch.randn(1, 3, 8))
        with self.assertRaisesRegex(ValueError, "reduction"):
            blk.ops.kl_div(x, x, "avg")
        with self.assertRaisesRegex(ValueError, "beta"):
            blk.ops.jsd(x, x, beta=1.5)
        q = torch.randn(1, 4, 8, 16)
        with self.assertRaisesRegex(ValueError, "multiple of k's"):
            blk.ops.attention(q, torch.randn(1, 3, 8, 16), torch.randn(1, 3, 8, 16))
        with self.assertRaisesRegex(ValueError, "power of two from 16 to 256"):
            blk.ops.attention(torch.randn(1, 2, 8, 24), torch.randn(1, 2, 8, 24), torch.randn(1, 2, 8, 24))
        with self.assertRaisesRegex(ValueError, "k and v must have one shape"):
            blk.ops.attention(q, torch.randn(1, 2, 8, 16), torch.randn(1, 2, 9, 16))
        with self.assertRaisesRegex(ValueError, "at least one key"):
            blk.ops.attention(q, torch.randn(1, 2, 0, 16), torch.randn(1, 2, 0, 16))
        with self.assertRaisesRegex(ValueError, "one dtype"):
            blk.ops.attention(q, q.double(), q)

    def test_flce_uses_the_c_driver(self):
        """libblk_jit.so exports the operators' C API, so bf16 runs blk_flce."""
        from blk import _library
        self.assertTrue(_library.has_operators())


if __name__ == "__main__":
    unittest.main()
