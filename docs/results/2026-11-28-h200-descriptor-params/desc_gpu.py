"""Tensor-descriptor kernel parameters on the GPU: a matmul whose operands
and result are TensorDescriptor arguments (blk's and Triton's), checked
against float64 with a poisoned output, then timed beside torch.matmul."""
import math
import sys
import torch
import blk

SRC = """
@kernel
def matmul_desc(a_desc: tensor_descriptor(T, [BLOCK_M, BLOCK_K]), b_desc: tensor_descriptor(T, [BLOCK_K, BLOCK_N]),
                c_desc: tensor_descriptor(T, [BLOCK_M, BLOCK_N]), K: i32, T: dtype = bf16,
                BLOCK_M: constexpr = 128, BLOCK_N: constexpr = 128, BLOCK_K: constexpr = 64):
    om = program_id(0) * BLOCK_M
    on = program_id(1) * BLOCK_N
    acc = zeros([BLOCK_M, BLOCK_N], f32)
    for k in range(0, K, BLOCK_K):
        acc = dot(a_desc.load([om, k]), b_desc.load([k, on]), acc)
    c_desc.store([om, on], acc.to(T))
"""
kern = blk.jit(SRC, T="bf16")
try:
    from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor
except Exception as e:  # noqa: BLE001
    TritonDescriptor = None
    print("no Triton TensorDescriptor:", e)

def run(M, N, K, make):
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
    c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.bfloat16)
    grid = (math.ceil(M / 128), math.ceil(N / 128))
    args = (make(a, [128, 64]), make(b, [64, 128]), make(c, [128, 128]), K)
    kern.launch(grid, *args, num_warps=8, num_stages=3)
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    got = c.double()
    rel = ((got - ref).norm() / ref.norm()).item()
    bad = (~torch.isfinite(got)).sum().item() + ((got - ref).abs() > 0.05 * ref.abs() + 0.5).sum().item()
    return a, b, c, args, grid, rel, bad

fails = 0
makers = [("blk.TensorDescriptor", blk.TensorDescriptor.from_tensor)]
if TritonDescriptor is not None:
    makers.append(("triton TensorDescriptor", TritonDescriptor.from_tensor))
for name, make in makers:
    for (M, N, K) in [(1000, 1000, 1000), (4096, 4096, 4096), (130, 264, 72)]:
        *_, rel, bad = run(M, N, K, make)
        ok = rel < 1e-2 and bad == 0
        fails += not ok
        print("%-24s %5dx%5dx%5d rel %.2e bad %d %s" % (name, M, N, K, rel, bad, "PASS" if ok else "FAIL"))
a, b, c, args, grid, rel, bad = run(4096, 4096, 4096, blk.TensorDescriptor.from_tensor)
def timed(fn, reps=50):
    for _ in range(5): fn()
    s, e = torch.cuda.Event(True), torch.cuda.Event(True)
    s.record()
    for _ in range(reps): fn()
    e.record(); torch.cuda.synchronize()
    return s.elapsed_time(e) / reps * 1e3
t_blk = timed(lambda: kern.launch(grid, *args, num_warps=8, num_stages=3))
t_torch = timed(lambda: torch.matmul(a, b))
fl = 2 * 4096 ** 3
print("| 4096^3 bf16 | blk descriptor params %.1f us (%.0f TFLOP/s) | torch.matmul %.1f us (%.0f TFLOP/s) |" %
      (t_blk, fl / t_blk / 1e6, t_torch, fl / t_torch / 1e6))
print("descriptor params on the GPU:", "PASS" if fails == 0 else "FAIL (%d)" % fails)
sys.exit(1 if fails else 0)
