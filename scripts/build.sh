#!/usr/bin/env bash
# Configures (once) and builds blk in build/ with ninja, ccache and lld.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BLK_BUILD_DIR:-$root/build}
cuda=${BLK_CUDA_ROOT:-/usr/local/cuda}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit -DBLK_CUDA_ROOT="$cuda" >/dev/null
fi
ninja -C "$build" "$@"
