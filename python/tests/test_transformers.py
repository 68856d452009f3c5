"""blk.transformers: tiny random-config Llama, Qwen2, Qwen3 and Mistral models
from Hugging Face transformers, patched in one line, give the loss and the
gradients of every parameter of the unpatched model (float32 on the CPU
interpreter; bf16 on the GPU and, for Llama, on the interpreter too, within
bf16's tolerance). Skipped without torch or transformers; BLK_REQUIRE_GPU=1
turns a missing GPU into a failure.

    PYTHONPATH=python python3 -m unittest discover -s python/tests -p 'test_transformers.py' -v
"""
import copy
import importlib
import os
import unittest

try:
    import torch
    import transformers
except ImportError:
    torch = transformers = None

HAVE_CUDA = torch is not None and torch.cuda.is_available()
REQUIRE_GPU = os.environ.get("BLK_REQUIRE_GPU") == "1"

# (modeling module, class prefix, blk.transformers function); Qwen3's q_norm and k_norm are RMSNorms too.
MODELS = [("llama", "Llama", "apply_blk_kernels_to_llama"), ("qwen2", "Qwen2", "apply_blk_kernels_to_qwen2"),
          ("qwen3", "Qwen3", "apply_blk_kernels_to_qwen3"), ("mistral", "Mistral", "apply_blk_kernels_to_mistral")]
# Relative error norm of the loss and of each parameter's gradient.
TOLERANCE = {torch.float32: 1e-5, torch.bfloat16: 3e-2} if torch is not None else {}


def tiny_config(prefix, vocab=300):
    return getattr(transformers, prefix + "Config")(
        vocab_size=vocab, hidden_size=64, intermediate_size=120, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, head_dim=16, max_position_embeddings=64, tie_word_embeddings=False)


class Restore:
    """Puts a modeling module's names (and its CausalLM's forward) back: class-level patches outlive a test."""

    def __init__(self, name, prefix):
        self.modeling = importlib.import_module("transformers.models.%s.modeling_%s" % (name, name))
        self.names = dict(vars(self.modeling))
        self.causal_lm = getattr(self.modeling, prefix + "ForCausalLM")
        self.forward = self.causal_lm.__dict__["forward"]
        from transformers.loss import loss_utils
        self.loss_utils, self.fixed_cross_entropy = loss_utils, loss_utils.fixed_cross_entropy

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for k, v in self.names.items():
            setattr(self.modeling, k, v)
        self.causal_lm.forward = self.forward
        self.loss_utils.fixed_cross_entropy = self.fixed_cross_entropy


