#!/usr/bin/env python3
"""Mutation fuzzer for blkc and blk-run (issue 23, part 1).

Takes the project's own kernels (kernels/*.blk, test/kernels/*.blk) with the
bindings of their `# variants:` lines, mutates the source at the token and line
level and the command line (bindings, -D values, --num-warps, --num-stages,
--arch, --emit, --spec, --kernel), runs build/bin/blkc (and build/bin/blk-run
with a tiny grid on a subset) with a timeout, and sorts every run into:

  OK          exit 0 with output
  USER-ERROR  non-zero exit with `file:line:col: error: ...` (or `blkc: error:`
              / `blk-run: error:` for command-line mistakes) naming no MLIR op
              or pass, and no output file left behind
  SLOW-RUN    blk-run over the time limit on a mutated source (the kernel may
              just loop long: not counted as a defect, kept for inspection)
  DEFECT      crash (signal, abort, "Stack dump", "LLVM ERROR", "Assertion",
              "UNREACHABLE"), timeout, exit 0 with "error:" on stderr, exit 0
              without output, non-zero exit with no `error:` line, an error
              that names an MLIR op or pass or says "internal compiler error",
              an error with no source location, or an output file left behind
              on failure

Each iteration draws from its own generator, seeded by (--seed, iteration), so a
run is deterministic for a given seed and the same iteration always makes the
same mutant whatever --seconds cuts off. Every defect's reproducer (the mutated
.blk, the exact command as cmd.sh, stdout/stderr, the mutations applied) is
written under --out/defects/CLASS/; the first --keep of each distinct
signature are kept. Standard library only.

  python3 scripts/fuzz-blkc.py --seed 1 --seconds 600 --out /tmp/fuzz
"""

import argparse
import hashlib
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

# ---------------------------------------------------------------------------
# Corpus: kernels, their variants and signatures

TYPE_NAMES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
              "f8e4m3", "f8e5m2", "bool"]
BAD_TYPE_NAMES = ["fp8", "float8e4nv", "f8", "i128", "f128", "tf32", "dtype", "constexpr", "void"]
NUMBERS = ["0", "1", "-1", "3", "2", "16", "17", "1024", "65536", "2147483648", "2147483647", "4294967296",
           "9223372036854775807", "9223372036854775808", "0.0", "-0.0", "1e38", "1e-45", "0.5", "inf", "nan"]
BUILTINS = ["arange", "argmax", "argmin", "atomic_add", "atomic_cas", "broadcast_to", "cdiv", "cumprod", "cumsum",
            "device_assert", "device_print", "div_rn", "dot", "fma", "full", "load", "make_tensor_descriptor", "max",
            "max_contiguous", "maximum", "min", "minimum", "multiple_of", "num_programs", "program_id", "reshape",
            "static_assert", "store", "sum", "trans", "where", "zeros", "exp", "log", "sqrt", "sigmoid", "tanh",
            "abs", "range", "static_range", "to", "None", "True", "False"]
KEYWORDS = ["if", "else", "elif", "for", "while", "in", "return", "and", "or", "not", "def", "pass", "break",
            "continue", "@kernel", "lambda"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "~", "<", ">", "<=", ">=", "==", "!=",
             "=", ":", ",", ".", "(", ")", "[", "]", "@"]
BINDING_VALUES = NUMBERS + TYPE_NAMES + BAD_TYPE_NAMES + ["True", "False", "ieee", "tf32", "", "abc", "1.5", "1e3",
                                                         "0x10", "'x'", "\"tf32\"", "-"]
WARPS_OK = ["1", "2", "4", "8", "16", "32"]
WARPS_BAD = ["0", "3", "5", "64", "-1", "abc", "4294967296", ""]
STAGES = ["0", "1", "2", "3", "4", "8", "-1", "x"]
ARCHS_OK = ["sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"]
ARCHS_BAD = ["sm_70", "sm_100", "sm_90b", "compute_90", "x", ""]
EMITS = ["blk"] * 3 + ["gpu"] * 4 + ["llvm"] * 2 + ["ptx"] * 7 + ["ast", "header", "cubin"]
EMITS_BAD = ["mlir", "PTX", ""]
POWERS = [str(1 << k) for k in range(17)]

