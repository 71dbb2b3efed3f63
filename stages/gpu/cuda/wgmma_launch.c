/* wgmma_launch.c — see wgmma_launch.h (kernels/wgmma.cu launch contract). */
#include "wgmma_launch.h"

const char *wgmma_kernel_name(int ta, int tb)
{
	static const char *const names[4] = { "wgmma_kernel_00", "wgmma_kernel_01",
	                                      "wgmma_kernel_10", "wgmma_kernel_11" };
	return names[(ta ? 2 : 0) + (tb ? 1 : 0)];
}

/* One operand stored row-major as (outer, inner) elements, box {64, box_outer}. */
static CUresult map_one(tmap_encode_fn enc, CUtensorMap *map, int bf16, const void *base,
                        long long inner, long long outer, int box_outer)
{
	cuuint64_t dims[2] = { (cuuint64_t)inner, (cuuint64_t)outer };
	cuuint64_t strides[1] = { (cuuint64_t)inner * 2 };
	cuuint32_t box[2] = { 64, (cuuint32_t)box_outer };
	cuuint32_t es[2] = { 1, 1 };
	return enc(map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
	           (void *)base, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
	           CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
	           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

CUresult wgmma_tensor_maps(tmap_encode_fn enc, int bf16, int ta, int tb, long long M, long long N,
                           long long K, const void *A, const void *B, int bm, int bn, int bk,
                           CUtensorMap *tA, CUtensorMap *tB)
{
	CUresult r = ta ? map_one(enc, tA, bf16, A, M, K, bk) : map_one(enc, tA, bf16, A, K, M, bm);
	if (r != CUDA_SUCCESS)
		return r;
	return tb ? map_one(enc, tB, bf16, B, K, N, bn) : map_one(enc, tB, bf16, B, N, K, bk);
}
