# The sweep's PTX variants, into ./ptx beside this script (run from the repository root:
# bash docs/results/2026-11-29-h200-loop-stages/build.sh).
set -e
here=$(cd "$(dirname "$0")" && pwd)
B=${BLKC:-build/bin/blkc}
mkdir -p "$here/ptx"
for w in 4 8; do for s in 2 3; do
  $B "$here/softmax_p.blk" -D T=bf16 -D BLOCK=4096 -D STAGES=$s --num-warps $w --arch sm_90a --align-pointers \
    --spec n_cols=16 --spec stride=16 -o "$here/ptx/softmax_rows.w$w.s$s.ptx"
  $B "$here/rope_p.blk" -D T=bf16 -D STAGES=$s --num-warps $w --arch sm_90a --align-pointers --spec q_row_stride=16 \
    --spec k_row_stride=16 --spec cos_row_stride=16 --spec sin_row_stride=16 --spec hd=16 -o "$here/ptx/rope_rows.w$w.s$s.ptx"
done; done
# The norm backwards at 2 and 3 stages: their row loop given num_stages (the shipped loop has 2).
for s in 2 3; do
  for k in rms_norm layer_norm; do
    sed -E "s/range\(start, end(, num_stages=[0-9]+)?\)/range(start, end, num_stages=$s)/" kernels/$k.blk > "$here/$k.s$s.blk"
  done
  $B "$here/rms_norm.s$s.blk" -D T=bf16 -D BLOCK=4096 --num-warps 8 --arch sm_90a --align-pointers \
    --spec n_cols=16 --spec stride=16 -o "$here/ptx/rms_norm.s$s.ptx"
  $B "$here/layer_norm.s$s.blk" -D T=bf16 -D BLOCK=4096 --num-warps 4 --arch sm_90a --align-pointers \
    --spec n_cols=16 --spec stride=16 -o "$here/ptx/layer_norm.s$s.ptx"
done
$B "$here/layer_norm.s2.blk" -D T=bf16 -D BLOCK=4096 --num-warps 8 --arch sm_90a --align-pointers \
  --spec n_cols=16 --spec stride=16 -o "$here/ptx/layer_norm.w8.s2.ptx"
sed -E "s/range\(start, end, num_stages=[0-9]+\)/range(start, end)/" kernels/layer_norm.blk > "$here/layer_norm.s1.blk"
$B "$here/layer_norm.s1.blk" -D T=bf16 -D BLOCK=4096 --num-warps 8 --arch sm_90a --align-pointers \
  --spec n_cols=16 --spec stride=16 -o "$here/ptx/layer_norm.w8.s1.ptx"