TOKEN_RE = re.compile(r"""
   (?P<ws>[ \t]+)
 | (?P<comment>\#.*)
 | (?P<str>"[^"\n]*"|'[^'\n]*')
 | (?P<num>0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
 | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
 | (?P<op>\*\*|//|<<|>>|<=|>=|==|!=|->|[-+*/%<>=&|^~!:,.;()\[\]{}@])
 | (?P<other>.)
""", re.X)


def tokenize(line):
    return [(m.lastgroup, m.group()) for m in TOKEN_RE.finditer(line)]


def significant(tokens):
    return [i for i, (k, _) in enumerate(tokens) if k not in ("ws", "comment")]


class Kernel:
    """One @kernel of a corpus file: its name and its parameters."""

    def __init__(self, name, params):
        self.name = name
        self.params = params  # [(name, annotation, default or None)]

    @property
    def runtime(self):
        return [(n, a) for n, a, _ in self.params if a not in ("dtype", "constexpr")]

    @property
    def compile_time(self):
        return [n for n, a, _ in self.params if a in ("dtype", "constexpr")]


def split_top(text, sep=","):
    parts, depth, cur = [], 0, ""
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return parts


def parse_kernels(source):
    kernels = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "@kernel" and i + 1 < len(lines):
            text, j, depth = "", i + 1, 0
            while j < len(lines):
                chunk = lines[j].split("#")[0]
                text += chunk + " "
                depth += chunk.count("(") - chunk.count(")")
                if depth <= 0 and ":" in chunk:
                    break
                j += 1
            m = re.match(r"\s*def\s+(\w+)\s*\((.*)\)\s*(->.*)?:\s*$", text.strip())
            if m:
                params = []
                for p in split_top(m.group(2)):
                    name, _, rest = p.partition(":")
                    ann, _, default = rest.partition("=")
                    params.append((name.strip(), ann.strip(), default.strip() or None))
                kernels.append(Kernel(m.group(1), params))
            i = j
        i += 1
    return kernels


class CorpusFile:
    def __init__(self, path, root):
        self.path = path
        self.rel = os.path.relpath(path, root)
        self.source = Path(path).read_text()
        self.lines = self.source.split("\n")
        variants = [l for l in self.lines if re.match(r"^# variants:", l)]
        self.variants = []  # each a list of (NAME, VALUE)
        if variants:
            for v in re.sub(r"^# variants: *", "", variants[0]).split():
                self.variants.append([tuple(d.split("=", 1)) for d in v.split(",") if "=" in d])
        self.specialize = []
        for l in self.lines:
            m = re.match(r"^# specialize(16)?: *(.*)", l)
            if m:
                for w in m.group(2).split():
                    self.specialize.append(w if "=" in w else w + "=16")
        self.kernels = parse_kernels(self.source)


def load_corpus(root, patterns):
    files = []
    for pat in patterns:
        files.extend(sorted(Path(root).glob(pat)))
    corpus = [CorpusFile(str(f), root) for f in files]
    return [c for c in corpus if c.kernels]


# ---------------------------------------------------------------------------
# Mutations

def pick_line(rng, lines, need_tokens=True):
    idx = [i for i, l in enumerate(lines)
           if l.strip() and not l.lstrip().startswith("#")
           and (not need_tokens or significant(tokenize(l)))]
    return rng.choice(idx) if idx else None


def names_in(lines):
    names = set()
    for l in lines:
        for k, t in tokenize(l):
            if k == "name":
                names.add(t)
    return sorted(names)


