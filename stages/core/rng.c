/* rng.c — xoshiro256** (Blackman & Vigna), seeded with splitmix64. */
#include "rng.h"

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_seed(rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

uint64_t rng_u64(rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

int64_t rng_int(rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)hi - (uint64_t)lo; /* hi - lo, may be 2^64-1 */
	if (span == UINT64_MAX)
		return (int64_t)rng_u64(r);
	uint64_t n = span + 1;
	uint64_t limit = UINT64_MAX - (UINT64_MAX % n) ; /* reject the tail */
	uint64_t x;
	do
		x = rng_u64(r);
	while (x >= limit && limit != 0);
	return (int64_t)((uint64_t)lo + x % n);
}

double rng_double(rng *r)
{
	return (double)(rng_u64(r) >> 11) * 0x1.0p-53;
}

void rng_shuffle(rng *r, int *idx, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_int(r, 0, i);
		int t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
}
