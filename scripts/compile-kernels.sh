#!/usr/bin/env bash
# Compiles every kernel in kernels/ (each variant its `# variants:` line lists)
# and prints one line per kernel: name, compile time, PTX size, and the
# registers, shared memory and spills ptxas reports.
#   scripts/compile-kernels.sh [--arch sm_90a] [--out DIR] [--blkc PATH]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=sm_90a
out=""
blkc="$root/build/bin/blkc"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --blkc) blkc=$2; shift 2 ;;
    *) echo "usage: $0 [--arch ARCH] [--out DIR] [--blkc PATH]" >&2; exit 2 ;;
  esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$out" ] && mkdir -p "$out"
printf '%-28s %-8s %10s %10s %6s %8s %7s\n' kernel arch compile_ms ptx_bytes regs smem_B spill_B
status=0
source "$root/scripts/kernel-variants.sh"
on_variant() {
  local file=$1 name=$2 line k regs smem spill ms start
  shift 2
  local ptx="$tmp/$name.ptx"
  # fp8 variants need sm_89 or newer (blkc rejects them before that).
  if [[ " $* " == *=f8e* ]] && [[ "$arch" =~ ^sm_8[0-8]$ ]]; then
    printf '%-28s %-8s %10s\n' "$name" "$arch" "skipped: fp8 needs sm_89"
    return
  fi
  start=$(date +%s%N)
  if ! "$blkc" "$file" "$@" --arch "$arch" --align-pointers -o "$ptx" 2>"$tmp/err"; then
    echo "$name: compilation failed" >&2; cat "$tmp/err" >&2; status=1; return
  fi
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if ! "$blkc" "$file" "$@" --arch "$arch" --align-pointers --emit=cubin --ptxas-info \
       -o "$tmp/$name.cubin" 2>"$tmp/info"; then
    echo "$name: ptxas rejected the PTX" >&2; cat "$tmp/info" >&2; status=1; return
  fi
  while IFS= read -r line; do
    k=${line%%:*}
    regs=$(sed -E 's/.*: ([0-9-]+) registers.*/\1/' <<<"$line")
    smem=$(sed -E 's/.*, ([0-9-]+) bytes shared.*/\1/' <<<"$line")
    spill=$(sed -E 's/.*, ([0-9-]+) bytes spilled.*/\1/' <<<"$line")
    printf '%-28s %-8s %10s %10s %6s %8s %7s\n' "$name" "$arch" "$ms" "$(wc -c <"$ptx")" "$regs" "$smem" "$spill"
  done < <(grep 'registers' "$tmp/info")
  if [ -n "$out" ]; then cp "$ptx" "$out/$name.ptx"; fi
}
for_each_kernel_variant "$root/kernels"
exit $status