def mutate_tokens(rng, lines, op, corpus):
    li = pick_line(rng, lines)
    if li is None:
        return None
    toks = tokenize(lines[li])
    sig = significant(toks)
    if op == "tok-delete":
        i = rng.choice(sig)
        desc = f"line {li + 1}: delete {toks[i][1]!r}"
        del toks[i]
    elif op == "tok-dup":
        i = rng.choice(sig)
        desc = f"line {li + 1}: duplicate {toks[i][1]!r}"
        toks.insert(i, toks[i])
    elif op == "tok-swap":
        if len(sig) < 2:
            return None
        a, b = sorted(rng.sample(sig, 2))
        desc = f"line {li + 1}: swap {toks[a][1]!r} and {toks[b][1]!r}"
        toks[a], toks[b] = toks[b], toks[a]
    elif op == "num":
        cand = [i for i in sig if toks[i][0] == "num"]
        if not cand:
            return None
        i = rng.choice(cand)
        v = rng.choice(NUMBERS)
        desc = f"line {li + 1}: number {toks[i][1]} -> {v}"
        toks[i] = ("num", v)
    elif op == "type":
        cand = [i for i in sig if toks[i][0] == "name" and toks[i][1] in TYPE_NAMES + ["dtype", "constexpr"]]
        if not cand:
            return None
        i = rng.choice(cand)
        v = rng.choice(TYPE_NAMES + BAD_TYPE_NAMES) if rng.random() < 0.85 else rng.choice(["dtype", "constexpr"])
        desc = f"line {li + 1}: type {toks[i][1]} -> {v}"
        toks[i] = ("name", v)
    elif op == "name":
        cand = [i for i in sig if toks[i][0] == "name"]
        if not cand:
            return None
        i = rng.choice(cand)
        pool = names_in(lines)
        v = rng.choice(pool) if rng.random() < 0.7 else rng.choice(BUILTINS + KEYWORDS)
        desc = f"line {li + 1}: name {toks[i][1]} -> {v}"
        toks[i] = ("name", v)
    elif op == "operator":
        cand = [i for i in sig if toks[i][0] == "op"]
        if not cand:
            return None
        i = rng.choice(cand)
        v = rng.choice(OPERATORS)
        desc = f"line {li + 1}: operator {toks[i][1]} -> {v}"
        toks[i] = ("op", v)
    elif op == "wrap":
        # an operand put through a builtin or a conversion: type checks and lowerings beyond the parser
        cand = [i for i in sig if toks[i][0] in ("name", "num") and toks[i][1] not in KEYWORDS]
        if not cand:
            return None
        i = rng.choice(cand)
        t = rng.choice(TYPE_NAMES)
        form = rng.choice(["{}.to(%s)" % t, "({}).to(%s)" % t, "cumsum({}, axis=0)", "sum({}, axis=0)",
                           "max({}, axis=0)", "argmax({}, axis=0)", "trans({})", "{}[:, None]", "{}[None, :]",
                           "abs({})", "exp({})", "sqrt({})", "-{}", "~{}", "({} // 3)", "({} % 0)", "({} >> 40)",
                           "where({} > 0, {}, 0)", "maximum({}, 1.0)", "fma({}, {}, {})", "cdiv({}, 16)",
                           "broadcast_to({}, [16, 16])", "reshape({}, [2, -1])"])
        v = form.format(*[toks[i][1]] * form.count("{}"))
        desc = f"line {li + 1}: {toks[i][1]} -> {v}"
        toks[i] = ("other", v)
    elif op == "insert":
        i = rng.choice(sig)
        v = rng.choice(OPERATORS + NUMBERS + BUILTINS + TYPE_NAMES + KEYWORDS + names_in(lines))
        desc = f"line {li + 1}: insert {v!r} before {toks[i][1]!r}"
        toks.insert(i, ("other", v + " "))
    else:
        raise ValueError(op)
    lines[li] = "".join(t for _, t in toks)
    return desc


def mutate_lines(rng, lines, op, corpus):
    li = pick_line(rng, lines)
    if li is None:
        return None
    if op == "line-delete":
        desc = f"delete line {li + 1}: {lines[li].strip()!r}"
        del lines[li]
    elif op == "line-dup":
        desc = f"duplicate line {li + 1}: {lines[li].strip()!r}"
        lines.insert(li, lines[li])
    elif op == "line-swap":
        lj = pick_line(rng, lines)
        if lj == li:
            return None
        desc = f"swap lines {li + 1} and {lj + 1}"
        lines[li], lines[lj] = lines[lj], lines[li]
    elif op == "line-move":
        text = lines.pop(li)
        lj = rng.randrange(len(lines) + 1)
        lines.insert(lj, text)
        desc = f"move line {li + 1} to {lj + 1}: {text.strip()!r}"
    elif op == "line-indent":
        if rng.random() < 0.5 and lines[li].startswith("    "):
            lines[li] = lines[li][4:]
            desc = f"dedent line {li + 1}"
        else:
            lines[li] = "    " + lines[li]
            desc = f"indent line {li + 1}"
    elif op == "line-import":
        other = rng.choice(corpus)
        oj = pick_line(rng, other.lines)
        if oj is None:
            return None
        text = other.lines[oj]
        # re-indent to the target line's indentation
        indent = re.match(r"[ \t]*", lines[li]).group()
        text = indent + text.lstrip()
        lines.insert(li + rng.randrange(2), text)
        desc = f"insert at line {li + 1} from {other.rel}:{oj + 1}: {text.strip()!r}"
    else:
        raise ValueError(op)
    return desc


