#!/usr/bin/env python3
"""One training step (forward and backward, no optimizer) of a Hugging Face
LlamaForCausalLM shaped like Llama-3-8B but cut to 2 layers (hidden 4096,
intermediate 14336, 32 heads, 8 KV heads, vocab 128256, SDPA attention),
random bf16 weights, batch 4 x sequence 4096 of random tokens: tokens per
second and peak memory (torch.cuda.max_memory_allocated over the timed
steps), for the unpatched model, the model patched by
blk.transformers.apply_blk_kernels_to_llama (RoPE, RMSNorm, SwiGLU, fused
linear cross-entropy) and, when liger_kernel imports (installed, or its
source under --liger-path), by Liger's apply_liger_kernel_to_llama, in one
run. Each variant builds the model afresh from one seed (the same weights,
so the losses agree), warms up, then times --steps steps.

    python3 bench/train_step.py --out train_step.json          # the source tree, after building blk_jit
    python3 .bundle/bench/train_step.py --out train_step.json  # a bundle of scripts/make-bundle.sh --python

blk comes from ../python beside this script (the source tree's python/ or
the bundle's), its library from there (a gzipped copy is unpacked first) or
BLK_LIBRARY. --batch, --seq, --layers, --hidden, --intermediate, --heads,
--kv-heads, --vocab shrink it; --device cpu runs tiny shapes on blk's
interpreter (a check of the script, not a measurement)."""
import argparse
import gc
import gzip
import importlib
import json
import os
import shutil
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(os.path.dirname(HERE), "python")


def arg_parser():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--seq", type=int, default=4096)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--intermediate", type=int, default=14336)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--kv-heads", type=int, default=8)
    ap.add_argument("--vocab", type=int, default=128256)
    ap.add_argument("--steps", type=int, default=5, help="timed steps per variant")
    ap.add_argument("--warmup", type=int, default=2, help="untimed steps first (compilation, autotuning)")
    ap.add_argument("--variants", default="eager,blk,liger", help="comma-separated: eager, blk, liger")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--liger-path", default=os.environ.get("BLK_LIGER_PATH"),
                    help="a directory holding liger_kernel/ (Liger carried as source)")
    ap.add_argument("--flce-chunk-rows", type=int,
                    help="rows per chunk of blk's fused linear cross-entropy (BLK_FLCE_CHUNK_ROWS, a multiple "
                         "of 16; default: as many as fit 1 GiB of logits)")
    ap.add_argument("--out", help="write the results as JSON here")
    return ap


