#!/usr/bin/env python3
"""Checks that the language reference names everything the frontend accepts.

The frontend has no machine-readable list, so this reads its sources:

- the builtin table of lib/Frontend/Builtins.cpp (`{"name", {min, max, {"param", ...}}}`)
  and make_tensor_descriptor's parameters (TensorDescriptors.cpp);
- every name the frontend compares a callee, method, attribute, type, constant,
  decorator or annotation with (`name == "..."`, `attr.name != "..."`, ...);
- the reserved words of the parser (Parser.cpp's keyword list).

Each must occur in an inline code span of the reference (`x.NAME` for methods
and attributes), and every parameter name of a builtin (each can be passed by
keyword) must occur in a code span of an entry that names the builtin: a table
row, or a paragraph. Exits 1 listing what is missing.
"""
import argparse
import os
import re
import sys

TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def read_frontend(frontend):
    """(builtins: {name: (params, where)}, names: {name: (kind, where)})."""
    builtins, names = {}, {}
    src = {f: open(os.path.join(frontend, f), encoding="utf-8").read()
           for f in sorted(os.listdir(frontend)) if f.endswith(".cpp")}
    text = src.get("Builtins.cpp", "")
    table = re.search(r"builtinTable\(\)\s*\{(.*?)\n\s*\};", text, re.S)
    if not table:
        sys.exit("check-builtins: no builtinTable() in %s" % os.path.join(frontend, "Builtins.cpp"))
    for m in re.finditer(r'\{"(\w+)",\s*\{\s*(\d+),\s*(\d+),\s*\{([^}]*)\}\s*\}\s*\}', table.group(1)):
        params = re.findall(r'"(\w+)"', m.group(4))
        builtins[m.group(1)] = (params, "Builtins.cpp:%d" % line_of(text, table.start(1) + m.start()))
    if len(builtins) < 10:
        sys.exit("check-builtins: found only %d builtins in Builtins.cpp; has the table's format changed?" % len(builtins))
    descriptors = src.get("TensorDescriptors.cpp", "")
    m = re.search(r"kMakeParams\s*=\s*\{([^}]*)\}", descriptors)
    if m:
        builtins["make_tensor_descriptor"] = (re.findall(r'"(\w+)"', m.group(1)),
                                              "TensorDescriptors.cpp:%d" % line_of(descriptors, m.start()))
    for f, t in src.items():
        if f == "ASTDump.cpp":
            continue
        for m in re.finditer(r'(\b\w+(?:->|\.))?name\s*[!=]=\s*"(\w+)"', t):
            kind = "method or attribute" if m.group(1) in ("attr.", "a.") else "name"
            names.setdefault(m.group(2), (kind, "%s:%d" % (f, line_of(t, m.start()))))
    parser = src.get("Parser.cpp", "")
    m = re.search(r"isKeyword[^{]*\{[^{]*\{([^}]*)\}", parser, re.S)
    if m:
        for word in re.findall(r'"(\w+)"', m.group(1)):
            names.setdefault(word, ("reserved word", "Parser.cpp:%d" % line_of(parser, m.start())))
    return builtins, names


def code_spans(text):
    """The inline code spans of a markdown text (fenced blocks excluded)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.findall(r"`([^`\n]+)`", text)


def entries(doc):
    """Units of the reference: each table row, and each paragraph (or list) between blank lines."""
    units, para = [], []
    in_fence = False
    for line in doc.split("\n"):
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if line.startswith("|"):
            units.append(line)
        elif line.strip():
            para.append(line)
            continue
        if para:
            units.append("\n".join(para))
            para = []
    if para:
        units.append("\n".join(para))
    return units


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("frontend", help="lib/Frontend")
    ap.add_argument("doc", help="docs/language.md")
    args = ap.parse_args()
    builtins, names = read_frontend(args.frontend)
    doc = open(args.doc, encoding="utf-8").read()
    spans = code_spans(doc)
    tokens = {t for s in spans for t in TOKEN.findall(s)}
    attributes = {m for s in spans for m in re.findall(r"\.([A-Za-z_]\w*)", s)}
    units = [(u, {t for s in code_spans(u) for t in TOKEN.findall(s)}) for u in entries(doc)]

    missing, params = [], []
    for name, (plist, where) in sorted(builtins.items()):
        if name not in tokens:
            missing.append("%s (builtin, %s)" % (name, where))
            continue
        named = set().union(*[words for _, words in units if name in words])
        lacking = [p for p in plist if p not in named]
        if lacking:
            params.append("%s: %s (%s)" % (name, ", ".join(lacking), where))
    for name, (kind, where) in sorted(names.items()):
        if name in builtins:
            continue
        if kind == "method or attribute" and name not in attributes:
            missing.append(".%s (%s, %s)" % (name, kind, where))
        elif kind != "method or attribute" and name not in tokens:
            missing.append("%s (%s, %s)" % (name, kind, where))

    doc_name = os.path.basename(args.doc)
    if missing:
        print("error: %s does not name, in a code span, these names the frontend accepts:" % doc_name)
        for m in missing:
            print("  " + m)
    if params:
        print("error: %s does not name these parameters (keywords) in an entry of their builtin:" % doc_name)
        for p in params:
            print("  " + p)
    nparams = sum(len(p) for p, _ in builtins.values())
    others = sum(1 for n in names if n not in builtins)
    summary = "%d builtins (%d parameters), %d other names" % (len(builtins), nparams, others)
    if missing or params:
        print("%s: %s; %d missing" % (doc_name, summary, len(missing) + len(params)))
        return 1
    print("%s: %s: all named" % (doc_name, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