TOKEN_OPS = ["tok-delete", "tok-dup", "tok-swap", "num", "num", "num", "type", "type", "type", "name", "operator",
             "insert", "wrap", "wrap", "wrap", "wrap"]
LINE_OPS = ["line-delete", "line-dup", "line-swap", "line-move", "line-indent", "line-import"]


def mutate_source(rng, cf, corpus, count):
    lines = list(cf.lines)
    applied = []
    tries = 0
    while len(applied) < count and tries < count * 10:
        tries += 1
        op = rng.choice(TOKEN_OPS + LINE_OPS)
        desc = (mutate_tokens if op in TOKEN_OPS else mutate_lines)(rng, lines, op, corpus)
        if desc:
            applied.append(f"{op}: {desc}")
    return "\n".join(lines), applied


class Flags:
    """A blkc command line as bindings and options, mutated, then rendered."""

    def __init__(self, variant):
        self.defines = []  # [(NAME, VALUE)] or raw strings
        self.warps = None
        self.stages = None
        self.release = False
        self.ping_pong = False
        self.warp_specialize = False
        for name, value in variant:
            if name == "num_warps":
                self.warps = value
            elif name == "num_stages":
                self.stages = value
            elif name == "release_slots":
                self.release = value == "True"
            elif name == "ping_pong":
                self.ping_pong = value == "True"
            elif name == "warp_specialize":
                self.warp_specialize = value == "True"
            else:
                self.defines.append(f"{name}={value}")
        self.arch = None
        self.emit = "ptx"
        self.specs = []
        self.kernels = []
        self.align = False

    def render(self):
        args = []
        for d in self.defines:
            args += ["-D", d]
        if self.warps is not None:
            args += ["--num-warps", self.warps]
        if self.stages is not None:
            args += ["--num-stages", self.stages]
        if self.release:
            args += ["--release-slots"]
        if self.ping_pong:
            args += ["--ping-pong"]
        if self.warp_specialize:
            args += ["--warp-specialize"]
        if self.arch is not None:
            args += ["--arch", self.arch]
        for s in self.specs:
            args += ["--spec", s]
        if self.align:
            args.append("--align-pointers")
        for k in self.kernels:
            args += ["--kernel", k]
        args.append(f"--emit={self.emit}")
        return args


def mutate_flags(rng, flags, cf, count):
    applied = []
    params = sorted({n for k in cf.kernels for n in k.compile_time})
    runtime = sorted({n for k in cf.kernels for n, _ in k.runtime})
    for _ in range(count):
        op = rng.choice(["def-value", "def-value", "def-add", "def-drop", "def-malformed", "warps", "warps",
                         "stages", "arch", "arch", "spec", "spec", "align", "kernel", "emit-bad"])
        if op == "def-value" and flags.defines:
            i = rng.randrange(len(flags.defines))
            name, _, old = flags.defines[i].partition("=")
            numeric = old.isdigit() and rng.random() < 0.6
            flags.defines[i] = f"{name}={rng.choice(POWERS if numeric else BINDING_VALUES)}"
            applied.append(f"{op}: -D {flags.defines[i]}")
        elif op in ("def-add", "def-value"):
            pool = params + runtime + ["UNKNOWN", "num_warps", "BLOCK"]
            name = rng.choice(pool)
            flags.defines.append(f"{name}={rng.choice(BINDING_VALUES)}")
            applied.append(f"def-add: -D {flags.defines[-1]}")
        elif op == "def-drop" and flags.defines:
            d = flags.defines.pop(rng.randrange(len(flags.defines)))
            applied.append(f"{op}: drop -D {d}")
        elif op == "def-malformed":
            flags.defines.append(rng.choice(["=3", "BLOCK", "BLOCK==4", "T=f32=f16", " =1", "BLOCK= 64"]))
            applied.append(f"{op}: -D {flags.defines[-1]!r}")
        elif op == "warps":
            flags.warps = rng.choice(WARPS_OK) if rng.random() < 0.7 else rng.choice(WARPS_BAD)
            applied.append(f"{op}: --num-warps {flags.warps!r}")
        elif op == "stages":
            flags.stages = rng.choice(STAGES)
            applied.append(f"{op}: --num-stages {flags.stages!r}")
        elif op == "arch":
            flags.arch = rng.choice(ARCHS_OK) if rng.random() < 0.8 else rng.choice(ARCHS_BAD)
            applied.append(f"{op}: --arch {flags.arch!r}")
        elif op == "spec":
            pool = cf.specialize + [f"{n}={rng.choice(['16', '1'])}" for n in runtime] + \
                ["UNKNOWN=16", "n=8", "X", "=16", "BLOCK=16"]
            flags.specs.append(rng.choice(pool))
            applied.append(f"{op}: --spec {flags.specs[-1]}")
        elif op == "align":
            flags.align = True
            applied.append(f"{op}: --align-pointers")
        elif op == "kernel":
            flags.kernels.append(rng.choice([k.name for k in cf.kernels] + ["no_such_kernel", ""]))
            applied.append(f"{op}: --kernel {flags.kernels[-1]!r}")
        elif op == "emit-bad":
            flags.emit = rng.choice(EMITS_BAD)
            applied.append(f"{op}: --emit={flags.emit}")
    return applied


