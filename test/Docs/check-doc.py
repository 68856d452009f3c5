#!/usr/bin/env python3
"""Checks every fenced code block of a markdown document, so that it cannot go stale.

Each block's info string is a language and attributes (`key=value`):

  ```python file=add.blk          a source file: written to the work directory;
  ```cpp file=add.cpp             .blk files are compiled with blkc, .cpp files
  ```cpp file=bf16.h              compiled and linked against the JIT (BlkJit, the
  ```cmake file=CMakeLists.txt    link line of the build tree's jit-vector-add) into
                                  build/STEM, headers only included; the CMake file
                                  must build every .cpp with blk::jit as
                                  examples/find_package/CMakeLists.txt does
  ```python excerpt=kernels/x.blk lines of a file of the repository: each run of lines
                                  between `...` lines must occur in it, in order
  ```console [exit=N]             commands (`$ ` lines; a trailing `\\` continues one)
                                  run in order in the work directory, with the tools
                                  first on PATH and no GPU visible; each must exit 0
                                  (N with exit=N); the lines shown after a command
                                  must appear in its output (stdout and stderr), in
                                  order, `...` in a line matching any text

Any other block is an error: every block is tested. With --files DIR, every
file block must equal DIR/NAME and every file of DIR must be a block.

All file blocks are written and compiled first (.blk with their default
bindings; C++ with -std=c++17 -Wall -Wextra -Werror, in parallel), then the
commands run in the order of the page, with BLK_CACHE_DIR in the work
directory. Every failure is reported, each naming its block's line
(`DOC:LINE: error: ...`), and the exit status is then 1.
"""
import argparse
import concurrent.futures
import difflib
import os
import re
import shlex
import subprocess
import sys
import time

FENCE = re.compile(r"^(`{3,}|~{3,})\s*(.*)$")
CONSOLE = {"console", "sh", "shell", "bash"}


class Block:
    def __init__(self, line, lang, attrs, text):
        self.line, self.lang, self.attrs, self.text = line, lang, attrs, text


def parse_blocks(path, errors):
    blocks = []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).split()
        start, body = i + 1, []
        i += 1
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        if i == len(lines):
            errors.append((start, "unclosed code block"))
            break
        attrs = {}
        for word in info[1:]:
            key, _, value = word.partition("=")
            attrs[key] = value
        blocks.append(Block(start, info[0] if info else "", attrs, "\n".join(body) + "\n"))
        i += 1
    return blocks


def run(cmd, cwd, env=None, timeout=300, shell=False):
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, shell=shell, executable="/bin/bash" if shell else None,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        return r.returncode, r.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        return 124, (e.stdout or b"").decode("utf-8", "replace") + "\n(timed out after %d s)" % timeout


def tail(text, n=30):
    lines = text.rstrip("\n").split("\n")
    if len(lines) > n:
        lines = ["(%d lines before these)" % (len(lines) - n)] + lines[-n:]
    return "\n".join("    | " + l for l in lines)


