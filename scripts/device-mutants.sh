#!/usr/bin/env bash
# The device half of the mutation check. On the GPU machine, from the
# repository root with the clean bundle in .bundle and the overlays that
# scripts/mutate.py --bundle-dir DIR prepared carried beside it:
#   scripts/device-mutants.sh [DIR] [--no-baseline] [--timeout S]   (DIR: .mutants)
# (also .bundle/scripts/device-mutants.sh). Checks that .bundle is the bundle
# the overlays were made against (DIR/bundle.sha256), runs the device gate
# (scripts/device-gate.sh) on the clean bundle first (it must pass, or no
# mutant can be judged), then for each mutant of DIR/mutants.json on a copy of
# the clean bundle with the mutant's files (DIR/<id>/**.gz) in place, and
# prints one line per mutant: caught (with the first failing test) or
# survived. Logs under $OUT/mutants (default /tmp/device-mutants). Exits 0
# when every mutant was judged, 2 when the setup or the clean gate fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gate=$here/device-gate.sh
dir=.mutants
baseline=1
limit=600
while [ $# -gt 0 ]; do
  case "$1" in
    --no-baseline) baseline=0; shift ;;
    --timeout) limit=$2; shift 2 ;;
    -*) echo "usage: $0 [DIR] [--no-baseline] [--timeout SECONDS]" >&2; exit 2 ;;
    *) dir=$1; shift ;;
  esac
done
root=$PWD
out=${OUT:-/tmp/device-mutants}/mutants
mkdir -p "$out"
if [ ! -f "$dir/mutants.json" ] || [ ! -f "$dir/bundle.sha256" ]; then
  echo "device-mutants: $dir has no mutants.json and bundle.sha256 (scripts/mutate.py --bundle-dir $dir)" >&2
  exit 2
fi
if ! sha256sum --quiet -c "$dir/bundle.sha256" >"$out/bundle-check.txt" 2>&1; then
  echo "device-mutants: .bundle is not the bundle the overlays were made against:" >&2
  head -n 5 "$out/bundle-check.txt" >&2
  exit 2
fi
ids=$(python3 -c 'import json, sys; print("\n".join(e["id"] for e in json.load(open(sys.argv[1]))))' "$dir/mutants.json")

# first_failure LOGFILE: the first failing test of a device-gate run, or its first failing line.
first_failure() {
  local log=$1 line suite_log test
  line=$(grep -m 1 -E '^[^:]+: FAIL' "$log")
  suite_log=$(sed -n 's/.*log \(\/[^;)]*\)).*/\1/p' <<<"$line")
  test=$([ -n "$suite_log" ] && [ -f "$suite_log" ] && sed -n 's/^\[  FAILED  \] \([A-Za-z][^ ]*\).*/\1/p' "$suite_log" | head -n 1)
  if [ -n "$test" ]; then echo "${line%%:*}: $test"; else echo "${line:-no FAIL line; see $log}"; fi
}

# gate_on NAME BUNDLE: the device gate from a root whose .bundle is BUNDLE
# (everything else links to the repository), its output in $out/NAME.txt.
gate_on() {
  local name=$1 bundle=$2 work entry rc
  work=$(mktemp -d /tmp/device-mutants.XXXXXX)
  for entry in "$root"/* "$root"/.[!.]*; do
    case "$(basename "$entry")" in .bundle | "$(basename "$dir")" | .git) continue ;; esac
    [ -e "$entry" ] && ln -s "$entry" "$work/"
  done
  ln -s "$bundle" "$work/.bundle"
  (cd "$work" && OUT="$out/$name" timeout "$limit" bash "$gate") >"$out/$name.txt" 2>&1
  rc=$?
  rm -rf "$work"
  return $rc
}

lines=()
if [ "$baseline" = 1 ]; then
  if ! gate_on clean "$root/.bundle"; then
    echo "device-mutants: the clean bundle fails the device gate ($(first_failure "$out/clean.txt")); log $out/clean.txt" >&2
    exit 2
  fi
  lines+=("clean: passes the gate ($(tail -n 1 "$out/clean.txt"))")
fi
for id in $ids; do
  overlay=$dir/$id
  files=$(cd "$overlay" 2>/dev/null && find . -name '*.gz' | sort)
  if [ -z "$files" ]; then
    lines+=("$id: survived (no file of the bundle differs)")
    continue
  fi
  bundle=/tmp/device-mutants-bundle.$id
  rm -rf "$bundle" && cp -r "$root/.bundle" "$bundle"
  for f in $files; do
    gunzip -c "$overlay/$f" >"$bundle/${f%.gz}"
  done
  chmod +x "$bundle"/bin/*
  gate_on "$id" "$bundle"
  rc=$?
  rm -rf "$bundle"
  n=$(wc -l <<<"$files")
  if [ "$rc" = 0 ]; then
    lines+=("$id: survived ($n files differ; $(tail -n 1 "$out/$id.txt"))")
  elif [ "$rc" = 124 ]; then
    lines+=("$id: caught (the gate ran over ${limit} s; log $out/$id.txt)")
  else
    lines+=("$id: caught ($(first_failure "$out/$id.txt"); $n files differ)")
  fi
done
printf '%s\n' "${lines[@]}"
echo "device-mutants: $(grep -c ': caught' <<<"$(printf '%s\n' "${lines[@]}")") caught of $(wc -w <<<"$ids") (logs in $out)"
exit 0
