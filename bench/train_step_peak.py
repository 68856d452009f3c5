"""The CUDA allocations live at the peak of one training step (after a
warm-up step) of bench/train_step.py's model, summed by the first three
Python frames outside torch that made them, per variant (eager, blk, liger):
where a variant's peak memory goes.

    python3 .bundle/bench/train_step_peak.py blk liger   # on the GPU machine, from a --python bundle
"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_step as T
import torch

def frames_of(entry):
    out = []
    for f in entry.get("frames", []):
        name = f.get("filename", "")
        if name.endswith(".py") and "/torch/" not in name:
            out.append("%s:%d %s" % (os.path.basename(name), f.get("line", 0), f.get("name", "")))
    return out[:3]

def main(variant):
    args = T.arg_parser().parse_args(["--liger-path", ".bundle/liger"])
    T.find_blk()
    ids = torch.randint(0, args.vocab, (args.batch, args.seq), device="cuda")
    labels = ids.clone()
    with T.Restore():
        model = T.build_model(args, torch.bfloat16)
        T.patch(variant, model, args)
        T.train_step(model, ids, labels)
        torch.cuda.synchronize()
        model.zero_grad(set_to_none=True)
        torch.cuda.memory._record_memory_history(max_entries=200000)
        T.train_step(model, ids, labels)
        torch.cuda.synchronize()
        snap = torch.cuda.memory._snapshot()
        torch.cuda.memory._record_memory_history(enabled=None)
    live, total, peak, at_peak = {}, 0, 0, {}
    for e in snap["device_traces"][0]:
        if e["action"] == "alloc":
            live[e["addr"]] = e; total += e["size"]
        elif e["action"] in ("free_completed",):
            if e["addr"] in live:
                total -= live.pop(e["addr"])["size"]
        if total > peak:
            peak, at_peak = total, dict(live)
    groups = collections.Counter()
    for e in at_peak.values():
        groups[" <- ".join(frames_of(e)) or "?"] += e["size"]
    print("== %s: traced peak %.2f GiB above the step's start" % (variant, peak / 2**30))
    for k, v in groups.most_common(14):
        print("  %.3f GiB  %s" % (v / 2**30, k[:230]))

for v in sys.argv[1:]:
    main(v)
