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

The GPU gate. The GPU machine has no compiler: a mutant reaches it as an
overlay of the clean bundle (.bundle, made by scripts/make-bundle.sh from the
unmutated tree). --bundle-dir DIR writes, for each mutant (after the CPU
suite, still mutated; --device-only skips the suite), DIR/<id>/ with the
files of the bundle the mutated compiler changes, gzipped: the PTX of every
variant (scripts/build-ptx.sh) and the AOT example (its kernel is compiled
in at build time). Nothing else in the bundle comes from blkc that the gate
runs (blk-gpu-tests and the runtime link no compiler; the JIT's tests, when
the bundle has them, carry the clean compiler). Before the first mutant the
same is done for the unmutated compiler, which must change no file (else the
bundle is stale). DIR/bundle.sha256 pins the clean bundle, DIR/mutants.json
lists the overlays. On the GPU machine, scripts/device-mutants.sh DIR (also
in the bundle) runs scripts/device-gate.sh over the clean bundle with each
overlay applied and prints caught or survived per mutant.

    scripts/make-bundle.sh
    scripts/mutate.py --only A,B,C --device-only --bundle-dir .mutants
    scripts/mutate.py --compiler-overlay clean --bundle-dir /tmp/ov   # the self-check: 0 files differ

--compiler-overlay ID prepares DIR/ID from the compiler as it is (--blkc
picks another blkc, e.g. a wrapper that edits its PTX), mutating nothing.
--device-cmd CMD runs CMD (through sh, from the repository root) on each
prepared mutant with MUTATION_ID and MUTATION_OVERLAY set, for a device a
shell can reach; a non-zero exit kills the mutant.

The whole run holds the build lock (BLK_BUILD_LOCK, /tmp/blk-build.lock):
while a mutant is built, build/ holds mutated objects and binaries, and no
one else's build may link them. Do not run this script under flock.
"""

import argparse
import fcntl
import gzip
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from datetime import date

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
LIT = os.environ.get("LIT", "/usr/lib/llvm-22/bin/lit")
TARGETS = ["blkc", "blk-opt", "blk-run", "blk-interp-tests", "blk-unit-tests"]
DEVICE_TARGETS = ["blkc", "aot-vector-add"]  # what an overlay needs rebuilt
# The bundle's files that come from blkc and that the device gate runs:
# every PTX (scripts/build-ptx.sh) and the AOT example (blkc at build time).
AOT = os.path.join("bin", "aot-vector-add")
OVERLAY_LIMIT = 40 << 20

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
    ("pipe-tma-store-no-wait", "pipelining", TR + "TmaStores.cpp",
     "    TMAStoreWaitOp::create(b, loc, ValueRange{buffer});\n    BarrierOp::create(b, loc);\n  }",
     "  }",
     "a TMA store in a loop writes its buffer again without waiting for the last copy to read it"),
    ("pipe-tma-store-no-fence", "pipelining", TR + "TmaStores.cpp",
     "  FenceAsyncSharedOp::create(b, loc);\n  BarrierOp::create(b, loc);\n  AsyncTMAStoreOp",
     "  BarrierOp::create(b, loc);\n  AsyncTMAStoreOp",
     "a TMA store copies its buffer out with no fence after the threads wrote it"),
    ("pipe-tma-store-live-across", "pipelining", TR + "PipelineDot.cpp",
     "    int64_t otherBytes = buffersLiveAcross(loop);",
     "    int64_t otherBytes = 0;",
     "the rings do not count a TMA store's buffer that lives across their loop"),
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
     "bytes = (int64_t(32) << layout.warps.size()) * slots * sharedElementBytes(src.getType());",
     "bytes = (int64_t(16) << layout.warps.size()) * slots * sharedElementBytes(src.getType());",
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
    ("low-scan-part", "lowering", LO + "ScanToLLVM.cpp",
     "sharedElement(rw, loc, offset + part, total[0][i].getType(), idx)",
     "sharedElement(rw, loc, offset, total[0][i].getType(), idx)",
     "a tuple scan's parts all go through operand 0's part of the scratch"),
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


def compiler_files(args, scratch, log):
    """The bundle's compiler-made files from the compiler as it is now, under
    `scratch` as the bundle lays them out; None if blkc fails on a kernel."""
    blkc = args.blkc or os.path.join(BUILD, "bin", "blkc")
    cmd = [os.path.join(ROOT, "scripts", "build-ptx.sh"), os.path.join(scratch, "ptx"), "--arch", args.arch,
           "--blkc", blkc]
    status, out = run(cmd, args.build_timeout)
    log.write(f"$ {' '.join(cmd)}\n{out}\n")
    if status != 0:
        return None
    os.makedirs(os.path.join(scratch, "bin"))
    status, out = run(["strip", "-o", os.path.join(scratch, AOT), os.path.join(BUILD, "bin", "aot-vector-add")], 60)
    if status != 0:
        raise RuntimeError(f"strip of the AOT example failed: {out}")
    return [os.path.join("ptx", f) for f in sorted(os.listdir(os.path.join(scratch, "ptx")))] + [AOT]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def prepare_overlay(args, oid, log):
    """DIR/<oid>/: the compiler-made files that differ from the clean
    bundle's, gzipped. ("ok", [paths]) or (result, why) when blkc fails."""
    dest = os.path.join(os.path.abspath(args.bundle_dir), oid)
    shutil.rmtree(dest, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="blk-overlay-") as scratch:
        files = compiler_files(args, scratch, log)
        if files is None:
            # A compiler that cannot compile a shipped kernel: compile-all.test fails on it.
            return "KILLED", "blkc fails on a kernel variant (scripts/build-ptx.sh)"
        changed = []
        for rel in files:
            clean = os.path.join(args.clean_bundle, rel)
            if os.path.exists(clean) and digest(clean) == digest(os.path.join(scratch, rel)):
                continue
            changed.append(rel)
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            with open(os.path.join(scratch, rel), "rb") as src, gzip.open(os.path.join(dest, rel + ".gz"), "wb") as gz:
                shutil.copyfileobj(src, gz)
        os.makedirs(dest, exist_ok=True)
    log.write(f"overlay {dest}: {len(changed)} files differ from {args.clean_bundle}\n"
              + "".join(f"  {c}\n" for c in changed))
    return "ok", changed


