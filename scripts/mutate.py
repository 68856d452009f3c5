#!/usr/bin/env python3
"""Mutation check: does the CPU suite catch small, deliberate compiler bugs?

Each mutation is one exact text replacement in one source file of the
compiler (frontend, layouts, AxisInfo and vectorization, pipelining,
barriers, shared-memory allocation, lowering to LLVM). For each selected
mutation the script

  1. checks that its old text occurs exactly once in the file (otherwise the
     mutation is STALE: the code moved on, rewrite the mutation);
     A file with uncommitted changes is SKIPPED (someone may be editing it;
     --allow-dirty mutates it anyway);
  2. writes the mutated file, rebuilds incrementally
     (ninja -C build blkc blk-opt blk-run blk-interp-tests blk-unit-tests);
     a build failure is NO-BUILD (not counted as killed);
  3. runs the CPU suite: blk-interp-tests, blk-unit-tests, then lit
     (stopping at the first failure), each under --timeout;
  4. records KILLED (a test failed; TIMEOUT counts as killed) or SURVIVED,
     with the first failing test;
  5. always writes the file's original bytes back (finally block; Ctrl-C and
     SIGTERM restore too; if the file was saved by someone else meanwhile,
     only the mutation is taken out), then goes on with the next mutation.

The suite runs once on the unmutated tree first (--no-baseline skips it):
if that fails, nothing is measured. After the last mutation the clean sources are rebuilt (skip with
--no-final-rebuild), so the binaries in build/ match the tree again.

    scripts/mutate.py --list
    scripts/mutate.py                                  # every mutation, full suite
    scripts/mutate.py --only bar-if-branch,low-swizzle-bit --json /tmp/m.json
    scripts/mutate.py --lit-filter 'Conversion|Transforms|Interpreter'

The GPU gate. The GPU machine has no compiler, so a mutant is checked there
through a bundle built from the mutated compiler: --bundle-dir DIR runs
scripts/make-bundle.sh for each mutation (after the CPU suite, still mutated)
and moves the resulting .bundle/ to DIR/<id>/.bundle; --device-cmd CMD then
runs CMD (through sh, from the repository root) with MUTATION_ID and
MUTATION_BUNDLE set, e.g. a command that carries DIR/<id>/.bundle to the
device and runs scripts/device-gate.sh there; a non-zero exit kills the
mutant ("device gate" is its first failing test). --device-only skips the CPU
suite for that. Neither runs unless asked.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
LIT = os.environ.get("LIT", "/usr/lib/llvm-22/bin/lit")
TARGETS = ["blkc", "blk-opt", "blk-run", "blk-interp-tests", "blk-unit-tests"]

FE = "lib/Frontend/"
TR = "lib/Dialect/Blk/Transforms/"
AN = "lib/Analysis/"
LO = "lib/Conversion/BlkToLLVM/"

# (id, area, file, old text, new text, description)
MUTATIONS = [
    # --- frontend ---
    ("fe-floor-as-ceil", "frontend", FE + "Builtins.cpp",
     'else if (name == "floor") r = math::FloorOp::create(builder, at, v);',
     'else if (name == "floor") r = math::CeilOp::create(builder, at, v);',
     "floor(x) on blocks lowered as ceil"),
    ("fe-fold-floordiv", "frontend", FE + "Operators.cpp",
     'if (op == "//") return make(floorDiv(x, y));',
     'if (op == "//") return make(x / y);',
     "constant a // b folded with C's truncating division (wrong for negative operands)"),
    ("fe-fold-float-mod", "frontend", FE + "Operators.cpp",
     'if (op == "%") return TV::makeFloat(x - std::floor(x / y) * y);',
     'if (op == "%") return TV::makeFloat(std::fmod(x, y));',
     "constant float a % b folded as fmod (sign of the dividend, not the divisor)"),
    ("fe-sigmoid-sign", "frontend", FE + "Builtins.cpp",
     "Value e = math::ExpOp::create(builder, at, arith::NegFOp::create(builder, at, v));",
     "Value e = math::ExpOp::create(builder, at, v);",
     "sigmoid(x) built as 1 / (1 + exp(x))"),
    # --- layouts ---
    ("layout-scan-warps", "layouts", TR + "AssignLayouts.cpp",
     "wpc[axis] = numWarps / wpc[other];",
     "wpc[axis] = 1;",
     "a scan's layout spreads the scan axis over one warp only (the other warps hold copies)"),
    ("layout-remat-slice-axis", "layouts", TR + "RemoveLayoutConversions.cpp",
     "SliceLayoutAttr::get(op->getContext(), cast<ExpandDimsOp>(op).getAxis(), encoding)",
     "SliceLayoutAttr::get(op->getContext(), 1 - cast<ExpandDimsOp>(op).getAxis(), encoding)",
     "a rematerialized expand_dims' operand is sliced along the other axis"),
    ("coalesce-no-clamp", "layouts", TR + "Coalesce.cpp",
     "IntegerType::get(op->getContext(), 32), std::min(vec, run)));",
     "IntegerType::get(op->getContext(), 32), vec));",
     "a coalesced access keeps a vector wider than one thread's run of elements"),
    ("coalesce-acc-order", "layouts", TR + "Coalesce.cpp",
     "SmallVector<unsigned> order{dim, 1 - dim};",
     "SmallVector<unsigned> order{1 - dim, dim};",
     "an accumulator's store layout runs along the wrong dimension"),
    # --- AxisInfo and vectorization ---
    ("axis-vec-off-by-one", "vectorize", AN + "AxisInfo.cpp",
     "int64_t vec = std::min<int64_t>(info.contiguity[fast], 16 / elemBytes);",
     "int64_t vec = std::min<int64_t>(info.contiguity[fast] + 1, 16 / elemBytes);",
     "an off-by-one in the vector width (contiguity + 1)"),
    ("axis-mask-constancy", "vectorize", AN + "AxisInfo.cpp",
     "vec = std::min(vec, get(mask).constancy[fast]);",
     "vec = std::min(vec, 2 * get(mask).constancy[fast]);",
     "a masked access vectorized over twice the mask's constant runs"),
    ("axis-cmp-constancy", "vectorize", AN + "AxisInfo.cpp",
     "int64_t g = gcd(l.contiguity[d], gcd(l.divisibility[d], r.divisibility[d]));",
     "int64_t g = l.contiguity[d];",
     "offsets < n treated as constant over the offsets' runs whatever n's divisibility"),
    ("vectorize-no-vec-dim", "vectorize", TR + "VectorizeMemory.cpp",
     "if (t && dim + 1 != t.getRank())",
     "if (t && dim + 1 != t.getRank() && false)",
     "an access contiguous along a dimension other than the last loses its vec_dim"),
    # --- pipelining ---
    ("pipe-wait-short", "pipelining", TR + "PipelineDot.cpp",
     "AsyncWaitOp::create(body, loc, ahead - 1);",
     "AsyncWaitOp::create(body, loc, ahead);",
     "the loop's cp.async wait leaves one group too many pending"),
    ("pipe-next-slot", "pipelining", TR + "PipelineDot.cpp",
     "arith::AddIOp::create(body, loc, n, i32Const(body, ahead)),",
     "arith::AddIOp::create(body, loc, n, i32Const(body, ahead + 1)),",
     "the copies ahead go into the slot one past theirs"),
    ("pipe-unbounded", "pipelining", TR + "LoopSlice.cpp",
     "arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, loop.getUpperBound());",
     "arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, iv, iv);",
     "prologue and ahead copies not bounded by the trip count"),
    ("pipe-loads-ahead", "pipelining", TR + "PipelineLoads.cpp",
     "Value next = offset(ob, iv, ahead);",
     "Value next = offset(ob, iv, ahead + 1);",
     "a pipelined load issues the iteration one past the one its queue slot holds"),
    # --- barriers ---
    ("bar-if-branch", "barriers", TR + "InsertBarriers.cpp",
     "Pending branch = pending;",
     "Pending branch;",
     "each branch of an if starts with no pending shared-memory use (barrier missing in a branch)"),
    ("bar-loop-once", "barriers", TR + "InsertBarriers.cpp",
     "for (int pass = 0; pass < 2; ++pass) {",
     "for (int pass = 0; pass < 1; ++pass) {",
     "a loop body is walked once: a hazard across the back edge gets no barrier"),
    # --- allocation ---
    ("alloc-reduce-one-slot", "allocation", AN + "Allocation.cpp",
     "plan.partOffsets.push_back(plan.bytes);\n      plan.bytes = alignTo16(plan.bytes + partials",
     "plan.partOffsets.push_back(0);\n      plan.bytes = alignTo16(plan.bytes + partials",
     "every operand of a multi-operand reduction gets the same scratch slot"),
    ("alloc-ring-lifetime", "allocation", TR + "AllocateSharedMemory.cpp",
     "holder->walk([&](Operation *nested) { end = std::max(end, number[nested]); });",
     "(void)holder;",
     "a ring's lifetime ends at its user op, not after the ops nested in it (the loop)"),
    ("alloc-lifetime-ends", "allocation", TR + "AllocateSharedMemory.cpp",
     "bool liveTogether = p->first <= b->last && b->first <= p->last;",
     "bool liveTogether = p->first < b->last && b->first < p->last;",
     "buffers whose lifetimes meet at one op count as not live together (share bytes)"),
    ("alloc-scan-scratch", "allocation", AN + "Allocation.cpp",
     "return onePart((int64_t(32) << layout.warps.size()) * slots * sharedElementBytes(src));",
     "return onePart((int64_t(16) << layout.warps.size()) * slots * sharedElementBytes(src));",
     "a scan's scratch is half the size its slots need"),
    # --- lowering ---
    ("low-store-pred-neighbour", "lowering", LO + "MemoryOpToLLVM.cpp",
     "masks.empty() ? Value() : masks[i], owner);",
     "masks.empty() ? Value() : masks[(i + vec) % ptrs.size()], owner);",
     "a store's predicate taken from the neighbouring vector's mask"),
    ("low-load-other-dropped", "lowering", LO + "MemoryOpToLLVM.cpp",
     "    if (!other.empty()) {",
     "    if (false && !other.empty()) {",
     "a masked load leaves masked-off registers unset instead of `other`"),
    ("low-cpasync-copies-masked", "lowering", LO + "SharedRingToLLVM.cpp",
     "LLVM::SelectOp::create(rewriter, loc, masks[r], full, none)",
     "LLVM::SelectOp::create(rewriter, loc, masks[r], full, full)",
     "cp.async copies masked-off elements instead of zero-filling them"),
    ("low-swizzle-bit", "lowering", LO + "SharedRingToLLVM.cpp",
     "LLVM::LShrOp::create(b, loc, lineStart, c(7))",
     "LLVM::LShrOp::create(b, loc, lineStart, c(6))",
     "a ring's swizzle phase taken from bit 6 of the line offset, not bit 7"),
    ("low-trans-src-shape", "lowering", LO + "LayoutOpToLLVM.cpp",
     "      shape = dstType.getShape();",
     "      shape = srcType.getShape();",
     "a transpose through shared memory indexed with the source's shape"),
    ("low-mma-frag-row", "lowering", LO + "DotOpToLLVM.cpp",
     "{std::pair<int64_t, int64_t>{0, 0}, {8, 0}, {0, 4 * w}, {8, 4 * w}}",
     "{std::pair<int64_t, int64_t>{0, 0}, {8, 0}, {8, 4 * w}, {0, 4 * w}}",
     "mma.sync A fragment registers 2 and 3 packed from the wrong rows"),
    ("low-reduce-slot", "lowering", LO + "ReduceToLLVM.cpp",
     "*offset + plan.partOffsets[i], acc[0][i].getType(), idx);",
     "*offset + plan.partOffsets[0], acc[0][i].getType(), idx);",
     "a multi-operand reduction's partials all go through operand 0's scratch slot"),
    ("low-scan-partial", "lowering", LO + "ScanToLLVM.cpp",
     "prefix[u] = apply(total[r], prefix[u]);",
     "prefix[u] = apply(prefix[r], prefix[u]);",
     "a scan's register step adds the partner's prefix instead of its total"),
]

_interrupted = False


def select(args):
    muts = MUTATIONS
    if args.only:
        want = [w for w in args.only.split(",") if w]
        unknown = [w for w in want if w not in {m[0] for m in MUTATIONS}]
        if unknown:
            sys.exit("mutate.py: unknown mutation id(s): " + ", ".join(unknown))
        muts = [m for m in MUTATIONS if m[0] in want]
    if args.area:
        muts = [m for m in muts if m[1] == args.area]
    return muts


def run(cmd, timeout, cwd=ROOT, env=None):
    """(status, output); status is the exit code, or 'timeout'."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, shell=isinstance(cmd, str), start_new_session=True)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        # start_new_session: the group of the timed-out command is gone with it
        out = e.stdout.decode(errors="replace") if e.stdout else ""
        return "timeout", out


