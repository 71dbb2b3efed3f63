/* cublas_mm.h — torch.mm on cuBLAS (part of libmmcuda, stages/gpu/cuda/): the
 * one place that maps PyTorch's row-major product onto column-major
 * cublasGemmEx, used by bench's extern_mm (stages/gpu/bench/cuda_extern.c) and
 * the harnesses' references (perf/kernels/harness_gpu.c).
 *
 * Row-major C[M,N] = op(A)[M,K] op(B)[K,N] is column-major
 * C^T[N,M] = op(B)^T op(A)^T, so cuBLAS gets transa = tb ? T : N, transb =
 * ta ? T : N, sizes (N, M, K), B first, then A, and ldc = N.
 */
#ifndef MMRANK_CUBLAS_MM_H
#define MMRANK_CUBLAS_MM_H

#include <cublas_v2.h>

/* One product on h's stream, alpha 1, beta 0: A stored row-major (M,K)
 * (ta 0) or (K,M) (ta 1) with leading dimension lda (elements), B stored
 * (K,N) (tb 0) or (N,K) (tb 1) with ldb; A and B of type ab, C (row-major
 * M x N, leading dimension N) of type ct, compute type comp,
 * CUBLAS_GEMM_DEFAULT.  Returns cublasGemmEx's status. */
cublasStatus_t cublas_mm(cublasHandle_t h, int ta, int tb, int M, int N, int K, const void *A,
                         int lda, const void *B, int ldb, cudaDataType ab, void *C,
                         cudaDataType ct, cublasComputeType_t comp);

#endif