def pin_clean_bundle(args):
    """DIR/bundle.sha256 (sha256sum's format) of the clean bundle's files an
    overlay can replace: the device script checks it was carried unchanged."""
    if not os.path.isdir(os.path.join(args.clean_bundle, "ptx")):
        sys.exit(f"mutate.py: no clean bundle at {args.clean_bundle}: "
                 "run scripts/make-bundle.sh on the unmutated tree first")
    rels = [os.path.join("ptx", f) for f in sorted(os.listdir(os.path.join(args.clean_bundle, "ptx")))] + [AOT]
    os.makedirs(args.bundle_dir, exist_ok=True)
    with open(os.path.join(args.bundle_dir, "bundle.sha256"), "w") as f:
        for rel in rels:
            f.write(f"{digest(os.path.join(args.clean_bundle, rel))}  .bundle/{rel}\n")


def read_index(bundle_dir):
    """DIR/mutants.json: the overlays the device script applies, in order."""
    try:
        with open(os.path.join(bundle_dir, "mutants.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return []


def write_index(bundle_dir, index):
    with open(os.path.join(bundle_dir, "mutants.json"), "w") as f:
        json.dump(index, f, indent=1)


def drop_overlays(bundle_dir):
    """Removes the overlays DIR/mutants.json lists (a new run replaces them)."""
    for entry in read_index(bundle_dir):
        shutil.rmtree(os.path.join(bundle_dir, entry["id"]), ignore_errors=True)
    write_index(bundle_dir, [])


def overlay_bytes(bundle_dir):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(bundle_dir) for f in fs)


def device_check(args, mid, log, row):
    """Prepares the mutant's overlay (--bundle-dir) and runs --device-cmd on it (see the docstring)."""
    overlay = None
    if args.bundle_dir:
        status, detail = prepare_overlay(args, mid, log)
        if status != "ok":
            return status, detail
        row["overlay_files"] = detail
        overlay = os.path.join(os.path.abspath(args.bundle_dir), mid)
        if not args.device_cmd:
            return "PREPARED", f"{len(detail)} files differ" if detail else "no file of the bundle differs"
    env = dict(os.environ, MUTATION_ID=mid, MUTATION_OVERLAY=overlay or "")
    status, out = run(args.device_cmd, args.device_timeout, env=env)
    log.write(f"$ {args.device_cmd}\n{out}\n")
    if status == "timeout":
        return "TIMEOUT", "device gate: timeout"
    if status != 0:
        return "KILLED", "device gate"
    return "SURVIVED", None


def one(args, mut, logdir, targets):
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
    row = {}
    try:
        with open(path, "wb") as f:
            f.write(mutated)
        status, out = run(["ninja", "-C", BUILD] + targets, args.build_timeout)
        log.write(f"$ ninja -C build {' '.join(targets)}\n{out}\n")
        if status != 0:
            return {"result": "NO-BUILD", "first_failure": "build timeout" if status == "timeout" else None,
                    "seconds": round(time.time() - t0)}
        result, failure = ("SURVIVED", None) if args.device_only else run_suite(args, log)
        if result == "SURVIVED" and (args.device_cmd or args.bundle_dir):
            result, failure = device_check(args, mid, log, row)
        return dict(row, result=result, first_failure=failure, seconds=round(time.time() - t0))
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


def hold_build_lock():
    """The shared build lock, held until the returned file is closed."""
    path = os.environ.get("BLK_BUILD_LOCK", "/tmp/blk-build.lock")
    f = open(path, "a")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"mutate.py: waiting for the build lock {path} ...", flush=True)
        fcntl.flock(f, fcntl.LOCK_EX)
    return f


