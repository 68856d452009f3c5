#!/usr/bin/env bash
# The PTX files of one compiler's output that differ from another's, for a
# before/after run on the GPU machine (bench/suite_ab.py --ptx-dir NAME=OUT):
#   scripts/build-ptx.sh /tmp/ptx-old --blkc OLD_BLKC
#   scripts/build-ptx.sh /tmp/ptx-new --blkc build/bin/blkc
#   scripts/ptx-overlay.sh /tmp/ptx-old /tmp/ptx-new .bundle/ptx-old
# copies into OUT each file of OLD whose bytes differ from NEW's (or that NEW
# lacks) and prints how many; the bundle's ptx/ (NEW) fills in the rest.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 OLD_DIR NEW_DIR OUT_DIR" >&2
  exit 2
fi
old=$1 new=$2 out=$3
for d in "$old" "$new"; do
  [ -d "$d" ] || { echo "$0: $d is not a directory" >&2; exit 2; }
done
mkdir -p "$out"
count=0
for f in "$old"/*.ptx; do
  [ -e "$f" ] || continue
  name=$(basename "$f")
  if ! cmp -s "$f" "$new/$name"; then
    cp "$f" "$out/$name"
    count=$((count + 1))
  fi
done
echo "$count of $(ls "$old"/*.ptx 2>/dev/null | wc -l) variants differ: copied into $out"
