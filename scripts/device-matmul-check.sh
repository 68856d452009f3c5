#!/usr/bin/env bash
# On the GPU machine, from the repository root with the bundle carried in
# .bundle: every GPU kernel test, every JIT test, HGMMA/UTMALDG in the SASS
# of the benchmarked sm_90a matmul variant, then the matmul benchmarks. Logs
# go under $OUT; a short table is printed last. Exits non-zero when a GPU or
# JIT test failed (scripts/device-gate.sh is the full gate).
set -uo pipefail
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/jit
export BLK_PTX_DIR=$PWD/.bundle/ptx
status=0
BLK_REQUIRE_GPU=1 .bundle/bin/blk-gpu-tests --gtest_brief=1 >"$out/gpu-tests.txt" 2>&1 || status=1
gpu=$(grep -E "PASSED|FAILED" "$out/gpu-tests.txt" | tail -2 | tr '\n' ' ')
gunzip -c .bundle/jit/blk-jit-gpu-tests.gz >/tmp/jit/t && chmod +x /tmp/jit/t
BLK_REQUIRE_GPU=1 BLK_SOURCE_DIR=$PWD /tmp/jit/t --gtest_brief=1 >"$out/jit-tests.txt" 2>&1 || status=1
jit=$(grep -E "PASSED|FAILED" "$out/jit-tests.txt" | tail -2 | tr '\n' ' ')
ptx=.bundle/ptx/matmul.bf16.bf16.128.256.64.w8.st3.spec.ptx
ptxas -arch=sm_90a -v "$ptx" -o "$out/matmul.cubin" >"$out/ptxas.txt" 2>&1
cuobjdump --dump-sass "$out/matmul.cubin" >"$out/matmul.sass"
# SASS of matmul_tma only: from its .text section on.
sass_tma=$(awk '/Function : matmul_tma/{f=1} /Function : [a-z_]+$/ && !/matmul_tma/{f=0} f' "$out/matmul.sass")
hgmma=$(grep -c HGMMA <<<"$sass_tma"); utma=$(grep -c UTMALDG <<<"$sass_tma")
python3 .bundle/bench/run.py --bundle .bundle --out "$out/bench" --only matmul --reps 50 >"$out/bench.txt" 2>&1
echo "gpu tests: $gpu"
echo "jit tests: $jit"
grep -B1 -A1 "matmul_tma" "$out/ptxas.txt" | grep -E "registers|Function" | head -2
echo "matmul_tma SASS: $hgmma HGMMA, $utma UTMALDG"
grep -E "TFLOP/s|FAIL|Error|error" "$out/bench.txt" | head -20
[ "$status" = 0 ] || echo "FAIL: a GPU or JIT test failed (logs in $out)"
exit "$status"