def first_gtest_failure(out):
    m = re.search(r"^\[  FAILED  \] (\S+)", out, re.M)
    return m.group(1) if m else None


def first_lit_failure(out):
    m = re.search(r"^(?:FAIL|XPASS|UNRESOLVED|TIMEOUT): \S+ :: (\S+)", out, re.M)
    return m.group(1) if m else None


def run_suite(args, log):
    """('KILLED'|'SURVIVED'|'TIMEOUT', first failing test or None)."""
    binaries = [("interp", [os.path.join(BUILD, "bin", "blk-interp-tests"), "--gtest_brief=1"]),
                ("unit", [os.path.join(BUILD, "bin", "blk-unit-tests"), "--gtest_brief=1"])]
    for name, cmd in binaries:
        status, out = run(cmd, args.timeout)
        log.write(f"$ {' '.join(cmd)}\n{out}\n")
        if status == "timeout":
            return "TIMEOUT", f"{name}: timeout"
        if status != 0:
            return "KILLED", f"{name}: " + (first_gtest_failure(out) or f"exit {status}")
    lit = [LIT, "-q", "--max-failures", "1"]
    if args.lit_filter:
        lit += ["--filter", args.lit_filter]
    if args.lit_filter_out:
        lit += ["--filter-out", args.lit_filter_out]
    lit.append(os.path.join(BUILD, "test"))
    status, out = run(lit, args.timeout)
    log.write(f"$ {' '.join(lit)}\n{out}\n")
    if status == "timeout":
        return "TIMEOUT", "lit: timeout"
    if status != 0:
        return "KILLED", "lit: " + (first_lit_failure(out) or f"exit {status}")
    return "SURVIVED", None