def find_blk():
    """Puts ../python on sys.path and unpacks a gzipped libblk_jit.so of a bundle beside the package."""
    sys.path.insert(0, PYTHON_DIR)
    lib = os.path.join(PYTHON_DIR, "blk", "libblk_jit.so")
    if not os.path.exists(lib) and os.path.exists(lib + ".gz") and not os.environ.get("BLK_LIBRARY"):
        with gzip.open(lib + ".gz", "rb") as src, open(lib + ".tmp", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.replace(lib + ".tmp", lib)


def llama_config(args):
    import transformers
    return transformers.LlamaConfig(
        vocab_size=args.vocab, hidden_size=args.hidden, intermediate_size=args.intermediate,
        num_hidden_layers=args.layers, num_attention_heads=args.heads, num_key_value_heads=args.kv_heads,
        max_position_embeddings=max(args.seq, 8192), rms_norm_eps=1e-5, rope_theta=500000.0,
        tie_word_embeddings=False, attn_implementation="sdpa")


def build_model(args, dtype):
    """The model with random weights of one seed, built on the device in dtype."""
    import torch
    import transformers
    torch.manual_seed(0)
    default = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(args.device):
            model = transformers.LlamaForCausalLM(llama_config(args))
    finally:
        torch.set_default_dtype(default)
    return model.to(args.device, dtype).train()


class Restore:
    """Puts transformers' Llama module (and the loss functions) back after a
    variant: the patches replace module-level functions."""

    def __init__(self):
        from transformers.loss import loss_utils
        from transformers.models.llama import modeling_llama
        self.modules = [(m, dict(vars(m))) for m in (modeling_llama, loss_utils)]
        self.forward = modeling_llama.LlamaForCausalLM.__dict__["forward"]
        self.causal_lm = modeling_llama.LlamaForCausalLM

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for module, names in self.modules:
            for k, v in names.items():
                setattr(module, k, v)
        self.causal_lm.forward = self.forward


def patch(variant, model, args):
    if variant == "blk":
        import blk.transformers
        blk.transformers.apply_blk_kernels_to_llama(model=model)
    elif variant == "liger":
        if args.liger_path:
            sys.path.insert(0, os.path.abspath(args.liger_path))
        from liger_kernel.transformers import apply_liger_kernel_to_llama
        apply_liger_kernel_to_llama(model=model)


def train_step(model, ids, labels):
    """Forward and backward; the gradients of the previous step are dropped first."""
    model.zero_grad(set_to_none=True)
    out = model(input_ids=ids, labels=labels)
    out.loss.backward()
    return out.loss.detach()


def run_variant(variant, args, ids, labels):
    """Warm-up and timed steps of one variant: tokens/s, step time, peak memory, the loss."""
    import torch
    cuda = args.device.startswith("cuda")
    with Restore():
        model = build_model(args, torch.bfloat16 if cuda else torch.float32)
        patch(variant, model, args)
        for _ in range(args.warmup):
            train_step(model, ids, labels)
        if cuda:
            torch.cuda.synchronize()
            gc.collect()
            torch.cuda.empty_cache()
            model.zero_grad(set_to_none=True)
            base = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
        times, losses = [], []
        for _ in range(args.steps):
            start = time.perf_counter()
            loss = train_step(model, ids, labels)
            if cuda:
                torch.cuda.synchronize()
            times.append(time.perf_counter() - start)
            losses.append(float(loss))
        peak = torch.cuda.max_memory_allocated() if cuda else None
        del model
    gc.collect()
    if cuda:
        torch.cuda.empty_cache()
    times.sort()
    median = times[len(times) // 2]
    tokens = ids.numel()
    return {"variant": variant, "tokens_per_s": tokens / median, "step_ms": median * 1e3,
            "step_ms_all": [t * 1e3 for t in times], "peak_gib": peak / 2 ** 30 if peak is not None else None,
            "weights_gib": base / 2 ** 30 if cuda else None, "loss": losses[-1]}


def table(rows):
    """Markdown: each variant against the unpatched one."""
    eager = next((r for r in rows if r["variant"] == "eager" and "error" not in r), None)
    lines = ["| variant | tokens/s | step ms | peak GiB | vs eager: throughput | vs eager: peak memory | loss |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if "error" in r:
            lines.append("| %s | error: %s | | | | | |" % (r["variant"], r["error"].splitlines()[-1][:80]))
            continue
        peak = "%.2f" % r["peak_gib"] if r["peak_gib"] is not None else "-"
        speed = "%+.1f%%" % (100 * (r["tokens_per_s"] / eager["tokens_per_s"] - 1)) if eager else "-"
        memory = ("%+.1f%%" % (100 * (r["peak_gib"] / eager["peak_gib"] - 1))
                  if eager and r["peak_gib"] is not None else "-")
        lines.append("| %s | %.0f | %.1f | %s | %s | %s | %.4f |" % (r["variant"], r["tokens_per_s"], r["step_ms"],
                                                                    peak, speed, memory, r["loss"]))
    return "\n".join(lines)


def environment(args):
    import torch
    import transformers
    env = {"torch": torch.__version__, "transformers": transformers.__version__, "device": args.device}
    if args.device.startswith("cuda"):
        env["gpu"] = torch.cuda.get_device_name(0)
    for name in ("triton", "liger_kernel"):
        try:
            env[name] = getattr(importlib.import_module(name), "__version__", "?")
        except Exception:  # not installed
            pass
    import blk
    env["blk_library"] = blk.library_path()
    return env


def main():
    args = arg_parser().parse_args()
    if args.flce_chunk_rows:
        os.environ["BLK_FLCE_CHUNK_ROWS"] = str(args.flce_chunk_rows)
    find_blk()
    import torch
    variants = [v for v in args.variants.split(",") if v]
    unknown = set(variants) - {"eager", "blk", "liger"}
    if unknown:
        sys.exit("unknown variants: %s" % ", ".join(sorted(unknown)))
    if "liger" in variants:
        if args.liger_path:
            sys.path.insert(0, os.path.abspath(args.liger_path))
        try:
            importlib.import_module("liger_kernel.transformers")
        except Exception as e:  # not carried here
            print("liger_kernel does not import (%s): no Liger row" % e, flush=True)
            variants.remove("liger")
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, args.vocab, (args.batch, args.seq), generator=g).to(args.device)
    labels = ids.clone()
    rows = []
    for variant in variants:
        print("%s: %d x %d tokens, %d layers, hidden %d, vocab %d" % (variant, args.batch, args.seq, args.layers,
                                                                      args.hidden, args.vocab), flush=True)
        try:
            row = run_variant(variant, args, ids, labels)
        except Exception:
            row = {"variant": variant, "error": traceback.format_exc()}
            print(row["error"], flush=True)
        rows.append(row)
        if "error" not in row:
            print("  %.0f tokens/s, step %.1f ms, peak %s GiB, loss %.4f" % (
                row["tokens_per_s"], row["step_ms"], "%.2f" % row["peak_gib"] if row["peak_gib"] else "-",
                row["loss"]), flush=True)
    print(table(rows))
    if args.out:
        result = {"command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]), "config": vars(args),
                  "environment": environment(args), "date": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": rows,
                  "table": table(rows)}
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if any("error" in r for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