# ---------------------------------------------------------------------------
# Running and classifying

CRASH_MARKERS = ["Stack dump", "LLVM ERROR", "Assertion", "UNREACHABLE", "terminate called", "Segmentation fault",
                 "Aborted", "AddressSanitizer", "core dumped", "PLEASE submit a bug report"]
DIALECTS = ("arith|blk|llvm|scf|func|math|gpu|nvvm|cf|memref|vector|builtin|tensor|ub|index|affine|nvgpu|ptr|"
            "triton_gpu|ttg|tt")
OP_RE = re.compile(r"'(?:%s)\.[A-Za-z_.0-9]+'|'[\w.]+' op\b|\bop '|\b(?:%s)\.[a-z_]+(?:\.[a-z_]+)? op\b" %
                   (DIALECTS, DIALECTS))
PASSES = ["blk-pipeline-loads", "blk-accelerate-dot", "blk-loads-to-tensor-descriptors",
          "blk-lower-tensor-descriptors", "blk-vectorize-memory", "blk-assign-layouts", "blk-coalesce",
          "blk-remove-layout-conversions", "blk-pipeline-dot", "blk-allocate-shared-memory", "blk-insert-barriers",
          "convert-blk-to-llvm", "blk-lower-to-nvvm", "blk-to-gpu", "blk-gpu-to-llvm", "blk-to-llvm"]
INTERNAL_RE = re.compile(r"internal compiler error|failed to legalize|failed to materialize|"
                         r"unrealized_conversion_cast|PassManager|pass pipeline|\bpass '|\b(?:%s)\b" %
                         "|".join(re.escape(p) for p in PASSES))
LOC_ERROR_RE = re.compile(r"^(.+?):(\d+):(\d+): error: (.*)$")
TOOL_ERROR_RE = re.compile(r"^(blkc|blk-run): error: (.*)$")


