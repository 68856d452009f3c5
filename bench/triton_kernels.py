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
def swiglu_backward_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, stride, n_cols, BLOCK: tl.constexpr):
    # Liger-Kernel's _swiglu_backward_kernel: one program per row, silu
    # recomputed from A, in f32 throughout as blk's kernels/swiglu.blk. Liger
    # stores dA and dB over A and B; here they go to their own buffers (the
    # same bytes moved) so that every timed launch reads the same inputs.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    dc = tl.load(dc_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    a = tl.load(a_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    sig = tl.sigmoid(a)
    silu = a * sig
    tl.store(da_ptr + row * stride + offs, (dc * b * (sig + silu * (1 - sig))).to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + row * stride + offs, (dc * silu).to(db_ptr.dtype.element_ty), mask=mask)


@triton.jit
def geglu_backward_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, stride, n_cols, BLOCK: tl.constexpr,
                          EXACT: tl.constexpr = False):
    # Liger-Kernel's _geglu_tanh_backward_kernel (one program per row, gelu
    # recomputed from A, f32), with 0.5 (1 + tanh(y)) written as sigmoid(2y)
    # as blk's kernels/geglu.blk does; EXACT: the erf form, which Liger does
    # not have (PyTorch's approximate="none"). dA and dB into their own
    # buffers, as swiglu_backward_kernel.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    dc = tl.load(dc_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    a = tl.load(a_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    if EXACT:
        cdf = 0.5 * (1 + tl.erf(a * 0.7071067811865476))
        gelu = a * cdf
        dgelu = cdf + a * 0.3989422804014327 * tl.exp(-0.5 * a * a)
    else:
        k = 0.7978845608028654
        s = tl.sigmoid(2 * k * (a + 0.044715 * a * a * a))  # 0.5 (1 + tanh(...))
        gelu = a * s
        # 0.5 a (1 - tanh^2) = 2 a s (1 - s)
        dgelu = s + 2 * a * s * (1 - s) * (k * (1 + 3 * 0.044715 * a * a))
    tl.store(da_ptr + row * stride + offs, (dc * b * dgelu).to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + row * stride + offs, (dc * gelu).to(db_ptr.dtype.element_ty), mask=mask)


