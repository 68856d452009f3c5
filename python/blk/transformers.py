"""blk's kernels in Hugging Face transformers models, in one line, as
Liger-Kernel's apply_liger_kernel_to_llama patches them:

    import blk.transformers
    blk.transformers.apply_blk_kernels_to_llama()             # before the model is built
    blk.transformers.apply_blk_kernels_to_llama(model=model)  # or on a built model

With model=None the modeling module's classes and functions are replaced
(XRMSNorm by blk.ops.BlkRMSNorm, XMLP by blk.ops.BlkSwiGLUMLP,
apply_rotary_pos_emb by blk.ops.rotary_pos_emb, XForCausalLM.forward by one
that computes the loss with blk's fused linear cross-entropy), so models
built afterwards use them. With a model, its modules' forwards are replaced
in place (the weights stay), RoPE is replaced in the modeling module (it is
a function there) and the model's forward is replaced. cross_entropy=True
makes the loss of transformers' ForCausalLMLoss blk's cross-entropy over
the materialized logits instead (it cannot be combined with
fused_linear_cross_entropy). The patched CausalLM forward never
materializes the logits when labels are given in training mode (as Liger's):
it returns logits=None then, unless skip_logits=False."""
import importlib
import inspect
import types

import torch

from . import ops

__all__ = ["apply_blk_kernels_to_llama", "apply_blk_kernels_to_qwen2", "apply_blk_kernels_to_qwen3",
           "apply_blk_kernels_to_mistral", "causal_lm_forward", "fused_linear_cross_entropy_loss",
           "blk_attention_forward", "register_attention"]


def fused_linear_cross_entropy_loss(hidden_states, lm_head_weight, labels=None, hidden_size=None,
                                    num_items_in_batch=None, ignore_index=-100, shift_labels=None,
                                    final_logit_softcapping=None, lm_head_bias=None, **kwargs):
    """transformers' ForCausalLMLoss on hidden states instead of logits
    (Liger's LigerForCausalLMLoss): the labels shifted left by one (unless
    shift_labels is given), mean over the tokens not ignored, or the sum over
    num_items_in_batch when the trainer passes it."""
    if shift_labels is None:
        labels = torch.nn.functional.pad(labels, (0, 1), value=ignore_index)
        shift_labels = labels[..., 1:].contiguous()
    hidden_size = hidden_size or hidden_states.shape[-1]
    x = hidden_states.reshape(-1, hidden_size)
    target = shift_labels.reshape(-1).to(x.device)
    reduction = "sum" if num_items_in_batch is not None else "mean"
    loss = ops.fused_linear_cross_entropy(x, lm_head_weight, target, lm_head_bias, ignore_index=ignore_index,
                                          reduction=reduction, softcap=final_logit_softcapping)
    if reduction == "sum":
        if torch.is_tensor(num_items_in_batch):
            num_items_in_batch = num_items_in_batch.to(loss.device)
        loss = loss / num_items_in_batch
    return loss


def _accepted(fn, kwargs):
    """The kwargs that fn takes: all when it has **kwargs (transformers 5.x's
    models, which pass the loss's kwargs on), else those it names (4.4x's)."""
    params = inspect.signature(fn).parameters.values()
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return kwargs
    names = {p.name for p in params}
    return {k: v for k, v in kwargs.items() if k in names}


