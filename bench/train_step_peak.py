"""The CUDA allocations live at the peak of one training step (after a
warm-up step) of bench/train_step.py's model, summed by the first three
Python frames outside torch that made them, per variant (eager, blk, liger):
where a variant's peak memory goes.

    python3 .bundle/bench/train_step_peak.py blk liger   # on the GPU machine, from a --python bundle
    python3 .bundle/bench/train_step_peak.py --detail 8 blk   # and each variant's 8 largest allocations
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

ALLOCATOR = ("unwind", "CapturedTraceback", "gather_with_cpp", "CachingAllocator", "empty_generic",
             "empty_strided_generic", "empty_cuda", "empty_strided_cuda")


def callers(entry, count=14):
    """The innermost frames of an allocation past the allocator's own, C++ and Python."""
    names = []
    for f in entry.get("frames", []):
        name = f.get("name", "?")
        if any(a in name for a in ALLOCATOR):
            continue
        if f.get("filename", "").endswith(".py"):
            name = "%s:%d %s" % (os.path.basename(f["filename"]), f.get("line", 0), name)
        if name.startswith(("c10::impl::", "at::_ops::", "c10::Dispatcher", "torch::autograd::VariableType")):
            continue
        names.append(name.split("(")[0][:90])
    return " <- ".join(names[:count])


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
        start = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        loss = model(input_ids=ids, labels=labels).loss
        torch.cuda.synchronize()
        forward = torch.cuda.max_memory_allocated() - start
        forward_events = len(torch.cuda.memory._snapshot()["device_traces"][0])
        torch.cuda.reset_peak_memory_stats()
        loss.backward()
        torch.cuda.synchronize()
        backward = torch.cuda.max_memory_allocated() - start
        snap = torch.cuda.memory._snapshot()
        torch.cuda.memory._record_memory_history(enabled=None)
    print("== %s: peak %.2f GiB above the step's start in the forward, %.2f in the backward" % (
        variant, forward / 2**30, backward / 2**30))
    trace = snap["device_traces"][0]
    report("forward", trace[:forward_events])
    report("backward", trace, forward_events)


def report(phase, trace, first=0):
    """The allocations live at the trace's peak from event `first` on."""
    live, total, peak, at_peak, peak_event = {}, 0, 0, {}, (0, None)
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            live[e["addr"]] = e; total += e["size"]
        elif e["action"] in ("free_completed",):
            if e["addr"] in live:
                total -= live.pop(e["addr"])["size"]
        if total > peak and i >= first:
            peak, at_peak, peak_event = total, dict(live), (i, e)
    groups = collections.Counter()
    for e in at_peak.values():
        groups[" <- ".join(frames_of(e)) or "?"] += e["size"]
    print("  %s: traced peak %.2f GiB" % (phase, peak / 2**30))
    for k, v in groups.most_common(14):
        print("    %.3f GiB  %s" % (v / 2**30, k[:230]))
    if DETAIL:
        i, e = peak_event
        print("  the peak's allocation is event %d of %d: %s" % (i, len(trace), callers(e)))
        print("  largest allocations live at the peak (event of each), by their innermost callers:")
        order = {id(e): k for k, e in enumerate(trace)}
        for e in sorted(at_peak.values(), key=lambda e: -e["size"])[:DETAIL]:
            print("    %.3f GiB  #%d  %s" % (e["size"] / 2**30, order.get(id(e), -1), callers(e)))


# --detail N: also the N largest allocations live at the peak, each with its
# innermost frames (C++ ones too: allocations the autograd engine makes).
DETAIL = 0
names = sys.argv[1:]
if "--detail" in names:
    i = names.index("--detail")
    DETAIL = int(names[i + 1])
    del names[i:i + 2]
for v in names:
    main(v)
