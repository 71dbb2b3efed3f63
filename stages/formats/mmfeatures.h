/* mmfeatures.h — the mm feature definitions, in one place (spec §1.1, §4.1).
 *
 * The trainer (fit), the emitters (emit) and the evaluator all use this
 * table: raw context features as logged by Inductor, and the four derived
 * features of mm_operations(): m*k, m*n, k*n, arith_intensity.
 */
#ifndef MMRANK_MMFEATURES_H
#define MMRANK_MMFEATURES_H
#include <stdint.h>

#define MM_N_DERIVED 4
/* "m*k", "m*n", "k*n", "arith_intensity" in this order (spec §4.1). */
extern const char *const mm_derived_name[MM_N_DERIVED];

/* Derived features of (m, k, n), spec §4.1: products in 64-bit integers
 * (exact in double below 2^53), arith_intensity = m·k·n / (m·k + k·n + m·n)
 * correctly rounded as Python's int/int true division is (exact while
 * m·k·n < 2^53; above that through long double), 0.0 if any of m, k, n is 0.
 * out[MM_N_DERIVED] receives the values as doubles. */
void mm_derived(int64_t m, int64_t k, int64_t n, double out[MM_N_DERIVED]);

/* The logged mm context (spec §1.1), for the emitted C API and the
 * evaluator.  Index order = the order Inductor adds them to the context. */
#define MM_N_RAW_NUM 7
extern const char *const mm_raw_num_name[MM_N_RAW_NUM]; /* m k n mat1_stride_0 ... */
#define MM_N_RAW_CAT 5
extern const char *const mm_raw_cat_name[MM_N_RAW_CAT]; /* mat1_dtype ... using_tf32 */

#endif
