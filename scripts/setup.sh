#!/usr/bin/env bash
# Installs the Debian packages blk needs, only those missing; quiet when all
# are present. Used by both README commands and by CI.
set -euo pipefail
packages=(
  cmake ninja-build ccache lld g++ python3 git
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libzstd-dev zlib1g-dev libxml2-dev libz3-dev libedit-dev libffi-dev
  libfmt-dev libcli11-dev libgtest-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  if ! apt-cache policy llvm-22-dev 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    "${sudo_cmd[@]}" apt-get update -qq
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cuda=${BLK_CUDA_ROOT:-/usr/local/cuda}
if [ ! -x "$cuda/bin/ptxas" ] || [ ! -f "$cuda/include/cuda.h" ]; then
  echo "setup: the CUDA toolkit is needed at $cuda (set BLK_CUDA_ROOT to use another)" >&2
  exit 1
fi
