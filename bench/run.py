#!/usr/bin/env python3
"""blk's benchmark harness: every kernel of kernels/ next to the same algorithm
in Triton and PyTorch eager, with the device's limits measured in the same run.

One command on the GPU machine, from the bundle that scripts/make-bundle.sh
makes (PTX, libblk_runtime.so, blk-bench):

    python3 bench/run.py --bundle .bundle --out OUTDIR

Correctness first: each blk output, and each anchor's (Triton, PyTorch), is
compared with a float64 PyTorch reference computed from the same inputs; a
wrong blk result is reported FAIL and not timed, a wrong anchor is marked FAIL
in its row and not timed; either makes run.py exit 1. Timing: the contenders
take turns (the first of each turn rotates); each turn cycles through every
input set (the data read per cycle exceeds L2), warm-up first, and gives the
median of at least --reps launches, each between its own CUDA events or, for
rows whose kernels take under GRAPH_BELOW_US, captured in a CUDA graph with
the host's launch cost outside the measurement. Writes results.json (with the
device, date and command), results.md and one PNG per sweep;
bench/report.py makes the tables of docs/performance.md from stored
results.json files. Compile times: bench/compile_times.py."""
import argparse
import ast
import ctypes
import json
import math
import os
import shlex
import subprocess
import sys
import time
import traceback


