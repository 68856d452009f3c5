"""Every blk kernel bench/run.py loads is one scripts/build-ptx.sh compiles:
run.py's cases for --only SUITE traced against compare_compiled.py's
stand-ins (no GPU, torch or Triton), each (PTX variant, kernel) a row loads
checked against the variants the script names (recorded through a stand-in
blkc: nothing compiles), the kernel against the variant's source and each
Triton twin against bench/triton_kernels.py.
Prints one line per row: its case, variants and kernels, and its Triton twins.

    python3 variants.py BENCH_DIR SUITE...   (SUITE: a --only choice, or all)"""
import os
import re
import sys
import tempfile

sys.path.insert(0, sys.argv[1])
import compare_compiled as cc  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    commands = cc.variant_commands("sm_90a", tmp)
with open(os.path.join(sys.argv[1], "triton_kernels.py")) as f:
    twins_defined = set(re.findall(r"^def (\w+)\(", f.read(), re.M))
bad = 0
for suite in sys.argv[2:]:
    for row in cc.trace_rows(None if suite == "all" else suite):
        parts = []
        for variant, kernel in row.blk:
            cmd = commands.get(variant)
            if cmd is None:
                parts.append(f"MISSING variant {variant}")
                bad += 1
                continue
            with open(cmd[0]) as f:
                text = f.read()
                # Defined in the file, or a kernel it imports by name.
                if not re.search(r"^def " + re.escape(kernel) + r"\(", text, re.M) and \
                        not re.search(r"^from \S+ import .*\b" + re.escape(kernel) + r"\b", text, re.M):
                    parts.append(f"MISSING kernel {kernel} in {os.path.basename(cmd[0])}")
                    bad += 1
                    continue
            parts.append(f"{variant}:{kernel}")
        twins = list(dict.fromkeys(launch.twin for launch in row.triton))
        for twin in twins:
            if twin not in twins_defined:
                parts.append(f"MISSING twin {twin}")
                bad += 1
        twins = ", ".join(twins)
        print(f"{row.case} | {row.shape} | {row.dtype} | {' '.join(parts)} | {twins}")
print(f"{bad} missing")
