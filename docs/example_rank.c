/* example_rank.c — rank the kernel choices of one mm with a generated C
 * heuristic.  From the repository root:
 *   mkdir -p build && gcc -std=c99 -O2 -Wall -Igen docs/example_rank.c gen/_MMRankingH100.c -o build/rank && build/rank
 * Prints the top 10 (rank, choice) of a 4096^3 fp16 row-major product
 * (the whole list always holds extern_mm: rank() appends it where the leaf
 * lacks it) and the choice pick() would launch alone. */
#include <stdio.h>
#include "_MMRankingH100.h"

int main(void)
{
	ah_mm_context ctx = { .m = 4096, .k = 4096, .n = 4096,
		.mat1_stride_0 = 4096, .mat1_stride_1 = 1,
		.mat2_stride_0 = 4096, .mat2_stride_1 = 1,
		.mat1_dtype = AH_MM_DTYPE_FLOAT16, .mat2_dtype = AH_MM_DTYPE_FLOAT16,
		.mat1_iscontig = 1, .mat2_iscontig = 1, .allow_tf32 = 0 };
	ah_mm_ranked top[10];
	int n = MMRankingH100_rank(&ctx, top, 10);  /* whole list's length; -1: unsafe leaf */
	for (int i = 0; i < n && i < 10; i++)
		printf("%2d %s\n", i + 1, MMRankingH100_choices[top[i].choice]);  /* .prob: a leaf weight */
	printf("pick: %s\n", MMRankingH100_choices[MMRankingH100_pick(&ctx)]);
	return n < 0;
}