def arg_parser(suites):
    """run.py's options; `suites`: the --only choices (SUITES' names)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bundle", default=".bundle")
    ap.add_argument("--out", default="bench-out")
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--ptx-dir", help="load blk's kernels from here instead of the bundle's ptx/ "
                                      "(another compiler's output, for a before/after comparison)")
    ap.add_argument("--only", choices=suites, help="run only these cases (and the limits)")
    return ap


def suites_in_source():
    """SUITES' names as this file writes them, read without running it: --help
    works where torch and Triton are not installed (the build machine)."""
    with open(os.path.abspath(__file__)) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "SUITES" for t in node.targets):
            return [k.value for k in node.value.keys if isinstance(k, ast.Constant) and k.value]
    return []


if __name__ == "__main__" and {"-h", "--help"} & set(sys.argv[1:]):
    arg_parser(suites_in_source()).parse_args()  # prints the help and exits

import torch  # noqa: E402
import triton  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_kernels as tk  # noqa: E402
from blk import BlkError, Runtime  # noqa: E402
from report import fmt, results_md  # noqa: E402
from timing_plan import best_ceiling, cycle_plan, median, turn_orders, use_graphs  # noqa: E402
import flce_bench  # noqa: E402

ROTATE_BYTES = 256 << 20  # each timing rotates through at least this much input data
TOL = {torch.float32: 1e-5, torch.float16: 5e-3, torch.bfloat16: 1e-2, torch.int32: 0.5}
# Rows of fp8 operands with f32 results: Hopper's fp8 tensor cores keep
# fewer bits of the f32 sum than f32 does (about 14; an e4m3 product over
# K = 4096 lands 1.3e-3 from float64 of the same rounded operands).
if hasattr(torch, "float8_e4m3fn"):
    TOL.update({torch.float8_e4m3fn: 5e-3, torch.float8_e5m2: 5e-3})
DT = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16", torch.int32: "i32"}
if hasattr(torch, "float8_e4m3fn"):
    DT.update({torch.float8_e4m3fn: "f8e4m3", torch.float8_e5m2: "f8e5m2"})
# Rows where some contender takes less than this per launch (an event pair
# around each launch) are timed as CUDA graphs: Triton's Python launch path
# costs 10-30 us of host time, so below about that the GPU waits for the host
# between kernels and events would time the launch path.
GRAPH_BELOW_US = 50.0
GRAPH_REPLAYS = 10
# Cycles the GPU sleeps before each timed graph replay, so that the host has
# submitted the replay before its start event is reached (about 0.5 ms).
SLEEP_CYCLES = 1_000_000
# The contenders' row keys and names (a failing anchor is printed by name).
NAMES = {"blk_us": "blk", "triton_us": "Triton", "torch_us": "PyTorch", "flash_us": "SDPA flash"}


def time_events(fns, reps, warmup=10):
    """Median over the timed launches of cycle_plan, each between its own
    pair of CUDA events; launch i reads input set plan[i] (fns[k] launches
    on set k), the warm-up reading every set first."""
    warm, timed = cycle_plan(len(fns), reps, warmup)
    for i in warm:
        fns[i]()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in timed]
    stops = [torch.cuda.Event(enable_timing=True) for _ in timed]
    for start, stop, i in zip(starts, stops, timed):
        start.record()
        fns[i]()
        stop.record()
    torch.cuda.synchronize()
    return median(a.elapsed_time(b) * 1e3 for a, b in zip(starts, stops))


class GraphTimer:
    """One contender's launches of a turn (cycle_plan's timed order: every
    input set, each equally often) captured as one CUDA graph; each call
    replays it once to warm up, then GRAPH_REPLAYS times between event pairs,
    and gives the median time per launch. Replays launch from the GPU, so the
    host's launch cost (Python, ctypes, Triton's launcher) is outside the
    measurement for every contender alike."""

    def __init__(self, rt, fns, reps):
        _, timed = cycle_plan(len(fns), reps, 0)
        self.launches = len(timed)
        self.graph = torch.cuda.CUDAGraph()
        stream = torch.cuda.Stream()
        # blk's launches go to the runtime's stream, Triton's and PyTorch's
        # to torch's current one: both are the capture stream here.
        with torch.cuda.graph(self.graph, stream=stream):
            rt.stream = stream.cuda_stream
            try:
                for i in timed:
                    fns[i]()
            finally:
                rt.stream = 0
        torch.cuda.synchronize()

    def __call__(self):
        self.graph.replay()
        torch.cuda.synchronize()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(GRAPH_REPLAYS)]
        stops = [torch.cuda.Event(enable_timing=True) for _ in range(GRAPH_REPLAYS)]
        for start, stop in zip(starts, stops):
            if hasattr(torch.cuda, "_sleep"):
                torch.cuda._sleep(SLEEP_CYCLES)
            start.record()
            self.graph.replay()
            stop.record()
        torch.cuda.synchronize()
        return median(a.elapsed_time(b) * 1e3 / self.launches for a, b in zip(starts, stops))


# test/kernels/copy.blk's variants (BLOCK, num_warps) among the copy ceiling's measurements.
COPY_KERNELS = ((4096, 4), (8192, 8))


def driver_copy(dst, src):
    """A launch of the CUDA driver's cuMemcpyDtoDAsync (through ctypes) of
    src's bytes into dst on torch's current stream."""
    cuda = ctypes.CDLL("libcuda.so.1")
    cuda.cuMemcpyDtoDAsync_v2.argtypes = [ctypes.c_uint64, ctypes.c_uint64, ctypes.c_size_t, ctypes.c_void_p]
    cuda.cuMemcpyDtoDAsync_v2.restype = ctypes.c_int
    nbytes = src.numel() * src.element_size()

    def launch():
        rc = cuda.cuMemcpyDtoDAsync_v2(dst.data_ptr(), src.data_ptr(), nbytes, torch.cuda.current_stream().cuda_stream)
        if rc != 0:
            raise RuntimeError(f"cuMemcpyDtoDAsync failed: CUresult {rc}")
    return launch


def run_suite(h, suite):
    """Each case function of `suite` on harness `h`. A case that raises is a
    failure of the run; the others still run and the results are still
    written."""
    for cases in suite:
        try:
            cases(h)
        except Exception as e:
            traceback.print_exc()
            h.rt.stream = 0
            h.fail(f"{cases.__name__} raised {type(e).__name__}: {e}")


def rel_err(out, ref):
    o = out.double()
    if not torch.isfinite(o).all():
        return math.inf
    return (torch.linalg.vector_norm(o - ref) / torch.linalg.vector_norm(ref)).item()


def exact_or_rel_err(out, ref):
    """Integers must match exactly (0 or infinity); floats as rel_err."""
    if not out.dtype.is_floating_point:
        return 0.0 if torch.equal(out.long(), ref.long()) else math.inf
    return rel_err(out, ref)


def poison(out):
    """NaN into a float buffer, 0x7f7f7f7f into an integer one: what a kernel
    leaves unwritten fails the check."""
    out.fill_(float("nan") if out.dtype.is_floating_point else 0x7F7F7F7F)
    return out


def _tensors(res):
    """`res` as a tuple of tensors, or None when fn returned none (a blk or
    Triton launch, whose outputs are the buffers it was given)."""
    if isinstance(res, torch.Tensor):
        return (res,)
    if isinstance(res, (tuple, list)) and res and all(isinstance(t, torch.Tensor) for t in res):
        return tuple(res)
    return None


def output_check(outs, refs, compare=rel_err):
    """check(key, fn) for Harness.record: poisons `outs` (a tensor or a
    tuple), runs fn (a contender's launch on input set 0) and compares with
    `refs` (float64) what fn returned when it returns tensors (PyTorch's ops
    allocate their outputs), else what it wrote into `outs`. `refs` may be a
    function of the contender's key, for an anchor given other inputs."""
    outs = outs if isinstance(outs, tuple) else (outs,)

    def check(key, fn):
        want = refs(key) if callable(refs) else refs
        want = want if isinstance(want, tuple) else (want,)
        for o in outs:
            poison(o)
        got = _tensors(fn())
        torch.cuda.synchronize()
        got = got if got is not None else outs
        if len(got) != len(want):
            return math.inf
        errs = []
        for g, w in zip(got, want):
            if g.shape != w.shape and g.numel() == w.numel():
                g = g.reshape(w.shape)
            errs.append(compare(g, w))
        return max(errs)
    return check


class Harness:
    def __init__(self, bundle, reps, ptx_dir=None):
        self.bundle, self.reps = bundle, reps
        self.ptx_dir = ptx_dir or os.path.join(bundle, "ptx")
        self.rt = Runtime(os.path.join(bundle, "lib", "libblk_runtime.so"))
        self.rows, self.sweeps = [], {}
        self.failures = []  # every FAIL, of table rows and sweep points alike: run.py exits 1 on any
        self.device = torch.cuda.get_device_name()

    def fail(self, what):
        print(f"FAIL: {what}", flush=True)
        self.failures.append(what)

    def load(self, ptx, name):
        """Kernel `name` of <ptx>.ptx in the bundle's ptx/ (or --ptx-dir)."""
        return self.rt.load(os.path.join(self.ptx_dir, ptx + ".ptx"), name)

    def kernel(self, file, dtype, name, spec=True):
        return self.load(f"{file}.{DT[dtype]}{'.n16' if spec else ''}", name)

    def record(self, case, shape, dtype, err, nbytes, blk_fns, triton_fns, torch_fns, record=True, rounds=3,
               check=None, settle=False, extra=None):
        """One row of the table: every contender checked against float64
        first, then timed in the same run.

        `err` is blk's error, or None to have check("blk_us", blk_fns[0])
        compute it; check(key, fn) runs a contender's first launch (input set
        0) and returns its error, and is applied to every anchor too: Triton
        (`triton_fns()`, called only when blk passes: Triton compiles then),
        PyTorch (`torch_fns`) and `extra` ({row key: fns}); an empty list is
        no anchor (its cell stays empty). A blk FAIL is not
        timed; an anchor over the tolerance is marked FAIL in the row and not
        timed; both are failures of the run. Each *_fns is a list of launches,
        one per input set. The contenders take `rounds` turns (the first of
        each turn rotates), one median per turn, and each gets the median of
        its turns; `settle` loads the GPU for 1 s first (compute-bound rows
        run at the power limit, where the clock drifts, and whichever is
        timed first or after a heavy neighbour would otherwise be favoured or
        penalized)."""
        # Complete from the start: a case that raises midway leaves a row the report can print.
        row = dict(case=case, shape=shape, dtype=DT[dtype], unit="GB/s", rel_err=None, blk_us=None, triton_us=None,
                   torch_us=None, rate=None, status="error: not finished")
        if record:
            self.rows.append(row)
        if err is None:
            err = self.safe_check(check, "blk_us", blk_fns[0])[0]
        row["rel_err"] = err
        if not err < TOL[dtype]:
            row.update(status=f"FAIL (rel err {err:.2e})", blk_us=None, triton_us=None, torch_us=None, rate=None)
            self.fail(f"{case} {shape} {DT[dtype]}: blk {row['status']}")
            return row
        anchors = {"triton_us": list(triton_fns()), "torch_us": list(torch_fns), **(extra or {})}
        anchors = {k: fns for k, fns in anchors.items() if fns}  # an empty list: no such anchor
        timed, errors, failed = {"blk_us": blk_fns}, {}, []
        for key, fns in anchors.items():
            e, why = self.safe_check(check, key, fns[0])
            errors[key] = e
            if e < TOL[dtype]:
                timed[key] = fns
            else:
                row[key] = None
                failed.append(f"{NAMES.get(key, key)} ({why or f'rel err {e:.2e}'})")
                self.fail(f"{case} {shape} {DT[dtype]}: anchor {failed[-1]}, not timed")
        row["anchor_errors"] = errors
        if failed:
            row["anchor_fail"] = [k for k in anchors if k not in timed]
        row.update(self.time_row(timed, rounds, settle))
        row["rate"] = nbytes / row["blk_us"] / 1e3
        row["status"] = "ok" if not failed else "anchor FAIL: " + ", ".join(failed)
        print(f"{case} {shape} {DT[dtype]}: " + ", ".join(
            f"{NAMES.get(k, k)} {fmt(row.get(k), '{:.2f}')} us" for k in ["blk_us"] + list(anchors))
              + f" ({row['method']}; rel err blk {err:.1e})", flush=True)
        return row

    @staticmethod
    def safe_check(check, key, fn):
        """(error, why): check(key, fn), with an exception as an infinite
        error (an anchor the installed PyTorch or Triton cannot run)."""
        if check is None:
            raise ValueError("record needs a check for the anchors")
        try:
            return check(key, fn), None
        except BlkError:
            raise
        except Exception as e:
            msg = str(e).strip().splitlines()
            return math.inf, f"error: {type(e).__name__}: {msg[0] if msg else ''}"[:160]

    def time_row(self, contenders, rounds, settle):
        """{key: microseconds per launch} and how they were measured."""
        out = {}
        probe = {k: time_events(fns, min(self.reps, 20)) for k, fns in contenders.items()}
        timers = {k: (lambda fns=fns: time_events(fns, self.reps)) for k, fns in contenders.items()}
        method = "events"
        if use_graphs(probe, GRAPH_BELOW_US):
            try:
                timers = {k: GraphTimer(self.rt, fns, self.reps) for k, fns in contenders.items()}
                method = "graph"
                out["events_probe_us"] = probe
            except Exception as e:  # a contender that cannot be captured: all keep events
                self.rt.stream = 0
                torch.cuda.synchronize()
                method = f"events (graph capture failed: {type(e).__name__})"
                print(f"graph capture failed ({type(e).__name__}: {e}); timing with events", flush=True)
        if settle:  # bring the clocks to their steady state under load first
            load = contenders.get("torch_us", contenders["blk_us"])[0]
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < 1.0:
                load()
                torch.cuda.synchronize()
        turns = {k: [] for k in contenders}
        for order in turn_orders(list(contenders), rounds):
            for k in order:
                turns[k].append(timers[k]())
        for k, t in turns.items():
            out[k] = median(t)
        out["method"], out["turns"] = method, rounds
        return out

    def limits(self):
        """The copy ceiling: the best of three measurements each, interleaved,
        of a 1 GiB device-to-device copy by the driver (cuMemcpyDtoDAsync),
        by torch's copy_ and by blk's 128-bit copy kernel (test/kernels/
        copy.blk's .n16 builds: 16-byte loads and stores), each checked to
        copy every byte first; then an 8192^3 bf16 torch.matmul."""
        n = 1 << 30
        src = torch.randint(0, 255, (n,), dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        copies = {"cuMemcpyDtoDAsync": driver_copy(dst, src), "copy_": lambda: dst.copy_(src)}
        for block, warps in COPY_KERNELS:
            k = self.load(f"copy.f32.{block}.w{warps}.n16", "copy")
            copies[f"blk copy BLOCK={block} w{warps}"] = k.prepare((n // 4 // block,), src, dst, n // 4)
        for name, fn in list(copies.items()):
            dst.zero_()
            fn()
            if not torch.equal(dst, src):
                self.fail(f"ceiling/copy: {name} did not copy the buffer; not timed")
                del copies[name]
        samples = {name: [] for name in copies}
        for _ in range(3):
            for name, fn in copies.items():
                samples[name].append(2 * n / time_events([fn], self.reps) / 1e3)
        self.copy_gbps, method = best_ceiling(samples)
        self.copy_samples = samples
        self.rows.append(dict(case="ceiling/copy", shape="1 GiB", dtype="u8", blk_us=None, triton_us=None,
                              torch_us=2 * n / self.copy_gbps / 1e3, rate=self.copy_gbps, unit="GB/s", status="ok",
                              method=f"best of 3 x ({', '.join(copies)}): {method}", samples_gbps=samples))
        print("copy ceiling: " + "; ".join(f"{k} " + ", ".join(f"{v:.0f}" for v in vs) for k, vs in samples.items())
              + f" GB/s; best {self.copy_gbps:.0f} ({method})", flush=True)
        del src, dst
        a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
        us = time_events([lambda: torch.matmul(a, b)], self.reps)
        self.mm_tflops = 2 * 8192 ** 3 / us / 1e6
        self.rows.append(dict(case="ceiling/cublas_matmul", shape="8192^3", dtype="bf16", blk_us=None,
                              triton_us=None, torch_us=us, rate=self.mm_tflops, unit="TFLOP/s", status="ok",
                              method="events"))

    def elementwise(self, case, shape, dtype, n, make_inputs, reference, blk_file, blk_name, triton_launch,
                    torch_fn, sweep=None, record=True, torch_inputs=None, torch_reference=None):
        """One elementwise case: C = f(A, B) over n elements. `torch_inputs`
        turns a set's (A, B) into the PyTorch anchor's inputs, made before
        timing (F.kl_div takes log Q), and `torch_reference` is then the
        float64 reference of the anchor on those."""
        in_bytes = 2 * n * torch.tensor([], dtype=dtype).element_size()
        sets = max(1, min(4096, math.ceil(ROTATE_BYTES / in_bytes)))
        # Input sets are consecutive views of one pool (aligned: n is a multiple of 16 here).
        pool_a, pool_b = make_inputs(n * sets, dtype)
        pool_o = torch.empty(n * sets, device="cuda", dtype=dtype)
        data = [(pool_a[i * n:(i + 1) * n], pool_b[i * n:(i + 1) * n]) for i in range(sets)]
        outs = [pool_o[i * n:(i + 1) * n] for i in range(sets)]
        torch_data = [torch_inputs(a, b) for a, b in data] if torch_inputs else data
        k = self.kernel(blk_file, dtype, blk_name, spec=n % 16 == 0)
        block = int(k.constant("BLOCK"))
        grid = (triton.cdiv(n, block),)
        blk_fns = [k.prepare(grid, a, b, o, n) for (a, b), o in zip(data, outs)]
        ref = reference(data[0][0].double(), data[0][1].double())
        ref_t = torch_reference(*(t.double() for t in torch_data[0])) if torch_reference else ref
        nbytes = 3 * n * outs[0].element_size()
        row = self.record(case, shape, dtype, None, nbytes, blk_fns,
                          lambda: [lambda a=a, b=b, o=o: triton_launch(a, b, o, n) for (a, b), o in zip(data, outs)],
                          [lambda a=a, b=b: torch_fn(a, b) for a, b in torch_data], record,
                          check=output_check(outs[0], lambda key: ref_t if key == "torch_us" else ref))
        if sweep is not None:
            self.sweeps.setdefault(sweep, []).append(
                dict(n=n, method=row.get("method"),
                     **{k2: (nbytes / row[k2] / 1e3 if row.get(k2) else None) for k2 in ("blk_us", "triton_us", "torch_us")}))
        del data, outs, pool_a, pool_b, pool_o, torch_data, ref, ref_t
        return row


def uniform(lo, hi):
    def make(n, dtype):
        return tuple(torch.empty(n, device="cuda", dtype=dtype).uniform_(lo, hi) for _ in range(2))
    return make


def run_cases(h):
    def vadd(a, b, o, n):
        tk.add_kernel[(triton.cdiv(n, 1024),)](a, b, o, n, BLOCK=1024)

    def swiglu(a, b, o, n, cols=14336):
        tk.swiglu_kernel[(n // cols,)](a, b, o, cols, cols, BLOCK=triton.next_power_of_2(cols), num_warps=32)

    def geglu(a, b, o, n, cols=14336):
        tk.geglu_kernel[(n // cols,)](a, b, o, cols, cols, BLOCK=triton.next_power_of_2(cols), num_warps=32)

    def kl(a, b, o, n):
        tk.kl_div_kernel[(triton.cdiv(n, 1024),)](a, b, o, n, BLOCK=1024)

    silu = lambda a, b: a * torch.sigmoid(a) * b  # noqa: E731
    gelu = lambda a, b: torch.nn.functional.gelu(a, approximate="tanh") * b  # noqa: E731
    kl_ref = lambda p, q: p * (p.log() - q.log())  # noqa: E731

    for dt in (torch.float32, torch.bfloat16):
        h.elementwise("vector_add", "2^28", dt, 1 << 28, uniform(-4, 4), lambda a, b: a + b, "vector_add",
                      "vector_add", vadd, lambda a, b: a + b)
    for dt in (torch.bfloat16, torch.float32):
        h.elementwise("swiglu_fwd", "4096x14336", dt, 4096 * 14336, uniform(-6, 6), silu, "swiglu", "swiglu_forward",
                      swiglu, lambda a, b: torch.nn.functional.silu(a) * b)
    h.elementwise("geglu_fwd", "4096x14336", torch.bfloat16, 4096 * 14336, uniform(-6, 6), gelu, "geglu",
                  "geglu_forward", geglu, gelu)
    # PyTorch's KL as Liger-Kernel's benchmark calls it: F.kl_div on Q given
    # in log space (made before timing), one kernel reading P and log Q. blk
    # computes log with lg2.approx, Triton and PyTorch with libdevice's log.
    for dt in (torch.float32, torch.bfloat16):
        h.elementwise("kl_div (blk lg2.approx; PyTorch F.kl_div, log Q given)", "8192x32000", dt, 8192 * 32000,
                      uniform(0.01, 1), kl_ref, "kl_div", "kl_div", kl,
                      lambda p, log_q: torch.nn.functional.kl_div(log_q, p, reduction="none"),
                      torch_inputs=lambda p, q: (p, q.log()),
                      torch_reference=lambda p, log_q: p * (p.log() - log_q))
    row_cases(h)
    transposes(h)
    # Sweeps, as Triton's perf_report plots them.
    for e in range(12, 29, 2):
        h.elementwise("vector_add", f"2^{e}", torch.float32, 1 << e, uniform(-4, 4), lambda a, b: a + b,
                      "vector_add", "vector_add", vadd, lambda a, b: a + b, sweep="vector_add_f32", record=False)
    for rows in (256, 512, 1024, 2048, 4096, 8192):
        h.elementwise("swiglu_fwd", f"{rows}x14336", torch.bfloat16, rows * 14336, uniform(-6, 6), silu, "swiglu",
                      "swiglu_forward", swiglu, lambda a, b: torch.nn.functional.silu(a) * b,
                      sweep="swiglu_bf16_rows_x14336", record=False)


def row_case(h, case, shape, dtype, nbytes, blk_fns, tri_fns, torch_fns, check):
    """One row-kernel case; each *_fns is a function or a list to rotate
    over; check(key, fn) as Harness.record takes it (blk's too)."""
    as_list = lambda f: f if isinstance(f, list) else [f]  # noqa: E731
    h.record(case, shape, dtype, None, nbytes, as_list(blk_fns), lambda: as_list(tri_fns), as_list(torch_fns),
             check=check)


# A norm backward program walks its rows one after another, each row's loads
# waiting for the last row's stores (the loop stores, so they are not issued
# ahead); blk launches two programs per SM to keep twice the bytes in flight
# (H200, 8192x4096 bf16: RMSNorm's kernel 66 us against 90 at one per SM,
# LayerNorm's 73 against 102; three or more were slower). The Triton twins
# run one per SM, as Liger-Kernel launches them.
NORM_BWD_PROGRAMS_PER_SM = 2


def norm_bwd_grid(rows, liger=False):
    """(programs, rows per program) of a norm backward: blk's, or Liger's."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    programs = sms if liger else NORM_BWD_PROGRAMS_PER_SM * sms
    return programs, triton.cdiv(rows, programs)


def rms_norm_fwd_bwd(h, x, dy, w, rstd):
    """RMSNorm forward then backward (dX, dW through per-program partial sums),
    bf16: what a training step runs. Bytes: X and Y forward; dY and X read, dX
    written backward. PyTorch: F.rms_norm and autograd on bf16."""
    M, N = x.shape
    dt = x.dtype
    y, dx = torch.empty_like(x), torch.empty_like(x)
    programs, per = norm_bwd_grid(M)
    tri_programs, tri_per = norm_bwd_grid(M, liger=True)
    partial = torch.empty(programs, N, device="cuda", dtype=torch.float32)
    tri_partial = torch.empty(tri_programs, N, device="cuda", dtype=torch.float32)
    dw = torch.empty(N, device="cuda", dtype=dt)
    fwd = h.load("rms_norm.bf16.4096.w8.s16", "rms_norm_forward").prepare((M,), y, x, w, rstd, N, N, 1e-6, 0.0)
    bwd = h.load("rms_norm.bf16.4096.w8.s16", "rms_norm_backward").prepare(
        (programs,), dy, x, w, rstd, dx, partial, M, N, N, 0.0, per)
    sum_rows = h.load("rms_norm.bf16.4096.w8.s16", "sum_rows")
    red = sum_rows.prepare((triton.cdiv(N, int(sum_rows.constant("BLOCK_C"))),), partial, dw, programs, N)

    def blk_step():
        fwd()
        bwd()
        red()

    def triton_step():
        tk.rms_norm_kernel[(M,)](y, x, w, rstd, N, N, 1e-6, 0.0, BLOCK=N, num_warps=8)
        tk.rms_norm_backward_kernel[(tri_programs,)](dy, x, w, rstd, dx, tri_partial, M, N, N, 0.0, tri_per,
                                                     BLOCK=N, num_warps=8)
        dw.copy_(tri_partial.sum(0))

    native = hasattr(torch.nn.functional, "rms_norm")

    def torch_step():
        xt = x.detach().requires_grad_()
        wt = w.detach().requires_grad_()
        if native:
            out = torch.nn.functional.rms_norm(xt, (N,), wt, 1e-6)
        else:
            xf = xt.float()
            out = (xf * torch.rsqrt(xf.pow(2).mean(1, keepdim=True) + 1e-6)).to(dt) * wt
        out.backward(dy)
        return xt.grad, wt.grad

    xd = x.double().requires_grad_()
    wd = w.double().requires_grad_()
    (xd * torch.rsqrt(xd.pow(2).mean(1, keepdim=True) + 1e-6) * wd).backward(dy.double())
    anchor = "F.rms_norm + autograd" if native else "f32 decomposition + autograd, no F.rms_norm"
    row_case(h, f"rms_norm_fwd_bwd (PyTorch {anchor})", f"{M}x{N}", dt, 5 * x.numel() * 2, blk_step, triton_step,
             torch_step, output_check((dx, dw), (xd.grad, wd.grad)))
    del xd, wd


def kl_div_fwd(h):
    """KL divergence forward, f32 8192x32000, batchmean: per-row sums, then
    one program totals them (blk: reduce.blk's sum_all; Triton and Liger:
    torch.sum). PyTorch: F.kl_div on the same log-space predictions."""
    M, V, dt = 8192, 32000, torch.float32
    pred = torch.log_softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    target = torch.softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    rows = torch.empty(M, device="cuda", dtype=dt)
    total = torch.empty(1, device="cuda", dtype=dt)
    kl = h.load("kl_div_loss.f32.8192.w16.s16", "kl_div_forward").prepare((M,), pred, target, rows, V, V, 1e-10)
    red = h.load("reduce", "sum_all").prepare((1,), rows, total, M, 1.0 / M)

    def blk_fn():
        kl()
        red()

    def triton_fn():
        tk.kl_div_loss_kernel[(M,)](pred, target, rows, V, V, 1e-10, BLOCK=16384, num_warps=16)
        return rows.sum() / M

    ref = torch.nn.functional.kl_div(pred.double(), target.double(), reduction="batchmean")
    row_case(h, "kl_div_fwd (batchmean; PyTorch F.kl_div)", f"{M}x{V}", dt, 2 * pred.numel() * 4, blk_fn, triton_fn,
             lambda: torch.nn.functional.kl_div(pred, target, reduction="batchmean"),
             output_check(total, ref.reshape(1)))
    del pred, target


class EagerBackward:
    """The backward alone of an eager forward, as Liger-Kernel's benchmarks
    time it: fwd(*leaves) is built once, before timing, and each call runs
    torch.autograd.grad on it (retain_graph) with the given output gradients.
    Autograd runs each backward op on the stream of its forward op, so the
    forward is built on a stream of its own, joined to the current stream (a
    CUDA graph's capture stream included) around each call."""

    def __init__(self, fwd, leaves):
        self.stream = torch.cuda.Stream()
        self.leaves = tuple(t.detach().requires_grad_() for t in leaves)
        self.stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(self.stream):
            outs = fwd(*self.leaves)
        self.outs = outs if isinstance(outs, tuple) else (outs,)
        torch.cuda.synchronize()

    def __call__(self, *grads):
        current = torch.cuda.current_stream()
        self.stream.wait_stream(current)
        with torch.cuda.stream(self.stream):
            out = torch.autograd.grad(self.outs, self.leaves, grads, retain_graph=True)
        current.wait_stream(self.stream)
        return out


GLU_ACTS = {  # (PyTorch's activation, the row's name for the anchor)
    "swiglu": (lambda a: torch.nn.functional.silu(a), "F.silu(a) * b"),
    "geglu": (lambda a: torch.nn.functional.gelu(a, approximate="tanh"), 'F.gelu(a, approximate="tanh") * b'),
    "geglu exact": (lambda a: torch.nn.functional.gelu(a), "F.gelu(a) * b"),
}


def glu_backward(h, rows=4096, cols=14336):
    """SwiGLU and GeGLU backward at the swiglu_fwd rows' 4096x14336, and
    forward then backward: dA and dB from dC, A and B, the activation
    recomputed from A as Liger-Kernel does (GeGLU: the tanh form, and the
    exact erf form, backward only: Liger has no erf kernel). Triton:
    Liger-Kernel's row kernels (bench/triton_kernels.py), one program per row
    of 14336 at 32 warps as the forward rows; PyTorch: eager autograd of
    act(a) * b, the backward alone on a graph built before timing
    (EagerBackward) and forward+backward. dA and dB go to their own buffers
    (Liger writes them over A and B: the same bytes), so every launch reads
    the same inputs. Bytes: dC, A, B read and dA, dB written backward; A, B
    read and C written forward."""
    n = rows * cols
    grid_t = (rows,)
    block_t = triton.next_power_of_2(cols)
    cases = (("swiglu", torch.bfloat16, False, "swiglu", tk.swiglu_kernel),
             ("swiglu", torch.float32, False, "swiglu", tk.swiglu_kernel),
             ("geglu", torch.bfloat16, False, "geglu", tk.geglu_kernel),
             ("geglu exact", torch.bfloat16, True, "geglu", None))
    for act_name, dt, exact, file, tri_fwd in cases:
        act, anchor = GLU_ACTS[act_name]
        a, b = uniform(-6, 6)(n, dt)
        dc = torch.randn(n, device="cuda", dtype=dt)
        c, da, db = (torch.empty_like(a) for _ in range(3))
        ptx = f"{file}.{DT[dt]}{'.True' if exact else ''}.n16"
        bwd_k = h.load(ptx, f"{file}_backward")
        grid = (triton.cdiv(n, int(bwd_k.constant("BLOCK"))),)
        bwd = bwd_k.prepare(grid, dc, a, b, da, db, n)
        tri_bwd = tk.swiglu_backward_kernel if file == "swiglu" else tk.geglu_backward_kernel
        tri_kw = dict(BLOCK=block_t, num_warps=32, **({"EXACT": True} if exact else {}))

        def triton_bwd(tri_bwd=tri_bwd, tri_kw=tri_kw):
            tri_bwd[grid_t](dc, a, b, da, db, cols, cols, **tri_kw)

        ad, bd = a.double().requires_grad_(), b.double().requires_grad_()
        cd = act(ad) * bd
        cd.backward(dc.double())
        ref_c, ref_da, ref_db = cd.detach(), ad.grad, bd.grad
        del ad, bd, cd
        form = {"swiglu": "", "geglu": "tanh; ", "geglu exact": "exact erf; "}[act_name]
        row_case(h, f"{file}_bwd ({form}PyTorch {anchor}, autograd backward)", f"{rows}x{cols}", dt,
                 5 * n * a.element_size(), bwd, triton_bwd,
                 lambda eager=EagerBackward(lambda x, y: act(x) * y, (a, b)): eager(dc),
                 output_check((da, db), (ref_da, ref_db)))
        if tri_fwd is not None:  # forward then backward, as a training step runs them
            fwd_k = h.load(ptx, f"{file}_forward")
            fwd = fwd_k.prepare((triton.cdiv(n, int(fwd_k.constant("BLOCK"))),), a, b, c, n)

            def blk_step(fwd=fwd, bwd=bwd):
                fwd()
                bwd()

            def triton_step(tri_fwd=tri_fwd, triton_bwd=triton_bwd):
                tri_fwd[grid_t](a, b, c, cols, cols, BLOCK=block_t, num_warps=32)
                triton_bwd()

            def torch_step(act=act):
                at, bt = a.detach().requires_grad_(), b.detach().requires_grad_()
                out = act(at) * bt
                out.backward(dc)
                return out.detach(), at.grad, bt.grad

            row_case(h, f"{file}_fwd_bwd ({form}PyTorch {anchor}, autograd)", f"{rows}x{cols}", dt,
                     8 * n * a.element_size(), blk_step, triton_step, torch_step,
                     output_check((c, da, db), (ref_c, ref_da, ref_db)))
        del a, b, dc, c, da, db, ref_c, ref_da, ref_db


def in_order(*fns):
    """One launch that runs fns one after another (a training step's kernels)."""
    def run():
        for f in fns:
            f()
    return run


def row_backward(h):
    """The row kernels' backward and forward+backward rows: each blk kernel
    against Liger-Kernel's kernel in Triton (bench/triton_kernels.py, at
    Liger's block sizes and warps) and PyTorch eager on the benchmark's dtype
    with autograd; a backward alone runs PyTorch's on a graph built before
    timing (EagerBackward)."""
    softmax_fwd_bwd(h)
    rms_norm_bwd(h)
    layer_norm_fwd_bwd(h)
    kl_div_bwd(h)
    jsd_fwd_bwd(h)


def row_inputs(sets, M, N, dt):
    """`sets` pairs (X, dY) of [M, N] randoms: the 8192x4096 bf16 backward
    rows read at least 256 MiB per cycle with two."""
    return ([torch.randn(M, N, device="cuda", dtype=dt) * 2 for _ in range(sets)],
            [torch.randn(M, N, device="cuda", dtype=dt) for _ in range(sets)])


def softmax_fwd_bwd(h, M=8192, N=4096, sets=2):
    """Softmax backward (dX = Y (dY - sum(dY Y)) from dY and the saved Y),
    and forward then backward, bf16: kernels/softmax.blk (8 warps); Triton:
    Liger-Kernel's single-block kernels at Liger's 8 warps; PyTorch:
    torch.softmax with autograd. Bytes: dY, Y read and dX written backward;
    X read and Y written forward."""
    dt = torch.bfloat16
    xs, dys = row_inputs(sets, M, N, dt)
    ys = [torch.softmax(x, dim=1) for x in xs]  # the saved output the backward alone reads
    dxs = [torch.empty_like(x) for x in xs]
    ptx = "softmax.bf16.4096.w8.s16"
    fwd = [h.load(ptx, "softmax_forward").prepare((M,), x, y, N, N) for x, y in zip(xs, ys)]
    bwd = [h.load(ptx, "softmax_backward").prepare((M,), dy, y, dx, N, N) for dy, y, dx in zip(dys, ys, dxs)]

    def tri_fwd(x, y):
        tk.softmax_forward_kernel[(M,)](x, y, N, N, BLOCK=N, num_warps=8)

    def tri_bwd(dy, y, dx):
        tk.softmax_backward_kernel[(M,)](dy, y, dx, N, N, BLOCK=N, num_warps=8)

    def torch_step(x, dy):
        xt = x.detach().requires_grad_()
        y = torch.softmax(xt, dim=1)
        y.backward(dy)
        return y.detach(), xt.grad

    sets_of = list(zip(xs, dys, ys, dxs))
    dyd, yd = dys[0].double(), ys[0].double()
    ref_dx = yd * (dyd - (dyd * yd).sum(1, keepdim=True))
    eager = [EagerBackward(lambda t: torch.softmax(t, dim=1), (x,)) for x in xs]
    row_case(h, "softmax_bwd (PyTorch torch.softmax, autograd backward)", f"{M}x{N}", dt, 3 * xs[0].numel() * 2,
             bwd, [lambda dy=dy, y=y, dx=dx: tri_bwd(dy, y, dx) for _, dy, y, dx in sets_of],
             [lambda e=e, dy=dy: e(dy) for e, dy in zip(eager, dys)], output_check(dxs[0], ref_dx))
    del eager, ref_dx
    ref_y = torch.softmax(xs[0].double(), dim=1)
    ref_dx = ref_y * (dyd - (dyd * ref_y).sum(1, keepdim=True))
    row_case(h, "softmax_fwd_bwd (PyTorch torch.softmax + autograd)", f"{M}x{N}", dt, 5 * xs[0].numel() * 2,
             [in_order(f, b) for f, b in zip(fwd, bwd)],
             [in_order(lambda x=x, y=y: tri_fwd(x, y), lambda dy=dy, y=y, dx=dx: tri_bwd(dy, y, dx))
              for x, dy, y, dx in sets_of],
             [lambda x=x, dy=dy: torch_step(x, dy) for x, dy in zip(xs, dys)],
             output_check((ys[0], dxs[0]), (ref_y, ref_dx)))


def torch_rms_norm(x, w, eps):
    """PyTorch's RMSNorm of x: F.rms_norm, or before PyTorch 2.4 the f32
    decomposition (the row says which)."""
    if hasattr(torch.nn.functional, "rms_norm"):
        return torch.nn.functional.rms_norm(x, (x.shape[-1],), w, eps)
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * w


def rms_norm_bwd(h, M=8192, N=4096, sets=2):
    """RMSNorm backward alone, bf16 (the rms_norm_fwd_bwd row's backward):
    dX per row and dW through one partial row per program (norm_bwd_grid),
    summed by sum_rows; RSTD from the forward, computed before timing.
    Triton: Liger's backward kernel at one program per SM, then torch.sum of
    the partial rows; PyTorch: F.rms_norm's autograd backward. Bytes: dY and
    X read, dX written."""
    dt = torch.bfloat16
    xs, dys = row_inputs(sets, M, N, dt)
    w = torch.rand(N, device="cuda", dtype=dt) + 0.5
    rstds = [torch.rsqrt(x.float().pow(2).mean(1) + 1e-6) for x in xs]
    dxs = [torch.empty_like(x) for x in xs]
    programs, per = norm_bwd_grid(M)
    tri_programs, tri_per = norm_bwd_grid(M, liger=True)
    partial = torch.empty(programs, N, device="cuda", dtype=torch.float32)
    tri_partial = torch.empty(tri_programs, N, device="cuda", dtype=torch.float32)
    dw = torch.empty(N, device="cuda", dtype=dt)
    ptx = "rms_norm.bf16.4096.w8.s16"
    sum_rows = h.load(ptx, "sum_rows")
    red = sum_rows.prepare((triton.cdiv(N, int(sum_rows.constant("BLOCK_C"))),), partial, dw, programs, N)
    bwd = [h.load(ptx, "rms_norm_backward").prepare((programs,), dy, x, w, r, dx, partial, M, N, N, 0.0, per)
           for x, dy, r, dx in zip(xs, dys, rstds, dxs)]

    def triton_bwd(x, dy, r, dx):
        tk.rms_norm_backward_kernel[(tri_programs,)](dy, x, w, r, dx, tri_partial, M, N, N, 0.0, tri_per, BLOCK=N,
                                                     num_warps=8)
        dw.copy_(tri_partial.sum(0))

    xd = xs[0].double().requires_grad_()
    wd = w.double().requires_grad_()
    (xd * torch.rsqrt(xd.pow(2).mean(1, keepdim=True) + 1e-6) * wd).backward(dys[0].double())
    eager = [EagerBackward(lambda t, u: torch_rms_norm(t, u, 1e-6), (x, w)) for x in xs]
    anchor = "F.rms_norm" if hasattr(torch.nn.functional, "rms_norm") else "f32 decomposition, no F.rms_norm"
    row_case(h, f"rms_norm_bwd (PyTorch {anchor}, autograd backward)", f"{M}x{N}", dt, 3 * xs[0].numel() * 2,
             [in_order(b, red) for b in bwd],
             [lambda a=a: triton_bwd(*a) for a in zip(xs, dys, rstds, dxs)],
             [lambda e=e, dy=dy: e(dy) for e, dy in zip(eager, dys)],
             output_check((dxs[0], dw), (xd.grad, wd.grad)))


def layer_norm_fwd_bwd(h, M=8192, N=4096, sets=2):
    """LayerNorm backward, and forward then backward, bf16: kernels/
    layer_norm.blk (4 warps): dX per row, dW and dB through one partial row
    each per program (norm_bwd_grid), summed by sum_rows (rms_norm.blk)
    inside the timed backward; MEAN and RSTD (f32) from the forward,
    computed before timing for the backward alone. Triton: Liger's forward
    and backward kernels (8 warps; the backward at one program per SM), then
    torch.sum of the partial rows; PyTorch: F.layer_norm with autograd.
    Bytes: dY, X read and dX written backward (the partial rows, 4 MiB each
    at one program per SM, not counted); X read and Y written forward."""
    dt, eps = torch.bfloat16, 1e-5
    xs, dys = row_inputs(sets, M, N, dt)
    w = torch.rand(N, device="cuda", dtype=dt) + 0.5
    b = torch.randn(N, device="cuda", dtype=dt)
    means = [x.float().mean(1) for x in xs]
    rstds = [torch.rsqrt(x.float().var(1, unbiased=False) + eps) for x in xs]
    ys, dxs = [torch.empty_like(x) for x in xs], [torch.empty_like(x) for x in xs]
    programs, per = norm_bwd_grid(M)
    tri_programs, tri_per = norm_bwd_grid(M, liger=True)
    dw_part, db_part = (torch.empty(programs, N, device="cuda", dtype=torch.float32) for _ in range(2))
    tri_dw_part, tri_db_part = (torch.empty(tri_programs, N, device="cuda", dtype=torch.float32) for _ in range(2))
    dw, db = torch.empty(N, device="cuda", dtype=dt), torch.empty(N, device="cuda", dtype=dt)
    ptx = "layer_norm.bf16.4096.w4.s16"
    sum_rows = h.load("rms_norm.bf16.4096.w8.s16", "sum_rows")
    red_w = sum_rows.prepare((triton.cdiv(N, int(sum_rows.constant("BLOCK_C"))),), dw_part, dw, programs, N)
    red_b = sum_rows.prepare((triton.cdiv(N, int(sum_rows.constant("BLOCK_C"))),), db_part, db, programs, N)
    sets_of = list(zip(xs, dys, means, rstds, ys, dxs))
    fwd = [h.load(ptx, "layer_norm_forward").prepare((M,), y, x, w, b, m, r, N, N, eps)
           for x, _, m, r, y, _ in sets_of]
    bwd = [in_order(h.load(ptx, "layer_norm_backward").prepare(
        (programs,), dy, x, w, m, r, dx, dw_part, db_part, M, N, N, per), red_w, red_b)
        for x, dy, m, r, _, dx in sets_of]

    def tri_fwd(x, dy, m, r, y, dx):
        tk.layer_norm_kernel[(M,)](y, x, w, b, m, r, N, N, eps, BLOCK=N, num_warps=8)

    def tri_bwd(x, dy, m, r, y, dx):
        tk.layer_norm_backward_kernel[(tri_programs,)](dy, x, w, m, r, dx, tri_dw_part, tri_db_part, M, N, N,
                                                       rows_per_program=tri_per, BLOCK=N, num_warps=8)
        dw.copy_(tri_dw_part.sum(0))
        db.copy_(tri_db_part.sum(0))

    def torch_step(x, dy):
        xt, wt, bt = (t.detach().requires_grad_() for t in (x, w, b))
        y = torch.nn.functional.layer_norm(xt, (N,), wt, bt, eps)
        y.backward(dy)
        return y.detach(), xt.grad, wt.grad, bt.grad

    xd, wd, bd = (t.double().requires_grad_() for t in (xs[0], w, b))
    yd = torch.nn.functional.layer_norm(xd, (N,), wd, bd, eps)
    yd.backward(dys[0].double())
    ref = (yd.detach(), xd.grad, wd.grad, bd.grad)
    del xd, wd, bd, yd
    eager = [EagerBackward(lambda t, u, v: torch.nn.functional.layer_norm(t, (N,), u, v, eps), (x, w, b))
             for x in xs]
    row_case(h, "layer_norm_bwd (PyTorch F.layer_norm, autograd backward)", f"{M}x{N}", dt,
             3 * xs[0].numel() * 2, bwd, [lambda a=a: tri_bwd(*a) for a in sets_of],
             [lambda e=e, dy=dy: e(dy) for e, dy in zip(eager, dys)], output_check((dxs[0], dw, db), ref[1:]))
    del eager
    row_case(h, "layer_norm_fwd_bwd (PyTorch F.layer_norm + autograd)", f"{M}x{N}", dt, 5 * xs[0].numel() * 2,
             [in_order(f, bw) for f, bw in zip(fwd, bwd)],
             [in_order(lambda a=a: tri_fwd(*a), lambda a=a: tri_bwd(*a)) for a in sets_of],
             [lambda x=x, dy=dy: torch_step(x, dy) for x, dy in zip(xs, dys)],
             output_check((ys[0], dxs[0], dw, db), ref))


def kl_div_bwd(h, M=8192, V=32000):
    """KL divergence (batchmean) backward, and forward then backward, f32:
    the gradient with respect to the log-space predictions is -target / rows.
    blk: kernels/kl_div_loss.blk's kl_div_backward (the scale folded in;
    forward: kl_div_forward and reduce.blk's sum_all, as the kl_div_fwd row);
    Triton: Liger-Kernel's kernels (16384-wide chunks, 16 warps) and, as
    Liger's backward does, the division by the rows as a PyTorch op after
    the kernel; PyTorch: F.kl_div with autograd. Bytes: target read and the
    gradient written backward; predictions and target read forward."""
    dt = torch.float32
    pred = torch.log_softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    target = torch.softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    grad = torch.empty_like(pred)
    rows = torch.empty(M, device="cuda", dtype=dt)
    total = torch.empty(1, device="cuda", dtype=dt)
    ptx = "kl_div_loss.f32.8192.w16.s16"
    fwd = in_order(h.load(ptx, "kl_div_forward").prepare((M,), pred, target, rows, V, V, 1e-10),
                   h.load("reduce", "sum_all").prepare((1,), rows, total, M, 1.0 / M))
    bwd = h.load(ptx, "kl_div_backward").prepare((M,), target, grad, V, V, 1.0 / M)

    def triton_bwd():
        tk.kl_div_loss_backward_kernel[(M,)](target, grad, V, V, BLOCK=16384, num_warps=16)
        grad.div_(M)  # Liger: derivative / rows, out of place there: the same bytes

    def triton_step():
        tk.kl_div_loss_kernel[(M,)](pred, target, rows, V, V, 1e-10, BLOCK=16384, num_warps=16)
        loss = rows.sum() / M
        triton_bwd()
        return loss, grad

    def torch_step():
        pt = pred.detach().requires_grad_()
        loss = torch.nn.functional.kl_div(pt, target, reduction="batchmean")
        loss.backward()
        return loss.detach(), pt.grad

    ref_grad = -target.double() / M
    ref_loss = torch.nn.functional.kl_div(pred.double(), target.double(), reduction="batchmean").reshape(1)
    eager = EagerBackward(lambda p: torch.nn.functional.kl_div(p, target, reduction="batchmean"), (pred,))
    one = torch.ones((), device="cuda", dtype=dt)
    row_case(h, "kl_div_bwd (batchmean; PyTorch F.kl_div, autograd backward)", f"{M}x{V}", dt, 2 * pred.numel() * 4,
             bwd, triton_bwd, lambda: eager(one), output_check(grad, ref_grad))
    del eager
    row_case(h, "kl_div_fwd_bwd (batchmean; PyTorch F.kl_div + autograd)", f"{M}x{V}", dt, 4 * pred.numel() * 4,
             in_order(fwd, bwd), triton_step, torch_step, output_check((total, grad), (ref_loss, ref_grad)))


def torch_jsd(log_q, log_p, beta):
    """Liger-Kernel's benchmark's TorchJSD without labels: beta KL(P || M) +
    (1 - beta) KL(Q || M), M = beta P + (1 - beta) Q, over the rows."""
    log_m = torch.log(torch.lerp(torch.exp(log_q), torch.exp(log_p), beta))

    def kl(log_t):
        return torch.nn.functional.kl_div(log_m, log_t, reduction="none", log_target=True).sum(dim=-1)
    return ((beta * kl(log_p) + (1 - beta) * kl(log_q)) / log_q.shape[0]).sum()


def jsd_reference(x, y, beta, chunk=1024):
    """(loss, dX) in float64 of the JSD over the rows of X = log Q, Y = log P."""
    loss, grads = 0.0, []
    for i in range(0, x.shape[0], chunk):
        xd, yd = x[i:i + chunk].double(), y[i:i + chunk].double()
        q, p = xd.exp(), yd.exp()
        log_m = (beta * p + (1 - beta) * q).log()
        loss = loss + (beta * p * (yd - log_m) + (1 - beta) * q * (xd - log_m)).sum()
        grads.append((1 - beta) * q * (xd - log_m) / x.shape[0])
    return (loss / x.shape[0]).reshape(1), torch.cat(grads)


def jsd_fwd_bwd(h, M=8192, V=32000, beta=0.5):
    """Generalized JSD (beta 0.5) forward and backward, f32: the loss and dX
    in one pass (the backward of every contender but PyTorch's is its
    forward's dX). blk: kernels/jsd.blk (one loss per row) and reduce.blk's
    sum_all; Triton: Liger-Kernel's _jsd_kernel at Liger's launch (one block
    of next_power_of_2(V) = 32768 columns, Triton's default 4 warps), which
    writes the loss of every element, then torch.sum of it; PyTorch: the
    TorchJSD of Liger's benchmark with autograd. Bytes: X and Y read, dX
    written."""
    dt = torch.float32
    x = torch.log_softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    y = torch.log_softmax(torch.randn(M, V, device="cuda", dtype=dt), dim=1)
    dx = torch.empty_like(x)
    rows = torch.empty(M, device="cuda", dtype=dt)
    total = torch.empty(1, device="cuda", dtype=dt)
    no_label = torch.zeros(1, device="cuda", dtype=torch.int64)
    elems = torch.empty_like(x)  # the Triton kernel's per-element loss
    blk_step = in_order(h.load("jsd.f32.s16", "jsd").prepare((M,), x, y, rows, dx, no_label, V, V, float(M), -100),
                        h.load("reduce", "sum_all").prepare((1,), rows, total, M, 1.0))
    block = min(65536, triton.next_power_of_2(V))

    def triton_step():
        tk.jsd_kernel[(M,)](x, y, elems, dx, V, M, V, BETA=beta, BLOCK=block, num_warps=4)
        return elems.sum(), dx

    def torch_step():
        lq = x.detach().requires_grad_()
        loss = torch_jsd(lq, y, beta)
        loss.backward()
        return loss.detach(), lq.grad

    row_case(h, "jsd_fwd_bwd (beta 0.5; PyTorch Liger's TorchJSD + autograd)", f"{M}x{V}", dt, 3 * x.numel() * 4,
             blk_step, triton_step, torch_step, output_check((total, dx), jsd_reference(x, y, beta)))


def hf_rope(q, k, cos, sin):
    """Hugging Face's apply_rotary_pos_emb (Llama) with its rotate_half: q, k
    [batch, heads, seq, hd], cos and sin [1 or batch, seq, hd]."""
    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def rope(h, shapes=((1, 2048), (1, 8192), (4, 4096)), n_qh=32, n_kh=8, hd=128):
    """RoPE forward and backward (dQ, dK from the outputs' gradients) at
    Liger-Kernel's benchmark shapes, bf16: 32 Q heads, 8 KV heads, head dim
    128, Q [batch, seq, heads, hd] and cos, sin [1, seq, hd] as Hugging
    Face's LlamaRotaryEmbedding builds them. blk (kernels/rope.blk) and
    Triton (Liger-Kernel's _triton_rope) rotate Q and K in place, one program
    per (batch, position) row, at 8 warps; PyTorch: Hugging Face's
    apply_rotary_pos_emb on [batch, heads, seq, hd] views (as Liger-Kernel's
    benchmark calls it), backward through autograd on a graph built before
    timing. Input sets rotate over at least 256 MiB of Q and K. Bytes: Q and
    K read and written, cos and sin read."""
    dt = torch.bfloat16
    variant = f"rope.{DT[dt]}.w8.spec"
    fwd_k, bwd_k = h.load(variant, "rope_forward"), h.load(variant, "rope_backward")
    pads = (triton.next_power_of_2(n_qh), triton.next_power_of_2(n_kh), triton.next_power_of_2(hd))
    for batch, seq in shapes:
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, hd, 2, device="cuda", dtype=torch.float32) / hd))
        freqs = torch.arange(seq, device="cuda", dtype=torch.float32)[:, None] * inv_freq[None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(dt)[None], emb.sin().to(dt)[None]
        qk_bytes = batch * seq * (n_qh + n_kh) * hd * 2
        sets = max(1, min(64, math.ceil(ROTATE_BYTES / qk_bytes)))
        nbytes = 2 * qk_bytes + 2 * cos.numel() * 2
        shape = f"{batch}x{seq}, {n_qh}+{n_kh} heads, D={hd}"
        grid = (batch * seq,)

        def bhsd(t):  # [batch, seq, heads, hd] storage as the [batch, heads, seq, hd] view PyTorch's models use
            return t.transpose(1, 2)

        def ref_fwd(q, k):  # float64, [batch, seq, heads, hd]
            return tuple(bhsd(t) for t in hf_rope(bhsd(q.double()), bhsd(k.double()), cos.double(), sin.double()))

        for backward in (False, True):
            qs = [torch.randn(batch, seq, n_qh, hd, device="cuda", dtype=dt) for _ in range(sets)]
            ks = [torch.randn(batch, seq, n_kh, hd, device="cuda", dtype=dt) for _ in range(sets)]
            q0, k0 = qs[0].clone(), ks[0].clone()
            k_blk = bwd_k if backward else fwd_k
            blk_fns = [k_blk.prepare(grid, q, q.stride(1), k, k.stride(1), cos, cos.stride(1), sin, sin.stride(1),
                                     seq, cos.shape[0], n_qh, n_kh, hd) for q, k in zip(qs, ks)]
            tri_fns = [lambda q=q, k=k: tk.rope_kernel[grid](
                q, q.stride(1), k, k.stride(1), cos, cos.stride(1), sin, sin.stride(1), seq, cos.shape[0],
                n_qh, n_kh, hd, *pads, BACKWARD_PASS=backward, num_warps=8) for q, k in zip(qs, ks)]
            if backward:
                # dQ, dK: the transpose of the rotation applied to the outputs' gradients (qs, ks here).
                qd = torch.zeros(batch, seq, n_qh, hd, device="cuda", dtype=torch.float64, requires_grad=True)
                kd = torch.zeros(batch, seq, n_kh, hd, device="cuda", dtype=torch.float64, requires_grad=True)
                ref = tuple(torch.autograd.grad(ref_fwd(qd, kd), (qd, kd), (q0.double(), k0.double())))
                del qd, kd
                eager = EagerBackward(lambda q, k: tuple(bhsd(t) for t in hf_rope(bhsd(q), bhsd(k), cos, sin)),
                                      (q0, k0))
                torch_fns = [lambda q=q, k=k: eager(q, k) for q, k in zip(qs, ks)]
                case = "rope_bwd (PyTorch HF apply_rotary_pos_emb, autograd backward)"
            else:
                ref = ref_fwd(q0, k0)
                torch_fns = [lambda q=q, k=k: tuple(bhsd(t) for t in hf_rope(bhsd(q), bhsd(k), cos, sin))
                             for q, k in zip(qs, ks)]
                case = "rope_fwd (PyTorch HF apply_rotary_pos_emb)"

            def check(key, fn, qs=qs, ks=ks, q0=q0, k0=k0, ref=ref):
                # blk and Triton rotate set 0 in place (timing rotated it
                # before): restored first. PyTorch returns new tensors.
                qs[0].copy_(q0)
                ks[0].copy_(k0)
                got = _tensors(fn())
                torch.cuda.synchronize()
                got = got if got is not None else (qs[0], ks[0])
                return max(rel_err(g, r) for g, r in zip(got, ref)) if len(got) == len(ref) else math.inf

            h.record(case, shape, dt, None, nbytes, blk_fns, lambda tri_fns=tri_fns: tri_fns, torch_fns,
                     check=check)
            del qs, ks, q0, k0, ref, blk_fns, tri_fns, torch_fns, check
            if backward:
                del eager


def transposes(h):
    """f32 8192x8192 transposes, as test/kernels/block_ops.blk writes them:
    `transpose` loads row-major tiles and moves them with `trans`;
    `transpose_by_load` loads column-major tiles (blk-coalesce gives that
    load its own layout). Both move every element through shared memory once."""
    M, N, dt = 8192, 8192, torch.float32
    x = torch.randn(M, N, device="cuda", dtype=dt)
    out = torch.empty(N, M, device="cuda", dtype=dt)
    ref = x.t().double()
    for kernel, grid, tri in (("transpose", M // 32, tk.transpose_kernel),
                              ("transpose_by_load", N // 64, tk.transpose_by_load_kernel)):
        fn = h.load("block_ops.s16", kernel).prepare((grid,), x, out, M, N)
        row_case(h, f"{kernel} f32", f"{M}x{N}", dt, 2 * x.numel() * 4, fn,
                 lambda tri=tri, grid=grid: tri[(grid,)](x, out, M, N, BLOCK_R=32, BLOCK_C=64, num_warps=4),
                 lambda: x.t().contiguous(), output_check(out, ref))
    del x, out, ref


def report_tflops(row, label, flops):
    """A timed matmul row in TFLOP/s for blk, Triton and cuBLAS, printed."""
    if not row.get("blk_us"):
        return
    row["rate"] = flops / row["blk_us"] / 1e6
    row["unit"] = "TFLOP/s"
    tf = lambda key: flops / row[key] / 1e6 if row.get(key) else None  # noqa: E731
    row["triton_tflops"] = tf("triton_us")
    row["torch_tflops"] = tf("torch_us")
    print(f"{label}: blk {row['rate']:.0f}, Triton {fmt(row['triton_tflops'], '{:.0f}')}, "
          f"cuBLAS {fmt(row['torch_tflops'], '{:.0f}')} TFLOP/s", flush=True)


def first_rows(out, ref):
    """A matmul's check: every element finite, the rows `ref` has against it."""
    return rel_err(out[:ref.shape[0]], ref) if torch.isfinite(out).all() else math.inf


def tma_fallback():
    """Why Triton's tensor-descriptor matmul cannot run with this Triton, or None."""
    if not tk.HAS_TENSOR_DESCRIPTOR:
        return f"Triton {triton.__version__} has no tl.make_tensor_descriptor"
    if not hasattr(triton, "set_allocator"):
        return f"Triton {triton.__version__} has no triton.set_allocator"
    return None


def matmuls(h):
    """C = A @ B at 4096^3 and 8192^3 in bf16 and f16 (f32 accumulation):
    kernels/matmul.blk's specialized variant, Triton's tutorial schedule at
    the anchors' config (128x256x64, 8 warps, 3 stages; pointer loads beside
    the `matmul` rows, tensor descriptors beside the `matmul_tma` rows) and
    cuBLAS."""
    no_tma = tma_fallback()
    if no_tma is None:
        # Device-side tensor descriptors live in a global scratch buffer that
        # Triton asks the allocator for at each launch.
        triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    else:
        print(f"matmul_tma rows: {no_tma}; Triton's pointer matmul stands beside them instead", flush=True)
    for dt in (torch.bfloat16, torch.float16):
        for n in (4096, 8192):
            a = torch.randn(n, n, device="cuda", dtype=dt)
            b = torch.randn(n, n, device="cuda", dtype=dt)
            c = torch.empty(n, n, device="cuda", dtype=dt)
            t = DT[dt]
            # BLK_MATMUL_CONFIG=BM.BN.BK.wW.stS picks another compiled variant.
            config = os.environ.get("BLK_MATMUL_CONFIG", "128.256.64.w8.st3")
            bm, bn = (int(v) for v in config.split(".")[:2])
            tgrid = (triton.cdiv(n, 128) * triton.cdiv(n, 256),)
            tri = lambda: [lambda: tk.matmul_kernel[tgrid](
                a, b, c, n, n, n, n, 1, n, 1, n, 1, BM=128, BN=256, BK=64, GROUP=8, num_warps=8, num_stages=3)]
            tri_tma = lambda: [lambda: tk.matmul_tma_kernel[tgrid](
                a, b, c, n, n, n, n, n, n, BM=128, BN=256, BK=64, GROUP=8, num_warps=8, num_stages=3)]
            ref = a.double() @ b.double() if n == 4096 else a[:256].double() @ b.double()
            flops = 2 * n ** 3
            grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
            # The pointer form, then the same product through tensor descriptors
            # (TMA on sm_90a), each beside Triton's kernel of the same form.
            for name, fn, anchor in (
                    (f"matmul {t}", h.load(f"matmul.{t}.{t}.{config}.spec", "matmul").prepare(
                        grid, a, b, c, n, n, n, n, 1, n, 1, n, 1), tri),
                    (f"matmul_tma {t}" + (" (Triton: pointer matmul, no tensor descriptors)" if no_tma else ""),
                     h.load(f"matmul.{t}.{t}.{config}.spec", "matmul_tma").prepare(grid, a, b, c, n, n, n, n, n, n),
                     tri if no_tma else tri_tma)):
                row = h.record(name, f"{n}^3", dt, None, 0, [fn], anchor, [lambda: torch.matmul(a, b)], rounds=7,
                               settle=True, check=output_check(c, ref, first_rows))
                report_tflops(row, f"{name} {n}^3", flops)
            if no_tma is None:
                persistent_matmul(h, a, b, c, n, dt, ref, flops)
            del a, b, c, ref
    try:
        fp8_matmul(h)
        fp8_scaled_matmul(h)
    except BlkError:
        raise
    except Exception as e:  # an older torch or Triton without fp8: the bf16/f16 rows stand
        print(f"matmul f8e4m3: skipped ({type(e).__name__}: {e})", flush=True)


def persistent_matmul(h, a, b, c, n, dt, ref, flops):
    """kernels/matmul.blk's matmul_tma_persistent (one program per SM walking
    the tiles, a producer warpgroup issuing the copies of every tile it walks)
    beside Triton's persistent tutorial form on the same source and tiles
    (`tl.range(..., flatten=True, warp_specialize=True)`, which Triton 3.6
    accepts on Hopper but compiles without producer warps; without the
    keyword where this Triton refuses it, as the row says) and cuBLAS. BLK_PERSISTENT_CONFIG=BM.BN.BK.SMS.wW.stS[.True] picks
    another compiled variant (.True: warp-specialized)."""
    t = DT[dt]
    config = os.environ.get("BLK_PERSISTENT_CONFIG", "128.256.64.132.w8.st3.True")
    bm, bn, bk, sms = (int(v) for v in config.split(".")[:4])
    warps, stages = int(config.split(".")[4][1:]), int(config.split(".")[5][2:])
    tiles = triton.cdiv(n, bm) * triton.cdiv(n, bn)
    grid = (min(sms, tiles),)
    fn = h.load(f"matmul.{t}.{t}.{config}.spec", "matmul_tma_persistent").prepare(grid, a, b, c, n, n, n, n, n, n)
    tri_ws = True
    try:
        tk.matmul_tma_persistent_kernel[grid](a, b, c, n, n, n, n, n, n, BM=bm, BN=bn, BK=bk, GROUP=8, NUM_SMS=sms,
                                              WARP_SPECIALIZE=True, num_warps=warps, num_stages=stages)
    except Exception as e:  # this Triton warp-specializes only on other GPUs
        print(f"Triton persistent matmul without warp specialization ({type(e).__name__})", flush=True)
        tri_ws = False
    tri = lambda: [lambda: tk.matmul_tma_persistent_kernel[grid](
        a, b, c, n, n, n, n, n, n, BM=bm, BN=bn, BK=bk, GROUP=8, NUM_SMS=sms, WARP_SPECIALIZE=tri_ws,
        num_warps=warps, num_stages=stages)]
    name = f"matmul_tma_persistent {t}" + ("" if tri_ws else " (Triton: not warp-specialized)")
    row = h.record(name, f"{n}^3", dt, None, 0, [fn], tri, [lambda: torch.matmul(a, b)], rounds=7,
                   settle=True, check=output_check(c, ref, first_rows))
    report_tflops(row, f"{name} {n}^3", flops)


# The forward's schedule: a producer warpgroup issuing the copies ("ws", the
# default: as fast as "rel" without the causal mask and faster with it,
# docs/performance.md) or slots released on mbarriers ("rel"), as
# test/kernels/attention_forward_wide.blk's variants name them.
ATTENTION_SCHEDULE = os.environ.get("BLK_ATTENTION_SCHEDULE", "ws")


def attention(h, batch=4, heads=32, seq=4096, d=128):
    """Attention forward (bf16, B=4 H=32 S=4096 D=128, causal and not):
    kernels/attention.blk's forward at 128x128 (8 warps, 3 stages, a
    producer warpgroup issuing the TMA copies (ATTENTION_SCHEDULE): the best
    of bench/attention_tiles.py's tilings for both compilers;
    test/kernels/attention_forward_wide.blk), the same
    source
    in Triton (bench/triton_kernels.py) at the same tiling, and
    PyTorch SDPA's cuDNN and flash backends. Every output is checked against
    float64 on the first two heads before it is timed."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dt = torch.bfloat16
    q = torch.randn(batch, heads, seq, d, device="cuda", dtype=dt)
    k = torch.randn(batch, heads, seq, d, device="cuda", dtype=dt)
    v = torch.randn(batch, heads, seq, d, device="cuda", dtype=dt)
    o = torch.empty_like(q)
    lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
    scale = d ** -0.5
    bm, bn = 128, 128
    grid = (triton.cdiv(seq, bm), batch * heads)
    strides = [*q.stride()[:3], *k.stride()[:3], *v.stride()[:3], *o.stride()[:3]]

    def reference(causal):
        qd, kd, vd = (x[0, :2].double() for x in (q, k, v))
        s = qd @ kd.transpose(-1, -2) * scale
        if causal:
            s = s.masked_fill(torch.ones(seq, seq, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
        return torch.softmax(s, -1) @ vd

    def heads_err(out, ref):
        return rel_err(out[0, :2], ref)

    for causal in (False, True):
        # BLK_ATTENTION_SCHEDULE=ws: the variant with a producer warpgroup.
        name = f"attention_forward_wide.bf16.128.128.128{'.True' if causal else ''}.w8.st3.{ATTENTION_SCHEDULE}.spec"
        fn = h.load(name, "attention_forward").prepare(grid, q, k, v, o, lse, scale, seq, seq, heads, 1, *strides)
        tri = lambda: [lambda: tk.attention_forward_kernel[grid](
            q, k, v, o, lse, scale, seq, seq, heads, 1, *strides, D=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
            num_warps=8, num_stages=3)]

        def sdpa(backend):
            def run():
                with sdpa_kernel(backend):
                    return torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
            return run
        cudnn, flash = sdpa(SDPBackend.CUDNN_ATTENTION), sdpa(SDPBackend.FLASH_ATTENTION)
        compiled = tri()[0]()  # Triton's compiled kernel: its register use beside blk's (ptxas -v)
        print(f"Triton attention{' causal' if causal else ''}: {compiled.n_regs} registers, "
              f"{compiled.n_spills} spills", flush=True)
        label = f"attention fwd{' causal' if causal else ''}"
        ref = reference(causal)
        row = h.record(f"{label} bf16", f"{batch}x{heads}x{seq}x{d}", dt, None, 0, [fn], tri, [cudnn], rounds=5,
                       settle=True, check=output_check(o, ref, heads_err), extra={"flash_us": [flash]})
        del ref
        flops = 4 * batch * heads * seq * seq * d / (2 if causal else 1)
        tf = lambda key: fmt(flops / row[key] / 1e6 if row.get(key) else None, "{:.0f}")  # noqa: E731
        if row.get("blk_us"):
            row["rate"] = flops / row["blk_us"] / 1e6
            row["unit"] = "TFLOP/s"
            print(f"{label} {batch}x{heads}x{seq}x{d} bf16: blk {row['rate']:.0f}, Triton (same source) "
                  f"{tf('triton_us')}, SDPA cuDNN {tf('torch_us')}, SDPA flash {tf('flash_us')} TFLOP/s "
                  f"(rel err {row['rel_err']:.1e})", flush=True)
        else:
            print(f"{label}: {row['status']}", flush=True)


def attention_fwd_bwd(h, batch=4, heads=32, seq=4096, d=128):
    """Attention forward + backward (bf16, B=4 H=32 S=4096 D=128, causal and
    not): kernels/attention.blk's forward at 128x128 (as the forward rows run
    it), backward preprocess, dK/dV and dQ kernels at the 128x64 variant, the
    same source and tilings in Triton, and SDPA's cuDNN
    backend with torch.autograd's backward. FLOPs: the forward's 4*B*H*S^2*D
    (half when causal) plus 2.5x that for the backward (five products of the
    forward's two sizes). dQ, dK and dV of every contender are checked against
    float64 gradients on the first two heads before timing."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    dt = torch.bfloat16
    q, k, v, do = (torch.randn(batch, heads, seq, d, device="cuda", dtype=dt) for _ in range(4))
    o, dq, dk, dv = (torch.empty_like(q) for _ in range(4))
    lse = torch.empty(batch * heads, seq, device="cuda", dtype=torch.float32)
    delta = torch.empty_like(lse)
    scale = d ** -0.5
    bm, bn = 128, 64
    gq, gk = (triton.cdiv(seq, bm), batch * heads), (triton.cdiv(seq, bm), batch * heads)
    st = lambda x: list(x.stride()[:3])  # noqa: E731
    fwd_args = [q, k, v, o, lse, scale, seq, seq, heads, 1, *st(q), *st(k), *st(v), *st(o)]
    pre_args = [o, do, delta, seq, heads, *st(o), *st(do)]
    dkdv_args = [q, k, v, do, lse, delta, dk, dv, scale, seq, seq, heads, 1,
                 *st(q), *st(k), *st(v), *st(do), *st(dk), *st(dv)]
    dq_args = [q, k, v, do, lse, delta, dq, scale, seq, seq, heads, 1, *st(q), *st(k), *st(v), *st(do), *st(dq)]

    def reference(causal):  # float64 gradients of batch 0, heads 0 and 1
        qd, kd, vd, dod = (x[0, :2].double() for x in (q, k, v, do))
        s = qd @ kd.transpose(-1, -2) * scale
        if causal:
            s = s.masked_fill(torch.ones(seq, seq, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
        p = torch.softmax(s, -1)
        ds = p * (dod @ vd.transpose(-1, -2) - (dod * (p @ vd)).sum(-1, keepdim=True))
        return ds @ kd * scale, ds.transpose(-1, -2) @ qd * scale, p.transpose(-1, -2) @ dod

    def heads_err(g, r):
        return rel_err(g[0, :2], r)

    for causal in (False, True):
        ref = reference(causal)
        name = f"attention.bf16.128.128.64{'.True' if causal else ''}.w8.st3.spec"
        wide = f"attention_forward_wide.bf16.128.128.128{'.True' if causal else ''}.w8.st3.{ATTENTION_SCHEDULE}.spec"
        launches = [h.load(wide, "attention_forward").prepare(gq, *fwd_args),
                    h.load(name, "attention_backward_preprocess").prepare(gq, *pre_args),
                    h.load(name, "attention_backward_dkdv").prepare(gk, *dkdv_args),
                    h.load(name, "attention_backward_dq").prepare(gq, *dq_args)]

        def blk_step():
            for f in launches:
                f()

        kw = dict(D=d, BLOCK_M=bm, BLOCK_N=bn, num_warps=8, num_stages=3)

        def triton_step():
            tk.attention_forward_kernel[gq](*fwd_args, CAUSAL=causal, **{**kw, "BLOCK_N": 128})
            tk.attention_backward_preprocess_kernel[gq](*pre_args, D=d, BLOCK_M=bm, num_warps=8)
            tk.attention_backward_dkdv_kernel[gk](*dkdv_args, CAUSAL=causal, **kw)
            tk.attention_backward_dq_kernel[gq](*dq_args, CAUSAL=causal, **kw)

        qg, kg, vg = (x.detach().clone().requires_grad_() for x in (q, k, v))

        def cudnn_step():
            qg.grad = kg.grad = vg.grad = None
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                out = torch.nn.functional.scaled_dot_product_attention(qg, kg, vg, is_causal=causal, scale=scale)
            out.backward(do)
            return qg.grad, kg.grad, vg.grad

        label = f"attention fwd+bwd{' causal' if causal else ''}"
        row = h.record(f"{label} bf16", f"{batch}x{heads}x{seq}x{d}", dt, None, 0, [blk_step], lambda: [triton_step],
                       [cudnn_step], rounds=3, settle=True, check=output_check((dq, dk, dv), ref, heads_err))
        flops = 3.5 * 4 * batch * heads * seq * seq * d / (2 if causal else 1)
        tf = lambda key: fmt(flops / row[key] / 1e6 if row.get(key) else None, "{:.0f}")  # noqa: E731
        if row.get("blk_us"):
            row["flops"] = "forward 4*B*H*S^2*D (/2 causal), backward 2.5x the forward"
            row["rate"] = flops / row["blk_us"] / 1e6
            row["unit"] = "TFLOP/s"
            print(f"{label} {batch}x{heads}x{seq}x{d} bf16 (FLOPs: forward 4BHS^2D, backward 2.5x): "
                  f"blk {row['rate']:.0f}, Triton (same source) {tf('triton_us')}, "
                  f"SDPA cuDNN {tf('torch_us')} TFLOP/s (rel err {row['rel_err']:.1e})", flush=True)
        else:
            print(f"{label}: {row['status']}", flush=True)
        del ref


def layout_stress(h, elems=1 << 24):
    """The layout-stress set (test/kernels/layout_stress.blk and counting.blk
    against the same sources in Triton, bench/triton_kernels.py): scans along
    each axis of [1024, 16], [16, 1024] and [128, 128] tiles, column sums,
    blocks of different shapes broadcast together, sums of tiles read through
    strides (column-major) and stored row-major, a one-program chunked
    exclusive scan and a counting-sort rank. Every output is checked
    (integers exactly, floats in float64) before it is timed, PyTorch's
    (`cumsum`, `sum`, a stable `sort`: other algorithms) as what it computes."""
    def data(dt, n):
        if dt == torch.int32:
            return torch.randint(-1000, 1000, (n,), device="cuda", dtype=dt)
        return torch.randn(n, device="cuda", dtype=dt)

    for dt in (torch.int32, torch.float32):
        t = DT[dt]
        x = data(dt, elems)
        y = torch.empty_like(x)
        acc = torch.int64 if dt == torch.int32 else torch.float64
        for r, c in ((1024, 16), (16, 1024), (128, 128)):
            ptx = f"layout_stress.{t}.{r}.{c}.st3"
            tiles = x.view(-1, r, c)
            grid = (elems // (r * c),)
            for axis, name, tri in ((0, "scan_axis0", tk.scan_axis0_kernel), (1, "scan_axis1", tk.scan_axis1_kernel)):
                fn = h.load(ptx, name).prepare(grid, x, y)
                ref = torch.cumsum(tiles.to(acc), dim=axis + 1).reshape(-1)
                h.record(f"layout {name} {t}", f"{r}x{c} tiles, {elems} elems", dt, None, 2 * x.numel() * 4, [fn],
                         lambda tri=tri, r=r, c=c, grid=grid: [lambda: tri[grid](x, y, R=r, C=c, num_warps=4)],
                         [lambda axis=axis, tiles=tiles: torch.cumsum(tiles, dim=axis + 1)],
                         check=output_check(y, ref, exact_or_rel_err))
                del ref
            u = data(dt, elems // c)
            v = data(dt, c)
            fn = h.load(ptx, "broadcast_mix").prepare(grid, x, u, v, y)
            xd = tiles.to(acc)
            ref = (xd * u.to(acc).view(-1, r, 1) + v.to(acc).view(1, 1, c) + xd.sum(2, keepdim=True)).reshape(-1)
            del xd
            h.record(f"layout broadcast_mix {t}", f"{r}x{c} tiles, {elems} elems", dt, None, 2 * x.numel() * 4, [fn],
                     lambda r=r, c=c, grid=grid, u=u, v=v: [
                         lambda: tk.broadcast_mix_kernel[grid](x, u, v, y, R=r, C=c, num_warps=4)],
                     [lambda tiles=tiles, u=u, v=v, r=r, c=c: tiles * u.view(-1, r, 1) + v.view(1, 1, c)
                      + tiles.sum(2, keepdim=True)],
                     check=output_check(y, ref, exact_or_rel_err))
            del ref
            # sums of S column-major [r, c] matrices per program, stored row-major
            s_per = 8
            sums = torch.empty(elems // s_per, device="cuda", dtype=dt)
            fn = h.load(ptx, "transposed_sum").prepare((elems // (r * c * s_per),), x, sums, s_per)
            ref = x.view(-1, s_per, c, r).to(acc).sum(1).transpose(1, 2).reshape(-1)
            h.record(f"layout transposed_sum {t}", f"{s_per} {r}x{c} column-major tiles a program, {elems} elems",
                     dt, None, (x.numel() + sums.numel()) * 4, [fn],
                     lambda r=r, c=c, sums=sums, s_per=s_per: [lambda: tk.transposed_sum_kernel[
                         (elems // (r * c * s_per),)](x, sums, s_per, R=r, C=c, num_warps=4)],
                     [lambda r=r, c=c, s_per=s_per: x.view(-1, s_per, c, r).sum(1).transpose(1, 2).contiguous()],
                     check=output_check(sums, ref, exact_or_rel_err))
            del ref, sums
            if c != 1024:  # column sums of an [elems / 4096, 4096] matrix, C columns per program
                rows, width = elems // 4096, 4096
                out = torch.empty(width, device="cuda", dtype=dt)
                fn = h.load(ptx, "column_sums").prepare((width // c,), x, out, rows)
                ref = x.view(rows, width).to(acc).sum(0)
                h.record(f"layout column_sums {t}", f"{rows}x{width}, {r}x{c} blocks", dt, None, x.numel() * 4, [fn],
                         lambda r=r, c=c, out=out, rows=rows: [lambda: tk.column_sums_kernel[(width // c,)](
                             x, out, rows, R=r, C=c, num_warps=4)],
                         [lambda rows=rows: x.view(rows, width).sum(0)],
                         check=output_check(out, ref, exact_or_rel_err))
                del ref
        del x, y

    keys = torch.randint(0, 1 << 30, (elems,), device="cuda", dtype=torch.int32)
    rank = torch.empty_like(keys)
    n = 1024
    fn = h.load("counting", "digit_rank").prepare((elems // n,), keys, rank, 4)
    digits = ((keys >> 4) & 15).view(-1, n).long()
    # Stable rank within each block: the sort's inverse permutation (what
    # PyTorch's stable sort returns as indices, checked as such).
    order = torch.sort(digits * n + torch.arange(n, device="cuda"), dim=1).indices
    ref = torch.empty_like(order).scatter_(1, order, torch.arange(n, device="cuda").expand_as(order)).reshape(-1)
    h.record("layout digit_rank i32", f"{elems} keys, {n} per block", torch.int32, None, 2 * keys.numel() * 4, [fn],
             lambda: [lambda: tk.digit_rank_kernel[(elems // n,)](keys, rank, 4, N=n, num_warps=4)],
             [lambda: torch.sort(digits, dim=1, stable=True).indices],
             check=output_check(rank, lambda key: order if key == "torch_us" else ref, exact_or_rel_err))
    del keys, rank, digits, order, ref

    n = 1 << 20
    x = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32)
    y = torch.empty_like(x)
    fn = h.load("counting.n16", "exclusive_scan").prepare((1,), x, y, n)
    ref = torch.cumsum(x.long(), 0) - x.long()
    # PyTorch's cumsum is inclusive: checked against the inclusive scan.
    h.record("layout exclusive_scan i32", f"{n}, one program, 4096-element chunks", torch.int32, None,
             2 * n * 4, [fn], lambda: [lambda: tk.exclusive_scan_kernel[(1,)](x, y, n, CHUNK=4096, num_warps=4)],
             [lambda: torch.cumsum(x, 0)],
             check=output_check(y, lambda key: ref + x.long() if key == "torch_us" else ref, exact_or_rel_err))
    for row in h.rows:
        if row["case"].startswith("layout "):
            tri = row.get("triton_us")
            ratio = f"{row['blk_us'] / tri:.2f}x Triton's time" if row.get("blk_us") and tri else row["status"]
            print(f"{row['case']} {row['shape']}: blk {fmt(row.get('blk_us'))} us, Triton {fmt(tri)} us ({ratio})",
                  flush=True)



def blocks_3d(h, elems=1 << 24):
    """Blocks of three dimensions (test/kernels/blocks_3d.blk against the same
    sources in Triton): reductions and scans along each axis of [A, B, C]
    tiles, permutations with join, split and interleave, group-wise scales
    through a reshape to [R, W / G, G], and a product of broadcast tiles
    summed along an axis (PyTorch: torch.matmul; no Triton anchor, since
    Triton computes that sum as a TF32 dot). Outputs checked before
    timing."""
    def data(dt, n):
        if dt == torch.int32:
            return torch.randint(-1000, 1000, (n,), device="cuda", dtype=dt)
        return torch.randn(n, device="cuda", dtype=dt)

    for dt, (a, b, c) in ((torch.float32, (4, 8, 32)), (torch.int32, (4, 8, 32)), (torch.float32, (16, 16, 4)),
                          (torch.int32, (2, 8, 64))):
        t = DT[dt]
        shaped = (a, b, c) != (4, 8, 32)
        ptx = f"blocks_3d.{t}" + (f".{a}.{b}.{c}" if shaped else "") + ".n16"
        acc = torch.int64 if dt == torch.int32 else torch.float64
        x = data(dt, elems)
        p = elems // (a * b * c)
        tiles = x.view(p, a, b, c)
        tiles_acc = tiles.to(acc)
        tile = f"[{a}, {b}, {c}] tiles, {elems} elems"

        s0, m1 = torch.empty(p * b * c, device="cuda", dtype=dt), torch.empty(p * a * c, device="cuda", dtype=dt)
        s2, s12 = torch.empty(p * a * b, device="cuda", dtype=dt), torch.empty(p * a, device="cuda", dtype=dt)
        outs = (s0, m1, s2, s12)
        fn = h.load(ptx, "reduce3").prepare((p,), x, *outs, elems)
        refs = (tiles_acc.sum(1).reshape(-1), tiles_acc.amax(2).reshape(-1), tiles_acc.sum(3).reshape(-1),
                tiles_acc.sum((2, 3)).reshape(-1))
        h.record(f"layout3d reduce3 {t}", tile, dt, None, x.numel() * 4 + sum(o.numel() for o in outs) * 4, [fn],
                 lambda a=a, b=b, c=c, p=p, outs=outs: [
                     lambda: tk.reduce3_kernel[(p,)](x, *outs, elems, A=a, B=b, C=c, num_warps=4)],
                 [lambda tiles=tiles: (tiles.sum(1), tiles.amax(2), tiles.sum(3), tiles.sum((2, 3)))],
                 check=output_check(outs, refs, exact_or_rel_err))
        del refs

        ys = tuple(torch.empty_like(x) for _ in range(3))
        fn = h.load(ptx, "scan3").prepare((p,), x, *ys, elems)
        refs = (torch.cumsum(tiles_acc, 1).reshape(-1), torch.cumsum(tiles_acc, 2).reshape(-1),
                torch.cumsum(tiles_acc.flip(3), 3).flip(3).reshape(-1))
        h.record(f"layout3d scan3 {t}", tile, dt, None, 4 * x.numel() * 4, [fn],
                 lambda a=a, b=b, c=c, p=p, ys=ys: [
                     lambda: tk.scan3_kernel[(p,)](x, *ys, elems, A=a, B=b, C=c, num_warps=4)],
                 [lambda tiles=tiles: (torch.cumsum(tiles, 1), torch.cumsum(tiles, 2),
                                       torch.cumsum(tiles.flip(3), 3).flip(3))],
                 check=output_check(ys, refs, exact_or_rel_err))
        del refs, ys

        pq = (torch.empty_like(x), torch.empty_like(x))
        j, i = torch.empty(2 * elems, device="cuda", dtype=dt), torch.empty(2 * elems, device="cuda", dtype=dt)
        e, o = torch.empty(elems // 2, device="cuda", dtype=dt), torch.empty(elems // 2, device="cuda", dtype=dt)
        outs = (*pq, j, e, o, i)
        fn = h.load(ptx, "moves3").prepare((p,), x, *outs, elems)
        joined = torch.stack((x, -x), 1).reshape(-1)
        refs = (tiles.permute(0, 3, 1, 2).reshape(-1), tiles.permute(0, 2, 1, 3).reshape(-1), joined, x[0::2],
                x[1::2], joined)
        h.record(f"layout3d moves3 {t}", tile, dt, None, (2 * x.numel() + sum(o.numel() for o in outs)) * 4, [fn],
                 lambda a=a, b=b, c=c, p=p, outs=outs: [
                     lambda: tk.moves3_kernel[(p,)](x, *outs, elems, A=a, B=b, C=c, num_warps=4)],
                 [lambda tiles=tiles: (tiles.permute(0, 3, 1, 2).contiguous(), tiles.permute(0, 2, 1, 3).contiguous(),
                                       torch.stack((x, -x), 1), x[0::2].contiguous(), x[1::2].contiguous(),
                                       torch.stack((x, -x), 1))],
                 check=output_check(outs, refs, exact_or_rel_err))
        del refs, joined, outs, pq, j, i, e, o

        if not shaped:  # group_scale does not use the tile
            rows, w, g = elems // 128, 128, 32
            q, sc = torch.empty(elems, device="cuda"), torch.empty(rows * (w // g), device="cuda")
            fn = h.load(ptx, "group_scale").prepare(((rows + 31) // 32,), x, q, sc, rows)
            groups = x.view(rows, w // g, g).double()
            scale = groups.abs().amax(2) / 127.0 + 1e-6
            refs = ((groups / scale[:, :, None]).reshape(-1), scale.reshape(-1))
            del groups, scale

            def torch_scale(x=x, rows=rows, w=w, g=g):
                groups = x.view(rows, w // g, g).float()
                scale = groups.abs().amax(2) / 127.0 + 1e-6
                return groups / scale[:, :, None], scale

            h.record(f"layout3d group_scale {t}", f"{rows}x{w}, groups of {g}", dt, None,
                     x.numel() * 4 + q.numel() * 4 + sc.numel() * 4, [fn],
                     lambda rows=rows, q=q, sc=sc: [lambda: tk.group_scale_kernel[((rows + 31) // 32,)](
                         x, q, sc, rows, R=32, W=128, G=32, num_warps=4)],
                     [torch_scale], check=output_check((q, sc), refs, exact_or_rel_err))
            del refs, q, sc

            # A product on CUDA cores: [16, 8] tiles of X times [8, 16] tiles
            # of Y broadcast to [16, 8, 16] and summed along the middle axis.
            if dt == torch.float32:
                m = nn = kk = 1024
                xm, ym = torch.randn(m, kk, device="cuda"), torch.randn(kk, nn, device="cuda")
                z = torch.empty(m, nn, device="cuda")
                grid = (m // 16, nn // 16)
                fn = h.load(ptx, "broadcast_product").prepare(grid, xm, ym, z, m, nn, kk)
                refs = (xm.double() @ ym.double(),)
                # No Triton anchor: Triton rewrites the sum of the broadcast
                # product into a TF32 tensor-core dot (relative error 7.7e-4
                # on an H100, outside f32's 1e-5), a different computation.
                h.record("layout3d broadcast_product f32", f"{m}x{nn}x{kk}, [16, 8, 16] products", dt, None,
                         (m * kk + kk * nn + m * nn) * 4, [fn], lambda: [],
                         [lambda xm=xm, ym=ym: xm @ ym], check=output_check((z,), refs, exact_or_rel_err))
                del refs, xm, ym, z
        del x, tiles, tiles_acc

def dot_stress(h, n=4096):
    """The dot-stress set (test/kernels/dot_stress.blk against the same
    sources in Triton, bench/triton_kernels.py): tensor-core products written
    as research kernels write them, bf16 with f32 accumulation, blk's `.spec`
    variant and Triton at the same tiling (128x128x64, 8 warps, 3 stages;
    decode: 16-row tiles, 4 warps, 3 stages). A matmul whose A rows are
    gathered through an index (8192 rows, with repeats, of a 16384-row X),
    one whose B is dequantized from int8 with per-column scales in
    registers, C = A^T B with A stored [K, M], and Triton's block-pointer
    matmul (make_block_ptr, advance; f32 C): TFLOP/s beside
    torch.matmul on operands gathered, dequantized or transposed (a view)
    before timing. Decode attention over a paged KV cache: batch 64, 32
    query heads on 8 KV heads (4 per KV head, padded to the 16-row tile),
    context 4096 in pages of 64 tokens handed out in a random order, D=128:
    GB/s of K and V read (and Q and O), beside SDPA on K/V gathered into dense tensors
    before timing. Every output is checked against float64 first."""
    dt = torch.bfloat16
    config, bm, bn, bk = "128.128.64.w8.st3", 128, 128, 64
    mm = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=8, num_stages=3)
    flops = 2 * n ** 3

    def matmul_row(name, shape, fn, tri, anchor, out, ref, flops):
        row = h.record(f"dots {name}", shape, dt, None, 0, [fn], tri, [anchor], rounds=7, settle=True,
                       check=output_check(out, ref))
        report_tflops(row, f"dots {name} {shape}", flops)

    # Gathered rows: C[i] = X[idx[i]] @ W.
    rows_x, m = 4 * n, 2 * n
    x = torch.randn(rows_x, n, device="cuda", dtype=dt)
    idx = torch.randint(0, rows_x, (m,), device="cuda", dtype=torch.int32)
    w = torch.randn(n, n, device="cuda", dtype=dt)
    c = torch.empty(m, n, device="cuda", dtype=dt)
    xg = x[idx.long()]  # PyTorch's operand, gathered before timing
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    args = (x, idx, w, c, m, n, n, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
    fn = h.load(f"dot_stress.{config}.spec", "gathered_matmul").prepare(grid, *args)
    matmul_row("gathered_matmul", f"{m}x{n}x{n}, rows of {rows_x}", fn,
               lambda: [lambda: tk.gathered_matmul_kernel[grid](*args, GROUP_M=8, **mm)],
               lambda: torch.matmul(xg, w), c, xg.double() @ w.double(), 2 * m * n * n)
    del x, idx, c, xg

    # B dequantized in registers: C = X @ bf16(WQ * scale).
    x = torch.randn(n, n, device="cuda", dtype=dt)
    wq = torch.randint(-127, 128, (n, n), device="cuda", dtype=torch.int8)
    scale = torch.rand(n, device="cuda", dtype=torch.float32) * 0.01 + 0.005
    c = torch.empty(n, n, device="cuda", dtype=dt)
    wd = (wq.float() * scale[None, :]).to(dt)  # the dequantized B, as the kernels round it
    grid = (triton.cdiv(n, bm), triton.cdiv(n, bn))
    args = (x, wq, scale, c, n, n, n, x.stride(0), x.stride(1), wq.stride(0), wq.stride(1), c.stride(0), c.stride(1))
    fn = h.load(f"dot_stress.{config}.spec", "dequant_matmul").prepare(grid, *args)
    matmul_row("dequant_matmul (int8 B, f32 column scales)", f"{n}^3", fn,
               lambda: [lambda: tk.dequant_matmul_kernel[grid](*args, **mm)],
               lambda: torch.matmul(x, wd), c, x.double() @ wd.double(), flops)
    del x, wq, scale, c, wd

    # A stored [K, M], read transposed through its strides.
    a = torch.randn(n, n, device="cuda", dtype=dt)
    b = torch.randn(n, n, device="cuda", dtype=dt)
    c = torch.empty(n, n, device="cuda", dtype=dt)
    grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
    args = (a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    fn = h.load(f"dot_stress.{config}.spec", "transposed_a_matmul").prepare(grid, *args)
    matmul_row("transposed_a_matmul (A stored [K, M])", f"{n}^3", fn,
               lambda: [lambda: tk.transposed_a_matmul_kernel[grid](*args, GROUP_M=8, **mm)],
               lambda: torch.matmul(a.t(), b), c, a.t().double() @ b.double(), flops)
    del a, b, c

    # Split-K by a runtime step: C (f32) zeroed, then the partial tiles added.
    sm, sk, split = n // 2, 4 * n, 4
    x = torch.randn(sm, sk, device="cuda", dtype=dt)
    w = torch.randn(sk, sm, device="cuda", dtype=dt)
    c = torch.zeros(sm, sm, device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(sm, bm) * triton.cdiv(sm, bn), split)
    args = (x, w, c, sm, sm, sk, split, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
    fn = h.load(f"dot_stress.{config}.spec", "split_k_matmul").prepare(grid, *args)

    def split_k_blk():
        c.zero_()
        fn()

    def split_k_triton():
        c.zero_()
        tk.split_k_matmul_kernel[grid](*args, GROUP_M=8, **mm)
    matmul_row(f"split_k_matmul ({split} splits, runtime step; C zeroed each launch)", f"{sm}x{sm}x{sk}",
               split_k_blk, lambda: [split_k_triton], lambda: torch.matmul(x, w).float(), c,
               x.double() @ w.double(), 2 * sm * sm * sk)
    del x, w, c

    # The K loop as a while loop over a counter (f32 C).
    x = torch.randn(n, n, device="cuda", dtype=dt)
    w = torch.randn(n, n, device="cuda", dtype=dt)
    c = torch.empty(n, n, device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
    kend = torch.empty(grid[0], device="cuda", dtype=torch.int32)
    args = (x, w, c, kend, n, n, n, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
    fn = h.load(f"dot_stress.{config}.spec", "while_matmul").prepare(grid, *args)
    matmul_row("while_matmul (K loop as `while k < K`; f32 C)", f"{n}^3", fn,
               lambda: [lambda: tk.while_matmul_kernel[grid](*args, GROUP_M=8, **mm)],
               lambda: torch.matmul(x, w).float(), c, x.double() @ w.double(), flops)
    del x, w, c, kend

    # Triton's block-pointer matmul (test/kernels/block_pointers.blk, f32 C).
    a = torch.randn(n, n, device="cuda", dtype=dt)
    b = torch.randn(n, n, device="cuda", dtype=dt)
    c = torch.empty(n, n, device="cuda", dtype=torch.float32)
    grid = (triton.cdiv(n, bm), triton.cdiv(n, bn))
    args = (a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    fn = h.load("block_pointers.bf16.128.128.64.w8.st3.spec", "matmul").prepare(grid, *args)
    matmul_row("block_pointer_matmul (make_block_ptr, advance; f32 C)", f"{n}^3", fn,
               lambda: [lambda: tk.block_pointer_matmul_kernel[grid](*args, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                                                    num_warps=8, num_stages=3)],
               lambda: torch.matmul(a, b), c, a.double() @ b.double(), flops)
    del a, b, c

    # Paged decode attention.
    batch, heads, kv_heads, ctx, page, d = 64, 32, 8, 4096, 64, 128
    group, pages = heads // kv_heads, ctx // page
    q = torch.randn(batch, heads, d, device="cuda", dtype=dt)
    k_cache = torch.randn(batch * pages, page, kv_heads, d, device="cuda", dtype=dt)
    v_cache = torch.randn_like(k_cache)
    table = torch.randperm(batch * pages, device="cuda").to(torch.int32).view(batch, pages)
    lens = torch.full((batch,), ctx, device="cuda", dtype=torch.int32)
    o = torch.empty_like(q)
    scale = d ** -0.5

    def dense(cache):  # [batch, kv_heads, ctx, d]: the pages in table order
        return cache[table.long()].reshape(batch, ctx, kv_heads, d).permute(0, 2, 1, 3).contiguous()
    kd, vd = dense(k_cache), dense(v_cache)
    chunks = []
    for b0 in range(0, batch, 8):  # float64 in chunks of 8 sequences
        qs = q[b0:b0 + 8].double().view(-1, kv_heads, group, d)
        s = qs @ kd[b0:b0 + 8].double().transpose(-1, -2) * scale
        chunks.append((torch.softmax(s, -1) @ vd[b0:b0 + 8].double()).reshape(-1, heads, d))
    ref = torch.cat(chunks)
    del chunks, s
    grid = (batch, kv_heads)
    args = (q, k_cache, v_cache, table, lens, o, scale, group, pages, q.stride(0), q.stride(1),
            *k_cache.stride()[:3], *v_cache.stride()[:3], o.stride(0), o.stride(1))
    fn = h.load("dot_stress.64.128.w4.st3.spec", "paged_decode_attention").prepare(grid, *args)
    q4 = q.view(batch, heads, 1, d)
    sdpa_kv, gqa = (kd, vd), {"enable_gqa": True}
    try:  # grouped-query heads without copies where this PyTorch has enable_gqa (2.5 and later)
        torch.nn.functional.scaled_dot_product_attention(q4[:1], kd[:1], vd[:1], scale=scale, **gqa)
    except TypeError:  # else K/V heads repeated for each query head, before timing
        sdpa_kv, gqa = (kd.repeat_interleave(group, 1), vd.repeat_interleave(group, 1)), {}

    def sdpa():
        out = torch.nn.functional.scaled_dot_product_attention(q4, *sdpa_kv, scale=scale, **gqa)
        return out.reshape(batch, heads, d)
    nbytes = 2 * k_cache.numel() * 2 + 2 * q.numel() * 2
    row = h.record("dots paged_decode_attention (PyTorch: SDPA on dense K/V)",
                   f"{batch}x{heads}/{kv_heads} heads, ctx {ctx}, pages of {page}, D={d}", dt, None, nbytes, [fn],
                   lambda: [lambda: tk.paged_decode_attention_kernel[grid](
                       *args, D=d, PAGE=page, G=16, num_warps=4, num_stages=3)],
                   [sdpa], rounds=5, check=output_check(o, ref))
    if row.get("blk_us"):
        gbps = lambda key: fmt(nbytes / row[key] / 1e3 if row.get(key) else None, "{:.0f}")  # noqa: E731
        print(f"dots paged_decode_attention: blk {row['rate']:.0f}, Triton {gbps('triton_us')}, "
              f"SDPA {gbps('torch_us')} GB/s of K, V, Q and O", flush=True)
    del q, k_cache, v_cache, kd, vd, sdpa_kv, o, ref


def fp8_dot_stress(h, n=4096):
    """fp8 products written differently (test/kernels/fp8_dots.blk against
    the same sources in Triton, bench/triton_kernels.py), f32 results, blk's
    `.spec` variant and Triton at 128x128x128, 8 warps, 3 stages: activations
    scaled per row and rounded to e4m3 in registers times W [N, K]
    (`quantized_x_matmul`), an e5m2 A times a B scaled per column and rounded
    to e5m2 in registers (`quantized_y_matmul`), and e4m3 rows gathered
    through an index times W [N, K] (`gathered_fp8_matmul`): TFLOP/s beside
    cuBLAS (`torch._scaled_mm`, unit scales) on operands quantized or
    gathered before timing (none for e5m2 x e5m2, which it does not take).
    Every output is checked against float64 of the rounded operands first."""
    if not hasattr(torch, "float8_e4m3fn"):
        return
    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2
    variant, bm, bn, bk = "fp8_dots.128.128.128.w8.st3.spec", 128, 128, 128
    mm = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, num_warps=8, num_stages=3)
    one = torch.ones((), device="cuda")

    def scaled_mm(a, b):
        out = torch._scaled_mm(a, b, one, one, out_dtype=torch.float32)
        return out[0] if isinstance(out, tuple) else out  # older PyTorch returns (out, amax)

    def row(name, dtype, shape, m, fn, tri, anchors, c, ref):
        r = h.record(f"dots {name}", shape, dtype, None, 0, [fn], tri, anchors, rounds=7, settle=True,
                     check=output_check(c, ref, first_rows))
        report_tflops(r, f"dots {name} {shape}", 2 * m * n * n)

    # Activations quantized per row in registers: C = (X * SX[:, None]).to(e4m3) @ W^T.
    x = torch.randn(n, n, device="cuda")
    sx = torch.rand(n, device="cuda") + 0.5
    w = torch.randn(n, n, device="cuda").to(e4)  # [N, K]
    c = torch.empty(n, n, device="cuda")
    xq = (x * sx[:, None]).to(e4)  # cuBLAS's operand, quantized before timing
    grid = (triton.cdiv(n, bm), triton.cdiv(n, bn))
    args = (x, sx, w, c, n, n, n, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
    fn = h.load(variant, "quantized_x_matmul").prepare(grid, *args)
    row("quantized_x_matmul (f32 X scaled per row, to e4m3 in registers; W [N, K])", e4, f"{n}^3", n, fn,
        lambda: [lambda: tk.quantized_x_matmul_kernel[grid](*args, **mm)], [lambda: scaled_mm(xq, w.t())], c,
        xq[:256].double() @ w.double().t())
    del x, sx, c, xq

    # B quantized per column in registers: C = A @ (Y * SY[None, :]).to(e5m2).
    a = torch.randn(n, n, device="cuda").to(e5)
    y = torch.randn(n, n, device="cuda")
    sy = torch.rand(n, device="cuda") + 0.5
    c = torch.empty(n, n, device="cuda")
    yq = (y * sy[None, :]).to(e5)
    args = (a, y, sy, c, n, n, n, a.stride(0), a.stride(1), y.stride(0), y.stride(1), c.stride(0), c.stride(1))
    fn = h.load(variant, "quantized_y_matmul").prepare(grid, *args)
    row("quantized_y_matmul (e5m2 A; f32 B scaled per column, to e5m2 in registers)", e5, f"{n}^3", n, fn,
        lambda: [lambda: tk.quantized_y_matmul_kernel[grid](*args, **mm)], [], c,
        a[:256].double() @ yq.double())
    del a, y, sy, c, yq

    # Token permutation: C[i, :] = X[IDX[i], :] @ W^T.
    rows_x, m = 4 * n, 2 * n
    x = torch.randn(rows_x, n, device="cuda").to(e4)
    idx = torch.randint(0, rows_x, (m,), device="cuda", dtype=torch.int32)
    c = torch.empty(m, n, device="cuda")
    xg = x[idx.long()]
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    args = (x, idx, w, c, m, n, n, x.stride(0), x.stride(1), w.stride(0), w.stride(1), c.stride(0), c.stride(1))
    fn = h.load(variant, "gathered_fp8_matmul").prepare(grid, *args)
    row("gathered_fp8_matmul (e4m3 rows through an index; W [N, K])", e4, f"{m}x{n}x{n}, rows of {rows_x}", m, fn,
        lambda: [lambda: tk.gathered_fp8_matmul_kernel[grid](*args, **mm)], [lambda: scaled_mm(xg, w.t())], c,
        xg[:256].double() @ w.double().t())
    del x, idx, c, xg, w


def fp8_matmul(h, n=4096):
    """C = A @ B with e4m3 operands (values of randn, rounded) into bf16:
    blk's fp8 variant (mma.sync, operands through registers), Triton's
    tutorial kernel on the same tensors, and cuBLAS through torch._scaled_mm
    (unit scales; it wants B column-major, so it gets B's transpose stored
    row-major: the same product)."""
    if not hasattr(torch, "float8_e4m3fn"):
        return
    a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
    b_cm = b.t().contiguous().t()  # column-major copy for cuBLAS
    c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
    one = torch.ones((), device="cuda")
    config = "128.128.64.w8.st3"
    fn = h.load(f"matmul.f8e4m3.bf16.{config}.spec", "matmul").prepare(
        (triton.cdiv(n, 128) * triton.cdiv(n, 128),), a, b, c, n, n, n, n, 1, n, 1, n, 1)
    tri = lambda: [lambda: tk.matmul_kernel[(triton.cdiv(n, 128) * triton.cdiv(n, 128),)](
        a, b, c, n, n, n, n, 1, n, 1, n, 1, BM=128, BN=128, BK=64, GROUP=8, num_warps=8, num_stages=3)]

    def cublas():
        out = torch._scaled_mm(a, b_cm, one, one, out_dtype=torch.bfloat16)
        return out[0] if isinstance(out, tuple) else out  # older PyTorch returns (out, amax)
    ref = a[:256].double() @ b.double()
    row = h.record("matmul f8e4m3->bf16", f"{n}^3", torch.bfloat16, None, 0, [fn], tri, [cublas], rounds=7,
                   settle=True, check=output_check(c, ref, first_rows))
    report_tflops(row, f"matmul f8e4m3 {n}^3", 2 * n ** 3)
    del a, b, b_cm, c, ref


def fp8_scaled_matmul(h, sizes=(4096, 8192)):
    """C = (A @ W^T) * scales (kernels/scaled_matmul.blk): e4m3 A [n, n] and
    W [n, n] stored as a linear layer's weight (K-major, wgmma's fp8
    operand order), bf16 out, row-wise scales; Triton's twin on the same
    tensors and tiles; cuBLAS through torch._scaled_mm with the same
    row-wise scales (W^T as its column-major B)."""
    if not hasattr(torch, "float8_e4m3fn"):
        return
    for n, (bm, bn, bk, warps, stages) in [(n, t) for n in sizes for t in ((128, 256, 128, 8, 3), (128, 128, 128, 8, 4))]:
        a = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
        w = torch.randn(n, n, device="cuda").to(torch.float8_e4m3fn)
        sa = torch.rand(n, 1, device="cuda") + 0.5
        sw = torch.rand(1, n, device="cuda") + 0.5
        c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
        grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
        fn = h.load(f"scaled_matmul.f8e4m3.bf16.{bm}.{bn}.{bk}.w{warps}.st{stages}.spec", "scaled_matmul").prepare(
            grid, a, w, c, sa, sw, n, n, n, n, 1, n, 1, n, 1, 1, 1)
        tri = lambda: [lambda: tk.scaled_matmul_kernel[grid](  # noqa: E731
            a, w, c, sa, sw, n, n, n, n, 1, n, 1, n, 1, 1, 1, BM=bm, BN=bn, BK=bk, GROUP=8,
            num_warps=warps, num_stages=stages)]

        def cublas():
            out = torch._scaled_mm(a, w.t(), sa, sw, out_dtype=torch.bfloat16)
            return out[0] if isinstance(out, tuple) else out
        ref = (a[:256].double() @ w.double().t()) * sa[:256].double() * sw.double()
        row = h.record(f"scaled_matmul f8e4m3->bf16 (x @ W^T, row-wise scales; {bm}x{bn}x{bk})", f"{n}^3", torch.bfloat16, None, 0,
                       [fn], tri, [cublas], rounds=7, settle=True, check=output_check(c, ref, first_rows))
        report_tflops(row, f"scaled_matmul f8e4m3 {bm}x{bn}x{bk} {n}^3", 2 * n ** 3)
        del a, w, sa, sw, c, ref


def row_cases(h, sets=4):
    """Row kernels at bf16 8192x4096, rotating over `sets` input/output sets
    (256 MiB read per rotation), then KL divergence and cross-entropy, whose
    inputs (1-2 GiB) exceed L2 by themselves. The PyTorch anchors are the
    native ops on bf16 (torch.softmax, F.rms_norm, F.layer_norm,
    F.cross_entropy), as the rows name them."""
    M, N, dt = 8192, 4096, torch.bfloat16
    xs = [torch.randn(M, N, device="cuda", dtype=dt) * 2 for _ in range(sets)]
    ys = [torch.empty_like(x) for x in xs]
    x, y = xs[0], ys[0]
    xd = x.double()
    softmax = h.load("softmax.bf16.4096.w8.s16", "softmax_forward")
    blk_fns = [softmax.prepare((M,), a, o, N, N) for a, o in zip(xs, ys)]
    row_case(h, "softmax_fwd", f"{M}x{N}", dt, 2 * x.numel() * 2, blk_fns,
             [lambda a=a, o=o: tk.softmax_kernel[(M,)](a, o, N, N, BLOCK=N, num_warps=8) for a, o in zip(xs, ys)],
             [lambda a=a: torch.softmax(a, dim=1) for a in xs],
             output_check(y, torch.softmax(xd, dim=1)))

    w = torch.rand(N, device="cuda", dtype=dt) + 0.5
    b = torch.randn(N, device="cuda", dtype=dt)
    rstds = [torch.empty(M, device="cuda", dtype=torch.float32) for _ in range(sets)]
    means = [torch.empty_like(r) for r in rstds]
    rms = h.load("rms_norm.bf16.4096.w8.s16", "rms_norm_forward")
    rms_fns = [rms.prepare((M,), o, a, w, r, N, N, 1e-6, 0.0) for a, o, r in zip(xs, ys, rstds)]
    if hasattr(torch.nn.functional, "rms_norm"):
        rms_torch, rms_label = [lambda a=a: torch.nn.functional.rms_norm(a, (N,), w, 1e-6) for a in xs], "F.rms_norm"
    else:  # PyTorch before 2.4
        rms_torch = [lambda a=a: (a.float() * torch.rsqrt(a.float().pow(2).mean(1, keepdim=True) + 1e-6)).to(dt) * w
                     for a in xs]
        rms_label = "f32 decomposition, no F.rms_norm"
    row_case(h, f"rms_norm_fwd (PyTorch {rms_label})", f"{M}x{N}", dt, 2 * x.numel() * 2, rms_fns,
             [lambda a=a, o=o, r=r: tk.rms_norm_kernel[(M,)](o, a, w, r, N, N, 1e-6, 0.0, BLOCK=N, num_warps=8)
              for a, o, r in zip(xs, ys, rstds)],
             rms_torch, output_check(y, xd * torch.rsqrt(xd.pow(2).mean(1, keepdim=True) + 1e-6) * w.double()))
    rms_norm_fwd_bwd(h, xs[0], ys[0], w, rstds[0])

    ln = h.load("layer_norm.bf16.4096.w4.s16", "layer_norm_forward")
    ln_fns = [ln.prepare((M,), o, a, w, b, m, r, N, N, 1e-5) for a, o, m, r in zip(xs, ys, means, rstds)]
    row_case(h, "layer_norm_fwd", f"{M}x{N}", dt, 2 * x.numel() * 2, ln_fns,
             [lambda a=a, o=o, m=m, r=r: tk.layer_norm_kernel[(M,)](o, a, w, b, m, r, N, N, 1e-5, BLOCK=N,
                                                                     num_warps=8)
              for a, o, m, r in zip(xs, ys, means, rstds)],
             [lambda a=a: torch.nn.functional.layer_norm(a, (N,), w, b, 1e-5) for a in xs],
             output_check(y, torch.nn.functional.layer_norm(xd, (N,), w.double(), b.double(), 1e-5)))
    del xs, ys, x, y, xd
    kl_div_fwd(h)

    V = 128256
    logits = torch.randn(M, V, device="cuda", dtype=dt) * 3
    work = logits.clone()
    target = torch.randint(0, V, (M,), device="cuda", dtype=torch.int64)
    loss = torch.empty(M, device="cuda", dtype=torch.float32)
    ld = logits.double().requires_grad_()
    ref = torch.nn.functional.cross_entropy(ld, target)
    ref.backward()
    ref_loss, ref_grad = ref.detach().reshape(1), ld.grad
    del ld, ref

    def check_ce(key, fn):
        # blk and Triton overwrite their input with the gradient and write
        # per-row losses; PyTorch returns the loss and the gradient.
        work.copy_(logits)
        poison(loss)
        got = _tensors(fn())
        torch.cuda.synchronize()
        got_loss, got_grad = got if got is not None else (loss.sum(), work)
        return max(rel_err(got_loss.reshape(1), ref_loss), rel_err(got_grad, ref_grad))

    def torch_ce():
        lt = logits.detach().requires_grad_()
        out = torch.nn.functional.cross_entropy(lt, target)
        out.backward()
        return out, lt.grad

    for variant, label in (("cross_entropy.bf16.8192.w16.s16", ""),
                           ("cross_entropy.bf16.8192.w16.st2.s16", "num_stages=2; ")):
        ce_fn = h.load(variant, "cross_entropy").prepare((M,), work, target, loss, V, V, float(M), -100, 0.0, 0.0,
                                                         0.0)
        # The kernels overwrite their input with the gradient; timing reuses
        # the buffer (the values stay finite, the work is the same).
        # num_stages=2 issues each chunk's load of the first pass one chunk
        # ahead. PyTorch: F.cross_entropy on the bf16 logits (no upcast),
        # backward through autograd.
        row_case(h, f"cross_entropy_fwd_bwd ({label}PyTorch F.cross_entropy on bf16)", f"{M}x{V}", dt,
                 3 * logits.numel() * 2, ce_fn,
                 lambda: tk.cross_entropy_kernel[(M,)](work, target, loss, V, V, float(M), -100, BLOCK=32768,
                                                       num_warps=32),
                 torch_ce, check_ce)
    del logits, work, ref_grad


def launch_overhead(h):
    """Host microseconds per launch of a tiny kernel."""
    out = {}
    exe = os.path.join(h.bundle, "bin", "blk-bench")
    r = subprocess.run([exe, "--launch-overhead", "--ptx-dir", os.path.join(h.bundle, "ptx")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        h.fail(f"blk-bench --launch-overhead exited {r.returncode}: {(r.stderr or r.stdout).strip()[-300:]}")
    for line in r.stdout.splitlines():
        if line.startswith("launch_us="):
            out["blk (C++ runtime, checked launch)"] = float(line.split("=")[1])
        if line.startswith("driver_launch_us="):
            out["cuLaunchKernel alone (floor)"] = float(line.split("=")[1])
    x = torch.randn(1024, device="cuda")
    y = torch.randn(1024, device="cuda")
    o = torch.empty_like(x)
    k = h.kernel("vector_add", torch.float32, "vector_add", spec=False)
    fn = k.prepare((1,), x, y, o, 1024)

    def per_launch(f, batches=80, batch=256):
        # Host time only, in batches well under the driver's queue (as blk-bench does).
        for _ in range(100):
            f()
        torch.cuda.synchronize()
        total = 0.0
        for _ in range(batches):
            t0 = time.perf_counter()
            for _ in range(batch):
                f()
            total += time.perf_counter() - t0
            torch.cuda.synchronize()
        return total / (batches * batch) * 1e6

    out["blk (Python, ctypes C API)"] = per_launch(fn)
    out["Triton (Python)"] = per_launch(lambda: tk.add_kernel[(1,)](x, y, o, 1024, BLOCK=1024))
    out["PyTorch (torch.add)"] = per_launch(lambda: torch.add(x, y, out=o))
    return out


def report(h, overhead, out_dir, command=None, suite=None):
    """Writes results.json and results.md (bench/report.py formats the
    latter from the same data, and the tables of docs/performance.md)."""
    data = dict(device=h.device, date=time.strftime("%Y-%m-%d"), command=command, suite=suite,
                triton=triton.__version__, torch=torch.__version__, reps=h.reps, copy_gbps=h.copy_gbps,
                copy_samples_gbps=h.copy_samples, matmul_tflops=h.mm_tflops, anchors_checked=True,
                timing=dict(graph_below_us=GRAPH_BELOW_US, graph_replays=GRAPH_REPLAYS),
                rows=h.rows, sweeps=h.sweeps, launch_overhead_us=overhead, failures=h.failures)
    text = results_md(data)
    print("\n" + text)
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(data, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for name, pts in h.sweeps.items():
            plt.figure(figsize=(6, 4))
            for key, label in (("blk_us", "blk"), ("triton_us", "Triton"), ("torch_us", "PyTorch")):
                plt.plot([p["n"] for p in pts], [p[key] for p in pts], marker="o", label=label)
            plt.axhline(h.copy_gbps, color="gray", linestyle="--", label="copy")
            plt.xscale("log", base=2)
            plt.xlabel("elements")
            plt.ylabel("GB/s")
            plt.title(f"{name} on {h.device}")
            plt.legend()
            plt.grid(alpha=0.3)
            plt.tight_layout()
            plt.savefig(os.path.join(out_dir, f"sweep-{name}.png"), dpi=100)
            plt.close()
    except ImportError:
        print("matplotlib missing: no plots")


# The cases each --only choice runs (None: every case), in order.
# bench/compare_compiled.py traces these to find the kernels the rows launch.
SUITES = {
    "matmul": [matmuls],
    "attention": [attention, attention_fwd_bwd],
    "layouts": [layout_stress, blocks_3d],
    "dots": [dot_stress, fp8_dot_stress],
    "glu": [glu_backward],
    "rope": [rope],
    "transposes": [transposes],
    # The row kernels (softmax, norms, losses), forward and backward.
    "rows": [row_cases, row_backward],
    "flce": [flce_bench.flce],
    None: [run_cases, row_backward, glu_backward, rope, matmuls, attention, attention_fwd_bwd, layout_stress, blocks_3d,
           dot_stress, fp8_dot_stress, flce_bench.flce],
}


def main():
    args = arg_parser([k for k in SUITES if k]).parse_args()
    os.makedirs(args.out, exist_ok=True)
    h = Harness(args.bundle, args.reps, args.ptx_dir)
    h.limits()
    run_suite(h, SUITES[args.only])
    overhead = launch_overhead(h) if args.only is None else None
    # The command as run (with the environment variables that pick the matmul
    # variant and the attention schedule), for bench/report.py to print
    # beside the tables.
    env = [f"{k}={shlex.quote(os.environ[k])}" for k in ("BLK_MATMUL_CONFIG", "BLK_PERSISTENT_CONFIG", "BLK_ATTENTION_SCHEDULE")
           if k in os.environ]
    command = " ".join(env + ["python3", shlex.join(sys.argv)])
    report(h, overhead, args.out, command, args.only or "all")
    if h.failures:
        print(f"\n{len(h.failures)} FAIL:\n" + "\n".join("  " + f for f in h.failures), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
