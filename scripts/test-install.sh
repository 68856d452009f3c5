#!/usr/bin/env bash
# Installs blk into a prefix and builds examples/find_package against it: the
# check that another CMake project can find_package(blk) and use the JIT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BLK_BUILD_DIR:-$root/build}
prefix="$build/install"
rm -rf "$prefix" "$build/find-package-example"
cmake --install "$build" --prefix "$prefix" >/dev/null
linker=()
command -v ld.lld >/dev/null && linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
cmake -S "$root/examples/find_package" -B "$build/find-package-example" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -Dblk_DIR="$prefix/lib/cmake/blk" "${linker[@]}" >/dev/null
ninja -C "$build/find-package-example" >/dev/null
"$build/find-package-example/jit_vector_add" "$root/kernels/vector_add.blk"
