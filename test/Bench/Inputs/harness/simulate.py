"""bench/run.py's Harness.record on a simulated GPU (no torch, no device):
stand-ins for torch.cuda's events, graphs and streams over a clock that
models the host's launch cost and the kernels' durations, so that what the
harness measures can be checked against what the kernels take.

    python3 simulate.py BENCH_DIR

Prints one line per check ("pass:" or "MISMATCH:"); exits 1 if any mismatched."""
import contextlib
import sys
import types

BENCH = sys.argv[1]


class GPU:
    """Host time and GPU time in microseconds. A launch costs the host its
    launch cost; the kernel starts when both the host has launched it and
    the GPU has finished the previous one. Events take their time when the
    GPU reaches them. While a graph captures, launches are recorded instead;
    a replay runs the recorded kernels back to back from the GPU."""

    def __init__(self):
        self.host = self.gpu = 0.0
        self.capture = None
        self.log = []  # (contender, input set, captured?) of every launch

    def launch(self, who, index, host_us, gpu_us, stream=None):
        self.log.append((who, index, self.capture is not None))
        if self.capture is not None:
            if stream != "capture":
                raise RuntimeError(f"{who} launched outside the capture stream while capturing")
            self.host += host_us
            self.capture.append(gpu_us)
            return
        self.host += host_us
        self.gpu = max(self.gpu, self.host) + gpu_us

    def mark(self):
        self.gpu = max(self.gpu, self.host)
        return self.gpu


gpu = GPU()


class Event:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self):
        gpu.host += 0.5
        self.t = gpu.mark()

    def elapsed_time(self, other):
        return (other.t - self.t) / 1e3  # milliseconds, as torch's


class CUDAGraph:
    def __init__(self):
        self.kernels = []

    def replay(self):
        gpu.host += 2.0
        gpu.gpu = max(gpu.gpu, gpu.host) + sum(self.kernels)


class Stream:
    cuda_stream = "capture"


@contextlib.contextmanager
def graph(g, stream=None):
    gpu.capture = g.kernels
    try:
        yield
    finally:
        gpu.capture = None


def sleep(cycles):
    gpu.gpu = max(gpu.gpu, gpu.host) + cycles / 2000.0  # 2 GHz


class Tensor:
    pass


torch = types.ModuleType("torch")
for name in ("float32", "float16", "bfloat16", "int32"):
    setattr(torch, name, name)
torch.Tensor = Tensor
torch.cuda = types.SimpleNamespace(Event=Event, CUDAGraph=CUDAGraph, Stream=Stream, graph=graph, _sleep=sleep,
                                   synchronize=lambda: setattr(gpu, "host", max(gpu.host, gpu.gpu)))
triton = types.ModuleType("triton")
triton.__version__ = "(simulated)"
sys.modules.update(torch=torch, triton=triton, triton_kernels=types.ModuleType("triton_kernels"))
sys.path.insert(0, BENCH)
import run  # noqa: E402


class Runtime:
    stream = 0


def harness(reps=100):
    h = object.__new__(run.Harness)
    h.reps, h.rt, h.rows, h.sweeps, h.failures, h.device = reps, Runtime(), [], {}, [], "simulated"
    return h


def contender(h, who, sets, host_us, gpu_us, fail_capture=False):
    """Launches of one contender, one per input set; blk's go to the
    runtime's stream (as bench/blk.py's prepared launches do), the others'
    to the current stream (the capture stream inside torch.cuda.graph)."""
    def launch(i):
        if fail_capture and gpu.capture is not None:
            raise RuntimeError("operation not permitted when stream is capturing")
        stream = h.rt.stream if who == "blk" else ("capture" if gpu.capture is not None else 0)
        gpu.launch(who, i, host_us, gpu_us, stream)
    return [lambda i=i: launch(i) for i in range(sets)]


def ok_check(key, fn):
    fn()
    return 0.0


failed = 0


def expect(cond, what):
    global failed
    print(("pass: " if cond else "MISMATCH: ") + what)
    if not cond:
        failed += 1


def near(a, b, rel=0.02):
    return a is not None and abs(a - b) <= rel * b


# 1. Small kernels behind slow launch paths: events would time the launch
# paths (blk 4 us, Triton 25 us, PyTorch 10 us of host time per launch);
# graphs give the kernels' 3, 4 and 5 us.
gpu.__init__()
h = harness()
row = h.record("small", "-", torch.float32, 0.0, 1000, contender(h, "blk", 8, 4, 3),
               lambda: contender(h, "triton", 8, 25, 4), contender(h, "torch", 8, 10, 5), check=ok_check)
expect(row["method"] == "graph", f"small kernels are timed as CUDA graphs ({row['method']})")
expect(near(row["blk_us"], 3) and near(row["triton_us"], 4) and near(row["torch_us"], 5),
       f"graph times are the kernels' 3, 4, 5 us ({row['blk_us']:.2f}, {row['triton_us']:.2f}, {row['torch_us']:.2f})")
expect(row["events_probe_us"]["triton_us"] > 20, "the event probe saw Triton's launch path (recorded in the row)")
expect(h.rt.stream == 0, "the runtime's stream is back to 0 after capture")
captured_blk = [e for e in gpu.log if e[0] == "blk" and e[2]]
expect(len(captured_blk) > 0, "blk's launches were captured on the capture stream")

