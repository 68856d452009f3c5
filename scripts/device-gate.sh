#!/usr/bin/env bash
# The GPU suites as a gate. On the GPU machine, from the repository root with
# the bundle (scripts/make-bundle.sh) carried in .bundle:
#   scripts/device-gate.sh [--require-jit] [--sanitize] [--part aot|jit] [--shards N]
# runs every suite of .bundle/bin/blk-gpu-tests, the JIT's GPU tests
# (.bundle/jit/blk-jit-gpu-tests.gz, when the bundle has them; --require-jit
# makes their absence a failure) and the AOT example, all with
# BLK_REQUIRE_GPU=1 (a test that cannot reach the GPU fails instead of
# skipping). Logs go under $OUT (default /tmp/device-gate). One line per suite
# is printed last, then the verdict; the exit status is non-zero on any
# failure, skipped test, or suite that ran no test. --sanitize also runs the
# whole of blk-gpu-tests (and the JIT's GPU tests, when there), death tests
# aside, under compute-sanitizer memcheck, racecheck and synccheck: any error,
# or any test failing under a tool, fails the gate. --part aot runs only
# blk-gpu-tests and the AOT example, --part jit only the JIT's GPU tests: the
# two halves fit separate device calls of 10 minutes where the whole does
# not. Each suite's line is also printed as it finishes ("progress: ..."),
# with its seconds, so that a run cut short shows how far it got. --shards N
# (default 4) runs the JIT's tests as N processes side by side, each a gtest
# shard of its own: they compile their kernels on the CPU, one at a time per
# process, and the machine has cores to spare.
set -uo pipefail
require_jit=0
sanitize=0
part=all
shards=4
expect=""
for arg in "$@"; do
  if [ "$expect" = part ]; then
    case "$arg" in aot|jit) part=$arg ;; *) echo "--part takes aot or jit, got '$arg'" >&2; exit 2 ;; esac
    expect=""
    continue
  fi
  if [ "$expect" = shards ]; then
    case "$arg" in [1-9] | [1-9][0-9]) shards=$arg ;; *) echo "--shards takes 1 to 99, got '$arg'" >&2; exit 2 ;; esac
    expect=""
    continue
  fi
  case "$arg" in
    --part) expect=part ;;
    --shards) expect=shards ;;
    --require-jit) require_jit=1 ;;
    --sanitize) sanitize=1 ;;
    *) echo "usage: $0 [--require-jit] [--sanitize] [--part aot|jit] [--shards N]" >&2; exit 2 ;;
  esac
done
if [ -n "$expect" ]; then
  echo "--$expect takes a value" >&2
  exit 2
fi
# The jit part without the JIT's tests would pass having run nothing.
[ "$part" = jit ] && require_jit=1
out=${OUT:-/tmp/device-gate}
mkdir -p "$out"
export BLK_REQUIRE_GPU=1 BLK_PTX_DIR=$PWD/.bundle/ptx BLK_SOURCE_DIR=$PWD
failed=0
total=0
lines=()

