"""Prints bench/timing_plan.py's answers for the cases test/Bench/timing-plan.test checks."""
import sys

sys.path.insert(0, sys.argv[1])
from timing_plan import best_ceiling, cycle_plan, median, turn_orders, use_graphs  # noqa: E402


def show(name, value):
    print(f"{name}: {value}")


warm, timed = cycle_plan(4, 6, 10)
show("plan 4 sets, 6 reps, 10 warm-up", (warm, timed))
warm, timed = cycle_plan(3, 100, 10)
show("plan 3 sets, 100 reps", (len(warm), len(timed), sorted({timed.count(i) for i in range(3)})))
warm, timed = cycle_plan(4096, 100, 10)
show("plan 4096 sets, 100 reps: warm-up reads all", sorted(set(warm)) == list(range(4096)))
show("plan 4096 sets, 100 reps: timed reads all once", sorted(timed) == list(range(4096)))
show("plan 4096 sets: timed starts at the set read longest ago", timed[0] == (warm[-1] + 1) % 4096)
show("plan 1 set", cycle_plan(1, 3, 2))
show("turns 3 of 3", " / ".join(" ".join(t) for t in turn_orders(["blk", "triton", "torch"], 3)))
show("turns 7 of 3: leads", [t[0] for t in turn_orders(["blk", "triton", "torch"], 7)])
show("turns 1", " / ".join(" ".join(t) for t in turn_orders(["blk", "triton", "torch"], 1)))
show("median odd", median([3, 1, 2]))
show("median even (upper)", median([4, 1, 3, 2]))
show("graphs when any is under 50 us", use_graphs({"blk_us": 120.0, "triton_us": 30.0}, 50.0))
show("no graphs when all are over", use_graphs({"blk_us": 120.0, "triton_us": 60.0}, 50.0))
show("ceiling: best of all samples", best_ceiling({"copy_": [4000.0, 4100.0, 3900.0], "add_(1)": [4150.0, 3000.0]}))
try:
    cycle_plan(0, 1, 1)
except ValueError as e:
    show("no sets", e)
