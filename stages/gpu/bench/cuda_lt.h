/* cuda_lt.h — the CUDA half of bench's cuBLASLt choices (cuda_lt.c; the
 * GPU-independent half is lt.h).  Used by the CUDA measurer (cuda.h):
 * lt_gpu_ops for candidates, measure_lt_heuristic for --lt-discover.
 *
 * Problem mapping (the same as extern_mm's cublasGemmEx call): torch.mm's
 * row-major C[m,n] = op(A)[m,k] op(B)[k,n] is the column-major
 * C^T[n,m] = op(B)^T op(A)^T, so cuBLASLt's "A" is torch's mat2 (transa =
 * tb ? T : N, stored k x n with ld k if transposed, else n x k with ld n),
 * its "B" is torch's mat1 (transb = ta ? T : N, m x k with ld m, or k x m
 * with ld k) and C/D are n x m with ld n; data type of the input for A, B,
 * C, D, scale type float, compute type CUBLAS_COMPUTE_32F, or
 * CUBLAS_COMPUTE_32F_FAST_TF32 for float32 with tf32.  alpha 1, beta 0,
 * stream 0.
 */
#ifndef MMRANK_BENCH_CUDA_LT_H
#define MMRANK_BENCH_CUDA_LT_H

#include <cublasLt.h>

#include "plan.h"
#include "lt.h"

/* Workspace cap given to cublasLtMatmulAlgoGetHeuristic in discovery, in
 * bytes (32 MiB, PyTorch's cuBLASLt workspace on Hopper). */
#define LT_HEURISTIC_WORKSPACE ((size_t)32 << 20)

typedef struct lt_gpu lt_gpu;

/* An algorithm rebuilt for the current problem, ready to run. */
typedef struct {
	cublasLtMatmulAlgo_t algo;
	size_t workspace;          /* bytes, from cublasLtMatmulAlgoCheck */
} lt_prep;

/* A cuBLASLt handle for the current device (cudaSetDevice done).  Dies if
 * cublasLtCreate fails. */
lt_gpu *lt_gpu_open(void);

/* Destroy descriptors, workspace and handle; dies on a failing call. */
void lt_gpu_close(lt_gpu *g);

/* Make in the current problem: (re)creates the matmul and layout
 * descriptors unless in has the same m, k, n, dtype, tf32, ta, tb, lda, ldb as the
 * current one.  Dies if a descriptor call fails (invalid sizes). */
void lt_gpu_problem(lt_gpu *g, const bench_input *in);

/* Rebuild algorithm a for the current problem (cublasLtMatmulAlgoInit and
 * one cublasLtMatmulAlgoConfigSetAttribute per attribute), check it
 * (cublasLtMatmulAlgoCheck) and make the workspace at least as large as
 * the check asks (one device buffer, grown, never shrunk).  Returns
 * CUBLAS_STATUS_SUCCESS, or the failing status with *what naming the call
 * (CUBLAS_STATUS_ALLOC_FAILED, "workspace", when cudaMalloc fails). */
cublasStatus_t lt_gpu_prepare(lt_gpu *g, const lt_algo *a, lt_prep *p, const char **what);

/* One call of a prepared algorithm on the current problem: out[m,n] =
 * mat1 * mat2 with torch.mm semantics (device pointers, the input's dtype).
 * Asynchronous on stream 0; returns cublasLtMatmul's status. */
cublasStatus_t lt_gpu_run(lt_gpu *g, const lt_prep *p, const void *mat1, const void *mat2,
                          void *out);

/* cublasLtMatmulAlgoGetHeuristic's top n algorithms (best first) for the
 * current problem, workspace at most LT_HEURISTIC_WORKSPACE, into out; the
 * results whose state is not success are skipped.  Each returned algorithm
 * is rebuilt from its attributes (lt_gpu_prepare's path) and compared with
 * the heuristic's descriptor: rebuilt[i] (n entries) is 1 if the rebuild
 * passes the check and equals it byte for byte (cublasLtMatmulAlgo_t),
 * else 0.  Returns the count: 0 when the heuristic has none
 * (CUBLAS_STATUS_NOT_SUPPORTED, or another failing status, then with a
 * message on stderr). */
int lt_gpu_heuristic(lt_gpu *g, int n, lt_algo *out, int *rebuilt);

/* 1 the first time it is asked for (id, type class cls), else 0: for
 * messages printed at most once per (algorithm, dtype). */
int lt_gpu_first(lt_gpu *g, const char *id, unsigned cls);

#endif
