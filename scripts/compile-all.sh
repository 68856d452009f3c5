#!/usr/bin/env bash
# The README's first command: set up, build, and compile every kernel in
# kernels/ to PTX, one line per kernel.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" blkc
"$root/scripts/compile-kernels.sh" "$@"
