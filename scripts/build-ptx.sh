#!/usr/bin/env bash
# Compiles every kernel variant in kernels/ (and test/kernels/) into DIR as the GPU tests and the
# benchmarks load them: <file>.<T>.ptx (pointers specialized as 16-byte
# aligned) and <file>.<T>.n16.ptx (also the size n as a multiple of 16).
#   scripts/build-ptx.sh DIR [--arch sm_90a] [--blkc PATH]
# Variants and their names: scripts/kernel-variants.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: $0 DIR [--arch ARCH] [--blkc PATH]}
shift
arch=sm_90a
blkc="$root/build/bin/blkc"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --blkc) blkc=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
source "$root/scripts/kernel-variants.sh"
on_variant() {
  local file=$1 name=$2
  shift 2
  "$blkc" "$file" "$@" --arch "$arch" --align-pointers -o "$out/$name.ptx"
  if grep -qE '^def .*\bn: *i(32|64)' "$file"; then
    "$blkc" "$file" "$@" --arch "$arch" --align-pointers --spec n=16 -o "$out/$name.n16.ptx"
  fi
  # Row kernels: also specialized for row strides and widths that are multiples of 16.
  if grep -qE '^def .*\bstride: *i(32|64)' "$file"; then
    "$blkc" "$file" "$@" --arch "$arch" --align-pointers --spec stride=16 --spec n_cols=16 -o "$out/$name.s16.ptx"
  fi
  # Files that list `# specialize16: A B` get a variant with those integers
  # specialized as multiples of 16 (benchmarks at sizes that are).
  local spec
  spec=$(sed -n 's/^# specialize16: *//p' "$file" | head -n 1)
  if [ -n "$spec" ]; then
    local -a specs=()
    for p in $spec; do specs+=(--spec "$p=16"); done
    "$blkc" "$file" "$@" --arch "$arch" --align-pointers "${specs[@]}" -o "$out/$name.s16.ptx"
  fi
  # Files that list `# specialize: NAME=V ...` get a .spec variant with those
  # parameters specialized as the JIT would (V: 16 or 1; pointers aligned).
  spec=$(sed -n 's/^# specialize: *//p' "$file" | head -n 1)
  if [ -n "$spec" ]; then
    local -a specs=()
    for p in $spec; do specs+=(--spec "$p"); done
    "$blkc" "$file" "$@" --arch "$arch" --align-pointers "${specs[@]}" -o "$out/$name.spec.ptx"
  fi
}
for_each_kernel_variant "$root/kernels"
for_each_kernel_variant "$root/test/kernels" # kernels only the GPU tests run