def ninja_link_line(build_dir, target):
    """LINK_FLAGS and LINK_LIBRARIES of `target` in build_dir/build.ninja (paths relative to build_dir)."""
    path = os.path.join(build_dir, "build.ninja")
    if not os.path.exists(path):
        return None
    found, values = False, {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("build " + target + ":"):
            found = True
            continue
        if found:
            if not line.startswith("  "):
                break
            key, _, value = line.strip().partition(" = ")
            values[key] = value.replace("$$", "$")
    if not found:
        return None
    return shlex.split(values.get("LINK_FLAGS", "")) + shlex.split(values.get("LINK_LIBRARIES", ""))


def match_output(expected, actual):
    """None if every expected line occurs in `actual`, in order; else the first missing line."""
    got = [l.rstrip() for l in actual.split("\n")]
    pos = 0
    for want in expected:
        want = want.rstrip()
        if not want.strip():
            continue
        pattern = re.compile("^" + ".*".join(re.escape(p) for p in want.split("...")) + "$")
        while pos < len(got) and not pattern.match(got[pos]):
            pos += 1
        if pos == len(got):
            return want
        pos += 1
    return None


def parse_commands(block):
    """[(line, command, [expected output lines])] of a console block; None if a line precedes every command."""
    cmds, lines = [], block.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            start, cmd = block.line + 1 + i, line[2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd += "\n" + lines[i]
            cmds.append((start, cmd, []))
        elif not cmds:
            if line.strip():
                return None
        else:
            cmds[-1][2].append(line)
        i += 1
    return cmds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--work", required=True, help="scratch directory (created; commands run here)")
    ap.add_argument("--tools", required=True, help="directory of blkc and blk-run")
    ap.add_argument("--src", required=True, help="the repository (include/, examples/, excerpts)")
    ap.add_argument("--build", help="the build tree whose build.ninja gives the JIT's link line")
    ap.add_argument("--link-like", default="bin/jit-vector-add", help="the build.ninja target to link like")
    ap.add_argument("--cxx", default="c++")
    ap.add_argument("--files", help="directory holding a copy of every file block")
    ap.add_argument("--timing", action="store_true", help="print the time of each step to stderr")
    args = ap.parse_args()
    for d in ("src", "build", "files", "tools"):
        if getattr(args, d):
            setattr(args, d, os.path.abspath(getattr(args, d)))

    doc = os.path.abspath(args.doc)
    if doc.startswith(args.src + os.sep):  # named from the repository's root: docs/tutorial.md
        doc = os.path.relpath(doc, args.src)
    errors = []  # (line, message)
    blocks = parse_blocks(args.doc, errors)
    work = os.path.abspath(args.work)
    os.makedirs(os.path.join(work, "build"), exist_ok=True)
    os.makedirs(os.path.join(work, ".check"), exist_ok=True)
    env = dict(os.environ)
    env["PATH"] = args.tools + os.pathsep + env.get("PATH", "")
    env["CUDA_VISIBLE_DEVICES"] = ""  # the CPU interpreter everywhere: the output shown is the CPU's
    env["BLK_CACHE_DIR"] = os.path.join(work, ".cache")
    blkc = os.path.join(args.tools, "blkc")

    files, excerpts, consoles = [], [], []
    for b in blocks:
        if "file" in b.attrs:
            files.append(b)
        elif "excerpt" in b.attrs:
            excerpts.append(b)
        elif b.lang in CONSOLE:
            consoles.append(b)
        else:
            errors.append((b.line, "untested block ('%s'): give it file=NAME or excerpt=PATH, or make it a console block"
                           % (b.lang or "no language")))

    # File blocks: written out, compared with --files.
    names = set()
    for b in files:
        name = b.attrs["file"]
        if name in names or os.path.isabs(name) or ".." in name.split("/"):
            errors.append((b.line, "bad or repeated file name '%s'" % name))
            continue
        names.add(name)
        path = os.path.join(work, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(b.text)
        if args.files:
            copy = os.path.join(args.files, name)
            if not os.path.exists(copy):
                errors.append((b.line, "%s: no such file in %s" % (name, args.files)))
            else:
                have = open(copy, encoding="utf-8").read()
                if have != b.text:
                    diff = difflib.unified_diff(have.split("\n"), b.text.split("\n"), copy, "the block", lineterm="", n=1)
                    errors.append((b.line, "%s differs from %s:\n%s" % (name, copy, tail("\n".join(diff), 20))))
    if args.files:
        for name in sorted(os.listdir(args.files)):
            if name not in names:
                errors.append((0, "%s is not a block of the document" % os.path.join(args.files, name)))

    # Excerpts: runs of lines between `...` lines occur in the file, in order.
    for b in excerpts:
        path = os.path.join(args.src, b.attrs["excerpt"])
        if not os.path.exists(path):
            errors.append((b.line, "excerpt of a missing file: %s" % b.attrs["excerpt"]))
            continue
        have = [l.rstrip() for l in open(path, encoding="utf-8").read().split("\n")]
        pos, chunk, chunks = 0, [], []
        for l in b.text.rstrip("\n").split("\n") + ["..."]:
            if l.strip() == "...":
                if chunk:
                    chunks.append(chunk)
                chunk = []
            else:
                chunk.append(l.rstrip())
        for chunk in chunks:
            at = next((i for i in range(pos, len(have) - len(chunk) + 1) if have[i:i + len(chunk)] == chunk), None)
            if at is None:
                errors.append((b.line, "not an excerpt of %s (in order): no match for the lines\n%s"
                               % (b.attrs["excerpt"], tail("\n".join(chunk), 10))))
                break
            pos = at + len(chunk)

    # Compile: .blk with blkc, .cpp compiled and linked like the JIT's example, in parallel.
    link = None
    cpp = [b for b in files if re.search(r"\.(cpp|cc|cxx)$", b.attrs["file"])]
    if cpp:
        link = ninja_link_line(args.build, args.link_like) if args.build else None
        if link is None:
            errors.append((cpp[0].line, "no link line for C++ blocks: %s has no target %s"
                           % (os.path.join(args.build or "(no --build)", "build.ninja"), args.link_like)))

    def compile_block(b):
        name = b.attrs["file"]
        src = os.path.join(work, name)
        if name.endswith(".blk"):
            rc, out = run([blkc, src, "-o", os.path.join(work, ".check", name + ".ptx")], work, env)
            return None if rc == 0 else "%s does not compile (blkc exit %d):\n%s" % (name, rc, tail(out))
        stem = os.path.splitext(os.path.basename(name))[0]
        obj = os.path.join(work, ".check", stem + ".o")
        rc, out = run([args.cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I" + os.path.join(args.src, "include"),
                       "-I" + work, "-c", src, "-o", obj], work, env)
        if rc != 0:
            return "%s does not compile:\n%s" % (name, tail(out))
        if link is None:
            return None
        rc, out = run([args.cxx, obj] + link + ["-o", os.path.join(work, "build", stem)], args.build, env)
        return None if rc == 0 else "%s does not link:\n%s" % (name, tail(out))

    started = time.time()

    def timing(what):
        if args.timing:
            print("%6.2f s  %s" % (time.time() - started, what), file=sys.stderr)

    to_compile = cpp + [b for b in files if b.attrs["file"].endswith(".blk")]  # the slow ones first
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        for b, msg in zip(to_compile, pool.map(compile_block, to_compile)):
            if msg:
                errors.append((b.line, msg))
    timing("compiled %d files" % len(to_compile))

    # CMake: find_package(blk ...) and blk::jit as the installed example uses them, every .cpp built.
    for b in files:
        if b.attrs["file"] != "CMakeLists.txt" and not b.attrs["file"].endswith("/CMakeLists.txt"):
            continue
        example = open(os.path.join(args.src, "examples", "find_package", "CMakeLists.txt"), encoding="utf-8").read()
        for needed in re.findall(r"find_package\(blk[^)]*\)", example) + ["blk::jit"]:
            if needed not in b.text:
                errors.append((b.line, "the CMake file lacks '%s' (examples/find_package/CMakeLists.txt has it)" % needed))
        for c in cpp:
            stem = os.path.splitext(os.path.basename(c.attrs["file"]))[0]
            if not re.search(r"\b%s\b" % re.escape(stem), b.text):
                errors.append((b.line, "the CMake file does not build %s" % c.attrs["file"]))

    # Console blocks, in order.
    ncommands = 0
    for b in consoles:
        cmds = parse_commands(b)
        if not cmds:
            errors.append((b.line, "a console block needs `$ ` command lines, and no output before the first"))
            continue
        want_rc = int(b.attrs.get("exit", "0"))
        for line, cmd, expected in cmds:
            ncommands += 1
            rc, out = run("set -o pipefail\n" + cmd, work, env, shell=True)
            timing(cmd.split("\n")[0][:80])
            if (rc != 0) if want_rc == 0 else (rc != want_rc):
                errors.append((line, "`%s` exited with %d, expected %d; its output:\n%s" % (cmd, rc, want_rc, tail(out))))
                continue
            missing = match_output(expected, out)
            if missing is not None:
                errors.append((line, "`%s`: the output lacks the line shown\n    %s\n  (in order); its output:\n%s"
                               % (cmd, missing, tail(out))))

    for line, msg in sorted(errors, key=lambda e: e[0]):
        print("%s%s: error: %s" % (doc, ":%d" % line if line else "", msg))
    nblk = sum(1 for b in files if b.attrs["file"].endswith(".blk"))
    summary = "%s: %d blocks: %d .blk files compiled, %d C++ files %s, %d excerpts, %d commands run" % (
        doc, len(blocks), nblk, len(cpp), "built" if link else "compiled", len(excerpts), ncommands)
    if errors:
        print("%s; %d failed" % (summary, len(errors)))
        return 1
    print(summary + ": ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