# From gtest's log: "[==========] N tests from M test suites ran.", the
# summary "[  SKIPPED ] N tests." and one "[  FAILED  ] Suite.Test" per failure.
ran_count() { sed -n 's/^\[==========\] \([0-9]*\) tests\? from .* ran.*/\1/p' "$1" | tail -n 1; }
skipped_count() { sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?\.$/\1/p' "$1" | tail -n 1; }
failed_count() { grep -c '^\[  FAILED  \] [A-Za-z]' "$1"; }

# suite NAME BINARY FILTER [SHARDS]: runs the tests FILTER selects, one log per
# suite, or per shard when SHARDS > 1 (gtest's GTEST_TOTAL_SHARDS and
# GTEST_SHARD_INDEX split the tests; the shards run side by side and their
# counts add up).
suite() {
  local name=$1 bin=$2 filter=$3 n=${4:-1} log rc=0 ran=0 skipped=0 bad=0 i r
  log="$out/${name// /-}.txt"
  if [ ! -x "$bin" ]; then
    lines+=("$name: FAIL (missing: $bin)")
    failed=1
    return
  fi
  local start=$SECONDS
  local -a logs=() pids=()
  if [ "$n" -le 1 ]; then
    logs=("$log")
    "$bin" --gtest_filter="$filter" --gtest_brief=1 --gtest_color=no >"$log" 2>&1 &
    pids=($!)
  else
    log="$out/${name// /-}-shard*.txt"
    for ((i = 0; i < n; ++i)); do
      logs+=("$out/${name// /-}-shard$i.txt")
      GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i \
        "$bin" --gtest_filter="$filter" --gtest_brief=1 --gtest_color=no >"${logs[$i]}" 2>&1 &
      pids+=($!)
    done
  fi
  for ((i = 0; i < ${#pids[@]}; ++i)); do
    wait "${pids[$i]}"
    r=$?
    [ "$r" -ne 0 ] && rc=$r
    # A log without gtest's summary line stopped early (a crash): a failure.
    r=$(ran_count "${logs[$i]}")
    [ -n "$r" ] || [ "$rc" -ne 0 ] || rc=1
    ran=$((ran + ${r:-0}))
    r=$(skipped_count "${logs[$i]}")
    skipped=$((skipped + ${r:-0}))
    r=$(failed_count "${logs[$i]}")
    bad=$((bad + ${r:-0}))
  done
  total=$((total + ran))
  if [ "$rc" -ne 0 ] || [ "$ran" -eq 0 ] || [ "$skipped" -ne 0 ] || [ "$bad" -ne 0 ]; then
    lines+=("$name: FAIL ($ran tests, $bad failed, $skipped skipped, exit $rc; log $log)")
    failed=1
  else
    lines+=("$name: PASS ($ran tests)")
  fi
  echo "progress: ${lines[${#lines[@]} - 1]}, $((SECONDS - start)) s"
}

gpu=.bundle/bin/blk-gpu-tests
# Every test of blk-gpu-tests belongs to one suite below; "other" runs what
# none names, so a new test suite is never left out of the gate.
declare -A filters=(
  ["row kernels"]='RowKernels.*'
  ["elementwise"]='Kernels/Elementwise.*:Launch.*'
  ["block ops"]='BlockOps.*'
  ["reductions and scans"]='Reductions.*:Scans.*:Branches.*'
  ["builtins"]='Builtins.*'
  ["atomics"]='Atomics.*'
  ["fp8"]='Float8.*'
  ["matmul"]='Matmul.*'
  ["debug"]='Debug.*:DebugDeathTest.*'
)
known=""
if [ "$part" != jit ]; then
  for name in "row kernels" elementwise "block ops" "reductions and scans" builtins atomics fp8 matmul debug; do
    suite "$name" "$gpu" "${filters[$name]}"
    known="$known:${filters[$name]}"
  done
  if [ -x "$gpu" ] && "$gpu" --gtest_list_tests --gtest_filter="-${known#:}" | grep -q '^  '; then
    suite "other" "$gpu" "-${known#:}"
  fi
fi

if [ "$part" = aot ]; then
  : # the JIT's GPU tests run in the jit part
elif [ -f .bundle/jit/blk-jit-gpu-tests.gz ]; then
  mkdir -p /tmp/device-gate-jit
  gunzip -c .bundle/jit/blk-jit-gpu-tests.gz >/tmp/device-gate-jit/blk-jit-gpu-tests &&
    chmod +x /tmp/device-gate-jit/blk-jit-gpu-tests
  suite "jit" /tmp/device-gate-jit/blk-jit-gpu-tests '*' "$shards"
elif [ "$require_jit" = 1 ]; then
  lines+=("jit: FAIL (missing: .bundle/jit/blk-jit-gpu-tests.gz; make-bundle.sh --static-build DIR)")
  failed=1
else
  lines+=("jit: not in the bundle (make-bundle.sh --static-build DIR adds it)")
fi

aot=.bundle/bin/aot-vector-add
if [ "$part" = jit ]; then
  : # the AOT example runs in the aot part
elif [ -x "$aot" ] && "$aot" >"$out/aot-example.txt" 2>&1 && grep -q ': ok$' "$out/aot-example.txt"; then
  lines+=("aot example: PASS")
else
  lines+=("aot example: FAIL (log $out/aot-example.txt)")
  failed=1
fi

# sanitize TOOL NAME BINARY: every test of BINARY under compute-sanitizer's TOOL,
# but the death tests, whose child processes fail on purpose (a device assert
# the tool would count as an error).
sanitize() {
  local tool=$1 name=$2 bin=$3 log rc ran bad errors start
  log="$out/sanitize-$tool-$name.txt"
  start=$SECONDS
  compute-sanitizer --tool "$tool" --error-exitcode 86 --print-limit 100 \
    "$bin" --gtest_filter='-*DeathTest.*' --gtest_brief=1 --gtest_color=no >"$log" 2>&1
  rc=$?
  ran=$(ran_count "$log")
  bad=$(failed_count "$log")
  # memcheck and synccheck: "ERROR SUMMARY: N errors"; racecheck:
  # "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
  errors=$(sed -n -e 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' \
    -e 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$log" | tail -n 1)
  ran=${ran:-0} bad=${bad:-0} errors=${errors:-missing}
  if [ "$rc" -ne 0 ] || [ "$ran" -eq 0 ] || [ "$bad" -ne 0 ] || [ "$errors" != 0 ]; then
    lines+=("$tool $name: FAIL ($ran tests, $bad failed, errors $errors, exit $rc, $((SECONDS - start)) s; log $log)")
    failed=1
  else
    lines+=("$tool $name: PASS ($ran tests, 0 errors, $((SECONDS - start)) s)")
  fi
}
if [ "$sanitize" = 1 ]; then
  for tool in memcheck racecheck synccheck; do
    [ "$part" = jit ] || sanitize "$tool" gpu-tests "$gpu"
    if [ "$part" != aot ] && [ -x /tmp/device-gate-jit/blk-jit-gpu-tests ]; then
      sanitize "$tool" jit "/tmp/device-gate-jit/blk-jit-gpu-tests"
    fi
  done
fi

printf '%s\n' "${lines[@]}"
what="device gate"
[ "$part" = all ] || what="device gate, $part part"
if [ "$failed" = 0 ]; then
  echo "$what: PASS ($total tests; logs in $out)"
else
  echo "$what: FAIL (logs in $out)"
fi
exit "$failed"