def causal_lm_forward(self, input_ids=None, attention_mask=None, position_ids=None, past_key_values=None,
                      inputs_embeds=None, labels=None, use_cache=None, logits_to_keep=0, skip_logits=None, **kwargs):
    """XForCausalLM.forward (transformers 5.x's signature; 4.4x's extra
    arguments pass through kwargs) with the loss by blk's fused linear
    cross-entropy: when labels (or shift_labels) are given and skip_logits
    (default: in training mode), the logits are not materialized and come
    back as None."""
    from transformers.modeling_outputs import CausalLMOutputWithPast

    return_dict = kwargs.pop("return_dict", None)
    shift_labels = kwargs.pop("shift_labels", None)
    logits_to_keep = kwargs.pop("num_logits_to_keep", None) or logits_to_keep  # transformers 4.4x's name
    outputs = self.model(input_ids=input_ids, attention_mask=attention_mask, position_ids=position_ids,
                         past_key_values=past_key_values, inputs_embeds=inputs_embeds, use_cache=use_cache,
                         **_accepted(self.model.forward, kwargs))
    hidden_states = outputs[0]
    kept = hidden_states[:, slice(-logits_to_keep, None) if isinstance(logits_to_keep, int) else logits_to_keep, :]
    has_labels = labels is not None or shift_labels is not None
    if skip_logits and not has_labels:
        raise ValueError("skip_logits=True needs labels or shift_labels")
    if skip_logits is None:
        skip_logits = self.training and has_labels
    logits = loss = None
    if skip_logits:
        loss = fused_linear_cross_entropy_loss(
            kept, self.lm_head.weight, labels, self.config.hidden_size, shift_labels=shift_labels,
            final_logit_softcapping=getattr(self.config, "final_logit_softcapping", None),
            lm_head_bias=getattr(self.lm_head, "bias", None), **kwargs)
    else:
        logits = self.lm_head(kept)
        if has_labels:
            extra = {"shift_labels": shift_labels} if shift_labels is not None else {}
            loss = self.loss_function(logits=logits, labels=labels, vocab_size=self.config.vocab_size, **extra,
                                      **kwargs)
    out = CausalLMOutputWithPast(loss=loss, logits=logits, past_key_values=getattr(outputs, "past_key_values", None),
                                 hidden_states=getattr(outputs, "hidden_states", None),
                                 attentions=getattr(outputs, "attentions", None))
    return out.to_tuple() if return_dict is False else out


def _blk_fixed_cross_entropy(source, target, num_items_in_batch=None, ignore_index=-100, **kwargs):
    """transformers' loss_utils.fixed_cross_entropy by blk's cross-entropy."""
    reduction = "sum" if num_items_in_batch is not None else "mean"
    loss = ops.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)
    if reduction == "sum":
        if torch.is_tensor(num_items_in_batch):
            num_items_in_batch = num_items_in_batch.to(loss.device)
        loss = loss / num_items_in_batch
    return loss


def blk_attention_forward(module, query, key, value, attention_mask, dropout=0.0, scaling=None, is_causal=None,
                          **kwargs):
    """transformers' attention interface ("blk"): query [b, h, s, d], key and
    value [b, kv_heads, s_k, d] -> ([b, s, h, d], None), by blk.ops.attention
    where it computes what SDPA would, else by SDPA."""
    from transformers.integrations.sdpa_attention import sdpa_attention_forward
    is_causal = is_causal if is_causal is not None else getattr(module, "is_causal", True)
    is_causal = bool(is_causal and query.shape[2] > 1)
    d = query.shape[-1]
    supported = (attention_mask is None and not (dropout and module.training) and d in (16, 32, 64, 128, 256)
                 and query.dtype in ((torch.float16, torch.bfloat16) if query.is_cuda else (torch.float32,))
                 and key.shape[2] > 0 and query.shape[1] % key.shape[1] == 0
                 and not (is_causal and key.shape[2] != query.shape[2]))
    if not supported:
        return sdpa_attention_forward(module, query, key, value, attention_mask, dropout=dropout, scaling=scaling,
                                      is_causal=is_causal, **kwargs)
    out = ops.attention(query, key, value, causal=is_causal, scale=scaling)
    return out.transpose(1, 2).contiguous(), None  # blk's output is laid out [b, s, h, d]: no copy


def register_attention():
    """Registers "blk" in transformers' attention interface, with SDPA's
    masks (none for a causal mask without padding, which blk computes)."""
    try:
        from transformers import AttentionInterface
        from transformers.masking_utils import AttentionMaskInterface, sdpa_mask
    except ImportError as e:
        raise ValueError("attention=True needs transformers 5 (AttentionInterface and masking_utils): %s" % e)
    AttentionInterface.register("blk", blk_attention_forward)
    AttentionMaskInterface.register("blk", sdpa_mask)


def _bind(module, name, fn):
    module.__dict__[name] = types.MethodType(fn, module)


def _patch_rms_norm(module):
    """A built XRMSNorm computes by blk.ops.rms_norm (Llama casting, offset 0), keeping its weight."""
    module.offset, module.casting_mode = 0.0, "llama"
    module.variance_epsilon = getattr(module, "variance_epsilon", None) or getattr(module, "eps", 1e-6)
    _bind(module, "forward", ops.BlkRMSNorm.forward)
    _bind(module, "extra_repr", ops.BlkRMSNorm.extra_repr)


