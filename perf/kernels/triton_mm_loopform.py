# perf/kernels/triton_mm_loopform.py — EXPERIMENT (perf/kernels/loop_form.py): kernels/triton_mm.py with
# the K loop written as Inductor's template writes it (pointers recomputed from the 1-D offsets each
# step, no loop-carried 2-D offset tiles).  Otherwise a copy of kernels/triton_mm.py — our Triton mm kernel with the semantics of
# Inductor's mm template (torch 2.11: torch/_inductor/kernel/templates/
# triton_mm.py.jinja, see kernels/INDUCTOR_MM.md), compiled ahead of time
# by stages/bench/triton_aot.py and launched from C by
# stages/bench/triton_launch.c.
#
# C[M, N] (row-major, leading dimension N) = A[M, K] @ B[K, N] for fp16,
# bf16 and fp32 inputs; the output has the input dtype.  A and B are
# addressed through their strides (stride_am, stride_ak) and (stride_bk,
# stride_bn); an inner stride of 1 is compiled in as a constexpr (the
# variant's layout), the other sizes and strides are run-time arguments
# whose divisibility the variant declares (tt.divisibility), so one cubin
# serves every shape of its class.
#
# The structure is the template's, written anew:
#   * one program per BLOCK_M x BLOCK_N tile, grid = cdiv(M, BLOCK_M) *
#     cdiv(N, BLOCK_N), program ids grouped GROUP_M (= 8) tile rows at a
#     time for L2 reuse;
#   * rows and columns beyond M / N wrap (rm % M, rn % N), so the A and B
#     loads need no M / N mask; when the operand is dense (its strides are
#     the transposes' of a contiguous tensor), M >= BLOCK_M and K > 1, the
#     wrapped offsets carry tl.multiple_of / tl.max_contiguous hints
#     (HINT_A / HINT_B: Inductor evaluates the same condition on its
#     literal strides at code-generation time; here the host does);
#   * K is walked in BLOCK_K steps, a constant K_TILES of them when that is
#     at most 8 (0: cdiv(K, BLOCK_K) at run time); the loads are masked on K
#     unless EVEN_K (K % BLOCK_K == 0), masked elements read 0;
#   * tl.dot accumulates in ACC_TYPE (fp32), with TF32 for fp32 inputs only
#     when ALLOW_TF32;
#   * the store is masked on (rm < M) & (rn < N) and casts to C's dtype.
# INDEX_DTYPE is tl.int32, or tl.int64 when an operand or the output holds
# more than 2**31 - 1 elements (Inductor's can_use_32bit_indexing).
import triton
import triton.language as tl


@triton.jit
def triton_mm(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
              GROUP_M: tl.constexpr, EVEN_K: tl.constexpr, ALLOW_TF32: tl.constexpr,
              ACC_TYPE: tl.constexpr, HINT_A: tl.constexpr, HINT_B: tl.constexpr,
              K_TILES: tl.constexpr, INDEX_DTYPE: tl.constexpr):
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N

    # tiles in groups of GROUP_M rows: consecutive programs share B columns
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if HINT_A:
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    if HINT_B:
        offs_b_n = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K).to(INDEX_DTYPE)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)

    # the tile's offsets are loop-invariant; each K step moves a scalar base
    # pointer by BLOCK_K elements along K.  The addresses are the template's
    # (which recomputes them from k_idx with literal strides); the compiler
    # sees the same contiguity and alignment, and with run-time strides this
    # form costs no more instructions than the static loop
    # (kernels/INDUCTOR_MM.md section 2)
    for k_idx in range(0, K_TILES if K_TILES > 0 else tl.cdiv(K, BLOCK_K)):
        a_k = offs_k[None, :] + (k_idx * BLOCK_K).to(INDEX_DTYPE)
        b_k = offs_k[:, None] + (k_idx * BLOCK_K).to(INDEX_DTYPE)
        a_ptrs = A + (a_k * stride_ak + offs_a_m[:, None] * stride_am)
        b_ptrs = B + (b_k * stride_bk + offs_b_n[None, :] * stride_bn)
        if EVEN_K:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < (K - k_idx * BLOCK_K), other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < (K - k_idx * BLOCK_K), other=0.0)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)

    # recompute the tile's rows and columns (not the wrapped ones) for the store
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    tl.store(C + (idx_n + N * idx_m), acc.to(C.dtype.element_ty), mask=mask)