def normalize(msg):
    msg = re.sub(r"^(Could not convert: \S+ =).*", r"\1 _", msg)
    msg = re.sub(r"^(The following argument was not expected:).*", r"\1 _", msg)
    msg = re.sub(r"'[^']*'", "'_'", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg[:160]


def classify(rc, timed_out, stdout, stderr, out_path, src_name, tool, source_mutated, original=""):
    """Returns (verdict, class, signature)."""
    out_exists = out_path is not None and os.path.exists(out_path)
    lines = stderr.splitlines()
    error_lines = [l for l in lines if "error:" in l]
    if timed_out:
        if tool == "blk-run" and source_mutated:
            return "SLOW-RUN", "slow-run", "blk-run over the limit"
        return "DEFECT", "timeout", f"{tool} timeout on {original}"
    for marker in CRASH_MARKERS:
        if marker in stderr:
            first = next((l for l in lines if marker in l or "LLVM ERROR" in l or "Assertion" in l), marker)
            return "DEFECT", "crash", normalize(first.strip())
    if rc < 0 or rc >= 128:
        sig = -rc if rc < 0 else rc - 128
        name = signal.Signals(sig).name if sig in [s.value for s in signal.Signals] else str(sig)
        return "DEFECT", "crash", f"signal {name}"
    if rc == 0:
        if error_lines:
            return "DEFECT", "error-but-exit-0", normalize(error_lines[0].split("error:", 1)[1].strip())
        if tool == "blkc" and (not out_exists or os.path.getsize(out_path) == 0):
            return "DEFECT", "exit-0-no-output", "no output"
        return "OK", "ok", ""
    # non-zero exit
    if out_exists:
        return "DEFECT", "output-left-on-failure", "output file left behind"
    if not error_lines:
        first = lines[0].strip() if lines else "(empty stderr)"
        return "DEFECT", "no-error-line", normalize(first)
    for l in error_lines:
        m = LOC_ERROR_RE.match(l)
        t = TOOL_ERROR_RE.match(l)
        msg = m.group(4) if m else t.group(2) if t else l
        if OP_RE.search(msg) or any(OP_RE.search(d) for d in lines if re.search(r"\b(error|note|warning):", d)):
            return "DEFECT", "internal-op-in-message", normalize(msg)
        if INTERNAL_RE.search(msg):
            return "DEFECT", "internal-error", normalize(msg)
        if not m and not t:
            return "DEFECT", "error-without-location", normalize(l.strip())
        if m and os.path.basename(m.group(1)) != src_name:
            return "DEFECT", "error-without-location", normalize(l.strip())
    return "USER-ERROR", "user-error", ""


def limit_child():
    os.setsid()
    gib = 1 << 30
    try:
        resource.setrlimit(resource.RLIMIT_AS, (6 * gib, 6 * gib))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass


def run_tool(argv, cwd, timeout):
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=limit_child)
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        timed_out = True
    return (proc.returncode, timed_out, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"),
            time.monotonic() - start)


def blk_run_args(rng, kernel):
    args = ["--grid", rng.choice(["1", "2", "1,2", "3"])]
    for name, ann in kernel.runtime:
        if ann.startswith("*"):
            args += ["--arg", f"{name}={rng.choice(['random', 'range', 'zeros'])}:{rng.choice([4096, 65536])}"
                     .replace("zeros:", "")]
        elif ann.startswith("f"):
            args += ["--arg", f"{name}={rng.choice(['0.5', '1.0', '-2.0'])}"]
        else:
            args += ["--arg", f"{name}={rng.choice(['1', '8', '16', '17'])}"]
    if rng.random() < 0.3:
        args += ["--shuffle", str(rng.randrange(100))]
    return args


# ---------------------------------------------------------------------------
# Driver

def make_case(seed, iteration, corpus, run_fraction):
    rng = random.Random(f"blk-fuzz:{seed}:{iteration}")
    cf = rng.choice(corpus)
    variant = rng.choice(cf.variants) if cf.variants and rng.random() < 0.9 else []
    kernel = rng.choice(cf.kernels)
    use_run = rng.random() < run_fraction
    mode = rng.choice(["source", "source", "source", "flags", "both"])
    n_src = rng.choice([1, 1, 1, 2, 2, 3, 5]) if mode in ("source", "both") else 0
    n_flags = rng.choice([1, 1, 2, 3]) if mode in ("flags", "both") else 0
    source, applied = mutate_source(rng, cf, corpus, n_src) if n_src else (cf.source, [])
    case = {"file": cf, "kernel": kernel, "source": source, "mutations": applied,
            "source_mutated": bool(applied)}
    if use_run:
        defines = [f"{n}={v}" for n, v in variant if n not in ("num_warps", "num_stages", "release_slots", "ping_pong",
                                                                  "warp_specialize")]
        for _ in range(n_flags):
            if defines and rng.random() < 0.5:
                i = rng.randrange(len(defines))
                defines[i] = defines[i].split("=")[0] + "=" + rng.choice(BINDING_VALUES)
                applied.append(f"def-value: -D {defines[i]}")
            elif kernel.compile_time:
                defines.append(f"{rng.choice(kernel.compile_time)}={rng.choice(NUMBERS + TYPE_NAMES)}")
                applied.append(f"def-add: -D {defines[-1]}")
        args = []
        for d in defines:
            args += ["-D", d]
        if len(cf.kernels) > 1:
            args += ["--kernel", kernel.name]
        case["tool"] = "blk-run"
        case["args"] = args + blk_run_args(rng, kernel)
        case["out_name"] = None
    else:
        flags = Flags(variant)
        flags.emit = rng.choice(EMITS)
        if rng.random() < 0.3:
            flags.arch = rng.choice(ARCHS_OK)
        if cf.specialize and rng.random() < 0.3:
            flags.specs = list(cf.specialize)
        applied += mutate_flags(rng, flags, cf, n_flags)
        case["tool"] = "blkc"
        ext = {"ptx": "ptx", "llvm": "ll", "header": "h", "ast": "txt", "cubin": "cubin"}.get(flags.emit, "mlir")
        case["out_name"] = f"out.{ext}"
        case["args"] = flags.render() + ["-o", case["out_name"]]
    return case


