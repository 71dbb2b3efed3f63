/* rng.h — seeded pseudo-random numbers (xoshiro256**, seeded by splitmix64).
 * Deterministic for a given seed on every platform; used by sample (spec §3.2
 * to §3.3, but seeded, unlike the reference's clock seed) and by fit's
 * train/val/test split (spec §5.3).  The state lives in the caller's struct. */
#ifndef MMRANK_RNG_H
#define MMRANK_RNG_H
#include <stdint.h>

typedef struct { uint64_t s[4]; } rng;

void rng_seed(rng *r, uint64_t seed);
uint64_t rng_u64(rng *r);
/* Uniform integer in [lo, hi] inclusive (Python random.randint semantics),
 * unbiased (rejection sampling).  Requires lo <= hi. */
int64_t rng_int(rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1) with 53 random bits. */
double rng_double(rng *r);
/* Fisher–Yates shuffle of idx[0..n). */
void rng_shuffle(rng *r, int *idx, int n);

#endif