def compiler_overlay(args, logdir):
    """--compiler-overlay ID: DIR/ID from the compiler as it is (no mutation)."""
    lock = hold_build_lock()
    try:
        pin_clean_bundle(args)
        with open(os.path.join(logdir, args.compiler_overlay + ".log"), "w") as log:
            result, changed = prepare_overlay(args, args.compiler_overlay, log)
    finally:
        lock.close()
    if result != "ok":
        print(f"{args.compiler_overlay}: {changed} (log {logdir})")
        return 1
    oid = args.compiler_overlay
    write_index(args.bundle_dir, [e for e in read_index(args.bundle_dir) if e["id"] != oid] + [dict(
        id=oid, description=f"the compiler as it is ({args.blkc or 'build/bin/blkc'}), no mutation", file=None,
        overlay_files=changed)])
    print(f"{args.compiler_overlay}: {len(changed)} files differ from {args.clean_bundle}"
          + "".join(f"\n  {c}" for c in changed[:20]) + ("\n  ..." if len(changed) > 20 else "")
          + f"\noverlay: {os.path.join(args.bundle_dir, args.compiler_overlay)} "
          + f"({overlay_bytes(os.path.join(args.bundle_dir, args.compiler_overlay)) >> 10} KiB)")
    return 0


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
    ap.add_argument("--bundle-dir", help="write each surviving mutant's overlay of the clean bundle to DIR/<id>/")
    ap.add_argument("--device-cmd", help="run on each surviving mutant (MUTATION_ID, MUTATION_OVERLAY set)")
    ap.add_argument("--device-timeout", type=int, default=3600)
    ap.add_argument("--device-only", action="store_true",
                    help="skip the CPU suite (with --bundle-dir or --device-cmd); "
                         "rebuild only blkc and the AOT example")
    ap.add_argument("--compiler-overlay", metavar="ID",
                    help="with --bundle-dir: prepare DIR/ID from the compiler as it is, mutating nothing")
    ap.add_argument("--blkc", help="the blkc that prepares overlays (default: build/bin/blkc)")
    ap.add_argument("--arch", default="sm_90a", help="the bundle's target (make-bundle.sh's --arch; sm_90a)")
    ap.add_argument("--clean-bundle", default=os.path.join(ROOT, ".bundle"),
                    help="the bundle of the unmutated tree the overlays differ from (default: .bundle)")
    ap.add_argument("--allow-dirty", action="store_true",
                    help="also mutate files with uncommitted changes (skipped by default)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the suite on the unmutated tree first")
    ap.add_argument("--no-final-rebuild", action="store_true", help="do not rebuild the clean sources at the end")
    args = ap.parse_args()

    muts = select(args)
    if args.compiler_overlay and not args.bundle_dir:
        sys.exit("mutate.py: --compiler-overlay needs --bundle-dir")
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
    if args.compiler_overlay:
        return compiler_overlay(args, logdir)
    targets = DEVICE_TARGETS if args.device_only else TARGETS + (["aot-vector-add"] if args.bundle_dir else [])
    lock = hold_build_lock()

    def on_term(signum, frame):
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, on_term)

    rows = []
    interrupted = False
    try:
        if args.bundle_dir:
            pin_clean_bundle(args)
            drop_overlays(args.bundle_dir)
            # The clean bundle must be the unmutated compiler's, or every overlay would hold stale files.
            status, out = run(["ninja", "-C", BUILD] + targets, args.build_timeout)
            with open(os.path.join(logdir, "clean-overlay.log"), "w") as log:
                log.write(out)
                result, changed = prepare_overlay(args, "clean", log) if status == 0 else ("NO-BUILD", None)
            if result != "ok" or changed:
                what = f"changes {len(changed)} files of" if result == "ok" else "does not build or fails on"
                sys.exit(f"mutate.py: the unmutated compiler {what} {args.clean_bundle} "
                         f"(log {logdir}/clean-overlay.log): remake it with scripts/make-bundle.sh")
            shutil.rmtree(os.path.join(args.bundle_dir, "clean"))
        if not args.no_baseline and not args.device_only:
            # The unmutated tree must pass, or every mutant would look killed.
            print("baseline (no mutation) ...", end=" ", flush=True)
            status, out = run(["ninja", "-C", BUILD] + targets, args.build_timeout)
            with open(os.path.join(logdir, "baseline.log"), "w") as log:
                log.write(out)
                result, failure = run_suite(args, log) if status == 0 else ("NO-BUILD", None)
            print(result if result != "SURVIVED" else "passes", failure or "", flush=True)
            if result != "SURVIVED":
                sys.exit("mutate.py: the unmutated tree does not build or pass the suite; nothing to measure")
        for i, mut in enumerate(muts):
            mid, area, rel, old, new, desc = mut
            print(f"[{i + 1}/{len(muts)}] {mid} ({rel}) ...", end=" ", flush=True)
            r = one(args, mut, logdir, targets)
            r.update(id=mid, area=area, file=rel, description=desc)
            rows.append(r)
            extra = f" {r['first_failure']}" if r.get("first_failure") else ""
            print(f"{r['result']}{extra} ({r.get('seconds', 0)} s)", flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: the mutated file is restored", flush=True)

    if not args.no_final_rebuild:
        status, out = run(["ninja", "-C", BUILD] + targets, args.build_timeout)
        if status != 0:
            print("mutate.py: rebuilding the clean sources failed:\n" + out[-3000:], file=sys.stderr)
    lock.close()

    print()
    print(table(rows))
    killed = sum(r["result"] in ("KILLED", "TIMEOUT") for r in rows)
    skipped = sum(r["result"] == "SKIPPED" for r in rows)
    survived = [r["id"] for r in rows if r["result"] == "SURVIVED"]
    counted = killed + len(survived)
    if args.bundle_dir:
        write_index(args.bundle_dir, [dict(id=r["id"], description=r["description"], file=r["file"],
                                           overlay_files=r["overlay_files"]) for r in rows if "overlay_files" in r])
        size = overlay_bytes(args.bundle_dir)
        print(f"overlays for the device: {args.bundle_dir} ({size >> 10} KiB"
              + (f", over the {OVERLAY_LIMIT >> 20} MiB a device call carries beside the bundle)"
                 if size > OVERLAY_LIMIT else ")")
              + "; on the GPU machine: scripts/device-mutants.sh " + args.bundle_dir)
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
