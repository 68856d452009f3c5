#!/usr/bin/env bash
# A stand-in for scripts/device-gate.sh: fails its one suite when the bundle's
# k.ptx says "bad", with a gtest log naming the failing test.
out=${OUT:-/tmp/device-gate}
mkdir -p "$out"
if grep -q bad .bundle/ptx/k.ptx; then
  echo '[  FAILED  ] Kernels.K (1 ms)' >"$out/row-kernels.txt"
  echo "row kernels: FAIL (1 tests, 1 failed, 0 skipped, exit 1; log $out/row-kernels.txt)"
  echo "device gate: FAIL (logs in $out)"
  exit 1
fi
echo "row kernels: PASS (1 tests)"
echo "device gate: PASS (1 tests; logs in $out)"
