"""The Triton reference kernels of the benchmark harness: the same algorithms
as blk's kernels/, written the way the Triton tutorials and Liger-Kernel
write them."""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Liger-Kernel's _swiglu_forward_kernel: one program per row.
    row = tl.program_id(0).to(tl.int64)
    a_ptr += row * stride
    b_ptr += row * stride
    c_ptr += row * stride
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    c = (a * tl.sigmoid(a)).to(b.dtype) * b
    tl.store(c_ptr + offs, c, mask=mask)


@triton.jit
def geglu_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Liger-Kernel's _geglu_tanh_forward_kernel (one program per row), with
    # 0.5 (1 + tanh(y)) written as sigmoid(2y) as blk's kernels/geglu.blk does.
    row = tl.program_id(0).to(tl.int64)
    a_ptr += row * stride
    b_ptr += row * stride
    c_ptr += row * stride
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(a_ptr + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    k = 0.7978845608028654
    gelu = a * tl.sigmoid(2 * k * (a + 0.044715 * a * a * a))  # = 0.5 a (1 + tanh(...)), as blk writes it
    tl.store(c_ptr + offs, gelu.to(b.dtype) * b, mask=mask)


@triton.jit
def kl_div_kernel(p_ptr, q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    q = tl.load(q_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    tl.store(out_ptr + offs, (p * (tl.log(p) - tl.log(q))).to(out_ptr.dtype.element_ty), mask=mask)