def load_known(folder):
    """`# fuzz-known: CLASS REGEX` lines of the findings under FOLDER: defects that are
    filed and not fixed yet. They are reported as KNOWN and do not fail the run."""
    known = []
    for f in sorted(Path(folder).glob("*")):
        if not f.is_file():
            continue
        for line in f.read_text(errors="replace").splitlines():
            m = re.match(r"^#\s*fuzz-known:\s*(\S+)\s+(.*\S)\s*$", line)
            if m:
                known.append((m.group(1), re.compile(m.group(2)), f.name))
    return known


def write_reproducer(out_dir, klass, sig, iteration, case, argv_shown, result, seed):
    rc, timed_out, stdout, stderr, secs = result
    h = hashlib.sha1(f"{klass}:{sig}".encode()).hexdigest()[:8]
    d = Path(out_dir) / "defects" / klass / f"{h}-s{seed}-i{iteration}"
    d.mkdir(parents=True, exist_ok=True)
    src_name = os.path.basename(case["file"].path)
    (d / src_name).write_text(case["source"])
    (d / "cmd.sh").write_text("#!/bin/sh\n# run from this folder\n" + shlex.join(argv_shown) + "\n")
    (d / "stderr.txt").write_text(stderr)
    (d / "stdout.txt").write_text(stdout[:20000])
    (d / "info.txt").write_text(
        f"class: {klass}\nsignature: {sig}\nseed: {seed}\niteration: {iteration}\n"
        f"original: {case['file'].rel}\nexit: {rc}\ntimed out: {timed_out}\nseconds: {secs:.2f}\n"
        "mutations:\n" + "".join(f"  {m}\n" for m in case["mutations"]))
    return d