def _patch_swiglu(module, config):
    act = getattr(config, "hidden_act", "silu")
    if act not in ("silu", "swish"):
        raise ValueError("swiglu=True needs hidden_act silu, the model has %s" % act)
    _bind(module, "forward", ops.BlkSwiGLUMLP.forward)


def _apply(modeling_name, prefix, model, rope, rms_norm, swiglu, cross_entropy, fused_linear_cross_entropy,
           attention=False, head_norms=False):
    """Patches transformers.models.<modeling_name> (classes prefix+RMSNorm,
    prefix+MLP, prefix+ForCausalLM, the function apply_rotary_pos_emb), or
    the modules of `model`; head_norms: the attention's q_norm and k_norm
    are RMSNorms too (Qwen3)."""
    if cross_entropy and fused_linear_cross_entropy:
        raise ValueError("cross_entropy and fused_linear_cross_entropy cannot both be True")
    modeling = importlib.import_module("transformers.models.%s.modeling_%s" % (modeling_name, modeling_name))
    if rope:
        modeling.apply_rotary_pos_emb = ops.rotary_pos_emb
    if cross_entropy:
        from transformers.loss import loss_utils
        loss_utils.fixed_cross_entropy = _blk_fixed_cross_entropy
    if attention:
        register_attention()
        if model is not None:
            model.set_attn_implementation("blk")
    if model is None:
        if rms_norm:
            setattr(modeling, prefix + "RMSNorm", ops.BlkRMSNorm)
        if swiglu:
            setattr(modeling, prefix + "MLP", ops.BlkSwiGLUMLP)
        if fused_linear_cross_entropy:
            getattr(modeling, prefix + "ForCausalLM").forward = causal_lm_forward
        return
    if fused_linear_cross_entropy and hasattr(model, "lm_head"):
        _bind(model, "forward", causal_lm_forward)
    base = getattr(model, getattr(model, "base_model_prefix", "model"), model)
    if rms_norm:
        _patch_rms_norm(base.norm)
    for layer in base.layers:
        if swiglu:
            _patch_swiglu(layer.mlp, model.config)
        if rms_norm:
            _patch_rms_norm(layer.input_layernorm)
            _patch_rms_norm(layer.post_attention_layernorm)
            if head_norms:
                _patch_rms_norm(layer.self_attn.q_norm)
                _patch_rms_norm(layer.self_attn.k_norm)


def apply_blk_kernels_to_llama(model=None, rope=True, rms_norm=True, swiglu=True, cross_entropy=False,
                               fused_linear_cross_entropy=True, attention=False):
    """Llama (2, 3): as Liger's apply_liger_kernel_to_llama."""
    _apply("llama", "Llama", model, rope, rms_norm, swiglu, cross_entropy, fused_linear_cross_entropy,
           attention)


def apply_blk_kernels_to_qwen2(model=None, rope=True, rms_norm=True, swiglu=True, cross_entropy=False,
                               fused_linear_cross_entropy=True, attention=False):
    """Qwen2 (and Qwen2.5): as Liger's apply_liger_kernel_to_qwen2."""
    _apply("qwen2", "Qwen2", model, rope, rms_norm, swiglu, cross_entropy, fused_linear_cross_entropy,
           attention)


def apply_blk_kernels_to_qwen3(model=None, rope=True, rms_norm=True, swiglu=True, cross_entropy=False,
                               fused_linear_cross_entropy=True, attention=False):
    """Qwen3 (dense): as Liger's apply_liger_kernel_to_qwen3; the attention's
    q_norm and k_norm (RMSNorms over the head dimension) too."""
    _apply("qwen3", "Qwen3", model, rope, rms_norm, swiglu, cross_entropy, fused_linear_cross_entropy, attention,
           head_norms=True)


def apply_blk_kernels_to_mistral(model=None, rope=True, rms_norm=True, swiglu=True, cross_entropy=False,
                                 fused_linear_cross_entropy=True, attention=False):
    """Mistral: as Liger's apply_liger_kernel_to_mistral."""
    _apply("mistral", "Mistral", model, rope, rms_norm, swiglu, cross_entropy, fused_linear_cross_entropy,
           attention)
