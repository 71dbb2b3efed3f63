/* mmfeatures.c — mm feature table and derived features (spec §1.1, §4.1). */
#include "mmfeatures.h"

const char *const mm_derived_name[MM_N_DERIVED] = {
	"m*k", "m*n", "k*n", "arith_intensity",
};

const char *const mm_raw_num_name[MM_N_RAW_NUM] = {
	"m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1",
};

const char *const mm_raw_cat_name[MM_N_RAW_CAT] = {
	"mat1_dtype", "mat2_dtype", "mat1_iscontig", "mat2_iscontig", "using_tf32",
};

void mm_derived(int64_t m, int64_t k, int64_t n, double out[MM_N_DERIVED])
{
	int64_t mk = m * k, mn = m * n, kn = k * n;
	out[0] = (double)mk;
	out[1] = (double)mn;
	out[2] = (double)kn;
	if (m == 0 || k == 0 || n == 0) {
		out[3] = 0.0;
		return;
	}
	/* Python: (m*k*n) / (m*k + k*n + m*n), exact integers, correctly
	 * rounded.  Both operands are exact doubles while below 2^53, and IEEE
	 * division is correctly rounded. */
	__int128 num = (__int128)mk * n;
	__int128 den = (__int128)mk + kn + mn;
	const __int128 exact = (__int128)1 << 53;
	if (num < exact && den < exact)
		out[3] = (double)(int64_t)num / (double)(int64_t)den;
	else
		out[3] = (double)((long double)num / (long double)den);
}
