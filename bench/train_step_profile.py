"""One training step of bench/train_step.py's model under torch.profiler, for
each variant named: the step's time, then the CUDA kernels that took the most
time in it (where a variant's time goes, e.g. a patch's conversions).
    python3 bench/train_step_profile.py liger blk --liger-path .bundle/liger --top 20
Model and options as train_step.py's defaults (2 warm-up steps, then one
timed and one profiled step); blk's fused linear cross-entropy takes
--flce-chunk-rows as train_step.py does."""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS = ("eager", "blk", "liger")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="train_step_profile.py", description=__doc__.split("\n")[0])
    ap.add_argument("variants", nargs="+", help="any of: %s" % ", ".join(VARIANTS))
    ap.add_argument("--liger-path", help="a directory holding liger_kernel/ (Liger carried as source)")
    ap.add_argument("--flce-chunk-rows", type=int, help="as train_step.py's")
    ap.add_argument("--top", type=int, default=20, help="kernels listed per variant")
    args = ap.parse_args(argv)
    unknown = [v for v in args.variants if v not in VARIANTS]
    if unknown:
        ap.error("unknown variants: %s (choose from %s)" % (", ".join(unknown), ", ".join(VARIANTS)))
    return args


def main(argv):
    args = parse_args(argv)
    if args.flce_chunk_rows:
        os.environ["BLK_FLCE_CHUNK_ROWS"] = str(args.flce_chunk_rows)
    sys.path.insert(0, HERE)
    import train_step as ts
    import torch
    from torch.profiler import ProfilerActivity, profile
    model_args = ts.arg_parser().parse_args([])
    model_args.liger_path = args.liger_path
    ts.find_blk()
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, model_args.vocab, (model_args.batch, model_args.seq), generator=g).to("cuda")
    labels = ids.clone()
    for variant in args.variants:
        with ts.Restore():
            model = ts.build_model(model_args, torch.bfloat16)
            ts.patch(variant, model, model_args)
            for _ in range(2):
                ts.train_step(model, ids, labels)
            torch.cuda.synchronize()
            start = time.perf_counter()
            ts.train_step(model, ids, labels)
            torch.cuda.synchronize()
            print("== %s: step %.1f ms" % (variant, (time.perf_counter() - start) * 1e3), flush=True)
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                ts.train_step(model, ids, labels)
                torch.cuda.synchronize()
            print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=args.top,
                                            max_name_column_width=70), flush=True)
            del model
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main(sys.argv[1:])
