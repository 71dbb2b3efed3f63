/* cuda_extern.c — the GPU half of extern_mm (backend.h bench_gpu_ops):
 * cublasGemmEx with torch.mm's semantics (stages/gpu/cuda/cublas_mm.h),
 * fp16/bf16/fp32 data, CUBLAS_COMPUTE_32F (fp32 with tf32:
 * CUBLAS_COMPUTE_32F_FAST_TF32, as torch with allow_tf32).  Leading
 * dimensions are the input's (bench_input lda, ldb: the non-unit stride,
 * at least the extent, so a padded one is passed as it is and a size-1
 * dimension's free stride never reaches cuBLAS), not m, n, k: a screening
 * slice (screen.h) keeps the full operands'. */
#include <inttypes.h>
#include <stdio.h>

#include "gpu/cuda/cublas_mm.h"
#include "cuda.h"

static int extern_run(void *st, measurer *m, const bench_input *in, const bench_cand *c,
                      const cand_ready *r, const cuda_bufs *bf, int i, void *out)
{
	(void)st;
	(void)c;
	(void)r;
	cudaDataType_t t = in->dtype == DT_F32 ? CUDA_R_32F : in->dtype == DT_F16 ? CUDA_R_16F
	                                                                           : CUDA_R_16BF;
	cublasComputeType_t ct = (in->dtype == DT_F32 && in->tf32) ? CUBLAS_COMPUTE_32F_FAST_TF32
	                                                           : CUBLAS_COMPUTE_32F;
	cublasStatus_t s = cublas_mm(m->blas, in->ta, in->tb, (int)in->m, (int)in->n, (int)in->k,
	                             bf->A[i], (int)in->lda, bf->B[i], (int)in->ldb, t, out, t, ct);
	if (s != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "bench: input %" PRId64 ": extern_mm: cublasGemmEx: %s\n", in->id,
		        cublasGetStatusString(s));
		return -1;
	}
	return 0;
}

const bench_gpu_ops extern_gpu = { .run = extern_run };
