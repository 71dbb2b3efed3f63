/* wgmma_launch.h — host side of kernels/wgmma.cu's launch contract (its
 * header comment; part of libmmcuda, stages/gpu/cuda/: shared by bench's NVRTC
 * back end, stages/gpu/bench/nvrtc_gpu.c, and perf/kernels/wgmma_harness.c). */
#ifndef MMRANK_WGMMA_LAUNCH_H
#define MMRANK_WGMMA_LAUNCH_H

#include <cuda.h>

/* cuTensorMapEncodeTiled's signature (reached through
 * cudaGetDriverEntryPointByVersion, so no link against libcuda). */
typedef CUresult (*tmap_encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                   const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                   const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                                   CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* Kernel name of transposes (ta, tb): "wgmma_kernel_<ta><tb>". */
const char *wgmma_kernel_name(int ta, int tb);

/* Both tensor maps of one launch of wgmma.cu for C[M,N] = op(A) @ op(B)
 * with torch's transposes: A stored row-major (M,K) (ta 0) or (K,M) (ta 1),
 * B stored row-major (K,N) (tb 0) or (N,K) (tb 1); 2-byte elements (bf16: 1
 * for bfloat16, 0 for float16); tile BM x BN x BK of the config.  Maps:
 * rank 2, 128-byte swizzle, zero fill, L2 promotion 256 B, box {64, BM}
 * (ta 0) / {64, BK} (ta 1) for A, {64, BK} (tb 0) / {64, BN} (tb 1) for B.
 * Returns the first failing CUresult (the leading dimension in bytes must
 * be a multiple of 16 and the bases 16-byte aligned), else CUDA_SUCCESS. */
CUresult wgmma_tensor_maps(tmap_encode_fn enc, int bf16, int ta, int tb, long long M, long long N,
                           long long K, const void *A, const void *B, int bm, int bn, int bk,
                           CUtensorMap *tA, CUtensorMap *tB);

#endif