@unittest.skipIf(transformers is None, "torch or transformers is not installed")
class PatchedModelsTest(unittest.TestCase):
    def setUp(self):
        if REQUIRE_GPU and not HAVE_CUDA:
            self.fail("BLK_REQUIRE_GPU=1 and torch sees no CUDA device")

    def batch(self, device, vocab=300):
        g = torch.Generator().manual_seed(1)
        ids = torch.randint(0, vocab, (2, 19), generator=g)
        labels = ids.clone()
        labels[0, :4] = -100  # a prompt that is not trained on
        return ids.to(device), labels.to(device)

    def loss_and_grads(self, model, ids, labels):
        model.zero_grad(set_to_none=True)
        out = model(input_ids=ids, labels=labels)
        out.loss.backward()
        return out, {n: p.grad for n, p in model.named_parameters()}

    def check(self, what, dtype, got, want):
        (out, grads), (ref_out, ref_grads) = got, want
        tol = TOLERANCE[dtype]
        err = abs(float(out.loss) - float(ref_out.loss)) / abs(float(ref_out.loss))
        self.assertLessEqual(err, tol, "%s: loss %r, unpatched %r" % (what, float(out.loss), float(ref_out.loss)))
        for name, ref in ref_grads.items():
            self.assertIsNotNone(grads[name], "%s: no gradient for %s" % (what, name))
            g, r = grads[name].double(), ref.double()
            rel = float((g - r).norm() / (r.norm() or 1.0))
            self.assertLessEqual(rel, tol, "%s: gradient of %s off by %g" % (what, name, rel))

    def cases(self):
        out = [("cpu", torch.float32), ("cpu", torch.bfloat16)]
        if HAVE_CUDA:
            out += [("cuda", torch.float32), ("cuda", torch.bfloat16)]
        return out

    def test_instance_patch_matches_unpatched(self):
        """apply_blk_kernels_to_X(model=model): RMSNorm, SwiGLU, RoPE and the fused linear cross-entropy."""
        import blk.transformers
        for name, prefix, apply in MODELS:
            if not hasattr(transformers, prefix + "ForCausalLM"):
                continue  # an older transformers (Qwen3 came in 4.51)
            for device, dtype in self.cases():
                if device == "cpu" and dtype == torch.bfloat16 and name != "llama":
                    continue  # the interpreter is slow: bf16 (blk's FLCE driver) on Llama only
                what = "%s %s %s" % (name, device, dtype)
                with self.subTest(what), Restore(name, prefix):
                    torch.manual_seed(0)
                    model = getattr(transformers, prefix + "ForCausalLM")(tiny_config(prefix)).to(device, dtype)
                    model.train()
                    patched = copy.deepcopy(model)
                    ids, labels = self.batch(device)
                    want = self.loss_and_grads(model, ids, labels)
                    getattr(blk.transformers, apply)(model=patched)
                    got = self.loss_and_grads(patched, ids, labels)
                    self.assertIsNone(got[0].logits, "the logits were materialized")
                    self.check(what, dtype, got, want)
                    self.assertIn("blk", patched.model.layers[0].mlp.forward.__qualname__.lower())

    def test_class_patch_matches_unpatched(self):
        """apply_blk_kernels_to_llama() before the model is built: its modules are blk's classes."""
        import blk.ops
        import blk.transformers
        for device, dtype in self.cases()[:1] + self.cases()[2:]:
            what = "llama class patch %s %s" % (device, dtype)
            with self.subTest(what), Restore("llama", "Llama"):
                torch.manual_seed(0)
                model = transformers.LlamaForCausalLM(tiny_config("Llama")).to(device, dtype).train()
                ids, labels = self.batch(device)
                want = self.loss_and_grads(model, ids, labels)
                blk.transformers.apply_blk_kernels_to_llama()
                patched = transformers.LlamaForCausalLM(tiny_config("Llama")).to(device, dtype).train()
                patched.load_state_dict(model.state_dict())
                self.assertIsInstance(patched.model.norm, blk.ops.BlkRMSNorm)
                self.assertIsInstance(patched.model.layers[1].mlp, blk.ops.BlkSwiGLUMLP)
                got = self.loss_and_grads(patched, ids, labels)
                self.check(what, dtype, got, want)
                # Without labels, or with skip_logits=False, the logits are there.
                with torch.no_grad():
                    logits = patched(input_ids=ids).logits
                    ref_logits = model(input_ids=ids).logits
                    out = patched(input_ids=ids, labels=labels, skip_logits=False)
                self.assertEqual(tuple(logits.shape), (2, 19, 300))
                rel = float((logits.double() - ref_logits.double()).norm() / ref_logits.double().norm())
                self.assertLessEqual(rel, TOLERANCE[dtype])
                self.assertIsNotNone(out.logits)
                self.assertLessEqual(abs(float(out.loss) - float(want[0].loss)), TOLERANCE[dtype] * float(out.loss))

    def test_attention_patch(self):
        """attention=True: the model's attention runs blk.ops.attention (causal,
        no padding mask) and gives the unpatched loss and gradients; with a
        padding mask it runs SDPA."""
        from unittest import mock
        import blk.transformers
        try:
            from transformers import masking_utils  # noqa: F401 (transformers 5)
        except ImportError:
            self.skipTest("attention=True needs transformers 5")
        for device, dtype in self.cases()[:1] + self.cases()[3:]:
            what = "llama attention %s %s" % (device, dtype)
            with self.subTest(what), Restore("llama", "Llama"):
                torch.manual_seed(0)
                model = transformers.LlamaForCausalLM(tiny_config("Llama")).to(device, dtype).train()
                patched = copy.deepcopy(model)
                ids, labels = self.batch(device)
                want = self.loss_and_grads(model, ids, labels)
                blk.transformers.apply_blk_kernels_to_llama(model=patched, attention=True)
                self.assertEqual(patched.config._attn_implementation, "blk")
                with mock.patch.object(blk.transformers.ops, "attention", wraps=blk.transformers.ops.attention) as op:
                    got = self.loss_and_grads(patched, ids, labels)
                    self.assertEqual(op.call_count, 2)  # one per layer
                    self.check(what, dtype, got, want)
                    op.reset_mock()
                    mask = torch.ones_like(ids)
                    mask[1, -5:] = 0  # padding: SDPA's masked attention
                    with torch.no_grad():
                        out = patched(input_ids=ids, attention_mask=mask, labels=labels)
                        ref = model(input_ids=ids, attention_mask=mask, labels=labels)
                    self.assertEqual(op.call_count, 0)
                    self.assertLessEqual(abs(float(out.loss) - float(ref.loss)), TOLERANCE[dtype] * abs(float(ref.loss)))

    def test_cross_entropy_patch(self):
        """cross_entropy=True: the materialized logits' loss by blk's cross-entropy."""
        import blk.transformers
        with Restore("llama", "Llama"):
            torch.manual_seed(0)
            model = transformers.LlamaForCausalLM(tiny_config("Llama")).train()
            patched = copy.deepcopy(model)
            ids, labels = self.batch("cpu")
            want = self.loss_and_grads(model, ids, labels)
            blk.transformers.apply_blk_kernels_to_llama(model=patched, cross_entropy=True,
                                                        fused_linear_cross_entropy=False)
            got = self.loss_and_grads(patched, ids, labels)
            self.assertIsNotNone(got[0].logits)
            self.check("llama cross_entropy", torch.float32, got, want)
        with self.assertRaisesRegex(ValueError, "cannot both"):
            blk.transformers.apply_blk_kernels_to_llama(model=patched, cross_entropy=True)


if __name__ == "__main__":
    unittest.main()
