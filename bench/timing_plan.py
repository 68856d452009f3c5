"""The order of bench/run.py's measurements, without torch (so that
test/Bench/timing-plan.test checks it on a machine without a GPU): which input
set each launch reads, which contender goes first in each turn, when a row is
timed as CUDA graphs, and which measurement gives the copy ceiling."""


def cycle_plan(n_sets, reps, warmup):
    """(warm-up, timed): the input set each launch reads, in order.

    The warm-up reads every set at least once (at least `warmup` launches),
    so that no contender is timed on sets it has never touched; the timed
    launches continue the cycle, so each launch reads the set read longest
    ago, and read every set equally often (`reps` rounded up to a multiple
    of `n_sets`): with more sets than `reps`, all of them are still read."""
    if n_sets < 1:
        raise ValueError("no input sets")
    warm = max(warmup, n_sets)
    timed = -(-max(reps, 1) // n_sets) * n_sets
    order = [i % n_sets for i in range(warm + timed)]
    return order[:warm], order[warm:]


def turn_orders(keys, rounds):
    """The contenders' order in each of `rounds` turns: turn t starts with
    the contender t places further on, so with at least as many turns as
    contenders each goes first (after another's work, or first of all) as
    often as the others."""
    keys = list(keys)
    if not keys:
        return []
    return [keys[t % len(keys):] + keys[:t % len(keys)] for t in range(rounds)]


def median(values):
    """The median (the upper one of an even count)."""
    values = sorted(values)
    if not values:
        raise ValueError("no values")
    return values[len(values) // 2]


def use_graphs(probe_us, below_us):
    """Whether a row is timed as CUDA graphs: when any contender's per-launch
    time (an event pair around each launch) is under `below_us`. There the
    GPU can finish a kernel before the host has launched the next, so the
    host's launch cost would be inside the measurement, and the contender
    with the slower launch path would look slower."""
    times = [t for t in probe_us.values() if t is not None]
    return bool(times) and min(times) < below_us


def best_ceiling(samples):
    """(GB/s, method): the best of every measurement of every method
    ({method: [GB/s, ...]}), so that no row exceeds the ceiling by the
    noise of one measurement of it."""
    best = None
    for method, values in samples.items():
        for v in values:
            if v is not None and (best is None or v > best[0]):
                best = (v, method)
    if best is None:
        raise ValueError("no ceiling measurement")
    return best
