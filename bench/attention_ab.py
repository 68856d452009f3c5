"""blk's attention forward+backward (run.py's kernels, tilings and sizes: B=4 H=32 S=4096
D=128 bf16) from several PTX directories, timed in alternation: a before/after
comparison of a compiler change, per kernel (forward, backward preprocess, dK/dV, dQ),
without the harness's Triton and PyTorch rows.

On the GPU machine:
  python3 bench/attention_ab.py --bundle .bundle --ptx-dir NAME=DIR [--ptx-dir NAME=DIR ...]
      [--causal] [--turns 3] [--reps 10]
Each directory holds attention.bf16.128.128.64[.True].w8.st3.spec.ptx and
attention_forward_wide.bf16.128.128.128[.True].w8.st3.rel.spec.ptx (scripts/build-ptx.sh
with the blkc under test). Every directory's dQ, dK and dV are checked against the first
one's before timing; each turn times every directory once (the first rotating), and the
table gives each kernel's median over turns of its median launch time.
"""
import argparse
import os
import statistics
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bundle", default=".bundle")
    p.add_argument("--ptx-dir", action="append", required=True, metavar="NAME=DIR")
    p.add_argument("--causal", action="store_true")
    p.add_argument("--turns", type=int, default=3)
    p.add_argument("--reps", type=int, default=10)
    args = p.parse_args()

    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from blk import Runtime

    rt = Runtime(os.path.join(args.bundle, "lib", "libblk_runtime.so"))
    batch, heads, seq, d = 4, 32, 4096, 128
    dt = torch.bfloat16
    torch.manual_seed(0)
    q, k, v, do = (torch.randn(batch, heads, seq, d, device="cuda", dtype=dt) for _ in range(4))
    o, dq, dk, dv = (torch.empty_like(q) for _ in range(4))
    lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
    delta = torch.empty_like(lse)
    scale = d ** -0.5
    grid = ((seq + 127) // 128, batch * heads)
    st = lambda x: list(x.stride()[:3])  # noqa: E731
    fwd = [q, k, v, o, lse, scale, seq, seq, heads, 1, *st(q), *st(k), *st(v), *st(o)]
    pre = [o, do, delta, seq, heads, *st(o), *st(do)]
    dkdv = [q, k, v, do, lse, delta, dk, dv, scale, seq, seq, heads, 1,
            *st(q), *st(k), *st(v), *st(do), *st(dk), *st(dv)]
    dqa = [q, k, v, do, lse, delta, dq, scale, seq, seq, heads, 1, *st(q), *st(k), *st(v), *st(do), *st(dq)]
    c = ".True" if args.causal else ""
    names = {"forward": (f"attention_forward_wide.bf16.128.128.128{c}.w8.st3.rel.spec", "attention_forward", fwd),
             "preprocess": (f"attention.bf16.128.128.64{c}.w8.st3.spec", "attention_backward_preprocess", pre),
             "dkdv": (f"attention.bf16.128.128.64{c}.w8.st3.spec", "attention_backward_dkdv", dkdv),
             "dq": (f"attention.bf16.128.128.64{c}.w8.st3.spec", "attention_backward_dq", dqa)}
    variants = {}
    for spec in args.ptx_dir:
        label, _, path = spec.partition("=")
        variants[label] = {kernel: rt.load(os.path.join(path, ptx + ".ptx"), fn).prepare(grid, *a)
                           for kernel, (ptx, fn, a) in names.items()}

    def step(launches):
        for f in launches.values():
            f()

    # Every variant's gradients against the first's.
    first = None
    for label, launches in variants.items():
        for t in (o, dq, dk, dv):
            t.fill_(float("nan"))
        step(launches)
        torch.cuda.synchronize()
        grads = [t.double().clone() for t in (dq, dk, dv)]
        if first is None:
            first = grads
            continue
        for g, r in zip(grads, first):
            err = ((g - r).norm() / r.norm()).item()
            if not err < 1e-2:
                sys.exit(f"{label}: gradients differ from {next(iter(variants))}'s (relative error {err:.2e})")

    def time_kernel(f):
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(args.reps)]
        stops = [torch.cuda.Event(enable_timing=True) for _ in range(args.reps)]
        for s, e in zip(starts, stops):
            s.record()
            f()
            e.record()
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) * 1e3 for s, e in zip(starts, stops))

    labels = list(variants)
    times = {label: {kernel: [] for kernel in names} for label in labels}
    for r in range(args.turns):
        for label in labels[r % len(labels):] + labels[:r % len(labels)]:
            step(variants[label])  # warm-up
            for kernel, f in variants[label].items():
                times[label][kernel].append(time_kernel(f))
    print(f"attention fwd+bwd{' causal' if args.causal else ''} {batch}x{heads}x{seq}x{d} bf16, "
          f"{torch.cuda.get_device_name()}: us, median of {args.turns} turns of {args.reps} launches")
    print("| ptx | " + " | ".join(names) + " | sum |")
    print("|---|" + "---:|" * (len(names) + 1))
    for label in labels:
        med = [statistics.median(times[label][kernel]) for kernel in names]
        print(f"| {label} | " + " | ".join(f"{t:.1f}" for t in med) + f" | {sum(med):.1f} |")


if __name__ == "__main__":
    main()