# 2. Large kernels: events, and the kernels' time (launch cost hidden behind
# the queue).
gpu.__init__()
h = harness()
row = h.record("large", "-", torch.float32, 0.0, 1000, contender(h, "blk", 1, 4, 500),
               lambda: contender(h, "triton", 1, 25, 520), contender(h, "torch", 1, 10, 510), check=ok_check)
expect(row["method"] == "events", "large kernels are timed with an event pair per launch")
expect(near(row["blk_us"], 500, 0.01) and near(row["triton_us"], 520, 0.01) and near(row["torch_us"], 510, 0.01),
       f"event times are the kernels' ({row['blk_us']:.1f}, {row['triton_us']:.1f}, {row['torch_us']:.1f})")

# An anchor given no launches is no anchor: not checked, not timed, no failure.
gpu.__init__()
h = harness()
row = h.record("no triton", "-", torch.float32, 0.0, 1000, contender(h, "blk", 1, 4, 500), lambda: [],
               contender(h, "torch", 1, 10, 510), check=ok_check)
expect(row["triton_us"] is None and near(row["torch_us"], 510, 0.01) and not h.failures and row["status"] == "ok",
       "an anchor without launches is left out")

# 3. More input sets than launches: every contender reads every set in its
# warm-up and in every timed pass; turns rotate the first contender.
gpu.__init__()
h = harness(reps=100)
sets = 300
h.record("sets", "-", torch.float32, None, 1000, contender(h, "blk", sets, 1, 400),
         lambda: contender(h, "triton", sets, 1, 400), contender(h, "torch", sets, 1, 400), check=ok_check)
for who in ("blk", "triton", "torch"):
    read = {i for w, i, _ in gpu.log if w == who}
    expect(read == set(range(sets)), f"{who} read all {sets} sets")
# Turns: runs of one contender's launches, in order; the probe is the first
# pass (blk, triton, torch), then 3 turns with rotating first contender.
runs = []
for who, _, _ in gpu.log[3:]:
    if not runs or runs[-1] != who:
        runs.append(who)
expect(runs == ["blk", "triton", "torch"] * 2 + ["triton", "torch", "blk", "torch", "blk", "triton"],
       f"probe, then turns led by blk, Triton, PyTorch ({runs})")
# Each pass (warm-up, then timed launches) reads the sets in cycle order, so
# every launch reads the set read longest ago, each set equally often.
passes = []
for who, i, _ in gpu.log[3:]:  # after the three checks' launches
    if not passes or passes[-1][0] != who:
        passes.append((who, []))
    passes[-1][1].append(i)
expect(all(seq == [k % sets for k in range(len(seq))] and len(seq) % sets == 0 for _, seq in passes),
       "every pass cycles through the sets in order, each equally often")

# 4. A failing anchor is marked, not timed, and fails the run; the others are timed.
gpu.__init__()
h = harness()


def check(key, fn):
    fn()
    return 0.5 if key == "triton_us" else 1e-6


row = h.record("anchor", "-", torch.float32, None, 1000, contender(h, "blk", 1, 4, 500),
               lambda: contender(h, "triton", 1, 25, 520), contender(h, "torch", 1, 10, 510), check=check)
expect(row["anchor_fail"] == ["triton_us"] and row["triton_us"] is None, "the failing anchor is marked and untimed")
expect(row["blk_us"] is not None and row["torch_us"] is not None, "the others are timed")
expect(len([e for e in gpu.log if e[0] == "triton"]) == 1, "the failing anchor ran only for its check")
expect(row["status"].startswith("anchor FAIL: Triton") and len(h.failures) == 1, "the row and the run say FAIL")
expect(row["rel_err"] == 1e-6, "blk's error comes from the same check")

# 5. An anchor whose check raises (an op the installed PyTorch lacks) is a failing anchor.
gpu.__init__()
h = harness()


def raising(key, fn):
    fn()
    if key == "torch_us":
        raise RuntimeError("No available kernel")
    return 0.0


row = h.record("raises", "-", torch.float32, None, 1000, contender(h, "blk", 1, 4, 500),
               lambda: contender(h, "triton", 1, 25, 520), contender(h, "torch", 1, 10, 510), check=raising)
expect(row["anchor_fail"] == ["torch_us"] and "No available kernel" in row["status"], "a raising check fails the anchor")

# 6. blk wrong: not timed, nothing else runs, the run fails; a sweep point
# (record=False) fails the run too.
gpu.__init__()
h = harness()
row = h.record("wrong", "-", torch.float32, 0.5, 1000, contender(h, "blk", 1, 4, 500),
               lambda: contender(h, "triton", 1, 25, 520), contender(h, "torch", 1, 10, 510), record=False,
               check=ok_check)
expect(row["status"].startswith("FAIL") and not h.rows and len(h.failures) == 1 and not gpu.log,
       "a wrong blk sweep point is untimed and fails the run")

# 7. A contender that cannot be captured: every contender falls back to events.
gpu.__init__()
h = harness()
row = h.record("nocapture", "-", torch.float32, 0.0, 1000, contender(h, "blk", 4, 4, 3),
               lambda: contender(h, "triton", 4, 25, 4), contender(h, "torch", 4, 10, 5, fail_capture=True),
               check=ok_check)
expect(row["method"].startswith("events (graph capture failed"), f"capture failure: events for all ({row['method']})")
expect(h.rt.stream == 0, "the runtime's stream is back to 0 after a failed capture")

sys.exit(1 if failed else 0)
