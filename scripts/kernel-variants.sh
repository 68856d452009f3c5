# Sourced by the scripts that compile every kernel of kernels/.
#   for_each_kernel_variant DIR
# calls
#   on_variant FILE NAME ARGS...
# for each .blk file of DIR and each variant the file's `# variants:` line lists (or once, with no
# bindings, when it lists none). A variant is comma-separated NAME=VALUE
# bindings: `T=bf16,BLOCK=4096,num_warps=8` gives the blkc arguments
# `-D T=bf16 -D BLOCK=4096 --num-warps 8` and the name <file>.bf16.4096.w8
# (num_stages=2: `--num-stages 2`, name suffix .st2; release_slots=True: `--release-slots`, .rel; ping_pong=True: `--ping-pong`, .pp; warp_specialize=True: `--warp-specialize`, .ws).
for_each_kernel_variant() {
  local dir=$1 file base variants variant d name
  local -a args
  for file in "$dir"/*.blk; do
    base=$(basename "$file" .blk)
    variants=$(sed -n 's/^# variants: *//p' "$file" | head -n 1)
    for variant in ${variants:--}; do
      args=()
      name=$base
      if [ "$variant" != "-" ]; then
        for d in ${variant//,/ }; do
          case "$d" in
            num_warps=*) args+=(--num-warps "${d#*=}"); name="$name.w${d#*=}" ;; # an option, not a binding
            num_stages=*) args+=(--num-stages "${d#*=}"); name="$name.st${d#*=}" ;;
            release_slots=True) args+=(--release-slots); name="$name.rel" ;;
            ping_pong=True) args+=(--ping-pong); name="$name.pp" ;;
            warp_specialize=True) args+=(--warp-specialize); name="$name.ws" ;;
            *) args+=(-D "$d"); name="$name.${d#*=}" ;;
          esac
        done
      fi
      on_variant "$file" "$name" "${args[@]}"
    done
  done
}