def device_check(args, mid, log):
    """Bundles the mutated compiler and runs --device-cmd on it (see the docstring)."""
    bundle = None
    if args.bundle_dir:
        status, out = run([os.path.join(ROOT, "scripts", "make-bundle.sh")], 3600)
        log.write(f"$ scripts/make-bundle.sh\n{out}\n")
        if status != 0:
            return "ERROR", "make-bundle failed"
        dest = os.path.join(os.path.abspath(args.bundle_dir), mid)
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        bundle = os.path.join(dest, ".bundle")
        shutil.move(os.path.join(ROOT, ".bundle"), bundle)
    if not args.device_cmd:
        return "SURVIVED", None
    env = dict(os.environ, MUTATION_ID=mid, MUTATION_BUNDLE=bundle or "")
    status, out = run(args.device_cmd, args.device_timeout, env=env)
    log.write(f"$ {args.device_cmd}\n{out}\n")
    if status == "timeout":
        return "TIMEOUT", "device gate: timeout"
    if status != 0:
        return "KILLED", "device gate"
    return "SURVIVED", None


def one(args, mut, logdir):
    mid, area, rel, old, new, desc = mut
    path = os.path.join(ROOT, rel)
    with open(path, "rb") as f:
        original = f.read()
    count = original.count(old.encode())
    if count != 1:
        return {"result": "STALE", "first_failure": f"old text occurs {count} times in {rel}"}
    if not args.allow_dirty and subprocess.run(["git", "diff", "--quiet", "HEAD", "--", rel], cwd=ROOT).returncode != 0:
        # Someone is editing this file: a mutant would mix with their work
        # and the restore could race with their next write.
        return {"result": "SKIPPED", "first_failure": f"{rel} has uncommitted changes (--allow-dirty)"}
    mutated = original.replace(old.encode(), new.encode(), 1)
    log = open(os.path.join(logdir, mid + ".log"), "w")
    t0 = time.time()
    try:
        with open(path, "wb") as f:
            f.write(mutated)
        status, out = run(["ninja", "-C", BUILD] + TARGETS, args.build_timeout)
        log.write(f"$ ninja -C build {' '.join(TARGETS)}\n{out}\n")
        if status != 0:
            return {"result": "NO-BUILD", "first_failure": "build timeout" if status == "timeout" else None,
                    "seconds": round(time.time() - t0)}
        result, failure = ("SURVIVED", None) if args.device_only else run_suite(args, log)
        if result == "SURVIVED" and (args.device_cmd or args.bundle_dir):
            result, failure = device_check(args, mid, log)
        return {"result": result, "first_failure": failure, "seconds": round(time.time() - t0)}
    finally:
        restore(path, original, mutated, old, new)
        log.close()


