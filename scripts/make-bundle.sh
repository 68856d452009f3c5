#!/usr/bin/env bash
# Makes .bundle/ (--tune adds block-size/warp variants that blk-bench times too;
# --static-build DIR adds the JIT binaries of a -DBLK_STATIC_LLVM=ON build; --python with it adds
# python/ with that build's libblk_jit.so instead): what a GPU machine without LLVM needs to run the GPU tests
# and the benchmarks (binaries that need only libc, libstdc++ and libcuda, the
# PTX of every kernel, the Python references), and checks its size.
#   scripts/make-bundle.sh [--arch sm_90a] [--build DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=sm_90a
build="$root/build"
tune=0
static_build=""
python=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --tune) tune=1; shift ;;
    --static-build) static_build=$2; shift 2 ;;
    --python) python=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
ninja -C "$build" blkc blk-gpu-tests blk-bench blk_runtime aot-vector-add >/dev/null
bundle="$root/.bundle"
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/ptx" "$bundle/bench"
"$root/scripts/build-ptx.sh" "$bundle/ptx" --arch "$arch" --blkc "$build/bin/blkc"
if [ "$tune" = 1 ]; then
  # Tuning variants for blk-bench: <file>.<T>.b<BLOCK>w<warps>.n16.ptx
  for file in swiglu geglu vector_add kl_div; do
    for t in bf16 f32; do
      for b in 1024 2048 4096 8192; do
        for w in 4 8 16; do
          "$build/bin/blkc" "$root/kernels/$file.blk" -D T=$t -D BLOCK=$b --num-warps $w --arch "$arch" \
            --align-pointers --spec n=16 -o "$bundle/ptx/$file.$t.b${b}w${w}.n16.ptx"
        done
      done
    done
  done
fi
cp "$build/bin/blk-gpu-tests" "$build/bin/blk-bench" "$build/bin/aot-vector-add" "$bundle/bin/"
cp "$build/lib/libblk_runtime.so" "$bundle/lib/"
strip "$bundle/bin/"* "$bundle/lib/"*
"$root/scripts/compile_times.py" --blkc "$build/bin/blkc" --json "$bundle/compile-times.json" >"$bundle/compile-times.md"
cp "$root"/bench/*.py "$bundle/bench/"
# The device scripts, so that the bundle runs the gate and the mutants' overlays by itself.
mkdir -p "$bundle/scripts"
cp "$root/scripts/device-gate.sh" "$root/scripts/device-mutants.sh" "$bundle/scripts/"
if [ -n "$static_build" ]; then
  # The JIT carries its compiler: binaries of a -DBLK_STATIC_LLVM=ON build, gzipped
  # (unpack there with: gunzip .bundle/jit/*.gz; chmod +x .bundle/jit/*).
  # Three static binaries (about 17-25 MB each gzipped) do not fit one call's
  # 64 MiB: BLK_BUNDLE_JIT picks them (default: the JIT's tests and benchmark).
  # With --python the JIT library takes their room: none unless BLK_BUNDLE_JIT names them.
  if [ "$python" = 1 ]; then jit_exes=${BLK_BUNDLE_JIT:-}; else jit_exes=${BLK_BUNDLE_JIT:-blk-jit-gpu-tests blk-jit-bench}; fi
  ninja -C "$static_build" $jit_exes >/dev/null
  mkdir -p "$bundle/jit"
  for exe in $jit_exes; do
    strip -o "$bundle/jit/$exe" "$static_build/bin/$exe"
    gzip -9 "$bundle/jit/$exe"
  done
fi
if [ "$python" = 1 ]; then
  # The Python package with the static build's libblk_jit.so beside it (gzipped:
  # gunzip .bundle/python/blk/libblk_jit.so.gz there), its tests, and kernels/.
  [ -n "$static_build" ] || { echo "--python needs --static-build DIR" >&2; exit 2; }
  ninja -C "$static_build" blk_jit >/dev/null
  mkdir -p "$bundle/python"
  cp -r "$root/python/blk" "$root/python/tests" "$bundle/python/"
  find "$bundle/python" -name __pycache__ -prune -exec rm -rf {} +
  cp -r "$root/kernels" "$bundle/kernels"
  strip -o "$bundle/python/blk/libblk_jit.so" "$static_build/lib/libblk_jit.so"
  extra=$(ldd "$bundle/python/blk/libblk_jit.so" | grep -vE 'linux-vdso|ld-linux|libc\.so|libm\.so|libstdc\+\+|libgcc_s|libz\.so|libzstd' || true)
  if [ -n "$extra" ]; then echo "libblk_jit.so needs more than libc/libstdc++/libz/libzstd: $extra" >&2; exit 1; fi
  gzip -9 "$bundle/python/blk/libblk_jit.so"
fi
for exe in "$bundle"/bin/* "$bundle"/lib/*; do
  extra=$(ldd "$exe" | grep -vE 'linux-vdso|ld-linux|libc\.so|libm\.so|libstdc\+\+|libgcc_s' || true)
  if [ -n "$extra" ]; then echo "$exe needs more than libc/libstdc++: $extra" >&2; exit 1; fi
done
size=$(du -sb "$bundle" | cut -f1)
limit=$((48 * 1024 * 1024)) # leave room under the 64 MiB a device call carries
if [ "$size" -gt "$limit" ]; then echo "bundle is $size bytes, over $limit" >&2; exit 1; fi
echo "bundle: $bundle ($((size / 1024)) KiB)"