def main():
    root_default = str(Path(__file__).resolve().parent.parent)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=0, help="stop after N runs (0: no limit)")
    ap.add_argument("--seconds", type=float, default=0, help="start no run after S seconds (0: no limit)")
    ap.add_argument("--start", type=int, default=0, help="first iteration number (replay one with --iterations 1)")
    ap.add_argument("--out", required=True, help="folder for reproducers and scratch files")
    ap.add_argument("--root", default=root_default, help="project root (where kernels/ are)")
    ap.add_argument("--blkc", help="blkc binary (default: ROOT/build/bin/blkc)")
    ap.add_argument("--blk-run", help="blk-run binary (default: ROOT/build/bin/blk-run)")
    ap.add_argument("--corpus", action="append",
                    help="glob under ROOT (repeatable; default: kernels/*.blk and test/kernels/*.blk)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per run before it is a defect")
    ap.add_argument("--run-fraction", type=float, default=0.15, help="share of runs that use blk-run")
    ap.add_argument("--keep", type=int, default=3, help="reproducers kept per distinct defect signature")
    ap.add_argument("--report-only", action="store_true", help="exit 0 even when a defect is found")
    ap.add_argument("--known", action="append", default=[],
                    help="folder of filed findings (test/fuzz-findings): a defect matching one of their "
                    "`# fuzz-known: CLASS REGEX` lines counts as KNOWN, not as a failure")
    ap.add_argument("--verbose", "-v", action="store_true", help="one line per run")
    ap.add_argument("--log", help="write one line per run (verdict, class, seconds, command, first error) here")
    opts = ap.parse_args()
    if not opts.iterations and not opts.seconds:
        ap.error("give --iterations and/or --seconds")

    root = opts.root
    blkc = os.path.abspath(opts.blkc or os.path.join(root, "build/bin/blkc"))
    blk_run = os.path.abspath(opts.blk_run or os.path.join(root, "build/bin/blk-run"))
    for tool in (blkc, blk_run):
        if not os.access(tool, os.X_OK):
            sys.exit(f"fuzz-blkc: error: no executable {tool}")
    corpus = load_corpus(root, opts.corpus or ["kernels/*.blk", "test/kernels/*.blk"])
    if not corpus:
        sys.exit(f"fuzz-blkc: error: no kernels found under {root}")
    out_dir = Path(opts.out)
    work = out_dir / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)

    counts = {}          # class -> runs
    signatures = {}      # (class, sig) -> [count, first reproducer]
    verdicts = {"OK": 0, "USER-ERROR": 0, "DEFECT": 0, "KNOWN": 0, "SLOW-RUN": 0}
    known = [k for folder in opts.known for k in load_known(folder)]
    start = time.monotonic()
    slowest = (0.0, None)
    log = open(opts.log, "w") if opts.log else None
    i = opts.start
    done = 0
    while True:
        if opts.iterations and done >= opts.iterations:
            break
        if opts.seconds and time.monotonic() - start >= opts.seconds:
            break
        case = make_case(opts.seed, i, corpus, opts.run_fraction)
        src_name = os.path.basename(case["file"].path)
        for f in work.iterdir():
            if f.is_file():
                f.unlink()
        (work / src_name).write_text(case["source"])
        tool = blkc if case["tool"] == "blkc" else blk_run
        argv = [tool, src_name] + case["args"]
        result = run_tool(argv, str(work), opts.timeout)
        rc, timed_out, stdout, stderr, secs = result
        out_path = str(work / case["out_name"]) if case["out_name"] else None
        verdict, klass, sig = classify(rc, timed_out, stdout, stderr, out_path, src_name, case["tool"],
                                       case["source_mutated"], case["file"].rel)
        if verdict == "DEFECT":
            match = next((k for k in known if k[0] == klass and k[1].search(sig)), None)
            if match:
                verdict = "KNOWN"
                sig = f"{sig}  (known: {match[2]})"
        verdicts[verdict] += 1
        counts[klass] = counts.get(klass, 0) + 1
        if secs > slowest[0]:
            slowest = (secs, i)
        if verdict in ("DEFECT", "KNOWN", "SLOW-RUN"):
            key = (klass, sig)
            entry = signatures.setdefault(key, [0, None, case["tool"], verdict])
            entry[0] += 1
            if entry[0] <= opts.keep:
                d = write_reproducer(out_dir, klass, sig, i, case, argv, result, opts.seed)
                if entry[1] is None:
                    entry[1] = d
        if log:
            first = next((l for l in stderr.splitlines() if "error" in l), stderr.split("\n", 1)[0])
            log.write(f"{i}\t{verdict}\t{klass}\t{secs:.2f}\t{case['tool']} {case['file'].rel} "
                      f"{' '.join(case['args'])}\t{first}\n")
        if opts.verbose or verdict == "DEFECT":
            print(f"[{i}] {verdict:10} {klass:24} {secs:5.1f}s {case['tool']} {case['file'].rel} "
                  f"{' '.join(case['args'])}" + (f"  :: {sig}" if sig else ""), flush=True)
        i += 1
        done += 1
    elapsed = time.monotonic() - start
    shutil.rmtree(work, ignore_errors=True)

    print(f"\nfuzz-blkc: seed {opts.seed}, iterations {opts.start}..{i - 1} ({done} runs) in {elapsed:.0f} s, "
          f"slowest run {slowest[0]:.1f} s (iteration {slowest[1]})")
    print(f"{'verdict':12} {'runs':>6}")
    for v, n in verdicts.items():
        print(f"{v:12} {n:6}")
    if signatures:
        print(f"\n{'verdict':10} {'class':24} {'tool':8} {'runs':>5}  signature / first reproducer")
        for (klass, sig), (n, d, tool, verdict) in sorted(signatures.items(), key=lambda kv: (kv[1][3], kv[0])):
            print(f"{verdict:10} {klass:24} {tool:8} {n:5}  {sig}\n{'':51}{d}")
    ndef = verdicts["DEFECT"]
    distinct = len([k for k, v in signatures.items() if v[3] == "DEFECT"])
    print(f"\nfuzz-blkc: {'FAIL' if ndef else 'PASS'}: {ndef} defect runs, {distinct} distinct"
          f" ({verdicts['KNOWN']} runs of known defects)")
    return 1 if ndef and not opts.report_only else 0


if __name__ == "__main__":
    sys.exit(main())