def restore(path, original, mutated, old, new):
    """Writes the original bytes back; if the file changed while mutated (an
    editor saved it), takes only the mutation out of the current text."""
    with open(path, "rb") as f:
        current = f.read()
    if current != mutated and current.count(new.encode()) == 1:
        print(f"\nmutate.py: {path} changed while mutated; reverting only the mutation", file=sys.stderr)
        original = current.replace(new.encode(), old.encode(), 1)
    elif current != mutated:
        print(f"\nmutate.py: {path} changed while mutated; writing the saved original", file=sys.stderr)
    with open(path, "wb") as f:
        f.write(original)


def table(rows):
    head = ("id", "area", "description", "result", "first failing test")
    cells = [head] + [(r["id"], r["area"], r["description"], r["result"], r.get("first_failure") or "") for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    lines = []
    for n, c in enumerate(cells):
        lines.append("  ".join(s.ljust(widths[i]) for i, s in enumerate(c)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--list", action="store_true", help="list the mutations (and whether each still applies)")
    ap.add_argument("--only", help="comma-separated mutation ids")
    ap.add_argument("--area", help="only the mutations of one area (frontend, layouts, vectorize, "
                                   "pipelining, barriers, allocation, lowering)")
    ap.add_argument("--lit-filter", help="run only the lit tests whose path matches REGEX")
    ap.add_argument("--lit-filter-out", help="skip the lit tests whose path matches REGEX")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per test binary and for lit (900)")
    ap.add_argument("--build-timeout", type=int, default=1800, help="seconds for each rebuild (1800)")
    ap.add_argument("--json", help="write the results to this file")
    ap.add_argument("--logs", default=None, help="directory for per-mutation logs (default: a temp dir)")
    ap.add_argument("--bundle-dir", help="also make a bundle of each surviving mutant under DIR/<id>/.bundle")
    ap.add_argument("--device-cmd", help="run on each surviving mutant (MUTATION_ID, MUTATION_BUNDLE set)")
    ap.add_argument("--device-timeout", type=int, default=3600)
    ap.add_argument("--device-only", action="store_true", help="skip the CPU suite (with --device-cmd)")
    ap.add_argument("--allow-dirty", action="store_true",
                    help="also mutate files with uncommitted changes (skipped by default)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the suite on the unmutated tree first")
    ap.add_argument("--no-final-rebuild", action="store_true", help="do not rebuild the clean sources at the end")
    args = ap.parse_args()

    muts = select(args)
    if args.list:
        for mid, area, rel, old, new, desc in muts:
            with open(os.path.join(ROOT, rel), "rb") as f:
                n = f.read().count(old.encode())
            state = "" if n == 1 else f"  [STALE: old text occurs {n} times]"
            print(f"{mid:28} {area:11} {rel}: {desc}{state}")
        print(f"{len(muts)} mutations")
        return 0

    logdir = args.logs or os.path.join("/tmp", f"blk-mutate-{os.getpid()}")
    os.makedirs(logdir, exist_ok=True)

    def on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)

    rows = []
    interrupted = False
    try:
        if not args.no_baseline:
            # The unmutated tree must pass, or every mutant would look killed.
            print("baseline (no mutation) ...", end=" ", flush=True)
            status, out = run(["ninja", "-C", BUILD] + TARGETS, args.build_timeout)
            with open(os.path.join(logdir, "baseline.log"), "w") as log:
                log.write(out)
                result, failure = run_suite(args, log) if status == 0 else ("NO-BUILD", None)
            print(result if result != "SURVIVED" else "passes", failure or "", flush=True)
            if result != "SURVIVED":
                sys.exit("mutate.py: the unmutated tree does not build or pass the suite; nothing to measure")
        for i, mut in enumerate(muts):
            mid, area, rel, old, new, desc = mut
            print(f"[{i + 1}/{len(muts)}] {mid} ({rel}) ...", end=" ", flush=True)
            r = one(args, mut, logdir)
            r.update(id=mid, area=area, file=rel, description=desc)
            rows.append(r)
            extra = f" {r['first_failure']}" if r.get("first_failure") else ""
            print(f"{r['result']}{extra} ({r.get('seconds', 0)} s)", flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: the mutated file is restored", flush=True)

    if not args.no_final_rebuild:
        status, out = run(["ninja", "-C", BUILD] + TARGETS, args.build_timeout)
        if status != 0:
            print("mutate.py: rebuilding the clean sources failed:\n" + out[-3000:], file=sys.stderr)

    print()
    print(table(rows))
    killed = sum(r["result"] in ("KILLED", "TIMEOUT") for r in rows)
    skipped = sum(r["result"] == "SKIPPED" for r in rows)
    survived = [r["id"] for r in rows if r["result"] == "SURVIVED"]
    counted = killed + len(survived)
    print(f"\nkilled {killed} of {counted} that built"
          + (f"; survived: {', '.join(survived)}" if survived else "")
          + f"; not built: {sum(r['result'] == 'NO-BUILD' for r in rows)}"
          + f"; stale: {sum(r['result'] == 'STALE' for r in rows)}; skipped: {skipped}; logs in {logdir}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": date.today().isoformat(), "command": " ".join(shlex.quote(a) for a in sys.argv),
                       "killed": killed, "counted": counted, "results": rows}, f, indent=2)
    return 130 if interrupted else (1 if survived else 0)


if __name__ == "__main__":
    sys.exit(main())