@triton.jit
def kl_div_kernel(p_ptr, q_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    q = tl.load(q_ptr + offs, mask=mask, other=1.0).to(tl.float32)
    tl.store(out_ptr + offs, (p * (tl.log(p) - tl.log(q))).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # The fused-softmax tutorial's algorithm: one row per program.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * stride + offs, (e / tl.sum(e, axis=0)).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_kernel(y_ptr, x_ptr, w_ptr, rstd_ptr, n_cols, stride, eps, offset, BLOCK: tl.constexpr):
    # Liger-Kernel's _rms_norm_forward_kernel, Llama casting mode.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0)
    w = tl.load(w_ptr + offs, mask=mask, other=0)
    xf = x.to(tl.float32)
    rstd = tl.math.rsqrt(tl.sum(xf * xf, axis=0) / n_cols + eps)
    tl.store(rstd_ptr + row, rstd)
    y = (xf * rstd).to(x.dtype) * (offset + w)
    tl.store(y_ptr + row * stride + offs, y, mask=mask)


@triton.jit
def layer_norm_kernel(y_ptr, x_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    # Liger-Kernel's _layer_norm_forward_kernel.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0).to(tl.float32)
    w = tl.load(w_ptr + offs, mask=mask, other=0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    xc = tl.where(mask, x - mean, 0.0)
    rstd = tl.math.rsqrt(tl.sum(xc * xc, axis=0) / n_cols + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride + offs, (xc * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def cross_entropy_kernel(x_ptr, y_ptr, loss_ptr, n_cols, stride, n_non_ignore, ignore_index, BLOCK: tl.constexpr):
    # Liger-Kernel's liger_cross_entropy_kernel (mean reduction, no smoothing,
    # z-loss or softcap): online softmax, then the gradient over the logits.
    row = tl.program_id(0).to(tl.int64)
    x_ptr += row * stride
    y = tl.load(y_ptr + row)
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK):
            offs = i + tl.arange(0, BLOCK)
            tl.store(x_ptr + offs, 0.0, mask=offs < n_cols)
        tl.store(loss_ptr + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    x_y = tl.load(x_ptr + y).to(tl.float32)
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new))
        m = m_new
    lse = m + tl.log(d)
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n_cols, other=float("-inf")).to(tl.float32)
        g = tl.exp(x - m) / d
        g = tl.where(offs != y, g, g - 1.0) / n_non_ignore
        tl.store(x_ptr + offs, g.to(x_ptr.dtype.element_ty), mask=offs < n_cols)
    tl.store(loss_ptr + row, (lse - x_y) / n_non_ignore)


@triton.jit
def rms_norm_backward_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, n_rows, n_cols, stride, offset,
                             rows_per_program, BLOCK: tl.constexpr):
    # Liger-Kernel's _rms_norm_backward_kernel, Llama casting mode: dX per row,
    # dW summed over this program's rows into dw_ptr[program] (f32); the
    # caller sums those rows.
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32) + offset
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    start = pid * rows_per_program
    end = tl.minimum(start + rows_per_program, n_rows)
    for r in range(start, end):
        row = r.to(tl.int64)
        x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        xf = x.to(tl.float32)
        m = dy * w
        dx = rstd * m - (rstd * rstd * rstd / n_cols) * tl.sum(m * xf, axis=0) * xf
        dw += dy * (xf * rstd).to(x.dtype).to(tl.float32)
        tl.store(dx_ptr + row * stride + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.store(dw_ptr + pid.to(tl.int64) * n_cols + offs, dw, mask=mask)


@triton.jit
def kl_div_loss_kernel(pred_ptr, target_ptr, loss_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    # Liger-Kernel's _kldiv_kernel_forward (probability targets, a reduction
    # other than 'none'): the row's loss summed chunk by chunk into loss_ptr[row].
    row = tl.program_id(0).to(tl.int64)
    total = 0.0
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        mask = offs < n_cols
        y = tl.load(pred_ptr + row * stride + offs, mask=mask, other=0.0)
        t = tl.load(target_ptr + row * stride + offs, mask=mask, other=0.0)
        total += tl.sum(t * (tl.log(tl.maximum(t, eps)) - y), axis=0)
    tl.store(loss_ptr + row, total)


# The backward twins of bench/run.py's row_backward rows, each Liger-Kernel's
# kernel for the case, in f32 as blk's kernels compute.
@triton.jit
def kl_div_loss_backward_kernel(target_ptr, grad_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # Liger-Kernel's _kldiv_kernel_backward (probability targets): the gradient
    # with respect to the log-space predictions is -target; Liger's backward
    # divides it by the rows (batchmean) afterwards, as a PyTorch op.
    row = tl.program_id(0).to(tl.int64)
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        mask = offs < n_cols
        t = tl.load(target_ptr + row * stride + offs, mask=mask, other=0.0)
        tl.store(grad_ptr + row * stride + offs, -t, mask=mask)


@triton.jit
def softmax_forward_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # Liger-Kernel's _softmax_single_block_forward_kernel: one row per
    # program, X loaded with .ca and Y stored with .cs as Liger does.
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * stride + offs, mask=mask, other=-float("inf"), cache_modifier=".ca").to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    y = e / tl.sum(e, axis=0)
    tl.store(y_ptr + row * stride + offs, y.to(y_ptr.dtype.element_ty), mask=mask, cache_modifier=".cs")


@triton.jit
def softmax_backward_kernel(dy_ptr, y_ptr, dx_ptr, n_cols, stride, BLOCK: tl.constexpr):
    # Liger-Kernel's _softmax_single_block_backward_kernel: dX = Y (dY - sum(dY Y)).
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    dy = tl.load(dy_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + row * stride + offs, mask=mask, other=0.0, cache_modifier=".ca").to(tl.float32)
    dx = y * (dy - tl.sum(dy * y, axis=0))
    tl.store(dx_ptr + row * stride + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask, cache_modifier=".wb")


@triton.jit
def layer_norm_backward_kernel(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, dw_ptr, db_ptr, n_rows, n_cols,
                               stride, rows_per_program: tl.constexpr, BLOCK: tl.constexpr):
    # Liger-Kernel's _layer_norm_backward_kernel: one program per SM walks its
    # rows_per_program rows, writing dX and summing dW and dB into row `pid`
    # of dw_ptr and db_ptr (f32); the caller sums those rows. MEAN and RSTD
    # in f32, as layer_norm_kernel keeps them.
    pid = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    db = tl.zeros([BLOCK], dtype=tl.float32)
    start = pid * rows_per_program
    end = tl.minimum(start + rows_per_program, n_rows)
    for row in range(start, end):
        x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * stride + offs, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(mean_ptr + row)
        rstd = tl.load(rstd_ptr + row)
        xhat = (x - mean) * rstd
        wdy = w * dy
        c1 = tl.sum(xhat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        dx = (wdy - (xhat * c1 + c2)) * rstd
        tl.store(dx_ptr + row * stride + offs, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw += dy * xhat
        db += dy
    tl.store(dw_ptr + pid * n_cols + offs, dw, mask=mask)
    tl.store(db_ptr + pid * n_cols + offs, db, mask=mask)


@triton.jit
def jsd_kernel(x_ptr, y_ptr, loss_ptr, dx_ptr, stride, n_non_ignore, n_cols, BETA: tl.constexpr,
               BLOCK: tl.constexpr):
    # Liger-Kernel's _jsd_kernel without labels: X = log Q, Y = log P; the
    # loss of every element (loss_ptr is [rows, n_cols], the caller sums it)
    # and dX, both over n_non_ignore; each chunk's exponentials taken after
    # subtracting its maximum and scaled back, as Liger does.
    row = tl.program_id(0).to(tl.int64)
    for i in range(0, n_cols, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
        y = tl.load(y_ptr + row * stride + offs, mask=mask, other=float("-inf")).to(tl.float32)
        if BETA == 0.0:  # forward KL(P || Q)
            y_max = tl.max(y, axis=0)
            p = tl.exp(y - y_max) * tl.exp(y_max)
            loss = p * (y - x)
            dx = -p
        elif BETA == 1.0:  # reverse KL(Q || P)
            x_max = tl.max(x, axis=0)
            q = tl.exp(x - x_max) * tl.exp(x_max)
            loss = q * (x - y)
            dx = loss + q
        else:
            top = tl.maximum(tl.max(x, axis=0), tl.max(y, axis=0))
            exp_top = tl.exp(top)
            bp = BETA * (tl.exp(y - top) * exp_top)
            cq = (1 - BETA) * (tl.exp(x - top) * exp_top)
            m = bp + cq
            log_m = tl.log(m)
            loss = bp * y + cq * x - m * log_m
            dx = cq * (x - log_m)
        scale = 1.0 / n_non_ignore
        tl.store(loss_ptr + row * stride + offs, loss * scale, mask=mask)
        tl.store(dx_ptr + row * stride + offs, (dx * scale).to(dx_ptr.dtype.element_ty), mask=mask)


@triton.jit
def transpose_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # test/kernels/block_ops.blk `transpose`: row-major tile loads, tl.trans.
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    for c0 in range(0, n_cols, BLOCK_C):
        c = c0 + tl.arange(0, BLOCK_C)
        mask = (r[:, None] < n_rows) & (c[None, :] < n_cols)
        x = tl.load(x_ptr + r[:, None] * n_cols + c[None, :], mask=mask, other=0.0)
        tl.store(out_ptr + c[:, None] * n_rows + r[None, :], tl.trans(x), mask=tl.trans(mask))


@triton.jit
def transpose_by_load_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # test/kernels/block_ops.blk `transpose_by_load`: column-major tile loads.
    c = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    for r0 in range(0, n_rows, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        mask = (c[:, None] < n_cols) & (r[None, :] < n_rows)
        x = tl.load(x_ptr + r[None, :] * n_cols + c[:, None], mask=mask, other=0.0)
        tl.store(out_ptr + c[:, None] * n_rows + r[None, :], x, mask=mask)


# The tutorials' grouped program order: GROUP_M rows of tiles at a time, so
# that the programs running together share their A rows and B columns in L2.
@triton.jit
def _grouped_tile(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_pid_n
    first_m = (pid // group) * GROUP_M
    group_m = tl.minimum(num_pid_m - first_m, GROUP_M)
    return first_m + (pid % group) % group_m, (pid % group) // group_m


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # The tutorial's schedule (grouped program order), as kernels/matmul.blk.
    pm, pn = _grouped_tile(tl.program_id(0), M, N, BM, BN, GROUP)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak
    b = b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < K - k), other=0.0)
        y = tl.load(b, mask=(rk[:, None] < K - k) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BK * s_ak
        b += BK * s_bk
    c = c_ptr + rm[:, None] * s_cm + rn[None, :] * s_cn
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def scaled_matmul_kernel(a_ptr, w_ptr, c_ptr, sa_ptr, sw_ptr, M, N, K, s_am, s_ak, s_wn, s_wk, s_cm, s_cn,
                         s_sa, s_sw, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # kernels/scaled_matmul.blk: C = (A @ W^T) * SA[i] * SW[j], fp8 A [M, K]
    # and W [N, K], scales per tensor (stride 0) or per row.
    pm, pn = _grouped_tile(tl.program_id(0), M, N, BM, BN, GROUP)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None].to(tl.int64) * s_am + rk[None, :].to(tl.int64) * s_ak
    w = w_ptr + rk[:, None].to(tl.int64) * s_wk + rn[None, :].to(tl.int64) * s_wn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < K - k), other=0.0)
        y = tl.load(w, mask=(rk[:, None] < K - k) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BK * s_ak
        w += BK * s_wk
    sa = tl.load(sa_ptr + rm * s_sa, mask=rm < M, other=0.0)
    sw = tl.load(sw_ptr + rn * s_sw, mask=rn < N, other=0.0)
    acc = acc * sa[:, None] * sw[None, :]
    c = c_ptr + rm[:, None].to(tl.int64) * s_cm + rn[None, :].to(tl.int64) * s_cn
    tl.store(c, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


# Whether this Triton has device-side tensor descriptors (3.3 and later;
# the tutorials use them from 3.4): bench/run.py falls back to the pointer
# matmul beside blk's matmul_tma rows, and says so in the row, without them.
HAS_TENSOR_DESCRIPTOR = hasattr(tl, "make_tensor_descriptor")


@triton.jit
def matmul_tma_kernel(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_bk, s_cm,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    # kernels/matmul.blk's matmul_tma: the tutorial's grouped schedule with
    # tiles moved by tensor descriptors (TMA on sm_90), as the persistent-matmul
    # tutorial creates them on the device; B row-major [K, N], C stored
    # through a descriptor too. Needs triton.set_allocator (the descriptors'
    # global scratch).
    pm, pn = _grouped_tile(tl.program_id(0), M, N, BM, BN, GROUP)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[s_am, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[s_bk, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[s_cm, 1], block_shape=[BM, BN])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([pm * BM, k])
        b = b_desc.load([k, pn * BN])
        acc = tl.dot(a, b, acc)
    c_desc.store([pm * BM, pn * BN], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_tma_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_bk, s_cm,
                                 BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                                 NUM_SMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    # kernels/matmul.blk's matmul_tma_persistent, in the persistent-matmul
    # tutorial's form: each program walks tiles NUM_SMS apart; the tile loop
    # is flattened with the K loop, and warp-specialized when asked.
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[s_am, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[s_bk, 1], block_shape=[BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[s_cm, 1], block_shape=[BM, BN])
    num_tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pm, pn = _grouped_tile(tile, M, N, BM, BN, GROUP)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            a = a_desc.load([pm * BM, k])
            b = b_desc.load([k, pn * BN])
            acc = tl.dot(a, b, acc)
        c_desc.store([pm * BM, pn * BN], acc.to(c_ptr.dtype.element_ty))


@triton.jit
def attention_block(q, k_base, v_base, start_n, offs_m, offs_n, offs_d, acc, m_i, l_i, qk_scale, seq_k, s_kn, s_vn,
                    MASKED: tl.constexpr, CAUSAL: tl.constexpr):
    # kernels/attention.blk's attention_block: one key block of the online softmax.
    cols = start_n + offs_n
    kt = tl.load(k_base + cols[None, :].to(tl.int64) * s_kn + offs_d[:, None], mask=cols[None, :] < seq_k, other=0)
    s = tl.dot(q, kt) * qk_scale
    if MASKED:
        valid = cols[None, :] < seq_k
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        s = tl.where(valid, s, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(s, 1))
    p = tl.math.exp2(s - m_new[:, None])
    alpha = tl.math.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, 1)
    v = tl.load(v_base + cols[:, None].to(tl.int64) * s_vn + offs_d[None, :], mask=cols[:, None] < seq_k, other=0)
    return tl.dot(p.to(v.dtype), v, acc * alpha[:, None]), m_new, l_i


@triton.jit
def attention_forward_kernel(Q, K, V, O, LSE, sm_scale, seq_q, seq_k, heads, kv_group,
                             s_qb, s_qh, s_qm, s_kb, s_kh, s_kn, s_vb, s_vh, s_vn, s_ob, s_oh, s_om,
                             D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    # The same source as kernels/attention.blk (the online-softmax forward of
    # Triton's fused-attention tutorial, with pointer loads; unmasked key
    # blocks in one loop, the diagonal band and a ragged end in another).
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = (bh // heads).to(tl.int64)
    h = bh % heads
    kvh = (h // kv_group).to(tl.int64)
    q_base = Q + b * s_qb + h.to(tl.int64) * s_qh
    k_base = K + b * s_kb + kvh * s_kh
    v_base = V + b * s_vb + kvh * s_vh
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(q_base + offs_m[:, None].to(tl.int64) * s_qm + offs_d[None, :], mask=offs_m[:, None] < seq_q, other=0)
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    hi = seq_k
    lo = seq_k
    if CAUSAL:
        hi = tl.minimum(seq_k, (pid_m + 1) * BLOCK_M)
        lo = tl.minimum(seq_k, pid_m * BLOCK_M)
    lo = lo // BLOCK_N * BLOCK_N
    for start_n in range(0, lo, BLOCK_N):
        acc, m_i, l_i = attention_block(q, k_base, v_base, start_n, offs_m, offs_n, offs_d, acc, m_i, l_i,
                                        qk_scale, seq_k, s_kn, s_vn, False, CAUSAL)
    for start_n in range(lo, hi, BLOCK_N):
        acc, m_i, l_i = attention_block(q, k_base, v_base, start_n, offs_m, offs_n, offs_d, acc, m_i, l_i,
                                        qk_scale, seq_k, s_kn, s_vn, True, CAUSAL)
    acc = acc / l_i[:, None]
    row_ok = offs_m < seq_q
    tl.store(LSE + bh.to(tl.int64) * seq_q + offs_m, (m_i + tl.math.log2(l_i)) * 0.6931471805599453, mask=row_ok)
    o_base = O + b * s_ob + h.to(tl.int64) * s_oh
    tl.store(o_base + offs_m[:, None].to(tl.int64) * s_om + offs_d[None, :], acc.to(q.dtype), mask=row_ok[:, None])



# Attention backward: the same source as kernels/attention.blk (Triton's
# fused-attention tutorial's algorithm, with separate dK/dV and dQ kernels).
@triton.jit
def attention_backward_preprocess_kernel(O, DO, Delta, seq_q, heads, s_ob, s_oh, s_om, s_dob, s_doh, s_dom,
                                         D: tl.constexpr, BLOCK_M: tl.constexpr):
    bh = tl.program_id(1)
    b = (bh // heads).to(tl.int64)
    h = (bh % heads).to(tl.int64)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    rows = offs_m[:, None].to(tl.int64)
    row_ok = offs_m < seq_q
    o = tl.load(O + b * s_ob + h * s_oh + rows * s_om + offs_d[None, :], mask=row_ok[:, None], other=0).to(tl.float32)
    do = tl.load(DO + b * s_dob + h * s_doh + rows * s_dom + offs_d[None, :], mask=row_ok[:, None],
                 other=0).to(tl.float32)
    tl.store(Delta + bh.to(tl.int64) * seq_q + offs_m, tl.sum(o * do, 1), mask=row_ok)


@triton.jit
def _dkdv_steps(dk, dv, k, v, q_base, do_base, lse_base, delta_base, offs_n, lo, hi, seq_q, s_qm, s_dom, qk_scale,
                D: tl.constexpr, STEP: tl.constexpr, MASK: tl.constexpr):
    offs_d = tl.arange(0, D)
    for start_m in range(lo, hi, STEP):
        offs_m = start_m + tl.arange(0, STEP)
        rows_ok = offs_m < seq_q
        rows = offs_m.to(tl.int64)
        qt = tl.load(q_base + offs_d[:, None] + rows[None, :] * s_qm, mask=rows_ok[None, :], other=0)
        lse = tl.load(lse_base + offs_m, mask=rows_ok, other=float("inf")) * 1.4426950408889634
        pt = tl.math.exp2(tl.dot(k, qt) * qk_scale - lse[None, :])
        if MASK:
            pt = tl.where(offs_m[None, :] >= offs_n[:, None], pt, 0.0)
        do = tl.load(do_base + rows[:, None] * s_dom + offs_d[None, :], mask=rows_ok[:, None], other=0)
        dv = tl.dot(pt.to(k.dtype), do, dv)
        dot_ = tl.load(do_base + offs_d[:, None] + rows[None, :] * s_dom, mask=rows_ok[None, :], other=0)
        delta = tl.load(delta_base + offs_m, mask=rows_ok, other=0)
        dst = pt * (tl.dot(v, dot_) - delta[None, :])
        q = tl.load(q_base + rows[:, None] * s_qm + offs_d[None, :], mask=rows_ok[:, None], other=0)
        dk = tl.dot(dst.to(k.dtype), q, dk)
    return dk, dv


@triton.jit
def attention_backward_dkdv_kernel(Q, K, V, DO, LSE, Delta, DK, DV, sm_scale, seq_q, seq_k, heads, kv_group,
                                   s_qb, s_qh, s_qm, s_kb, s_kh, s_kn, s_vb, s_vh, s_vn, s_dob, s_doh, s_dom,
                                   s_dkb, s_dkh, s_dkn, s_dvb, s_dvh, s_dvn,
                                   D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                   CAUSAL: tl.constexpr):
    STEP: tl.constexpr = BLOCK_N * 64 // D
    start_n = tl.program_id(0) * BLOCK_M
    bkv = tl.program_id(1)
    kv_heads = heads // kv_group
    b = (bkv // kv_heads).to(tl.int64)
    kvh = bkv % kv_heads
    offs_n = start_n + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D)
    cols = offs_n[:, None].to(tl.int64)
    col_ok = offs_n[:, None] < seq_k
    k = tl.load(K + b * s_kb + kvh.to(tl.int64) * s_kh + cols * s_kn + offs_d[None, :], mask=col_ok, other=0)
    v = tl.load(V + b * s_vb + kvh.to(tl.int64) * s_vh + cols * s_vn + offs_d[None, :], mask=col_ok, other=0)
    qk_scale = sm_scale * 1.4426950408889634
    dk = tl.zeros([BLOCK_M, D], tl.float32)
    dv = tl.zeros([BLOCK_M, D], tl.float32)
    for g in range(0, kv_group, 1):
        h = kvh * kv_group + g
        q_base = Q + b * s_qb + h.to(tl.int64) * s_qh
        do_base = DO + b * s_dob + h.to(tl.int64) * s_doh
        row0 = (bkv * kv_group + g).to(tl.int64) * seq_q
        if CAUSAL:
            mid = tl.minimum(seq_q, start_n + BLOCK_M)
            dk, dv = _dkdv_steps(dk, dv, k, v, q_base, do_base, LSE + row0, Delta + row0, offs_n, start_n, mid,
                                 seq_q, s_qm, s_dom, qk_scale, D, STEP, True)
            dk, dv = _dkdv_steps(dk, dv, k, v, q_base, do_base, LSE + row0, Delta + row0, offs_n, mid, seq_q,
                                 seq_q, s_qm, s_dom, qk_scale, D, STEP, False)
        else:
            dk, dv = _dkdv_steps(dk, dv, k, v, q_base, do_base, LSE + row0, Delta + row0, offs_n, 0, seq_q,
                                 seq_q, s_qm, s_dom, qk_scale, D, STEP, False)
    tl.store(DK + b * s_dkb + kvh.to(tl.int64) * s_dkh + cols * s_dkn + offs_d[None, :], (dk * sm_scale).to(k.dtype),
             mask=col_ok)
    tl.store(DV + b * s_dvb + kvh.to(tl.int64) * s_dvh + cols * s_dvn + offs_d[None, :], dv.to(k.dtype), mask=col_ok)


@triton.jit
def attention_backward_dq_kernel(Q, K, V, DO, LSE, Delta, DQ, sm_scale, seq_q, seq_k, heads, kv_group,
                                 s_qb, s_qh, s_qm, s_kb, s_kh, s_kn, s_vb, s_vh, s_vn, s_dob, s_doh, s_dom,
                                 s_dqb, s_dqh, s_dqm,
                                 D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = (bh // heads).to(tl.int64)
    h = bh % heads
    kvh = (h // kv_group).to(tl.int64)
    k_base = K + b * s_kb + kvh * s_kh
    v_base = V + b * s_vb + kvh * s_vh
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    rows = offs_m[:, None].to(tl.int64)
    row_ok = offs_m < seq_q
    q = tl.load(Q + b * s_qb + h.to(tl.int64) * s_qh + rows * s_qm + offs_d[None, :], mask=row_ok[:, None], other=0)
    do = tl.load(DO + b * s_dob + h.to(tl.int64) * s_doh + rows * s_dom + offs_d[None, :], mask=row_ok[:, None],
                 other=0)
    lse = tl.load(LSE + bh.to(tl.int64) * seq_q + offs_m, mask=row_ok, other=0) * 1.4426950408889634
    delta = tl.load(Delta + bh.to(tl.int64) * seq_q + offs_m, mask=row_ok, other=0)
    qk_scale = sm_scale * 1.4426950408889634
    dq = tl.zeros([BLOCK_M, D], tl.float32)
    hi = seq_k
    if CAUSAL:
        hi = tl.minimum(seq_k, (pid_m + 1) * BLOCK_M)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        col_ok = cols[None, :] < seq_k
        kt = tl.load(k_base + cols[None, :].to(tl.int64) * s_kn + offs_d[:, None], mask=col_ok, other=0)
        p = tl.math.exp2(tl.dot(q, kt) * qk_scale - lse[:, None])
        valid = col_ok
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        p = tl.where(valid, p, 0.0)
        vt = tl.load(v_base + cols[None, :].to(tl.int64) * s_vn + offs_d[:, None], mask=col_ok, other=0)
        ds = p * (tl.dot(do, vt) - delta[:, None])
        dq = tl.dot(ds.to(q.dtype), tl.trans(kt), dq)
    tl.store(DQ + b * s_dqb + h.to(tl.int64) * s_dqh + rows * s_dqm + offs_d[None, :], (dq * sm_scale).to(q.dtype),
             mask=row_ok[:, None])

# The layout-stress set: the same sources as test/kernels/layout_stress.blk
# and test/kernels/counting.blk.
@triton.jit
def _tile_offsets(R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    return tl.program_id(0).to(tl.int64) * (R * C) + r[:, None] * C + c[None, :]


@triton.jit
def scan_axis0_kernel(X, Y, R: tl.constexpr, C: tl.constexpr):
    offs = _tile_offsets(R, C)
    tl.store(Y + offs, tl.cumsum(tl.load(X + offs), axis=0))


@triton.jit
def scan_axis1_kernel(X, Y, R: tl.constexpr, C: tl.constexpr):
    offs = _tile_offsets(R, C)
    tl.store(Y + offs, tl.cumsum(tl.load(X + offs), axis=1))


@triton.jit
def column_sums_kernel(X, Y, n_rows, R: tl.constexpr, C: tl.constexpr):
    cols = tl.program_id(0) * C + tl.arange(0, C)
    width = tl.num_programs(0) * C
    acc = tl.zeros([C], Y.dtype.element_ty)
    for start in range(0, n_rows, R):
        rows = start + tl.arange(0, R)
        x = tl.load(X + rows[:, None].to(tl.int64) * width + cols[None, :], mask=rows[:, None] < n_rows, other=0)
        acc += tl.sum(x, axis=0)
    tl.store(Y + cols, acc)


@triton.jit
def transposed_sum_kernel(X, Y, S, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    first = tl.program_id(0).to(tl.int64) * S
    acc = tl.zeros([R, C], Y.dtype.element_ty)
    for s in range(0, S):
        acc += tl.load(X + (first + s) * (R * C) + r[:, None] + c[None, :] * R)
    tl.store(Y + tl.program_id(0).to(tl.int64) * (R * C) + r[:, None] * C + c[None, :], acc)


@triton.jit
def broadcast_mix_kernel(X, U, V, Y, R: tl.constexpr, C: tl.constexpr):
    offs = _tile_offsets(R, C)
    x = tl.load(X + offs)
    u = tl.load(U + tl.program_id(0) * R + tl.arange(0, R))
    v = tl.load(V + tl.arange(0, C))
    tl.store(Y + offs, x * u[:, None] + v[None, :] + tl.sum(x, axis=1)[:, None])


@triton.jit
def digit_rank_kernel(KEYS, RANK, shift, N: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * N + tl.arange(0, N)
    digit = (tl.load(KEYS + offs) >> shift) & 15
    onehot = (digit[:, None] == tl.arange(0, 16)[None, :]).to(tl.int32)
    before = tl.cumsum(onehot, axis=0) - onehot
    counts = tl.sum(onehot, axis=0)
    starts = tl.cumsum(counts, axis=0) - counts
    tl.store(RANK + offs, tl.sum(onehot * (before + starts[None, :]), axis=1))


@triton.jit
def exclusive_scan_kernel(X, Y, n, CHUNK: tl.constexpr):
    carry = 0
    for start in range(0, n, CHUNK):
        offs = start + tl.arange(0, CHUNK)
        x = tl.load(X + offs, mask=offs < n, other=0)
        tl.store(Y + offs, tl.cumsum(x, axis=0) - x + carry, mask=offs < n)
        carry += tl.sum(x, axis=0)


# Blocks of three dimensions: the same sources as test/kernels/blocks_3d.blk.
@triton.jit
def _tile3_offsets(A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    return tl.program_id(0) * (A * B * C) + a * (B * C) + b * C + c


@triton.jit
def _plane(P: tl.constexpr, Q: tl.constexpr):
    return tl.program_id(0) * (P * Q) + tl.arange(0, P)[:, None] * Q + tl.arange(0, Q)[None, :]


@triton.jit
def reduce3_kernel(X, S0, M1, S2, S12, n, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    T = S0.dtype.element_ty
    offs = _tile3_offsets(A, B, C)
    x = tl.load(X + offs, mask=offs < n, other=0)
    tl.store(S0 + _plane(B, C), tl.sum(x, axis=0).to(T))
    tl.store(M1 + _plane(A, C), tl.max(x, axis=1))
    s2 = tl.sum(x, axis=2)
    tl.store(S2 + _plane(A, B), s2.to(T))
    tl.store(S12 + tl.program_id(0) * A + tl.arange(0, A), tl.sum(s2, axis=1).to(T))


@triton.jit
def scan3_kernel(X, Y0, Y1, Y2, n, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    T = Y0.dtype.element_ty
    offs = _tile3_offsets(A, B, C)
    x = tl.load(X + offs, mask=offs < n, other=0)
    tl.store(Y0 + offs, tl.cumsum(x, axis=0).to(T))
    tl.store(Y1 + offs, tl.cumsum(x, axis=1).to(T))
    tl.store(Y2 + offs, tl.cumsum(x, axis=2, reverse=True).to(T))


@triton.jit
def moves3_kernel(X, P, Q, J, E, O, I, n, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    offs = _tile3_offsets(A, B, C)
    x = tl.load(X + offs, mask=offs < n, other=0)
    base = tl.program_id(0) * (A * B * C)
    p = tl.arange(0, C)[:, None, None] * (A * B) + tl.arange(0, A)[None, :, None] * B + tl.arange(0, B)[None, None, :]
    tl.store(P + base + p, tl.permute(x, (2, 0, 1)))
    q = tl.arange(0, B)[:, None, None] * (A * C) + tl.arange(0, A)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    tl.store(Q + base + q, x.permute(1, 0, 2))
    rows = _plane(A * B, C)
    t = tl.load(X + rows, mask=rows < n, other=0)
    pairs = 2 * rows[:, :, None] + tl.arange(0, 2)[None, None, :]
    tl.store(J + pairs, tl.join(t, -t))
    even, odd = tl.split(tl.reshape(t, [A * B, C // 2, 2]))
    half = _plane(A * B, C // 2)
    tl.store(E + half, even)
    tl.store(O + half, odd)
    tl.store(I + _plane(A * B, 2 * C), tl.interleave(t, -t))


@triton.jit
def group_scale_kernel(X, Q, SC, n_rows, R: tl.constexpr, W: tl.constexpr, G: tl.constexpr):
    rows = tl.program_id(0) * R + tl.arange(0, R)
    offs = rows[:, None] * W + tl.arange(0, W)[None, :]
    inside = rows[:, None] < n_rows
    x = tl.load(X + offs, mask=inside, other=0).to(tl.float32)
    groups = tl.reshape(x, [R, W // G, G])
    scale = tl.max(tl.abs(groups), axis=2) / 127.0 + 1e-6
    tl.store(Q + offs, tl.reshape(groups / scale[:, :, None], [R, W]), mask=inside)
    tl.store(SC + rows[:, None] * (W // G) + tl.arange(0, W // G)[None, :], scale, mask=inside)


# The dot-stress set: the same sources as test/kernels/dot_stress.blk.
@triton.jit
def gathered_matmul_kernel(X, IDX, W, C, M, N, K, stride_xm, stride_xk, stride_wk, stride_wn, stride_cm, stride_cn,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           GROUP_M: tl.constexpr):
    # C[i, :] = X[IDX[i], :] @ W: A's rows gathered through the index vector.
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    rows = tl.load(IDX + offs_m, mask=offs_m < M, other=0).to(tl.int64)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(X + rows[:, None] * stride_xm + ks[None, :].to(tl.int64) * stride_xk,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0)
        b = tl.load(W + ks[:, None].to(tl.int64) * stride_wk + offs_n[None, :].to(tl.int64) * stride_wn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
    c_ptrs = C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def dequant_matmul_kernel(X, WQ, SCALE, C, M, N, K, stride_xm, stride_xk, stride_wk, stride_wn, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = X @ (WQ * SCALE[None, :]).to(bf16): B dequantized from int8 in registers.
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = X + offs_m[:, None].to(tl.int64) * stride_xm + offs_k[None, :].to(tl.int64) * stride_xk
    w_ptrs = WQ + offs_k[:, None].to(tl.int64) * stride_wk + offs_n[None, :].to(tl.int64) * stride_wn
    scale = tl.load(SCALE + offs_n, mask=offs_n < N, other=0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k), other=0)
        wq = tl.load(w_ptrs, mask=(offs_k[:, None] < K - k) & (offs_n[None, :] < N), other=0)
        w = (wq.to(tl.float32) * scale[None, :]).to(X.dtype.element_ty)
        acc = tl.dot(x, w, acc)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    c_ptrs = C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def transposed_a_matmul_kernel(A, B, C, M, N, K, stride_ak, stride_am, stride_bk, stride_bn, stride_cm, stride_cn,
                               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                               GROUP_M: tl.constexpr):
    # C = A^T @ B, A stored [K, M]: the transpose is in the pointers' strides.
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + offs_k[None, :].to(tl.int64) * stride_ak + offs_m[:, None].to(tl.int64) * stride_am
    b_ptrs = B + offs_k[:, None].to(tl.int64) * stride_bk + offs_n[None, :].to(tl.int64) * stride_bn
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=(offs_k[None, :] < K - k) & (offs_m[:, None] < M), other=0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def split_k_matmul_kernel(X, W, C, M, N, K, split, stride_xm, stride_xk, stride_wk, stride_wn, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                          GROUP_M: tl.constexpr):
    # test/kernels/dot_stress.blk's split_k_matmul: every split-th K block
    # from block program_id(1) on (a runtime step), partial tiles added
    # into C (f32, zero first) by atomic adds.
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(tl.program_id(1) * BLOCK_K, K, BLOCK_K * split):
        ks = k + offs_k
        x = tl.load(X + offs_m[:, None].to(tl.int64) * stride_xm + ks[None, :].to(tl.int64) * stride_xk,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0)
        w = tl.load(W + ks[:, None].to(tl.int64) * stride_wk + offs_n[None, :].to(tl.int64) * stride_wn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(x, w, acc)
    tl.atomic_add(C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn, acc,
                  mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def while_matmul_kernel(X, W, C, KEND, M, N, K, stride_xm, stride_xk, stride_wk, stride_wn, stride_cm, stride_cn,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    # test/kernels/dot_stress.blk's while_matmul: the K loop as a while loop
    # over a counter it advances itself; the counter after the loop stored.
    pid_m, pid_n = _grouped_tile(tl.program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    k = 0
    while k < K:
        ks = k + offs_k
        x = tl.load(X + offs_m[:, None].to(tl.int64) * stride_xm + ks[None, :].to(tl.int64) * stride_xk,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0)
        w = tl.load(W + ks[:, None].to(tl.int64) * stride_wk + offs_n[None, :].to(tl.int64) * stride_wn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0)
        acc = tl.dot(x, w, acc)
        k += BLOCK_K
    tl.store(C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
    tl.store(KEND + tl.program_id(0), k)


@triton.jit
def block_pointer_matmul_kernel(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # test/kernels/block_pointers.blk's matmul: Triton's block-pointer matmul
    # tutorial, f32 results.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block = tl.make_block_ptr(base=A, shape=(M, K), strides=(stride_am, stride_ak), offsets=(pid_m * BLOCK_M, 0),
                                block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_block = tl.make_block_ptr(base=B, shape=(K, N), strides=(stride_bk, stride_bn), offsets=(0, pid_n * BLOCK_N),
                                block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_block, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_block, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_block = tl.advance(a_block, (0, BLOCK_K))
        b_block = tl.advance(b_block, (BLOCK_K, 0))
    c_block = tl.make_block_ptr(base=C, shape=(M, N), strides=(stride_cm, stride_cn),
                                offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    tl.store(c_block, acc, boundary_check=(0, 1))


# fp8 products written differently: the same sources as test/kernels/fp8_dots.blk
# (an fp8 load's `other` a float literal: Triton casts no integer one to fp8).
@triton.jit
def quantized_x_matmul_kernel(X, SX, W, C, M, N, K, stride_xm, stride_xk, stride_wn, stride_wk, stride_cm, stride_cn,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = (X * SX[:, None]).to(e4m3) @ W^T: activations quantized in registers, W [N, K].
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sx = tl.load(SX + offs_m, mask=offs_m < M, other=0.0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        x = tl.load(X + offs_m[:, None].to(tl.int64) * stride_xm + ks[None, :].to(tl.int64) * stride_xk,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        w = tl.load(W + ks[:, None].to(tl.int64) * stride_wk + offs_n[None, :].to(tl.int64) * stride_wn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot((x * sx[:, None]).to(tl.float8e4nv), w, acc)
    tl.store(C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def quantized_y_matmul_kernel(A, Y, SY, C, M, N, K, stride_am, stride_ak, stride_yk, stride_yn, stride_cm, stride_cn,
                              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = A @ (Y * SY[None, :]).to(e5m2): B quantized in registers, A e5m2 [M, K].
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sy = tl.load(SY + offs_n, mask=offs_n < N, other=0.0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(A + offs_m[:, None].to(tl.int64) * stride_am + ks[None, :].to(tl.int64) * stride_ak,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        y = tl.load(Y + ks[:, None].to(tl.int64) * stride_yk + offs_n[None, :].to(tl.int64) * stride_yn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, (y * sy[None, :]).to(tl.float8e5), acc)
    tl.store(C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def gathered_fp8_matmul_kernel(X, IDX, W, C, M, N, K, stride_xm, stride_xk, stride_wn, stride_wk, stride_cm,
                               stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C[i, :] = X[IDX[i], :] @ W^T: e4m3 rows gathered through the index vector, W [N, K].
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    rows = tl.load(IDX + offs_m, mask=offs_m < M, other=0).to(tl.int64)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        x = tl.load(X + rows[:, None] * stride_xm + ks[None, :].to(tl.int64) * stride_xk,
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        w = tl.load(W + ks[:, None].to(tl.int64) * stride_wk + offs_n[None, :].to(tl.int64) * stride_wn,
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(x, w, acc)
    tl.store(C + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :].to(tl.int64) * stride_cn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def paged_decode_attention_kernel(Q, K_CACHE, V_CACHE, BLOCK_TABLE, SEQ_LENS, O, sm_scale, group, max_pages,
                                  stride_qb, stride_qh, stride_kp, stride_kt, stride_kh, stride_vp, stride_vt,
                                  stride_vh, stride_ob, stride_oh,
                                  D: tl.constexpr, PAGE: tl.constexpr, G: tl.constexpr):
    # Decode attention over a paged KV cache: program (seq, kv_head) computes
    # the `group` query heads of the KV head as the rows of a G-row tile,
    # online softmax over the pages the block table lists.
    seq = tl.program_id(0).to(tl.int64)
    kvh = tl.program_id(1)
    offs_g = tl.arange(0, G)
    offs_t = tl.arange(0, PAGE)
    offs_d = tl.arange(0, D)
    g_ok = offs_g < group
    heads = (kvh * group + offs_g).to(tl.int64)
    q = tl.load(Q + seq * stride_qb + heads[:, None] * stride_qh + offs_d[None, :], mask=g_ok[:, None], other=0)
    ctx = tl.load(SEQ_LENS + seq)
    k_head = K_CACHE + kvh.to(tl.int64) * stride_kh
    v_head = V_CACHE + kvh.to(tl.int64) * stride_vh
    qk_scale = sm_scale * 1.4426950408889634
    m_i = tl.full([G], float("-inf"), tl.float32)
    l_i = tl.zeros([G], tl.float32)
    acc = tl.zeros([G, D], tl.float32)
    for j in range(0, tl.cdiv(ctx, PAGE)):
        page = tl.load(BLOCK_TABLE + seq * max_pages + j).to(tl.int64)
        t_ok = j * PAGE + offs_t < ctx
        kt = tl.load(k_head + page * stride_kp + offs_t[None, :].to(tl.int64) * stride_kt + offs_d[:, None],
                     mask=t_ok[None, :], other=0)
        s = tl.where(t_ok[None, :], tl.dot(q, kt) * qk_scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_head + page * stride_vp + offs_t[:, None].to(tl.int64) * stride_vt + offs_d[None, :],
                    mask=t_ok[:, None], other=0)
        acc = tl.dot(p.to(q.dtype), v, acc * alpha[:, None])
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + seq * stride_ob + heads[:, None] * stride_oh + offs_d[None, :], acc.to(q.dtype), mask=g_ok[:, None])


@triton.jit
def rope_kernel(q_ptr, q_row_stride, k_ptr, k_row_stride, cos_ptr, cos_row_stride, sin_ptr, sin_row_stride, sl,
                cos_bs: tl.constexpr, n_qh: tl.constexpr, n_kh: tl.constexpr, hd: tl.constexpr,
                pad_n_qh: tl.constexpr, pad_n_kh: tl.constexpr, pad_hd: tl.constexpr,
                BACKWARD_PASS: tl.constexpr = False):
    # Liger-Kernel's _triton_rope: one program per (batch, position) row
    # rotates every Q and K head of the row in place, rotate-half form. As
    # blk's kernels/rope.blk, in f32 (Liger computes in cos's dtype), each
    # half of the output with its own half of cos and sin (Liger reads only
    # the first halves: they agree as Hugging Face builds them), and the
    # backward as the forward's transpose (sin negated, its halves swapped).
    pid = tl.program_id(0).to(tl.int64)
    q_ptr = q_ptr + pid * q_row_stride
    k_ptr = k_ptr + pid * k_row_stride
    cos_row = pid  # cos and sin per batch
    if cos_bs == 1:  # broadcast over the batch
        cos_row = pid % sl
    cos_ptr = cos_ptr + cos_row * cos_row_stride
    sin_ptr = sin_ptr + cos_row * sin_row_stride
    cols = tl.arange(0, pad_hd // 2)
    cmask = cols < hd // 2
    c1 = tl.load(cos_ptr + cols, mask=cmask, other=0).to(tl.float32)
    c2 = tl.load(cos_ptr + hd // 2 + cols, mask=cmask, other=0).to(tl.float32)
    s1 = tl.load(sin_ptr + cols, mask=cmask, other=0).to(tl.float32)
    s2 = tl.load(sin_ptr + hd // 2 + cols, mask=cmask, other=0).to(tl.float32)

    q_offs = tl.arange(0, pad_n_qh)[:, None] * hd + cols[None, :]
    k_offs = tl.arange(0, pad_n_kh)[:, None] * hd + cols[None, :]
    q_mask = (tl.arange(0, pad_n_qh)[:, None] < n_qh) & cmask[None, :]
    k_mask = (tl.arange(0, pad_n_kh)[:, None] < n_kh) & cmask[None, :]
    q1 = tl.load(q_ptr + q_offs, mask=q_mask, other=0).to(tl.float32)
    q2 = tl.load(q_ptr + q_offs + hd // 2, mask=q_mask, other=0).to(tl.float32)
    k1 = tl.load(k_ptr + k_offs, mask=k_mask, other=0).to(tl.float32)
    k2 = tl.load(k_ptr + k_offs + hd // 2, mask=k_mask, other=0).to(tl.float32)
    if not BACKWARD_PASS:
        # y = [x1, x2] * [cos, cos] + [-x2, x1] * [sin, sin]
        nq1 = q1 * c1[None, :] - q2 * s1[None, :]
        nq2 = q2 * c2[None, :] + q1 * s2[None, :]
        nk1 = k1 * c1[None, :] - k2 * s1[None, :]
        nk2 = k2 * c2[None, :] + k1 * s2[None, :]
    else:
        nq1 = q1 * c1[None, :] + q2 * s2[None, :]
        nq2 = q2 * c2[None, :] - q1 * s1[None, :]
        nk1 = k1 * c1[None, :] + k2 * s2[None, :]
        nk2 = k2 * c2[None, :] - k1 * s1[None, :]
    tl.store(q_ptr + q_offs, nq1.to(q_ptr.dtype.element_ty), mask=q_mask)
    tl.store(q_ptr + q_offs + hd // 2, nq2.to(q_ptr.dtype.element_ty), mask=q_mask)
    tl.store(k_ptr + k_offs, nk1.to(k_ptr.dtype.element_ty), mask=k_mask)
    tl.store(k_ptr + k_offs + hd // 2, nk2.to(k_ptr.dtype.element_ty), mask=k_mask)
