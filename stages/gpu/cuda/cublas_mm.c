/* cublas_mm.c — see cublas_mm.h. */
#include "cublas_mm.h"

cublasStatus_t cublas_mm(cublasHandle_t h, int ta, int tb, int M, int N, int K, const void *A,
                         int lda, const void *B, int ldb, cudaDataType ab, void *C,
                         cudaDataType ct, cublasComputeType_t comp)
{
	const float one = 1.0f, zero = 0.0f;
	return cublasGemmEx(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, N, M,
	                    K, &one, B, ab, ldb, A, ab, lda, &zero, C, ct, N, comp,
	                    CUBLAS_GEMM_DEFAULT);
}
